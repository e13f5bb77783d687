-- sim.autoscaling.groups: CreateAutoScalingGroup, UpdateAutoScalingGroup,
-- DeleteAutoScalingGroup (ForceDelete), DescribeAutoScalingGroups,
-- SetDesiredCapacity.
--
-- A group deleted with instances (ForceDelete) terminates them and stays
-- describable with Status "Delete in progress" until the last one has
-- terminated; then the record, its scheduled actions and its lifecycle
-- hooks are gone.

local world = require("sim.world")
local C = require("sim.autoscaling.common")
local F = require("sim.autoscaling.configuration")
local K = require("sim.autoscaling.capacity")
local H = require("sim.autoscaling.lifecycle_hooks")
local ec2_common = require("sim.ec2.common")
local network = require("sim.ec2.network")
local iso = require("sim.ec2.instances").iso8601

local G = {}

-- Checks -----------------------------------------------------------------------

-- "Max bound, 1, must be greater than or equal to min bound, 2" and
-- "Desired capacity:9 must be between the specified min size:1 and max
-- size:4" (ValidationError; both quoted verbatim in public logs).
local function check_sizes(min, max, desired)
  if max < min then
    C.fail("Max bound, " .. max .. ", must be greater than or equal to min bound, " .. min, "ValidationError")
  end
  if desired < min or desired > max then
    C.fail("Desired capacity:" .. desired .. " must be between the specified min size:" .. min
      .. " and max size:" .. max, "ValidationError")
  end
end

