-- The simulated EC2's internet gateways, route tables, routes, Elastic IPs,
-- NAT gateways, VPC endpoints and network ACLs: AWS's messages, the
-- references each checks and the deletes each refuses.
local H = require("harness")
local T = H.suite("sim ec2 gateways and routes")

local function vpc_and_subnet(sim, block)
  block = block or "10.0.0.0/16"
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = block }).Vpc.VpcId
  local subnet = sim.call("ec2", "CreateSubnet", { VpcId = vpc, CidrBlock = block:gsub("0%.0/16", "1.0/24") })
    .Subnet.SubnetId
  return vpc, subnet
end

local function igw(sim) return sim.call("ec2", "CreateInternetGateway", {}).InternetGateway.InternetGatewayId end

T.case("internet gateway: one per VPC, attached to one VPC; attached ones refuse delete and block the VPC's", function()
  local _, sim = fresh()
  local vpc = vpc_and_subnet(sim)
  local other = vpc_and_subnet(sim, "10.1.0.0/16")
  local g, g2 = igw(sim), igw(sim)
  H.match(g, "^igw%-0%x+$")
  sim.call("ec2", "AttachInternetGateway", { InternetGatewayId = g, VpcId = vpc })
  local e = H.raises(function() sim.call("ec2", "AttachInternetGateway", { InternetGatewayId = g, VpcId = other }) end,
    "resource " .. g .. " is already attached to network " .. vpc)
  H.eq(e.code, "Resource.AlreadyAssociated")
  e = H.raises(function() sim.call("ec2", "AttachInternetGateway", { InternetGatewayId = g2, VpcId = vpc }) end,
    "Network " .. vpc .. " already has an internet gateway attached")
  H.eq(e.code, "InvalidParameterValue")
  e = H.raises(function() sim.call("ec2", "DeleteInternetGateway", { InternetGatewayId = g }) end,
    "The internetGateway '" .. g .. "' has dependencies and cannot be deleted.")
  H.eq(e.code, "DependencyViolation")
  H.raises(function() sim.call("ec2", "DeleteVpc", { VpcId = vpc }) end,
    "The vpc '" .. vpc .. "' has dependencies and cannot be deleted.")
  local seen = sim.call("ec2", "DescribeInternetGateways", { Filters = {
    { Name = "attachment.vpc-id", Values = { vpc } } } }).InternetGateways
  H.eq(#seen, 1)
  H.same(seen[1].Attachments, { { VpcId = vpc, State = "available" } })
  e = H.raises(function() sim.call("ec2", "DetachInternetGateway", { InternetGatewayId = g, VpcId = other }) end,
    "resource " .. g .. " is not attached to network " .. other)
  H.eq(e.code, "Gateway.NotAttached")
  sim.call("ec2", "DetachInternetGateway", { InternetGatewayId = g, VpcId = vpc })
  sim.call("ec2", "AttachInternetGateway", { InternetGatewayId = g2, VpcId = vpc })  -- the VPC is free again
  sim.call("ec2", "DeleteInternetGateway", { InternetGatewayId = g })
  e = H.raises(function() sim.call("ec2", "DescribeInternetGateways", { InternetGatewayIds = { g } }) end,
    "The internetGateway ID '" .. g .. "' does not exist")
  H.eq(e.code, "InvalidInternetGatewayID.NotFound")
end)

T.case("routes: a gateway of another VPC or of none fails like AWS; duplicates, local route, blackholes", function()
  local _, sim = fresh()
  local vpc, subnet = vpc_and_subnet(sim)
  local rt = sim.call("ec2", "CreateRouteTable", { VpcId = vpc }).RouteTable
  H.match(rt.RouteTableId, "^rtb%-0%x+$")
  H.same(rt.Routes, { { DestinationCidrBlock = "10.0.0.0/16", GatewayId = "local", Origin = "CreateRouteTable",
                        State = "active" } })
  local g = igw(sim)
  local e = H.raises(function()
    sim.call("ec2", "CreateRoute", { RouteTableId = rt.RouteTableId, DestinationCidrBlock = "0.0.0.0/0", GatewayId = g })
  end, "route table " .. rt.RouteTableId .. " and network gateway " .. g .. " belong to different networks")
  H.eq(e.code, "InvalidParameterValue")
  local other = vpc_and_subnet(sim, "10.1.0.0/16")
  sim.call("ec2", "AttachInternetGateway", { InternetGatewayId = g, VpcId = other })
  H.raises(function()
    sim.call("ec2", "CreateRoute", { RouteTableId = rt.RouteTableId, DestinationCidrBlock = "0.0.0.0/0", GatewayId = g })
  end, "route table " .. rt.RouteTableId .. " and network gateway " .. g .. " belong to different networks")
  sim.call("ec2", "DetachInternetGateway", { InternetGatewayId = g, VpcId = other })
  sim.call("ec2", "AttachInternetGateway", { InternetGatewayId = g, VpcId = vpc })
  sim.call("ec2", "CreateRoute", { RouteTableId = rt.RouteTableId, DestinationCidrBlock = "0.0.0.0/0", GatewayId = g })
  e = H.raises(function()
    sim.call("ec2", "CreateRoute", { RouteTableId = rt.RouteTableId, DestinationCidrBlock = "0.0.0.0/0", GatewayId = g })
  end, "The route identified by 0.0.0.0/0 already exists.")
  H.eq(e.code, "RouteAlreadyExists")
  H.raises(function()
    sim.call("ec2", "CreateRoute", { RouteTableId = rt.RouteTableId, DestinationCidrBlock = "1.0.0.0/8",
      GatewayId = "igw-0123456789abcdef0" })
  end, "The gateway ID 'igw-0123456789abcdef0' does not exist")
  H.raises(function()
    sim.call("ec2", "DeleteRoute", { RouteTableId = rt.RouteTableId, DestinationCidrBlock = "10.0.0.0/16" })
  end, "cannot remove local route 10.0.0.0/16 in route table " .. rt.RouteTableId)
  e = H.raises(function()
    sim.call("ec2", "DeleteRoute", { RouteTableId = rt.RouteTableId, DestinationCidrBlock = "10.9.0.0/16" })
  end, "no route with destination-cidr-block 10.9.0.0/16 in route table " .. rt.RouteTableId)
  H.eq(e.code, "InvalidRoute.NotFound")
  sim.call("ec2", "DetachInternetGateway", { InternetGatewayId = g, VpcId = vpc })
  local routes = sim.call("ec2", "DescribeRouteTables", { RouteTableIds = { rt.RouteTableId } }).RouteTables[1].Routes
  H.eq(routes[2].State, "blackhole", "a route to a detached gateway")
  sim.call("ec2", "DeleteRoute", { RouteTableId = rt.RouteTableId, DestinationCidrBlock = "0.0.0.0/0" })
  H.eq(#sim.call("ec2", "DescribeRouteTables", { RouteTableIds = { rt.RouteTableId } }).RouteTables[1].Routes, 1)
  local _ = subnet
end)

T.case("route table associations: one per subnet, same VPC; an associated table refuses delete", function()
  local _, sim = fresh()
  local vpc, subnet = vpc_and_subnet(sim)
  local other_vpc, other_subnet = vpc_and_subnet(sim, "10.1.0.0/16")
  local rt = sim.call("ec2", "CreateRouteTable", { VpcId = vpc }).RouteTable.RouteTableId
  local rt2 = sim.call("ec2", "CreateRouteTable", { VpcId = vpc }).RouteTable.RouteTableId
  H.raises(function() sim.call("ec2", "AssociateRouteTable", { RouteTableId = rt, SubnetId = other_subnet }) end,
    "Route table " .. rt .. " and subnet " .. other_subnet .. " belong to different networks")
  local a = sim.call("ec2", "AssociateRouteTable", { RouteTableId = rt, SubnetId = subnet })
  H.match(a.AssociationId, "^rtbassoc%-0%x+$")
  H.eq(a.AssociationState.State, "associated")
  local e = H.raises(function() sim.call("ec2", "AssociateRouteTable", { RouteTableId = rt2, SubnetId = subnet }) end,
    "the specified association for route table " .. rt2 .. " conflicts with an existing association")
  H.eq(e.code, "Resource.AlreadyAssociated")
  e = H.raises(function() sim.call("ec2", "DeleteRouteTable", { RouteTableId = rt }) end,
    "The routeTable '" .. rt .. "' has dependencies and cannot be deleted.")
  H.eq(e.code, "DependencyViolation")
  local found = sim.call("ec2", "DescribeRouteTables", { Filters = {
    { Name = "association.subnet-id", Values = { subnet } } } }).RouteTables
  H.eq(#found, 1)
  H.eq(found[1].RouteTableId, rt)
  sim.call("ec2", "DisassociateRouteTable", { AssociationId = a.AssociationId })
  H.raises(function() sim.call("ec2", "DisassociateRouteTable", { AssociationId = a.AssociationId }) end,
    "The association ID '" .. a.AssociationId .. "' does not exist")
  sim.call("ec2", "AssociateRouteTable", { RouteTableId = rt2, SubnetId = subnet })
  sim.call("ec2", "DeleteSubnet", { SubnetId = subnet })  -- the association goes with the subnet
  sim.call("ec2", "DeleteRouteTable", { RouteTableId = rt2 })
  sim.call("ec2", "DeleteRouteTable", { RouteTableId = rt })
  H.raises(function() sim.call("ec2", "DeleteRouteTable", { RouteTableId = rt }) end,
    "The routeTable ID '" .. rt .. "' does not exist")
  local _ = other_vpc
end)

T.case("NAT gateway: needs an EIP, pending then available in simulated time; holds its subnet and address", function()
  local world, sim = fresh()
  local vpc, subnet = vpc_and_subnet(sim)
  H.raises(function() sim.call("ec2", "CreateNatGateway", { SubnetId = subnet }) end,
    "AllocationID is required for public NAT Gateway")
  local eip = sim.call("ec2", "AllocateAddress", { Domain = "vpc" })
  H.match(eip.AllocationId, "^eipalloc%-0%x+$")
  H.match(eip.PublicIp, "^%d+%.%d+%.%d+%.%d+$")
  local nat = sim.call("ec2", "CreateNatGateway", { SubnetId = subnet, AllocationId = eip.AllocationId }).NatGateway
  H.match(nat.NatGatewayId, "^nat%-0%x+$")
  H.eq(nat.State, "pending")
  H.eq(nat.NatGatewayAddresses[1].PublicIp, eip.PublicIp)
  H.raises(function() sim.call("ec2", "CreateNatGateway", { SubnetId = subnet, AllocationId = eip.AllocationId }) end,
    "Elastic IP address [" .. eip.AllocationId .. "] is already associated")
  world.set_now_ms(59 * 1000)
  H.eq(sim.call("ec2", "DescribeNatGateways", { NatGatewayIds = { nat.NatGatewayId } }).NatGateways[1].State, "pending")
  world.set_now_ms(60 * 1000)
  H.eq(sim.call("ec2", "DescribeNatGateways", { NatGatewayIds = { nat.NatGatewayId } }).NatGateways[1].State, "available")
  H.raises(function() sim.call("ec2", "ReleaseAddress", { AllocationId = eip.AllocationId }) end,
    "Address " .. eip.PublicIp .. " is in use.")
  H.raises(function() sim.call("ec2", "DeleteSubnet", { SubnetId = subnet }) end,
    "The subnet '" .. subnet .. "' has dependencies and cannot be deleted.")
  -- a route to it from a table of its VPC
  local rt = sim.call("ec2", "CreateRouteTable", { VpcId = vpc }).RouteTable.RouteTableId
  sim.call("ec2", "CreateRoute", { RouteTableId = rt, DestinationCidrBlock = "0.0.0.0/0", NatGatewayId = nat.NatGatewayId })
  sim.call("ec2", "DeleteNatGateway", { NatGatewayId = nat.NatGatewayId })
  H.eq(sim.call("ec2", "DescribeNatGateways", { NatGatewayIds = { nat.NatGatewayId } }).NatGateways[1].State, "deleting")
  world.set_now_ms(120 * 1000)
  H.eq(sim.call("ec2", "DescribeNatGateways", { NatGatewayIds = { nat.NatGatewayId } }).NatGateways[1].State, "deleted")
  sim.call("ec2", "ReleaseAddress", { AllocationId = eip.AllocationId })
  H.raises(function() sim.call("ec2", "DescribeAddresses", { AllocationIds = { eip.AllocationId } }) end,
    "The allocation ID '" .. eip.AllocationId .. "' does not exist")
  H.raises(function() sim.call("ec2", "DeleteNatGateway", { NatGatewayId = "nat-0123456789abcdef0" }) end,
    "The Nat Gateway nat-0123456789abcdef0 was not found")
end)

T.case("VPC endpoints and network ACLs: in their VPC, tagged, deletes", function()
  local _, sim = fresh()
  local vpc, subnet = vpc_and_subnet(sim)
  local rt = sim.call("ec2", "CreateRouteTable", { VpcId = vpc }).RouteTable.RouteTableId
  local e = sim.call("ec2", "CreateVpcEndpoint", { VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.s3",
    RouteTableIds = { rt } }).VpcEndpoint
  H.match(e.VpcEndpointId, "^vpce%-0%x+$")
  H.eq(e.VpcEndpointType, "Gateway")
  local i = sim.call("ec2", "CreateVpcEndpoint", { VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.sqs",
    VpcEndpointType = "Interface", SubnetIds = { subnet } }).VpcEndpoint
  H.eq(#i.NetworkInterfaceIds, 1)
  H.match(i.DnsEntries[1].DnsName, "^" .. i.VpcEndpointId:gsub("%-", "%%-") .. "%.sqs%.us%-east%-1%.vpce%.amazonaws%.com$")
  H.raises(function() sim.call("ec2", "DeleteSubnet", { SubnetId = subnet }) end,
    "The subnet '" .. subnet .. "' has dependencies and cannot be deleted.")
  H.raises(function() sim.call("ec2", "CreateVpcEndpoint", { VpcId = vpc, ServiceName = "s3" }) end,
    "The Vpc Endpoint Service 's3' does not exist")
  local r = sim.call("ec2", "DeleteVpcEndpoints", { VpcEndpointIds = { i.VpcEndpointId, "vpce-0123456789abcdef0" } })
  H.same(r.Unsuccessful, { { ResourceId = "vpce-0123456789abcdef0", Error = {
    Code = "InvalidVpcEndpointId.NotFound", Message = "The Vpc Endpoint Id 'vpce-0123456789abcdef0' does not exist" } } })
  local acl = sim.call("ec2", "CreateNetworkAcl", { VpcId = vpc, TagSpecifications = {
    { ResourceType = "network-acl", Tags = { { Key = "Name", Value = "private" } } } } }).NetworkAcl
  H.match(acl.NetworkAclId, "^acl%-0%x+$")
  H.eq(acl.IsDefault, false)
  local acls = sim.call("ec2", "DescribeNetworkAcls", { Filters = { { Name = "vpc-id", Values = { vpc } } } }).NetworkAcls
  H.eq(#acls, 2, "the default ACL and the new one")
  sim.call("ec2", "CreateTags", { Resources = { acl.NetworkAclId, e.VpcEndpointId }, Tags = { { Key = "k", Value = "v" } } })
  H.eq(#sim.call("ec2", "DescribeNetworkAcls", { Filters = { { Name = "tag:k", Values = { "v" } } } }).NetworkAcls, 1)
  H.raises(function() sim.call("ec2", "DeleteVpc", { VpcId = vpc }) end,
    "The vpc '" .. vpc .. "' has dependencies and cannot be deleted.")
  sim.call("ec2", "DeleteNetworkAcl", { NetworkAclId = acl.NetworkAclId })
  H.raises(function() sim.call("ec2", "DeleteNetworkAcl", { NetworkAclId = acl.NetworkAclId }) end,
    "The networkAcl ID '" .. acl.NetworkAclId .. "' does not exist")
end)

return T
