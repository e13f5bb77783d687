-- Contract-test fixture of AWS::SNS::Topic: a generated name with an inline
-- SQS subscription; display name, subscriptions and tags in place;
-- FifoTopic (replacement, a generated ".fifo" name).
local Q1, Q2 = "arn:aws:sqs:us-east-1:123456789012:q1", "arn:aws:sqs:us-east-1:123456789012:q2"
return {
  create = { DisplayName = "one", Subscription = { { Protocol = "sqs", Endpoint = Q1 } },
             Tags = { { Key = "team", Value = "contract" } } },
  updates = {
    { DisplayName = "two", Subscription = { { Protocol = "sqs", Endpoint = Q2 } },
      Tags = { { Key = "team", Value = "other" } } },   -- none
    { FifoTopic = true, Subscription = moonstack and moonstack.null or nil },  -- replace
  },
  verify = function(aws, id, props, attributes)
    local a = aws.sns.GetTopicAttributes({ TopicArn = id }).Attributes
    assert(a.DisplayName == props.DisplayName, "display name " .. tostring(a.DisplayName))
    assert(id == "arn:aws:sns:us-east-1:123456789012:" .. attributes.TopicName, "arn " .. id)
    assert((props.FifoTopic == true) == (attributes.TopicName:sub(-5) == ".fifo"), "fifo name")
    local subs = aws.sns.ListSubscriptionsByTopic({ TopicArn = id }).Subscriptions
    local want = props.Subscription or {}
    assert(#subs == #want, #subs .. " subscriptions")
    if want[1] then assert(subs[1].Endpoint == want[1].Endpoint, "endpoint " .. subs[1].Endpoint) end
  end,
}
