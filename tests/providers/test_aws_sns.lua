-- AWS::SNS::Topic, Subscription and TopicPolicy driven as the engine drives them.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws sns providers")

local TOPIC = D.load("sns/topic")
local SUBSCRIPTION = D.load("sns/subscription")
local POLICY = D.load("sns/topic_policy")

local create = D.create

T.case("update behaviours from the registry schemas", function()
  for _, p in ipairs(TOPIC.properties) do
    H.eq(p.update, (p.name == "FifoTopic" or p.name == "TopicName") and "replace" or "none", p.name)
  end
  local replace = { TopicArn = true, Protocol = true, Endpoint = true }
  for _, p in ipairs(SUBSCRIPTION.properties) do H.eq(p.update, replace[p.name] and "replace" or "none", p.name) end
end)

T.case("Ref is the topic ARN; a FIFO topic's name ends .fifo; the FIFO name rule", function()
  local world, sim = fresh()
  local r = create(world, sim, TOPIC, {}, "Alerts")
  H.match(r.attributes.TopicName, "^s%-Alerts%-%w+$")
  H.eq(r.id, "arn:aws:sns:us-east-1:123456789012:" .. r.attributes.TopicName)
  r = create(world, sim, TOPIC, { FifoTopic = true }, "Orders")
  H.match(r.id, "^arn:aws:sns:us%-east%-1:123456789012:s%-Orders%-%w+%.fifo$")
  H.eq(D.failure(function() create(world, sim, TOPIC, { TopicName = "orders", FifoTopic = true }) end),
    "Invalid parameter: Fifo Topic names must end with .fifo and must be made up of only uppercase and lowercase "
    .. "ASCII letters, numbers, underscores, and hyphens, and must be between 1 and 256 characters long.")
end)

T.case("a subscription needs its topic; read sees an out-of-band change and the delete", function()
  local world, sim = fresh()
  local missing = "arn:aws:sns:us-east-1:123456789012:gone"
  H.eq(D.failure(function()
    create(world, sim, SUBSCRIPTION, { TopicArn = missing, Protocol = "sqs", Endpoint = "arn:aws:sqs:us-east-1:123456789012:q" })
  end), "Topic does not exist")
  local t = create(world, sim, TOPIC, { TopicName = "news" })
  local props = SUBSCRIPTION:validate({ TopicArn = t.id, Protocol = "sqs", Endpoint = "arn:aws:sqs:us-east-1:123456789012:q",
                                        RawMessageDelivery = false }, {})
  local r, ctx = create(world, sim, SUBSCRIPTION, props)
  H.eq(r.attributes.Arn, r.id)
  sim.client().sns.SetSubscriptionAttributes({ SubscriptionArn = r.id, AttributeName = "RawMessageDelivery",
                                               AttributeValue = "true" })
  H.eq(SUBSCRIPTION.read(ctx, r.id, props).properties.RawMessageDelivery, true)
  sim.client().sns.DeleteTopic({ TopicArn = t.id })
  H.eq(SUBSCRIPTION.read(ctx, r.id, props), nil)
end)

T.case("a topic policy needs its topics", function()
  local world, sim = fresh()
  local doc = { Statement = { { Effect = "Allow", Principal = "*", Action = "sns:Publish", Resource = "*" } } }
  H.eq(D.failure(function()
    create(world, sim, POLICY, { Topics = { "arn:aws:sns:us-east-1:123456789012:none" }, PolicyDocument = doc })
  end), "Topic does not exist")
end)

return T
