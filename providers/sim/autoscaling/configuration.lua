-- sim.autoscaling.configuration: what a group launches its instances from —
-- its launch configuration, its launch template (a version: a number,
-- "$Latest" or "$Default") or its MixedInstancesPolicy's template — as the
-- RunInstances request EC2 gets, and whether an instance still matches it.
--
-- Each instance entry of a group records the configuration it was launched
-- with (LaunchConfigurationName, or LaunchTemplate with the version NUMBER
-- resolved at launch, as DescribeAutoScalingGroups shows it), so "instances
-- that don't match the current configuration" (what a rolling update
-- replaces) is a comparison per instance, with no EC2 call.

local C = require("sim.autoscaling.common")
local templates = require("sim.ec2.launch_templates")
local ec2_instances = require("sim.ec2.instances")
local world = require("sim.world")

local F = {}

-- "Launch configuration name not found - Launch configuration X not found"
-- (ValidationError; quoted verbatim in public cleanup scripts).
function F.lc_not_found(name)
  C.fail("Launch configuration name not found - Launch configuration " .. tostring(name) .. " not found",
    "ValidationError")
end

function F.launch_configuration(name)
  local rec = type(name) == "string" and world.get(C.LAUNCH_CONFIGURATION, name)
  if not rec then F.lc_not_found(name) end
  return rec
end

-- The template specification a group launches from (plain or mixed).
local function template_spec(group)
  if group.LaunchTemplate then return group.LaunchTemplate end
  local mixed = group.MixedInstancesPolicy
  return mixed and mixed.LaunchTemplate and mixed.LaunchTemplate.LaunchTemplateSpecification or nil
end
F.template_spec = template_spec

-- The first override's instance type of a MixedInstancesPolicy, if any.
local function override_type(group)
  local mixed = group.MixedInstancesPolicy
  local o = mixed and mixed.LaunchTemplate and mixed.LaunchTemplate.Overrides
  return type(o) == "table" and type(o[1]) == "table" and o[1].InstanceType or nil
end

---Checks that the group's configuration exists (a launch configuration, a
---template and its version); fails with AWS's message otherwise.
function F.check(group)
  if group.LaunchConfigurationName then
    F.launch_configuration(group.LaunchConfigurationName)
    return
  end
  local spec = template_spec(group)
  if not spec then
    -- AWS's ValidationError when none of the three is given.
    C.fail("Valid requests must contain either LaunchTemplate, LaunchConfigurationName, InstanceId or MixedInstancesPolicy parameter.",
      "ValidationError")
  end
  templates.resolve(spec)
end

---The identity of the configuration a new instance gets now:
---{ LaunchConfigurationName = … } or { LaunchTemplate = { Id, Name, Version = "<n>" } }.
function F.current(group)
  if group.LaunchConfigurationName then return { LaunchConfigurationName = group.LaunchConfigurationName } end
  local spec = template_spec(group)
  local _, rec, n = templates.resolve(spec)
  return { LaunchTemplate = { LaunchTemplateId = rec.LaunchTemplateId, LaunchTemplateName = rec.LaunchTemplateName,
                              Version = tostring(n) } }
end

---True when the instance entry was launched from `current` (F.current) and
---sits in one of the group's subnets.
function F.matches(entry, current, subnets)
  if current.LaunchConfigurationName then
    if entry.LaunchConfigurationName ~= current.LaunchConfigurationName then return false end
  else
    local lt = entry.LaunchTemplate
    if not lt or lt.LaunchTemplateId ~= current.LaunchTemplate.LaunchTemplateId
      or lt.Version ~= current.LaunchTemplate.Version then
      return false
    end
  end
  if subnets and entry._SubnetId and not subnets[entry._SubnetId] then return false end
  return true
end

-- True for an aws:-prefixed key (CloudFormation's aws:cloudformation:* on a
-- group it made): a service's own tag, which RunInstances' TagSpecifications
-- may not carry.
local function reserved(key)
  return key:sub(1, 4):lower() == "aws:"
end

-- Tags with PropagateAtLaunch, as TagSpecifications (aws: ones: service_tags).
local function propagated(group)
  local tags = {}
  for _, t in ipairs(group.Tags or {}) do
    if C.bool(t.PropagateAtLaunch) and not reserved(t.Key) then tags[#tags + 1] = { Key = t.Key, Value = t.Value } end
  end
  if #tags == 0 then return nil end
  return { { ResourceType = "instance", Tags = tags } }
end

-- A launch configuration's SecurityGroups are IDs (in a VPC) or names.
local function split_groups(list)
  local ids, names = {}, {}
  for _, g in ipairs(C.list(list)) do
    if type(g) == "string" and g:match("^sg%-") then ids[#ids + 1] = g else names[#names + 1] = g end
  end
  return ids, names
end

---The RunInstances request for `count` instances of the group in `subnet`
---(a subnet ID) or `zone` (an Availability Zone).
function F.run_request(group, count, subnet, zone)
  local p
  if group.LaunchConfigurationName then
    local lc = F.launch_configuration(group.LaunchConfigurationName)
    local ids, names = split_groups(lc.SecurityGroups)
    p = {
      ImageId = lc.ImageId, InstanceType = lc.InstanceType, KeyName = lc.KeyName, UserData = lc.UserData,
      SecurityGroupIds = ids, SecurityGroups = names, KernelId = lc.KernelId, RamdiskId = lc.RamdiskId,
      EbsOptimized = lc.EbsOptimized,
      IamInstanceProfile = lc.IamInstanceProfile and (lc.IamInstanceProfile:match("^arn:")
        and { Arn = lc.IamInstanceProfile } or { Name = lc.IamInstanceProfile }) or nil,
      Monitoring = lc.InstanceMonitoring and { Enabled = lc.InstanceMonitoring.Enabled } or nil,
    }
  else
    local data = templates.resolve(template_spec(group))
    p = {}
    for k, v in pairs(data) do p[k] = v end
    p.InstanceType = override_type(group) or p.InstanceType
    p.TagSpecifications = nil
  end
  p.MinCount, p.MaxCount = count, count
  if subnet then
    p.SubnetId = subnet  -- security group names resolve in the subnet's VPC
  else
    p.Placement = { AvailabilityZone = zone }
  end
  p.TagSpecifications = propagated(group)
  return p
end

---The tags AWS puts on every instance of a group, for RunInstances'
---service_tags: aws:autoscaling:groupName (EC2's state notices reach the
---group by it), and the group's aws:-prefixed tags that propagate at launch
---(CloudFormation's aws:cloudformation:* on a group it made: AWS documents
---that they are on "all Auto Scaling groups and associated instances").
function F.service_tags(group)
  local tags = { [ec2_instances.GROUP_TAG] = group.AutoScalingGroupName }
  for _, t in ipairs(group.Tags or {}) do
    if C.bool(t.PropagateAtLaunch) and reserved(t.Key) then tags[t.Key] = t.Value end
  end
  return tags
end

return F
