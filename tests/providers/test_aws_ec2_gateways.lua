-- AWS::EC2::InternetGateway, ::VPCGatewayAttachment, ::RouteTable, ::Route,
-- ::SubnetRouteTableAssociation, ::EIP, ::NatGateway, ::VPCEndpoint and
-- ::NetworkAcl driven as the engine drives them: Ref/GetAtt formats, update
-- behaviours, the route-to-an-unattached-gateway failure, delete refusals,
-- read after out-of-band changes.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws ec2 gateways and routes")

local function create(world, sim, name, props, logical)
  local decl = D.load("ec2/" .. name)
  local ctx = D.context(sim, logical or name)
  local r = D.run(world, decl, "create", ctx, decl:validate(props, ctx))
  return r, decl, ctx
end

local function network(world, sim)
  local vpc = create(world, sim, "vpc", { CidrBlock = "10.0.0.0/16" }).id
  local subnet = create(world, sim, "subnet", { VpcId = vpc, CidrBlock = "10.0.1.0/24" }).id
  return vpc, subnet
end

T.case("a public subnet: gateway, attachment, route table, default route, association", function()
  local world, sim = fresh()
  local vpc, subnet = network(world, sim)
  local igw = create(world, sim, "internet_gateway", { Tags = { { Key = "Name", Value = "gw" } } })
  H.match(igw.id, "^igw%-0%x+$")
  H.eq(igw.attributes.InternetGatewayId, igw.id)
  local rt = create(world, sim, "route_table", { VpcId = vpc })
  H.match(rt.id, "^rtb%-0%x+$")
  H.eq(rt.attributes.RouteTableId, rt.id)
  -- the route before the attachment: EC2's answer, as CloudFormation shows it
  local decl = D.load("ec2/route")
  local ctx = D.context(sim, "DefaultRoute")
  local props = decl:validate({ RouteTableId = rt.id, DestinationCidrBlock = "0.0.0.0/0", GatewayId = igw.id }, ctx)
  H.eq(D.failure(function() D.run(world, decl, "create", ctx, props) end),
    "route table " .. rt.id .. " and network gateway " .. igw.id .. " belong to different networks")
  local att, att_decl, att_ctx = create(world, sim, "vpc_gateway_attachment", { VpcId = vpc, InternetGatewayId = igw.id })
  H.eq(att.id, "IGW|" .. vpc)
  H.eq(att.attributes.AttachmentType, "IGW")
  local route = D.run(world, decl, "create", ctx, props)
  H.eq(route.id, rt.id .. "|0.0.0.0/0")
  H.eq(route.attributes.CidrBlock, "0.0.0.0/0")
  local assoc = create(world, sim, "subnet_route_table_association", { RouteTableId = rt.id, SubnetId = subnet })
  H.match(assoc.id, "^rtbassoc%-0%x+$")
  H.eq(assoc.attributes.Id, assoc.id)
  -- delete refusals while in use
  local igw_decl = D.load("ec2/internet_gateway")
  H.eq(D.failure(function() D.run(world, igw_decl, "delete", D.context(sim, "Igw"), igw.id, {}) end),
    "The internetGateway '" .. igw.id .. "' has dependencies and cannot be deleted.")
  local rt_decl = D.load("ec2/route_table")
  H.eq(D.failure(function() D.run(world, rt_decl, "delete", D.context(sim, "Rt"), rt.id, {}) end),
    "The routeTable '" .. rt.id .. "' has dependencies and cannot be deleted.")
  -- read sees the route; an out-of-band DeleteRoute makes it gone
  H.eq(D.run(world, decl, "read", ctx, route.id, props).properties.GatewayId, igw.id)
  sim.call("ec2", "DeleteRoute", { RouteTableId = rt.id, DestinationCidrBlock = "0.0.0.0/0" })
  H.eq(D.run(world, decl, "read", ctx, route.id, props), nil)
  -- the stack's delete, in dependency order
  D.run(world, D.load("ec2/subnet_route_table_association"), "delete", D.context(sim, "A"), assoc.id,
    { RouteTableId = rt.id, SubnetId = subnet })
  D.run(world, decl, "delete", ctx, route.id, props)  -- already gone: deleted
  D.run(world, att_decl, "delete", att_ctx, att.id, { VpcId = vpc, InternetGatewayId = igw.id })
  D.run(world, igw_decl, "delete", D.context(sim, "Igw"), igw.id, {})
  D.run(world, rt_decl, "delete", D.context(sim, "Rt"), rt.id, {})
  H.eq(#sim.call("ec2", "DescribeInternetGateways", {}).InternetGateways, 0)
end)

T.case("update behaviours: route targets in place, destinations and tables replace; attachment gateway in place", function()
  local world, sim = fresh()
  local vpc = network(world, sim)
  local route = D.load("ec2/route")
  local ctx = D.context(sim, "R")
  local old = { RouteTableId = "rtb-1", DestinationCidrBlock = "0.0.0.0/0", GatewayId = "igw-1" }
  local function behaviour(decl, a, b) return (decl:change(a, b, ctx)) end
  H.eq(behaviour(route, old, { RouteTableId = "rtb-1", DestinationCidrBlock = "0.0.0.0/0", NatGatewayId = "nat-1" }), "none")
  H.eq(behaviour(route, old, { RouteTableId = "rtb-1", DestinationCidrBlock = "10.0.0.0/8", GatewayId = "igw-1" }), "replace")
  H.eq(behaviour(route, old, { RouteTableId = "rtb-2", DestinationCidrBlock = "0.0.0.0/0", GatewayId = "igw-1" }), "replace")
  local att = D.load("ec2/vpc_gateway_attachment")
  H.eq(behaviour(att, { VpcId = "vpc-1", InternetGatewayId = "igw-1" }, { VpcId = "vpc-1", InternetGatewayId = "igw-2" }), "none")
  H.eq(behaviour(att, { VpcId = "vpc-1", InternetGatewayId = "igw-1" }, { VpcId = "vpc-2", InternetGatewayId = "igw-1" }), "replace")
  H.eq(behaviour(D.load("ec2/nat_gateway"), { SubnetId = "s-1" }, { SubnetId = "s-2" }), "replace")
  H.eq(behaviour(D.load("ec2/route_table"), { VpcId = "v" }, { VpcId = "v", Tags = { { Key = "a", Value = "b" } } }), "none")
  -- the attachment's gateway swapped in place: the old one is detached
  local g1, g2 = create(world, sim, "internet_gateway", {}).id, create(world, sim, "internet_gateway", {}).id
  local a, decl, actx = create(world, sim, "vpc_gateway_attachment", { VpcId = vpc, InternetGatewayId = g1 })
  D.run(world, decl, "update", actx, a.id, { VpcId = vpc, InternetGatewayId = g2 }, { VpcId = vpc, InternetGatewayId = g1 },
    { "InternetGatewayId" })
  local gws = sim.call("ec2", "DescribeInternetGateways", { InternetGatewayIds = { g1, g2 } }).InternetGateways
  H.same(gws[1].Attachments, {})
  H.same(gws[2].Attachments, { { VpcId = vpc, State = "available" } })
  H.eq(D.failure(function() create(world, sim, "vpc_gateway_attachment", { VpcId = vpc, InternetGatewayId = g1 }) end),
    "Network " .. vpc .. " already has an internet gateway attached")
  -- a route's target changed in place (ReplaceRoute)
  local rt = create(world, sim, "route_table", { VpcId = vpc }).id
  local r, rdecl, rctx = create(world, sim, "route", { RouteTableId = rt, DestinationCidrBlock = "0.0.0.0/0", GatewayId = g2 })
  local eip = create(world, sim, "eip", {})
  local subnet = sim.call("ec2", "DescribeSubnets", { Filters = { { Name = "vpc-id", Values = { vpc } } } }).Subnets[1].SubnetId
  local nat = create(world, sim, "nat_gateway", { SubnetId = subnet, AllocationId = eip.attributes.AllocationId }).id
  D.run(world, rdecl, "update", rctx, r.id, { RouteTableId = rt, DestinationCidrBlock = "0.0.0.0/0", NatGatewayId = nat },
    { RouteTableId = rt, DestinationCidrBlock = "0.0.0.0/0", GatewayId = g2 }, { "GatewayId", "NatGatewayId" })
  local routes = sim.call("ec2", "DescribeRouteTables", { RouteTableIds = { rt } }).RouteTables[1].Routes
  H.eq(routes[2].NatGatewayId, nat)
  H.eq(routes[2].GatewayId, nil)
end)

T.case("EIP and NAT gateway: Ref formats, the NAT waits for available in simulated time, delete waits for deleted", function()
  local world, sim = fresh()
  local _, subnet = network(world, sim)
  local eip = create(world, sim, "eip", { Domain = "vpc" })
  H.match(eip.id, "^%d+%.%d+%.%d+%.%d+$", "Ref is the public IP")
  H.eq(eip.attributes.PublicIp, eip.id)
  H.match(eip.attributes.AllocationId, "^eipalloc%-0%x+$")
  local decl = D.load("ec2/nat_gateway")
  local ctx = D.context(sim, "Nat")
  local props = decl:validate({ SubnetId = subnet, AllocationId = eip.attributes.AllocationId }, ctx)
  local r, trace = D.run(world, decl, "create", ctx, props)
  H.match(r.id, "^nat%-0%x+$")
  H.eq(r.attributes.NatGatewayId, r.id)
  H.eq(trace.seconds, 60, "pending for 60 simulated seconds")
  H.eq(sim.call("ec2", "DescribeNatGateways", { NatGatewayIds = { r.id } }).NatGateways[1].State, "available")
  -- the EIP in use cannot be released
  local eip_decl = D.load("ec2/eip")
  H.eq(D.failure(function() D.run(world, eip_decl, "delete", D.context(sim, "Eip"), eip.id, {}) end),
    "Address " .. eip.id .. " is in use.")
  local _, dtrace = D.run(world, decl, "delete", ctx, r.id, props)
  H.eq(dtrace.seconds, 60)
  H.eq(D.run(world, decl, "read", ctx, r.id, props), nil)
  D.run(world, eip_decl, "delete", D.context(sim, "Eip"), eip.id, {})
  H.eq(D.run(world, eip_decl, "read", D.context(sim, "Eip"), eip.id, {}), nil)
  H.eq(D.failure(function() create(world, sim, "nat_gateway", { SubnetId = subnet }) end),
    "AllocationID is required for public NAT Gateway")
end)

T.case("VPC endpoint and network ACL: Ref, attributes, in-place route table changes, read", function()
  local world, sim = fresh()
  local vpc, subnet = network(world, sim)
  local rt1 = create(world, sim, "route_table", { VpcId = vpc }).id
  local rt2 = create(world, sim, "route_table", { VpcId = vpc }).id
  local e, decl, ctx = create(world, sim, "vpc_endpoint", { VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.s3",
    RouteTableIds = { rt1 } })
  H.match(e.id, "^vpce%-0%x+$")
  H.eq(e.attributes.Id, e.id)
  H.match(e.attributes.CreationTimestamp, "^%d%d%d%d%-%d%d%-%d%dT")
  H.eq(decl:change({ ServiceName = "a", VpcId = vpc }, { ServiceName = "b", VpcId = vpc }, ctx), "replace")
  D.run(world, decl, "update", ctx, e.id, { VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.s3", RouteTableIds = { rt2 } },
    { VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.s3", RouteTableIds = { rt1 } }, { "RouteTableIds" })
  H.same(sim.call("ec2", "DescribeVpcEndpoints", { VpcEndpointIds = { e.id } }).VpcEndpoints[1].RouteTableIds, { rt2 })
  -- Tags: the endpoint's own, the stack's and CloudFormation's; a Tags change is CreateTags/DeleteTags alone.
  local tagged_ctx = D.context(sim, "Endpoint")
  tagged_ctx.stack_tags = { { Key = "team", Value = "net" } }
  local t = D.run(world, decl, "create", tagged_ctx, decl:validate({ VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.s3",
    RouteTableIds = { rt1 }, Tags = { { Key = "Name", Value = "a" } } }, tagged_ctx))
  local function endpoint_tags()
    local out = {}
    for _, tag in ipairs(sim.call("ec2", "DescribeVpcEndpoints", { VpcEndpointIds = { t.id } }).VpcEndpoints[1].Tags) do
      out[#out + 1] = tag.Key .. "=" .. tag.Value
    end
    return out
  end
  H.same(endpoint_tags(), { "Name=a", "aws:cloudformation:logical-id=Endpoint",
    "aws:cloudformation:stack-id=" .. tagged_ctx.stack_id, "aws:cloudformation:stack-name=s", "team=net" })
  local before = { VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.s3", RouteTableIds = { rt1 }, Tags = { { Key = "Name", Value = "a" } } }
  local after = { VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.s3", RouteTableIds = { rt1 }, Tags = { { Key = "Name", Value = "b" } } }
  D.run(world, decl, "update", tagged_ctx, t.id, after, before, { "Tags" })
  H.same(endpoint_tags(), { "Name=b", "aws:cloudformation:logical-id=Endpoint",
    "aws:cloudformation:stack-id=" .. tagged_ctx.stack_id, "aws:cloudformation:stack-name=s", "team=net" })
  H.same(D.run(world, decl, "read", tagged_ctx, t.id, after).properties.Tags,
    { { Key = "Name", Value = "b" }, { Key = "team", Value = "net" } })  -- all but aws:*, as the other EC2 reads
  local i = create(world, sim, "vpc_endpoint", { VpcId = vpc, ServiceName = "com.amazonaws.us-east-1.sqs",
    VpcEndpointType = "Interface", SubnetIds = { subnet } })
  H.match(i.attributes.DnsEntries[1], "^Z7HUB22UULQXV:vpce%-")
  H.match(i.attributes.NetworkInterfaceIds[1], "^eni%-0%x+$")
  D.run(world, decl, "delete", ctx, i.id, {})
  H.eq(D.run(world, decl, "read", ctx, i.id, {}), nil)
  local acl, acl_decl, acl_ctx = create(world, sim, "network_acl", { VpcId = vpc, Tags = { { Key = "Name", Value = "a" } } })
  H.match(acl.id, "^acl%-0%x+$")
  H.eq(acl.attributes.Id, acl.id)
  D.run(world, acl_decl, "update", acl_ctx, acl.id, { VpcId = vpc, Tags = { { Key = "Name", Value = "b" } } },
    { VpcId = vpc, Tags = { { Key = "Name", Value = "a" } } }, { "Tags" })
  H.same(D.run(world, acl_decl, "read", acl_ctx, acl.id, {}).properties.Tags, { { Key = "Name", Value = "b" } })
  D.run(world, acl_decl, "delete", acl_ctx, acl.id, {})
  H.eq(D.run(world, acl_decl, "read", acl_ctx, acl.id, {}), nil)
end)

T.case("EIP with InstanceId: associated on create, moved in place, disassociated before release", function()
  local world, sim = fresh()
  local _, subnet = network(world, sim)
  local function instance()
    return sim.call("ec2", "RunInstances", { ImageId = "ami-0123456789abcdef0", MinCount = 1, MaxCount = 1,
      SubnetId = subnet }).Instances[1].InstanceId
  end
  local i1, i2 = instance(), instance()
  local eip, decl, ctx = create(world, sim, "eip", { InstanceId = i1 })
  local function addr() return sim.call("ec2", "DescribeAddresses", { PublicIps = { eip.id } }).Addresses[1] end
  H.eq(addr().InstanceId, i1)
  H.match(addr().AssociationId, "^eipassoc%-0%x+$")
  H.eq(decl:change({ InstanceId = i1 }, { InstanceId = i2 }, ctx), "none")
  D.run(world, decl, "update", ctx, eip.id, { InstanceId = i2 }, { InstanceId = i1 }, { "InstanceId" })
  H.eq(addr().InstanceId, i2)
  H.eq(D.failure(function() create(world, sim, "eip", { InstanceId = "i-0123456789abcdef0" }) end),
    "The instance ID 'i-0123456789abcdef0' does not exist")
  H.eq(#sim.call("ec2", "DescribeAddresses", {}).Addresses, 1, "the failed create released its address")
  D.run(world, decl, "delete", ctx, eip.id, { InstanceId = i2 })
  H.eq(D.run(world, decl, "read", ctx, eip.id, {}), nil)
end)

return T
