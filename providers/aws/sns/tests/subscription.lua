-- Contract-test fixture of AWS::SNS::Subscription: an SQS subscription to a
-- topic made in setup; raw delivery and a filter policy in place; another
-- endpoint (replacement).
local TOPIC = "arn:aws:sns:us-east-1:123456789012:contract-topic"
return {
  setup = function(aws)
    aws.sns.CreateTopic({ Name = "contract-topic" })
    return {}
  end,
  create = { TopicArn = TOPIC, Protocol = "sqs", Endpoint = "arn:aws:sqs:us-east-1:123456789012:q1" },
  updates = {
    { RawMessageDelivery = true, FilterPolicy = { color = { "red" } } },   -- none
    { Endpoint = "arn:aws:sqs:us-east-1:123456789012:q2" },                -- replace
  },
  verify = function(aws, id, props, attributes)
    local a = aws.sns.GetSubscriptionAttributes({ SubscriptionArn = id }).Attributes
    assert(attributes.Arn == id and id:sub(1, #TOPIC + 1) == TOPIC .. ":", "arn " .. id)
    assert(a.Endpoint == props.Endpoint, "endpoint")
    assert((a.RawMessageDelivery == "true") == (props.RawMessageDelivery == true), "raw delivery")
  end,
}
