-- moonstack.log: the logger a hook writes to.
--
-- The host puts a logger in `ctx.log` (lines go to the engine's log with the
-- stack, logical ID and hook attached). `log.of(ctx)` returns it, or a logger
-- that drops everything when a hook runs without a host (unit tests of a
-- provider), so provider code never needs an `if ctx.log` guard.

local values = require("moonstack.values")

local M = {}

---@class moonstack.Logger
---@field debug fun(...)
---@field info fun(...)
---@field warn fun(...)
---@field error fun(...)

local function noop() end

---A logger that discards everything. Its functions ignore their arguments,
---so both `log.info("x")` and `log:info("x")` are harmless. Every hook run
---without a host logger shares it: read-only.
---@type moonstack.Logger
M.null = values.freeze({ debug = noop, info = noop, warn = noop, error = noop }, "moonstack.log.null")

---The context's logger, or the null logger.
---@param ctx table?
---@return moonstack.Logger
function M.of(ctx)
  if type(ctx) == "table" and type(ctx.log) == "table" then return ctx.log end
  return M.null
end

return M
