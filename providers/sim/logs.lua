-- sim.logs: simulated CloudWatch Logs log groups (no log events).
--
-- A log group is the record "logs.group" "<region>:<name>". The Logs API
-- spells its parameters in camelCase (logGroupName, retentionInDays, ...).
-- ARN: arn:aws:logs:<region>:<account>:log-group:<name> (logGroupArn) and
-- the same with ":*" (arn, as DescribeLogGroups and CloudFormation's Arn give it).
--
-- Messages (CloudWatch Logs'):
--   The specified log group already exists (ResourceAlreadyExistsException)
--   The specified log group does not exist. (ResourceNotFoundException)
--   Invalid retention value. Valid values are: [1, 3, ...] (InvalidParameterException; quoted
--   in aws/aws-cdk#1343 with the list of its day; the list is today's: the registry schema's enum)
--   1 validation error detected: Value '<n>' at 'logGroupName' failed to satisfy constraint:
--   Member must satisfy regular expression pattern: [\.\-_/#A-Za-z0-9]+ (ValidationException)

local world = require("moonstack.world")

local A = {}

local GROUP = "logs.group"

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

function A.DeleteLogGroup(p, env)
  load_group(env, p.logGroupName)
  world.remove(GROUP, key(env, p.logGroupName))
  return {}
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
  for _, k in ipairs(world.ids(GROUP, true)) do
    if k:sub(1, #prefix) == prefix then out[#out + 1] = view(env, world.get(GROUP, k)) end
  end
  return { logGroups = out }
end

-- Tags by ARN (TagResource / UntagResource / ListTagsForResource): "arn:…:log-group:NAME" (":*" allowed).
local function by_arn(env, arn)
  local name = type(arn) == "string" and arn:match(":log%-group:(.-)$") or nil
  if name then name = name:gsub(":%*$", "") end
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
