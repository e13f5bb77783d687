-- Contract-test fixture of AWS::Lambda::Url: a public URL of function f;
-- its auth type and CORS changed (in place), then for alias live
-- (replacement: a new URL).
return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "r", AssumeRolePolicyDocument = { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" } } } })  -- a role Lambda may assume
    aws.lambda.CreateFunction({ FunctionName = "f", Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "x" } })
    aws.lambda.PublishVersion({ FunctionName = "f" })
    aws.lambda.CreateAlias({ FunctionName = "f", Name = "live", FunctionVersion = "1" })
    return {}
  end,
  create = { TargetFunctionArn = "f", AuthType = "NONE" },
  updates = {
    { AuthType = "AWS_IAM", Cors = { AllowOrigins = { "https://example.com" } } },  -- none
    { Qualifier = "live" },                                                         -- replace
  },
  verify = function(aws, id, props, attributes)
    local u = aws.lambda.GetFunctionUrlConfig({ FunctionName = "f", Qualifier = props.Qualifier })
    assert(u.FunctionArn == id and attributes.FunctionArn == id, "FunctionArn " .. u.FunctionArn)
    assert(u.FunctionUrl == attributes.FunctionUrl, "FunctionUrl")
    assert(u.AuthType == props.AuthType, "AuthType " .. u.AuthType)
  end,
}
