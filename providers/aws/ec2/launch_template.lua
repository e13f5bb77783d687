-- AWS::EC2::LaunchTemplate on the simulated EC2.
--
-- Update behaviours (the CloudFormation reference, "Update requires"):
-- LaunchTemplateName is Replacement (the registry schema's only
-- create-only property); LaunchTemplateData, VersionDescription and
-- TagSpecifications are No interruption — an update
-- creates a new version (CreateLaunchTemplateVersion) and makes it the
-- default (ModifyLaunchTemplate), as the CloudFormation handler does, so a
-- group naming `Version: !GetAtt LT.LatestVersionNumber` sees the change and
-- runs its update policy (seed 004).
-- Ref is the template ID; Fn::GetAtt gives LaunchTemplateId,
-- LatestVersionNumber and DefaultVersionNumber, the numbers as strings
-- (CloudFormation's attribute values are strings: "1", "2"). Without
-- LaunchTemplateName the name is "<stack>-<logical>-<random>".

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local cfn = require("sim.ec2.cfn")

local function attributes(t)
  return { LaunchTemplateId = t.LaunchTemplateId, LatestVersionNumber = tostring(t.LatestVersionNumber),
           DefaultVersionNumber = tostring(t.DefaultVersionNumber) }
end

local function describe(ec2, id)
  local res = cfn.unless_gone(ec2.DescribeLaunchTemplates, { LaunchTemplateIds = { id } })
  return res and res.LaunchTemplates[1] or nil
end

return P.define {
  type = "AWS::EC2::LaunchTemplate",
  properties = {
    P.json "LaunchTemplateData" { required = true, update = "none" },
    P.string "LaunchTemplateName" { update = "replace" },
    P.json "TagSpecifications" { update = "none" },  -- kept at creation; EC2 has no tag update for templates here
    P.string "VersionDescription" { update = "none" },
  },
  attributes = { "DefaultVersionNumber", "LatestVersionNumber", "LaunchTemplateId" },
  primary_identifier = "LaunchTemplateId",

  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    local t = ec2.CreateLaunchTemplate {
      LaunchTemplateName = props.LaunchTemplateName or names.physical(ctx.stack_name, ctx.logical_id, 128),
      LaunchTemplateData = props.LaunchTemplateData, VersionDescription = props.VersionDescription,
      TagSpecifications = props.TagSpecifications,
    }.LaunchTemplate
    return { id = t.LaunchTemplateId, attributes = attributes(t) }
  end,

  update = function(ctx, id, new)
    local ec2 = cfn.ec2(ctx)
    local v = ec2.CreateLaunchTemplateVersion { LaunchTemplateId = id, LaunchTemplateData = new.LaunchTemplateData,
      VersionDescription = new.VersionDescription }.LaunchTemplateVersion
    local t = ec2.ModifyLaunchTemplate { LaunchTemplateId = id, DefaultVersion = tostring(v.VersionNumber) }.LaunchTemplate
    return { attributes = attributes(t) }
  end,

  delete = function(ctx, id)
    cfn.unless_gone(cfn.ec2(ctx).DeleteLaunchTemplate, { LaunchTemplateId = id })
  end,

  read = function(ctx, id, props)
    local ec2 = cfn.ec2(ctx)
    local t = describe(ec2, id)
    if not t then return nil end
    local v = ec2.DescribeLaunchTemplateVersions { LaunchTemplateId = id, Versions = { "$Default" } }
      .LaunchTemplateVersions[1]
    local out = {}
    for k, val in pairs(props or {}) do out[k] = val end
    out.LaunchTemplateData = v.LaunchTemplateData
    return { properties = out, attributes = attributes(t) }
  end,
}
