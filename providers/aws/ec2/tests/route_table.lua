-- Contract-test fixture of AWS::EC2::RouteTable (../route_table.lua): tags in
-- place, then another VPC (replacement).
return {
  setup = function(aws)
    return { vpc1 = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId,
             vpc2 = aws.ec2.CreateVpc({ CidrBlock = "10.1.0.0/16" }).Vpc.VpcId }
  end,
  create = function(v) return { VpcId = v.vpc1 } end,
  updates = {
    function(v) return { VpcId = v.vpc1, Tags = { { Key = "Name", Value = "public" } } } end,  -- none
    function(v) return { VpcId = v.vpc2 } end,                                                -- replace
  },
  verify = function(aws, id, props, attributes)
    local rt = aws.ec2.DescribeRouteTables({ RouteTableIds = { id } }).RouteTables[1]
    assert(rt.VpcId == props.VpcId, "VpcId is " .. rt.VpcId)
    assert(attributes.RouteTableId == id, "RouteTableId is " .. tostring(attributes.RouteTableId))
  end,
}
