-- Contract-test fixture of AWS::Lambda::Version: a version of function f
-- made in setup; its scaling config in place; a version of g instead
-- (replacement: FunctionName is create-only).
return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "r", AssumeRolePolicyDocument = { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" } } } })  -- a role Lambda may assume
    for _, name in ipairs({ "f", "g" }) do
      aws.lambda.CreateFunction({ FunctionName = name, Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = name } })
    end
    return {}
  end,
  create = { FunctionName = "f", Description = "one" },
  updates = {
    { FunctionScalingConfig = { MinExecutionEnvironments = 1 } },  -- none
    { FunctionName = "g" },                                        -- replace
  },
  verify = function(aws, id, props, attributes)
    local c = aws.lambda.GetFunctionConfiguration({ FunctionName = props.FunctionName, Qualifier = attributes.Version })
    assert(id == c.FunctionArn, "id is " .. id)
  end,
}
