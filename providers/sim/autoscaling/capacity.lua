-- sim.autoscaling.capacity: how a group keeps its desired capacity — the
-- lazy reconcile every action runs on the group it reads or changes
-- (`settle`), like EC2 instances settle when read.
--
-- settle(group, env), O(group size):
--   0. instances TerminateInstanceInAutoScalingGroup terminated are
--      Terminating (common.lua, "autoscaling.termination_request");
--   1. scheduled actions whose time has come are applied, oldest first
--      (unless ScheduledActions is suspended; sim.autoscaling.scheduled);
--   2. each Pending or Terminating instance is read from EC2 (it settles
--      there, so a booted
--      instance's boot script runs and its cfn-signal reaches
--      CloudFormation): pending -> Pending, running -> InService; an
--      InService one is read at the health check, every
--      HEALTH_CHECK_SECONDS (60) of the clock, when EC2 left a state notice
--      for it (it was stopped or terminated: sim.ec2.instances), so a
--      poll of a big group reads only what changed; a
--      terminated one leaves the group; one stopped or terminated behind the
--      group's back is Unhealthy (unless HealthCheck is suspended) and is
--      terminated (unless ReplaceUnhealthy is suspended);
--   3. instances are launched up to DesiredCapacity (unless Launch is
--      suspended), balanced over the group's subnets (VPCZoneIdentifier) or
--      Availability Zones, each with the group's current configuration; or
--      terminated down to it (unless Terminate is suspended), in AWS's
--      Default termination policy order: instances not launched from the
--      current configuration first, then from the zone with the most
--      instances, then the oldest.
-- Instances on their way out (LifecycleState Terminating) do not count
-- towards the capacity: a replacement is launched as soon as one leaves.

local world = require("sim.world")
local C = require("sim.autoscaling.common")
local F = require("sim.autoscaling.configuration")
local S = require("sim.autoscaling.scheduled")
local L = require("sim.autoscaling.lifecycle_actions")
local ec2 = require("sim.ec2")
local ec2_instances = require("sim.ec2.instances")
local network = require("sim.ec2.network")

local K = {}

-- EC2's status checks run every minute ("Amazon EC2 performs automated
-- checks on every running EC2 instance ... every minute"), so a group
-- cannot learn of an impaired instance sooner: its health check reads its
-- InService instances once a minute of the clock.
K.HEALTH_CHECK_SECONDS = 60

