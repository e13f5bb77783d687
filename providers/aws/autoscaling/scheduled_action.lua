-- AWS::AutoScaling::ScheduledAction on the simulated Auto Scaling.
--
-- Update behaviours (the CloudFormation reference, "Update requires"):
-- AutoScalingGroupName is Replacement; DesiredCapacity, EndTime, MaxSize,
-- MinSize, Recurrence, StartTime and TimeZone are No interruption (a
-- PutScheduledUpdateGroupAction over the same name). Ref and Fn::GetAtt
-- ScheduledActionName give the action's name, "<stack>-<logical>-<random>".
-- The action runs in the world's simulated time when its group is next read
-- or acted on (sim/autoscaling/scheduled.lua); a one-time action that has
-- run is gone from Auto Scaling, so its delete finds nothing to do.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

local function put(aws, name, props)
  aws.autoscaling.PutScheduledUpdateGroupAction {
    AutoScalingGroupName = props.AutoScalingGroupName, ScheduledActionName = name,
    StartTime = props.StartTime, EndTime = props.EndTime, Recurrence = props.Recurrence, TimeZone = props.TimeZone,
    MinSize = props.MinSize, MaxSize = props.MaxSize, DesiredCapacity = props.DesiredCapacity,
  }
end

local not_found = require("aws.autoscaling.lib.not_found")

return P.define {
  type = "AWS::AutoScaling::ScheduledAction",
  properties = {
    P.string "AutoScalingGroupName" { required = true, update = "replace" },
    P.integer "DesiredCapacity" { update = "none" },
    P.string "EndTime" { update = "none" },
    P.integer "MaxSize" { update = "none" },
    P.integer "MinSize" { update = "none" },
    P.string "Recurrence" { update = "none" },
    P.string "StartTime" { update = "none" },
    P.string "TimeZone" { update = "none" },
  },
  attributes = { "ScheduledActionName" },

  create = function(ctx, props)
    local name = names.physical(ctx.stack_name, ctx.logical_id, 255)
    put(ctx.world, name, props)
    return { id = name, attributes = { ScheduledActionName = name } }
  end,

  update = function(ctx, id, new) put(ctx.world, id, new) end,

  delete = function(ctx, id, props)
    not_found.unless_gone(ctx.world.autoscaling.DeleteScheduledAction,
      { AutoScalingGroupName = props.AutoScalingGroupName, ScheduledActionName = id },
      not_found.SCHEDULED_ACTION, not_found.GROUP)
  end,

  read = function(ctx, id, props)
    local r = not_found.unless_gone(ctx.world.autoscaling.DescribeScheduledActions,
      { AutoScalingGroupName = props.AutoScalingGroupName, ScheduledActionNames = { id } }, not_found.GROUP)
    if not r or not r.ScheduledUpdateGroupActions[1] then return nil end
    return { properties = props, attributes = { ScheduledActionName = id } }
  end,
}
