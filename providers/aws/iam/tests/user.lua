-- Contract-test fixture of AWS::IAM::User: a user with an inline and a
-- managed policy, a group made in setup and a login profile; updates in
-- place (policies, groups, path, tags, login profile, boundary), then a
-- UserName (replacement).
local function doc(action)
  return { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = action, Resource = "*" } } }
end

return {
  setup = function(aws)
    aws.iam.CreateGroup({ GroupName = "contract-a" })
    aws.iam.CreateGroup({ GroupName = "contract-b" })
  end,
  create = {
    Policies = { { PolicyName = "logs", PolicyDocument = doc("logs:*") } },
    ManagedPolicyArns = { "arn:aws:iam::aws:policy/ReadOnlyAccess" },
    Groups = { "contract-a" },
    LoginProfile = { Password = "Passw0rd-123!" },
    Tags = { { Key = "team", Value = "contract" } },
  },
  updates = {
    { Policies = { { PolicyName = "s3", PolicyDocument = doc("s3:Get*") } } },            -- none
    { Groups = { "contract-b" }, Path = "/contract/" },                                   -- none
    { ManagedPolicyArns = { "arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess" },
      Tags = { { Key = "team", Value = "other" } },
      PermissionsBoundary = "arn:aws:iam::aws:policy/PowerUserAccess" },                  -- none
    { LoginProfile = { Password = "Passw0rd-123!", PasswordResetRequired = true } },      -- none
    { UserName = "contract-user" },                                                        -- replace
  },
  verify = function(aws, id, props, attributes)
    local u = aws.iam.GetUser({ UserName = id }).User
    assert(u.Arn == attributes.Arn, "Arn " .. tostring(attributes.Arn) .. " is not the user's " .. u.Arn)
    assert(u.Path == (props.Path or "/"), "Path is " .. u.Path)
    if props.UserName then assert(u.UserName == props.UserName, "UserName is " .. u.UserName) end
    local boundary = u.PermissionsBoundary and u.PermissionsBoundary.PermissionsBoundaryArn
    assert(boundary == props.PermissionsBoundary, "PermissionsBoundary is " .. tostring(boundary))
    local names = aws.iam.ListUserPolicies({ UserName = id }).PolicyNames
    assert(#names == #(props.Policies or {}), #names .. " inline policies")
    for _, p in ipairs(props.Policies or {}) do aws.iam.GetUserPolicy({ UserName = id, PolicyName = p.PolicyName }) end
    local attached = aws.iam.ListAttachedUserPolicies({ UserName = id }).AttachedPolicies
    assert(#attached == #(props.ManagedPolicyArns or {}), #attached .. " managed policies")
    local groups = aws.iam.ListGroupsForUser({ UserName = id }).Groups
    assert(#groups == #(props.Groups or {}) and groups[1].GroupName == props.Groups[1], "in the wrong groups")
    local lp = aws.iam.GetLoginProfile({ UserName = id }).LoginProfile
    assert(lp.PasswordResetRequired == (props.LoginProfile.PasswordResetRequired == true), "PasswordResetRequired differs")
    local tags = {}
    for _, t in ipairs(u.Tags or {}) do tags[t.Key] = t.Value end
    for _, t in ipairs(props.Tags or {}) do assert(tags[t.Key] == t.Value, "tag " .. t.Key) tags[t.Key] = nil end
    assert(next(tags) == nil, "extra tag " .. tostring(next(tags)))
  end,
}
