-- sim.ec2.gateways: internet gateways and their VPC attachments, Elastic IP
-- addresses, NAT gateways.
--
-- One gateway per VPC: a non-live index record "ec2.vpc_internet_gateway"
-- (id = the VPC's) names the gateway attached to it, so an attach checks
-- it in one read; "ec2.address_ip" finds an Elastic IP by its address. A NAT gateway is "pending" for `nat_create_seconds` (60)
-- of simulated time, then "available"; deleted, it is "deleting" for
-- `nat_delete_seconds` (60), then "deleted" (still describable, as on AWS).
-- Durations come from the world config ("config", "ec2").

local world = require("sim.world")
local C = require("sim.ec2.common")
local K = require("sim.ec2.kinds")
local transitions = require("sim.transitions")

local G = {}

local VPC_IGW = "ec2.vpc_internet_gateway"
local ADDRESS_BY_IP = "ec2.address_ip"  -- public IP -> { AllocationId }, non-live
local ADDRESS_ASSOCIATION = "ec2.address_association"  -- eipassoc-… -> { AllocationId }, non-live

-- Internet gateways ---------------------------------------------------------------

---The ID of the internet gateway attached to `vpc_id`, or nil (one read).
function G.vpc_gateway(vpc_id)
  local idx = world.get(VPC_IGW, tostring(vpc_id))
  return idx and idx.InternetGatewayId or nil
end

local A = {}

---CreateInternetGateway: TagSpecifications -> { InternetGateway }.
function A.CreateInternetGateway(p, env)
  local rec = {
    InternetGatewayId = env.new_id("internet_gateway"), OwnerId = env.account, Attachments = {},
    Tags = C.tag_list(C.spec_tags(p.TagSpecifications, "internet-gateway", env)),
  }
  K.internet_gateway:put(rec)
  return { InternetGateway = C.public(rec) }
end

---AttachInternetGateway: InternetGatewayId, VpcId. A gateway attaches to one
---VPC and a VPC has one gateway.
function A.AttachInternetGateway(p, env)
  local igw = K.internet_gateway:require(p.InternetGatewayId)
  local vpc = require("sim.ec2.network").require_vpc(p.VpcId)
  local at = igw.Attachments[1]
  if at then
    C.fail("resource " .. igw.InternetGatewayId .. " is already attached to network " .. at.VpcId,
      "Resource.AlreadyAssociated")
  end
  if G.vpc_gateway(vpc.VpcId) then
    -- "Network vpc-… already has an internet gateway attached" (InvalidParameterValue,
    -- a CloudFormation VPCGatewayAttachment's reason in public deployment notes).
    C.fail("Network " .. vpc.VpcId .. " already has an internet gateway attached", "InvalidParameterValue")
  end
  igw.Attachments = { { VpcId = vpc.VpcId, State = "available" } }
  K.internet_gateway:put(igw)
  world.put(VPC_IGW, vpc.VpcId, { InternetGatewayId = igw.InternetGatewayId }, { live = false })
  return {}
end

---DetachInternetGateway: InternetGatewayId, VpcId.
function A.DetachInternetGateway(p, env)
  local igw = K.internet_gateway:require(p.InternetGatewayId)
  require("sim.ec2.network").require_vpc(p.VpcId)
  local at = igw.Attachments[1]
  if not at or at.VpcId ~= p.VpcId then
    C.fail("resource " .. igw.InternetGatewayId .. " is not attached to network " .. tostring(p.VpcId),
      "Gateway.NotAttached")
  end
  igw.Attachments = {}
  K.internet_gateway:put(igw)
  world.remove(VPC_IGW, p.VpcId)
  return {}
end

---DeleteInternetGateway: InternetGatewayId; an attached gateway is refused.
function A.DeleteInternetGateway(p, env)
  local igw = K.internet_gateway:require(p.InternetGatewayId)
  if igw.Attachments[1] then
    C.fail("The internetGateway '" .. igw.InternetGatewayId .. "' has dependencies and cannot be deleted.",
      "DependencyViolation")
  end
  K.internet_gateway:remove(igw.InternetGatewayId)
  return {}
end

local IGW_FILTERS = {
  ["internet-gateway-id"] = function(r) return r.InternetGatewayId end,
  ["attachment.vpc-id"] = function(r) return r.Attachments[1] and r.Attachments[1].VpcId end,
  ["attachment.state"] = function(r) return r.Attachments[1] and r.Attachments[1].State end,
  ["owner-id"] = function(r) return r.OwnerId end,
}

-- The records a Describe* asks for: by IDs (each must exist), through an
-- index when a filter names one value of it, else every live record.
local function select(kind, ids, filters, narrow)
  local recs = {}
  ids = C.list(ids)
  if #ids > 0 then
    for _, id in ipairs(ids) do recs[#recs + 1] = kind:require(id) end
    return recs
  end
  local candidates = narrow and narrow(filters)
  for _, id in ipairs(candidates or world.ids(kind.kind, true)) do
    local r = kind:get(id)
    if r then recs[#recs + 1] = r end
  end
  return recs
end
G.select = select

local function describe(kind, recs, filters, fields)
  local out = {}
  for _, r in ipairs(recs) do
    if C.matches(r, filters, fields) then out[#out + 1] = C.public(r) end
  end
  return out
end
G.describe = describe

---DescribeInternetGateways: InternetGatewayIds, Filters (attachment.vpc-id
---answered through the VPC's index).
function A.DescribeInternetGateways(p, env)
  local recs = select(K.internet_gateway, p.InternetGatewayIds, p.Filters, function(filters)
    local vpc_id = C.filter_value(filters, "attachment.vpc-id")
    if not vpc_id then return nil end
    local id = G.vpc_gateway(vpc_id)
    return id and { id } or {}
  end)
  return { InternetGateways = describe(K.internet_gateway, recs, p.Filters, IGW_FILTERS) }
end

-- Elastic IPs -----------------------------------------------------------------------

---AllocateAddress: Domain ("vpc"), TagSpecifications -> { AllocationId, PublicIp, Domain }.
function A.AllocateAddress(p, env)
  local domain = p.Domain or "vpc"
  if domain ~= "vpc" and domain ~= "standard" then
    C.fail("Value (" .. tostring(domain) .. ") for parameter domain is invalid.", "InvalidParameterValue")
  end
  local rec = {
    AllocationId = env.new_id("eip_allocation"), PublicIp = require("sim.ec2.network").allocate_public_ip(),
    Domain = domain, PublicIpv4Pool = "amazon", NetworkBorderGroup = env.region,
    Tags = C.tag_list(C.spec_tags(p.TagSpecifications, "elastic-ip", env)),
  }
  K.address:put(rec)
  world.put(ADDRESS_BY_IP, rec.PublicIp, { AllocationId = rec.AllocationId }, { live = false })
  return { AllocationId = rec.AllocationId, PublicIp = rec.PublicIp, Domain = domain,
           PublicIpv4Pool = rec.PublicIpv4Pool, NetworkBorderGroup = rec.NetworkBorderGroup }
end

-- The live NAT gateway holding an address, or nil (the address's referrers).
local function holder(allocation_id)
  for _, r in ipairs(world.referrers(allocation_id)) do
    if r.kind == K.nat_gateway.kind then return r.id end
  end
  return nil
end

---ReleaseAddress: AllocationId. An address a NAT gateway uses is refused.
function A.ReleaseAddress(p, env)
  local addr = K.address:require(p.AllocationId)
  if holder(addr.AllocationId) or addr.AssociationId then
    -- InvalidIPAddress.InUse, e.g. "Address 54.1.2.3 is in use." (terraform issues)
    C.fail("Address " .. addr.PublicIp .. " is in use.", "InvalidIPAddress.InUse")
  end
  K.address:remove(addr.AllocationId)
  world.remove(ADDRESS_BY_IP, addr.PublicIp)
  return {}
end

---AssociateAddress: AllocationId, InstanceId (a live instance) -> { AssociationId }.
---An address already associated moves only with AllowReassociation.
function A.AssociateAddress(p, env)
  local addr = K.address:require(p.AllocationId)
  if p.InstanceId == nil then C.fail("The request must contain the parameter instanceId", "MissingParameter") end
  local inst = require("sim.ec2.instances").load(p.InstanceId, env)
  if not inst or (inst.State and inst.State.Name == "terminated") then
    C.fail("The instance ID '" .. tostring(p.InstanceId) .. "' does not exist", "InvalidInstanceID.NotFound")
  end
  if (addr.AssociationId or holder(addr.AllocationId)) and not C.bool(p.AllowReassociation) then
    C.fail("Elastic IP address [" .. addr.AllocationId .. "] is already associated", "Resource.AlreadyAssociated")
  end
  addr.InstanceId = inst.InstanceId
  if addr.AssociationId then world.remove(ADDRESS_ASSOCIATION, addr.AssociationId) end
  addr.AssociationId = C.derived_id(env, "eip_allocation", "eipassoc")
  K.address:put(addr)
  world.put(ADDRESS_ASSOCIATION, addr.AssociationId, { AllocationId = addr.AllocationId }, { live = false })
  return { AssociationId = addr.AssociationId }
end

---DisassociateAddress: AssociationId (or PublicIp).
function A.DisassociateAddress(p, env)
  local addr
  if p.PublicIp ~= nil then
    local idx = world.get(ADDRESS_BY_IP, tostring(p.PublicIp))
    addr = idx and K.address:get(idx.AllocationId)
  elseif type(p.AssociationId) == "string" then
    local idx = world.get(ADDRESS_ASSOCIATION, p.AssociationId)
    addr = idx and K.address:get(idx.AllocationId)
  end
  if not addr or not addr.AssociationId then
    C.fail("The association ID '" .. tostring(p.AssociationId or p.PublicIp) .. "' does not exist",
      "InvalidAssociationID.NotFound")
  end
  world.remove(ADDRESS_ASSOCIATION, addr.AssociationId)
  addr.InstanceId, addr.AssociationId = nil, nil
  K.address:put(addr)
  return {}
end

---DescribeAddresses: AllocationIds, PublicIps (each through the IP index), Filters.
function A.DescribeAddresses(p, env)
  local ids = C.list(p.AllocationIds)
  for _, ip in ipairs(C.list(p.PublicIps)) do
    local idx = world.get(ADDRESS_BY_IP, tostring(ip))
    if not idx then C.fail("Address '" .. tostring(ip) .. "' not found.", "InvalidAddress.NotFound") end
    ids[#ids + 1] = idx.AllocationId
  end
  local recs = select(K.address, ids, p.Filters)
  return { Addresses = describe(K.address, recs, p.Filters, {
    ["allocation-id"] = function(r) return r.AllocationId end,
    ["public-ip"] = function(r) return r.PublicIp end,
    ["domain"] = function(r) return r.Domain end,
  }) }
end

-- NAT gateways ----------------------------------------------------------------------

local function settle(rec, env)
  if transitions.settle(rec, env.now_ms) then K.nat_gateway:put(rec) end
  return rec
end

local function seconds(what)
  local cfg = C.config()
  return tonumber(cfg["nat_" .. what .. "_seconds"]) or 60
end

---CreateNatGateway: SubnetId, AllocationId (public; required), ConnectivityType
---("public" | "private"), TagSpecifications -> { NatGateway } ("pending").
function A.CreateNatGateway(p, env)
  if p.SubnetId == nil then C.fail("The request must contain the parameter SubnetId", "MissingParameter") end
  local subnet = require("sim.ec2.network").require_subnet(p.SubnetId)
  local connectivity = p.ConnectivityType or "public"
  if connectivity ~= "public" and connectivity ~= "private" then
    C.fail("Value (" .. tostring(connectivity) .. ") for parameter connectivityType is invalid.", "InvalidParameterValue")
  end
  local addresses = {}
  if connectivity == "public" then
    if p.AllocationId == nil then
      -- AWS: a public NAT gateway needs an Elastic IP allocation.
      C.fail("AllocationID is required for public NAT Gateway", "MissingParameter")
    end
    local addr = K.address:require(p.AllocationId)
    if holder(addr.AllocationId) or addr.AssociationId then
      C.fail("Elastic IP address [" .. addr.AllocationId .. "] is already associated", "Resource.AlreadyAssociated")
    end
    addresses[1] = { AllocationId = addr.AllocationId, PublicIp = addr.PublicIp, IsPrimary = true }
  end
  local rec = {
    NatGatewayId = C.derived_id(env, "eip_allocation", "nat"), SubnetId = subnet.SubnetId, VpcId = subnet.VpcId,
    ConnectivityType = connectivity, NatGatewayAddresses = addresses,
    CreateTime = env.now_ms, Tags = C.tag_list(C.spec_tags(p.TagSpecifications, "natgateway", env)),
  }
  rec.NatGatewayAddresses[1] = rec.NatGatewayAddresses[1] or {}
  rec.NatGatewayAddresses[1].PrivateIp = require("sim.ec2.network").allocate_ip(subnet, nil, nil)
  rec.NatGatewayAddresses[1].NetworkInterfaceId = C.derived_id(env, "network_interface", "eni")
  transitions.start(rec, "State", "pending", "available", env.now_ms, seconds("create"))
  K.nat_gateway:put(rec)
  return { NatGateway = C.public(rec) }
end

---The NAT gateway record, settled to the world's clock (nil when unknown).
function G.nat_gateway(id, env)
  local rec = K.nat_gateway:get(id)
  return rec and settle(rec, env) or nil
end

---DeleteNatGateway: NatGatewayId -> { NatGatewayId } ("deleting", then "deleted").
function A.DeleteNatGateway(p, env)
  local rec = G.nat_gateway(p.NatGatewayId, env) or K.nat_gateway:require(p.NatGatewayId)
  if rec.State == "deleted" then C.fail(K.nat_gateway.missing(rec.NatGatewayId), K.nat_gateway.code) end
  if rec.State ~= "deleting" then
    transitions.start(rec, "State", "deleting", "deleted", env.now_ms, seconds("delete"))
    K.nat_gateway:put(rec)
  end
  return { NatGatewayId = rec.NatGatewayId }
end

---DescribeNatGateways: NatGatewayIds, Filter (AWS spells it in the singular).
function A.DescribeNatGateways(p, env)
  local filters = p.Filter or p.Filters
  local recs = {}
  for _, r in ipairs(select(K.nat_gateway, p.NatGatewayIds, filters)) do recs[#recs + 1] = settle(r, env) end
  return { NatGateways = describe(K.nat_gateway, recs, filters, {
    ["nat-gateway-id"] = function(r) return r.NatGatewayId end,
    ["subnet-id"] = function(r) return r.SubnetId end,
    ["vpc-id"] = function(r) return r.VpcId end,
    ["state"] = function(r) return r.State end,
  }) }
end

G.actions = A
return G
