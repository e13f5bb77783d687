-- sim.autoscaling.members: the actions on a group's instances and
-- processes — DescribeAutoScalingInstances,
-- TerminateInstanceInAutoScalingGroup, SetInstanceHealth,
-- SuspendProcesses, ResumeProcesses.
--
-- An instance's group is one read of the "autoscaling.instance" index
-- record, so these never walk every group.

local world = require("sim.world")
local C = require("sim.autoscaling.common")
local G = require("sim.autoscaling.groups")
local K = require("sim.autoscaling.capacity")
local H = require("sim.autoscaling.lifecycle_hooks")
local L = require("sim.autoscaling.lifecycle_actions")
local ec2 = require("sim.ec2")
local ec2_instances = require("sim.ec2.instances")
local iso = ec2_instances.iso8601

local M = {}

-- "Instance Id not found - No managed instance found for instance ID:
-- i-…" (ValidationError; quoted verbatim in public SDK fixtures).
local function not_managed(id)
  C.fail("Instance Id not found - No managed instance found for instance ID: " .. tostring(id), "ValidationError")
end

-- The settled group of an instance and the instance's entry in it.
local function member(id, env)
  local idx = type(id) == "string" and world.get(C.MEMBER, id)
  local group = idx and G.settled(idx.group, env)
  if group then
    for _, e in ipairs(group.Instances) do
      if e.InstanceId == id then return group, e end
    end
  end
  not_managed(id)
end

local function instance_view(group, e)
  return {
    InstanceId = e.InstanceId, InstanceType = e.InstanceType, AutoScalingGroupName = group.AutoScalingGroupName,
    AvailabilityZone = e.AvailabilityZone, LifecycleState = e.LifecycleState, HealthStatus = e.HealthStatus:upper(),
    LaunchConfigurationName = e.LaunchConfigurationName, LaunchTemplate = e.LaunchTemplate,
    ProtectedFromScaleIn = e.ProtectedFromScaleIn,
  }
end

local A = {}

