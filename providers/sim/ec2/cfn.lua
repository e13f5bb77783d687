-- sim.ec2.cfn: what the built-in AWS::EC2::* providers share when they talk
-- to the (simulated) EC2 API: the client, error codes, tags, physical
-- names, and how long the world takes to move an instance along.
--
-- Providers call EC2 only through its actions (ctx.world.ec2.X{...}), as a
-- real CloudFormation handler would; this module adds no back door.

local sim = require("sim")
local tags = require("moonstack.tags")
local values = require("moonstack.values")
local errors = require("moonstack.errors")
local C = require("sim.ec2.common")

local M = {}

---The EC2 client of a hook: ctx.world (set by the host) or one made here.
---@param ctx table?
---@return table  client.ec2.<Action>{...}
function M.ec2(ctx)
  local client = type(ctx) == "table" and ctx.world or nil
  if type(client) ~= "table" or client.ec2 == nil then client = sim.client(ctx, "cloudformation") end
  return client.ec2
end

---The AWS error code of a raised error (nil for other errors).
function M.code(err)
  local _, code = errors.message(err)
  return code
end

---True for EC2's "...NotFound" errors (InvalidInstanceID.NotFound, ...).
function M.not_found(err)
  local code = M.code(err)
  return type(code) == "string" and code:match("NotFound$") ~= nil
end

