-- sim.autoscaling.launch_configurations: CreateLaunchConfiguration,
-- DeleteLaunchConfiguration, DescribeLaunchConfigurations (kind
-- "autoscaling.launch_configuration", keyed by name). A launch
-- configuration cannot change: CloudFormation replaces it.
--
-- A group using one names the configuration's ARN in its refs, so
-- "attached to AutoScalingGroup X" is one world.referrers lookup.

local world = require("sim.world")
local C = require("sim.autoscaling.common")
local images = require("sim.ec2.images")
local types = require("sim.ec2.types")

local L = {}

local FIELDS = { "ImageId", "InstanceType", "KeyName", "SecurityGroups", "UserData", "IamInstanceProfile",
                 "BlockDeviceMappings", "InstanceMonitoring", "EbsOptimized", "AssociatePublicIpAddress",
                 "KernelId", "RamdiskId", "SpotPrice", "PlacementTenancy", "MetadataOptions",
                 "ClassicLinkVPCId", "ClassicLinkVPCSecurityGroups" }

local A = {}

---CreateLaunchConfiguration: LaunchConfigurationName, ImageId, InstanceType,
---KeyName, SecurityGroups, UserData, ... -> {}.
function A.CreateLaunchConfiguration(p, env)
  local name = C.check_name(p.LaunchConfigurationName, "launchConfigurationName")
  if world.get(C.LAUNCH_CONFIGURATION, name) then
    -- AlreadyExists, AWS's text (quoted verbatim in public SDK fixtures).
    C.fail("Launch Configuration by this name already exists - A launch configuration already exists with the name "
      .. name, "AlreadyExists")
  end
  if not C.present(p.ImageId) and not C.present(p.InstanceId) then
    C.fail("Valid requests must contain either the InstanceID parameter or both the ImageId and InstanceType parameters.",
      "ValidationError")
  end
  images.require_image(p.ImageId, env)
  if not C.present(p.InstanceType) then
    C.fail("Valid requests must contain either the InstanceID parameter or both the ImageId and InstanceType parameters.",
      "ValidationError")
  end
  types.check(p.InstanceType)
  local rec = {
    LaunchConfigurationName = name,
    LaunchConfigurationARN = C.arn(env, "launchConfiguration:" .. C.uuid(env) .. ":launchConfigurationName/" .. name),
    CreatedTime = require("sim.ec2.instances").iso8601(env.now_ms),
  }
  for _, f in ipairs(FIELDS) do
    if C.present(p[f]) then rec[f] = p[f] end
  end
  rec.SecurityGroups = rec.SecurityGroups or {}
  rec.BlockDeviceMappings = rec.BlockDeviceMappings or {}
  rec.KeyName = rec.KeyName or ""
  rec.UserData = rec.UserData or ""
  rec.KernelId, rec.RamdiskId = rec.KernelId or "", rec.RamdiskId or ""
  rec.InstanceMonitoring = rec.InstanceMonitoring or { Enabled = true }
  rec.EbsOptimized = C.bool(rec.EbsOptimized) or false
  world.put(C.LAUNCH_CONFIGURATION, name, rec)
  return {}
end

---DeleteLaunchConfiguration: LaunchConfigurationName -> {}.
function A.DeleteLaunchConfiguration(p, env)
  local name = C.check_name(p.LaunchConfigurationName, "launchConfigurationName")
  local rec = world.get(C.LAUNCH_CONFIGURATION, name)
  if not rec then require("sim.autoscaling.configuration").lc_not_found(name) end
  for _, r in ipairs(world.referrers(rec.LaunchConfigurationARN)) do
    if r.kind == C.GROUP then
      -- ResourceInUse, AWS's text (quoted verbatim in public SDK fixtures).
      C.fail("Cannot delete launch configuration " .. name .. " because it is attached to AutoScalingGroup " .. r.id,
        "ResourceInUse")
    end
  end
  world.remove(C.LAUNCH_CONFIGURATION, name)
  return {}
end

---DescribeLaunchConfigurations: LaunchConfigurationNames -> { LaunchConfigurations }.
---Unknown names are left out, as AWS does; without names, every one.
function A.DescribeLaunchConfigurations(p, env)
  local names = C.list(p.LaunchConfigurationNames)
  if #names == 0 then names = world.ids(C.LAUNCH_CONFIGURATION, true) end
  local out = {}
  for _, name in ipairs(names) do
    local rec = type(name) == "string" and world.get(C.LAUNCH_CONFIGURATION, name)
    if rec then out[#out + 1] = rec end
  end
  return { LaunchConfigurations = out }
end

L.actions = A
return L
