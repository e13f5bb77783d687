-- AWS::AutoScaling::LaunchConfiguration on the simulated Auto Scaling.
--
-- Update behaviours (the CloudFormation reference, "Update requires"): every
-- property is Replacement — a launch configuration cannot be changed, so an
-- update makes a new one (a new name) and the old one is deleted in cleanup,
-- after the group using it has moved on (its rolling update, seed 004).
-- Ref is the name; without LaunchConfigurationName it is
-- "<stack>-<logical>-<random>" (as in the events of public deployment logs,
-- e.g. "excercise1-myLaunchConfig-28I80AK9E852"), within 255 characters.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

local not_found = require("aws.autoscaling.lib.not_found")

return P.define {
  type = "AWS::AutoScaling::LaunchConfiguration",
  properties = {
    P.boolean "AssociatePublicIpAddress" { update = "replace" },
    P.json "BlockDeviceMappings" { update = "replace" },
    P.string "ClassicLinkVPCId" { update = "replace" },
    P.list(P.string) "ClassicLinkVPCSecurityGroups" { update = "replace" },
    P.boolean "EbsOptimized" { update = "replace" },
    P.string "IamInstanceProfile" { update = "replace" },
    P.string "ImageId" { required = true, update = "replace" },
    P.string "InstanceId" { update = "replace" },
    P.boolean "InstanceMonitoring" { update = "replace" },
    P.string "InstanceType" { required = true, update = "replace" },
    P.string "KernelId" { update = "replace" },
    P.string "KeyName" { update = "replace" },
    P.string "LaunchConfigurationName" { update = "replace" },
    P.json "MetadataOptions" { update = "replace" },
    P.string "PlacementTenancy" { allowed = { "default", "dedicated" }, update = "replace" },
    P.string "RamDiskId" { update = "replace" },  -- (sic: the schema's spelling; the API's is RamdiskId)
    P.list(P.string) "SecurityGroups" { update = "replace" },
    P.string "SpotPrice" { update = "replace" },
    P.string "UserData" { update = "replace" },
  },
  attributes = {},

  create = function(ctx, props)
    local name = props.LaunchConfigurationName or names.physical(ctx.stack_name, ctx.logical_id, 255)
    local req = {}
    for k, v in pairs(props) do req[k] = v end
    req.LaunchConfigurationName = name
    req.RamDiskId, req.RamdiskId = nil, props.RamDiskId
    if props.InstanceMonitoring ~= nil then req.InstanceMonitoring = { Enabled = props.InstanceMonitoring } end
    ctx.world.autoscaling.CreateLaunchConfiguration(req)
    return { id = name }
  end,

  delete = function(ctx, id)
    not_found.unless_gone(ctx.world.autoscaling.DeleteLaunchConfiguration, { LaunchConfigurationName = id },
      not_found.LAUNCH_CONFIGURATION)
  end,

  read = function(ctx, id, props)
    local lc = ctx.world.autoscaling.DescribeLaunchConfigurations { LaunchConfigurationNames = { id } }
      .LaunchConfigurations[1]
    if not lc then return nil end
    local out = {}
    for k in pairs(props or {}) do out[k] = lc[k] end
    if props and props.InstanceMonitoring ~= nil then out.InstanceMonitoring = lc.InstanceMonitoring.Enabled end
    if props and props.LaunchConfigurationName == nil then out.LaunchConfigurationName = nil end
    return { properties = out, attributes = {} }
  end,
}
