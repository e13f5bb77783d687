-- lib.kms_client: what the AWS::KMS::* providers share: the simulated KMS
-- client of a hook, and a call that answers nil when KMS says NotFound.

local sim = require("sim")
local errors = require("moonstack.errors")

local M = {}

---The KMS client of a hook: ctx.world (set by the host) or one made here.
function M.kms(ctx)
  local client = type(ctx) == "table" and type(ctx.world) == "table" and ctx.world.kms and ctx.world or sim.client(ctx)
  return client.kms
end

---fn(...)'s result, or nil when it failed with NotFoundException; other
---errors propagate with KMS's message.
function M.unless_gone(fn, ...)
  local ok, res = pcall(fn, ...)
  if ok then return res end
  local _, code = errors.message(res)
  if code == "NotFoundException" then return nil end
  error(res, 0)
end

return M
