-- The simulated SNS: topic names (FIFO rule), subscriptions through the
-- referrers index, delivery to SQS subscribers.
local H = require("harness")
local T = H.suite("sim sns")

local function client()
  local world, sim = fresh()
  return sim.client(), world
end

T.case("topic names: .fifo exactly for FIFO topics; CreateTopic is idempotent", function()
  local aws = client()
  local e = H.raises(function() aws.sns.CreateTopic({ Name = "t.fifo" }) end, "Invalid parameter: Topic Name")
  H.eq(e.code, "InvalidParameter")
  H.raises(function() aws.sns.CreateTopic({ Name = string.rep("t", 257) }) end, "Invalid parameter: Topic Name")
  H.raises(function() aws.sns.CreateTopic({ Name = "t", Attributes = { FifoTopic = "true" } }) end,
    "Invalid parameter: Fifo Topic names must end with .fifo and must be made up of only uppercase and lowercase "
    .. "ASCII letters, numbers, underscores, and hyphens, and must be between 1 and 256 characters long.")
  local arn = aws.sns.CreateTopic({ Name = "t" }).TopicArn
  H.eq(arn, "arn:aws:sns:us-east-1:123456789012:t")
  H.eq(aws.sns.CreateTopic({ Name = "t" }).TopicArn, arn)
  H.eq(aws.sns.CreateTopic({ Name = "t.fifo", Attributes = { FifoTopic = "true" } }).TopicArn, arn .. ".fifo")
end)

T.case("subscriptions need their topic and a protocol SNS knows; a topic's delete takes them", function()
  local aws, world = client()
  local e = H.raises(function()
    aws.sns.Subscribe({ TopicArn = "arn:aws:sns:us-east-1:123456789012:none", Protocol = "sqs", Endpoint = "x" })
  end, "Topic does not exist")
  H.eq(e.code, "NotFound")
  local arn = aws.sns.CreateTopic({ Name = "t" }).TopicArn
  H.raises(function() aws.sns.Subscribe({ TopicArn = arn, Protocol = "carrier-pigeon", Endpoint = "x" }) end,
    "Invalid parameter: Amazon SNS does not support this protocol string: carrier-pigeon")
  H.raises(function() aws.sns.Subscribe({ TopicArn = arn, Protocol = "sqs", Endpoint = "not-an-arn" }) end,
    "Invalid parameter: SQS endpoint ARN")
  local sub = aws.sns.Subscribe({ TopicArn = arn, Protocol = "email", Endpoint = "a@example.com" }).SubscriptionArn
  H.match(sub, "^arn:aws:sns:us%-east%-1:123456789012:t:%x+%-")
  H.eq(#aws.sns.ListSubscriptionsByTopic({ TopicArn = arn }).Subscriptions, 1)
  H.eq(aws.sns.GetTopicAttributes({ TopicArn = arn }).Attributes.SubscriptionsConfirmed, "1")
  aws.sns.DeleteTopic({ TopicArn = arn })
  H.same(world.ids("sns.subscription"), {})
  H.raises(function() aws.sns.GetSubscriptionAttributes({ SubscriptionArn = sub }) end, "Subscription does not exist")
end)

T.case("Publish delivers to SQS subscribers (raw or in SNS's envelope)", function()
  local aws = client()
  local arn = aws.sns.CreateTopic({ Name = "t" }).TopicArn
  local raw = aws.sqs.CreateQueue({ QueueName = "raw" }).QueueUrl
  local wrapped = aws.sqs.CreateQueue({ QueueName = "wrapped" }).QueueUrl
  aws.sns.Subscribe({ TopicArn = arn, Protocol = "sqs", Endpoint = "arn:aws:sqs:us-east-1:123456789012:raw",
                      Attributes = { RawMessageDelivery = "true" } })
  aws.sns.Subscribe({ TopicArn = arn, Protocol = "sqs", Endpoint = "arn:aws:sqs:us-east-1:123456789012:wrapped" })
  aws.sns.Publish({ TopicArn = arn, Message = "hello" })
  H.eq(aws.sqs.ReceiveMessage({ QueueUrl = raw }).Messages[1].Body, "hello")
  H.match(aws.sqs.ReceiveMessage({ QueueUrl = wrapped }).Messages[1].Body, '^{"Type":"Notification",.*"Message":"hello"')
end)

return T
