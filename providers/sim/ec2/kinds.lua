-- sim.ec2.kinds: how the networking records of gateways.lua, routes.lua and
-- endpoints.lua are stored: one table per kind saying its world kind, its
-- ID field, its refs (what it depends on, so world.referrers answers "what
-- blocks a delete" without a scan) and AWS's NotFound answer.
--
--   local K = require("sim.ec2.kinds")
--   local igw = K.internet_gateway:require(id)   -- or :get(id) -> nil
--   K.internet_gateway:put(igw)
--
-- tagging.lua tags every kind listed here (CreateTags / DeleteTags).

local world = require("sim.world")
local C = require("sim.ec2.common")

local K = {}

local Kind = {}
Kind.__index = Kind

---The live record, or nil (any record, live or not, for a kind that
---`keeps_dead`: a deleted NAT gateway stays describable, as on AWS).
function Kind:get(id)
  if type(id) ~= "string" then return nil end
  if not self.keeps_dead and not world.live(self.kind, id) then return nil end
  return world.get(self.kind, id)
end

---The live record, or AWS's NotFound error.
function Kind:require(id)
  return self:get(id) or C.fail(self.missing(id), self.code)
end

function Kind:put(rec)
  local live = not self.live or self.live(rec)
  world.put(self.kind, rec[self.id_field], rec, { refs = self.refs(rec), live = live })
end

function Kind:remove(id) world.remove(self.kind, id) end

local function kind(t) return setmetatable(t, Kind) end

-- An internet gateway refs the VPC it is attached to: DeleteVpc refuses
-- while it is attached ("has dependencies").
K.internet_gateway = kind {
  resource_type = "internet-gateway",  -- DescribeTags' ResourceType
  kind = "ec2.internet_gateway", id_field = "InternetGatewayId", prefix = "igw",
  code = "InvalidInternetGatewayID.NotFound",
  missing = function(id) return "The internetGateway ID '" .. tostring(id) .. "' does not exist" end,
  refs = function(rec)
    local out = {}
    for _, a in ipairs(rec.Attachments or {}) do out[#out + 1] = a.VpcId end
    return out
  end,
}

-- A route table refs its VPC (routes and subnet associations live inside it).
K.route_table = kind {
  resource_type = "route-table",  -- DescribeTags' ResourceType
  kind = "ec2.route_table", id_field = "RouteTableId", prefix = "rtb",
  code = "InvalidRouteTableID.NotFound",
  missing = function(id) return "The routeTable ID '" .. tostring(id) .. "' does not exist" end,
  refs = function(rec) return { rec.VpcId } end,
}

-- An Elastic IP refs nothing (an instance it is associated with is not held
-- by it); what holds it (a NAT gateway) refs it.
K.address = kind {
  resource_type = "elastic-ip",  -- DescribeTags' ResourceType
  kind = "ec2.address", id_field = "AllocationId", prefix = "eipalloc",
  code = "InvalidAllocationID.NotFound",
  missing = function(id) return "The allocation ID '" .. tostring(id) .. "' does not exist" end,
  refs = function() return {} end,
}

-- A NAT gateway refs its subnet (DeleteSubnet refuses) and its EIP
-- (ReleaseAddress refuses) until its delete starts; once "deleted" it is no
-- longer live (not a dependent, not left in the world) but still describable.
K.nat_gateway = kind {
  resource_type = "natgateway",  -- DescribeTags' ResourceType
  kind = "ec2.nat_gateway", id_field = "NatGatewayId", prefix = "nat", keeps_dead = true,
  live = function(rec) return rec.State ~= "deleted" end,
  code = "NatGatewayNotFound",
  missing = function(id) return "The Nat Gateway " .. tostring(id) .. " was not found" end,
  refs = function(rec)
    if rec.State == "deleting" or rec.State == "deleted" then return {} end
    local out = { rec.SubnetId }
    for _, a in ipairs(rec.NatGatewayAddresses or {}) do out[#out + 1] = a.AllocationId end
    return out
  end,
}

-- A VPC endpoint refs its VPC and, for the Interface type, its subnets.
K.vpc_endpoint = kind {
  resource_type = "vpc-endpoint",  -- DescribeTags' ResourceType
  kind = "ec2.vpc_endpoint", id_field = "VpcEndpointId", prefix = "vpce",
  code = "InvalidVpcEndpointId.NotFound",
  missing = function(id) return "The Vpc Endpoint Id '" .. tostring(id) .. "' does not exist" end,
  refs = function(rec)
    local out = { rec.VpcId }
    for _, s in ipairs(rec.SubnetIds or {}) do out[#out + 1] = s end
    return out
  end,
}

-- A network ACL made by CreateNetworkAcl refs its VPC. (Each VPC's default
-- ACL is not a record: network.lua describes it from the VPC.)
K.network_acl = kind {
  resource_type = "network-acl",  -- DescribeTags' ResourceType
  kind = "ec2.network_acl", id_field = "NetworkAclId", prefix = "acl",
  code = "InvalidNetworkAclID.NotFound",
  missing = function(id) return "The networkAcl ID '" .. tostring(id) .. "' does not exist" end,
  refs = function(rec) return { rec.VpcId } end,
}

K.ALL = { K.internet_gateway, K.route_table, K.address, K.nat_gateway, K.vpc_endpoint, K.network_acl }

---The Kind whose IDs start with `prefix` ("igw", "rtb", ...), or nil.
function K.by_prefix(prefix)
  for _, k in ipairs(K.ALL) do if k.prefix == prefix then return k end end
  return nil
end

return K
