-- sim.logs: simulated CloudWatch Logs log groups, their streams and events.
--
-- A log group is the record "logs.group" "<region>:<name>"; a stream
-- "logs.stream" "<region>:<group>:<stream>" holds its events (timestamp,
-- message, ingestionTime), oldest first (names hold no ':'). Lambda
-- functions write theirs with CreateLogStream/PutLogEvents
-- (sim/lambda_invoke.lua). The Logs API
-- spells its parameters in camelCase (logGroupName, retentionInDays, ...).
-- ARN: arn:aws:logs:<region>:<account>:log-group:<name> (logGroupArn) and
-- the same with ":*" (arn, as DescribeLogGroups and CloudFormation's Arn give it).
--
-- Messages (CloudWatch Logs'):
--   The specified log group already exists (ResourceAlreadyExistsException)
--   The specified log group does not exist. (ResourceNotFoundException)
--   The specified log stream does not exist. (ResourceNotFoundException)
--   The specified log stream already exists (ResourceAlreadyExistsException)
--   Invalid retention value. Valid values are: [1, 3, ...] (InvalidParameterException; quoted
--   in aws/aws-cdk#1343 with the list of its day; the list is today's: the registry schema's enum)
--   1 validation error detected: Value '<n>' at 'logGroupName' failed to satisfy constraint:
--   Member must satisfy regular expression pattern: [\.\-_/#A-Za-z0-9]+ (ValidationException)

local world = require("sim.world")

local A = {}

local GROUP = "logs.group"
local STREAM = "logs.stream"

A.RETENTION_DAYS = { 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922,
                     3288, 3653 }
local VALID_RETENTION = {}
for _, d in ipairs(A.RETENTION_DAYS) do VALID_RETENTION[d] = true end

local function fail(message, code) require("sim").fail(message, code) end

function A.group_arn(region, account, name) return "arn:aws:logs:" .. region .. ":" .. account .. ":log-group:" .. name end

local function key(env, name) return env.region .. ":" .. name end

local function check_name(name)
  if type(name) ~= "string" or #name < 1 or #name > 512 or not name:match("^[%.%-_/#%w]+$") then
    fail("1 validation error detected: Value '" .. tostring(name) .. "' at 'logGroupName' failed to satisfy "
      .. "constraint: Member must satisfy regular expression pattern: [\\.\\-_/#A-Za-z0-9]+", "ValidationException")
  end
end

local function load_group(env, name)
  local g = type(name) == "string" and world.get(GROUP, key(env, name))
  if not g then fail("The specified log group does not exist.", "ResourceNotFoundException") end
  return g
end

local function save(env, g) world.put(GROUP, key(env, g.logGroupName), g) end

function A.CreateLogGroup(p, env)
  check_name(p.logGroupName)
  if world.get(GROUP, key(env, p.logGroupName)) then
    fail("The specified log group already exists", "ResourceAlreadyExistsException")
  end
  local tags = {}
  for k, v in pairs(p.tags or {}) do tags[k] = v end
  save(env, { logGroupName = p.logGroupName, creationTime = env.now_ms, kmsKeyId = p.kmsKeyId,
              logGroupClass = p.logGroupClass or "STANDARD", tags = tags, storedBytes = 0 })
  return {}
end

-- The keys of a group's streams, in name order: those under the group's
-- key (a range of the world's ordered ids, not a walk of every stream).
local function stream_keys(env, group)
  return world.ids(STREAM, true, key(env, group) .. ":")
end

function A.DeleteLogGroup(p, env)
  load_group(env, p.logGroupName)
  for _, k in ipairs(stream_keys(env, p.logGroupName)) do world.remove(STREAM, k) end
  world.remove(GROUP, key(env, p.logGroupName))
  return {}
end

-- Streams and events ----------------------------------------------------------------

local function stream_key(env, group, stream) return key(env, group) .. ":" .. tostring(stream) end

local function load_stream(env, group, stream)
  load_group(env, group)
  local s = type(stream) == "string" and world.get(STREAM, stream_key(env, group, stream))
  if not s then fail("The specified log stream does not exist.", "ResourceNotFoundException") end
  return s
end

function A.CreateLogStream(p, env)
  load_group(env, p.logGroupName)
  if type(p.logStreamName) ~= "string" or p.logStreamName == "" or p.logStreamName:find("[:*]") then
    fail("1 validation error detected: Value '" .. tostring(p.logStreamName) .. "' at 'logStreamName' failed to "
      .. "satisfy constraint: Member must satisfy regular expression pattern: [^:*]*", "ValidationException")
  end
  local k = stream_key(env, p.logGroupName, p.logStreamName)
  if world.get(STREAM, k) then fail("The specified log stream already exists", "ResourceAlreadyExistsException") end
  world.put(STREAM, k, { logStreamName = p.logStreamName, creationTime = env.now_ms, events = {} })
  return {}
end

-- Each event gets the group's next sequence number (sim-only), so events
-- of one time (virtual time stands still during an operation) list in the
-- order they were put, across streams.
function A.PutLogEvents(p, env)
  local s = load_stream(env, p.logGroupName, p.logStreamName)
  local g = load_group(env, p.logGroupName)
  local seq = g.nextSequence or 1
  for _, e in ipairs(p.logEvents or {}) do
    s.events[#s.events + 1] = { timestamp = tonumber(e.timestamp) or env.now_ms, message = tostring(e.message),
                                ingestionTime = env.now_ms, sequence = seq }
    seq = seq + 1
  end
  g.nextSequence = seq
  save(env, g)
  s.lastEventTimestamp = s.events[#s.events] and s.events[#s.events].timestamp or nil
  world.put(STREAM, stream_key(env, p.logGroupName, p.logStreamName), s)
  return { nextSequenceToken = tostring(#s.events) }
end

function A.DescribeLogStreams(p, env)
  load_group(env, p.logGroupName)
  local prefix, out = p.logStreamNamePrefix or "", {}
  for _, k in ipairs(stream_keys(env, p.logGroupName)) do
    local s = world.get(STREAM, k)
    if s.logStreamName:sub(1, #prefix) == prefix then
      out[#out + 1] = { logStreamName = s.logStreamName, creationTime = s.creationTime,
                        firstEventTimestamp = s.events[1] and s.events[1].timestamp or nil,
                        lastEventTimestamp = s.lastEventTimestamp, storedBytes = 0,
                        arn = A.group_arn(env.region, env.account, p.logGroupName) .. ":log-stream:" .. s.logStreamName }
    end
  end
  return { logStreams = out }
end

-- One stream's events, oldest first (startFromHead or not: moonstack returns
-- them all in one page).
function A.GetLogEvents(p, env)
  local s = load_stream(env, p.logGroupName, p.logStreamName)
  local out = {}
  for _, e in ipairs(s.events) do
    if (p.startTime == nil or e.timestamp >= p.startTime) and (p.endTime == nil or e.timestamp < p.endTime) then
      out[#out + 1] = { timestamp = e.timestamp, message = e.message, ingestionTime = e.ingestionTime }
    end
  end
  return { events = out, nextForwardToken = "f/" .. #s.events, nextBackwardToken = "b/0" }
end

-- Every stream's events (logStreamNames to choose), by time; filterPattern
-- is matched as plain text (CloudWatch's term syntax for one term).
function A.FilterLogEvents(p, env)
  load_group(env, p.logGroupName)
  local wanted
  if type(p.logStreamNames) == "table" then
    wanted = {}
    for _, n in ipairs(p.logStreamNames) do wanted[n] = true end
  end
  local pattern = type(p.filterPattern) == "string" and p.filterPattern:gsub('^"(.*)"$', "%1") or ""
  local out = {}
  for _, k in ipairs(stream_keys(env, p.logGroupName)) do
    local s = world.get(STREAM, k)
    if not wanted or wanted[s.logStreamName] then
      for _, e in ipairs(s.events) do
        if pattern == "" or e.message:find(pattern, 1, true) then
          out[#out + 1] = { logStreamName = s.logStreamName, timestamp = e.timestamp, message = e.message,
                            ingestionTime = e.ingestionTime, eventId = tostring(e.sequence or 0) }
        end
      end
    end
  end
  table.sort(out, function(a, b)
    if a.timestamp ~= b.timestamp then return a.timestamp < b.timestamp end
    return tonumber(a.eventId) < tonumber(b.eventId)  -- the order they were put in
  end)
  return { events = out }
end

-- An action that sets one field of the log group to what `value_of(p)`
-- returns (nil clears it).
local function set_field(field, value_of)
  return function(p, env)
    local g = load_group(env, p.logGroupName)
    g[field] = value_of(p)
    save(env, g)
    return {}
  end
end
local function clear() return nil end

A.PutRetentionPolicy = set_field("retentionInDays", function(p)
  if not VALID_RETENTION[tonumber(p.retentionInDays)] then
    fail("Invalid retention value. Valid values are: [" .. table.concat(A.RETENTION_DAYS, ", ") .. "]",
      "InvalidParameterException")
  end
  return tonumber(p.retentionInDays)
end)
A.DeleteRetentionPolicy = set_field("retentionInDays", clear)
A.AssociateKmsKey = set_field("kmsKeyId", function(p) return p.kmsKeyId end)
A.DisassociateKmsKey = set_field("kmsKeyId", clear)

local function view(env, g)
  return { logGroupName = g.logGroupName, creationTime = g.creationTime, retentionInDays = g.retentionInDays,
           kmsKeyId = g.kmsKeyId, logGroupClass = g.logGroupClass, storedBytes = g.storedBytes,
           arn = A.group_arn(env.region, env.account, g.logGroupName) .. ":*",
           logGroupArn = A.group_arn(env.region, env.account, g.logGroupName) }
end

-- A listing: the region's groups under the prefix, in name order.
function A.DescribeLogGroups(p, env)
  local prefix = key(env, p.logGroupNamePrefix or "")
  local out = {}
  for _, k in ipairs(world.ids(GROUP, true, prefix)) do out[#out + 1] = view(env, world.get(GROUP, k)) end
  return { logGroups = out }
end

-- Tags by ARN (TagResource / UntagResource / ListTagsForResource): "arn:…:log-group:NAME" (":*" allowed).
local function by_arn(env, arn)
  local name = type(arn) == "string" and arn:match(":log%-group:(.-)$") or nil
  if name then name = name:gsub(":%*$", "") end
  if require("sim").other_account(env, arn) then name = nil end  -- not this account's group
  return load_group(env, name)
end

function A.TagResource(p, env)
  local g = by_arn(env, p.resourceArn)
  for k, v in pairs(p.tags or {}) do g.tags[k] = v end
  save(env, g)
  return {}
end

function A.UntagResource(p, env)
  local g = by_arn(env, p.resourceArn)
  for _, k in ipairs(p.tagKeys or {}) do g.tags[k] = nil end
  save(env, g)
  return {}
end

function A.ListTagsForResource(p, env)
  return { tags = by_arn(env, p.resourceArn).tags }
end

return A
