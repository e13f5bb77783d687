-- Contract-test fixture of AWS::EC2::Instance (../instance.lua):
--   moonstack provider test providers/aws/ec2/instance.lua
-- An EBS-backed instance in a subnet made in setup; updates of each kind:
-- tags and monitoring (no interruption), groups (some, no stop), the type
-- and the user data (some: stop, modify, start), the key pair (replacement).
local AMI = "ami-0123456789abcdef0"

local function one(aws, id)
  return aws.ec2.DescribeInstances({ InstanceIds = { id } }).Reservations[1].Instances[1]
end

return {
  setup = function(aws)
    local vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    local subnet = aws.ec2.CreateSubnet({ VpcId = vpc, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId
    local a = aws.ec2.CreateSecurityGroup({ GroupName = "a", Description = "a", VpcId = vpc }).GroupId
    local b = aws.ec2.CreateSecurityGroup({ GroupName = "b", Description = "b", VpcId = vpc }).GroupId
    return { subnet = subnet, a = a, b = b }
  end,
  create = function(v)
    return { ImageId = AMI, InstanceType = "t2.micro", SubnetId = v.subnet, SecurityGroupIds = { v.a },
             UserData = "YQ==", Tags = { { Key = "Name", Value = "web" } } }
  end,
  updates = function(v)
    return {
      { Tags = { { Key = "Name", Value = "web2" } }, Monitoring = true },  -- none
      { SecurityGroupIds = { v.b } },                                     -- some (no stop in a VPC)
      { InstanceType = "t2.small" },                                      -- some: EBS-backed
      { UserData = "Yg==" },                                              -- some: EBS-backed
      { KeyName = "other" },                                              -- replace
    }
  end,
  verify = function(aws, id, props, attributes)
    local i = one(aws, id)
    assert(i.State.Name == "running", id .. " is " .. i.State.Name)
    assert(i.InstanceType == (props.InstanceType or "m1.small"), "InstanceType is " .. i.InstanceType)
    assert(i.ImageId == props.ImageId, "ImageId is " .. i.ImageId)
    assert(i.SubnetId == props.SubnetId, "SubnetId is " .. tostring(i.SubnetId))
    assert(i.KeyName == props.KeyName, "KeyName is " .. tostring(i.KeyName))
    assert(#i.SecurityGroups == 1 and i.SecurityGroups[1].GroupId == props.SecurityGroupIds[1], "wrong groups")
    assert(i.Monitoring.State == (props.Monitoring and "enabled" or "disabled"), "monitoring is " .. i.Monitoring.State)
    local ud = aws.ec2.DescribeInstanceAttribute({ InstanceId = id, Attribute = "userData" }).UserData.Value
    assert(ud == props.UserData, "UserData is " .. tostring(ud))
    -- the template's tags, and CloudFormation's aws:cloudformation:* ones
    local own, cfn_tags = {}, 0
    for _, t in ipairs(i.Tags) do
      if t.Key:match("^aws:cloudformation:") then cfn_tags = cfn_tags + 1 else own[#own + 1] = t end
    end
    assert(#own == #props.Tags and own[1].Value == props.Tags[1].Value, "wrong tags")
    assert(cfn_tags == 3, "aws:cloudformation:* tags: " .. cfn_tags)
    assert(attributes.InstanceId == id, "InstanceId is not the physical id")
    assert(attributes.PrivateIp == i.PrivateIpAddress, "PrivateIp is " .. tostring(attributes.PrivateIp))
  end,
}
