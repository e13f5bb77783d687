-- Contract-test fixture of AWS::KMS::Key (../key.lua): description, rotation
-- and tags in place, then another key usage (replacement).
return {
  create = { Description = "app key", Tags = { { Key = "team", Value = "a" } } },
  updates = {
    { Description = "app key 2", EnableKeyRotation = true, Tags = { { Key = "team", Value = "b" } } },  -- none
    { KeyUsage = "SIGN_VERIFY", KeySpec = "RSA_2048", EnableKeyRotation = false },                    -- replace
  },
  verify = function(aws, id, props, attributes)
    local k = aws.kms.DescribeKey({ KeyId = id }).KeyMetadata
    assert(k.Description == props.Description, "Description is " .. k.Description)
    assert(attributes.Arn == "arn:aws:kms:us-east-1:123456789012:key/" .. id, "Arn is " .. tostring(attributes.Arn))
    assert(attributes.KeyId == id, "KeyId is " .. tostring(attributes.KeyId))
  end,
}
