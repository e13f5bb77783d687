-- sim.autoscaling.lifecycle_hooks: PutLifecycleHook, DeleteLifecycleHook,
-- DescribeLifecycleHooks (kind "autoscaling.lifecycle_hook", keyed by
-- "<group>/<hook name>"; the group lists its hooks' names in `_sim.hooks`,
-- and each hook refers to H.transition_ref(group, transition) so the hooks
-- of one transition are one index lookup). AWS's defaults: HeartbeatTimeout
-- 3600, DefaultResult ABANDON, GlobalTimeout 100 times the heartbeat, at
-- most 48 h. What a hook does to an instance (Pending:Wait,
-- Terminating:Wait) is sim.autoscaling.lifecycle_actions'.

local world = require("sim.world")
local C = require("sim.autoscaling.common")

local H = {}

local TRANSITIONS = { ["autoscaling:EC2_INSTANCE_LAUNCHING"] = true, ["autoscaling:EC2_INSTANCE_TERMINATING"] = true }

local function key(group, name) return group .. "/" .. name end

---The ref every hook of `group` for `transition` carries.
function H.transition_ref(group, transition) return "autoscaling-hooks:" .. group .. ":" .. transition end

---The group's hook records for a transition ("autoscaling:EC2_INSTANCE_LAUNCHING"
---or "...TERMINATING"), sorted by name.
function H.for_transition(group_name, transition)
  local out = {}
  for _, r in ipairs(world.referrers(H.transition_ref(group_name, transition))) do
    if r.kind == C.LIFECYCLE_HOOK then out[#out + 1] = world.get(r.kind, r.id) end
  end
  return out
end

local function group_of(p)
  local gname = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local group = C.group(gname)
  if not group then C.group_not_found(gname) end
  return group
end

local A = {}

---Creates or changes one hook of `group` from a PutLifecycleHook request
---(or a LifecycleHookSpecification of CreateAutoScalingGroup); the caller
---saves the group.
function H.put(group, p)
  local name = C.check_name(p.LifecycleHookName, "lifecycleHookName")
  local id = key(group.AutoScalingGroupName, name)
  local old = world.get(C.LIFECYCLE_HOOK, id)
  local transition = p.LifecycleTransition
  if not C.present(transition) then
    if not old then C.require_member(nil, "lifecycleTransition") end
    transition = old.LifecycleTransition
  end
  if not TRANSITIONS[transition] then
    -- Auto Scaling's ValidationError (quoted in public issue threads).
    C.fail("Invalid Lifecycle Transition: " .. tostring(transition), "ValidationError")
  end
  local heartbeat = C.int(p.HeartbeatTimeout, "heartbeatTimeout") or (old and old.HeartbeatTimeout) or 3600
  if heartbeat < 30 or heartbeat > 7200 then
    C.fail("1 validation error detected: Value '" .. heartbeat .. "' at 'heartbeatTimeout' failed to satisfy constraint: "
      .. "Member must have value between 30 and 7200", "ValidationError")
  end
  local result = C.present(p.DefaultResult) and p.DefaultResult or (old and old.DefaultResult) or "ABANDON"
  if result ~= "CONTINUE" and result ~= "ABANDON" then
    C.fail("Valid values for DefaultResult are CONTINUE and ABANDON.", "ValidationError")
  end
  local rec = {
    LifecycleHookName = name, AutoScalingGroupName = group.AutoScalingGroupName,
    LifecycleTransition = transition, HeartbeatTimeout = heartbeat, DefaultResult = result,
    GlobalTimeout = math.min(100 * heartbeat, 172800),
    RoleARN = C.present(p.RoleARN) and p.RoleARN or (old and old.RoleARN) or nil,
    NotificationTargetARN = C.present(p.NotificationTargetARN) and p.NotificationTargetARN or (old and old.NotificationTargetARN) or nil,
    NotificationMetadata = C.present(p.NotificationMetadata) and p.NotificationMetadata or (old and old.NotificationMetadata) or nil,
  }
  world.put(C.LIFECYCLE_HOOK, id, rec, { refs = { H.transition_ref(group.AutoScalingGroupName, transition) } })
  C.add_child(group, "hooks", name)
end

---PutLifecycleHook: AutoScalingGroupName, LifecycleHookName, LifecycleTransition,
---RoleARN, NotificationTargetARN, NotificationMetadata, HeartbeatTimeout, DefaultResult.
function A.PutLifecycleHook(p, env)
  local group = group_of(p)
  H.put(group, p)
  C.save_group(group)
  return {}
end

---DeleteLifecycleHook: AutoScalingGroupName, LifecycleHookName.
function A.DeleteLifecycleHook(p, env)
  local group = group_of(p)
  local name = C.check_name(p.LifecycleHookName, "lifecycleHookName")
  if not world.remove(C.LIFECYCLE_HOOK, key(group.AutoScalingGroupName, name)) then
    -- Auto Scaling's answer for an unknown hook (quoted in public issue threads).
    C.fail("No Lifecycle Hook found with name " .. name .. " for group " .. group.AutoScalingGroupName, "ValidationError")
  end
  C.remove_child(group, "hooks", name)
  C.save_group(group)
  return {}
end

---DescribeLifecycleHooks: AutoScalingGroupName, LifecycleHookNames -> { LifecycleHooks }.
function A.DescribeLifecycleHooks(p, env)
  local group = group_of(p)
  local wanted = C.list(p.LifecycleHookNames)
  local names = #wanted > 0 and wanted or (group._sim.hooks or {})
  local out = {}
  for _, name in ipairs(names) do
    local rec = world.get(C.LIFECYCLE_HOOK, key(group.AutoScalingGroupName, name))
    if rec then out[#out + 1] = rec end
  end
  return { LifecycleHooks = out }
end

---Removes every hook of a group being deleted.
function H.remove_all(group)
  for _, n in ipairs(group._sim.hooks or {}) do world.remove(C.LIFECYCLE_HOOK, key(group.AutoScalingGroupName, n)) end
end

H.actions = A
return H
