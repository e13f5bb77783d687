-- Contract-test fixture of AWS::Lambda::LayerVersion: a version of layer
-- "deps" from an object in S3 (Lambda takes it when the version is
-- published); another description (replacement: a new version).
return {
  setup = function(aws)
    aws.s3.CreateBucket({ Bucket = "layer-code" })
    aws.s3.PutObject({ Bucket = "layer-code", Key = "deps.zip", Body = "PK\3\4deps" })
    return {}
  end,
  create = { LayerName = "deps", Content = { S3Bucket = "layer-code", S3Key = "deps.zip" }, CompatibleRuntimes = { "python3.12" } },
  updates = { { Description = "two" } },   -- replace
  verify = function(aws, id, props, attributes)
    local v = aws.lambda.GetLayerVersionByArn({ Arn = id })
    assert(id == attributes.LayerVersionArn and id:match("^arn:aws:lambda:us%-east%-1:123456789012:layer:deps:%d+$"), id)
    assert(v.Description == (props.Description or ""), "description")
  end,
}
