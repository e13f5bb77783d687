-- Contract-test fixture of AWS::AutoScaling::ScheduledAction
-- (../scheduled_action.lua): a recurring action on a group made in setup.
return {
  setup = function(aws)
    aws.autoscaling.CreateLaunchConfiguration({ LaunchConfigurationName = "lc",
      ImageId = "ami-0123456789abcdef0", InstanceType = "t3.micro" })
    for _, g in ipairs({ "g", "other" }) do
      aws.autoscaling.CreateAutoScalingGroup({ AutoScalingGroupName = g, LaunchConfigurationName = "lc",
        MinSize = 0, MaxSize = 3, DesiredCapacity = 0, AvailabilityZones = { "us-east-1a" } })
    end
    return {}
  end,
  create = { AutoScalingGroupName = "g", Recurrence = "0 9 * * *", DesiredCapacity = 2 },
  updates = {
    { DesiredCapacity = 3 },              -- none
    { AutoScalingGroupName = "other" },   -- replace
  },
  verify = function(aws, id, props)
    local s = aws.autoscaling.DescribeScheduledActions({ AutoScalingGroupName = props.AutoScalingGroupName,
      ScheduledActionNames = { id } }).ScheduledUpdateGroupActions[1]
    assert(s, "no scheduled action " .. id)
    assert(s.DesiredCapacity == props.DesiredCapacity, "DesiredCapacity is " .. tostring(s.DesiredCapacity))
  end,
}