---Calls fn(req); returns its result, or nil when it failed with a NotFound
---error. Other errors propagate unchanged (their message is AWS's).
function M.unless_gone(fn, req)
  local res, err = sim.attempt(fn, req)
  if err == nil then return res end
  if M.not_found(err) then return nil end
  error(err, 0)
end

---TagSpecifications for a create call: the tags CloudFormation puts on the
---resource it creates (tags.for_resource: the stack's tags, the template's
---Tags over them, and the aws:cloudformation:stack-name / logical-id /
---stack-id tags, which EC2 takes from CloudFormation alone).
---@param ctx table  the hook's context
---@param resource_type string  EC2's ResourceType ("security-group", ...)
---@param list moonstack.Tag[]?  the template's Tags
function M.tag_specs(ctx, resource_type, list)
  return { { ResourceType = resource_type, Tags = tags.from_map(tags.for_resource(ctx, list)) } }
end

---Applies a Tags change with CreateTags / DeleteTags: the template's Tags
---from `old` to `new`, and UpdateStack's new stack tags (tags.update_diff).
function M.update_tags(ctx, ec2, id, old, new)
  local set, remove = tags.update_diff(ctx, old, new)
  if #remove > 0 then
    local del = {}
    for i, k in ipairs(remove) do del[i] = { Key = k } end
    ec2.DeleteTags { Resources = { id }, Tags = del }
  end
  if next(set) ~= nil then ec2.CreateTags { Resources = { id }, Tags = tags.from_map(set) } end
end

---A record's Tags as a sorted CloudFormation Tags list, without AWS's own
---aws:* tags (not the template's; drift ignores them too).
function M.tags_of(rec)
  local map = {}
  for _, t in ipairs(rec.Tags or {}) do
    if t.Key:sub(1, 4):lower() ~= "aws:" then map[t.Key] = t.Value end
  end
  return tags.from_map(map)
end

---CloudFormation's generated physical name: "<stack>-<logical id>-<13
---random upper-case letters and digits>", cut to `max` characters by
---shortening the stack and logical parts. The random part comes from the
---world's ID generator, so a replay names things the same way (a draw takes
---the world's lock itself: no world.atomic around it).
---@param ctx table
---@param max integer?
---@return string
function M.physical_name(ctx, max)
  max = max or 255
  local suffix = sim.new_id("user_id"):sub(5, 17)
  local stack = tostring(ctx.stack_name or "stack")
  local logical = tostring(ctx.logical_id or "Resource")
  local room = max - #suffix - 2
  if #stack + #logical > room then
    local half = math.floor(room / 2)
    if #stack > half and #logical > room - half then
      stack, logical = stack:sub(1, half), logical:sub(1, room - half)
    elseif #stack > half then
      stack = stack:sub(1, room - #logical)
    else
      logical = logical:sub(1, room - #stack)
    end
  end
  return stack .. "-" .. logical .. "-" .. suffix
end

-- Security group rules --------------------------------------------------------------

local PROTOCOL_NAMES = { ["6"] = "tcp", ["17"] = "udp", ["1"] = "icmp", ["58"] = "icmpv6", all = "-1" }
local PORTED = { tcp = true, udp = true, icmp = true, icmpv6 = true }

local function protocol(p)
  local s = tostring(p):lower()
  return PROTOCOL_NAMES[s] or s
end

---A CloudFormation rule (SecurityGroupIngress/Egress entry, or a standalone
---AWS::EC2::SecurityGroupIngress/Egress's properties) as one EC2
---IpPermissions entry. `egress` picks Destination* over Source* fields.
---@param rule table
---@param egress boolean
---@return table
function M.permission(rule, egress)
  local perm = { IpProtocol = rule.IpProtocol, FromPort = rule.FromPort, ToPort = rule.ToPort }
  local d = rule.Description
  if rule.CidrIp then perm.IpRanges = { { CidrIp = rule.CidrIp, Description = d } } end
  if rule.CidrIpv6 then perm.Ipv6Ranges = { { CidrIpv6 = rule.CidrIpv6, Description = d } } end
  local prefix, gid, gname, owner
  if egress then
    prefix, gid = rule.DestinationPrefixListId, rule.DestinationSecurityGroupId
  else
    prefix, gid = rule.SourcePrefixListId, rule.SourceSecurityGroupId
    gname, owner = rule.SourceSecurityGroupName, rule.SourceSecurityGroupOwnerId
  end
  if prefix then perm.PrefixListIds = { { PrefixListId = prefix, Description = d } } end
  if gid then
    perm.UserIdGroupPairs = { { GroupId = gid, UserId = owner, Description = d } }
  elseif gname then
    perm.UserIdGroupPairs = { { GroupName = gname, UserId = owner, Description = d } }
  end
  return perm
end

---The identity of a rule (protocol, ports, peer; not its description), to
---diff two rule lists as EC2 compares rules.
function M.rule_key(rule, egress)
  local proto = protocol(rule.IpProtocol)
  local from, to = "", ""
  if PORTED[proto] then from, to = tostring(rule.FromPort), tostring(rule.ToPort) end
  local peer = rule.CidrIp or rule.CidrIpv6
    or (egress and (rule.DestinationPrefixListId or rule.DestinationSecurityGroupId))
    or (not egress and (rule.SourcePrefixListId or rule.SourceSecurityGroupId or rule.SourceSecurityGroupName))
  return table.concat({ proto, from, to, tostring(peer) }, "|")
end

---EC2 IpPermissions (a DescribeSecurityGroups answer) as CloudFormation
---rules, one per peer.
function M.rules_of(perms, egress)
  local out = {}
  for _, p in ipairs(perms or {}) do
    local function add(fields, d)
      local r = { IpProtocol = p.IpProtocol, FromPort = p.FromPort, ToPort = p.ToPort, Description = d }
      for k, v in pairs(fields) do r[k] = v end
      out[#out + 1] = r
    end
    for _, x in ipairs(p.IpRanges or {}) do add({ CidrIp = x.CidrIp }, x.Description) end
    for _, x in ipairs(p.Ipv6Ranges or {}) do add({ CidrIpv6 = x.CidrIpv6 }, x.Description) end
    for _, x in ipairs(p.PrefixListIds or {}) do
      add({ [egress and "DestinationPrefixListId" or "SourcePrefixListId"] = x.PrefixListId }, x.Description)
    end
    for _, x in ipairs(p.UserIdGroupPairs or {}) do
      add({ [egress and "DestinationSecurityGroupId" or "SourceSecurityGroupId"] = x.GroupId }, x.Description)
    end
  end
  return out
end

---Seconds the world takes for an instance transition ("boot", "stop",
---"terminate"): how long a hook says to wait before looking again.
function M.seconds(what)
  local cfg = C.config()
  return cfg[what .. "_seconds"] or 30
end

---Seconds between two looks at something still in transition.
M.POLL_SECONDS = 5

return M
