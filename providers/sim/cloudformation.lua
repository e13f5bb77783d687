-- sim.cloudformation: wait-condition handles and their signals.
--
-- On AWS a wait-condition handle is a presigned S3 URL; `cfn-signal` (or
-- curl) PUTs a JSON signal { Status, Reason, UniqueId, Data } to it, and the
-- wait condition counts the signals. Here a handle is a world record
-- ("cloudformation.wait_condition_handle") keyed by the ARN the URL
-- carries, "arn:aws:cloudformation:<region>:<account>:stack/<stack>/<guid>/<logical>",
-- which is also the physical ID AWS gives the WaitCondition using it (seen in
-- stack events, e.g. Accenture/adop-doa-materials#10).
--
-- The URL has today's SigV4 presigned shape (an example: the wait_handle in
-- a 2021 DrDeployer event, .../arn%3Aaws%3Acloudformation%3Aus-east-1%3A...
-- %3Astack/DrDeployer/<guid>/WaitHandlePilotLight?X-Amz-Algorithm=
-- AWS4-HMAC-SHA256&X-Amz-Date=...&X-Amz-SignedHeaders=host&X-Amz-Expires=
-- 86399&X-Amz-Credential=...&X-Amz-Signature=<64 hex>): only the ARN's
-- colons are escaped; the access key is AWS's documentation example key.
--
-- These actions are internal (AWS has no CloudFormation API for them); the
-- moonstack HTTP server routes cfn-signal's PUT to SignalWaitCondition.
--   CreateWaitConditionHandle { StackId?, StackName, LogicalResourceId } -> { Url, Id }
--   SignalWaitCondition { Handle (URL or Id), Status, Reason, UniqueId, Data } -> {}
--   GetWaitConditionSignals { Handle } -> { Id, Signals = { {UniqueId, Status, Reason, Data, Timestamp} } }
--   DeleteWaitConditionHandle { Handle } -> {}
-- and the record of a completed wait condition (below).
-- A signal with the UniqueId of an earlier one replaces it (AWS keeps one
-- signal per UniqueId: the S3 object is named after it).

local world = require("sim.world")
local util = require("sim.cloudformation_util")

local A = {}

local KIND = "cloudformation.wait_condition_handle"
-- AWS's documentation example access key (not a credential).
local ACCESS_KEY = "AKIAIOSFODNN7EXAMPLE"

local function fail(message, code) require("sim").fail(message, code) end

local function check_logical(id)
  if type(id) ~= "string" or not id:match("^[%w]+$") then
    fail("1 validation error detected: Value " .. (id == nil and "null" or ("'" .. tostring(id) .. "'"))
      .. " at 'logicalResourceId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9]+",
      "ValidationError")
  end
  return id
end

---The handle ID (the ARN) in a handle URL, or the ID itself; nil when
---`handle` is neither.
---@param handle string
---@return string?
function A.handle_id(handle)
  if type(handle) ~= "string" then return nil end
  if handle:match("^arn:") then return handle end
  local path = handle:match("^https?://[^/]+/([^?]*)")
  if not path then return nil end
  local id = util.url_decode(path)
  return id:match("^arn:") and id or nil
end

---The stack ARN a handle ID belongs to ("arn:...:stack/<name>/<guid>").
---@param id string
---@return string?
function A.stack_id_of(id)
  return id and id:match("^(arn:[^/]+/[^/]+/[^/]+)/[^/]+$")
end

local function presigned_url(id, region, now_ms)
  local date = util.amz_date(now_ms)
  local scope = ACCESS_KEY .. "/" .. util.amz_day(now_ms) .. "/" .. region .. "/s3/aws4_request"
  local query = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=" .. date
    .. "&X-Amz-SignedHeaders=host&X-Amz-Expires=86399&X-Amz-Credential=" .. util.url_encode(scope)
    .. "&X-Amz-Signature=" .. util.hash_hex(id .. "|" .. date, 64, 11)
  return "https://cloudformation-waitcondition-" .. region .. ".s3.amazonaws.com/"
    .. util.url_encode(id, "%w%-%._~/") .. "?" .. query
end

function A.CreateWaitConditionHandle(p, env)
  local logical = check_logical(p.LogicalResourceId)
  local stack_id = p.StackId
  if stack_id == nil or stack_id == "" then
    local name = p.StackName
    if type(name) ~= "string" or not name:match("^[%a][%w%-]*$") then
      fail("1 validation error detected: Value " .. (name == nil and "null" or ("'" .. tostring(name) .. "'"))
        .. " at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*",
        "ValidationError")
    end
    stack_id = "arn:aws:cloudformation:" .. env.region .. ":" .. env.account .. ":stack/" .. name
      .. "/" .. env.new_id("uuid")
  end
  if not tostring(stack_id):match("^arn:[^:]+:cloudformation:[^:]*:[^:]*:stack/[^/]+/[^/]+$") then
    fail("Stack with id " .. tostring(stack_id) .. " does not exist", "ValidationError")
  end
  local id = stack_id .. "/" .. logical
  local rec = world.get(KIND, id)
  if not rec then
    rec = {
      Id = id, Url = presigned_url(id, env.region, env.now_ms), StackId = stack_id,
      LogicalResourceId = logical, CreatedMs = env.now_ms, Signals = {},
    }
    world.put(KIND, id, rec)
  end
  return { Url = rec.Url, Id = rec.Id }
