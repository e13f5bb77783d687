-- AWS::AutoScaling::AutoScalingGroup's update policies (seed 004) driven as
-- the engine drives them: exact event sequences of rolling updates
-- (signals, timeouts, pauses, MinInstancesInService raising the group),
-- their rollback with the old policy, SuspendProcesses, WillReplace's
-- update behaviour, IgnoreUnmodifiedGroupSizeProperties; and the world's
-- instances afterwards are the ones the events say.
local H = require("harness")
local D = require("asg_driver")
local P = require("moonstack.provider")
local T = H.suite("aws autoscaling group")

local SIGNAL = D.signal_script("s", "Web")

-- lc1 and lc2 (t3.micro / t3.small); lc2's instances signal unless `silent`.
local function configurations(sim, silent)
  sim.call("autoscaling", "CreateLaunchConfiguration", { LaunchConfigurationName = "lc1", ImageId = D.AMI,
    InstanceType = "t3.micro", UserData = SIGNAL })
  sim.call("autoscaling", "CreateLaunchConfiguration", { LaunchConfigurationName = "lc2", ImageId = D.AMI,
    InstanceType = "t3.small", UserData = not silent and SIGNAL or nil })
end

local function props(lc, desired, extra)
  local p = { LaunchConfigurationName = lc, MinSize = "1", MaxSize = "6", DesiredCapacity = tostring(desired),
              AvailabilityZones = { "us-east-1a", "us-east-1b" } }
  for k, v in pairs(extra or {}) do p[k] = v end
  return p
end

local function rolling(t) return { AutoScalingRollingUpdate = t } end

local function prefixed(list)
  local out = {}
  for i, e in ipairs(list) do out[i] = (e:match("^UPDATE_") and e or "UPDATE_IN_PROGRESS " .. e) end
  return out
end

local function ids_text(ids) return "[" .. table.concat(ids, ",") .. "]" end

