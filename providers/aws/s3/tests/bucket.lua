-- Contract-test fixture of AWS::S3::Bucket: a generated name; versioning,
-- encryption and tags in place; a BucketName (replacement).
return {
  create = { VersioningConfiguration = { Status = "Enabled" }, Tags = { { Key = "team", Value = "contract" } } },
  updates = {
    { BucketEncryption = { ServerSideEncryptionConfiguration = {
        { ServerSideEncryptionByDefault = { SSEAlgorithm = "aws:kms" }, BucketKeyEnabled = true } } },
      Tags = { { Key = "team", Value = "other" } } },   -- none
    { BucketName = "contract-renamed-bucket" },        -- replace
  },
  verify = function(aws, id, props, attributes)
    aws.s3.HeadBucket({ Bucket = id })
    assert(id == id:lower() and #id <= 63, "name " .. id)
    assert(attributes.Arn == "arn:aws:s3:::" .. id, "Arn " .. attributes.Arn)
    assert(aws.s3.GetBucketVersioning({ Bucket = id }).Status == "Enabled", "versioning")
    local tags = {}
    for _, t in ipairs(aws.s3.GetBucketTagging({ Bucket = id }).TagSet) do tags[t.Key] = t.Value end
    assert(tags.team == props.Tags[1].Value, "tag team")
  end,
}
