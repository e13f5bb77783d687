-- sim.ec2.groups: security groups (kind "ec2.security_group") and their
-- rules.
--
-- A group's refs are its VPC and every group its rules reference, so
-- world.referrers(group_id) finds exactly what depends on a group: the
-- instances using it (in a stack or not) and the groups whose rules name
-- it. Rules live in the group record (`_sim.rules`, one entry per peer, with
-- AWS's sgr- ID); a non-live index record per rule ("ec2.security_group_rule")
-- answers "which group holds sgr-…" without a scan, and one per group name
-- ("ec2.security_group_name", id "<vpc-id>/<name>") answers "which group of
-- this VPC has that name" in one read, however many groups the VPC holds.

local world = require("sim.world")
local C = require("sim.ec2.common")
local cidr = require("sim.ec2.cidr")

local G = {}

-- Messages ----------------------------------------------------------------------

-- InvalidGroup.NotFound for an ID: "The security group 'sg-…' does not exist".
local function not_found(id)
  C.fail("The security group '" .. tostring(id) .. "' does not exist", "InvalidGroup.NotFound")
end

-- InvalidGroup.NotFound for a name in the default VPC, verbatim shape from a
-- CloudFormation reason: "The security group 'WebServerSecurityGroup' does
-- not exist in default VPC 'vpc-06dd0cf5353d4b39e'".
local function name_not_found(name, vpc_id)
  C.fail("The security group '" .. tostring(name) .. "' does not exist in default VPC '" .. tostring(vpc_id) .. "'",
    "InvalidGroup.NotFound")
end

-- Records -----------------------------------------------------------------------

local function refs_of(rec)
  local refs, seen = { rec.VpcId }, { [rec.VpcId] = true }
  for _, r in ipairs(rec._sim.rules) do
    local g = r.ReferencedGroupId
    if g and not seen[g] then seen[g] = true; refs[#refs + 1] = g end
  end
  return refs
end

local function put(rec)
  world.put("ec2.security_group", rec.GroupId, rec, { refs = refs_of(rec) })
end

---The live group record, or nil.
function G.group(id)
  if type(id) ~= "string" or not world.live("ec2.security_group", id) then return nil end
  return world.get("ec2.security_group", id)
end

function G.require_group(id)
  return G.group(id) or not_found(id)
end

-- The name index: one non-live record per group, keyed by VPC and name.
local NAME_KIND = "ec2.security_group_name"
local function name_key(vpc_id, name) return tostring(vpc_id) .. "/" .. tostring(name) end

---The group named `name` in VPC `vpc_id`, or nil (one read of the name index).
function G.find_by_name(vpc_id, name)
  local idx = world.get(NAME_KIND, name_key(vpc_id, name))
  return idx and G.group(idx.GroupId) or nil
end

---A group given by ID or, in the default VPC, by name.
function G.lookup(id, name, env)
  if id ~= nil then return G.require_group(id) end
  if name ~= nil then
    local vpc = require("sim.ec2.network").require_default_vpc(env)
    return G.find_by_name(vpc.VpcId, name) or name_not_found(name, vpc.VpcId)
  end
  C.fail("The request must contain the parameter groupName or groupId", "MissingParameter")
end

---Deletes a group record and its rule index entries (no checks).
function G.remove(id)
  local g = world.get("ec2.security_group", id)
  if g then
    for _, r in ipairs(g._sim.rules) do world.remove("ec2.security_group_rule", r.SecurityGroupRuleId) end
    world.remove(NAME_KIND, name_key(g.VpcId, g.GroupName))
  end
  world.remove("ec2.security_group", id)
end

-- Rules -------------------------------------------------------------------------

local PROTOCOL_NAMES = { ["6"] = "tcp", ["17"] = "udp", ["1"] = "icmp", ["58"] = "icmpv6", all = "-1" }

local function protocol(p)
  if p == nil then C.fail("The request must contain the parameter ipProtocol", "MissingParameter") end
  local s = tostring(p):lower()
  s = PROTOCOL_NAMES[s] or s
  if s == "tcp" or s == "udp" or s == "icmp" or s == "icmpv6" or s == "-1" then return s end
  local n = tonumber(s)
  if n and n >= 0 and n <= 255 and n == math.floor(n) then return tostring(n) end
  C.fail("Invalid value '" .. tostring(p) .. "' for IP protocol. Unknown protocol.", "InvalidParameterValue")
end

local function has_ports(proto)
  return proto == "tcp" or proto == "udp" or proto == "icmp" or proto == "icmpv6"
end

local function port(v)
  if v == nil then return nil end
  local n = tonumber(v)
  if not n then C.fail("Invalid value '" .. tostring(v) .. "' for portRange.", "InvalidParameterValue") end
  return n
end

local function check_cidr(text, v6)
  if v6 then
    if type(text) ~= "string" or not text:match("^[%x:]+/%d+$") then
      C.fail("CIDR block " .. tostring(text) .. " is malformed", "InvalidParameterValue")
    end
    return text
  end
  if not cidr.parse(text) and select(2, cidr.parse(text)) ~= "host bits" then
    C.fail("CIDR block " .. tostring(text) .. " is malformed", "InvalidParameterValue")
  end
  return text
end

-- One rule per peer of an IpPermissions entry (AWS's own rule granularity).
local function expand(perm, egress, group, env)
  local proto = protocol(perm.IpProtocol)
  local from, to
  if has_ports(proto) then from, to = port(perm.FromPort), port(perm.ToPort) end
  local rules = {}
  local function add(peer)
    peer.IsEgress = egress
    peer.IpProtocol, peer.FromPort, peer.ToPort = proto, from, to
    rules[#rules + 1] = peer
  end
  for _, r in ipairs(C.list(perm.IpRanges)) do
    add({ CidrIpv4 = check_cidr(r.CidrIp, false), Description = r.Description })
  end
  for _, r in ipairs(C.list(perm.Ipv6Ranges)) do
    add({ CidrIpv6 = check_cidr(r.CidrIpv6, true), Description = r.Description })
  end
  for _, r in ipairs(C.list(perm.PrefixListIds)) do
    add({ PrefixListId = r.PrefixListId, Description = r.Description })
  end
  for _, r in ipairs(C.list(perm.UserIdGroupPairs)) do
    local ref
    if r.GroupId ~= nil then
      ref = r.GroupId == group.GroupId and group or G.require_group(r.GroupId)
    elseif r.GroupName ~= nil then
      ref = r.GroupName == group.GroupName and group or G.find_by_name(group.VpcId, r.GroupName)
      if not ref then not_found(r.GroupName) end
    else
      C.fail("The request must contain the parameter groupId or groupName", "MissingParameter")
    end
    add({ ReferencedGroupId = ref.GroupId, ReferencedUserId = r.UserId or env.account, Description = r.Description })
  end
  return rules
end

local function peer_of(rule)
  return rule.CidrIpv4 or rule.CidrIpv6 or rule.PrefixListId or rule.ReferencedGroupId
end

local function rule_key(rule)
  return table.concat({ tostring(rule.IsEgress), rule.IpProtocol, tostring(rule.FromPort),
    tostring(rule.ToPort), tostring(peer_of(rule)) }, "|")
end

-- InvalidPermission.Duplicate, as EC2 words it:
--   the specified rule "peer: 0.0.0.0/0, TCP, from port: 22, to port: 22, ALLOW" already exists
--   the specified rule "peer: 0.0.0.0/0, ALL, ALLOW" already exists
--   the specified rule "peer: 0.0.0.0/0, protocol: 50, ALLOW" already exists
--   the specified rule "peer: sg-8b3b99f3, TCP, from port: 0, to port: 65535, ALLOW" already exists
-- (ansible/ansible-modules-core#3258, lucidsoftware/cumulus#101,
-- galaxyproject/cloudlaunch#56). ICMP's wording is extrapolated from TCP's.
local function duplicate(rule)
  local what
  if rule.IpProtocol == "-1" then
    what = "ALL"
  elseif has_ports(rule.IpProtocol) then
    what = rule.IpProtocol:upper() .. ", from port: " .. tostring(rule.FromPort) .. ", to port: " .. tostring(rule.ToPort)
  else
    what = "protocol: " .. rule.IpProtocol
  end
  C.fail('the specified rule "peer: ' .. tostring(peer_of(rule)) .. ", " .. what .. ', ALLOW" already exists',
    "InvalidPermission.Duplicate")
end

-- A rule as DescribeSecurityGroupRules shows it.
local function rule_view(group, rule)
  local out = {
    SecurityGroupRuleId = rule.SecurityGroupRuleId, GroupId = group.GroupId, GroupOwnerId = group.OwnerId,
    IsEgress = rule.IsEgress, IpProtocol = rule.IpProtocol,
    FromPort = rule.FromPort or -1, ToPort = rule.ToPort or -1,
    CidrIpv4 = rule.CidrIpv4, CidrIpv6 = rule.CidrIpv6, PrefixListId = rule.PrefixListId,
    Description = rule.Description, Tags = {},
  }
  if rule.ReferencedGroupId then
    out.ReferencedGroupInfo = { GroupId = rule.ReferencedGroupId, UserId = rule.ReferencedUserId }
  end
  return out
end

-- Rules grouped back into IpPermissions (one entry per protocol and ports).
local function permissions(group, egress)
  local perms, by_key = {}, {}
  for _, r in ipairs(group._sim.rules) do
    if r.IsEgress == egress then
      local key = r.IpProtocol .. "|" .. tostring(r.FromPort) .. "|" .. tostring(r.ToPort)
      local p = by_key[key]
      if not p then
        p = { IpProtocol = r.IpProtocol, FromPort = r.FromPort, ToPort = r.ToPort,
              IpRanges = {}, Ipv6Ranges = {}, PrefixListIds = {}, UserIdGroupPairs = {} }
        by_key[key] = p
        perms[#perms + 1] = p
      end
      if r.CidrIpv4 then p.IpRanges[#p.IpRanges + 1] = { CidrIp = r.CidrIpv4, Description = r.Description } end
      if r.CidrIpv6 then p.Ipv6Ranges[#p.Ipv6Ranges + 1] = { CidrIpv6 = r.CidrIpv6, Description = r.Description } end
      if r.PrefixListId then p.PrefixListIds[#p.PrefixListIds + 1] = { PrefixListId = r.PrefixListId, Description = r.Description } end
      if r.ReferencedGroupId then
        p.UserIdGroupPairs[#p.UserIdGroupPairs + 1] = { GroupId = r.ReferencedGroupId, UserId = r.ReferencedUserId,
                                                        Description = r.Description }
      end
    end
  end
  return perms
end

local function group_view(g)
  local out = C.public(g)
  out.IpPermissions = permissions(g, false)
  out.IpPermissionsEgress = permissions(g, true)
  return out
end

-- Adds rules to a group; each gets an sgr- ID. Returns their views.
local function authorize(group, perms, egress, env)
  local have = {}
  for _, r in ipairs(group._sim.rules) do have[rule_key(r)] = true end
  local added = {}
  for _, perm in ipairs(C.list(perms)) do
    for _, rule in ipairs(expand(perm, egress, group, env)) do
      local key = rule_key(rule)
      if have[key] then duplicate(rule) end
      have[key] = true
      added[#added + 1] = rule
    end
  end
  local views = {}
  for _, rule in ipairs(added) do
    rule.SecurityGroupRuleId = env.new_id("security_group_rule")
    group._sim.rules[#group._sim.rules + 1] = rule
    world.put("ec2.security_group_rule", rule.SecurityGroupRuleId, { GroupId = group.GroupId }, { live = false })
    views[#views + 1] = rule_view(group, rule)
  end
  put(group)
  return views
end

-- Removes the rules named by ID or matching IpPermissions. Returns the
-- permissions that matched nothing (AWS's UnknownIpPermissions).
local function revoke(group, p, egress, env)
  local drop, unknown = {}, {}
  for _, rid in ipairs(C.list(p.SecurityGroupRuleIds)) do
    local found = false
    for _, r in ipairs(group._sim.rules) do
      if r.SecurityGroupRuleId == rid and r.IsEgress == egress then drop[rid] = true; found = true end
    end
    if not found then
      C.fail("The security group rule ID '" .. tostring(rid) .. "' does not exist", "InvalidSecurityGroupRuleId.NotFound")
    end
  end
  for _, perm in ipairs(C.list(p.IpPermissions)) do
    for _, want in ipairs(expand(perm, egress, group, env)) do
      local key, found = rule_key(want), false
      for _, r in ipairs(group._sim.rules) do
        if rule_key(r) == key then drop[r.SecurityGroupRuleId] = true; found = true end
      end
      if not found then unknown[#unknown + 1] = perm end
    end
  end
  local keep = {}
  for _, r in ipairs(group._sim.rules) do
    if drop[r.SecurityGroupRuleId] then
      world.remove("ec2.security_group_rule", r.SecurityGroupRuleId)
    else
      keep[#keep + 1] = r
    end
  end
  group._sim.rules = keep
  put(group)
  return unknown
end

local ALL_TRAFFIC = { IpProtocol = "-1", IpRanges = { { CidrIp = "0.0.0.0/0" } } }

-- A new group's record and its name index entry. The group itself is
-- saved by the authorize() that gives it its first rules, which every
-- caller does next (one put per group, not two).
local function new_group(env, vpc_id, name, description, tags)
  local id = env.new_id("security_group")
  local rec = {
    GroupId = id, GroupName = name, Description = description, VpcId = vpc_id,
    OwnerId = env.account, Tags = C.tag_list(tags or {}),
    SecurityGroupArn = "arn:aws:ec2:" .. env.region .. ":" .. env.account .. ":security-group/" .. id,
    _sim = { rules = {} },
  }
  world.put(NAME_KIND, name_key(vpc_id, name), { GroupId = id }, { live = false })
  return rec
end

---Creates VPC `vpc_id`'s "default" group: all traffic from itself in, all
---traffic out. Returns its ID.
function G.create_default(vpc_id, env)
  local g = new_group(env, vpc_id, "default", "default VPC security group")
  authorize(g, { { IpProtocol = "-1", UserIdGroupPairs = { { GroupId = g.GroupId } } } }, false, env)
  authorize(g, { ALL_TRAFFIC }, true, env)
  return g.GroupId
end

-- Actions -----------------------------------------------------------------------

local A = {}

---CreateSecurityGroup: GroupName, Description, VpcId (default VPC when
---absent), TagSpecifications -> { GroupId, Tags }. A new group allows all
---egress, as on AWS.
function A.CreateSecurityGroup(p, env)
  local name = p.GroupName
  if type(name) ~= "string" or name == "" then
    C.fail("The request must contain the parameter GroupName", "MissingParameter")
  end
  if p.Description == nil or p.Description == "" then
    C.fail("The request must contain the parameter GroupDescription", "MissingParameter")
  end
  -- "Value (sg-pr4607-codebuild) for parameter GroupName is invalid. Group
  -- names may not be in the format sg-*." (public deployment log).
  if name:lower():sub(1, 3) == "sg-" then
    C.fail("Value (" .. name .. ") for parameter GroupName is invalid. Group names may not be in the format sg-*.",
      "InvalidParameterValue")
  end
  local network = require("sim.ec2.network")
  local vpc_id = p.VpcId ~= nil and network.require_vpc_id(p.VpcId) or network.require_default_vpc(env).VpcId
  if G.find_by_name(vpc_id, name) then
    -- InvalidGroup.Duplicate: "The security group 'admin-ssh' already exists
    -- for VPC 'vpc-09c4b38653df63f28'" (public terraform output).
    C.fail("The security group '" .. name .. "' already exists for VPC '" .. vpc_id .. "'", "InvalidGroup.Duplicate")
  end
  local tags = C.spec_tags(p.TagSpecifications, "security-group", env)
  local g = new_group(env, vpc_id, name, tostring(p.Description), tags)
  authorize(g, { ALL_TRAFFIC }, true, env)
  return { GroupId = g.GroupId, Tags = C.tag_list(tags), SecurityGroupArn = g.SecurityGroupArn }
end

---DeleteSecurityGroup: GroupId or GroupName (default VPC). Any live
---dependent — an instance in a stack or not, another group's rule — blocks it.
function A.DeleteSecurityGroup(p, env)
  local g = G.lookup(p.GroupId, p.GroupName, env)
  if g.GroupName == "default" then
    -- CannotDelete: the specified group: "sg-…" name: "default" cannot be deleted by a user
    C.fail('the specified group: "' .. g.GroupId .. '" name: "default" cannot be deleted by a user', "CannotDelete")
  end
  local instances = require("sim.ec2.instances")
  for _, r in ipairs(world.referrers(g.GroupId)) do
    local blocking = r.id ~= g.GroupId
    if blocking and r.kind == "ec2.instance" then blocking = instances.settled_live(r.id, env) end
    if blocking then
      -- DependencyViolation, verbatim from seed 000 tests 37/38:
      -- "resource sg-0da0f86b has a dependent object".
      C.fail("resource " .. g.GroupId .. " has a dependent object", "DependencyViolation")
    end
  end
  G.remove(g.GroupId)
  return { Return = true, GroupId = g.GroupId }
end

local GROUP_FILTERS = {
  ["group-id"] = function(r) return r.GroupId end,
  ["group-name"] = function(r) return r.GroupName end,
  ["vpc-id"] = function(r) return r.VpcId end,
  ["description"] = function(r) return r.Description end,
  ["owner-id"] = function(r) return r.OwnerId end,
}

---DescribeSecurityGroups: GroupIds, GroupNames (default VPC), Filters (a
---vpc-id filter is answered through the VPC's referrers).
function A.DescribeSecurityGroups(p, env)
  local recs = {}
  local ids, names = C.list(p.GroupIds), C.list(p.GroupNames)
  if #ids > 0 or #names > 0 then
    for _, id in ipairs(ids) do recs[#recs + 1] = G.require_group(id) end
    for _, n in ipairs(names) do recs[#recs + 1] = G.lookup(nil, n, env) end
  else
    local vpc_id = C.filter_value(p.Filters, "vpc-id")
    local candidates
    if vpc_id then
      candidates = {}
      for _, r in ipairs(world.referrers(vpc_id)) do
        if r.kind == "ec2.security_group" then candidates[#candidates + 1] = r.id end
      end
    else
      candidates = world.ids("ec2.security_group", true)
    end
    for _, id in ipairs(candidates) do recs[#recs + 1] = world.get("ec2.security_group", id) end
  end
  local out = {}
  for _, g in ipairs(recs) do
    if C.matches(g, p.Filters, GROUP_FILTERS) then out[#out + 1] = group_view(g) end
  end
  return { SecurityGroups = out }
end

---DescribeSecurityGroupRules: SecurityGroupRuleIds and/or Filters
---(group-id, security-group-rule-id).
function A.DescribeSecurityGroupRules(p, env)
  local out = {}
  local rule_ids = C.list(p.SecurityGroupRuleIds)
  local groups = {}
  if #rule_ids > 0 then
    local want = {}
    for _, rid in ipairs(rule_ids) do
      local idx = world.get("ec2.security_group_rule", rid)
      local g = idx and G.group(idx.GroupId)
      if not g then
        C.fail("The security group rule ID '" .. tostring(rid) .. "' does not exist", "InvalidSecurityGroupRuleId.NotFound")
      end
      want[rid] = true
      groups[#groups + 1] = { g = g, only = want }
    end
  else
    local gid = C.filter_value(p.Filters, "group-id")
    if not gid then C.fail("The request must contain the parameter group-id filter", "MissingParameter") end
    groups[1] = { g = G.require_group(gid) }
  end
  local seen = {}
  for _, entry in ipairs(groups) do
    for _, r in ipairs(entry.g._sim.rules) do
      local rid = r.SecurityGroupRuleId
      if (not entry.only or entry.only[rid]) and not seen[rid] then
        local view = rule_view(entry.g, r)
        if C.matches(view, p.Filters, {
          ["group-id"] = function(x) return x.GroupId end,
          ["security-group-rule-id"] = function(x) return x.SecurityGroupRuleId end,
        }) then
          seen[rid] = true
          out[#out + 1] = view
        end
      end
    end
  end
  return { SecurityGroupRules = out }
end

local function authorize_action(egress)
  return function(p, env)
    local g = G.lookup(p.GroupId, p.GroupName, env)
    local rules = authorize(g, p.IpPermissions, egress, env)
    return { Return = true, SecurityGroupRules = rules }
  end
end

local function revoke_action(egress)
  return function(p, env)
    local g = G.lookup(p.GroupId, p.GroupName, env)
    local unknown = revoke(g, p, egress, env)
    local out = { Return = true }
    if #unknown > 0 then out.UnknownIpPermissions = unknown end
    return out
  end
end

---AuthorizeSecurityGroupIngress: GroupId | GroupName, IpPermissions -> { Return, SecurityGroupRules }.
A.AuthorizeSecurityGroupIngress = authorize_action(false)
---AuthorizeSecurityGroupEgress: GroupId, IpPermissions -> { Return, SecurityGroupRules }.
A.AuthorizeSecurityGroupEgress = authorize_action(true)
---RevokeSecurityGroupIngress: GroupId | GroupName, IpPermissions | SecurityGroupRuleIds.
A.RevokeSecurityGroupIngress = revoke_action(false)
---RevokeSecurityGroupEgress: GroupId, IpPermissions | SecurityGroupRuleIds.
A.RevokeSecurityGroupEgress = revoke_action(true)

local function describe_action(egress)
  return function(p, env)
    local g = G.lookup(p.GroupId, p.GroupName, env)
    local by_id = {}
    for _, d in ipairs(C.list(p.SecurityGroupRuleDescriptions)) do by_id[d.SecurityGroupRuleId] = d.Description end
    local wanted = {}
    for _, perm in ipairs(C.list(p.IpPermissions)) do
      for _, rule in ipairs(expand(perm, egress, g, env)) do wanted[rule_key(rule)] = rule.Description or "" end
    end
    local hit = {}
    for _, r in ipairs(g._sim.rules) do
      if r.IsEgress == egress then
        local d = by_id[r.SecurityGroupRuleId]
        if d == nil then d = wanted[rule_key(r)] end
        if d ~= nil then
          r.Description = d ~= "" and d or nil
          hit[r.SecurityGroupRuleId] = true
          hit[rule_key(r)] = true
        end
      end
    end
    for rid in pairs(by_id) do
      if not hit[rid] then
        C.fail("The security group rule ID '" .. tostring(rid) .. "' does not exist", "InvalidSecurityGroupRuleId.NotFound")
      end
    end
    for key in pairs(wanted) do
      if not hit[key] then
        C.fail("The specified rule does not exist in this security group.", "InvalidPermission.NotFound")
      end
    end
    put(g)
    return { Return = true }
  end
end

---UpdateSecurityGroupRuleDescriptionsIngress: GroupId, IpPermissions | SecurityGroupRuleDescriptions.
A.UpdateSecurityGroupRuleDescriptionsIngress = describe_action(false)
---UpdateSecurityGroupRuleDescriptionsEgress: GroupId, IpPermissions | SecurityGroupRuleDescriptions.
A.UpdateSecurityGroupRuleDescriptionsEgress = describe_action(true)

G.actions = A
G.save = put
G.rule_key = rule_key
return G
