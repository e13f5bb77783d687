-- Contract-test fixture of AWS::EC2::LaunchTemplate (../launch_template.lua):
-- a data change adds a version and makes it the default; a new name replaces.
return {
  create = { LaunchTemplateData = { ImageId = "ami-0123456789abcdef0", InstanceType = "t3.micro" } },
  updates = {
    { LaunchTemplateData = { ImageId = "ami-0123456789abcdef0", InstanceType = "t3.small" } },  -- none
    { LaunchTemplateName = "renamed-template" },                                                 -- replace
  },
  verify = function(aws, id, props, attributes)
    local v = aws.ec2.DescribeLaunchTemplateVersions({ LaunchTemplateId = id, Versions = { "$Default" } })
      .LaunchTemplateVersions[1]
    assert(v.LaunchTemplateData.InstanceType == props.LaunchTemplateData.InstanceType,
      "default version's InstanceType is " .. tostring(v.LaunchTemplateData.InstanceType))
    assert(attributes.DefaultVersionNumber == tostring(v.VersionNumber), "DefaultVersionNumber is "
      .. tostring(attributes.DefaultVersionNumber))
    assert(attributes.LaunchTemplateId == id, "LaunchTemplateId is " .. tostring(attributes.LaunchTemplateId))
  end,
}