end

local function get_handle(p)
  local given = p.Handle or p.Url or p.Id
  local id = A.handle_id(given)
  local rec = id and world.get(KIND, id)
  -- What S3 answers for a presigned URL whose object cannot be written.
  if not rec then fail("Access Denied", "AccessDenied") end
  rec.Signals = util.as_list(rec.Signals)
  return rec
end

local function text(v)
  if v == nil then return "" end
  if type(v) == "string" then return v end
  return tostring(v)
end

function A.SignalWaitCondition(p, env)
  local rec = get_handle(p)
  local signal = {
    Status = text(p.Status), Reason = text(p.Reason), UniqueId = text(p.UniqueId),
    Data = text(p.Data), Timestamp = env.now_ms,
  }
  local replaced = false
  for i, s in ipairs(rec.Signals) do
    if s.UniqueId == signal.UniqueId then rec.Signals[i] = signal; replaced = true break end
  end
  if not replaced then rec.Signals[#rec.Signals + 1] = signal end
  world.put(KIND, rec.Id, rec)
  return {}
end

function A.GetWaitConditionSignals(p)
  local rec = get_handle(p)
  return { Id = rec.Id, Url = rec.Url, Signals = rec.Signals }
end

function A.DeleteWaitConditionHandle(p)
  local id = A.handle_id(p.Handle or p.Url or p.Id)
  if id then world.remove(KIND, id) end
  return {}
end

-- Wait conditions ------------------------------------------------------------------------
-- A completed AWS::CloudFormation::WaitCondition is a record too
-- ("cloudformation.wait_condition", keyed by its physical ID), so the world
-- shows it with its Data and a deleted one is gone for `read`.
--   PutWaitCondition { Id, Handle?, Count?, Timeout?, Data } -> {}
--   DescribeWaitCondition { Id } -> { WaitCondition = {...} }
--   DeleteWaitCondition { Id } -> {}

local WAIT_KIND = "cloudformation.wait_condition"

function A.PutWaitCondition(p, env)
  if type(p.Id) ~= "string" or p.Id == "" then
    fail("1 validation error detected: Value null at 'id' failed to satisfy constraint: Member must not be null",
      "ValidationError")
  end
  world.put(WAIT_KIND, p.Id, {
    Id = p.Id, Handle = p.Handle, Count = p.Count, Timeout = p.Timeout, Data = text(p.Data),
    CompletedMs = env.now_ms,
  })
  return {}
end

function A.DescribeWaitCondition(p)
  local rec = type(p.Id) == "string" and world.get(WAIT_KIND, p.Id)
  if not rec then fail("Wait condition " .. tostring(p.Id) .. " does not exist", "NotFound") end
  return { WaitCondition = rec }
end

function A.DeleteWaitCondition(p)
  if type(p.Id) == "string" then world.remove(WAIT_KIND, p.Id) end
  return {}
end

---The Data attribute of a wait condition: a JSON object of UniqueId -> Data
---over the SUCCESS signals, in arrival order (AWS's documented shape:
---{"Signal1":"Step 1 complete."}).
---@param signals table[]
---@return string
function A.signal_data(signals)
  local out = {}
  for _, s in ipairs(signals or {}) do
    if s.Status == "SUCCESS" then out[#out + 1] = { s.UniqueId, s.Data } end
  end
  return util.json_object(out)
end

-- Resource signals (CreationPolicy) ---------------------------------------------------
-- `cfn-signal --stack S --resource R` and `aws cloudformation signal-resource`
-- send SignalResource; a resource whose CreationPolicy has a ResourceSignal
-- waits for Count SUCCESS signals. The engine counts them
-- (engine/stack/resource_signals.h, which writes the same records for the
-- CLI and the server). One record per signal, so a signal costs the same
-- however many the resource already has (a 1,000-instance group's rolling
-- update sends 1,000):
--   kind "cloudformation.signal", id "<stack name>/<logical ID>/<UniqueId>",
--   { StackName, LogicalResourceId, UniqueId, Status, StackId, Timestamp, Seq }
--   refs { "signals:<stack name>/<logical ID>" }: the world's referrers
--   index lists a resource's signals; Seq orders them by arrival (a counter,
--   kind "cloudformation.signal_seq", id "<stack name>/<logical ID>").
-- StackId is set when the stack was named by its ARN (cfn-signal --stack
-- ${AWS::StackId}); a signal with the UniqueId of an earlier one replaces it
-- (and counts as arriving now).
-- Whether the stack and the resource exist is the CLI's and the server's
-- check (the stacks are not in the world).
--   SignalResource { StackName, LogicalResourceId, UniqueId, Status } -> {}
--   GetResourceSignals { StackName, LogicalResourceId [, UniqueIds] } -> { Signals = {...} }
--     in arrival order; with UniqueIds (not AWS's: CloudFormation has no such
--     action) only those, each looked up by its id: a batch of a rolling
--     update asks for its own instances, not every signal the group ever had.

local SIGNAL_KIND = "cloudformation.signal"
local SEQ_KIND = "cloudformation.signal_seq"

---The stack name and (when given as an ARN) the stack ID of `stack`.
---@param stack string
---@return string name, string stack_id
function A.stack_name_and_id(stack)
  local name = type(stack) == "string" and stack:match("^arn:[^:]*:cloudformation:[^:]*:[^:]*:stack/([^/]+)/[^/]+$")
  if name then return name, stack end
  return stack, ""
end

-- AWS's request validation (the Coral wording of every AWS Query API):
-- "1 validation error detected: Value 'X' at 'status' failed to satisfy
-- constraint: Member must satisfy enum value set: [SUCCESS, FAILURE]".
local function null_or(v) return v == nil and "null" or ("'" .. tostring(v) .. "'") end

local function check_signal(p)
  if type(p.StackName) ~= "string" or p.StackName == "" then
    fail("1 validation error detected: Value null"
      .. " at 'stackName' failed to satisfy constraint: Member must not be null", "ValidationError")
  end
  if type(p.LogicalResourceId) ~= "string" or p.LogicalResourceId == "" then
    fail("1 validation error detected: Value null"
      .. " at 'logicalResourceId' failed to satisfy constraint: Member must not be null", "ValidationError")
  end
  if type(p.UniqueId) ~= "string" or p.UniqueId == "" then
    fail("1 validation error detected: Value null at 'uniqueId' failed to satisfy constraint: Member must not be null",
      "ValidationError")
  end
  if #p.UniqueId > 64 then
    fail("1 validation error detected: Value '" .. p.UniqueId .. "' at 'uniqueId' failed to satisfy constraint: "
      .. "Member must have length less than or equal to 64", "ValidationError")
  end
  if p.Status == nil or p.Status == "" then
    fail("1 validation error detected: Value null at 'status' failed to satisfy constraint: Member must not be null",
      "ValidationError")
  end
  if p.Status ~= "SUCCESS" and p.Status ~= "FAILURE" then
    fail("1 validation error detected: Value " .. null_or(p.Status)
      .. " at 'status' failed to satisfy constraint: Member must satisfy enum value set: [SUCCESS, FAILURE]",
      "ValidationError")
  end
end

function A.SignalResource(p, env)
  check_signal(p)
  local name, stack_id = A.stack_name_and_id(p.StackName)
  local resource = name .. "/" .. p.LogicalResourceId
  local seq = (world.get(SEQ_KIND, resource) or { Next = 1 }).Next
  world.put(SEQ_KIND, resource, { Next = seq + 1 })
  world.put(SIGNAL_KIND, resource .. "/" .. p.UniqueId, {
    StackName = name, LogicalResourceId = p.LogicalResourceId, UniqueId = p.UniqueId, Status = p.Status,
    StackId = stack_id, Timestamp = env.now_ms, Seq = seq,
  }, { refs = { "signals:" .. resource } })
  return {}
end

function A.GetResourceSignals(p)
  local name = A.stack_name_and_id(p.StackName)
  local signals = {}
  if type(name) ~= "string" then return { Signals = signals } end
  local resource = name .. "/" .. tostring(p.LogicalResourceId)
  if type(p.UniqueIds) == "table" then
    for _, unique_id in ipairs(p.UniqueIds) do
      signals[#signals + 1] = world.get(SIGNAL_KIND, resource .. "/" .. tostring(unique_id))
    end
  else
    for _, ref in ipairs(world.referrers("signals:" .. resource)) do
      if ref.kind == SIGNAL_KIND then signals[#signals + 1] = world.get(SIGNAL_KIND, ref.id) end
    end
  end
  table.sort(signals, function(a, b) return a.Seq < b.Seq end)
  for i, s in ipairs(signals) do
    signals[i] = { UniqueId = s.UniqueId, Status = s.Status, StackId = s.StackId, Timestamp = s.Timestamp }
  end
  return { Signals = signals }
end

return A
