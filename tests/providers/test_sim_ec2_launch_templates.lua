-- Launch templates in the simulated EC2: numbered versions, $Latest and
-- $Default, AWS's messages; a group launching from a template version.
local H = require("harness")
local T = H.suite("sim ec2 launch templates")

local AMI = "ami-0123456789abcdef0"

local function ec2(sim, action, p) return sim.call("ec2", action, p) end

T.case("versions are numbered; $Latest and $Default resolve; ModifyLaunchTemplate moves the default", function()
  local _, sim = fresh()
  local lt = ec2(sim, "CreateLaunchTemplate", { LaunchTemplateName = "web",
    LaunchTemplateData = { ImageId = AMI, InstanceType = "t3.micro" } }).LaunchTemplate
  H.match(lt.LaunchTemplateId, "^lt%-0%x+$")
  H.eq(lt.LatestVersionNumber, 1)
  H.eq(lt.DefaultVersionNumber, 1)
  local v2 = ec2(sim, "CreateLaunchTemplateVersion", { LaunchTemplateId = lt.LaunchTemplateId, SourceVersion = "1",
    LaunchTemplateData = { InstanceType = "t3.small" } }).LaunchTemplateVersion
  H.eq(v2.VersionNumber, 2)
  H.same(v2.LaunchTemplateData, { ImageId = AMI, InstanceType = "t3.small" })
  H.eq(v2.DefaultVersion, false)
  local function versions(list)
    local out = {}
    for _, v in ipairs(ec2(sim, "DescribeLaunchTemplateVersions", { LaunchTemplateName = "web", Versions = list })
      .LaunchTemplateVersions) do out[#out + 1] = v.VersionNumber end
    return out
  end
  H.same(versions({ "$Latest", "$Default" }), { 2, 1 })
  H.same(versions(nil), { 2, 1 })
  ec2(sim, "ModifyLaunchTemplate", { LaunchTemplateName = "web", DefaultVersion = "2" })
  H.same(versions({ "$Default" }), { 2 })
  local d = ec2(sim, "DescribeLaunchTemplates", { LaunchTemplateNames = { "web" } }).LaunchTemplates[1]
  H.eq(d.LatestVersionNumber, 2)
  H.eq(d.DefaultVersionNumber, 2)
end)

T.case("AWS's messages: a name in use, unknown templates and versions", function()
  local _, sim = fresh()
  local id = ec2(sim, "CreateLaunchTemplate", { LaunchTemplateName = "web",
    LaunchTemplateData = { ImageId = AMI } }).LaunchTemplate.LaunchTemplateId
  H.raises(function() ec2(sim, "CreateLaunchTemplate", { LaunchTemplateName = "web", LaunchTemplateData = {} }) end,
    "Launch template name already in use.")
  H.raises(function() ec2(sim, "DescribeLaunchTemplates", { LaunchTemplateNames = { "nope" } }) end,
    "The specified launch template, with template name nope, does not exist.")
  H.raises(function() ec2(sim, "DeleteLaunchTemplate", { LaunchTemplateId = "lt-0123456789abcdef0" }) end,
    "The specified launch template, with template ID lt-0123456789abcdef0, does not exist.")
  H.raises(function() ec2(sim, "DescribeLaunchTemplateVersions", { LaunchTemplateId = id, Versions = { "7" } }) end,
    "Could not find launch template version 7 for template " .. id .. ".")
  ec2(sim, "DeleteLaunchTemplate", { LaunchTemplateName = "web" })
  ec2(sim, "CreateLaunchTemplate", { LaunchTemplateName = "web", LaunchTemplateData = { ImageId = AMI } })
end)

T.case("a group launches from the version its LaunchTemplate names; instances record the number", function()
  local _, sim = fresh()
  local id = ec2(sim, "CreateLaunchTemplate", { LaunchTemplateName = "web",
    LaunchTemplateData = { ImageId = AMI, InstanceType = "t3.micro" } }).LaunchTemplate.LaunchTemplateId
  ec2(sim, "CreateLaunchTemplateVersion", { LaunchTemplateId = id, LaunchTemplateData = { ImageId = AMI, InstanceType = "t3.large" } })
  sim.call("autoscaling", "CreateAutoScalingGroup", { AutoScalingGroupName = "g", MinSize = 1, MaxSize = 2,
    LaunchTemplate = { LaunchTemplateName = "web", Version = "$Latest" }, AvailabilityZones = { "us-east-1a" } })
  local i = sim.call("autoscaling", "DescribeAutoScalingGroups", {}).AutoScalingGroups[1].Instances[1]
  H.same(i.LaunchTemplate, { LaunchTemplateId = id, LaunchTemplateName = "web", Version = "2" })
  H.eq(i.InstanceType, "t3.large")
end)

return T
