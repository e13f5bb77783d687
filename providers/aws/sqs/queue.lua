-- AWS::SQS::Queue on the simulated SQS (sim/sqs.lua).
--
-- Update behaviours (AWS::SQS::Queue reference, "Update requires"): FifoQueue
-- and QueueName Replacement; every other property No interruption
-- (SetQueueAttributes; a property taken out goes back to SQS's default).
-- Ref is the queue URL (https://sqs.REGION.amazonaws.com/ACCOUNT/NAME);
-- Fn::GetAtt Arn, QueueName, QueueUrl.
-- Without QueueName the name is "<stack>-<logical>-<12>" within 80
-- characters, and a FIFO queue's gets ".fifo" within the same 80. A
-- QueueName must end in ".fifo" exactly when FifoQueue is true: SQS's
-- messages (sim/sqs.lua). A queue of that name already there:
-- "Resource of type 'AWS::SQS::Queue' with identifier '<url>' already exists."
-- (the registry handlers' AlreadyExists wording).
-- RedrivePolicy / RedriveAllowPolicy are objects (or JSON text) in the
-- template and JSON text in SQS; the dead-letter queue must exist.
local P = require("moonstack.provider")
local tags = require("moonstack.tags")
local props_lib = require("lib.service_props")
local sqs_sim = require("sim.sqs")

local MAX_NAME = 80
-- Template property -> SQS attribute, for the ones set with SetQueueAttributes.
local ATTRIBUTES = {
  "ContentBasedDeduplication", "DeduplicationScope", "DelaySeconds", "FifoThroughputLimit",
  "KmsDataKeyReusePeriodSeconds", "KmsMasterKeyId", "MaximumMessageSize", "MessageRetentionPeriod",
  "ReceiveMessageWaitTimeSeconds", "RedriveAllowPolicy", "RedrivePolicy", "SqsManagedSseEnabled", "VisibilityTimeout",
}
local INTEGERS = { DelaySeconds = true, KmsDataKeyReusePeriodSeconds = true, MaximumMessageSize = true,
                   MessageRetentionPeriod = true, ReceiveMessageWaitTimeSeconds = true, VisibilityTimeout = true }
local BOOLEANS = { ContentBasedDeduplication = true, SqsManagedSseEnabled = true }
local JSON = { RedriveAllowPolicy = true, RedrivePolicy = true }

local function region(ctx) return (ctx.region and ctx.region ~= "") and ctx.region or "us-east-1" end
local function account(ctx) return (ctx.account and ctx.account ~= "") and ctx.account or "123456789012" end

local function attribute_text(name, v)
  if v == nil then return "" end
  if JSON[name] and type(v) == "table" then return props_lib.json(v) end
  if type(v) == "boolean" then return tostring(v) end
  return type(v) == "number" and require("moonstack.values").number_to_string(v) or v
end

local function attributes_of(ctx, name)
  return { Arn = sqs_sim.queue_arn(region(ctx), account(ctx), name), QueueName = name,
           QueueUrl = sqs_sim.queue_url(region(ctx), account(ctx), name) }
end

local function gone(ctx, id)
  return not props_lib.call(ctx.world.sqs.GetQueueUrl, { QueueName = id:match("[^/]+$") }, { "QueueDoesNotExist" })
end

local properties = {}
for _, name in ipairs(ATTRIBUTES) do
  if INTEGERS[name] then properties[#properties + 1] = P.integer(name) { update = "none" }
  elseif BOOLEANS[name] then properties[#properties + 1] = P.boolean(name) { update = "none" }
  elseif JSON[name] then properties[#properties + 1] = P.json(name) { update = "none" }
  else properties[#properties + 1] = P.string(name) { update = "none" } end
end
properties[#properties + 1] = P.boolean "FifoQueue" { update = "replace" }
properties[#properties + 1] = P.string "QueueName" { update = "replace" }
properties[#properties + 1] = P.tags "Tags" { update = "none" }
table.sort(properties, function(a, b) return a.name < b.name end)

return P.define {
  type = "AWS::SQS::Queue",
  properties = properties,
  attributes = { "Arn", "QueueName", "QueueUrl" },
  primary_identifier = "QueueUrl",

  create = function(ctx, props)
    local name = props.QueueName or props_lib.name(ctx, MAX_NAME, props.FifoQueue and ".fifo" or nil)
    local url = sqs_sim.queue_url(region(ctx), account(ctx), name)
    -- CreateQueue answers an existing queue's URL (same attributes), so a
    -- custom name is looked up first. A generated one is new (its suffix is
    -- random), and the lookup raised and caught a not-found error on every
    -- create (about 6% of serve's provider work for 10,000 queues).
    if props.QueueName and not gone(ctx, url) then
      props_lib.already_exists("AWS::SQS::Queue", url)
    end
    local attrs = {}
    if props.FifoQueue then attrs.FifoQueue = "true" end
    for _, a in ipairs(ATTRIBUTES) do
      if props[a] ~= nil then attrs[a] = attribute_text(a, props[a]) end
    end
    local r = ctx.world.sqs.CreateQueue { QueueName = name, Attributes = attrs, tags = tags.for_resource(ctx, props.Tags) }
    return { id = r.QueueUrl, attributes = attributes_of(ctx, name) }
  end,

  update = function(ctx, id, new, old, changed)
    local sqs = ctx.world.sqs
    local attrs, any = {}, false
    for _, prop in ipairs(changed) do
      if prop == "Tags" then
        local set, remove = tags.update_diff(ctx, old.Tags, new.Tags)
        if #remove > 0 then sqs.UntagQueue { QueueUrl = id, TagKeys = remove } end
        if next(set) then sqs.TagQueue { QueueUrl = id, Tags = set } end
      else
        attrs[prop], any = attribute_text(prop, new[prop]), true
      end
    end
    if any then sqs.SetQueueAttributes { QueueUrl = id, Attributes = attrs } end
  end,

  delete = function(ctx, id)
    props_lib.call(ctx.world.sqs.DeleteQueue, { QueueUrl = id }, { "QueueDoesNotExist" })
  end,

  read = function(ctx, id, props)
    local sqs = ctx.world.sqs
    local r = props_lib.call(sqs.GetQueueAttributes, { QueueUrl = id, AttributeNames = { "All" } }, { "QueueDoesNotExist" })
    if not r then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    for _, a in ipairs(ATTRIBUTES) do
      local v = r.Attributes[a]
      if properties[a] ~= nil or (v ~= nil and not JSON[a] and v ~= sqs_sim.default(a)) then
        if INTEGERS[a] then v = tonumber(v) elseif BOOLEANS[a] then v = v == "true" end
        if JSON[a] and type(properties[a]) == "table" and v == attribute_text(a, properties[a]) then v = properties[a] end
        properties[a] = v
      end
    end
    properties.Tags = props_lib.own_tags(sqs.ListQueueTags({ QueueUrl = id }).Tags)
    local name = id:match("[^/]+$")
    return { properties = properties, attributes = attributes_of(ctx, name) }
  end,
}
