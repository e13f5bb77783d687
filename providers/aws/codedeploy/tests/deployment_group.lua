-- Contract-test fixture of AWS::CodeDeploy::DeploymentGroup: a group of an
-- application made in setup; its deployment configuration in place, its
-- name (replacement).
return {
  setup = function(aws)
    aws.codedeploy.CreateApplication({ applicationName = "app", computePlatform = "Lambda" })
    return {}
  end,
  create = { ApplicationName = "app", ServiceRoleArn = "arn:aws:iam::123456789012:role/cd",
             DeploymentConfigName = "CodeDeployDefault.LambdaAllAtOnce" },
  updates = {
    { DeploymentConfigName = "CodeDeployDefault.LambdaCanary10Percent5Minutes" },  -- none
    { DeploymentGroupName = "contract-renamed" },                                  -- replace
  },
  verify = function(aws, id, props)
    local g = aws.codedeploy.GetDeploymentGroup({ applicationName = "app", deploymentGroupName = id }).deploymentGroupInfo
    assert(g.deploymentConfigName == props.DeploymentConfigName, "config " .. g.deploymentConfigName)
  end,
}
