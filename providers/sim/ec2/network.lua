-- sim.ec2.network: VPCs (kind "ec2.vpc"), subnets (kind "ec2.subnet", refs
-- its VPC), the default VPC, private IP allocation and the (read-only)
-- default network ACLs.
--
-- Siblings are found through world.referrers(vpc_id), never by scanning
-- every subnet: a subnet names its VPC in its refs, so the VPC's referrers
-- are exactly what lives in it (subnets, security groups, route tables, an
-- attached internet gateway, endpoints, network ACLs: each blocks DeleteVpc).

local world = require("sim.world")
local C = require("sim.ec2.common")
local cidr = require("sim.ec2.cidr")

local N = {}

-- Messages ----------------------------------------------------------------------

-- InvalidVpcID.NotFound, e.g. "The vpc ID 'vpc-notfound' does not exist"
-- (AWS output quoted in several public projects; CloudFormation reason
-- "The vpc ID 'vpc-12341234123' does not exist (Service: AmazonEC2 ...)").
local function vpc_not_found(id)
  C.fail("The vpc ID '" .. tostring(id) .. "' does not exist", "InvalidVpcID.NotFound")
end

-- InvalidSubnetID.NotFound: "The subnet ID 'subnet-xxx' does not exist".
local function subnet_not_found(id)
  C.fail("The subnet ID '" .. tostring(id) .. "' does not exist", "InvalidSubnetID.NotFound")
end

-- Not a CIDR at all: "Value (SomeRandomString) for parameter cidrBlock is
-- invalid. This is not a valid CIDR block." (InvalidParameterValue, EC2's
-- CreateVpc / CreateSubnet answer as recorded in public tests).
local function bad_cidr(text)
  C.fail("Value (" .. tostring(text) .. ") for parameter cidrBlock is invalid. This is not a valid CIDR block.",
    "InvalidParameterValue")
end

local function parse_cidr(text)
  local block = cidr.parse(text)
  if not block then bad_cidr(text) end
  return block
end

-- Records -----------------------------------------------------------------------

---The live VPC record, or nil.
function N.vpc(id)
  if type(id) ~= "string" or not world.live("ec2.vpc", id) then return nil end
  return world.get("ec2.vpc", id)
end

function N.require_vpc(id)
  return N.vpc(id) or vpc_not_found(id)
end

