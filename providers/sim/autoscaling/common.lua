-- sim.autoscaling.common: what the simulated Auto Scaling actions share —
-- AWS's request checks and messages, ARNs, the group record and the
-- instance -> group index.
--
-- Records (world kinds):
--   "autoscaling.group"                 keyed by group name; AWS's
--        DescribeAutoScalingGroups fields at the top level, the sim's own
--        bookkeeping under `_sim` (scheduled action and lifecycle hook
--        names, the size before a rolling update...). Its refs are its
--        launch configuration's ARN and its launch template's ID, so
--        deleting either while in use is refused through world.referrers.
--   "autoscaling.instance"              keyed by instance ID -> { group },
--        non-live: the group of an instance in one read.
--   "autoscaling.termination_request"   keyed by instance ID -> { InstanceId },
--        referring to C.termination_ref(group): an instance
--        TerminateInstanceInAutoScalingGroup terminated without touching the
--        group record; the group's next settle finds them in one index
--        lookup, marks them Terminating and launches their replacements, so
--        terminating a batch of a big group costs O(batch), not
--        O(batch x group size).
--   "autoscaling.lifecycle_action"      keyed by lifecycle action token ->
--        { InstanceId, LifecycleHookName, AutoScalingGroupName }, non-live:
--        an instance a lifecycle hook holds (sim.autoscaling.lifecycle_actions).
--   "autoscaling.launch_configuration"  keyed by name.
--   "autoscaling.scheduled_action"      keyed by "<group>/<action name>".
--   "autoscaling.lifecycle_hook"        keyed by "<group>/<hook name>".

local world = require("sim.world")
local errors = require("moonstack.errors")
local values = require("moonstack.values")

local C = {}

C.GROUP, C.MEMBER, C.LAUNCH_CONFIGURATION = "autoscaling.group", "autoscaling.instance", "autoscaling.launch_configuration"
C.SCHEDULED_ACTION, C.LIFECYCLE_HOOK = "autoscaling.scheduled_action", "autoscaling.lifecycle_hook"
C.TERMINATION_REQUEST = "autoscaling.termination_request"
C.LIFECYCLE_ACTION = "autoscaling.lifecycle_action"

---The ref every termination request of `group`'s instances carries.
function C.termination_ref(group) return "autoscaling-termination:" .. group end

