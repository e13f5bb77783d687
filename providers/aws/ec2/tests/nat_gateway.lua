-- Contract-test fixture of AWS::EC2::NatGateway (../nat_gateway.lua): tags in
-- place, then another subnet (replacement).
return {
  setup = function(aws)
    local vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    return { s1 = aws.ec2.CreateSubnet({ VpcId = vpc, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId,
             s2 = aws.ec2.CreateSubnet({ VpcId = vpc, CidrBlock = "10.0.2.0/24" }).Subnet.SubnetId,
             e1 = aws.ec2.AllocateAddress({}).AllocationId, e2 = aws.ec2.AllocateAddress({}).AllocationId }
  end,
  create = function(v) return { SubnetId = v.s1, AllocationId = v.e1 } end,
  updates = {
    function(v) return { SubnetId = v.s1, AllocationId = v.e1, Tags = { { Key = "Name", Value = "a" } } } end,  -- none
    function(v) return { SubnetId = v.s2, AllocationId = v.e2 } end,                                           -- replace
  },
  verify = function(aws, id, props, attributes)
    local g = aws.ec2.DescribeNatGateways({ NatGatewayIds = { id } }).NatGateways[1]
    assert(g.State == "available", "State is " .. tostring(g.State))
    assert(g.SubnetId == props.SubnetId, "SubnetId is " .. g.SubnetId)
    assert(attributes.NatGatewayId == id, "NatGatewayId is " .. tostring(attributes.NatGatewayId))
  end,
}