---`id` when it names a live VPC (require_vpc's check without reading the
---record: a security group's create needs only the ID).
function N.require_vpc_id(id)
  if type(id) == "string" and world.live("ec2.vpc", id) then return id end
  return vpc_not_found(id)
end

---The live subnet record, or nil.
function N.subnet(id)
  if type(id) ~= "string" or not world.live("ec2.subnet", id) then return nil end
  return world.get("ec2.subnet", id)
end

function N.require_subnet(id)
  return N.subnet(id) or subnet_not_found(id)
end

-- The live records of `kind` whose refs name `id` (via the referrers index).
function N.referring(id, kind)
  local out = {}
  for _, r in ipairs(world.referrers(id)) do
    if r.kind == kind then out[#out + 1] = r.id end
  end
  return out
end

local function put_vpc(rec) world.put("ec2.vpc", rec.VpcId, rec) end
local function put_subnet(rec) world.put("ec2.subnet", rec.SubnetId, rec, { refs = { rec.VpcId } }) end

local function new_vpc(env, block, opts)
  local id = env.new_id("vpc")
  local rec = {
    VpcId = id, CidrBlock = block.text, State = "available", OwnerId = env.account,
    IsDefault = opts.default == true, InstanceTenancy = opts.tenancy or "default",
    DhcpOptionsId = "default",
    CidrBlockAssociationSet = { {
      AssociationId = C.derived_id(env, "vpc", "vpc-cidr-assoc"),
      CidrBlock = block.text, CidrBlockState = { State = "associated" },
    } },
    Ipv6CidrBlockAssociationSet = {},
    Tags = C.tag_list(opts.tags or {}),
    _sim = {
      region = env.region,
      EnableDnsSupport = true,
      -- AWS: DNS hostnames are on in a default VPC, off in one you create.
      EnableDnsHostnames = opts.default == true,
      DefaultNetworkAclId = env.new_id("network_acl"),
    },
  }
  put_vpc(rec)
  -- Every VPC comes with a security group named "default".
  local groups = require("sim.ec2.groups")
  rec._sim.DefaultSecurityGroupId = groups.create_default(rec.VpcId, env)
  put_vpc(rec)
  return rec
end

local function new_subnet(env, vpc, block, az, opts)
  local id = env.new_id("subnet")
  local rec = {
    SubnetId = id, VpcId = vpc.VpcId, CidrBlock = block.text, State = "available",
    AvailabilityZone = az, OwnerId = env.account,
    SubnetArn = "arn:aws:ec2:" .. env.region .. ":" .. env.account .. ":subnet/" .. id,
    MapPublicIpOnLaunch = opts.public == true, DefaultForAz = opts.default == true,
    AssignIpv6AddressOnCreation = false, Ipv6CidrBlockAssociationSet = {},
    Tags = C.tag_list(opts.tags or {}),
    _sim = {
      NetworkAclAssociationId = C.derived_id(env, "network_acl", "aclassoc"),
    },
  }
  put_subnet(rec)
  return rec
end

-- The default VPC -------------------------------------------------------------------

---The region's default VPC (172.31.0.0/16), made on first use; nil when the
---world config says { default_vpc = false }.
function N.default_vpc(env)
  if not C.config().default_vpc then return nil end
  local key = "ec2.default_vpc:" .. env.region
  local known = world.get("sim", key)
  if known and N.vpc(known.VpcId) then return N.vpc(known.VpcId) end
  local rec = new_vpc(env, cidr.parse("172.31.0.0/16"), { default = true })
  world.put("sim", key, { VpcId = rec.VpcId })
  return rec
end

---The default subnet of an Availability Zone (172.31.16k.0/20, public).
function N.default_subnet(env, az)
  local vpc = N.default_vpc(env)
  if not vpc then return nil end
  local key = "ec2.default_subnet:" .. az
  local known = world.get("sim", key)
  if known and N.subnet(known.SubnetId) then return N.subnet(known.SubnetId) end
  local index = 0
  for i, z in ipairs(C.zones(env.region)) do if z == az then index = i - 1 end end
  local block = cidr.parse("172.31." .. (index * 16) .. ".0/20")
  local rec = new_subnet(env, vpc, block, az, { public = true, default = true })
  world.put("sim", key, { SubnetId = rec.SubnetId })
  return rec
end

-- "No default VPC for this user" (VPCIdNotSpecified): EC2's answer when a
-- request needs the default VPC and the account has none.
function N.require_default_vpc(env)
  return N.default_vpc(env) or C.fail("No default VPC for this user", "VPCIdNotSpecified")
end

-- Private addresses -------------------------------------------------------------

-- Addresses held by live instances in the subnet.
local function used_ips(subnet_id)
  local used = {}
  for _, iid in ipairs(N.referring(subnet_id, "ec2.instance")) do
    local inst = world.get("ec2.instance", iid)
    if inst and inst.PrivateIpAddress then used[inst.PrivateIpAddress] = true end
  end
  return used
end

---Picks a private address in the subnet (or checks `requested`). AWS
---reserves the first four addresses and the last one. The allocation
---counter is the simulator's own record (kind "sim"), so launching leaves
---the subnet record as it was. Addresses are handed out in order, so until
---the counter wraps around (or an address is asked for by value) a new one
---cannot be in use and the subnet's instances are not looked at; after
---that they are, once per launch: `cache` (a table the caller keeps for
---the launch) holds the addresses in use.
---@param subnet table  the subnet record
---@param requested string?
---@param cache table?
---@return string
function N.allocate_ip(subnet, requested, cache)
  local block = cidr.parse(subnet.CidrBlock)
  local low, high = block.first + 4, block.last - 1
  cache = cache or {}
  local function used()
    cache.used = cache.used or used_ips(subnet.SubnetId)
    return cache.used
  end
  local key = "ec2.next_ip:" .. subnet.SubnetId
  local state = world.get("sim", key) or { offset = 0 }
  if requested ~= nil then
    local n = cidr.parse_ip(requested)
    if not n then
      C.fail("Invalid value '" .. tostring(requested) .. "' for privateIpAddress", "InvalidParameterValue")
    end
    if n < low or n > high then
      C.fail("Address does not fall within the subnet's address range", "InvalidParameterValue")
    end
    local text = cidr.ip_text(n)
    if used()[text] then C.fail("Address " .. text .. " is in use.", "InvalidIPAddress.InUse") end
    if not state.explicit then
      world.put("sim", key, { offset = state.offset, wrapped = state.wrapped, explicit = true })
    end
    used()[text] = true
    return text
  end
  local span = high - low + 1
  local offset = state.offset
  local scan = state.wrapped or state.explicit
  for i = 0, span - 1 do
    local n = low + (offset + i) % span
    local text = cidr.ip_text(n)
    if not (scan and used()[text]) then
      world.put("sim", key, { offset = (offset + i + 1) % span, wrapped = state.wrapped or offset + i + 1 >= span,
                              explicit = state.explicit })
      if cache.used then cache.used[text] = true end
      return text
    end
  end
  C.fail("There are not enough free addresses in subnet '" .. subnet.SubnetId .. "' to satisfy the requested number of instances.",
    "InsufficientFreeAddressesInSubnet")
end

-- Public addresses come from one world-wide counter, in 54.160.0.0/11.
function N.allocate_public_ip()
  local state = world.get("sim", "ec2.public_ip") or { next = 1 }
  local n = state.next
  world.put("sim", "ec2.public_ip", { next = n + 1 })
  local base = cidr.parse_ip("54.160.0.0")
  -- skip .0 and .255 host parts so every address looks like a host
  local host = n + 2 * math.floor(n / 254) + 1
  return cidr.ip_text(base + host)
end

-- Views -------------------------------------------------------------------------

local function vpc_view(rec) return C.public(rec) end

local function subnet_view(rec)
  local out = C.public(rec)
  local block = cidr.parse(rec.CidrBlock)
  local taken = 0
  for _ in pairs(used_ips(rec.SubnetId)) do taken = taken + 1 end
  out.AvailableIpAddressCount = block.size - 5 - taken
  return out
end

N.subnet_view = subnet_view

-- VPC actions ---------------------------------------------------------------------

local A = {}

---CreateVpc: CidrBlock (/16 to /28), InstanceTenancy, TagSpecifications -> { Vpc }.
function A.CreateVpc(p, env)
  if p.CidrBlock == nil then C.fail("The request must contain the parameter cidrBlock", "MissingParameter") end
  local block = parse_cidr(p.CidrBlock)
  -- InvalidVpc.Range: "The CIDR '10.0.0.0/8' is invalid." (grycap/im#1011,
  -- hashicorp/terraform#19452). VPCs are /16 to /28.
  if block.prefix < 16 or block.prefix > 28 then
    C.fail("The CIDR '" .. p.CidrBlock .. "' is invalid.", "InvalidVpc.Range")
  end
  local tenancy = p.InstanceTenancy or "default"
  if tenancy ~= "default" and tenancy ~= "dedicated" and tenancy ~= "host" then
    C.fail("Value (" .. tostring(tenancy) .. ") for parameter instanceTenancy is invalid.", "InvalidParameterValue")
  end
  local rec = new_vpc(env, block, { tenancy = tenancy, tags = C.spec_tags(p.TagSpecifications, "vpc", env) })
  return { Vpc = vpc_view(rec) }
end

---DeleteVpc: VpcId. Subnets and security groups other than its default
---group block it.
function A.DeleteVpc(p, env)
  local vpc = N.require_vpc(p.VpcId)
  local default_sg = vpc._sim.DefaultSecurityGroupId
  for _, r in ipairs(world.referrers(vpc.VpcId)) do
    if r.id ~= default_sg then
      -- DependencyViolation, e.g. "The vpc 'vpc-0d583caa141c170b6' has
      -- dependencies and cannot be deleted." (public terraform output).
      C.fail("The vpc '" .. vpc.VpcId .. "' has dependencies and cannot be deleted.", "DependencyViolation")
    end
  end
  if default_sg then require("sim.ec2.groups").remove(default_sg) end
  world.remove("ec2.vpc", vpc.VpcId)
  local key = "ec2.default_vpc:" .. (vpc._sim.region or env.region)
  local known = world.get("sim", key)
  if known and known.VpcId == vpc.VpcId then world.remove("sim", key) end
  return { Return = true }
end

local VPC_FILTERS = {
  ["vpc-id"] = function(r) return r.VpcId end,
  ["cidr"] = function(r) return r.CidrBlock end,
  ["cidr-block-association.cidr-block"] = function(r) return r.CidrBlock end,
  ["is-default"] = function(r) return tostring(r.IsDefault) end,
  ["state"] = function(r) return r.State end,
  ["owner-id"] = function(r) return r.OwnerId end,
}

---DescribeVpcs: VpcIds (each must exist), Filters.
function A.DescribeVpcs(p, env)
  local recs = {}
  local ids = C.list(p.VpcIds)
  if #ids > 0 then
    for _, id in ipairs(ids) do recs[#recs + 1] = N.require_vpc(id) end
  else
    for _, id in ipairs(world.ids("ec2.vpc", true)) do recs[#recs + 1] = world.get("ec2.vpc", id) end
  end
  local out = {}
  for _, r in ipairs(recs) do
    if C.matches(r, p.Filters, VPC_FILTERS) then out[#out + 1] = vpc_view(r) end
  end
  return { Vpcs = out }
end

---ModifyVpcAttribute: VpcId and one of EnableDnsSupport / EnableDnsHostnames ({ Value = bool }).
function A.ModifyVpcAttribute(p, env)
  local vpc = N.require_vpc(p.VpcId)
  local support, hostnames = C.bool(C.value(p.EnableDnsSupport)), C.bool(C.value(p.EnableDnsHostnames))
  if support == nil and hostnames == nil then
    C.fail("The request must contain the parameter EnableDnsSupport or EnableDnsHostnames", "MissingParameter")
  end
  if support ~= nil then vpc._sim.EnableDnsSupport = support end
  if hostnames ~= nil then vpc._sim.EnableDnsHostnames = hostnames end
  put_vpc(vpc)
  return {}
end

---DescribeVpcAttribute: VpcId, Attribute ("enableDnsSupport" | "enableDnsHostnames").
function A.DescribeVpcAttribute(p, env)
  local vpc = N.require_vpc(p.VpcId)
  if p.Attribute == "enableDnsSupport" then
    return { VpcId = vpc.VpcId, EnableDnsSupport = { Value = vpc._sim.EnableDnsSupport } }
  elseif p.Attribute == "enableDnsHostnames" then
    return { VpcId = vpc.VpcId, EnableDnsHostnames = { Value = vpc._sim.EnableDnsHostnames } }
  end
  C.fail("Value (" .. tostring(p.Attribute) .. ") for parameter attribute is invalid. Unknown attribute.",
    "InvalidParameterValue")
end

---ModifyVpcTenancy: VpcId, InstanceTenancy ("default" only, as on AWS).
function A.ModifyVpcTenancy(p, env)
  local vpc = N.require_vpc(p.VpcId)
  if p.InstanceTenancy ~= "default" then
    C.fail("Value (" .. tostring(p.InstanceTenancy) .. ") for parameter instanceTenancy is invalid.",
      "InvalidParameterValue")
  end
  vpc.InstanceTenancy = "default"
  put_vpc(vpc)
  return { ReturnValue = true }
end

-- Subnet actions ------------------------------------------------------------------

---CreateSubnet: VpcId, CidrBlock (inside the VPC's, /16 to /28, no overlap
---with a sibling), AvailabilityZone (default: region + "a") -> { Subnet }.
function A.CreateSubnet(p, env)
  if p.VpcId == nil then C.fail("The request must contain the parameter vpcId", "MissingParameter") end
  local vpc = N.require_vpc(p.VpcId)
  if p.CidrBlock == nil then C.fail("The request must contain the parameter cidrBlock", "MissingParameter") end
  local block = parse_cidr(p.CidrBlock)
  local inside = false
  for _, assoc in ipairs(vpc.CidrBlockAssociationSet or {}) do
    local vb = cidr.parse(assoc.CidrBlock)
    if vb and cidr.contains(vb, block) then inside = true end
  end
  -- InvalidSubnet.Range: "The CIDR '10.10.1.0/24' is invalid."
  -- (pulumi/pulumi-awsx#111): outside the VPC, or not /16 to /28.
  if not inside or block.prefix < 16 or block.prefix > 28 then
    C.fail("The CIDR '" .. p.CidrBlock .. "' is invalid.", "InvalidSubnet.Range")
  end
  for _, sid in ipairs(N.referring(vpc.VpcId, "ec2.subnet")) do
    local sib = world.get("ec2.subnet", sid)
    if cidr.overlaps(cidr.parse(sib.CidrBlock), block) then
      -- InvalidSubnet.Conflict: "The CIDR '10.0.1.0/24' conflicts with
      -- another subnet" (hashicorp/terraform#33470, #24317).
      C.fail("The CIDR '" .. p.CidrBlock .. "' conflicts with another subnet", "InvalidSubnet.Conflict")
    end
  end
  local az = p.AvailabilityZone or (env.region .. "a")
  if not C.zone_exists(env.region, az) then
    C.fail("Value (" .. tostring(az) .. ") for parameter availabilityZone is invalid. Subnets can currently only be created in the following availability zones: "
      .. table.concat(C.zones(env.region), ", ") .. ".", "InvalidParameterValue")
  end
  local rec = new_subnet(env, vpc, block, az, { tags = C.spec_tags(p.TagSpecifications, "subnet", env) })
  return { Subnet = subnet_view(rec) }
end

---DeleteSubnet: SubnetId. Instances in it (in a stack or not) block it.
function A.DeleteSubnet(p, env)
  local subnet = N.require_subnet(p.SubnetId)
  local instances = require("sim.ec2.instances")
  for _, r in ipairs(world.referrers(subnet.SubnetId)) do
    local blocking = true
    if r.kind == "ec2.instance" then blocking = instances.settled_live(r.id, env) end
    if blocking then
      -- DependencyViolation: "The subnet 'subnet-xxx' has dependencies and
      -- cannot be deleted." (public deployment logs).
      C.fail("The subnet '" .. subnet.SubnetId .. "' has dependencies and cannot be deleted.", "DependencyViolation")
    end
  end
  require("sim.ec2.routes").forget_subnet(subnet.SubnetId)  -- its route table association goes with it
  world.remove("ec2.subnet", subnet.SubnetId)
  world.remove("sim", "ec2.next_ip:" .. subnet.SubnetId)
  return { Return = true }
end

local SUBNET_FILTERS = {
  ["subnet-id"] = function(r) return r.SubnetId end,
  ["vpc-id"] = function(r) return r.VpcId end,
  ["availability-zone"] = function(r) return r.AvailabilityZone end,
  ["cidr-block"] = function(r) return r.CidrBlock end,
  ["default-for-az"] = function(r) return tostring(r.DefaultForAz) end,
  ["state"] = function(r) return r.State end,
}

---DescribeSubnets: SubnetIds (each must exist), Filters (a vpc-id filter
---is answered through the VPC's referrers).
function A.DescribeSubnets(p, env)
  local recs = {}
  local ids = C.list(p.SubnetIds)
  if #ids > 0 then
    for _, id in ipairs(ids) do recs[#recs + 1] = N.require_subnet(id) end
  else
    local vpc_id = C.filter_value(p.Filters, "vpc-id")
    local candidates = vpc_id and N.referring(vpc_id, "ec2.subnet") or world.ids("ec2.subnet", true)
    for _, id in ipairs(candidates) do recs[#recs + 1] = world.get("ec2.subnet", id) end
  end
  local out = {}
  for _, r in ipairs(recs) do
    if C.matches(r, p.Filters, SUBNET_FILTERS) then out[#out + 1] = subnet_view(r) end
  end
  return { Subnets = out }
end

---ModifySubnetAttribute: SubnetId, MapPublicIpOnLaunch / AssignIpv6AddressOnCreation ({ Value = bool }).
function A.ModifySubnetAttribute(p, env)
  local subnet = N.require_subnet(p.SubnetId)
  local map_public = C.bool(C.value(p.MapPublicIpOnLaunch))
  local ipv6 = C.bool(C.value(p.AssignIpv6AddressOnCreation))
  if map_public ~= nil then subnet.MapPublicIpOnLaunch = map_public end
  if ipv6 ~= nil then subnet.AssignIpv6AddressOnCreation = ipv6 end
  put_subnet(subnet)
  return {}
end

local ACL_FILTERS = {
  ["vpc-id"] = function(r) return r.VpcId end,
  ["default"] = function(r) return tostring(r.IsDefault) end,
  ["network-acl-id"] = function(r) return r.NetworkAclId end,
}

---DescribeNetworkAcls: the default ACL of each VPC (Filters vpc-id, default),
---with its subnet associations, and the ACLs CreateNetworkAcl made.
function A.DescribeNetworkAcls(p, env)
  local ids = C.list(p.NetworkAclIds)
  if #ids > 0 then  -- by ID: the ones CreateNetworkAcl made, each must exist
    local out = {}
    for _, id in ipairs(ids) do out[#out + 1] = C.public(require("sim.ec2.kinds").network_acl:require(id)) end
    return { NetworkAcls = out }
  end
  local vpc_id = C.filter_value(p.Filters, "vpc-id")
  local vpc_ids = vpc_id and { vpc_id } or world.ids("ec2.vpc", true)
  local out = {}
  for _, vid in ipairs(vpc_ids) do
    local vpc = N.vpc(vid)
    if vpc then
      local assocs = {}
      for _, sid in ipairs(N.referring(vid, "ec2.subnet")) do
        local s = world.get("ec2.subnet", sid)
        assocs[#assocs + 1] = { NetworkAclAssociationId = s._sim.NetworkAclAssociationId,
                                NetworkAclId = vpc._sim.DefaultNetworkAclId, SubnetId = sid }
      end
      local acl = { NetworkAclId = vpc._sim.DefaultNetworkAclId, VpcId = vid, IsDefault = true,
                    OwnerId = vpc.OwnerId, Associations = assocs, Entries = {}, Tags = {} }
      if C.matches(acl, p.Filters, ACL_FILTERS) then out[#out + 1] = acl end
    end
  end
  -- and the ones CreateNetworkAcl made (endpoints.lua)
  for _, acl in ipairs(require("sim.ec2.endpoints").custom_acls(vpc_id)) do
    if C.matches(acl, p.Filters, ACL_FILTERS) then out[#out + 1] = C.public(acl) end
  end
  return { NetworkAcls = out }
end

N.actions = A
return N