-- The subnets of a VPCZoneIdentifier must exist; their zones become the
-- group's AvailabilityZones.
local function zones_of_subnets(text)
  local zones, seen = {}, {}
  for id in text:gmatch("[^,%s]+") do
    local s = network.subnet(id)
    if not s then
      -- Auto Scaling passes EC2's answer on (ValidationError).
      C.fail("The subnet ID '" .. id .. "' does not exist", "ValidationError")
    end
    if not seen[s.AvailabilityZone] then
      seen[s.AvailabilityZone] = true
      zones[#zones + 1] = s.AvailabilityZone
    end
  end
  return zones
end

local function vpc_zone_text(v)
  if not C.present(v) then return nil end
  if type(v) == "table" then return table.concat(v, ",") end
  return tostring(v)
end

local function check_zones(group, env)
  if group.VPCZoneIdentifier and group.VPCZoneIdentifier ~= "" then
    group.AvailabilityZones = zones_of_subnets(group.VPCZoneIdentifier)
  end
  if #group.AvailabilityZones == 0 then
    -- Auto Scaling's ValidationError when neither is given.
    C.fail("At least one Availability Zone or VPC Subnet is required.", "ValidationError")
  end
  for _, z in ipairs(group.AvailabilityZones) do
    if not ec2_common.zone_exists(env.region, z) then
      C.fail("The availability zone " .. tostring(z) .. " is not legal", "ValidationError")
    end
  end
end

local function template_spec(v)
  if not C.present(v) then return nil end
  local spec = { LaunchTemplateId = v.LaunchTemplateId, LaunchTemplateName = v.LaunchTemplateName,
                 Version = v.Version ~= nil and tostring(v.Version) or nil }
  if spec.LaunchTemplateId == nil then
    local rec = require("sim.ec2.launch_templates").require(nil, spec.LaunchTemplateName)
    spec.LaunchTemplateId = rec.LaunchTemplateId
  end
  return spec
end

-- Sets the configuration fields a request names (one of three).
local function set_configuration(group, p, env)
  if C.present(p.LaunchConfigurationName) then
    local lc = F.launch_configuration(p.LaunchConfigurationName)
    group.LaunchConfigurationName, group.LaunchTemplate, group.MixedInstancesPolicy = lc.LaunchConfigurationName, nil, nil
    group._sim.lc_arn = lc.LaunchConfigurationARN
  elseif C.present(p.LaunchTemplate) then
    group.LaunchConfigurationName, group.MixedInstancesPolicy = nil, nil
    group.LaunchTemplate = template_spec(p.LaunchTemplate)
  elseif C.present(p.MixedInstancesPolicy) then
    group.LaunchConfigurationName, group.LaunchTemplate = nil, nil
    group.MixedInstancesPolicy = p.MixedInstancesPolicy
  end
end

local function tags_of(list, name)
  local out = {}
  for _, t in ipairs(C.list(list)) do
    out[#out + 1] = { ResourceId = name, ResourceType = "auto-scaling-group", Key = t.Key, Value = t.Value or "",
                      PropagateAtLaunch = C.bool(t.PropagateAtLaunch) or false }
  end
  return out
end

-- Actions ----------------------------------------------------------------------

local A = {}

---CreateAutoScalingGroup: AutoScalingGroupName, MinSize, MaxSize, DesiredCapacity,
---LaunchConfigurationName | LaunchTemplate | MixedInstancesPolicy,
---VPCZoneIdentifier | AvailabilityZones, Tags, LifecycleHookSpecificationList,
---... -> {}. The instances are launched at once (Pending, or Pending:Wait
---for a launch hook).
function A.CreateAutoScalingGroup(p, env)
  local name = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  if C.group(name) then
    -- AlreadyExists, AWS's text (quoted verbatim in public logs).
    C.fail("AutoScalingGroup by this name already exists - A group with the name " .. name .. " already exists",
      "AlreadyExists")
  end
  local min = C.int(C.require_member(p.MinSize, "minSize"), "minSize")
  local max = C.int(C.require_member(p.MaxSize, "maxSize"), "maxSize")
  local desired = C.int(p.DesiredCapacity, "desiredCapacity") or min
  check_sizes(min, max, desired)
  local group = {
    AutoScalingGroupName = name,
    AutoScalingGroupARN = C.arn(env, "autoScalingGroup:" .. C.uuid(env) .. ":autoScalingGroupName/" .. name),
    MinSize = min, MaxSize = max, DesiredCapacity = desired,
    DefaultCooldown = C.int(p.DefaultCooldown, "defaultCooldown") or 300,
    AvailabilityZones = C.list(p.AvailabilityZones), VPCZoneIdentifier = vpc_zone_text(p.VPCZoneIdentifier) or "",
    LoadBalancerNames = C.list(p.LoadBalancerNames), TargetGroupARNs = C.list(p.TargetGroupARNs),
    HealthCheckType = C.present(p.HealthCheckType) and p.HealthCheckType or "EC2",
    HealthCheckGracePeriod = C.int(p.HealthCheckGracePeriod, "healthCheckGracePeriod") or 0,
    Instances = {}, CreatedTime = iso(env.now_ms), SuspendedProcesses = {}, EnabledMetrics = {},
    Tags = tags_of(p.Tags, name),
    TerminationPolicies = #C.list(p.TerminationPolicies) > 0 and C.list(p.TerminationPolicies) or { "Default" },
    NewInstancesProtectedFromScaleIn = C.bool(p.NewInstancesProtectedFromScaleIn) or false,
    ServiceLinkedRoleARN = "arn:aws:iam::" .. env.account
      .. ":role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling",
    _sim = { scheduled = {}, hooks = {} },
  }
  check_zones(group, env)
  set_configuration(group, p, env)
  F.check(group)
  -- Hooks given here hold the group's first instances too.
  for _, spec in ipairs(C.list(p.LifecycleHookSpecificationList)) do
    local hook = {}
    for k, v in pairs(spec) do hook[k] = v end
    hook.AutoScalingGroupName = name
    H.put(group, hook)
  end
  K.settle(group, env)
  C.save_group(group)
  return {}
end

---UpdateAutoScalingGroup: AutoScalingGroupName and any of Create's fields
----> {}. As AWS: a new MinSize above the desired capacity raises it, a new
---MaxSize below it lowers it (when DesiredCapacity is not given); existing
---instances keep the configuration they were launched with.
function A.UpdateAutoScalingGroup(p, env)
  local name = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local group = K.load(name, env)
  local min = C.int(p.MinSize, "minSize") or group.MinSize
  local max = C.int(p.MaxSize, "maxSize") or group.MaxSize
  local desired = C.int(p.DesiredCapacity, "desiredCapacity")
  if desired == nil then
    desired = group.DesiredCapacity
    if desired < min then desired = min end
    if desired > max then desired = max end
  end
  check_sizes(min, max, desired)
  group.MinSize, group.MaxSize, group.DesiredCapacity = min, max, desired
  if C.present(p.VPCZoneIdentifier) then group.VPCZoneIdentifier = vpc_zone_text(p.VPCZoneIdentifier) end
  if C.present(p.AvailabilityZones) then group.AvailabilityZones = C.list(p.AvailabilityZones) end
  check_zones(group, env)
  set_configuration(group, p, env)
  F.check(group)
  for _, f in ipairs({ "DefaultCooldown", "HealthCheckGracePeriod" }) do
    if C.present(p[f]) then group[f] = C.int(p[f], f:sub(1, 1):lower() .. f:sub(2)) end
  end
  if C.present(p.HealthCheckType) then group.HealthCheckType = p.HealthCheckType end
  if C.present(p.TerminationPolicies) then group.TerminationPolicies = C.list(p.TerminationPolicies) end
  if C.present(p.NewInstancesProtectedFromScaleIn) then
    group.NewInstancesProtectedFromScaleIn = C.bool(p.NewInstancesProtectedFromScaleIn) or false
  end
  K.settle(group, env)
  C.save_group(group)
  return {}
end

-- Forgets a deleted group once its last instance has terminated; true when
-- it is gone.
local function finish_delete(group)
  if not group._sim.deleting or #group.Instances > 0 then return false end
  for _, n in ipairs(group._sim.scheduled or {}) do
    world.remove(C.SCHEDULED_ACTION, require("sim.autoscaling.scheduled").key(group.AutoScalingGroupName, n))
  end
  H.remove_all(group)
  K.take_notices(group.AutoScalingGroupName)
  world.remove(C.GROUP, group.AutoScalingGroupName)
  return true
end

-- The group settled, or nil when it does not exist (or has just finished
-- deleting).
function G.settled(name, env)
  local group = C.group(name)
  if not group then return nil end
  local changed = K.settle(group, env)
  if finish_delete(group) then return nil end
  if changed then C.save_group(group) end
  return group
end

---The group settled, or a failure with AWS's message when there is none.
function G.require(name, env)
  return G.settled(name, env) or C.group_not_found(name)
end

---DeleteAutoScalingGroup: AutoScalingGroupName, ForceDelete -> {}.
function A.DeleteAutoScalingGroup(p, env)
  local name = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local group = G.require(name, env)
  if group._sim.deleting then return {} end
  if K.count_active(group) > 0 and not C.bool(p.ForceDelete) then
    -- ResourceInUse, AWS's text (quoted verbatim in public SDK fixtures).
    C.fail("You cannot delete an AutoScalingGroup while there are instances or pending Spot instance request(s) still in the group.",
      "ResourceInUse")
  end
  group._sim.deleting = true
  group.Status = "Delete in progress"
  group.MinSize, group.MaxSize, group.DesiredCapacity = 0, 0, 0
  -- ForceDelete also deletes outstanding lifecycle actions (API reference):
  -- no instance waits for a hook.
  for _, e in ipairs(group.Instances) do K.terminate_now(e, env) end
  group.SuspendedProcesses = {}
  if not finish_delete(group) then C.save_group(group) end
  return {}
end

---DescribeAutoScalingGroups: AutoScalingGroupNames -> { AutoScalingGroups }
---(unknown names are left out, as AWS does; without names, every group).
function A.DescribeAutoScalingGroups(p, env)
  local names = C.list(p.AutoScalingGroupNames)
  if #names == 0 then names = world.ids(C.GROUP, true) end
  local out = {}
  for _, name in ipairs(names) do
    local group = type(name) == "string" and G.settled(name, env)
    if group then out[#out + 1] = C.group_view(group) end
  end
  return { AutoScalingGroups = out }
end

---SetDesiredCapacity: AutoScalingGroupName, DesiredCapacity, HonorCooldown -> {}.
function A.SetDesiredCapacity(p, env)
  local name = C.check_name(p.AutoScalingGroupName, "autoScalingGroupName")
  local desired = C.int(C.require_member(p.DesiredCapacity, "desiredCapacity"), "desiredCapacity")
  local group = G.require(name, env)
  -- ValidationError, AWS's texts (quoted verbatim in public logs).
  if desired > group.MaxSize then
    C.fail("New SetDesiredCapacity value " .. desired .. " is above max value " .. group.MaxSize
      .. " for the AutoScalingGroup.", "ValidationError")
  end
  if desired < group.MinSize then
    C.fail("New SetDesiredCapacity value " .. desired .. " is below min value " .. group.MinSize
      .. " for the AutoScalingGroup.", "ValidationError")
  end
  group.DesiredCapacity = desired
  K.settle(group, env)
  C.save_group(group)
  return {}
end

G.actions = A
return G
