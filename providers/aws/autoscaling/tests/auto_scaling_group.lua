-- Contract-test fixture of AWS::AutoScaling::AutoScalingGroup
-- (../auto_scaling_group.lua): a group of one instance in a subnet made in
-- setup; sizes and the launch configuration in place (no UpdatePolicy: the
-- instances keep their configuration), a new name replaces.
return {
  setup = function(aws)
    local vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    local subnet = aws.ec2.CreateSubnet({ VpcId = vpc, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId
    for _, name in ipairs({ "lc-a", "lc-b" }) do
      aws.autoscaling.CreateLaunchConfiguration({ LaunchConfigurationName = name,
        ImageId = "ami-0123456789abcdef0", InstanceType = "t3.micro" })
    end
    return { subnet = subnet }
  end,
  create = function(v)
    return { LaunchConfigurationName = "lc-a", MinSize = 1, MaxSize = 2, VPCZoneIdentifier = { v.subnet } }
  end,
  updates = {
    { MaxSize = 3, LaunchConfigurationName = "lc-b" },  -- none
    { AutoScalingGroupName = "renamed-group" },         -- replace
  },
  verify = function(aws, id, props)
    local g = aws.autoscaling.DescribeAutoScalingGroups({ AutoScalingGroupNames = { id } }).AutoScalingGroups[1]
    assert(g, "no group " .. id)
    assert(g.MaxSize == props.MaxSize, "MaxSize is " .. tostring(g.MaxSize))
    assert(g.LaunchConfigurationName == props.LaunchConfigurationName, "LaunchConfigurationName is "
      .. tostring(g.LaunchConfigurationName))
    assert(#g.Instances == 1, #g.Instances .. " instances")
  end,
}
