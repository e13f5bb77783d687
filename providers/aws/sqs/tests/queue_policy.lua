-- Contract-test fixture of AWS::SQS::QueuePolicy: a policy on queue a, then
-- on a and b (in place).
local A = "https://sqs.us-east-1.amazonaws.com/123456789012/contract-a"
local B = "https://sqs.us-east-1.amazonaws.com/123456789012/contract-b"
local function doc(action)
  return { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = "*", Action = action, Resource = "*" } } }
end
return {
  setup = function(aws)
    aws.sqs.CreateQueue({ QueueName = "contract-a" })
    aws.sqs.CreateQueue({ QueueName = "contract-b" })
    return {}
  end,
  create = { Queues = { A }, PolicyDocument = doc("sqs:SendMessage") },
  updates = {
    { Queues = { A, B }, PolicyDocument = doc("sqs:*") },   -- none
  },
  verify = function(aws, id, props)
    for _, url in ipairs({ A, B }) do
      local listed = url == props.Queues[1] or url == props.Queues[2]
      local policy = aws.sqs.GetQueueAttributes({ QueueUrl = url, AttributeNames = { "Policy" } }).Attributes.Policy
      assert((policy ~= nil) == listed, "policy on " .. url)
      if listed then assert(policy:find(props.PolicyDocument.Statement[1].Action, 1, true), "action") end
    end
  end,
}
