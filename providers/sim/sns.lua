-- sim.sns: simulated SNS topics and subscriptions.
--
-- A topic is the record "sns.topic" "<region>:<name>"; each subscription is
-- its own record "sns.subscription" keyed by its ARN
-- ("<topic ARN>:<uuid>") whose refs name the topic's ARN, so a topic's
-- subscriptions come from the world's referrers index (no walk). Deleting a
-- topic deletes its subscriptions, as SNS does. Publish to a topic delivers
-- the message to its SQS subscribers (sim.sqs SendMessage, the SNS JSON
-- envelope unless RawMessageDelivery); other protocols only count.
--
-- Messages (SNS's, error code InvalidParameter / NotFound):
--   Invalid parameter: Topic Name
--   Invalid parameter: Fifo Topic names must end with .fifo and must be made up of only
--   uppercase and lowercase ASCII letters, numbers, underscores, and hyphens, and must be
--   between 1 and 256 characters long.
--   Topic does not exist / Subscription does not exist (NotFound)
--   Invalid parameter: Amazon SNS does not support this protocol string: <p>
--   Invalid parameter: SQS endpoint ARN / Invalid parameter: Lambda endpoint ARN
-- (the wording the SNS API returns as reported publicly; the protocol and
-- endpoint ones unverified).

local world = require("sim.world")

local A = {}

local TOPIC, SUB = "sns.topic", "sns.subscription"
local PROTOCOLS = { http = true, https = true, email = true, ["email-json"] = true, sms = true, sqs = true,
                    application = true, lambda = true, firehose = true }

local function fail(message, code) require("sim").fail(message, code) end

function A.topic_arn(region, account, name) return "arn:aws:sns:" .. region .. ":" .. account .. ":" .. name end

local function key(env, name) return env.region .. ":" .. name end

-- A TopicArn -> the topic record and its key.
local function load_topic(env, arn)
  local name = type(arn) == "string" and arn:match("^arn:aws[%w%-]*:sns:[^:]*:%d+:([^:]+)$")
  local t = name and not require("sim").other_account(env, arn) and world.get(TOPIC, key(env, name))
  if not t then fail("Topic does not exist", "NotFound") end
  return t, key(env, name)
end

local function tag_map(list)
  local out = {}
  for _, t in ipairs(list or {}) do out[t.Key] = t.Value end
  return out
end

function A.CreateTopic(p, env)
  local name = p.Name
  local attrs = p.Attributes or {}
  local fifo = tostring(attrs.FifoTopic) == "true"
  local base = name
  if fifo then base = type(name) == "string" and name:match("^(.*)%.fifo$") or nil end
  if type(base) ~= "string" or #name > 256 or not base:match("^[%w_%-]+$") then
    if fifo then
      fail("Invalid parameter: Fifo Topic names must end with .fifo and must be made up of only uppercase and "
        .. "lowercase ASCII letters, numbers, underscores, and hyphens, and must be between 1 and 256 characters long.",
        "InvalidParameter")
    end
    fail("Invalid parameter: Topic Name", "InvalidParameter")
  end
  local arn = A.topic_arn(env.region, env.account, name)
  local k = key(env, name)
  if world.get(TOPIC, k) then return { TopicArn = arn } end  -- CreateTopic is idempotent
  local t = { Name = name, Attributes = { DisplayName = "" }, Tags = tag_map(p.Tags) }
  for n, v in pairs(attrs) do t.Attributes[n] = tostring(v) end
  if fifo then t.Attributes.ContentBasedDeduplication = t.Attributes.ContentBasedDeduplication or "false" end
  world.put(TOPIC, k, t)
  return { TopicArn = arn }
end

local function subscriptions_of(arn)
  local out = {}
  for _, r in ipairs(world.referrers(arn)) do
    if r.kind == SUB then out[#out + 1] = world.get(SUB, r.id) end
  end
  return out
end

function A.DeleteTopic(p, env)
  local t, k = load_topic(env, p.TopicArn)
  for _, s in ipairs(subscriptions_of(A.topic_arn(env.region, env.account, t.Name))) do
    world.remove(SUB, s.SubscriptionArn)
  end
  world.remove(TOPIC, k)
  return {}
end

function A.GetTopicAttributes(p, env)
  local t = load_topic(env, p.TopicArn)
  local out = {}
  for n, v in pairs(t.Attributes) do out[n] = v end
  local arn = A.topic_arn(env.region, env.account, t.Name)
  out.TopicArn, out.Owner = arn, env.account
  out.SubscriptionsConfirmed = tostring(#subscriptions_of(arn))
  out.SubscriptionsPending, out.SubscriptionsDeleted = "0", "0"
  return { Attributes = out }
end

function A.SetTopicAttributes(p, env)
  local t, k = load_topic(env, p.TopicArn)
  if p.AttributeName == "FifoTopic" then fail("Invalid parameter: AttributeName", "InvalidParameter") end
  if p.AttributeValue == nil or p.AttributeValue == "" then t.Attributes[p.AttributeName] = nil
  else t.Attributes[p.AttributeName] = tostring(p.AttributeValue) end
  world.put(TOPIC, k, t)
  return {}
end

function A.ListTopics(_, env)
  local prefix, out = env.region .. ":", {}
  for _, k in ipairs(world.ids(TOPIC, true, prefix)) do
    out[#out + 1] = { TopicArn = A.topic_arn(env.region, env.account, k:sub(#prefix + 1)) }
  end
  return { Topics = out }
end

function A.TagResource(p, env)
  local t, k = load_topic(env, p.ResourceArn)
  for kk, v in pairs(tag_map(p.Tags)) do t.Tags[kk] = v end
  world.put(TOPIC, k, t)
  return {}
end

function A.UntagResource(p, env)
  local t, k = load_topic(env, p.ResourceArn)
  for _, kk in ipairs(p.TagKeys or {}) do t.Tags[kk] = nil end
  world.put(TOPIC, k, t)
  return {}
end

function A.ListTagsForResource(p, env)
  local t = load_topic(env, p.ResourceArn)
  local keys = {}
  for kk in pairs(t.Tags) do keys[#keys + 1] = kk end
  table.sort(keys)
  local out = {}
  for i, kk in ipairs(keys) do out[i] = { Key = kk, Value = t.Tags[kk] } end
  return { Tags = out }
end

-- Subscriptions -------------------------------------------------------------------------

function A.Subscribe(p, env)
  local t = load_topic(env, p.TopicArn)
  if not PROTOCOLS[p.Protocol] then
    fail("Invalid parameter: Amazon SNS does not support this protocol string: " .. tostring(p.Protocol), "InvalidParameter")
  end
  local endpoint = p.Endpoint
  if p.Protocol == "sqs" and not (type(endpoint) == "string" and endpoint:match("^arn:aws[%w%-]*:sqs:")) then
    fail("Invalid parameter: SQS endpoint ARN", "InvalidParameter")
  end
  if p.Protocol == "lambda" and not (type(endpoint) == "string" and endpoint:match("^arn:aws[%w%-]*:lambda:")) then
    fail("Invalid parameter: Lambda endpoint ARN", "InvalidParameter")
  end
  local topic_arn = A.topic_arn(env.region, env.account, t.Name)
  -- The same protocol and endpoint on a topic is the same subscription.
  for _, s in ipairs(subscriptions_of(topic_arn)) do
    if s.Protocol == p.Protocol and s.Endpoint == endpoint then return { SubscriptionArn = s.SubscriptionArn } end
  end
  local arn = topic_arn .. ":" .. require("sim").new_id("uuid")
  local attrs = {}
  for n, v in pairs(p.Attributes or {}) do attrs[n] = tostring(v) end
  world.put(SUB, arn, { SubscriptionArn = arn, TopicArn = topic_arn, Protocol = p.Protocol, Endpoint = endpoint,
                        Owner = env.account, Attributes = attrs }, { refs = { topic_arn } })
  return { SubscriptionArn = arn }
end

local function load_subscription(arn)
  local s = type(arn) == "string" and world.get(SUB, arn)
  if not s then fail("Subscription does not exist", "NotFound") end
  return s
end

function A.Unsubscribe(p)
  load_subscription(p.SubscriptionArn)
  world.remove(SUB, p.SubscriptionArn)
  return {}
end

function A.GetSubscriptionAttributes(p)
  local s = load_subscription(p.SubscriptionArn)
  local out = { SubscriptionArn = s.SubscriptionArn, TopicArn = s.TopicArn, Protocol = s.Protocol,
                Endpoint = s.Endpoint, Owner = s.Owner, PendingConfirmation = "false",
                ConfirmationWasAuthenticated = "true" }
  for n, v in pairs(s.Attributes) do out[n] = v end
  return { Attributes = out }
end

function A.SetSubscriptionAttributes(p)
  local s = load_subscription(p.SubscriptionArn)
  if p.AttributeValue == nil or p.AttributeValue == "" then s.Attributes[p.AttributeName] = nil
  else s.Attributes[p.AttributeName] = tostring(p.AttributeValue) end
  world.put(SUB, s.SubscriptionArn, s, { refs = { s.TopicArn } })
  return {}
end

function A.ListSubscriptionsByTopic(p, env)
  local t = load_topic(env, p.TopicArn)
  local out = {}
  for _, s in ipairs(subscriptions_of(A.topic_arn(env.region, env.account, t.Name))) do
    out[#out + 1] = { SubscriptionArn = s.SubscriptionArn, TopicArn = s.TopicArn, Protocol = s.Protocol,
                      Endpoint = s.Endpoint, Owner = s.Owner }
  end
  return { Subscriptions = out }
end

function A.Publish(p, env)
  local t = load_topic(env, p.TopicArn)
  if type(p.Message) ~= "string" or p.Message == "" then fail("Invalid parameter: Empty message", "InvalidParameter") end
  local id = require("sim").new_id("uuid")
  local topic_arn = A.topic_arn(env.region, env.account, t.Name)
  local util = require("sim.cloudformation_util")
  for _, s in ipairs(subscriptions_of(topic_arn)) do
    if s.Protocol == "sqs" then
      local region, account, queue = s.Endpoint:match("^arn:aws[%w%-]*:sqs:([^:]+):(%d+):(.+)$")
      local body = s.Attributes.RawMessageDelivery == "true" and p.Message or util.json_object({
        { "Type", "Notification" }, { "MessageId", id }, { "TopicArn", topic_arn }, { "Message", p.Message },
        { "Timestamp", util.iso8601(env.now_ms) },
      })
      -- A queue that is gone loses the message, as with SNS.
      pcall(require("sim").call, "sqs", "SendMessage",
        { QueueUrl = require("sim.sqs").queue_url(region, account, queue), MessageBody = body,
          MessageGroupId = p.MessageGroupId }, { region = region, account = account })
    end
  end
  return { MessageId = id }
end

return A
