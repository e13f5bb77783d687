-- Contract-test fixture of AWS::EC2::SecurityGroupEgress
-- (../security_group_egress.lua): a rule to a CIDR; its description in
-- place, then another destination (replacement).
return {
  setup = function(aws)
    local vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    return { group = aws.ec2.CreateSecurityGroup({ GroupName = "g", Description = "g", VpcId = vpc }).GroupId }
  end,
  create = function(v)
    return { GroupId = v.group, IpProtocol = "udp", FromPort = 53, ToPort = 53, CidrIp = "10.0.0.2/32" }
  end,
  updates = {
    { Description = "dns" },          -- none
    { CidrIp = "10.0.0.3/32" },       -- replace
  },
  verify = function(aws, id, props, attributes)
    local r = aws.ec2.DescribeSecurityGroupRules({ SecurityGroupRuleIds = { id } }).SecurityGroupRules[1]
    assert(r.GroupId == props.GroupId and r.IsEgress, "not an egress rule of the group")
    assert(r.CidrIpv4 == props.CidrIp, "CidrIp is " .. tostring(r.CidrIpv4))
    assert(r.Description == props.Description, "Description is " .. tostring(r.Description))
  end,
}