-- The places the group launches into: { {subnet=, zone=}, ... } in the
-- group's order.
local function places(group, env)
  local out = {}
  local vpc_zone = group.VPCZoneIdentifier
  if type(vpc_zone) == "string" and vpc_zone ~= "" then
    for id in vpc_zone:gmatch("[^,%s]+") do
      local s = network.subnet(id)
      out[#out + 1] = { subnet = id, zone = s and s.AvailabilityZone or env.region .. "a" }
    end
  else
    for _, z in ipairs(group.AvailabilityZones or {}) do out[#out + 1] = { zone = z } end
  end
  return out
end
K.places = places

function K.subnet_set(group)
  local vpc_zone = group.VPCZoneIdentifier
  if type(vpc_zone) ~= "string" or vpc_zone == "" then return nil end
  local set = {}
  for id in vpc_zone:gmatch("[^,%s]+") do set[id] = true end
  return set
end

-- Terminating or Terminating:Wait: on its way out.
local function leaving(e) return e.LifecycleState:sub(1, 11) == "Terminating" end
local function active(e) return not leaving(e) end

local function count_active(group)
  local n = 0
  for _, e in ipairs(group.Instances) do if active(e) then n = n + 1 end end
  return n
end
K.count_active = count_active

-- Terminates `e` in EC2 now, whatever hook holds it.
local function terminate_now(e, env)
  L.release(e)
  if e.LifecycleState == "Terminating" then return end
  ec2.TerminateInstances({ InstanceIds = { e.InstanceId } }, env)
  e.LifecycleState = "Terminating"
end
K.terminate_now = terminate_now

-- Takes `e` out of service: held in Terminating:Wait when the group has a
-- termination hook, else terminated in EC2 at once.
local function terminate(group, e, env)
  if leaving(e) then return end
  if L.hold(group, e, L.TERMINATING, env) then return end
  terminate_now(e, env)
end

-- Moves one instance entry on, given its EC2 state (AWS's lifecycle:
-- Pending[:Wait] -> InService -> Terminating[:Wait] -> gone). True when its
-- LifecycleState changed.
local function step(group, e, state, env, check, replace)
  local was = e.LifecycleState
  if was == "Terminating" then return false end
  if was == "Terminating:Wait" then
    if L.outcome(e, env.now_ms) then terminate_now(e, env) end
    return e.LifecycleState ~= was
  end
  if was == "Pending:Wait" then
    local outcome = L.outcome(e, env.now_ms)
    if outcome == "ABANDON" then
      terminate_now(e, env)
      return true
    end
    if outcome == nil and (state == "pending" or state == "running") then return false end
    L.release(e)
  end
  if state == "pending" then e.LifecycleState = "Pending"
  elseif state == "running" then e.LifecycleState = "InService"
  elseif check then e.HealthStatus = "Unhealthy" end
  if e.HealthStatus == "Unhealthy" and replace then terminate(group, e, env) end
  return e.LifecycleState ~= was
end

-- Launches `n` instances, each into the place with the fewest active
-- instances (ties: the group's order).
local function launch(group, n, env)
  local where = places(group, env)
  if #where == 0 or n <= 0 then return end
  local counts = {}
  for i, p in ipairs(where) do
    counts[i] = 0
    for _, e in ipairs(group.Instances) do
      if active(e) and ((p.subnet and e._SubnetId == p.subnet) or (not p.subnet and e.AvailabilityZone == p.zone)) then
        counts[i] = counts[i] + 1
      end
    end
  end
  local per = {}
  for _ = 1, n do
    local best = 1
    for i = 2, #where do if counts[i] < counts[best] then best = i end end
    counts[best] = counts[best] + 1
    per[best] = (per[best] or 0) + 1
  end
  local identity = F.current(group)
  for i, p in ipairs(where) do
    if per[i] then
      local r = ec2.RunInstances(F.run_request(group, per[i], p.subnet, p.zone), env, F.service_tags(group))
      for _, inst in ipairs(r.Instances) do
        local e = {
          InstanceId = inst.InstanceId, InstanceType = inst.InstanceType,
          AvailabilityZone = inst.Placement.AvailabilityZone, LifecycleState = "Pending", HealthStatus = "Healthy",
          LaunchConfigurationName = identity.LaunchConfigurationName, LaunchTemplate = identity.LaunchTemplate,
          ProtectedFromScaleIn = group.NewInstancesProtectedFromScaleIn == true, _SubnetId = inst.SubnetId,
        }
        L.hold(group, e, L.LAUNCHING, env)
        group.Instances[#group.Instances + 1] = e
        world.put(C.MEMBER, inst.InstanceId, { group = group.AutoScalingGroupName }, { live = false })
      end
    end
  end
end

-- Picks `n` active instances to terminate, in the Default policy's order.
local function scale_in(group, n, env)
  local current = F.current(group)
  local subnets = K.subnet_set(group)
  for _ = 1, n do
    local zone_count = {}
    for _, e in ipairs(group.Instances) do
      if active(e) then zone_count[e.AvailabilityZone] = (zone_count[e.AvailabilityZone] or 0) + 1 end
    end
    local pick, pick_old, pick_zone
    for _, e in ipairs(group.Instances) do
      if active(e) and not e.ProtectedFromScaleIn then
        local old = not F.matches(e, current, subnets)
        local z = zone_count[e.AvailabilityZone]
        if not pick or (old and not pick_old) or (old == pick_old and z > pick_zone) then
          pick, pick_old, pick_zone = e, old, z
        end
      end
    end
    if not pick then return end
    terminate(group, pick, env)
  end
end

-- The records of `kind` referring to `ref` (per-instance notes left for the
-- group), removed: their IDs as a set. One index lookup, O(records).
local function take(ref, kind)
  local ids = {}
  for _, r in ipairs(world.referrers(ref)) do
    if r.kind == kind then
      ids[r.id] = true
      world.remove(r.kind, r.id)
    end
  end
  return ids
end

-- Applies TerminateInstanceInAutoScalingGroup's requests (see common.lua):
-- those instances are Terminating. True when there were any.
local function take_requests(group)
  local ids = take(C.termination_ref(group.AutoScalingGroupName), C.TERMINATION_REQUEST)
  if next(ids) == nil then return false end
  for _, e in ipairs(group.Instances) do
    if ids[e.InstanceId] then e.LifecycleState = "Terminating" end
  end
  return true
end

---The instances EC2 left state notices for (a set of IDs), the notices
---removed: one index lookup, O(notices).
function K.take_notices(group_name)
  return take(ec2_instances.notice_ref(group_name), ec2_instances.STATE_NOTICE)
end

---Brings the group up to date with the clock and its desired capacity
---(see the top of this file). The caller saves the group.
---@param group table the group record
---@param env table the action's env
function K.settle(group, env)
  local changed = take_requests(group)
  if not C.suspended(group, "ScheduledActions") then changed = S.apply_due(group, env) or changed end
  local now = env.now_ms
  local health = now - (group._sim.health_ms or -math.huge) >= K.HEALTH_CHECK_SECONDS * 1000
  local noticed = {}
  if health then
    group._sim.health_ms, changed = now, true
    noticed = K.take_notices(group.AutoScalingGroupName)
  end
  local kept = {}
  local check = not C.suspended(group, "HealthCheck")
  local replace = not C.suspended(group, "ReplaceUnhealthy")
  for _, e in ipairs(group.Instances) do
    local state = "running"
    if noticed[e.InstanceId] or e.LifecycleState ~= "InService" then
      local inst = ec2_instances.load(e.InstanceId, env)
      state = inst and inst.State.Name or "terminated"
    end
    if state == "terminated" then
      L.release(e)
      world.remove(C.MEMBER, e.InstanceId)
      changed = true
    else
      if step(group, e, state, env, check, replace) then changed = true end
      kept[#kept + 1] = e
    end
  end
  group.Instances = kept
  local have = count_active(group)
  if have < group.DesiredCapacity and not C.suspended(group, "Launch") then
    launch(group, group.DesiredCapacity - have, env)
    changed = true
  elseif have > group.DesiredCapacity and not C.suspended(group, "Terminate") then
    scale_in(group, have - group.DesiredCapacity, env)
    changed = true
  end
  return changed
end

---The group record, settled and saved; fails with AWS's message when there
---is no such group.
function K.load(name, env)
  local group = C.group(name)
  if not group then C.group_not_found(name) end
  K.settle(group, env)
  C.save_group(group)
  return group
end

K.terminate = terminate
return K