-- The instance IDs of a group in its order, active ones only.
local function members(sim, name)
  local out = {}
  for _, i in ipairs(D.group(sim, name).Instances) do
    if i.LifecycleState ~= "Terminating" then out[#out + 1] = i.InstanceId end
  end
  return out
end

-- "Key=Value:PropagateAtLaunch" of each of a group's tags, in its order.
local function group_tag_texts(sim, name)
  local out = {}
  for _, t in ipairs(D.group(sim, name).Tags) do out[#out + 1] = t.Key .. "=" .. t.Value .. ":" .. tostring(t.PropagateAtLaunch) end
  return out
end

-- "Key=Value" of each of an instance's tags, sorted; `own_only` leaves the aws: ones out.
local function instance_tag_texts(sim, id, own_only)
  local inst = sim.call("ec2", "DescribeInstances", { InstanceIds = { id } }).Reservations[1].Instances[1]
  local out = {}
  for _, t in ipairs(inst.Tags) do
    if not (own_only and t.Key:match("^aws:")) then out[#out + 1] = t.Key .. "=" .. t.Value end
  end
  table.sort(out)
  return out
end

local function setup(desired, policy, silent)
  local world, sim = fresh()
  configurations(sim, silent)
  local asg = D.load("aws/autoscaling/auto_scaling_group")
  local ctx = D.context(sim, "Web", policy, policy)
  local id = D.create(world, asg, ctx, props("lc1", desired))
  return world, sim, asg, ctx, id
end

T.case("rolling update: 4 instances in batches of 2, MinInstancesInService 2, signals", function()
  local policy = rolling { MaxBatchSize = "2", MinInstancesInService = "2", WaitOnResourceSignals = "true", PauseTime = "PT5M" }
  local world, sim, asg, ctx, id = setup(4, policy)
  local old = members(sim, id)
  local t0 = world.now_ms()
  local behavior, events = D.update(world, asg, ctx, id, props("lc1", 4), props("lc2", 4))
  H.eq(behavior, "none")
  local new = members(sim, id)
  H.eq(#new, 4)
  H.same(events, prefixed {
    "Rolling update initiated. Terminating 4 obsolete instance(s) in batches of 2, while keeping at least 2 instance(s) in service. Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling group.",
    "Terminating instance(s) " .. ids_text { old[1], old[2] } .. "; replacing with 2 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text { old[1], old[2] } .. " (Progress 50%).",
    "New instance(s) added to autoscaling group - Waiting on 2 resource signal(s) with a timeout of PT5M.",
    "Received SUCCESS signal with UniqueId " .. new[1],
    "Received SUCCESS signal with UniqueId " .. new[2],
    "Terminating instance(s) " .. ids_text { old[3], old[4] } .. "; replacing with 2 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text { old[3], old[4] } .. " (Progress 100%).",
    "New instance(s) added to autoscaling group - Waiting on 2 resource signal(s) with a timeout of PT5M.",
    "Received SUCCESS signal with UniqueId " .. new[3],
    "Received SUCCESS signal with UniqueId " .. new[4],
    "UPDATE_COMPLETE",
  })
  H.same(D.by_configuration(sim, id), { lc2 = 4 })
  local g = D.group(sim, id)
  H.eq(g.MinSize, 1)
  H.eq(g.DesiredCapacity, 4)
  for _, i in ipairs(g.Instances) do H.eq(i.LifecycleState, "InService") end
  for _, i in ipairs(old) do
    H.eq(sim.call("ec2", "DescribeInstances", { InstanceIds = { i } }).Reservations[1].Instances[1].State.Name, "terminated")
  end
  H.truthy(world.now_ms() - t0 < 5 * 60000, "two batches take minutes of simulated time, not hours")
end)

T.case("rolling update: MinInstancesInService 4 raises MinSize and DesiredCapacity to 6, then restores them", function()
  local policy = rolling { MaxBatchSize = "2", MinInstancesInService = "4", WaitOnResourceSignals = "true", PauseTime = "PT5M" }
  local world, sim, asg, ctx, id = setup(4, policy)
  local old = members(sim, id)
  local _, events = D.update(world, asg, ctx, id, props("lc1", 4), props("lc2", 4))
  local all = {}
  for _, i in ipairs(D.group(sim, id).Instances) do all[#all + 1] = i.InstanceId end
  H.same(events, prefixed {
    "Rolling update initiated. Terminating 4 obsolete instance(s) in batches of 2, while keeping at least 4 instance(s) in service. Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling group.",
    "Temporarily setting autoscaling group MinSize and DesiredCapacity to 6.",
    "New instance(s) added to autoscaling group - Waiting on 2 resource signal(s) with a timeout of PT5M.",
    "Received SUCCESS signal with UniqueId " .. all[1],
    "Received SUCCESS signal with UniqueId " .. all[2],
    "Terminating instance(s) " .. ids_text { old[1], old[2] } .. "; replacing with 2 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text { old[1], old[2] } .. " (Progress 50%).",
    "New instance(s) added to autoscaling group - Waiting on 2 resource signal(s) with a timeout of PT5M.",
    "Received SUCCESS signal with UniqueId " .. all[3],
    "Received SUCCESS signal with UniqueId " .. all[4],
    "Terminating instance(s) " .. ids_text { old[3], old[4] } .. "; replacing with 0 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text { old[3], old[4] } .. " (Progress 100%).",
    "UPDATE_COMPLETE",
  })
  local g = D.group(sim, id)
  H.eq(g.MinSize, 1)
  H.eq(g.DesiredCapacity, 4)
  H.same(D.by_configuration(sim, id), { lc2 = 4 })
  H.eq(#g.Instances, 4)
end)

T.case("a batch that never signals fails the update; the rollback (old policy) restores lc1's instances", function()
  local policy = rolling { MaxBatchSize = "2", MinInstancesInService = "2", WaitOnResourceSignals = "true", PauseTime = "PT5M" }
  local world, sim, asg, ctx, id = setup(4, policy, true)
  local old = members(sim, id)
  local t0 = world.now_ms()
  local _, events = D.update(world, asg, ctx, id, props("lc1", 4), props("lc2", 4))
  H.same(events, prefixed {
    "Rolling update initiated. Terminating 4 obsolete instance(s) in batches of 2, while keeping at least 2 instance(s) in service. Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling group.",
    "Terminating instance(s) " .. ids_text { old[1], old[2] } .. "; replacing with 2 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text { old[1], old[2] } .. " (Progress 50%).",
    "New instance(s) added to autoscaling group - Waiting on 2 resource signal(s) with a timeout of PT5M.",
    "Failed to receive 2 resource signal(s) for the current batch. Each resource signal timeout is counted as a FAILURE.",
    "UPDATE_FAILED Received 0 SUCCESS signal(s) out of 4. Unable to satisfy 100% MinSuccessfulInstancesPercent requirement",
  })
  H.truthy(world.now_ms() - t0 >= 5 * 60000, "PauseTime passed")
  H.same(D.by_configuration(sim, id), { lc1 = 2, lc2 = 2 })
  local failed_batch = D.ids(sim, id, "lc2")
  -- The rollback runs with the policy of the template rolled back to.
  local rb = D.rollback(world, asg, ctx, id, props("lc1", 4), props("lc2", 4))
  local now = members(sim, id)
  H.same(rb, prefixed {
    "Rolling update initiated. Terminating 2 obsolete instance(s) in batches of 2, while keeping at least 2 instance(s) in service. Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling group.",
    "Terminating instance(s) " .. ids_text(failed_batch) .. "; replacing with 2 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text(failed_batch) .. " (Progress 100%).",
    "New instance(s) added to autoscaling group - Waiting on 2 resource signal(s) with a timeout of PT5M.",
    "Received SUCCESS signal with UniqueId " .. now[3],
    "Received SUCCESS signal with UniqueId " .. now[4],
    "UPDATE_COMPLETE",
  })
  H.same(D.by_configuration(sim, id), { lc1 = 4 })
  H.eq(D.group(sim, id).LaunchConfigurationName, "lc1")
  H.same({ now[1], now[2] }, { old[3], old[4] })
end)

T.case("MaxBatchSize 1 -> 10 in a failing update: the rollback replaces in batches of 1 (the old policy)", function()
  local old_policy = rolling { MaxBatchSize = "1", WaitOnResourceSignals = "true", PauseTime = "PT5M" }
  local new_policy = rolling { MaxBatchSize = "10", WaitOnResourceSignals = "true", PauseTime = "PT5M" }
  local world, sim, asg, ctx, id = setup(3, old_policy, true)
  ctx.update_policy, ctx.old_update_policy = new_policy, old_policy
  local old = members(sim, id)
  local _, events = D.update(world, asg, ctx, id, props("lc1", 3), props("lc2", 3))
  H.same(events, prefixed {
    "Rolling update initiated. Terminating 3 obsolete instance(s) in batches of 3. Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling group.",
    "Terminating instance(s) " .. ids_text(old) .. "; replacing with 3 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text(old) .. " (Progress 100%).",
    "New instance(s) added to autoscaling group - Waiting on 3 resource signal(s) with a timeout of PT5M.",
    "Failed to receive 3 resource signal(s) for the current batch. Each resource signal timeout is counted as a FAILURE.",
    "UPDATE_FAILED Received 0 SUCCESS signal(s) out of 3. Unable to satisfy 100% MinSuccessfulInstancesPercent requirement",
  })
  local bad = D.ids(sim, id, "lc2")
  H.eq(#bad, 3)
  ctx.update_policy, ctx.old_update_policy = old_policy, new_policy
  local rb = D.rollback(world, asg, ctx, id, props("lc1", 3), props("lc2", 3))
  H.eq(rb[1], "UPDATE_IN_PROGRESS Rolling update initiated. Terminating 3 obsolete instance(s) in batches of 1. Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling group.")
  local batches = {}
  for _, e in ipairs(rb) do
    local t = e:match("Terminating instance%(s%) (%[[^%]]*%])")
    if t then batches[#batches + 1] = t end
  end
  H.same(batches, { ids_text { bad[1] }, ids_text { bad[2] }, ids_text { bad[3] } })
  H.eq(rb[#rb], "UPDATE_COMPLETE")
  H.same(D.by_configuration(sim, id), { lc1 = 3 })
end)

T.case("instances the update adds (DesiredCapacity 2 -> 3) are waited for first, then the rolling update", function()
  local policy = rolling { MaxBatchSize = "2", WaitOnResourceSignals = "true", PauseTime = "PT5M" }
  local world, sim, asg, ctx, id = setup(2, policy)
  local old = members(sim, id)
  local _, events = D.update(world, asg, ctx, id, props("lc1", 2), props("lc2", 3))
  local now = members(sim, id)
  H.same(events, prefixed {
    "New instance(s) added to autoscaling group - Waiting on 1 resource signal(s) with a timeout of PT5M.",
    "Received SUCCESS signal with UniqueId " .. now[1],
    "Rolling update initiated. Terminating 2 obsolete instance(s) in batches of 2. Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling group.",
    "Terminating instance(s) " .. ids_text(old) .. "; replacing with 2 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text(old) .. " (Progress 100%).",
    "New instance(s) added to autoscaling group - Waiting on 2 resource signal(s) with a timeout of PT5M.",
    "Received SUCCESS signal with UniqueId " .. now[2],
    "Received SUCCESS signal with UniqueId " .. now[3],
    "UPDATE_COMPLETE",
  })
  H.same(D.by_configuration(sim, id), { lc2 = 3 })
end)

T.case("what triggers the rolling update: a launch template's Version, a VPCZoneIdentifier change; nothing else", function()
  local world, sim = fresh()
  local asg = D.load("aws/autoscaling/auto_scaling_group")
  local policy = rolling { MaxBatchSize = "4" }
  local ctx = D.context(sim, "Web", policy, policy)
  local ec2 = function(action, p) return sim.call("ec2", action, p) end
  local vpc = ec2("CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local subnets = {}
  for i, az in ipairs({ "us-east-1a", "us-east-1b", "us-east-1c" }) do
    subnets[i] = ec2("CreateSubnet", { VpcId = vpc, CidrBlock = "10.0." .. i .. ".0/24", AvailabilityZone = az }).Subnet.SubnetId
  end
  local lt = ec2("CreateLaunchTemplate", { LaunchTemplateName = "web",
    LaunchTemplateData = { ImageId = D.AMI, InstanceType = "t3.micro" } }).LaunchTemplate.LaunchTemplateId
  ec2("CreateLaunchTemplateVersion", { LaunchTemplateId = lt, LaunchTemplateData = { ImageId = D.AMI, InstanceType = "t3.large" } })
  local function p(version, zones, max)
    return { LaunchTemplate = { LaunchTemplateId = lt, Version = version }, MinSize = "1", MaxSize = max or "6",
             DesiredCapacity = "4", VPCZoneIdentifier = zones }
  end
  local id = D.create(world, asg, ctx, p("1", { subnets[1], subnets[2] }))
  H.same(D.by_configuration(sim, id), { v1 = 4 })
  local _, events = D.update(world, asg, ctx, id, p("1", { subnets[1], subnets[2] }), p("1", { subnets[1], subnets[2] }, "8"))
  H.same(events, { "UPDATE_COMPLETE" }, "a size change replaces nothing")
  _, events = D.update(world, asg, ctx, id, p("1", { subnets[1], subnets[2] }, "8"), p("2", { subnets[1], subnets[2] }, "8"))
  H.match(events[1], "Rolling update initiated%. Terminating 4 obsolete instance%(s%) in batches of 4%.")
  H.same(D.by_configuration(sim, id), { v2 = 4 })
  _, events = D.update(world, asg, ctx, id, p("2", { subnets[1], subnets[2] }, "8"), p("2", { subnets[1], subnets[3] }, "8"))
  H.match(events[1], "Rolling update initiated%. Terminating 2 obsolete instance%(s%) in batches of 2%.")
  local per = {}
  for _, i in ipairs(D.group(sim, id).Instances) do
    local inst = ec2("DescribeInstances", { InstanceIds = { i.InstanceId } }).Reservations[1].Instances[1]
    per[inst.SubnetId] = (per[inst.SubnetId] or 0) + 1
  end
  H.same(per, { [subnets[1]] = 2, [subnets[3]] = 2 })
end)

T.case("PauseTime without signals pauses after each batch", function()
  local policy = rolling { MaxBatchSize = "1", PauseTime = "PT2M" }
  local world, sim, asg, ctx, id = setup(2, policy, true)
  local old = members(sim, id)
  local t0 = world.now_ms()
  local _, events = D.update(world, asg, ctx, id, props("lc1", 2), props("lc2", 2))
  H.same(events, prefixed {
    "Rolling update initiated. Terminating 2 obsolete instance(s) in batches of 1. Pausing for PT2M when new instances are added to the autoscaling group.",
    "Terminating instance(s) " .. ids_text { old[1] } .. "; replacing with 1 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text { old[1] } .. " (Progress 50%).",
    "New instance(s) added to autoscaling group - Pausing for PT2M.",
    "Terminating instance(s) " .. ids_text { old[2] } .. "; replacing with 1 new instance(s).",
    "Successfully terminated instance(s) " .. ids_text { old[2] } .. " (Progress 100%).",
    "New instance(s) added to autoscaling group - Pausing for PT2M.",
    "UPDATE_COMPLETE",
  })
  H.truthy(world.now_ms() - t0 >= 4 * 60000, "two pauses of PT2M")
  H.same(D.by_configuration(sim, id), { lc2 = 2 })
end)

T.case("SuspendProcesses: suspended during the update, resumed after it; also after a failure; others kept", function()
  local policy = rolling { MaxBatchSize = "1", WaitOnResourceSignals = "true", PauseTime = "PT5M",
                           SuspendProcesses = { "AlarmNotification", "ScheduledActions", "AZRebalance" } }
  for _, silent in ipairs({ false, true }) do
    local world, sim, asg, ctx, id = setup(2, policy, silent)
    sim.call("autoscaling", "SuspendProcesses", { AutoScalingGroupName = id, ScalingProcesses = { "AZRebalance" } })
    local during
    local o, n = asg:validate(props("lc1", 2), ctx), asg:validate(props("lc2", 2), ctx)
    local _, changed = asg:change(o, n, ctx)
    ctx.progress = nil
    local r = asg.update(ctx, id, n, o, changed)
    H.truthy(r.in_progress)
    during = {}
    for _, p in ipairs(D.group(sim, id).SuspendedProcesses) do during[#during + 1] = p.ProcessName end
    table.sort(during)
    H.same(during, { "AZRebalance", "AlarmNotification", "ScheduledActions" })
    ctx.progress = r.context
    world.set_now_ms(world.now_ms() + r.after * 1000)
    local events = D.drive(world, asg, "update", ctx, { id, n, o, changed }, "UPDATE", true)
    H.match(events[#events], silent and "^UPDATE_FAILED " or "^UPDATE_COMPLETE$")
    local after = {}
    for _, p in ipairs(D.group(sim, id).SuspendedProcesses) do after[#after + 1] = p.ProcessName end
    H.same(after, { "AZRebalance" }, "the process suspended before the update stays suspended")
  end
end)

T.case("a group that does not replace a batch (Launch suspended) is waited for, not drained batch after batch", function()
  local policy = rolling { MaxBatchSize = "1", SuspendProcesses = { "Launch" } }
  local world, sim, asg, ctx, id = setup(2, policy)
  local old = members(sim, id)
  local o, n = asg:validate(props("lc1", 2), ctx), asg:validate(props("lc2", 2), ctx)
  local _, changed = asg:change(o, n, ctx)
  ctx.progress = nil
  local r
  for _ = 1, 30 do
    r = asg.update(ctx, id, n, o, changed)
    world.set_now_ms(world.now_ms() + r.after * 1000)
    ctx.progress = r.context
  end
  H.truthy(P.is_in_progress(r), "still waiting for the group to settle")
  H.same(members(sim, id), { old[2] }, "only the first batch was terminated")
end)

T.case("MinSuccessfulInstancesPercent 50: one of two batches may time out", function()
  local policy = rolling { MaxBatchSize = "1", WaitOnResourceSignals = "true", PauseTime = "PT5M",
                           MinSuccessfulInstancesPercent = "50" }
  local world, sim, asg, ctx, id = setup(2, policy, true)
  -- The first new instance signals (by hand), the second never does.
  local _, events = D.update(world, asg, ctx, id, props("lc1", 2), props("lc2", 2))
  H.eq(events[#events], "UPDATE_FAILED Received 0 SUCCESS signal(s) out of 2. Unable to satisfy 50% MinSuccessfulInstancesPercent requirement")
  local timeouts = 0
  for _, e in ipairs(events) do if e:find("Failed to receive 1 resource signal", 1, true) then timeouts = timeouts + 1 end end
  H.eq(timeouts, 2, "the first timeout is tolerated, the second is not")
end)

T.case("MinActiveInstancesPercent: after PauseTime the batch's instances must be InService", function()
  local policy = rolling { MaxBatchSize = "2", PauseTime = "PT1M", MinActiveInstancesPercent = "100" }
  local world, sim, asg, ctx, id = setup(2, policy, true)
  local _, events = D.update(world, asg, ctx, id, props("lc1", 2), props("lc2", 2))
  H.eq(events[#events], "UPDATE_COMPLETE", "booted within the pause")
  world.put("config", "ec2", { boot_seconds = 120 })
  _, events = D.update(world, asg, ctx, id, props("lc2", 2), props("lc1", 2))
  H.eq(events[#events], "UPDATE_FAILED Received 0 InService instance(s) out of 2. Unable to satisfy 100% MinActiveInstancesPercent requirement")
end)

T.case("WillReplace: the launch properties' change is a replacement, taking precedence over a rolling update", function()
  local _, sim = fresh()
  configurations(sim)
  local asg = D.load("aws/autoscaling/auto_scaling_group")
  local both = { AutoScalingReplacingUpdate = { WillReplace = "true" }, AutoScalingRollingUpdate = { MaxBatchSize = "2" } }
  local ctx = D.context(sim, "Web", both, both)
  local o, n = asg:validate(props("lc1", 2), ctx), asg:validate(props("lc2", 2), ctx)
  H.eq((asg:change(o, n, ctx)), "replace")
  H.eq((asg:change(asg:validate(props("lc1", 2, { VPCZoneIdentifier = { "subnet-a" } }), ctx),
    asg:validate(props("lc1", 2, { VPCZoneIdentifier = { "subnet-b" } }), ctx), ctx)), "replace")
  H.eq((asg:change(o, asg:validate(props("lc1", 3), ctx), ctx)), "none", "a size change is never a replacement")
  ctx.update_policy = { AutoScalingReplacingUpdate = { WillReplace = false } }
  H.eq((asg:change(o, n, ctx)), "none")
  ctx.update_policy = nil
  H.eq((asg:change(o, n, ctx)), "none")
end)

T.case("IgnoreUnmodifiedGroupSizeProperties keeps the size a scheduled action set; without it the template's wins", function()
  for _, ignore in ipairs({ true, false }) do
    local policy = { AutoScalingScheduledAction = { IgnoreUnmodifiedGroupSizeProperties = ignore and "true" or "false" } }
    local world, sim, asg, ctx, id = setup(2, policy)
    sim.call("autoscaling", "PutScheduledUpdateGroupAction", { AutoScalingGroupName = id, ScheduledActionName = "peak",
      StartTime = "1970-01-01T01:00:00Z", DesiredCapacity = 5 })
    world.set_now_ms(3600000)
    H.eq(D.group(sim, id).DesiredCapacity, 5)
    local _, events = D.update(world, asg, ctx, id, props("lc1", 2), props("lc1", 2, { HealthCheckGracePeriod = 60 }))
    H.same(events, { "UPDATE_COMPLETE" })
    local g = D.group(sim, id)
    H.eq(g.DesiredCapacity, ignore and 5 or 2)
    H.eq(g.HealthCheckGracePeriod, 60)
    -- A size the template does change is applied either way.
    D.update(world, asg, ctx, id, props("lc1", 2, { HealthCheckGracePeriod = 60 }),
      props("lc1", 2, { HealthCheckGracePeriod = 60, MaxSize = "5" }))
    g = D.group(sim, id)
    H.eq(g.MaxSize, 5)
    H.eq(g.DesiredCapacity, ignore and 5 or 2)
  end
end)

T.case("create completes once DesiredCapacity instances are InService; delete waits for them to terminate", function()
  local world, sim = fresh()
  configurations(sim)
  local asg = D.load("aws/autoscaling/auto_scaling_group")
  local ctx = D.context(sim, "Web")
  local t0 = world.now_ms()
  local id, _, events = D.create(world, asg, ctx, props("lc1", 3))
  H.same(events, { "CREATE_COMPLETE" })
  H.match(id, "^s%-Web%-%w+$")
  H.truthy(world.now_ms() - t0 >= 30000, "the instances booted")
  for _, i in ipairs(D.group(sim, id).Instances) do H.eq(i.LifecycleState, "InService") end
  local signals = sim.call("cloudformation", "GetResourceSignals", { StackName = "s", LogicalResourceId = "Web" }).Signals
  H.eq(#signals, 3, "their boot scripts signalled")
  local ids = members(sim, id)
  local t1 = world.now_ms()
  local del = D.drive(world, asg, "delete", ctx, { id, {} }, "DELETE")
  H.same(del, { "DELETE_COMPLETE" })
  H.truthy(world.now_ms() - t1 >= 20000, "the instances terminated first")
  H.eq(D.group(sim, id), nil)
  for _, i in ipairs(ids) do
    H.eq(sim.call("ec2", "DescribeInstances", { InstanceIds = { i } }).Reservations[1].Instances[1].State.Name, "terminated")
  end
end)

-- The group's provider, and a hook ctx of stack "s" whose own tag is team=web.
local function tagged_stack(sim)
  configurations(sim)
  local ctx = D.context(sim, "Web")
  ctx.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/s/1"
  ctx.stack_tags = { { Key = "team", Value = "web" } }
  return D.load("aws/autoscaling/auto_scaling_group"), ctx
end

T.case("a group carries CloudFormation's tags and the stack's; its instances get them with its PropagateAtLaunch ones", function()
  local world, sim = fresh()
  local asg, ctx = tagged_stack(sim)
  local id = D.create(world, asg, ctx, props("lc1", 2, { Tags = {
    { Key = "app", Value = "shop", PropagateAtLaunch = true },
    { Key = "group-only", Value = "x", PropagateAtLaunch = false } } }))
  H.same(group_tag_texts(sim, id), { "app=shop:true", "group-only=x:false",
    "aws:cloudformation:logical-id=Web:true", "aws:cloudformation:stack-id=" .. ctx.stack_id .. ":true",
    "aws:cloudformation:stack-name=s:true", "team=web:true" })
  local ids = members(sim, id)
  H.eq(#ids, 2)
  for _, i in ipairs(ids) do
    H.same(instance_tag_texts(sim, i), { "app=shop", "aws:autoscaling:groupName=" .. id, "aws:cloudformation:logical-id=Web",
      "aws:cloudformation:stack-id=" .. ctx.stack_id, "aws:cloudformation:stack-name=s", "team=web" })
  end
end)

T.case("an update of Tags moves the group's tags, and instances launched after carry the new ones", function()
  local world, sim = fresh()
  local asg, ctx = tagged_stack(sim)
  local before = props("lc1", 1, { Tags = { { Key = "app", Value = "shop", PropagateAtLaunch = true },
                                            { Key = "gone", Value = "x", PropagateAtLaunch = false } } })
  local id = D.create(world, asg, ctx, before)
  -- The stack's tags change too (the engine then lists "Tags" as changed).
  ctx.stack_tags = { { Key = "team", Value = "api" } }
  local after = props("lc1", 2, { Tags = { { Key = "app", Value = "store", PropagateAtLaunch = true },
                                           { Key = "new", Value = "y", PropagateAtLaunch = false } } })
  local behavior = D.update(world, asg, ctx, id, before, after)
  H.eq(behavior, "none")
  local on_group = group_tag_texts(sim, id)
  table.sort(on_group)
  H.same(on_group, { "app=store:true", "aws:cloudformation:logical-id=Web:true",
    "aws:cloudformation:stack-id=" .. ctx.stack_id .. ":true", "aws:cloudformation:stack-name=s:true",
    "new=y:false", "team=api:true" })
  -- The first instance keeps the tags it was launched with; the second has the new ones.
  local tags_of = {}
  for _, i in ipairs(members(sim, id)) do tags_of[#tags_of + 1] = table.concat(instance_tag_texts(sim, i, true), ",") end
  H.same(tags_of, { "app=shop,team=web", "app=store,team=api" })
end)

T.case("CreateOrUpdateTags, DeleteTags and DescribeTags with AWS's errors", function()
  local _, sim = fresh()
  configurations(sim)
  sim.call("autoscaling", "CreateAutoScalingGroup", { AutoScalingGroupName = "g", LaunchConfigurationName = "lc1",
    MinSize = 0, MaxSize = 1, AvailabilityZones = { "us-east-1a" } })
  local function tag(k, v, p) return { ResourceId = "g", ResourceType = "auto-scaling-group", Key = k, Value = v, PropagateAtLaunch = p } end
  sim.call("autoscaling", "CreateOrUpdateTags", { Tags = { tag("a", "1", true), tag("b", "2", false) } })
  sim.call("autoscaling", "CreateOrUpdateTags", { Tags = { tag("a", "3", false) } })
  sim.call("autoscaling", "DeleteTags", { Tags = { { ResourceId = "g", ResourceType = "auto-scaling-group", Key = "b" },
                                                     { ResourceId = "g", ResourceType = "auto-scaling-group", Key = "never" } } })
  local got = sim.call("autoscaling", "DescribeTags", { Filters = { { Name = "auto-scaling-group", Values = { "g" } } } }).Tags
  H.same(got, { { ResourceId = "g", ResourceType = "auto-scaling-group", Key = "a", Value = "3", PropagateAtLaunch = false } })
  H.eq(#sim.call("autoscaling", "DescribeTags", { Filters = { { Name = "key", Values = { "b" } } } }).Tags, 0)
  local ok, err = pcall(sim.call, "autoscaling", "CreateOrUpdateTags", { Tags = { { ResourceId = "nope",
    ResourceType = "auto-scaling-group", Key = "k", Value = "v" } } })
  H.eq(ok, false)
  H.eq(P.error_message(err), "AutoScalingGroup not found - AutoScaling Group nope not found")
  ok, err = pcall(sim.call, "autoscaling", "CreateOrUpdateTags", { Tags = { { ResourceId = "g", Key = "Lab",
    PropagateAtLaunch = true } } })
  H.eq(ok, false)
  H.eq(P.error_message(err), "Incomplete tags information for these tags. Tag - 'Key:Lab,PropagateAtLaunch:true,ResourceId:g,ResourceType:null' , ")
end)

return T
