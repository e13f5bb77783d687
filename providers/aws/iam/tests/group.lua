-- Contract-test fixture of AWS::IAM::Group: a group with an inline and a
-- managed policy; updates in place (policies, path), then a GroupName
-- (replacement).
local function doc(action)
  return { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = action, Resource = "*" } } }
end

return {
  create = {
    Policies = { { PolicyName = "logs", PolicyDocument = doc("logs:*") } },
    ManagedPolicyArns = { "arn:aws:iam::aws:policy/ReadOnlyAccess" },
  },
  updates = {
    { Policies = { { PolicyName = "s3", PolicyDocument = doc("s3:Get*") } } },          -- none
    { ManagedPolicyArns = { "arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess" } },       -- none
    { Path = "/contract/" },                                                             -- none
    { GroupName = "contract-group" },                                                    -- replace
  },
  verify = function(aws, id, props, attributes)
    local g = aws.iam.GetGroup({ GroupName = id }).Group
    assert(g.Arn == attributes.Arn, "Arn " .. tostring(attributes.Arn) .. " is not the group's " .. g.Arn)
    assert(g.Path == (props.Path or "/"), "Path is " .. g.Path)
    if props.GroupName then assert(g.GroupName == props.GroupName, "GroupName is " .. g.GroupName) end
    local names = aws.iam.ListGroupPolicies({ GroupName = id }).PolicyNames
    assert(#names == #(props.Policies or {}) and names[1] == props.Policies[1].PolicyName, "inline policies differ")
    local attached = aws.iam.ListAttachedGroupPolicies({ GroupName = id }).AttachedPolicies
    assert(#attached == 1 and attached[1].PolicyArn == props.ManagedPolicyArns[1], "managed policies differ")
  end,
}
