-- Contract-test fixture of AWS::Lambda::Version: a version of function f
-- made in setup; its scaling config in place; a version of g instead
-- (replacement: FunctionName is create-only).
return {
  setup = function(aws)
    for _, name in ipairs({ "f", "g" }) do
      aws.lambda.CreateFunction({ FunctionName = name, Role = "arn:aws:iam::123456789012:role/r", Code = { ZipFile = name } })
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
