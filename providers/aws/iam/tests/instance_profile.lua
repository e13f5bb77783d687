-- Contract-test fixture of AWS::IAM::InstanceProfile: a profile holding a
-- role made in setup; the role swapped in place, then a Path (replacement).
local TRUST = { Version = "2012-10-17", Statement = {} }

return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "contract-a", AssumeRolePolicyDocument = TRUST })
    aws.iam.CreateRole({ RoleName = "contract-b", AssumeRolePolicyDocument = TRUST })
  end,
  create = { Roles = { "contract-a" } },
  updates = {
    { Roles = { "contract-b" } },   -- none
    { Path = "/contract/" },        -- replace
  },
  verify = function(aws, id, props, attributes)
    local ip = aws.iam.GetInstanceProfile({ InstanceProfileName = id }).InstanceProfile
    assert(ip.Arn == attributes.Arn, "Arn " .. tostring(attributes.Arn) .. " is not " .. ip.Arn)
    assert(ip.Path == (props.Path or "/"), "Path is " .. ip.Path)
    assert(#ip.Roles == 1 and ip.Roles[1].RoleName == props.Roles[1], "holds the wrong role")
  end,
}
