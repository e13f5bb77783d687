-- AWS::SNS::Topic on the simulated SNS (sim/sns.lua).
--
-- Update behaviours (registry schema, createOnlyProperties): FifoTopic and
-- TopicName Replacement; every other property No interruption
-- (SetTopicAttributes; Subscription: the inline subscriptions added and
-- removed; Tags). Ref is the topic ARN; Fn::GetAtt TopicArn, TopicName.
-- Without TopicName the name is "<stack>-<logical>-<12>" within 256
-- characters, a FIFO topic's ending ".fifo" within the same 256; a name
-- must end in ".fifo" exactly when FifoTopic is true (SNS's messages).
local P = require("moonstack.provider")
local tags = require("moonstack.tags")
local props_lib = require("lib.service_props")
local sns_sim = require("sim.sns")

local MAX_NAME = 256
-- Properties that are topic attributes of the same name (JSON ones as text).
local ATTRIBUTES = { "ArchivePolicy", "ContentBasedDeduplication", "DataProtectionPolicy", "DeliveryStatusLogging",
                     "DisplayName", "FifoThroughputScope", "KmsMasterKeyId", "SignatureVersion", "TracingConfig" }

local function region(ctx) return (ctx.region and ctx.region ~= "") and ctx.region or "us-east-1" end
local function account(ctx) return (ctx.account and ctx.account ~= "") and ctx.account or "123456789012" end

local function text(v)
  if v == nil then return "" end
  if type(v) == "table" then return props_lib.json(v) end
  return tostring(v)
end

local function subscription_key(s) return tostring(s.Protocol) .. " " .. tostring(s.Endpoint) end

local function subscribe(sns, arn, list)
  for _, s in ipairs(list or {}) do sns.Subscribe { TopicArn = arn, Protocol = s.Protocol, Endpoint = s.Endpoint } end
end

local properties = props_lib.json_list(P, {
  "ArchivePolicy", "ContentBasedDeduplication", "DataProtectionPolicy", "DeliveryStatusLogging", "DisplayName",
  "FifoThroughputScope", "FifoTopic", "KmsMasterKeyId", "SignatureVersion", "Subscription", "Tags", "TopicName",
  "TracingConfig",
}, {}, {
  ContentBasedDeduplication = P.boolean "ContentBasedDeduplication" { update = "none" },
  DisplayName = P.string "DisplayName" { update = "none" },
  FifoTopic = P.boolean "FifoTopic" { update = "replace" },
  KmsMasterKeyId = P.string "KmsMasterKeyId" { update = "none" },
  Tags = P.tags "Tags" { update = "none" },
  TopicName = P.string "TopicName" { update = "replace" },
})

return P.define {
  type = "AWS::SNS::Topic",
  properties = properties,
  attributes = { "TopicArn", "TopicName" },
  primary_identifier = "TopicArn",

  create = function(ctx, props)
    local name = props.TopicName or props_lib.name(ctx, MAX_NAME, props.FifoTopic and ".fifo" or nil)
    local attrs = {}
    if props.FifoTopic then attrs.FifoTopic = "true" end
    for _, a in ipairs(ATTRIBUTES) do if props[a] ~= nil then attrs[a] = text(props[a]) end end
    local sns = ctx.world.sns
    local arn = sns.CreateTopic { Name = name, Attributes = attrs,
                                  Tags = tags.from_map(tags.for_resource(ctx, props.Tags)) }.TopicArn
    subscribe(sns, arn, props.Subscription)
    return { id = arn, attributes = { TopicArn = arn, TopicName = name } }
  end,

  update = function(ctx, id, new, old, changed)
    local sns = ctx.world.sns
    for _, prop in ipairs(changed) do
      if prop == "Tags" then
        local set, remove = tags.update_diff(ctx, old.Tags, new.Tags)
        if #remove > 0 then sns.UntagResource { ResourceArn = id, TagKeys = remove } end
        if next(set) then sns.TagResource { ResourceArn = id, Tags = tags.from_map(set) } end
      elseif prop == "Subscription" then
        local wanted, have = {}, {}
        for _, s in ipairs(new.Subscription or {}) do wanted[subscription_key(s)] = true end
        for _, s in ipairs(old.Subscription or {}) do have[subscription_key(s)] = true end
        for _, s in ipairs(sns.ListSubscriptionsByTopic({ TopicArn = id }).Subscriptions) do
          if have[subscription_key(s)] and not wanted[subscription_key(s)] then
            sns.Unsubscribe { SubscriptionArn = s.SubscriptionArn }
          end
        end
        subscribe(sns, id, new.Subscription)
      else
        sns.SetTopicAttributes { TopicArn = id, AttributeName = prop, AttributeValue = text(new[prop]) }
      end
    end
  end,

  delete = function(ctx, id)
    props_lib.call(ctx.world.sns.DeleteTopic, { TopicArn = id }, { "NotFound" })
  end,

  read = function(ctx, id, props)
    local sns = ctx.world.sns
    local r = props_lib.call(sns.GetTopicAttributes, { TopicArn = id }, { "NotFound" })
    if not r then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    local a = r.Attributes
    if properties.DisplayName ~= nil or (a.DisplayName or "") ~= "" then
      properties.DisplayName = a.DisplayName ~= "" and a.DisplayName or nil
    end
    if properties.KmsMasterKeyId ~= nil or a.KmsMasterKeyId then properties.KmsMasterKeyId = a.KmsMasterKeyId end
    properties.Tags = props_lib.own_tags(sns.ListTagsForResource({ ResourceArn = id }).Tags)
    local name = id:match("[^:]+$")
    return { properties = properties, attributes = { TopicArn = id, TopicName = name } }
  end,
}
