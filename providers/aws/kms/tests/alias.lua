-- Contract-test fixture of AWS::KMS::Alias (../alias.lua): another target key
-- in place, then another name (replacement).
return {
  setup = function(aws)
    return { k1 = aws.kms.CreateKey({}).KeyMetadata.KeyId, k2 = aws.kms.CreateKey({}).KeyMetadata.KeyId }
  end,
  create = function(v) return { AliasName = "alias/app", TargetKeyId = v.k1 } end,
  updates = {
    function(v) return { TargetKeyId = v.k2 } end,          -- none
    function(v) return { AliasName = "alias/app2" } end,   -- replace
  },
  verify = function(aws, id, props)
    assert(aws.kms.DescribeKey({ KeyId = id }).KeyMetadata.KeyId == props.TargetKeyId, "wrong target")
  end,
}
