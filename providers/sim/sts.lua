-- sim.sts: the Security Token Service the SDKs and deploy tools call first —
-- who am I (GetCallerIdentity), and credentials for a role of the simulated
-- IAM (AssumeRole) or for the caller (GetSessionToken).
--
-- The caller is the account's root: the simulated cloud checks no
-- signatures and no policies. Credentials are drawn from the world's ID
-- sequence (deterministic under a seed) and are accepted by every simulated
-- service, as any are.
--
-- Messages (AWS's, STS API reference and observed):
--   User: <caller ARN> is not authorized to perform: sts:AssumeRole on resource: <role ARN>
--                                                          (AccessDenied, 403: a role that does not exist)
--   1 validation error detected: Value '<v>' at '<member>' failed to satisfy constraint: ...
--                                                          (ValidationError)

local world = require("sim.world")
local util = require("sim.cloudformation_util")

local A = {}

local function fail(message, code) require("sim").fail(message, code) end

local function caller_arn(env) return "arn:aws:iam::" .. env.account .. ":root" end

function A.GetCallerIdentity(_, env)
  return { UserId = env.account, Account = env.account, Arn = caller_arn(env) }
end

-- DurationSeconds within [min, max] (the default when absent).
local function duration(p, default, max)
  local d = p.DurationSeconds
  if d == nil then return default end
  d = tonumber(d)
  if not d or d < 900 then
    fail("1 validation error detected: Value '" .. tostring(p.DurationSeconds) .. "' at 'durationSeconds' failed to "
      .. "satisfy constraint: Member must have value greater than or equal to 900", "ValidationError")
  end
  if d > max then
    fail("1 validation error detected: Value '" .. tostring(p.DurationSeconds) .. "' at 'durationSeconds' failed to "
      .. "satisfy constraint: Member must have value less than or equal to " .. max, "ValidationError")
  end
  return d
end

local function credentials(env, seconds)
  return {
    AccessKeyId = "ASIA" .. env.new_id("upper_alnum", 16),
    SecretAccessKey = env.new_id("hex", 40),
    SessionToken = "FwoGZXIvYXdzE" .. env.new_id("hex", 64),
    Expiration = util.iso8601(env.now_ms + seconds * 1000),
  }
end

function A.AssumeRole(p, env)
  local session = p.RoleSessionName
  if type(session) ~= "string" or not session:match("^[%w+=,.@%-_]+$") or #session < 2 or #session > 64 then
    fail("1 validation error detected: Value '" .. tostring(session) .. "' at 'roleSessionName' failed to satisfy "
      .. "constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*", "ValidationError")
  end
  local arn = type(p.RoleArn) == "string" and p.RoleArn or ""
  local name = arn:match("^arn:aws[%w%-]*:iam::%d+:role/.-([^/]+)$")
  local role = name and world.get("iam.role", name:lower())
  if not role or role.Arn ~= arn then
    fail("User: " .. caller_arn(env) .. " is not authorized to perform: sts:AssumeRole on resource: " .. arn,
      "AccessDenied")
  end
  local partition = arn:match("^arn:(aws[%w%-]*):")
  return {
    Credentials = credentials(env, duration(p, 3600, 43200)),
    AssumedRoleUser = {
      AssumedRoleId = role.RoleId .. ":" .. session,
      Arn = "arn:" .. partition .. ":sts::" .. env.account .. ":assumed-role/" .. role.RoleName .. "/" .. session,
    },
    PackedPolicySize = p.Policy and 6 or nil,
  }
end

function A.GetSessionToken(p, env)
  return { Credentials = credentials(env, duration(p, 43200, 129600)) }
end

return A
