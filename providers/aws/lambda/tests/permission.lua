-- Contract-test fixture of AWS::Lambda::Permission: S3 may invoke function
-- f; another principal (replacement: every property is create-only).
return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "r", AssumeRolePolicyDocument = { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" } } } })  -- a role Lambda may assume
    aws.lambda.CreateFunction({ FunctionName = "f", Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "x" } })
    return {}
  end,
  create = { FunctionName = "f", Action = "lambda:InvokeFunction", Principal = "s3.amazonaws.com",
             SourceArn = "arn:aws:s3:::b" },
  updates = { { Principal = "sns.amazonaws.com" } },   -- replace
  verify = function(aws, id, props)
    local policy = aws.lambda.GetPolicy({ FunctionName = "f" }).Policy
    assert(policy:find('"Sid":"' .. id .. '"', 1, true), "statement " .. id)
    assert(policy:find('"Service":"' .. props.Principal .. '"', 1, true), "principal")
  end,
}
