-- sim.autoscaling: the simulated Amazon EC2 Auto Scaling service. Actions
-- carry AWS's names, request and response shapes and error messages (see
-- sim/init.lua for the calling convention). A group launches real simulated
-- EC2 instances (sim.ec2 RunInstances), so their boot scripts run and a
-- UserData `cfn-signal` signals the group's stack resource. The work is
-- split by job:
--
--   sim/autoscaling/groups.lua                 Create/Update/Delete/DescribeAutoScalingGroup(s),
--                                              SetDesiredCapacity
--   sim/autoscaling/members.lua                DescribeAutoScalingInstances,
--                                              TerminateInstanceInAutoScalingGroup,
--                                              SetInstanceHealth, Suspend/ResumeProcesses
--   sim/autoscaling/launch_configurations.lua  Create/Delete/DescribeLaunchConfiguration(s)
--   sim/autoscaling/scheduled.lua              PutScheduledUpdateGroupAction,
--                                              DeleteScheduledAction, DescribeScheduledActions
--   sim/autoscaling/lifecycle_hooks.lua        Put/Delete/DescribeLifecycleHook(s)
--   sim/autoscaling/lifecycle_actions.lua      Pending:Wait / Terminating:Wait,
--                                              Complete/RecordLifecycleAction(Heartbeat)
--   sim/autoscaling/tags.lua                   CreateOrUpdateTags, DeleteTags, DescribeTags
--   sim/autoscaling/capacity.lua               the lazy reconcile: launching, scale-in,
--                                              replacing unhealthy instances, scheduled actions
--   sim/autoscaling/configuration.lua          launch configuration / template -> RunInstances
--   sim/autoscaling/common.lua                 records, checks, messages

local M = {}

for _, part in ipairs({
  require("sim.autoscaling.groups"), require("sim.autoscaling.members"),
  require("sim.autoscaling.launch_configurations"), require("sim.autoscaling.scheduled"),
  require("sim.autoscaling.lifecycle_hooks"), require("sim.autoscaling.lifecycle_actions"),
  require("sim.autoscaling.tags"),
}) do
  for name, fn in pairs(part.actions) do
    assert(M[name] == nil, "sim.autoscaling: action " .. name .. " defined twice")
    M[name] = fn
  end
end

return M
