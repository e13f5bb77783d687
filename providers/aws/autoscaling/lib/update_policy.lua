-- The Auto Scaling group's UpdatePolicy (seed 004) read as the provider
-- needs it. ctx.update_policy is evaluated by the engine but keeps the
-- template's spelling, so a boolean or an integer may be a string ("true",
-- "2", as in the seed's own example): every value goes through `bool` /
-- `int`, which accept both forms.

local U = {}

U.bool = require("lib.policy_values").bool

function U.int(v, default)
  local n = tonumber(v)
  if n == nil then return default end
  return math.floor(n)
end

---An ISO 8601 duration "PT#H#M#S" in seconds; nil when it is not one.
function U.seconds(text)
  if type(text) ~= "string" then return nil end
  local body = text:match("^PT(.+)$")
  if not body then return nil end
  local total, rest = 0, body
  for n, unit in body:gmatch("(%d+%.?%d*)([HMS])") do
    total = total + tonumber(n) * (unit == "H" and 3600 or unit == "M" and 60 or 1)
  end
  rest = rest:gsub("%d+%.?%d*[HMS]", "")
  if rest ~= "" then return nil end
  return total
end

---The AutoScalingRollingUpdate policy with AWS's defaults, or nil when the
---resource has none: { max_batch, min_in_service, min_success_pct,
---min_active_pct, pause (text), pause_seconds, wait_signals, suspend = {...} }.
function U.rolling(policy)
  local r = type(policy) == "table" and policy.AutoScalingRollingUpdate or nil
  if type(r) ~= "table" then return nil end
  local wait = U.bool(r.WaitOnResourceSignals)
  -- PauseTime defaults to PT1H with WaitOnResourceSignals, PT0S without.
  local pause = r.PauseTime or (wait and "PT1H" or "PT0S")
  return {
    max_batch = U.int(r.MaxBatchSize, 1),
    min_in_service = U.int(r.MinInstancesInService, 0),
    min_success_pct = tonumber(r.MinSuccessfulInstancesPercent) or 100,
    min_active_pct = r.MinActiveInstancesPercent ~= nil and tonumber(r.MinActiveInstancesPercent) or nil,
    pause = pause, pause_seconds = U.seconds(pause) or 0,
    wait_signals = wait,
    suspend = type(r.SuspendProcesses) == "table" and r.SuspendProcesses or {},
  }
end

---True when AutoScalingReplacingUpdate.WillReplace is set.
function U.will_replace(policy)
  local r = type(policy) == "table" and policy.AutoScalingReplacingUpdate or nil
  return type(r) == "table" and U.bool(r.WillReplace)
end

---True when AutoScalingScheduledAction.IgnoreUnmodifiedGroupSizeProperties is set.
function U.ignore_unmodified_sizes(policy)
  local r = type(policy) == "table" and policy.AutoScalingScheduledAction or nil
  return type(r) == "table" and U.bool(r.IgnoreUnmodifiedGroupSizeProperties)
end

---How many of `total` must succeed for `pct` percent, the percentage
---rounded to the nearest tenth first (the seed: "if you update five
---instances with a minimum successful percentage of 50, three instances
---must signal success").
function U.required(total, pct)
  local tenth = math.floor(pct * 10 + 0.5) / 10
  return math.ceil(total * tenth / 100 - 1e-9)
end

return U