-- The processes SuspendProcesses knows (the API reference's list).
C.PROCESSES = { "Launch", "Terminate", "AddToLoadBalancer", "AlarmNotification", "AZRebalance",
                "HealthCheck", "InstanceRefresh", "ReplaceUnhealthy", "ScheduledActions" }
C.PROCESS_SET = {}
for _, p in ipairs(C.PROCESSES) do C.PROCESS_SET[p] = true end

function C.fail(message, code) errors.fail(message, code) end

---A list parameter as a Lua list (nil and JSON null are empty).
function C.list(v)
  if v == nil or values.is_null(v) then return {} end
  if type(v) ~= "table" then return { v } end
  return v
end

function C.present(v) return v ~= nil and not values.is_null(v) end

---A boolean parameter (true/false or their strings); nil when absent.
function C.bool(v)
  if not C.present(v) then return nil end
  if type(v) == "boolean" then return v end
  if v == "true" then return true end
  if v == "false" then return false end
  return nil
end

-- The Coral validation wording of every AWS Query API, as Auto Scaling
-- answers a missing required member: "1 validation error detected: Value
-- null at 'autoScalingGroupName' failed to satisfy constraint: Member must
-- not be null".
function C.require_member(v, member)
  if not C.present(v) or v == "" then
    C.fail("1 validation error detected: Value null at '" .. member
      .. "' failed to satisfy constraint: Member must not be null", "ValidationError")
  end
  return v
end

-- Names are 1-255 characters of the "[\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*"
-- pattern (any printable text); the length is what can go wrong here.
function C.check_name(v, member)
  C.require_member(v, member)
  if type(v) ~= "string" then
    C.fail("1 validation error detected: Value '" .. tostring(v) .. "' at '" .. member
      .. "' failed to satisfy constraint: Member must be a string", "ValidationError")
  end
  if #v > 255 then
    C.fail("1 validation error detected: Value '" .. v .. "' at '" .. member
      .. "' failed to satisfy constraint: Member must have length less than or equal to 255", "ValidationError")
  end
  return v
end

---An integer parameter (a number or its string), or nil when absent; a
---non-integer fails as the Query API does.
function C.int(v, member)
  if not C.present(v) then return nil end
  local n = tonumber(v)
  if not n or n ~= math.floor(n) then
    C.fail("1 validation error detected: Value '" .. tostring(v) .. "' at '" .. member
      .. "' failed to satisfy constraint: Member must be an integer", "ValidationError")
  end
  return n
end

function C.arn(env, resource)
  return "arn:aws:autoscaling:" .. env.region .. ":" .. env.account .. ":" .. resource
end

-- A uuid-like ID from the world's generator (group and LC ARNs carry one).
function C.uuid(env) return env.new_id("uuid") end

-- Groups ------------------------------------------------------------------------

-- "AutoScalingGroup name not found - AutoScalingGroup X not found"
-- (ValidationError; the text of UpdateAutoScalingGroup / DeleteAutoScalingGroup
-- answers quoted in public projects' tests).
function C.group_not_found(name)
  C.fail("AutoScalingGroup name not found - AutoScalingGroup " .. tostring(name) .. " not found", "ValidationError")
end

---A plain list copy of `t`: a record read back from the host's store
---carries JSON markers, and an empty list comes back as an empty object,
---which would become an object with number keys when appended to (see
---sim/cloudformation_util.lua's as_list).
function C.as_list(t)
  local out = {}
  for i, v in ipairs(t or {}) do out[i] = v end
  return out
end

---The group record (not yet settled), or nil. The lists the sim grows are
---plain lists.
function C.group(name)
  if type(name) ~= "string" then return nil end
  local rec = world.get(C.GROUP, name)
  if not rec then return nil end
  rec.Instances, rec.SuspendedProcesses = C.as_list(rec.Instances), C.as_list(rec.SuspendedProcesses)
  rec._sim.scheduled, rec._sim.hooks = C.as_list(rec._sim.scheduled), C.as_list(rec._sim.hooks)
  return rec
end

function C.save_group(rec)
  local refs = {}
  if rec.LaunchConfigurationName then refs[#refs + 1] = rec._sim.lc_arn end
  local lt = rec.LaunchTemplate or (rec.MixedInstancesPolicy and rec.MixedInstancesPolicy.LaunchTemplate
    and rec.MixedInstancesPolicy.LaunchTemplate.LaunchTemplateSpecification)
  if lt and lt.LaunchTemplateId then refs[#refs + 1] = lt.LaunchTemplateId end
  world.put(C.GROUP, rec.AutoScalingGroupName, rec, { refs = refs })
end

-- The names of a group's scheduled actions (field "scheduled") or lifecycle
-- hooks ("hooks"), kept in its `_sim`: added once, removed; the caller saves.
function C.add_child(group, field, name)
  local names = group._sim[field]
  for _, n in ipairs(names) do if n == name then return end end
  names[#names + 1] = name
end

function C.remove_child(group, field, name)
  local kept = {}
  for _, n in ipairs(group._sim[field]) do if n ~= name then kept[#kept + 1] = n end end
  group._sim[field] = kept
end

function C.suspended(rec, process)
  for _, s in ipairs(rec.SuspendedProcesses or {}) do
    if s.ProcessName == process then return true end
  end
  return false
end

-- A group record as DescribeAutoScalingGroups shows it: without `_sim` and
-- without instance entries' private fields (those whose name starts with
-- "_"). In place: the caller hands over a record it read for this answer
-- (and saved already), so a 1,000-instance group is not copied per describe.
function C.group_view(rec)
  rec._sim = nil
  for _, i in ipairs(rec.Instances or {}) do
    for k in pairs(i) do if k:sub(1, 1) == "_" then i[k] = nil end end
  end
  return rec
end

return C
