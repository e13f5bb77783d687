-- Contract-test fixture of AWS::Lambda::Function: code and memory in place,
-- the name (replacement).
return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "r", AssumeRolePolicyDocument = { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" } } } })  -- a role Lambda may assume
    return {}
  end,
  create = { Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.12", Handler = "a.h", Code = { ZipFile = "x" } },
  updates = {
    { MemorySize = 256, Code = { ZipFile = "y" } },   -- none
    { FunctionName = "contract-renamed" },           -- replace
  },
  verify = function(aws, id, props, attributes)
    local c = aws.lambda.GetFunctionConfiguration({ FunctionName = id })
    assert(c.MemorySize == (props.MemorySize or 128), "memory " .. tostring(c.MemorySize))
    assert(attributes.Arn == c.FunctionArn, "Arn")
  end,
}
