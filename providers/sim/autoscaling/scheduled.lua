-- sim.autoscaling.scheduled: scheduled actions (PutScheduledUpdateGroupAction,
-- DeleteScheduledAction, DescribeScheduledActions) and running them in
-- simulated time.
--
-- An action is a record "autoscaling.scheduled_action" keyed by
-- "<group>/<name>"; its group lists the names (`_sim.scheduled`), so the
-- group's actions are found without a walk of every action. `apply_due`
-- runs, when the group is read or acted on, every action whose time has
-- come (oldest first): it sets MinSize/MaxSize/DesiredCapacity, then a
-- one-time action is deleted (as AWS does) and a recurring one moves to its
-- next time. Recurrence is a cron expression "m h dom mon dow" (UTC) whose
-- fields are `*`, `*/n`, a number or a comma list of numbers.

local world = require("sim.world")
local C = require("sim.autoscaling.common")
local iso = require("sim.ec2.instances").iso8601

local S = {}

-- Time ----------------------------------------------------------------------------

local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local mp = (m + 9) % 12
  local doy = math.floor((153 * mp + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end

---An ISO 8601 UTC time ("2026-01-02T03:04:05Z", fractions and "+00:00"
---accepted) as ms since the epoch; nil when it is not one.
function S.parse_time(text)
  if type(text) ~= "string" then return nil end
  local y, mo, d, h, mi, s = text:match("^(%d%d%d%d)%-(%d%d)%-(%d%d)T(%d%d):(%d%d):(%d%d)")
  if not y then return nil end
  local days = days_from_civil(tonumber(y), tonumber(mo), tonumber(d))
  return ((days * 24 + tonumber(h)) * 60 + tonumber(mi)) * 60000 + tonumber(s) * 1000
end

-- Whether value v matches a cron field.
local function field_matches(field, v)
  for part in field:gmatch("[^,]+") do
    if part == "*" then return true end
    local step = part:match("^%*/(%d+)$")
    if step and v % tonumber(step) == 0 then return true end
    if tonumber(part) == v then return true end
  end
  return false
end

local function check_recurrence(r)
  local n = 0
  for f in r:gmatch("%S+") do
    n = n + 1
    if not f:match("^[%d%*/,]+$") then n = -100 end
  end
  if n ~= 5 then
    -- Auto Scaling's ValidationError for a bad cron expression (extrapolated wording).
    C.fail("Given recurrence string " .. r .. " is invalid", "ValidationError")
  end
end

---The first minute strictly after `after_ms` that the cron expression
---names, in ms; nil when none within a year.
function S.next_cron(recurrence, after_ms)
  local f = {}
  for x in recurrence:gmatch("%S+") do f[#f + 1] = x end
  local minute = math.floor(after_ms / 60000) + 1
  for _ = 1, 366 * 24 * 60 do
    local days = math.floor(minute / 1440)
    local mod = minute - days * 1440
    local h, mi = math.floor(mod / 60), mod % 60
    local dow = (days + 4) % 7  -- 1970-01-01 was a Thursday
    local date = iso(days * 86400000)
    local mon, dom = tonumber(date:sub(6, 7)), tonumber(date:sub(9, 10))
    if field_matches(f[1], mi) and field_matches(f[2], h) and field_matches(f[3], dom)
      and field_matches(f[4], mon) and field_matches(f[5], dow) then
      return minute * 60000
    end
    minute = minute + 1
  end
  return nil
end

-- Records -------------------------------------------------------------------------

local function key(group, name) return group .. "/" .. name end

local function view(rec)
  local out = {}
  for k, v in pairs(rec) do if k ~= "_sim" then out[k] = v end end
  return out
end

-- Applies one action to the group's sizes (a DesiredCapacity outside the
-- new bounds is brought inside them).
local function apply(group, rec)
  if rec.MinSize ~= nil then group.MinSize = rec.MinSize end
  if rec.MaxSize ~= nil then group.MaxSize = rec.MaxSize end
  if rec.DesiredCapacity ~= nil then group.DesiredCapacity = rec.DesiredCapacity end
  if group.DesiredCapacity < group.MinSize then group.DesiredCapacity = group.MinSize end
  if group.DesiredCapacity > group.MaxSize then group.DesiredCapacity = group.MaxSize end
end

---Runs the group's due actions (see the top of this file); O(number of the
---group's actions). True when one ran.
function S.apply_due(group, env)
  local names = group._sim.scheduled
  if not names or #names == 0 then return false end
  local due = {}
  for _, name in ipairs(names) do
    local rec = world.get(C.SCHEDULED_ACTION, key(group.AutoScalingGroupName, name))
    if rec and rec._sim.next_ms and rec._sim.next_ms <= env.now_ms then due[#due + 1] = rec end
  end
  table.sort(due, function(a, b) return a._sim.next_ms < b._sim.next_ms end)
  for _, rec in ipairs(due) do
    apply(group, rec)
    local id = key(group.AutoScalingGroupName, rec.ScheduledActionName)
    local nxt = rec.Recurrence and S.next_cron(rec.Recurrence, rec._sim.next_ms) or nil
    local ends = S.parse_time(rec.EndTime)
    if nxt and (not ends or nxt <= ends) then
      rec._sim.next_ms = nxt
      rec.StartTime = iso(nxt)
      world.put(C.SCHEDULED_ACTION, id, rec)
    else
      world.remove(C.SCHEDULED_ACTION, id)
      C.remove_child(group, "scheduled", rec.ScheduledActionName)
    end
  end
  return #due > 0
end

-- Actions -------------------------------------------------------------------------

local A = {}

---PutScheduledUpdateGroupAction: AutoScalingGroupName, ScheduledActionName,
---StartTime | Time, EndTime, Recurrence, MinSize, MaxSize, DesiredCapacity.
function A.PutScheduledUpdateGroupAction(p, env)
  local gname = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local name = C.check_name(p.ScheduledActionName, "scheduledActionName")
  local group = C.group(gname)
  if not group then C.group_not_found(gname) end
  local min, max = C.int(p.MinSize, "minSize"), C.int(p.MaxSize, "maxSize")
  local desired = C.int(p.DesiredCapacity, "desiredCapacity")
  if min == nil and max == nil and desired == nil then
    -- Auto Scaling's answer (quoted in public tooling tests).
    C.fail("At least one of MinSize, MaxSize or DesiredCapacity must be specified.", "ValidationError")
  end
  local start = p.StartTime or p.Time
  local start_ms = start ~= nil and S.parse_time(start) or nil
  if start ~= nil and not start_ms then
    C.fail("1 validation error detected: Value '" .. tostring(start) .. "' at 'startTime' failed to satisfy constraint: "
      .. "Member must be a valid ISO 8601 timestamp", "ValidationError")
  end
  local recurrence = C.present(p.Recurrence) and p.Recurrence or nil
  if recurrence then check_recurrence(recurrence) end
  local next_ms = start_ms
  if recurrence and (not next_ms or next_ms < env.now_ms) then
    next_ms = S.next_cron(recurrence, math.max(env.now_ms, start_ms or 0) - 60000)
  end
  if not next_ms then
    C.fail("Either StartTime or Recurrence must be specified.", "ValidationError")
  end
  local id = key(gname, name)
  local rec = {
    AutoScalingGroupName = gname, ScheduledActionName = name,
    ScheduledActionARN = C.arn(env, "scheduledUpdateGroupAction:" .. C.uuid(env) .. ":autoScalingGroupName/"
      .. gname .. ":scheduledActionName/" .. name),
    StartTime = iso(next_ms), Time = iso(next_ms), EndTime = C.present(p.EndTime) and p.EndTime or nil,
    Recurrence = recurrence, MinSize = min, MaxSize = max, DesiredCapacity = desired,
    TimeZone = C.present(p.TimeZone) and p.TimeZone or nil,
    _sim = { next_ms = next_ms },
  }
  world.put(C.SCHEDULED_ACTION, id, rec)
  C.add_child(group, "scheduled", name)
  C.save_group(group)
  return {}
end

-- "Scheduled Update Group Action name not found - Could not find scheduled
-- action X" (extrapolated from the group and launch configuration wording).
local function action_not_found(name)
  C.fail("Scheduled Update Group Action name not found - Could not find scheduled action " .. tostring(name),
    "ValidationError")
end

---DeleteScheduledAction: AutoScalingGroupName, ScheduledActionName.
function A.DeleteScheduledAction(p, env)
  local gname = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local name = C.check_name(p.ScheduledActionName, "scheduledActionName")
  local group = C.group(gname)
  if not group then C.group_not_found(gname) end
  if not world.remove(C.SCHEDULED_ACTION, key(gname, name)) then action_not_found(name) end
  C.remove_child(group, "scheduled", name)
  C.save_group(group)
  return {}
end

---DescribeScheduledActions: AutoScalingGroupName, ScheduledActionNames ->
---{ ScheduledUpdateGroupActions }. Due actions run first (they are gone
---when they have run once).
function A.DescribeScheduledActions(p, env)
  local gname = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  require("sim.autoscaling.capacity").load(gname, env)
  local group = C.group(gname)
  local wanted = C.list(p.ScheduledActionNames)
  local names = #wanted > 0 and wanted or (group._sim.scheduled or {})
  local out = {}
  for _, name in ipairs(names) do
    local rec = world.get(C.SCHEDULED_ACTION, key(gname, name))
    if rec then out[#out + 1] = view(rec) end
  end
  return { ScheduledUpdateGroupActions = out }
end

S.key = key
S.actions = A
return S
