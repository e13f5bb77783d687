-- sim.ec2.endpoints: VPC endpoints (Gateway: route tables; Interface:
-- subnets and security groups) and the network ACLs made by
-- CreateNetworkAcl (each VPC's default ACL is described by network.lua).

local world = require("sim.world")
local C = require("sim.ec2.common")
local K = require("sim.ec2.kinds")

local E = {}

local A = {}

local function check_in_vpc(vpc_id, ids, lookup, what)
  for _, id in ipairs(ids) do
    local rec = lookup(id)
    if rec.VpcId ~= vpc_id then
      C.fail(what .. " " .. id .. " does not belong to VPC " .. vpc_id, "InvalidParameter")
    end
  end
end

---CreateVpcEndpoint: VpcId, ServiceName, VpcEndpointType ("Gateway" |
---"Interface" | "GatewayLoadBalancer"), RouteTableIds, SubnetIds,
---SecurityGroupIds, PolicyDocument, PrivateDnsEnabled -> { VpcEndpoint }.
function A.CreateVpcEndpoint(p, env)
  if p.VpcId == nil then C.fail("The request must contain the parameter VpcId", "MissingParameter") end
  if p.ServiceName == nil then C.fail("The request must contain the parameter ServiceName", "MissingParameter") end
  local vpc = require("sim.ec2.network").require_vpc(p.VpcId)
  local kind = p.VpcEndpointType or "Gateway"
  if kind ~= "Gateway" and kind ~= "Interface" and kind ~= "GatewayLoadBalancer" then
    C.fail("Value (" .. tostring(kind) .. ") for parameter VpcEndpointType is invalid.", "InvalidParameterValue")
  end
  local service = tostring(p.ServiceName)
  -- Services are "com.amazonaws.<region>.<service>" (or a private "com.amazonaws.vpce.…" one).
  if not service:match("^com%.amazonaws%.") and not service:match("^aws%.") then
    C.fail("The Vpc Endpoint Service '" .. service .. "' does not exist", "InvalidServiceName")
  end
  local route_tables, subnets, groups = C.list(p.RouteTableIds), C.list(p.SubnetIds), C.list(p.SecurityGroupIds)
  check_in_vpc(vpc.VpcId, route_tables, function(id) return K.route_table:require(id) end, "Route table")
  local network = require("sim.ec2.network")
  check_in_vpc(vpc.VpcId, subnets, network.require_subnet, "Subnet")
  check_in_vpc(vpc.VpcId, groups, require("sim.ec2.groups").require_group, "Security group")
  local id = C.derived_id(env, "vpc", "vpce")
  local rec = {
    VpcEndpointId = id, VpcEndpointType = kind, VpcId = vpc.VpcId, ServiceName = service, State = "available",
    PolicyDocument = p.PolicyDocument, RouteTableIds = route_tables, SubnetIds = kind == "Gateway" and {} or subnets,
    Groups = {}, PrivateDnsEnabled = C.bool(p.PrivateDnsEnabled) == true, RequesterManaged = false,
    NetworkInterfaceIds = {}, DnsEntries = {}, CreationTimestamp = env.now_ms, OwnerId = env.account,
    Tags = C.tag_list(C.spec_tags(p.TagSpecifications, "vpc-endpoint", env)),
  }
  if kind ~= "Gateway" then
    for _, g in ipairs(groups) do rec.Groups[#rec.Groups + 1] = { GroupId = g } end
    for _ in ipairs(subnets) do
      rec.NetworkInterfaceIds[#rec.NetworkInterfaceIds + 1] = C.derived_id(env, "network_interface", "eni")
    end
    rec.DnsEntries[1] = { DnsName = id .. "." .. service:gsub("^com%.amazonaws%.[^.]+%.", "") .. "."
      .. env.region .. ".vpce.amazonaws.com", HostedZoneId = "Z7HUB22UULQXV" }
  end
  K.vpc_endpoint:put(rec)
  return { VpcEndpoint = C.public(rec) }
end

---ModifyVpcEndpoint: VpcEndpointId, Add/RemoveRouteTableIds, Add/RemoveSubnetIds,
---PolicyDocument, ResetPolicy, PrivateDnsEnabled.
function A.ModifyVpcEndpoint(p, env)
  local rec = K.vpc_endpoint:require(p.VpcEndpointId)
  local function edit(list, add, remove, lookup, what)
    add, remove = C.list(add), C.list(remove)
    check_in_vpc(rec.VpcId, add, lookup, what)
    local drop, out, seen = {}, {}, {}
    for _, id in ipairs(remove) do drop[id] = true end
    for _, id in ipairs(list) do if not drop[id] then out[#out + 1] = id; seen[id] = true end end
    for _, id in ipairs(add) do if not seen[id] then out[#out + 1] = id; seen[id] = true end end
    return out
  end
  rec.RouteTableIds = edit(rec.RouteTableIds, p.AddRouteTableIds, p.RemoveRouteTableIds,
    function(id) return K.route_table:require(id) end, "Route table")
  rec.SubnetIds = edit(rec.SubnetIds, p.AddSubnetIds, p.RemoveSubnetIds,
    require("sim.ec2.network").require_subnet, "Subnet")
  if p.PolicyDocument ~= nil then rec.PolicyDocument = p.PolicyDocument end
  if C.bool(p.ResetPolicy) then rec.PolicyDocument = nil end
  if C.bool(p.PrivateDnsEnabled) ~= nil then rec.PrivateDnsEnabled = C.bool(p.PrivateDnsEnabled) end
  K.vpc_endpoint:put(rec)
  return { Return = true }
end

---DeleteVpcEndpoints: VpcEndpointIds -> { Unsuccessful } (AWS's batch shape).
function A.DeleteVpcEndpoints(p, env)
  local unsuccessful = {}
  for _, id in ipairs(C.list(p.VpcEndpointIds)) do
    if K.vpc_endpoint:get(id) then
      K.vpc_endpoint:remove(id)
    else
      unsuccessful[#unsuccessful + 1] = { ResourceId = id, Error = {
        Code = K.vpc_endpoint.code, Message = K.vpc_endpoint.missing(id) } }
    end
  end
  return { Unsuccessful = unsuccessful }
end

---DescribeVpcEndpoints: VpcEndpointIds, Filters.
function A.DescribeVpcEndpoints(p, env)
  local gw = require("sim.ec2.gateways")
  local recs = gw.select(K.vpc_endpoint, p.VpcEndpointIds, p.Filters)
  return { VpcEndpoints = gw.describe(K.vpc_endpoint, recs, p.Filters, {
    ["vpc-endpoint-id"] = function(r) return r.VpcEndpointId end,
    ["vpc-id"] = function(r) return r.VpcId end,
    ["service-name"] = function(r) return r.ServiceName end,
    ["vpc-endpoint-type"] = function(r) return r.VpcEndpointType end,
    ["vpc-endpoint-state"] = function(r) return r.State end,
  }) }
end

-- Network ACLs ----------------------------------------------------------------------

-- A new ACL denies everything: AWS gives it the "*" deny entries (rule 32767).
local function deny_all()
  return {
    { RuleNumber = 32767, Protocol = "-1", RuleAction = "deny", Egress = false, CidrBlock = "0.0.0.0/0" },
    { RuleNumber = 32767, Protocol = "-1", RuleAction = "deny", Egress = true, CidrBlock = "0.0.0.0/0" },
  }
end

---CreateNetworkAcl: VpcId, TagSpecifications -> { NetworkAcl }.
function A.CreateNetworkAcl(p, env)
  if p.VpcId == nil then C.fail("The request must contain the parameter vpcId", "MissingParameter") end
  local vpc = require("sim.ec2.network").require_vpc(p.VpcId)
  local rec = {
    NetworkAclId = env.new_id("network_acl"), VpcId = vpc.VpcId, IsDefault = false, OwnerId = env.account,
    Entries = deny_all(), Associations = {}, Tags = C.tag_list(C.spec_tags(p.TagSpecifications, "network-acl", env)),
  }
  K.network_acl:put(rec)
  return { NetworkAcl = C.public(rec) }
end

---DeleteNetworkAcl: NetworkAclId; one with subnets is refused.
function A.DeleteNetworkAcl(p, env)
  local rec = K.network_acl:require(p.NetworkAclId)
  if #rec.Associations > 0 then
    C.fail("The networkAcl '" .. rec.NetworkAclId .. "' has dependencies and cannot be deleted.", "DependencyViolation")
  end
  K.network_acl:remove(rec.NetworkAclId)
  return {}
end

---The ACLs made by CreateNetworkAcl that DescribeNetworkAcls shows besides
---the default ones: the VPC's (through its referrers), or all.
function E.custom_acls(vpc_id)
  local out = {}
  local candidates = vpc_id and require("sim.ec2.network").referring(vpc_id, K.network_acl.kind)
    or world.ids(K.network_acl.kind, true)
  for _, id in ipairs(candidates) do out[#out + 1] = K.network_acl:get(id) end
  return out
end

E.actions = A
return E
