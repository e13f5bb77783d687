-- Contract-test fixture of AWS::CodeDeploy::Application: tags in place, the
-- name (replacement).
return {
  create = { ComputePlatform = "Lambda" },
  updates = {
    { Tags = { { Key = "team", Value = "a" } } },  -- none
    { ApplicationName = "contract-renamed" },      -- replace
  },
  verify = function(aws, id, props)
    assert(aws.codedeploy.GetApplication({ applicationName = id }).application.computePlatform == "Lambda", "platform")
  end,
}
