-- Contract-test fixture of AWS::AutoScaling::LifecycleHook
-- (../lifecycle_hook.lua): a launching hook on a group made in setup.
return {
  setup = function(aws)
    aws.autoscaling.CreateLaunchConfiguration({ LaunchConfigurationName = "lc",
      ImageId = "ami-0123456789abcdef0", InstanceType = "t3.micro" })
    aws.autoscaling.CreateAutoScalingGroup({ AutoScalingGroupName = "g", LaunchConfigurationName = "lc",
      MinSize = 0, MaxSize = 3, DesiredCapacity = 0, AvailabilityZones = { "us-east-1a" } })
    return {}
  end,
  create = { AutoScalingGroupName = "g", LifecycleTransition = "autoscaling:EC2_INSTANCE_LAUNCHING" },
  updates = {
    { HeartbeatTimeout = 600, DefaultResult = "CONTINUE" },   -- none
    { LifecycleHookName = "renamed-hook" },                   -- replace
  },
  verify = function(aws, id, props)
    local h = aws.autoscaling.DescribeLifecycleHooks({ AutoScalingGroupName = props.AutoScalingGroupName,
      LifecycleHookNames = { id } }).LifecycleHooks[1]
    assert(h, "no hook " .. id)
    assert(h.HeartbeatTimeout == (props.HeartbeatTimeout or 3600), "HeartbeatTimeout is " .. tostring(h.HeartbeatTimeout))
  end,
}
