-- Contract-test fixture of AWS::Lambda::Alias: an alias on version 1 of a
-- function made in setup; moved to version 2 (no policy: at once), its
-- name (replacement). The CodeDeploy policy: tests/providers/test_aws_lambda_codedeploy.lua.
return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "r", AssumeRolePolicyDocument = { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" } } } })  -- a role Lambda may assume
    aws.lambda.CreateFunction({ FunctionName = "f", Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "x" } })
    aws.lambda.PublishVersion({ FunctionName = "f" })
    aws.lambda.UpdateFunctionCode({ FunctionName = "f", ZipFile = "y" })
    aws.lambda.PublishVersion({ FunctionName = "f" })
    return {}
  end,
  create = { FunctionName = "f", Name = "live", FunctionVersion = "1" },
  updates = {
    { FunctionVersion = "2", Description = "d" },  -- none
    { Name = "other" },                            -- replace
  },
  verify = function(aws, id, props, attributes)
    local a = aws.lambda.GetAlias({ FunctionName = "f", Name = props.Name })
    assert(a.FunctionVersion == props.FunctionVersion, "version " .. a.FunctionVersion)
    assert(attributes.AliasArn == id, "AliasArn")
  end,
}
