-- Contract-test fixture of AWS::EC2::Route (../route.lua): a default route to
-- an attached gateway, its target changed in place to a NAT gateway, then a
-- new destination (replacement).
local P = require("moonstack.provider")

return {
  setup = function(aws)
    local vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    local subnet = aws.ec2.CreateSubnet({ VpcId = vpc, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId
    local igw = aws.ec2.CreateInternetGateway({}).InternetGateway.InternetGatewayId
    aws.ec2.AttachInternetGateway({ InternetGatewayId = igw, VpcId = vpc })
    local eip = aws.ec2.AllocateAddress({ Domain = "vpc" }).AllocationId
    local nat = aws.ec2.CreateNatGateway({ SubnetId = subnet, AllocationId = eip }).NatGateway.NatGatewayId
    return { rt = aws.ec2.CreateRouteTable({ VpcId = vpc }).RouteTable.RouteTableId, igw = igw, nat = nat }
  end,
  create = function(v) return { RouteTableId = v.rt, DestinationCidrBlock = "0.0.0.0/0", GatewayId = v.igw } end,
  updates = {
    function(v) return { NatGatewayId = v.nat, GatewayId = P.null } end,                        -- none
    function(v) return { DestinationCidrBlock = "10.9.0.0/16", GatewayId = v.igw, NatGatewayId = P.null } end,  -- replace
  },
  verify = function(aws, id, props, attributes)
    local rt = aws.ec2.DescribeRouteTables({ RouteTableIds = { props.RouteTableId } }).RouteTables[1]
    local found
    for _, r in ipairs(rt.Routes) do if r.DestinationCidrBlock == props.DestinationCidrBlock then found = r end end
    assert(found, "no route to " .. props.DestinationCidrBlock)
    assert(found.GatewayId == props.GatewayId and found.NatGatewayId == props.NatGatewayId, "wrong target")
    assert(id == props.RouteTableId .. "|" .. props.DestinationCidrBlock, "id is " .. id)
    assert(attributes.CidrBlock == props.DestinationCidrBlock, "CidrBlock is " .. tostring(attributes.CidrBlock))
  end,
}