---DescribeAutoScalingInstances: InstanceIds -> { AutoScalingInstances }
---(instances in no group are left out; without IDs, every group's).
function A.DescribeAutoScalingInstances(p, env)
  local out = {}
  local ids = C.list(p.InstanceIds)
  if #ids > 0 then
    for _, id in ipairs(ids) do
      local idx = type(id) == "string" and world.get(C.MEMBER, id)
      local group = idx and G.settled(idx.group, env)
      for _, e in ipairs(group and group.Instances or {}) do
        if e.InstanceId == id then out[#out + 1] = instance_view(group, e) end
      end
    end
  else
    for _, name in ipairs(world.ids(C.GROUP, true)) do
      local group = G.settled(name, env)
      for _, e in ipairs(group and group.Instances or {}) do out[#out + 1] = instance_view(group, e) end
    end
  end
  return { AutoScalingInstances = out }
end

---TerminateInstanceInAutoScalingGroup: InstanceId, ShouldDecrementDesiredCapacity
----> { Activity }. Without the decrement the group launches a replacement
---(when next settled: the request leaves the group record alone, see
---common.lua); with it the group is settled at once.
function A.TerminateInstanceInAutoScalingGroup(p, env)
  C.require_member(p.InstanceId, "instanceId")
  C.require_member(p.ShouldDecrementDesiredCapacity, "shouldDecrementDesiredCapacity")
  local decrement = C.bool(p.ShouldDecrementDesiredCapacity)
  local id = p.InstanceId
  local idx = type(id) == "string" and world.get(C.MEMBER, id)
  if not idx or not world.live(C.GROUP, idx.group) then not_managed(id) end
  local name, desired = idx.group, nil
  if decrement then
    local group, e = member(id, env)
    if group.DesiredCapacity <= group.MinSize then
      -- ValidationError, AWS's text (quoted verbatim in public tooling).
      C.fail("Currently, desiredSize equals minSize (" .. group.MinSize .. "). Terminating instance without replacement "
        .. "will violate group's min size constraint. Either set shouldDecrementDesiredCapacity flag to false or lower group's min size.",
        "ValidationError")
    end
    group.DesiredCapacity = group.DesiredCapacity - 1
    desired = group.DesiredCapacity
    K.terminate(group, e, env)
    K.settle(group, env)
    C.save_group(group)
  elseif #H.for_transition(name, L.TERMINATING) > 0 then
    -- A termination hook holds the instance (Terminating:Wait): the group
    -- record changes, so this path reads it.
    local group, e = member(id, env)
    K.terminate(group, e, env)
    K.settle(group, env)
    C.save_group(group)
  else
    if not ec2_instances.settled_live(id, env) then not_managed(id) end
    ec2.TerminateInstances({ InstanceIds = { id } }, env)
    world.put(C.TERMINATION_REQUEST, id, { InstanceId = id }, { refs = { C.termination_ref(name) } })
  end
  local cause = "At " .. iso(env.now_ms):sub(1, 19) .. "Z instance " .. id
    .. " was taken out of service in response to a user request"
    .. (decrement and ", shrinking the capacity from " .. (desired + 1) .. " to " .. desired .. "." or ".")
  return { Activity = {
    ActivityId = env.new_id("uuid"), AutoScalingGroupName = name,
    Description = "Terminating EC2 instance: " .. id, Cause = cause, StartTime = iso(env.now_ms),
    StatusCode = "InProgress", Progress = 0, Details = "{}",
  } }
end

---SetInstanceHealth: InstanceId, HealthStatus (Healthy | Unhealthy),
---ShouldRespectGracePeriod -> {}. An unhealthy instance is replaced at
---once unless ReplaceUnhealthy is suspended.
function A.SetInstanceHealth(p, env)
  C.require_member(p.InstanceId, "instanceId")
  local status = C.require_member(p.HealthStatus, "healthStatus")
  if status ~= "Healthy" and status ~= "Unhealthy" then
    -- Auto Scaling's answer (quoted in public tooling tests).
    C.fail("Valid health status values are Healthy and Unhealthy", "ValidationError")
  end
  local group, e = member(p.InstanceId, env)
  e.HealthStatus = status
  K.settle(group, env)
  C.save_group(group)
  return {}
end

-- The processes a request names (none: all of them), each checked.
local function processes(p)
  local list = C.list(p.ScalingProcesses)
  if #list == 0 then return C.PROCESSES end
  for _, name in ipairs(list) do
    if not C.PROCESS_SET[name] then
      -- Auto Scaling's ValidationError for an unknown process (wording as
      -- CloudFormation's UpdatePolicy validation reports it).
      C.fail("Process names " .. tostring(name) .. " are not valid", "ValidationError")
    end
  end
  return list
end

---SuspendProcesses: AutoScalingGroupName, ScalingProcesses -> {}.
function A.SuspendProcesses(p, env)
  local name = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local group = G.require(name, env)
  for _, proc in ipairs(processes(p)) do
    if not C.suspended(group, proc) then
      group.SuspendedProcesses[#group.SuspendedProcesses + 1] = {
        ProcessName = proc, SuspensionReason = "User suspended at " .. iso(env.now_ms):sub(1, 19) .. "Z" }
    end
  end
  C.save_group(group)
  return {}
end

---ResumeProcesses: AutoScalingGroupName, ScalingProcesses -> {}. The group
---catches up at once (a resumed Launch launches what is missing).
function A.ResumeProcesses(p, env)
  local name = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local group = G.require(name, env)
  local resume = {}
  for _, proc in ipairs(processes(p)) do resume[proc] = true end
  local kept = {}
  for _, s in ipairs(group.SuspendedProcesses) do
    if not resume[s.ProcessName] then kept[#kept + 1] = s end
  end
  group.SuspendedProcesses = kept
  K.settle(group, env)
  C.save_group(group)
  return {}
end

M.actions = A
return M
