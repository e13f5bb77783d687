-- Shared code in lib/ is required by providers, never loaded as one.
local M = {}
function M.id(ctx, name) return ctx.stack_name .. "-" .. ctx.logical_id .. "-" .. name end
return M
