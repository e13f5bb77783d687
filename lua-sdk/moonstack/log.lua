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

---The host's logger (host/lua/log_binding.h, `moonstack.host_log`): its
---lines go to the operation's provider log. Arguments are joined as print
---joins them; `log:info(x)` works as `log.info(x)`. Without the host's
---binding (plain luajit tests) it is the null logger. Hooks get it as
---`ctx.log`, scenario scripts as the global `log`.
---@param name string  what a write to the frozen logger names
---@return moonstack.Logger
function M.host(name)
  local loaded, host_log = pcall(require, "moonstack.host_log")
  if not loaded then return M.null end
  local l, logger = {}, nil
  local function writer(level)
    return function(...)
      local n, first = select("#", ...), 1
      if n > 0 and (...) == logger then first = 2 end
      local parts = {}
      for i = first, n do parts[#parts + 1] = tostring((select(i, ...))) end
      host_log.write(level, table.concat(parts, "\t"))
    end
  end
  l.debug, l.info, l.warn, l.error = writer("DEBUG"), writer("INFO"), writer("WARN"), writer("ERROR")
  logger = values.freeze(l, name)
  return logger
end

return M
