-- AWS::CodeDeploy::DeploymentGroup on the simulated CodeDeploy: for a
-- Lambda application, its DeploymentConfigName is how a
-- CodeDeployLambdaAliasUpdate shifts traffic (CodeDeployDefault.LambdaAllAtOnce,
-- LambdaCanary10Percent5Minutes, LambdaLinear10PercentEvery1Minute, ...).
-- ApplicationName and DeploymentGroupName are Replacement (create-only);
-- the rest No interruption (UpdateDeploymentGroup). Ref is the group name
-- (generated "<stack>-<logical>-<12>" within 100 characters); no
-- Fn::GetAtt.
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

local function gone(err)
  return type(err) == "table"
    and (err.code == "DeploymentGroupDoesNotExistException" or err.code == "ApplicationDoesNotExistException")
end

local properties = {
  P.string "ApplicationName" { required = true, update = "replace" },
  P.string "DeploymentConfigName" { update = "none" },
  P.string "DeploymentGroupName" { update = "replace" },
  P.json "DeploymentStyle" { update = "none" },
  P.string "ServiceRoleArn" { required = true, update = "none" },
  P.tags "Tags" { update = "none" },
  P.list(P.string) "AutoScalingGroups" { update = "none" },
}
for _, name in ipairs({ "AlarmConfiguration", "AutoRollbackConfiguration",
                        "BlueGreenDeploymentConfiguration", "Deployment", "ECSServices", "Ec2TagFilters", "Ec2TagSet",
                        "LoadBalancerInfo", "OnPremisesInstanceTagFilters", "OnPremisesTagSet",
                        "OutdatedInstancesStrategy", "TerminationHookEnabled", "TriggerConfigurations" }) do
  properties[#properties + 1] = P.json(name) { update = "none" }
end
table.sort(properties, function(a, b) return a.name < b.name end)

return P.define {
  type = "AWS::CodeDeploy::DeploymentGroup",
  properties = properties,
  attributes = {},

  create = function(ctx, props)
    local name = props.DeploymentGroupName or names.physical(ctx.stack_name, ctx.logical_id, 100)
    ctx.world.codedeploy.CreateDeploymentGroup { applicationName = props.ApplicationName, deploymentGroupName = name,
      serviceRoleArn = props.ServiceRoleArn, deploymentConfigName = props.DeploymentConfigName,
      deploymentStyle = props.DeploymentStyle }
    return { id = name, attributes = {} }
  end,

  update = function(ctx, id, new)
    ctx.world.codedeploy.UpdateDeploymentGroup { applicationName = new.ApplicationName, currentDeploymentGroupName = id,
      serviceRoleArn = new.ServiceRoleArn, deploymentConfigName = new.DeploymentConfigName or "CodeDeployDefault.LambdaAllAtOnce",
      deploymentStyle = new.DeploymentStyle }
  end,

  delete = function(ctx, id, props)
    local ok, err = pcall(ctx.world.codedeploy.DeleteDeploymentGroup,
      { applicationName = props.ApplicationName, deploymentGroupName = id })
    if not ok and not gone(err) then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local ok, r = pcall(ctx.world.codedeploy.GetDeploymentGroup,
      { applicationName = props.ApplicationName, deploymentGroupName = id })
    if not ok then
      if gone(r) then return nil end
      error(r, 0)
    end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    if props.DeploymentConfigName then properties.DeploymentConfigName = r.deploymentGroupInfo.deploymentConfigName end
    return { properties = properties, attributes = {} }
  end,
}
