-- sim.ec2.routes: route tables (kind "ec2.route_table", refs its VPC), their
-- routes and their subnet associations.
--
-- Routes and associations live in the table's record (a table holds at most
-- a few hundred routes, AWS's quota). Two non-live index records answer the
-- other direction in one read: "ec2.subnet_route_table" (id = subnet) names
-- the table a subnet is explicitly associated with, and
-- "ec2.route_table_association" (id = rtbassoc-…) names an association's
-- table and subnet.
--
-- A route's target must be in the table's VPC: an internet gateway attached
-- to another VPC (or to none) fails as AWS does ("route table rtb-… and
-- network gateway igw-… belong to different networks").

local world = require("sim.world")
local C = require("sim.ec2.common")
local K = require("sim.ec2.kinds")
local cidr = require("sim.ec2.cidr")

local R = {}

local SUBNET_INDEX = "ec2.subnet_route_table"
local ASSOC_INDEX = "ec2.route_table_association"

-- The target fields of a route, in the order AWS lists them.
local TARGETS = { "GatewayId", "NatGatewayId", "InstanceId", "NetworkInterfaceId", "VpcPeeringConnectionId",
                  "TransitGatewayId", "EgressOnlyInternetGatewayId", "VpcEndpointId", "CarrierGatewayId",
                  "LocalGatewayId", "CoreNetworkArn" }

local function destination(p)
  local d = p.DestinationCidrBlock or p.DestinationIpv6CidrBlock or p.DestinationPrefixListId
  if d == nil then
    C.fail("The request must contain the parameter destinationCidrBlock or destinationIpv6CidrBlock", "MissingParameter")
  end
  if p.DestinationCidrBlock and not cidr.parse(p.DestinationCidrBlock) then
    C.fail("Value (" .. tostring(p.DestinationCidrBlock) .. ") for parameter destinationCidrBlock is invalid. "
      .. "This is not a valid CIDR block.", "InvalidParameterValue")
  end
  return d
end

local function route_destination(r)
  return r.DestinationCidrBlock or r.DestinationIpv6CidrBlock or r.DestinationPrefixListId
end

local function different_networks(rt, target)
  C.fail("route table " .. rt.RouteTableId .. " and network gateway " .. target .. " belong to different networks",
    "InvalidParameterValue")
end

-- Checks the route's one target against the world; returns the field and value.
local function target(rt, p, env)
  local field, value
  for _, f in ipairs(TARGETS) do
    if p[f] ~= nil then
      if field then
        -- moonstack's wording: AWS refuses a route with two targets (InvalidParameterCombination).
        C.fail("The parameter " .. field .. " cannot be used with the parameter " .. f, "InvalidParameterCombination")
      end
      field, value = f, p[f]
    end
  end
  if not field then
    C.fail("The request must contain exactly one of gatewayId, natGatewayId, instanceId, networkInterfaceId, "
      .. "vpcPeeringConnectionId, transitGatewayId, egressOnlyInternetGatewayId, vpcEndpointId, carrierGatewayId, "
      .. "localGatewayId or coreNetworkArn", "MissingParameter")
  end
  if field == "GatewayId" then
    local prefix = tostring(value):match("^(%l+)%-")
    if prefix == "igw" then
      local igw = K.internet_gateway:get(value)
      if not igw then C.fail("The gateway ID '" .. value .. "' does not exist", "InvalidGatewayID.NotFound") end
      local at = igw.Attachments[1]
      if not at or at.VpcId ~= rt.VpcId then different_networks(rt, value) end
    elseif prefix == "vpce" then
      local e = K.vpc_endpoint:get(value)
      if not e then C.fail("The gateway ID '" .. value .. "' does not exist", "InvalidGatewayID.NotFound") end
      if e.VpcId ~= rt.VpcId then different_networks(rt, value) end
    elseif value ~= "local" and prefix ~= "vgw" then
      C.fail("The gateway ID '" .. tostring(value) .. "' does not exist", "InvalidGatewayID.NotFound")
    end
  elseif field == "NatGatewayId" then
    local nat = require("sim.ec2.gateways").nat_gateway(value, env)
    if not nat or nat.State == "deleted" or nat.State == "deleting" or nat.State == "failed" then
      C.fail("The natGateway ID '" .. tostring(value) .. "' does not exist", "InvalidNatGatewayID.NotFound")
    end
    if nat.VpcId ~= rt.VpcId then different_networks(rt, value) end
  elseif field == "InstanceId" then
    local inst = require("sim.ec2.instances").load(value, env)
    if not inst or (inst.State and inst.State.Name == "terminated") then
      C.fail("The instance ID '" .. tostring(value) .. "' does not exist", "InvalidInstanceID.NotFound")
    end
    if inst.VpcId ~= rt.VpcId then different_networks(rt, value) end
  end
  return field, value
end

-- A route as Describe shows it: "blackhole" when its gateway is gone or detached.
local function route_view(rt, r, env)
  local out = {}
  for k, v in pairs(r) do out[k] = v end
  out.State = "active"
  if r.GatewayId and r.GatewayId:match("^igw%-") then
    local igw = K.internet_gateway:get(r.GatewayId)
    if not igw or not igw.Attachments[1] or igw.Attachments[1].VpcId ~= rt.VpcId then out.State = "blackhole" end
  elseif r.NatGatewayId then
    local nat = require("sim.ec2.gateways").nat_gateway(r.NatGatewayId, env)
    if not nat or nat.State == "deleted" or nat.State == "deleting" then out.State = "blackhole" end
  end
  return out
end

local function table_view(rt, env)
  local out = C.public(rt)
  out.Routes = {}
  for i, r in ipairs(rt.Routes) do out.Routes[i] = route_view(rt, r, env) end
  return out
end

local A = {}

---CreateRouteTable: VpcId, TagSpecifications -> { RouteTable } with the VPC's local route.
function A.CreateRouteTable(p, env)
  if p.VpcId == nil then C.fail("The request must contain the parameter vpcId", "MissingParameter") end
  local vpc = require("sim.ec2.network").require_vpc(p.VpcId)
  local rec = {
    RouteTableId = env.new_id("route_table"), VpcId = vpc.VpcId, OwnerId = env.account,
    Routes = { { DestinationCidrBlock = vpc.CidrBlock, GatewayId = "local", Origin = "CreateRouteTable" } },
    Associations = {}, PropagatingVgws = {},
    Tags = C.tag_list(C.spec_tags(p.TagSpecifications, "route-table", env)),
  }
  K.route_table:put(rec)
  return { RouteTable = table_view(rec, env) }
end

---DeleteRouteTable: RouteTableId; a table with subnet associations is refused.
function A.DeleteRouteTable(p, env)
  local rt = K.route_table:require(p.RouteTableId)
  if #rt.Associations > 0 then
    C.fail("The routeTable '" .. rt.RouteTableId .. "' has dependencies and cannot be deleted.", "DependencyViolation")
  end
  K.route_table:remove(rt.RouteTableId)
  return {}
end

---CreateRoute: RouteTableId, a destination, one target -> { Return }.
function A.CreateRoute(p, env)
  local rt = K.route_table:require(p.RouteTableId)
  local dest = destination(p)
  for _, r in ipairs(rt.Routes) do
    if route_destination(r) == dest then
      C.fail("The route identified by " .. dest .. " already exists.", "RouteAlreadyExists")
    end
  end
  local field, value = target(rt, p, env)
  rt.Routes[#rt.Routes + 1] = { DestinationCidrBlock = p.DestinationCidrBlock,
    DestinationIpv6CidrBlock = p.DestinationIpv6CidrBlock, DestinationPrefixListId = p.DestinationPrefixListId,
    [field] = value, Origin = "CreateRoute" }
  K.route_table:put(rt)
  return { Return = true }
end

local function find_route(rt, p)
  local dest = destination(p)
  for i, r in ipairs(rt.Routes) do
    if route_destination(r) == dest then return i, r end
  end
  local what = p.DestinationCidrBlock and "destination-cidr-block" or "destination-ipv6-cidr-block"
  C.fail("no route with " .. what .. " " .. dest .. " in route table " .. rt.RouteTableId, "InvalidRoute.NotFound")
end

---ReplaceRoute: RouteTableId, a destination, a new target.
function A.ReplaceRoute(p, env)
  local rt = K.route_table:require(p.RouteTableId)
  local i, r = find_route(rt, p)
  local field, value = target(rt, p, env)
  rt.Routes[i] = { DestinationCidrBlock = r.DestinationCidrBlock, DestinationIpv6CidrBlock = r.DestinationIpv6CidrBlock,
    DestinationPrefixListId = r.DestinationPrefixListId, [field] = value, Origin = "CreateRoute" }
  K.route_table:put(rt)
  return {}
end

---DeleteRoute: RouteTableId, a destination. The local route stays.
function A.DeleteRoute(p, env)
  local rt = K.route_table:require(p.RouteTableId)
  local i, r = find_route(rt, p)
  if r.GatewayId == "local" then
    C.fail("cannot remove local route " .. route_destination(r) .. " in route table " .. rt.RouteTableId,
      "InvalidParameterValue")
  end
  table.remove(rt.Routes, i)
  K.route_table:put(rt)
  return {}
end

---AssociateRouteTable: RouteTableId, SubnetId -> { AssociationId, AssociationState }.
function A.AssociateRouteTable(p, env)
  local rt = K.route_table:require(p.RouteTableId)
  if p.SubnetId == nil then C.fail("The request must contain the parameter subnetId", "MissingParameter") end
  local subnet = require("sim.ec2.network").require_subnet(p.SubnetId)
  if subnet.VpcId ~= rt.VpcId then
    C.fail("Route table " .. rt.RouteTableId .. " and subnet " .. subnet.SubnetId .. " belong to different networks",
      "InvalidParameterValue")
  end
  if world.get(SUBNET_INDEX, subnet.SubnetId) then
    C.fail("the specified association for route table " .. rt.RouteTableId .. " conflicts with an existing association",
      "Resource.AlreadyAssociated")
  end
  local id = C.derived_id(env, "route_table", "rtbassoc")
  local state = { State = "associated" }
  rt.Associations[#rt.Associations + 1] = { RouteTableAssociationId = id, RouteTableId = rt.RouteTableId,
    SubnetId = subnet.SubnetId, Main = false, AssociationState = state }
  K.route_table:put(rt)
  world.put(SUBNET_INDEX, subnet.SubnetId, { RouteTableId = rt.RouteTableId, AssociationId = id }, { live = false })
  world.put(ASSOC_INDEX, id, { RouteTableId = rt.RouteTableId, SubnetId = subnet.SubnetId }, { live = false })
  return { AssociationId = id, AssociationState = state }
end

-- Removes an association from its table and the indexes (no checks).
local function disassociate(rt, assoc_id)
  local keep, subnet = {}, nil
  for _, a in ipairs(rt.Associations) do
    if a.RouteTableAssociationId == assoc_id then subnet = a.SubnetId else keep[#keep + 1] = a end
  end
  rt.Associations = keep
  K.route_table:put(rt)
  world.remove(ASSOC_INDEX, assoc_id)
  if subnet then world.remove(SUBNET_INDEX, subnet) end
end

---DisassociateRouteTable: AssociationId.
function A.DisassociateRouteTable(p, env)
  local idx = type(p.AssociationId) == "string" and world.get(ASSOC_INDEX, p.AssociationId)
  local rt = idx and K.route_table:get(idx.RouteTableId)
  if not rt then
    C.fail("The association ID '" .. tostring(p.AssociationId) .. "' does not exist", "InvalidAssociationID.NotFound")
  end
  disassociate(rt, p.AssociationId)
  return {}
end

---ReplaceRouteTableAssociation: AssociationId, RouteTableId -> { NewAssociationId,
---AssociationState }: the subnet moves to another table of its VPC at once.
function A.ReplaceRouteTableAssociation(p, env)
  local idx = type(p.AssociationId) == "string" and world.get(ASSOC_INDEX, p.AssociationId)
  local old = idx and K.route_table:get(idx.RouteTableId)
  if not old then
    C.fail("The association ID '" .. tostring(p.AssociationId) .. "' does not exist", "InvalidAssociationID.NotFound")
  end
  local rt = K.route_table:require(p.RouteTableId)
  if rt.VpcId ~= old.VpcId then
    C.fail("Route table " .. rt.RouteTableId .. " and subnet " .. idx.SubnetId .. " belong to different networks",
      "InvalidParameterValue")
  end
  disassociate(old, p.AssociationId)
  local r = A.AssociateRouteTable({ RouteTableId = rt.RouteTableId, SubnetId = idx.SubnetId }, env)
  return { NewAssociationId = r.AssociationId, AssociationState = r.AssociationState }
end

---A deleted subnet's explicit association goes with it (as on AWS).
function R.forget_subnet(subnet_id)
  local idx = world.get(SUBNET_INDEX, subnet_id)
  local rt = idx and K.route_table:get(idx.RouteTableId)
  if rt then disassociate(rt, idx.AssociationId) else world.remove(SUBNET_INDEX, subnet_id) end
end

local RT_FILTERS = {
  ["route-table-id"] = function(r) return r.RouteTableId end,
  ["vpc-id"] = function(r) return r.VpcId end,
  ["association.subnet-id"] = function(r)
    local out = {}
    for _, a in ipairs(r.Associations) do out[#out + 1] = a.SubnetId end
    return out
  end,
  ["association.route-table-association-id"] = function(r)
    local out = {}
    for _, a in ipairs(r.Associations) do out[#out + 1] = a.RouteTableAssociationId end
    return out
  end,
  ["route.gateway-id"] = function(r)
    local out = {}
    for _, x in ipairs(r.Routes) do out[#out + 1] = x.GatewayId end
    return out
  end,
}

---DescribeRouteTables: RouteTableIds, Filters (vpc-id through the VPC's
---referrers, association.subnet-id through the subnet index).
function A.DescribeRouteTables(p, env)
  local gw = require("sim.ec2.gateways")
  local recs = gw.select(K.route_table, p.RouteTableIds, p.Filters, function(filters)
    local subnet = C.filter_value(filters, "association.subnet-id")
    if subnet then
      local idx = world.get(SUBNET_INDEX, subnet)
      return idx and { idx.RouteTableId } or {}
    end
    local vpc_id = C.filter_value(filters, "vpc-id")
    return vpc_id and require("sim.ec2.network").referring(vpc_id, K.route_table.kind) or nil
  end)
  local out = {}
  for _, r in ipairs(recs) do
    if C.matches(r, p.Filters, RT_FILTERS) then out[#out + 1] = table_view(r, env) end
  end
  return { RouteTables = out }
end

R.actions = A
return R
