-- AWS::AutoScaling::AutoScalingGroup on the simulated Auto Scaling, with
-- the UpdatePolicy behaviours of seed 004.
--
-- Update behaviours (the CloudFormation reference, "Update requires"):
-- AutoScalingGroupName and InstanceId are Replacement, everything else No
-- interruption — except that a change of what launches the instances
-- (LaunchConfigurationName, LaunchTemplate including its Version,
-- MixedInstancesPolicy) or of VPCZoneIdentifier is a Replacement when the
-- UpdatePolicy says AutoScalingReplacingUpdate WillReplace (it takes
-- precedence over a rolling update): the engine then creates a new group
-- (a new name) under its CreationPolicy and deletes the old one in cleanup,
-- or deletes the new one when that fails.
--
-- The update hook applies the new properties (UpdateAutoScalingGroup; with
-- AutoScalingScheduledAction IgnoreUnmodifiedGroupSizeProperties, sizes the
-- template did not change are left as they are now), then, under an
-- AutoScalingRollingUpdate policy, replaces the instances that do not match
-- the group's configuration in batches (lib/rolling_update.lua, whose top
-- says how a batch goes). The rollback is that same update back to the old
-- properties, run by the engine with the OLD template's policy (seed 004).
--
-- Create launches the instances and completes once DesiredCapacity of them
-- are InService (reading them is what runs their boot scripts, so their
-- cfn-signal reaches a CreationPolicy — which the engine waits for).
-- Delete terminates them (ForceDelete) and completes once the group is gone.
-- Ref is the group's name: "<stack>-<logical>-<random>" without
-- AutoScalingGroupName. Properties with nothing to act on in the simulated
-- cloud (load balancers, notifications, capacity reservations, zone
-- distribution, metrics, tags) are accepted and kept, not simulated.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local values = require("moonstack.values")
local tags = require("moonstack.tags")
local U = require("aws.autoscaling.lib.update_policy")
local R = require("aws.autoscaling.lib.rolling_update")
local not_found = require("aws.autoscaling.lib.not_found")

local POLL = 5

-- LaunchConfigurationName, LaunchTemplate, MixedInstancesPolicy and
-- VPCZoneIdentifier: what triggers the Auto Scaling update policies.
local function launch_change(old, new, ctx)
  if U.will_replace(ctx and ctx.update_policy) then return "replace" end
  return "none"
end

local function absent(v) return v == nil or values.is_null(v) end

local function describe(aws, name)
  local r = aws.autoscaling.DescribeAutoScalingGroups { AutoScalingGroupNames = { name } }
  return r.AutoScalingGroups[1]
end

local function subnets_text(v)
  if absent(v) then return nil end
  return table.concat(v, ",")
end

-- The request fields every create and update sends.
local function common_request(props)
  return {
    LaunchConfigurationName = props.LaunchConfigurationName, LaunchTemplate = props.LaunchTemplate,
    MixedInstancesPolicy = props.MixedInstancesPolicy,
    VPCZoneIdentifier = subnets_text(props.VPCZoneIdentifier), AvailabilityZones = props.AvailabilityZones,
    HealthCheckType = props.HealthCheckType, HealthCheckGracePeriod = props.HealthCheckGracePeriod,
    DefaultCooldown = props.Cooldown, TerminationPolicies = props.TerminationPolicies,
    NewInstancesProtectedFromScaleIn = props.NewInstancesProtectedFromScaleIn,
  }
end

