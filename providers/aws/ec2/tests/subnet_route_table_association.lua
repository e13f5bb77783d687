-- Contract-test fixture of AWS::EC2::SubnetRouteTableAssociation
-- (../subnet_route_table_association.lua): another table and back (each a
-- replacement, made while the old association still holds the subnet).
return {
  setup = function(aws)
    local vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    return { subnet = aws.ec2.CreateSubnet({ VpcId = vpc, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId,
             rt1 = aws.ec2.CreateRouteTable({ VpcId = vpc }).RouteTable.RouteTableId,
             rt2 = aws.ec2.CreateRouteTable({ VpcId = vpc }).RouteTable.RouteTableId }
  end,
  create = function(v) return { SubnetId = v.subnet, RouteTableId = v.rt1 } end,
  updates = {
    function(v) return { SubnetId = v.subnet, RouteTableId = v.rt2 } end,  -- replace
    function(v) return { SubnetId = v.subnet, RouteTableId = v.rt1 } end,  -- replace, back
  },
  verify = function(aws, id, props, attributes)
    local rt = aws.ec2.DescribeRouteTables({ Filters = { { Name = "association.subnet-id", Values = { props.SubnetId } } } })
      .RouteTables[1]
    assert(rt and rt.RouteTableId == props.RouteTableId, "the subnet is not associated with " .. props.RouteTableId)
    assert(attributes.Id == id, "Id is " .. tostring(attributes.Id))
  end,
}
