-- Contract-test fixture of AWS::IAM::Policy: an inline policy put on roles
-- made in setup; every property updates in place.
local function doc(action)
  return { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = action, Resource = "*" } } }
end
local TRUST = { Version = "2012-10-17", Statement = {} }

return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "contract-a", AssumeRolePolicyDocument = TRUST })
    aws.iam.CreateRole({ RoleName = "contract-b", AssumeRolePolicyDocument = TRUST })
  end,
  create = { PolicyName = "contract", PolicyDocument = doc("s3:*"), Roles = { "contract-a" } },
  updates = {
    { PolicyDocument = doc("sqs:*") },              -- none
    { Roles = { "contract-a", "contract-b" } },     -- none
    { PolicyName = "renamed" },                     -- none
  },
  verify = function(aws, id, props)
    for _, role in ipairs({ "contract-a", "contract-b" }) do
      local names = aws.iam.ListRolePolicies({ RoleName = role }).PolicyNames
      local wanted = false
      for _, r in ipairs(props.Roles) do wanted = wanted or r == role end
      if wanted then
        assert(#names == 1 and names[1] == props.PolicyName, role .. " has " .. table.concat(names, ","))
        local got = aws.iam.GetRolePolicy({ RoleName = role, PolicyName = props.PolicyName }).PolicyDocument
        assert(got.Statement[1].Action == props.PolicyDocument.Statement[1].Action, "document differs on " .. role)
      else
        assert(#names == 0, role .. " still has " .. table.concat(names, ","))
      end
    end
  end,
}
