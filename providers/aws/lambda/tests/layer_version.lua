-- Contract-test fixture of AWS::Lambda::LayerVersion: a version of layer
-- "deps"; another description (replacement: a new version).
return {
  create = { LayerName = "deps", Content = { S3Bucket = "b", S3Key = "deps.zip" }, CompatibleRuntimes = { "python3.12" } },
  updates = { { Description = "two" } },   -- replace
  verify = function(aws, id, props, attributes)
    local v = aws.lambda.GetLayerVersionByArn({ Arn = id })
    assert(id == attributes.LayerVersionArn and id:match("^arn:aws:lambda:us%-east%-1:123456789012:layer:deps:%d+$"), id)
    assert(v.Description == (props.Description or ""), "description")
  end,
}
