-- Contract-test fixture of AWS::IAM::Role: a role with an inline and a
-- managed policy; updates in place (description, inline policies, managed
-- policies, tags) and replacements (a RoleName, then a Path).
local TRUST = {
  Version = "2012-10-17",
  Statement = { { Effect = "Allow", Principal = { Service = "ec2.amazonaws.com" }, Action = "sts:AssumeRole" } },
}
local function doc(action)
  return { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = action, Resource = "*" } } }
end

return {
  create = {
    AssumeRolePolicyDocument = TRUST,
    Description = "contract role",
    Policies = { { PolicyName = "logs", PolicyDocument = doc("logs:*") } },
    ManagedPolicyArns = { "arn:aws:iam::aws:policy/ReadOnlyAccess" },
    Tags = { { Key = "team", Value = "contract" } },
  },
  updates = {
    { Description = "changed", MaxSessionDuration = 7200 },                             -- none
    { Policies = { { PolicyName = "s3", PolicyDocument = doc("s3:Get*") } } },          -- none
    { ManagedPolicyArns = { "arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess" },
      Tags = { { Key = "team", Value = "other" }, { Key = "env", Value = "test" } } },  -- none
    { Path = "/contract/" },                                                             -- replace
    -- A named role cannot be replaced under the same name (as on AWS), so
    -- the name comes last.
    { RoleName = "contract-role" },                                                      -- replace
  },
  verify = function(aws, id, props, attributes)
    local role = aws.iam.GetRole({ RoleName = id }).Role
    assert(role.Arn == attributes.Arn, "Arn " .. tostring(attributes.Arn) .. " is not the role's " .. role.Arn)
    assert(role.RoleId == attributes.RoleId, "RoleId differs")
    assert(role.Path == (props.Path or "/"), "Path is " .. role.Path)
    assert((role.Description or "") == (props.Description or ""), "Description is " .. tostring(role.Description))
    assert(role.MaxSessionDuration == (props.MaxSessionDuration or 3600), "MaxSessionDuration is " .. role.MaxSessionDuration)
    if props.RoleName then assert(role.RoleName == props.RoleName, "RoleName is " .. role.RoleName) end
    local names = aws.iam.ListRolePolicies({ RoleName = id }).PolicyNames
    assert(#names == #(props.Policies or {}), #names .. " inline policies")
    for _, p in ipairs(props.Policies or {}) do
      aws.iam.GetRolePolicy({ RoleName = id, PolicyName = p.PolicyName })
    end
    local attached = aws.iam.ListAttachedRolePolicies({ RoleName = id }).AttachedPolicies
    assert(#attached == #(props.ManagedPolicyArns or {}), #attached .. " managed policies")
    local tags = {}
    for _, t in ipairs(role.Tags or {}) do tags[t.Key] = t.Value end
    for _, t in ipairs(props.Tags or {}) do assert(tags[t.Key] == t.Value, "tag " .. t.Key) tags[t.Key] = nil end
    assert(next(tags) == nil, "extra tag " .. tostring(next(tags)))
  end,
}
