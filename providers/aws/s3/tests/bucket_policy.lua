-- Contract-test fixture of AWS::S3::BucketPolicy: a policy on bucket
-- "contract-a", its document in place; bucket "contract-b" instead
-- (replacement, with a document naming it: S3 refuses a resource of
-- another bucket).
local function doc(bucket, action)
  return { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = "*", Action = action,
                                                   Resource = "arn:aws:s3:::" .. bucket .. "/*" } } }
end
return {
  setup = function(aws)
    aws.s3.CreateBucket({ Bucket = "contract-a" })
    aws.s3.CreateBucket({ Bucket = "contract-b" })
    return {}
  end,
  create = { Bucket = "contract-a", PolicyDocument = doc("contract-a", "s3:GetObject") },
  updates = {
    { PolicyDocument = doc("contract-a", "s3:PutObject") },                               -- none
    { Bucket = "contract-b", PolicyDocument = doc("contract-b", "s3:PutObject") },        -- replace
  },
  verify = function(aws, id, props)
    assert(id == props.Bucket, "id " .. id)
    local policy = aws.s3.GetBucketPolicy({ Bucket = id }).Policy
    assert(policy.Statement[1].Action == props.PolicyDocument.Statement[1].Action, "policy")
  end,
}
