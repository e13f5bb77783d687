-- sim.autoscaling.lifecycle_actions: instances a group's lifecycle hooks
-- hold, and the actions that release them.
--
-- A group with an EC2_INSTANCE_LAUNCHING hook puts each instance it launches
-- in Pending:Wait (it boots meanwhile, so its UserData runs); one with an
-- EC2_INSTANCE_TERMINATING hook puts each instance it terminates in
-- Terminating:Wait (still running: EC2 is asked to terminate it only when
-- the wait ends). A wait ends when every hook of the transition has a
-- result: CompleteLifecycleAction's, or the hook's DefaultResult once its
-- heartbeat timeout (extended by RecordLifecycleActionHeartbeat) or global
-- timeout has passed. Then a launch goes on to InService (CONTINUE) or the
-- instance is terminated (ABANDON, from any hook); a termination goes on
-- either way. Times are the world's clock, checked when the group settles
-- (sim.autoscaling.capacity), like everything else in the group.
--
-- An instance entry of the group carries its wait in `_wait`:
-- { [hook name] = { token, heartbeat_s, deadline_ms, global_ms, default, result } };
-- each token is also a record (C.LIFECYCLE_ACTION) so an action given only
-- a token finds its instance in one read.

local world = require("sim.world")
local C = require("sim.autoscaling.common")
local H = require("sim.autoscaling.lifecycle_hooks")

local L = {}

L.LAUNCHING = "autoscaling:EC2_INSTANCE_LAUNCHING"
L.TERMINATING = "autoscaling:EC2_INSTANCE_TERMINATING"

---Holds `e` (an instance entry of `group`) for the group's hooks of
---`transition`; false when the group has none.
function L.hold(group, e, transition, env)
  local hooks = H.for_transition(group.AutoScalingGroupName, transition)
  if #hooks == 0 then return false end
  local wait = {}
  for _, h in ipairs(hooks) do
    local token = C.uuid(env)
    wait[h.LifecycleHookName] = {
      token = token, heartbeat_s = h.HeartbeatTimeout, default = h.DefaultResult,
      deadline_ms = env.now_ms + h.HeartbeatTimeout * 1000, global_ms = env.now_ms + h.GlobalTimeout * 1000,
    }
    world.put(C.LIFECYCLE_ACTION, token, { InstanceId = e.InstanceId, LifecycleHookName = h.LifecycleHookName,
      AutoScalingGroupName = group.AutoScalingGroupName }, { live = false })
  end
  e._wait = wait
  e.LifecycleState = transition == L.LAUNCHING and "Pending:Wait" or "Terminating:Wait"
  return true
end

---"CONTINUE" or "ABANDON" once every hook has a result (a timed-out one
---its DefaultResult), nil while any still waits.
function L.outcome(e, now_ms)
  local result = "CONTINUE"
  for _, w in pairs(e._wait or {}) do
    local r = w.result
    if not r and now_ms >= math.min(w.deadline_ms, w.global_ms) then r = w.default end
    if not r then return nil end
    if r == "ABANDON" then result = "ABANDON" end
  end
  return result
end

---Forgets `e`'s wait and its tokens.
function L.release(e)
  for _, w in pairs(e._wait or {}) do world.remove(C.LIFECYCLE_ACTION, w.token) end
  e._wait = nil
end

-- Actions ----------------------------------------------------------------------

-- The group settled (so a wait that timed out is over) and the wait of the
-- request's hook for its instance, or AWS's ValidationError.
local function active_wait(p, env)
  local K = require("sim.autoscaling.capacity")  -- capacity requires this module
  local gname = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local hook = C.check_name(p.LifecycleHookName, "lifecycleHookName")
  local id, token = p.InstanceId, p.LifecycleActionToken
  if not C.present(id) and not C.present(token) then
    -- AWS's answer when neither is given (Auto Scaling API reference: one of
    -- them is required); the wording follows the "No active" messages.
    C.fail("Either an InstanceId or a LifecycleActionToken must be specified.", "ValidationError")
  end
  local group = C.group(gname)
  if not group then C.group_not_found(gname) end
  K.settle(group, env)
  local function none()
    -- AWS's texts, verbatim in public logs: "No active Lifecycle Action found
    -- with instance ID i-03e8a9d35e9562cd1" / "... with token f66c3d47-...".
    if C.present(token) then C.fail("No active Lifecycle Action found with token " .. tostring(token), "ValidationError") end
    C.fail("No active Lifecycle Action found with instance ID " .. tostring(id), "ValidationError")
  end
  if C.present(token) then
    local rec = type(token) == "string" and world.get(C.LIFECYCLE_ACTION, token)
    if not rec or rec.AutoScalingGroupName ~= gname or rec.LifecycleHookName ~= hook then none() end
    id = rec.InstanceId
  end
  for _, e in ipairs(group.Instances) do
    if e.InstanceId == id then
      local w = e._wait and e._wait[hook]
      if not w or w.result or (C.present(token) and w.token ~= token) then none() end
      return group, e, w, K
    end
  end
  none()
end

local A = {}

---CompleteLifecycleAction: AutoScalingGroupName, LifecycleHookName,
---LifecycleActionResult (CONTINUE | ABANDON), InstanceId or
---LifecycleActionToken -> {}.
function A.CompleteLifecycleAction(p, env)
  local result = C.require_member(p.LifecycleActionResult, "lifecycleActionResult")
  if result ~= "CONTINUE" and result ~= "ABANDON" then
    -- Extrapolated from PutLifecycleHook's DefaultResult message.
    C.fail("Valid values for LifecycleActionResult are CONTINUE and ABANDON.", "ValidationError")
  end
  local group, _, w, K = active_wait(p, env)
  w.result = result
  K.settle(group, env)
  C.save_group(group)
  return {}
end

---RecordLifecycleActionHeartbeat: AutoScalingGroupName, LifecycleHookName,
---InstanceId or LifecycleActionToken -> {}. The wait's heartbeat timeout
---starts again (never past the global timeout).
function A.RecordLifecycleActionHeartbeat(p, env)
  local group, _, w = active_wait(p, env)
  w.deadline_ms = env.now_ms + w.heartbeat_s * 1000
  C.save_group(group)
  return {}
end

L.actions = A
return L
