-- Contract-test fixture of AWS::EC2::SecurityGroupIngress
-- (../security_group_ingress.lua): a rule from another group; its
-- description in place, then new ports (replacement).
return {
  setup = function(aws)
    local vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    return {
      group = aws.ec2.CreateSecurityGroup({ GroupName = "target", Description = "t", VpcId = vpc }).GroupId,
      source = aws.ec2.CreateSecurityGroup({ GroupName = "source", Description = "s", VpcId = vpc }).GroupId,
    }
  end,
  create = function(v)
    return { GroupId = v.group, IpProtocol = "tcp", FromPort = 8080, ToPort = 8080, SourceSecurityGroupId = v.source }
  end,
  updates = {
    { Description = "app" },              -- none
    { FromPort = 9090, ToPort = 9090 },   -- replace
  },
  verify = function(aws, id, props, attributes)
    local r = aws.ec2.DescribeSecurityGroupRules({ SecurityGroupRuleIds = { id } }).SecurityGroupRules[1]
    assert(r.GroupId == props.GroupId and not r.IsEgress, "not an ingress rule of the group")
    assert(r.FromPort == props.FromPort and r.ToPort == props.ToPort, "ports differ")
    assert(r.ReferencedGroupInfo.GroupId == props.SourceSecurityGroupId, "wrong source group")
    assert(r.Description == props.Description, "Description is " .. tostring(r.Description))
    assert(attributes.Id == id, "Id is not the rule ID")
  end,
}