-- The group's Tags as CloudFormation creates it: the template's own (with
-- their PropagateAtLaunch), then the stack's tags and CloudFormation's
-- aws:cloudformation:* ones, which AWS puts "on all Auto Scaling groups and
-- associated instances" (the TagProperty reference): PropagateAtLaunch true.
local function group_tags(ctx, own)
  local out, seen = {}, {}
  if not absent(own) then
    for _, t in ipairs(own) do
      out[#out + 1] = t
      seen[t.Key] = true
    end
  end
  local added = tags.for_resource(ctx, nil)
  for _, k in ipairs(values.sorted_keys(added)) do
    if not seen[k] then out[#out + 1] = { Key = k, Value = added[k], PropagateAtLaunch = true } end
  end
  return out
end

local function put_hooks(aws, name, list, previous)
  local keep = {}
  for _, h in ipairs(list or {}) do
    keep[h.LifecycleHookName] = true
    aws.autoscaling.PutLifecycleHook { AutoScalingGroupName = name, LifecycleHookName = h.LifecycleHookName,
      LifecycleTransition = h.LifecycleTransition, HeartbeatTimeout = h.HeartbeatTimeout,
      DefaultResult = h.DefaultResult, NotificationMetadata = h.NotificationMetadata,
      NotificationTargetARN = h.NotificationTargetARN, RoleARN = h.RoleARN }
  end
  for _, h in ipairs(previous or {}) do
    if not keep[h.LifecycleHookName] then
      pcall(aws.autoscaling.DeleteLifecycleHook, { AutoScalingGroupName = name, LifecycleHookName = h.LifecycleHookName })
    end
  end
end

local SIZES = { "MinSize", "MaxSize", "DesiredCapacity" }

-- UpdateAutoScalingGroup with the new properties. With
-- IgnoreUnmodifiedGroupSizeProperties only the sizes the template changed
-- are sent, so what a scheduled action (or anyone) set stays.
local function apply(aws, name, new, old, policy)
  local req = common_request(new)
  req.AutoScalingGroupName = name
  local ignore = U.ignore_unmodified_sizes(policy)
  for _, k in ipairs(SIZES) do
    if not (ignore and values.deep_equal(new[k], old[k])) then req[k] = new[k] end
  end
  aws.autoscaling.UpdateAutoScalingGroup(req)
  put_hooks(aws, name, new.LifecycleHookSpecificationList, old.LifecycleHookSpecificationList)
end

-- The group's tags moved to `want` (group_tags' list): CreateOrUpdateTags
-- for what is new or different, DeleteTags for keys no longer wanted.
-- Called when the template's Tags or the stack's tags changed (both give
-- "Tags" in `changed`), so a plain update reads no tags.
local function sync_tags(aws, name, want)
  local have = {}
  for _, t in ipairs(aws.autoscaling.DescribeTags {
      Filters = { { Name = "auto-scaling-group", Values = { name } } } }.Tags) do
    have[t.Key] = t
  end
  local put, wanted = {}, {}
  for _, t in ipairs(want) do
    wanted[t.Key] = true
    local was = have[t.Key]
    local propagate = t.PropagateAtLaunch == true or t.PropagateAtLaunch == "true"
    if not was or was.Value ~= tostring(t.Value or "") or was.PropagateAtLaunch ~= propagate then
      put[#put + 1] = { ResourceId = name, ResourceType = "auto-scaling-group", Key = t.Key,
                        Value = t.Value, PropagateAtLaunch = propagate }
    end
  end
  local drop = {}
  for _, k in ipairs(values.sorted_keys(have)) do
    if not wanted[k] then drop[#drop + 1] = { ResourceId = name, ResourceType = "auto-scaling-group", Key = k } end
  end
  if #drop > 0 then aws.autoscaling.DeleteTags { Tags = drop } end
  if #put > 0 then aws.autoscaling.CreateOrUpdateTags { Tags = put } end
end

local function has(list, name)
  for _, v in ipairs(list or {}) do if v == name then return true end end
  return false
end

-- One call of an update (or of a rollback, the same update back): apply on
-- the first call, then the rolling update when the policy asks for one.
local function update(ctx, id, new, old, changed)
  local aws = ctx.world
  if not ctx.progress then
    -- Tags first, so instances the new size launches carry them.
    if has(changed, "Tags") then sync_tags(aws, id, group_tags(ctx, new.Tags)) end
    apply(aws, id, new, old, ctx.update_policy)
  end
  local policy = U.rolling(ctx.update_policy)
  if not policy then return nil end
  return R.step(ctx, aws, id, policy, ctx.progress)
end

local function in_service(group)
  local n = 0
  for _, e in ipairs(group.Instances) do if e.LifecycleState == "InService" then n = n + 1 end end
  return n
end

return P.define {
  type = "AWS::AutoScaling::AutoScalingGroup",
  timeout_minutes = 2160,
  -- A failed rolling update has already moved the group to the new
  -- configuration and replaced some instances: the rollback must run.
  leaves_partial_updates = true,
  properties = {
    P.string "AutoScalingGroupName" { update = "replace" },
    P.json "AvailabilityZoneDistribution" { update = "none" },
    P.list(P.string) "AvailabilityZoneIds" { update = "none" },
    P.json "AvailabilityZoneImpairmentPolicy" { update = "none" },
    P.list(P.string) "AvailabilityZones" { update = "none" },
    P.boolean "CapacityRebalance" { update = "none" },
    P.json "CapacityReservationSpecification" { update = "none" },
    P.string "Context" { update = "none" },
    P.string "Cooldown" { update = "none" },
    P.integer "DefaultInstanceWarmup" { update = "none" },
    P.string "DeletionProtection" { update = "none" },
    P.integer "DesiredCapacity" { update = "none" },
    P.string "DesiredCapacityType" { update = "none" },
    P.integer "HealthCheckGracePeriod" { update = "none" },
    P.string "HealthCheckType" { update = "none" },
    P.string "InstanceId" { update = "replace" },
    P.json "InstanceLifecyclePolicy" { update = "none" },
    P.json "InstanceMaintenancePolicy" { update = "none" },
    P.string "LaunchConfigurationName" { update = launch_change },
    P.json "LaunchTemplate" { update = launch_change },
    P.json "LifecycleHookSpecificationList" { update = "none" },
    P.list(P.string) "LoadBalancerNames" { update = "none" },
    P.integer "MaxInstanceLifetime" { update = "none" },
    P.integer "MaxSize" { required = true, update = "none" },
    P.json "MetricsCollection" { update = "none" },
    P.integer "MinSize" { required = true, update = "none" },
    P.json "MixedInstancesPolicy" { update = launch_change },
    P.boolean "NewInstancesProtectedFromScaleIn" { update = "none" },
    P.json "NotificationConfiguration" { update = "none" },
    P.json "NotificationConfigurations" { update = "none" },
    P.string "PlacementGroup" { update = "none" },
    P.string "ServiceLinkedRoleARN" { update = "none" },
    P.boolean "SkipZonalShiftValidation" { update = "none" },
    P.json "Tags" { update = "none" },
    P.list(P.string) "TargetGroupARNs" { update = "none" },
    P.list(P.string) "TerminationPolicies" { update = "none" },
    P.json "TrafficSources" { update = "none" },
    P.list(P.string) "VPCZoneIdentifier" { update = launch_change },
  },
  -- The registry schema's other readable properties are the template's own
  -- values; the ARN is the one Auto Scaling made.
  attributes = { "AutoScalingGroupARN" },

  create = function(ctx, props)
    local aws = ctx.world
    if not ctx.progress then
      local name = props.AutoScalingGroupName or names.physical(ctx.stack_name, ctx.logical_id, 255)
      local req = common_request(props)
      req.AutoScalingGroupName = name
      req.MinSize, req.MaxSize, req.DesiredCapacity = props.MinSize, props.MaxSize, props.DesiredCapacity
      req.LoadBalancerNames, req.TargetGroupARNs = props.LoadBalancerNames, props.TargetGroupARNs
      req.Tags = group_tags(ctx, props.Tags)
      -- With the group, so they hold its first instances too.
      req.LifecycleHookSpecificationList = props.LifecycleHookSpecificationList
      aws.autoscaling.CreateAutoScalingGroup(req)
      return P.in_progress { after = POLL, context = { name = name }, id = name }
    end
    local name = ctx.progress.name
    local group = describe(aws, name)
    if not group then P.fail("AutoScalingGroup name not found - AutoScalingGroup " .. name .. " not found", "NotFound") end
    if in_service(group) >= group.DesiredCapacity then
      return { id = name, attributes = { AutoScalingGroupARN = group.AutoScalingGroupARN } }
    end
    return P.in_progress { after = POLL, context = ctx.progress, id = name }
  end,

  update = update,

  delete = function(ctx, id)
    local aws = ctx.world
    if not ctx.progress and not not_found.unless_gone(aws.autoscaling.DeleteAutoScalingGroup,
        { AutoScalingGroupName = id, ForceDelete = true }, not_found.GROUP) then
      return nil
    end
    if not describe(aws, id) then return nil end
    return P.in_progress { after = POLL, context = { step = "deleting" } }
  end,

  read = function(ctx, id, props)
    local group = describe(ctx.world, id)
    if not group or group.Status == "Delete in progress" then return nil end
    local out = {}
    for k, v in pairs(props or {}) do out[k] = v end
    out.MinSize, out.MaxSize = group.MinSize, group.MaxSize
    if props and props.DesiredCapacity ~= nil then out.DesiredCapacity = group.DesiredCapacity end
    if props and props.LaunchConfigurationName ~= nil then out.LaunchConfigurationName = group.LaunchConfigurationName end
    return { properties = out, attributes = { AutoScalingGroupARN = group.AutoScalingGroupARN } }
  end,
}
