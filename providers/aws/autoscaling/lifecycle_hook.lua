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

local function gone(err)
  local m = tostring(type(err) == "table" and err.message or err)
  return m:find("^No Lifecycle Hook found") ~= nil or m:find("^AutoScalingGroup name not found") ~= nil
end

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
    local ok, err = pcall(ctx.world.autoscaling.DeleteLifecycleHook,
      { AutoScalingGroupName = props.AutoScalingGroupName, LifecycleHookName = id })
    if not ok and not gone(err) then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local ok, r = pcall(ctx.world.autoscaling.DescribeLifecycleHooks,
      { AutoScalingGroupName = props.AutoScalingGroupName, LifecycleHookNames = { id } })
    if not ok then
      if gone(r) then return nil end
      error(r, 0)
    end
    local h = r.LifecycleHooks[1]
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
