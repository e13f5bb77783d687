-- sim.sqs: simulated SQS queues and their messages.
--
-- A queue is the record "sqs.queue" "<region>:<name>" (attributes as SQS
-- keeps them: strings). Each message is its own record
-- "sqs.message" "<region>:<name>#<seq>" (seq 1, 2, ... per queue); the queue
-- keeps the range [First, Next) of sequence numbers that may still hold a
-- message, so ReceiveMessage looks at the oldest ones first without a walk
-- of the world (deleted ones at the front move First on). A received
-- message is invisible until VisibilityTimeout seconds of the world clock
-- have passed. ReceiptHandle = "<region>:<name>#<seq>#<receive count>".
--
-- URLs: https://sqs.<region>.amazonaws.com/<account>/<name>; ARNs:
-- arn:aws:sqs:<region>:<account>:<name> (SQS developer guide).
-- Messages (SQS's):
--   Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length
--                                      (InvalidParameterValue; boto/botocore#3058)
--   The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores,
--   must end with .fifo suffix and be 1 to 80 in length.   (InvalidParameterValue; seen in
--                                      CloudFormation events, mapbox/cloudfriend#94)
--   The specified queue does not exist. (QueueDoesNotExist)
--   A queue already exists with the same name and a different value for attribute <A>
--                                      (QueueAlreadyExists; SQS API reference, CreateQueue)
--   Invalid value for the parameter <A>. (InvalidAttributeValue)
--   Value <v> for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.
--                                      (ReceiptHandleIsInvalid)

local world = require("sim.world")

local A = {}

local QUEUE, MESSAGE = "sqs.queue", "sqs.message"

-- Settable attributes, their defaults and bounds (SQS API reference, SetQueueAttributes).
local DEFAULTS = {
  DelaySeconds = "0", MaximumMessageSize = "262144", MessageRetentionPeriod = "345600",
  ReceiveMessageWaitTimeSeconds = "0", VisibilityTimeout = "30", SqsManagedSseEnabled = "true",
}
local BOUNDS = {
  DelaySeconds = { 0, 900 }, MaximumMessageSize = { 1024, 1048576 }, MessageRetentionPeriod = { 60, 1209600 },
  ReceiveMessageWaitTimeSeconds = { 0, 20 }, VisibilityTimeout = { 0, 43200 },
  KmsDataKeyReusePeriodSeconds = { 60, 86400 },
}
local SETTABLE = {
  DelaySeconds = true, MaximumMessageSize = true, MessageRetentionPeriod = true, Policy = true,
  ReceiveMessageWaitTimeSeconds = true, VisibilityTimeout = true, RedrivePolicy = true, RedriveAllowPolicy = true,
  KmsMasterKeyId = true, KmsDataKeyReusePeriodSeconds = true, SqsManagedSseEnabled = true,
  ContentBasedDeduplication = true, DeduplicationScope = true, FifoThroughputLimit = true,
}

local function fail(message, code) require("sim").fail(message, code) end

---SQS's default for attribute `name` ("30" for VisibilityTimeout), or nil.
function A.default(name) return DEFAULTS[name] end

function A.queue_url(region, account, name)
  return "https://sqs." .. region .. ".amazonaws.com/" .. account .. "/" .. name
end

function A.queue_arn(region, account, name) return "arn:aws:sqs:" .. region .. ":" .. account .. ":" .. name end

local function key(env, name) return env.region .. ":" .. name end

local function no_queue() fail("The specified queue does not exist.", "QueueDoesNotExist") end

-- A QueueUrl (or a bare name) -> the queue record and its key.
local function load_queue(env, url)
  if type(url) ~= "string" or url == "" then no_queue() end
  if require("sim").other_account(env, url) then no_queue() end  -- another account's queue of that name
  local name = url:match("/([^/]+)$") or url
  local k = key(env, name)
  local q = world.get(QUEUE, k)
  if not q then no_queue() end
  return q, k
end

local function text(v)
  if type(v) == "boolean" then return tostring(v) end
  if type(v) == "number" then return require("moonstack.values").number_to_string(v) end
  return v
end

local function check_attribute(name, value)
  local b = BOUNDS[name]
  local n = tonumber(value)
  if b and (not n or n < b[1] or n > b[2] or n ~= math.floor(n)) then
    fail("Invalid value for the parameter " .. name .. ".", "InvalidAttributeValue")
  end
end

-- The dead-letter queue a RedrivePolicy names must exist (in this region and account).
local function check_redrive(env, policy)
  local arn = type(policy) == "string" and policy:match('"deadLetterTargetArn"%s*:%s*"([^"]+)"')
  if not arn then return end
  local name = arn:match(":([^:]+)$")
  if require("sim").other_account(env, arn) or not world.get(QUEUE, key(env, name)) then
    fail("Value " .. policy .. " for parameter RedrivePolicy is invalid. Reason: Dead letter target does not exist.",
      "InvalidParameterValue")
  end
end

local function set_attributes(env, q, attrs)
  for name, value in pairs(attrs or {}) do
    if not SETTABLE[name] then fail("Unknown Attribute " .. name .. ".", "InvalidAttributeName") end
    value = text(value)
    if value == "" then
      q.Attributes[name] = DEFAULTS[name]  -- "" resets an attribute (a redrive policy is removed so)
    else
      check_attribute(name, value)
      if name == "RedrivePolicy" then check_redrive(env, value) end
      q.Attributes[name] = value
    end
  end
end

function A.CreateQueue(p, env)
  local name = p.QueueName
  local attrs = p.Attributes or {}
  local fifo = text(attrs.FifoQueue) == "true"
  local base = name
  if fifo then base = type(name) == "string" and name:match("^(.*)%.fifo$") or nil end
  if type(base) ~= "string" or #name > 80 or not base:match("^[%w_%-]+$") then
    if fifo then
      fail("The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end "
        .. "with .fifo suffix and be 1 to 80 in length.", "InvalidParameterValue")
    end
    fail("Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
      "InvalidParameterValue")
  end
  local k = key(env, name)
  local existing = world.get(QUEUE, k)
  local q = { Name = name, Attributes = {}, Tags = {}, First = 1, Next = 1 }
  for n, v in pairs(DEFAULTS) do q.Attributes[n] = v end
  if fifo then
    q.Attributes.FifoQueue = "true"
    q.Attributes.ContentBasedDeduplication = "false"
  end
  local settable = {}
  for n, v in pairs(attrs) do if n ~= "FifoQueue" then settable[n] = v end end
  if not fifo and (settable.ContentBasedDeduplication ~= nil or settable.DeduplicationScope ~= nil) then
    fail("Unknown Attribute ContentBasedDeduplication.", "InvalidAttributeName")
  end
  set_attributes(env, q, settable)
  if existing then
    -- CreateQueue is idempotent for the same attributes.
    for n, v in pairs(q.Attributes) do
      if existing.Attributes[n] ~= v then
        fail("A queue already exists with the same name and a different value for attribute " .. n, "QueueAlreadyExists")
      end
    end
    return { QueueUrl = A.queue_url(env.region, env.account, name) }
  end
  local now = tostring(math.floor(env.now_ms / 1000))
  q.Attributes.CreatedTimestamp, q.Attributes.LastModifiedTimestamp = now, now
  for kk, v in pairs(p.tags or p.Tags or {}) do q.Tags[kk] = v end
  world.put(QUEUE, k, q)
  return { QueueUrl = A.queue_url(env.region, env.account, name) }
end

function A.GetQueueUrl(p, env)
  local q = load_queue(env, p.QueueName)
  return { QueueUrl = A.queue_url(env.region, env.account, q.Name) }
end

function A.ListQueues(p, env)
  local prefix = env.region .. ":" .. (p.QueueNamePrefix or "")
  local out = {}
  for _, k in ipairs(world.ids(QUEUE, true, prefix)) do
    out[#out + 1] = A.queue_url(env.region, env.account, k:sub(#env.region + 2))
  end
  return { QueueUrls = out }
end

-- Counts of the messages in [First, Next): visible and in flight.
local function counts(env, q, k)
  local visible, flight = 0, 0
  for seq = q.First, q.Next - 1 do
    local m = world.get(MESSAGE, k .. "#" .. seq)
    if m then
      if (m.VisibleAt or 0) > env.now_ms then flight = flight + 1 else visible = visible + 1 end
    end
  end
  return visible, flight
end

function A.GetQueueAttributes(p, env)
  local q, k = load_queue(env, p.QueueUrl)
  local all = {}
  for n, v in pairs(q.Attributes) do all[n] = v end
  all.QueueArn = A.queue_arn(env.region, env.account, q.Name)
  local wanted = p.AttributeNames or { "All" }
  local want_all = false
  for _, n in ipairs(wanted) do if n == "All" then want_all = true end end
  local function wants(n)
    if want_all then return true end
    for _, x in ipairs(wanted) do if x == n then return true end end
    return false
  end
  if wants("ApproximateNumberOfMessages") or wants("ApproximateNumberOfMessagesNotVisible") then
    local visible, flight = counts(env, q, k)
    all.ApproximateNumberOfMessages, all.ApproximateNumberOfMessagesNotVisible = tostring(visible), tostring(flight)
    all.ApproximateNumberOfMessagesDelayed = "0"
  end
  local out = {}
  for n, v in pairs(all) do if wants(n) then out[n] = v end end
  return { Attributes = out }
end

function A.SetQueueAttributes(p, env)
  local q, k = load_queue(env, p.QueueUrl)
  if (p.Attributes or {}).FifoQueue ~= nil then
    fail("Invalid value for the parameter FifoQueue.", "InvalidAttributeValue")  -- FifoQueue is set at creation only
  end
  set_attributes(env, q, p.Attributes)
  q.Attributes.LastModifiedTimestamp = tostring(math.floor(env.now_ms / 1000))
  world.put(QUEUE, k, q)
  return {}
end

function A.DeleteQueue(p, env)
  local q, k = load_queue(env, p.QueueUrl)
  for seq = q.First, q.Next - 1 do world.remove(MESSAGE, k .. "#" .. seq) end
  world.remove(QUEUE, k)
  return {}
end

function A.PurgeQueue(p, env)
  local q, k = load_queue(env, p.QueueUrl)
  for seq = q.First, q.Next - 1 do world.remove(MESSAGE, k .. "#" .. seq) end
  q.First = q.Next
  world.put(QUEUE, k, q)
  return {}
end

function A.TagQueue(p, env)
  local q, k = load_queue(env, p.QueueUrl)
  for kk, v in pairs(p.Tags or {}) do q.Tags[kk] = v end
  world.put(QUEUE, k, q)
  return {}
end

function A.UntagQueue(p, env)
  local q, k = load_queue(env, p.QueueUrl)
  for _, kk in ipairs(p.TagKeys or {}) do q.Tags[kk] = nil end
  world.put(QUEUE, k, q)
  return {}
end

function A.ListQueueTags(p, env)
  local q = load_queue(env, p.QueueUrl)
  return { Tags = q.Tags }
end

-- Messages ----------------------------------------------------------------------------

function A.SendMessage(p, env)
  local q, k = load_queue(env, p.QueueUrl)
  if type(p.MessageBody) ~= "string" or p.MessageBody == "" then
    fail("The request must contain the parameter MessageBody.", "MissingParameter")
  end
  if #p.MessageBody > tonumber(q.Attributes.MaximumMessageSize) then
    fail("One or more parameters are invalid. Reason: Message must be shorter than "
      .. q.Attributes.MaximumMessageSize .. " bytes.", "InvalidParameterValue")
  end
  if q.Attributes.FifoQueue == "true" and not p.MessageGroupId then
    fail("The request must contain the parameter MessageGroupId.", "MissingParameter")
  end
  local id = require("sim").new_id("uuid")
  local delay = tonumber(p.DelaySeconds or q.Attributes.DelaySeconds) or 0
  local seq = q.Next
  world.put(MESSAGE, k .. "#" .. seq, { MessageId = id, Body = p.MessageBody, Receives = 0,
                                         VisibleAt = env.now_ms + delay * 1000, SentAt = env.now_ms,
                                         MessageGroupId = p.MessageGroupId })
  q.Next = seq + 1
  world.put(QUEUE, k, q)
  local md5 = require("sim.cloudformation_util").hash_hex(p.MessageBody, 32)
  return { MessageId = id, MD5OfMessageBody = md5, SequenceNumber = q.Attributes.FifoQueue == "true" and tostring(seq) or nil }
end

function A.ReceiveMessage(p, env)
  local q, k = load_queue(env, p.QueueUrl)
  local max = tonumber(p.MaxNumberOfMessages) or 1
  if max < 1 or max > 10 then
    fail("Value " .. tostring(p.MaxNumberOfMessages) .. " for parameter MaxNumberOfMessages is invalid. Reason: "
      .. "Must be between 1 and 10, if provided.", "InvalidParameterValue")
  end
  local visibility = tonumber(p.VisibilityTimeout or q.Attributes.VisibilityTimeout)
  local out = {}
  local first = q.First
  for seq = q.First, q.Next - 1 do
    local mk = k .. "#" .. seq
    local m = world.get(MESSAGE, mk)
    if not m and seq == first then first = seq + 1 end  -- deleted at the front: skip it from now on
    if m and (m.VisibleAt or 0) <= env.now_ms then
      m.Receives = m.Receives + 1
      m.VisibleAt = env.now_ms + visibility * 1000
      world.put(MESSAGE, mk, m)
      out[#out + 1] = { MessageId = m.MessageId, Body = m.Body, ReceiptHandle = mk .. "#" .. m.Receives,
                        MD5OfBody = require("sim.cloudformation_util").hash_hex(m.Body, 32),
                        Attributes = { ApproximateReceiveCount = tostring(m.Receives) } }
      if #out >= max then break end
    end
  end
  if first ~= q.First then
    q.First = first
    world.put(QUEUE, k, q)
  end
  return { Messages = out }
end

function A.DeleteMessage(p, env)
  local _, k = load_queue(env, p.QueueUrl)
  local handle = p.ReceiptHandle
  local mk = type(handle) == "string" and handle:match("^(.*#%d+)#%d+$")
  if not mk or mk:sub(1, #k + 1) ~= k .. "#" then
    fail("The input receipt handle \"" .. tostring(handle) .. "\" is not a valid receipt handle.", "ReceiptHandleIsInvalid")
  end
  world.remove(MESSAGE, mk)  -- an already deleted message is no error, as in SQS
  return {}
end

return A
