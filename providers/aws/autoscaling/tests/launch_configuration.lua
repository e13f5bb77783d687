-- Contract-test fixture of AWS::AutoScaling::LaunchConfiguration
-- (../launch_configuration.lua): every change is a replacement.
return {
  create = { ImageId = "ami-0123456789abcdef0", InstanceType = "t3.micro", UserData = "IyEvYmluL2Jhc2g=" },
  updates = { { InstanceType = "t3.small" } },
  verify = function(aws, id, props)
    local lc = aws.autoscaling.DescribeLaunchConfigurations({ LaunchConfigurationNames = { id } }).LaunchConfigurations[1]
    assert(lc, "no launch configuration " .. id)
    assert(lc.InstanceType == props.InstanceType, "InstanceType is " .. tostring(lc.InstanceType))
    assert(lc.ImageId == props.ImageId, "ImageId is " .. tostring(lc.ImageId))
  end,
}
