-- lib.kms_client: what the AWS::KMS::* providers share: the simulated KMS
-- client of a hook, whose errors read as CloudFormation's KMS handlers
-- report them, and a call that answers nil when KMS says NotFound.
--
-- AWS::KMS::Key and Alias are registry types: a KMS error reaches the
-- resource's status reason in the registry handlers' form, KMS's message
-- with the SDK's details inside (aws-solutions/innovation-sandbox-on-aws#31,
-- an AWS::KMS::Key event of 2025):
--   Resource handler returned message: "The new key policy will not allow you
--   to update the key policy in the future. (Service: Kms, Status Code: 400,
--   Request ID: <uuid>) (SDK Attempt Count: 1)" (RequestToken: <uuid>,
--   HandlerErrorCode: InvalidRequest)
-- The handler error code is cloudformation-cli's for KMS's: NotFound,
-- AlreadyExists, ServiceLimitExceeded, else InvalidRequest. The IDs are
-- drawn from the world's ID sequence (deterministic).

local P = require("moonstack.provider")
local errors = require("moonstack.errors")
local sim = require("sim")
local world = require("moonstack.world")

local M = {}

local HANDLER_CODES = { NotFoundException = "NotFound", AlreadyExistsException = "AlreadyExists",
                        LimitExceededException = "ServiceLimitExceeded" }
local STATUS = { KMSInternalException = 500, DependencyTimeoutException = 503 }

local function reported(err)
  local message, code = errors.message(err)
  local request, token = world.atomic(function() return sim.new_id("uuid"), sim.new_id("uuid") end)
  local handler_code = HANDLER_CODES[code] or "InvalidRequest"
  P.fail('Resource handler returned message: "' .. message .. " (Service: Kms, Status Code: " .. (STATUS[code] or 400)
    .. ", Request ID: " .. request .. ') (SDK Attempt Count: 1)" (RequestToken: ' .. token .. ", HandlerErrorCode: "
    .. handler_code .. ")", handler_code)
end

-- A reporting client per raw one (weak keys: it lives as long as the raw
-- client), and each reporting action's raw function (for unless_gone).
local reporting = setmetatable({}, { __mode = "k" })
local raw_of = setmetatable({}, { __mode = "k" })

---The KMS client of a hook: ctx.world's (set by the host) or one made
---here, each action's error reported as the registry handlers do.
function M.kms(ctx)
  local client = type(ctx) == "table" and type(ctx.world) == "table" and ctx.world.kms and ctx.world or sim.client(ctx)
  local raw = client.kms
  local wrapped = reporting[raw]
  if wrapped then return wrapped end
  wrapped = setmetatable({}, { __index = function(self, action)
    local fn = raw[action]
    local call = function(req)
      local ok, r = pcall(fn, req)
      if ok then return r end
      if type(r) == "table" and r.code then reported(r) end
      error(r, 0)  -- not KMS's answer (a bug, the deadline): as it came
    end
    raw_of[call] = fn
    rawset(self, action, call)
    return call
  end })
  reporting[raw] = wrapped
  return wrapped
end

---fn(req)'s result, or nil when it failed with NotFoundException; other
---errors propagate (reported, for an action of M.kms's client).
function M.unless_gone(fn, req)
  local raw = raw_of[fn] or fn
  local res, err = sim.attempt(raw, req)
  if err == nil then return res end
  local _, code = errors.message(err)
  if code == "NotFoundException" then return nil end
  if fn ~= raw and type(err) == "table" and err.code then reported(err) end
  error(err, 0)
end

return M
