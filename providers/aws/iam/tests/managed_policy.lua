-- Contract-test fixture of AWS::IAM::ManagedPolicy: a policy attached to a
-- role made in setup; a new document (a new default version), another role,
-- then a Description (a replacement).
local function doc(action)
  return { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = action, Resource = "*" } } }
end
local TRUST = { Version = "2012-10-17", Statement = {} }

return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "contract-a", AssumeRolePolicyDocument = TRUST })
    aws.iam.CreateRole({ RoleName = "contract-b", AssumeRolePolicyDocument = TRUST })
  end,
  create = { PolicyDocument = doc("s3:*"), Roles = { "contract-a" } },
  updates = {
    { PolicyDocument = doc("sqs:*") },      -- none
    { Roles = { "contract-b" } },           -- none
    { Description = "now described" },      -- replace
  },
  verify = function(aws, id, props, attributes)
    local p = aws.iam.GetPolicy({ PolicyArn = id }).Policy
    assert(attributes.PolicyArn == id, "PolicyArn is " .. tostring(attributes.PolicyArn))
    assert(attributes.DefaultVersionId == p.DefaultVersionId, "DefaultVersionId " .. tostring(attributes.DefaultVersionId))
    local v = aws.iam.GetPolicyVersion({ PolicyArn = id, VersionId = p.DefaultVersionId }).PolicyVersion
    assert(v.Document.Statement[1].Action == props.PolicyDocument.Statement[1].Action, "the default version's document differs")
    local roles = aws.iam.ListEntitiesForPolicy({ PolicyArn = id }).PolicyRoles
    assert(#roles == #props.Roles and roles[1].RoleName == props.Roles[1], "attached to the wrong roles")
    assert((p.Description or "") == (props.Description or ""), "Description is " .. tostring(p.Description))
  end,
}
