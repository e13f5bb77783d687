-- Contract-test fixture of AWS::Logs::LogGroup: a generated name with a
-- retention; retention, KMS key and tags in place; a name (replacement).
return {
  create = { RetentionInDays = 7, Tags = { { Key = "team", Value = "contract" } } },
  updates = {
    { RetentionInDays = 30, KmsKeyId = "arn:aws:kms:us-east-1:123456789012:key/k", Tags = { { Key = "team", Value = "b" } } },
    { LogGroupName = "/contract/renamed" },   -- replace
  },
  verify = function(aws, id, props, attributes)
    local g = aws.logs.DescribeLogGroups({ logGroupNamePrefix = id }).logGroups[1]
    assert(g and g.logGroupName == id, "group " .. id)
    assert(g.retentionInDays == props.RetentionInDays, "retention " .. tostring(g.retentionInDays))
    assert(attributes.Arn == "arn:aws:logs:us-east-1:123456789012:log-group:" .. id .. ":*", "arn " .. attributes.Arn)
  end,
}
