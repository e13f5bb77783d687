-- Contract-test fixture of AWS::SQS::Queue: a standard queue with a
-- generated name; visibility, redrive to a queue made in setup and tags in
-- place; FifoQueue (replacement, a generated ".fifo" name).
return {
  setup = function(aws)
    aws.sqs.CreateQueue({ QueueName = "contract-dlq" })
    return {}
  end,
  create = { VisibilityTimeout = 60, Tags = { { Key = "team", Value = "contract" } } },
  updates = {
    { VisibilityTimeout = 120, DelaySeconds = 5, Tags = { { Key = "team", Value = "other" } },
      RedrivePolicy = { deadLetterTargetArn = "arn:aws:sqs:us-east-1:123456789012:contract-dlq", maxReceiveCount = 3 } },
    { FifoQueue = true },                                  -- replace
  },
  verify = function(aws, id, props, attributes)
    local a = aws.sqs.GetQueueAttributes({ QueueUrl = id }).Attributes
    assert(a.VisibilityTimeout == tostring(props.VisibilityTimeout), "visibility " .. a.VisibilityTimeout)
    assert(attributes.QueueUrl == id and id == "https://sqs.us-east-1.amazonaws.com/123456789012/" .. attributes.QueueName,
      "url " .. id)
    assert(attributes.Arn == "arn:aws:sqs:us-east-1:123456789012:" .. attributes.QueueName, "arn")
    assert((props.FifoQueue == true) == (attributes.QueueName:sub(-5) == ".fifo"), "fifo name " .. attributes.QueueName)
    assert(aws.sqs.ListQueueTags({ QueueUrl = id }).Tags.team == props.Tags[1].Value, "tag")
  end,
}
