-- AWS::AutoScaling::LifecycleHook on the simulated Auto Scaling.
--
-- Update behaviours (the CloudFormation reference, "Update requires"):
-- AutoScalingGroupName and LifecycleHookName are Replacement; DefaultResult,
-- HeartbeatTimeout, LifecycleTransition, NotificationMetadata,
-- NotificationTargetARN and RoleARN are No interruption (PutLifecycleHook
-- over the same name). Ref is the hook's name, "<stack>-<logical>-<random>"
-- without LifecycleHookName.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

-- Absent properties get Auto Scaling's defaults explicitly: PutLifecycleHook
-- on an existing hook keeps what the request leaves out.
local function put(aws, name, props)
  aws.autoscaling.PutLifecycleHook {
    AutoScalingGroupName = props.AutoScalingGroupName, LifecycleHookName = name,
    LifecycleTransition = props.LifecycleTransition, HeartbeatTimeout = props.HeartbeatTimeout or 3600,
    DefaultResult = props.DefaultResult or "ABANDON", NotificationMetadata = props.NotificationMetadata,
    NotificationTargetARN = props.NotificationTargetARN, RoleARN = props.RoleARN,
  }
end

local not_found = require("aws.autoscaling.lib.not_found")

return P.define {
  type = "AWS::AutoScaling::LifecycleHook",
  properties = {
    P.string "AutoScalingGroupName" { required = true, update = "replace" },
    P.string "DefaultResult" { allowed = { "CONTINUE", "ABANDON" }, update = "none" },
    P.integer "HeartbeatTimeout" { update = "none" },
    P.string "LifecycleHookName" { update = "replace" },
    P.string "LifecycleTransition" { required = true, update = "none" },
    P.string "NotificationMetadata" { update = "none" },
    P.string "NotificationTargetARN" { update = "none" },
    P.string "RoleARN" { update = "none" },
  },
  attributes = {},

  create = function(ctx, props)
    local name = props.LifecycleHookName or names.physical(ctx.stack_name, ctx.logical_id, 255)
    put(ctx.world, name, props)
    return { id = name }
  end,

  update = function(ctx, id, new) put(ctx.world, id, new) end,

  delete = function(ctx, id, props)
    not_found.unless_gone(ctx.world.autoscaling.DeleteLifecycleHook,
      { AutoScalingGroupName = props.AutoScalingGroupName, LifecycleHookName = id },
      not_found.LIFECYCLE_HOOK, not_found.GROUP)
  end,

  read = function(ctx, id, props)
    local r = not_found.unless_gone(ctx.world.autoscaling.DescribeLifecycleHooks,
      { AutoScalingGroupName = props.AutoScalingGroupName, LifecycleHookNames = { id } }, not_found.GROUP)
    local h = r and r.LifecycleHooks[1]
    if not h then return nil end
    local out = {}
    for k, v in pairs(props) do out[k] = v end
    out.LifecycleTransition, out.DefaultResult, out.HeartbeatTimeout = h.LifecycleTransition, h.DefaultResult, h.HeartbeatTimeout
    if props.LifecycleHookName == nil then out.LifecycleHookName = nil end
    if props.DefaultResult == nil then out.DefaultResult = nil end
    if props.HeartbeatTimeout == nil then out.HeartbeatTimeout = nil end
    return { properties = out, attributes = {} }
  end,
}
