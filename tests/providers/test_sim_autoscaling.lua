-- The simulated Auto Scaling service: groups launch real simulated EC2
-- instances, keep their capacity, spread over subnets, replace unhealthy
-- and terminated instances unless the process is suspended; AWS's messages.
local H = require("harness")
local T = H.suite("sim autoscaling")

local AMI = "ami-0123456789abcdef0"

local function as(sim, action, p) return sim.call("autoscaling", action, p) end
local function ec2(sim, action, p) return sim.call("ec2", action, p) end

local function group(sim, name)
  return as(sim, "DescribeAutoScalingGroups", { AutoScalingGroupNames = { name } }).AutoScalingGroups[1]
end

local function states(sim, g)
  local out = {}
  for _, i in ipairs(g.Instances) do
    local inst = ec2(sim, "DescribeInstances", { InstanceIds = { i.InstanceId } }).Reservations[1].Instances[1]
    out[#out + 1] = i.LifecycleState .. "/" .. inst.State.Name
  end
  return out
end

local function setup(sim, opts)
  opts = opts or {}
  local vpc = ec2(sim, "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local a = ec2(sim, "CreateSubnet", { VpcId = vpc, CidrBlock = "10.0.1.0/24", AvailabilityZone = "us-east-1a" }).Subnet.SubnetId
  local b = ec2(sim, "CreateSubnet", { VpcId = vpc, CidrBlock = "10.0.2.0/24", AvailabilityZone = "us-east-1b" }).Subnet.SubnetId
  as(sim, "CreateLaunchConfiguration", { LaunchConfigurationName = "lc1", ImageId = AMI, InstanceType = "t3.micro",
    UserData = opts.user_data })
  as(sim, "CreateAutoScalingGroup", { AutoScalingGroupName = "g", LaunchConfigurationName = "lc1",
    MinSize = opts.min or 1, MaxSize = opts.max or 6, DesiredCapacity = opts.desired or 4,
    VPCZoneIdentifier = a .. "," .. b })
  return a, b
end

T.case("a group launches EC2 instances balanced over its subnets; they go InService once running", function()
  local world, sim = fresh()
  local a, b = setup(sim)
  local g = group(sim, "g")
  H.eq(#g.Instances, 4)
  H.same(states(sim, g), { "Pending/pending", "Pending/pending", "Pending/pending", "Pending/pending" })
  local per = {}
  for _, i in ipairs(g.Instances) do
    local inst = ec2(sim, "DescribeInstances", { InstanceIds = { i.InstanceId } }).Reservations[1].Instances[1]
    per[inst.SubnetId] = (per[inst.SubnetId] or 0) + 1
    H.eq(inst.ImageId, AMI)
    H.eq(inst.InstanceType, "t3.micro")
    H.eq(i.LaunchConfigurationName, "lc1")
  end
  H.eq(per[a], 2)
  H.eq(per[b], 2)
  H.same(g.AvailabilityZones, { "us-east-1a", "us-east-1b" })
  world.set_now_ms(30000)
  H.same(states(sim, group(sim, "g")), { "InService/running", "InService/running", "InService/running", "InService/running" })
end)

T.case("SetDesiredCapacity scales out and in; AWS's bounds messages", function()
  local world, sim = fresh()
  setup(sim)
  as(sim, "SetDesiredCapacity", { AutoScalingGroupName = "g", DesiredCapacity = 6 })
  H.eq(#group(sim, "g").Instances, 6)
  as(sim, "SetDesiredCapacity", { AutoScalingGroupName = "g", DesiredCapacity = 2 })
  local g = group(sim, "g")
  local active = 0
  for _, i in ipairs(g.Instances) do if i.LifecycleState ~= "Terminating" then active = active + 1 end end
  H.eq(active, 2)
  world.set_now_ms(60000)
  H.eq(#group(sim, "g").Instances, 2)
  H.raises(function() as(sim, "SetDesiredCapacity", { AutoScalingGroupName = "g", DesiredCapacity = 7 }) end,
    "New SetDesiredCapacity value 7 is above max value 6 for the AutoScalingGroup.")
  H.raises(function() as(sim, "SetDesiredCapacity", { AutoScalingGroupName = "g", DesiredCapacity = 0 }) end,
    "New SetDesiredCapacity value 0 is below min value 1 for the AutoScalingGroup.")
  H.raises(function() as(sim, "SetDesiredCapacity", { AutoScalingGroupName = "nope", DesiredCapacity = 1 }) end,
    "AutoScalingGroup name not found - AutoScalingGroup nope not found")
end)

T.case("create: AWS's messages for sizes, names, zones and configurations", function()
  local _, sim = fresh()
  setup(sim)
  H.raises(function() as(sim, "CreateAutoScalingGroup", { AutoScalingGroupName = "g", LaunchConfigurationName = "lc1",
    MinSize = 1, MaxSize = 1, AvailabilityZones = { "us-east-1a" } }) end,
    "AutoScalingGroup by this name already exists - A group with the name g already exists")
  H.raises(function() as(sim, "CreateAutoScalingGroup", { AutoScalingGroupName = "h", LaunchConfigurationName = "lc1",
    MinSize = 2, MaxSize = 1, AvailabilityZones = { "us-east-1a" } }) end,
    "Max bound, 1, must be greater than or equal to min bound, 2")
  H.raises(function() as(sim, "CreateAutoScalingGroup", { AutoScalingGroupName = "h", LaunchConfigurationName = "lc1",
    MinSize = 1, MaxSize = 4, DesiredCapacity = 9, AvailabilityZones = { "us-east-1a" } }) end,
    "Desired capacity:9 must be between the specified min size:1 and max size:4")
  H.raises(function() as(sim, "CreateAutoScalingGroup", { AutoScalingGroupName = "h", LaunchConfigurationName = "nope",
    MinSize = 1, MaxSize = 1, AvailabilityZones = { "us-east-1a" } }) end,
    "Launch configuration name not found - Launch configuration nope not found")
  H.raises(function() as(sim, "CreateAutoScalingGroup", { AutoScalingGroupName = "h", LaunchConfigurationName = "lc1",
    MinSize = 1, MaxSize = 1 }) end, "At least one Availability Zone or VPC Subnet is required.")
  H.raises(function() as(sim, "CreateAutoScalingGroup", { AutoScalingGroupName = "h", MinSize = 1, MaxSize = 1,
    AvailabilityZones = { "us-east-1a" } }) end,
    "Valid requests must contain either LaunchTemplate, LaunchConfigurationName, InstanceId or MixedInstancesPolicy parameter.")
  H.raises(function() as(sim, "CreateAutoScalingGroup", { LaunchConfigurationName = "lc1", MinSize = 1, MaxSize = 1 }) end,
    "1 validation error detected: Value null at 'autoScalingGroupName' failed to satisfy constraint: Member must not be null")
  H.eq(group(sim, "h"), nil)
end)

T.case("launch configurations: duplicates, in use, unknown", function()
  local _, sim = fresh()
  setup(sim)
  H.raises(function() as(sim, "CreateLaunchConfiguration", { LaunchConfigurationName = "lc1", ImageId = AMI,
    InstanceType = "t3.micro" }) end,
    "Launch Configuration by this name already exists - A launch configuration already exists with the name lc1")
  H.raises(function() as(sim, "DeleteLaunchConfiguration", { LaunchConfigurationName = "lc1" }) end,
    "Cannot delete launch configuration lc1 because it is attached to AutoScalingGroup g")
  H.raises(function() as(sim, "DeleteLaunchConfiguration", { LaunchConfigurationName = "x" }) end,
    "Launch configuration name not found - Launch configuration x not found")
  H.eq(#as(sim, "DescribeLaunchConfigurations", { LaunchConfigurationNames = { "lc1", "x" } }).LaunchConfigurations, 1)
end)

T.case("an instance terminated out of band is replaced; not while ReplaceUnhealthy/Launch are suspended", function()
  local world, sim = fresh()
  setup(sim, { desired = 2 })
  local first = group(sim, "g").Instances[1].InstanceId
  as(sim, "SuspendProcesses", { AutoScalingGroupName = "g", ScalingProcesses = { "ReplaceUnhealthy", "Launch" } })
  local g = group(sim, "g")
  H.same(g.SuspendedProcesses, {
    { ProcessName = "ReplaceUnhealthy", SuspensionReason = "User suspended at 1970-01-01T00:00:00Z" },
    { ProcessName = "Launch", SuspensionReason = "User suspended at 1970-01-01T00:00:00Z" } })
  ec2(sim, "TerminateInstances", { InstanceIds = { first } })
  world.set_now_ms(60000)
  g = group(sim, "g")
  H.eq(#g.Instances, 1, "no replacement while Launch is suspended")
  as(sim, "ResumeProcesses", { AutoScalingGroupName = "g" })
  g = group(sim, "g")
  H.eq(#g.Instances, 2)
  H.same(g.SuspendedProcesses, {})
  H.raises(function() as(sim, "SuspendProcesses", { AutoScalingGroupName = "g", ScalingProcesses = { "Nap" } }) end,
    "Process names Nap are not valid")
end)

T.case("instances carry aws:autoscaling:groupName; the health check reads only instances EC2 reported stopped or terminated", function()
  local world, sim = fresh()
  setup(sim, { desired = 4 })
  world.set_now_ms(600000)
  local g = group(sim, "g")
  H.same(states(sim, g), { "InService/running", "InService/running", "InService/running", "InService/running" })
  local inst = ec2(sim, "DescribeInstances", { InstanceIds = { g.Instances[1].InstanceId } }).Reservations[1].Instances[1]
  local tagged
  for _, t in ipairs(inst.Tags) do if t.Key == "aws:autoscaling:groupName" then tagged = t.Value end end
  H.eq(tagged, "g")
  local reads = 0
  local get = world.get
  world.get = function(kind, id)
    if kind == "ec2.instance" then reads = reads + 1 end
    return get(kind, id)
  end
  world.set_now_ms(660000)  -- a health check, nothing changed
  group(sim, "g")
  H.eq(reads, 0, "instance reads at a health check with nothing reported")
  world.get = get
  local stopped = g.Instances[2].InstanceId
  ec2(sim, "StopInstances", { InstanceIds = { stopped } })
  world.set_now_ms(720000)
  g = group(sim, "g")
  local left = {}
  for _, e in ipairs(g.Instances) do left[e.InstanceId] = e.LifecycleState .. "/" .. e.HealthStatus end
  H.eq(left[stopped], "Terminating/Unhealthy")
  H.eq(#world.ids("ec2.state_notice", true), 1, "the group's own termination of it, read at the next check")
end)

T.case("SetInstanceHealth Unhealthy replaces the instance; TerminateInstanceInAutoScalingGroup with and without decrement", function()
  local world, sim = fresh()
  setup(sim, { desired = 2 })
  local ids = {}
  for _, i in ipairs(group(sim, "g").Instances) do ids[#ids + 1] = i.InstanceId end
  as(sim, "SetInstanceHealth", { InstanceId = ids[1], HealthStatus = "Unhealthy" })
  local g = group(sim, "g")
  H.eq(#g.Instances, 3)
  H.eq(g.Instances[1].LifecycleState, "Terminating")
  world.set_now_ms(60000)
  g = group(sim, "g")
  H.eq(#g.Instances, 2)
  local r = as(sim, "TerminateInstanceInAutoScalingGroup", { InstanceId = ids[2], ShouldDecrementDesiredCapacity = true })
  H.eq(r.Activity.Description, "Terminating EC2 instance: " .. ids[2])
  H.eq(group(sim, "g").DesiredCapacity, 1)
  local last = group(sim, "g").Instances[1].InstanceId
  H.raises(function() as(sim, "TerminateInstanceInAutoScalingGroup", { InstanceId = last,
    ShouldDecrementDesiredCapacity = true }) end,
    "Currently, desiredSize equals minSize (1). Terminating instance without replacement will violate group's min size constraint. Either set shouldDecrementDesiredCapacity flag to false or lower group's min size.")
  H.raises(function() as(sim, "TerminateInstanceInAutoScalingGroup", { InstanceId = "i-0123456789abcdef0",
    ShouldDecrementDesiredCapacity = false }) end,
    "Instance Id not found - No managed instance found for instance ID: i-0123456789abcdef0")
  local d = as(sim, "DescribeAutoScalingInstances", { InstanceIds = { last } }).AutoScalingInstances[1]
  H.eq(d.AutoScalingGroupName, "g")
  H.eq(d.HealthStatus, "HEALTHY")
end)

T.case("DeleteAutoScalingGroup: refused with instances; ForceDelete terminates them, the group goes once they have", function()
  local world, sim = fresh()
  setup(sim, { desired = 2 })
  H.raises(function() as(sim, "DeleteAutoScalingGroup", { AutoScalingGroupName = "g" }) end,
    "You cannot delete an AutoScalingGroup while there are instances or pending Spot instance request(s) still in the group.")
  as(sim, "DeleteAutoScalingGroup", { AutoScalingGroupName = "g", ForceDelete = true })
  local g = group(sim, "g")
  H.eq(g.Status, "Delete in progress")
  H.same(states(sim, g), { "Terminating/shutting-down", "Terminating/shutting-down" })
  world.set_now_ms(20000)
  H.eq(group(sim, "g"), nil)
  H.same(world.ids("autoscaling.group"), {})
  as(sim, "DeleteLaunchConfiguration", { LaunchConfigurationName = "lc1" })
end)

T.case("scheduled actions run in simulated time, once, and are then gone", function()
  local world, sim = fresh()
  setup(sim, { desired = 2 })
  as(sim, "PutScheduledUpdateGroupAction", { AutoScalingGroupName = "g", ScheduledActionName = "up",
    StartTime = "1970-01-01T01:00:00Z", DesiredCapacity = 5 })
  local s = as(sim, "DescribeScheduledActions", { AutoScalingGroupName = "g" }).ScheduledUpdateGroupActions
  H.eq(#s, 1)
  H.eq(s[1].StartTime, "1970-01-01T01:00:00.000Z")
  world.set_now_ms(3599000)
  H.eq(group(sim, "g").DesiredCapacity, 2)
  world.set_now_ms(3600000)
  local g = group(sim, "g")
  H.eq(g.DesiredCapacity, 5)
  H.eq(#g.Instances, 5)
  H.eq(#as(sim, "DescribeScheduledActions", { AutoScalingGroupName = "g" }).ScheduledUpdateGroupActions, 0)
end)

T.case("a recurring scheduled action runs at each cron time; not while ScheduledActions is suspended", function()
  local world, sim = fresh()
  setup(sim, { desired = 2 })
  as(sim, "PutScheduledUpdateGroupAction", { AutoScalingGroupName = "g", ScheduledActionName = "hourly",
    Recurrence = "0 * * * *", DesiredCapacity = 3 })
  world.set_now_ms(3600000)
  H.eq(group(sim, "g").DesiredCapacity, 3)
  as(sim, "SetDesiredCapacity", { AutoScalingGroupName = "g", DesiredCapacity = 2 })
  as(sim, "SuspendProcesses", { AutoScalingGroupName = "g", ScalingProcesses = { "ScheduledActions" } })
  world.set_now_ms(7200000)
  H.eq(group(sim, "g").DesiredCapacity, 2)
  H.eq(as(sim, "DescribeScheduledActions", { AutoScalingGroupName = "g" }).ScheduledUpdateGroupActions[1].StartTime,
    "1970-01-01T02:00:00.000Z")
  H.raises(function() as(sim, "DeleteScheduledAction", { AutoScalingGroupName = "g", ScheduledActionName = "x" }) end,
    "Scheduled Update Group Action name not found - Could not find scheduled action x")
end)

T.case("lifecycle hooks: AWS's defaults, deleted with the group", function()
  local world, sim = fresh()
  setup(sim, { desired = 0, min = 0 })
  as(sim, "PutLifecycleHook", { AutoScalingGroupName = "g", LifecycleHookName = "h",
    LifecycleTransition = "autoscaling:EC2_INSTANCE_LAUNCHING" })
  local h = as(sim, "DescribeLifecycleHooks", { AutoScalingGroupName = "g" }).LifecycleHooks[1]
  H.eq(h.HeartbeatTimeout, 3600)
  H.eq(h.DefaultResult, "ABANDON")
  H.eq(h.GlobalTimeout, 172800)
  H.raises(function() as(sim, "PutLifecycleHook", { AutoScalingGroupName = "g", LifecycleHookName = "x",
    LifecycleTransition = "nap" }) end, "Invalid Lifecycle Transition: nap")
  as(sim, "DeleteAutoScalingGroup", { AutoScalingGroupName = "g" })
  H.same(world.ids("autoscaling.lifecycle_hook"), {})
end)

-- Lifecycle states of the group's instances, in the group's order.
local function lifecycle(sim)
  local out = {}
  for _, e in ipairs(group(sim, "g").Instances) do out[#out + 1] = e.LifecycleState end
  return out
end

T.case("a launch hook holds new instances in Pending:Wait until CompleteLifecycleAction; ABANDON terminates and replaces", function()
  local world, sim = fresh()
  setup(sim, { desired = 0, min = 0 })
  as(sim, "PutLifecycleHook", { AutoScalingGroupName = "g", LifecycleHookName = "ready",
    LifecycleTransition = "autoscaling:EC2_INSTANCE_LAUNCHING", HeartbeatTimeout = 300, DefaultResult = "CONTINUE" })
  as(sim, "SetDesiredCapacity", { AutoScalingGroupName = "g", DesiredCapacity = 2 })
  world.set_now_ms(120000)  -- booted: the instances run, but wait for the hook
  local g = group(sim, "g")
  H.same(states(sim, g), { "Pending:Wait/running", "Pending:Wait/running" })
  local a, b = g.Instances[1].InstanceId, g.Instances[2].InstanceId
  as(sim, "CompleteLifecycleAction", { AutoScalingGroupName = "g", LifecycleHookName = "ready",
    LifecycleActionResult = "CONTINUE", InstanceId = a })
  H.same(lifecycle(sim), { "InService", "Pending:Wait" })
  H.raises(function() as(sim, "CompleteLifecycleAction", { AutoScalingGroupName = "g", LifecycleHookName = "ready",
    LifecycleActionResult = "CONTINUE", InstanceId = a }) end, "No active Lifecycle Action found with instance ID " .. a)
  H.raises(function() as(sim, "CompleteLifecycleAction", { AutoScalingGroupName = "g", LifecycleHookName = "ready",
    LifecycleActionResult = "CONTINUE", LifecycleActionToken = "f66c3d47-e602-4af0-8edd-d4e4d2fe4620" }) end,
    "No active Lifecycle Action found with token f66c3d47-e602-4af0-8edd-d4e4d2fe4620")
  H.raises(function() as(sim, "CompleteLifecycleAction", { AutoScalingGroupName = "g", LifecycleHookName = "ready",
    LifecycleActionResult = "MAYBE", InstanceId = b }) end, "Valid values for LifecycleActionResult are CONTINUE and ABANDON.")
  as(sim, "CompleteLifecycleAction", { AutoScalingGroupName = "g", LifecycleHookName = "ready",
    LifecycleActionResult = "ABANDON", InstanceId = b })
  g = group(sim, "g")
  H.eq(g.Instances[2].LifecycleState, "Terminating")
  H.eq(g.Instances[3].LifecycleState, "Pending:Wait", "its replacement waits in turn")
  local tokens = world.ids("autoscaling.lifecycle_action")
  H.eq(#tokens, 1, "only the replacement's token is left")
  H.eq(world.get("autoscaling.lifecycle_action", tokens[1]).InstanceId, g.Instances[3].InstanceId)
end)

T.case("a hook's heartbeat timeout applies its DefaultResult; RecordLifecycleActionHeartbeat extends it", function()
  local world, sim = fresh()
  setup(sim, { desired = 0, min = 0 })
  as(sim, "PutLifecycleHook", { AutoScalingGroupName = "g", LifecycleHookName = "ready",
    LifecycleTransition = "autoscaling:EC2_INSTANCE_LAUNCHING", HeartbeatTimeout = 300, DefaultResult = "CONTINUE" })
  as(sim, "SetDesiredCapacity", { AutoScalingGroupName = "g", DesiredCapacity = 1 })
  local id = group(sim, "g").Instances[1].InstanceId
  world.set_now_ms(200000)
  as(sim, "RecordLifecycleActionHeartbeat", { AutoScalingGroupName = "g", LifecycleHookName = "ready", InstanceId = id })
  world.set_now_ms(400000)  -- past the first 300 s, not past 200 + 300
  H.same(lifecycle(sim), { "Pending:Wait" })
  world.set_now_ms(500000)
  H.same(lifecycle(sim), { "InService" })
  H.same(world.ids("autoscaling.lifecycle_action"), {}, "the token is gone with the wait")
end)

T.case("a termination hook holds an instance in Terminating:Wait, still running, until its result", function()
  local world, sim = fresh()
  setup(sim, { desired = 2 })
  world.set_now_ms(120000)
  as(sim, "PutLifecycleHook", { AutoScalingGroupName = "g", LifecycleHookName = "drain",
    LifecycleTransition = "autoscaling:EC2_INSTANCE_TERMINATING", HeartbeatTimeout = 600 })
  local id = group(sim, "g").Instances[1].InstanceId
  as(sim, "TerminateInstanceInAutoScalingGroup", { InstanceId = id, ShouldDecrementDesiredCapacity = false })
  local g = group(sim, "g")
  H.same(states(sim, g), { "Terminating:Wait/running", "InService/running", "Pending/pending" },
    "the replacement is launched at once; the old instance runs on")
  world.set_now_ms(719000)
  H.eq(group(sim, "g").Instances[1].LifecycleState, "Terminating:Wait")
  world.set_now_ms(720000)  -- the heartbeat timeout (ABANDON) ends the wait: terminated either way
  g = group(sim, "g")
  H.eq(g.Instances[1].InstanceId, id)
  H.eq(g.Instances[1].LifecycleState, "Terminating")
  world.set_now_ms(900000)
  g = group(sim, "g")
  H.eq(#g.Instances, 2)
  H.eq(ec2(sim, "DescribeInstances", { InstanceIds = { id } }).Reservations[1].Instances[1].State.Name, "terminated")
end)

T.case("hooks given to CreateAutoScalingGroup hold its first instances; ForceDelete ends every wait", function()
  local world, sim = fresh()
  ec2(sim, "CreateVpc", { CidrBlock = "10.0.0.0/16" })
  as(sim, "CreateLaunchConfiguration", { LaunchConfigurationName = "lc1", ImageId = AMI, InstanceType = "t3.micro" })
  as(sim, "CreateAutoScalingGroup", { AutoScalingGroupName = "g", LaunchConfigurationName = "lc1", MinSize = 1, MaxSize = 2,
    AvailabilityZones = { "us-east-1a" },
    LifecycleHookSpecificationList = { { LifecycleHookName = "ready", LifecycleTransition = "autoscaling:EC2_INSTANCE_LAUNCHING" } } })
  H.same(lifecycle(sim), { "Pending:Wait" })
  H.eq(#world.ids("autoscaling.lifecycle_action"), 1)
  as(sim, "DeleteAutoScalingGroup", { AutoScalingGroupName = "g", ForceDelete = true })
  H.same(world.ids("autoscaling.lifecycle_action"), {})
end)

T.case("a booted instance's cfn-signal signals the group's stack resource", function()
  local world, sim = fresh()
  setup(sim, { desired = 2, user_data = H.base64("#!/bin/bash\n/opt/aws/bin/cfn-signal -e $? --stack s --resource Web\n") })
  world.set_now_ms(30000)
  group(sim, "g")
  local signals = sim.call("cloudformation", "GetResourceSignals", { StackName = "s", LogicalResourceId = "Web" }).Signals
  H.eq(#signals, 2)
  H.eq(signals[1].Status, "SUCCESS")
end)

return T
