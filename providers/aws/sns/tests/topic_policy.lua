-- Contract-test fixture of AWS::SNS::TopicPolicy: a policy on topic a, then
-- on a and b (in place).
local A = "arn:aws:sns:us-east-1:123456789012:contract-a"
local B = "arn:aws:sns:us-east-1:123456789012:contract-b"
local function doc(action)
  return { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = "*", Action = action, Resource = "*" } } }
end
return {
  setup = function(aws)
    aws.sns.CreateTopic({ Name = "contract-a" })
    aws.sns.CreateTopic({ Name = "contract-b" })
    return {}
  end,
  create = { Topics = { A }, PolicyDocument = doc("sns:Publish") },
  updates = { { Topics = { A, B }, PolicyDocument = doc("sns:*") } },   -- none
  verify = function(aws, id, props)
    for _, arn in ipairs({ A, B }) do
      local listed = arn == props.Topics[1] or arn == props.Topics[2]
      local policy = aws.sns.GetTopicAttributes({ TopicArn = arn }).Attributes.Policy
      assert((policy ~= nil) == listed, "policy on " .. arn)
    end
  end,
}
