-- Contract-test fixture of AWS::Lambda::EventSourceMapping: queue q feeds
-- function f; batch size and Enabled in place; another queue (replacement).
local Q1, Q2 = "arn:aws:sqs:us-east-1:123456789012:contract-q1", "arn:aws:sqs:us-east-1:123456789012:contract-q2"
return {
  setup = function(aws)
    aws.iam.CreateRole({ RoleName = "r", AssumeRolePolicyDocument = { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" } } } })  -- a role Lambda may assume
    aws.lambda.CreateFunction({ FunctionName = "f", Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "x" } })
    aws.sqs.CreateQueue({ QueueName = "contract-q1" })
    aws.sqs.CreateQueue({ QueueName = "contract-q2" })
    return {}
  end,
  create = { FunctionName = "f", EventSourceArn = Q1, BatchSize = 5 },
  updates = {
    { BatchSize = 7, Enabled = false },   -- none
    { EventSourceArn = Q2 },              -- replace
  },
  verify = function(aws, id, props, attributes)
    local m = aws.lambda.GetEventSourceMapping({ UUID = id })
    assert(m.EventSourceArn == props.EventSourceArn, "source")
    assert(m.BatchSize == props.BatchSize, "batch size " .. tostring(m.BatchSize))
    assert(m.State == (props.Enabled == false and "Disabled" or "Enabled"), "state " .. m.State)
    assert(attributes.EventSourceMappingArn == "arn:aws:lambda:us-east-1:123456789012:event-source-mapping:" .. id, "arn")
  end,
}
