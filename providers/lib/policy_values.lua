-- lib.policy_values: reading a resource's evaluated UpdatePolicy (ctx.update_policy)
-- the way the providers of seed 004's policies need it. Values keep the
-- template's spelling — a boolean may arrive as true or "true" — and
-- AppStream's policies are written `StopBeforeUpdate: { Type: true }`
-- (the seed's syntax; cfn-lint's schema: an object whose Type is a boolean).

local M = {}

---A policy boolean as the template spells it: true, or "true" in any case
---(as the engine's validator, engine/policy/policy_values.h, accepts it).
---@param v any
---@return boolean
function M.bool(v)
  return v == true or (type(v) == "string" and v:lower() == "true")
end

---True when the policy `name` of the hook's ctx is on: true, "true", or
---{ Type = true | "true" }.
---@param ctx table? a hook's or an update-behaviour function's ctx
---@param name string "UseOnlineResharding", "StopBeforeUpdate", ...
---@return boolean
function M.flag(ctx, name)
  local policy = type(ctx) == "table" and ctx.update_policy
  local v = type(policy) == "table" and policy[name] or nil
  if type(v) == "table" then v = v.Type end
  return M.bool(v)
end

return M
