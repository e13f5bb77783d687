-- Contract-test fixture of AWS::IAM::AccessKey: a key of a user made in
-- setup; Status changes in place, Serial replaces (rotates) the key.
return {
  setup = function(aws)
    aws.iam.CreateUser({ UserName = "contract-user" })
  end,
  create = { UserName = "contract-user" },
  updates = {
    { Status = "Inactive" },   -- none
    { Serial = 2 },            -- replace
  },
  verify = function(aws, id, props, attributes)
    assert(id:match("^AKIA[A-Z0-9]+$") and #id == 20, "access key ID " .. id)
    assert(type(attributes.SecretAccessKey) == "string" and #attributes.SecretAccessKey == 40, "SecretAccessKey")
    local keys = aws.iam.ListAccessKeys({ UserName = props.UserName }).AccessKeyMetadata
    local found
    for _, k in ipairs(keys) do if k.AccessKeyId == id then found = k end end
    assert(found, "key " .. id .. " is not the user's")
    assert(found.Status == (props.Status or "Active"), "Status is " .. found.Status)
  end,
}
