-- AWS::EC2::SecurityGroup on the simulated EC2.
--
-- Update behaviours from the CloudFormation reference
-- (AWS::EC2::SecurityGroup): GroupName, GroupDescription, VpcId
-- Replacement; SecurityGroupIngress, SecurityGroupEgress, Tags No
-- interruption — an update authorizes the added rules, revokes the removed
-- ones and rewrites changed descriptions.
-- Ref: the group ID for a group given a VpcId, else (default VPC) its name
-- ("Ref returns the security group name or the security group ID (for
-- EC2-VPC security groups that are not in a default VPC)").
-- Egress: EC2 gives a new group an allow-all egress rule; "the default rule
-- is removed only when you specify one or more egress rules".

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

local ALLOW_ALL = { IpProtocol = "-1", CidrIp = "0.0.0.0/0" }

-- The egress rules a template asks for: its list, or EC2's default.
local function egress_rules(props)
  local list = props.SecurityGroupEgress
  if list == nil or #list == 0 then return { ALLOW_ALL } end
  return list
end

-- A group named by its physical ID: an sg- ID, or a name in the default VPC.
local function ref(id)
  if id:match("^sg%-") then return { GroupId = id } end
  return { GroupName = id }
end

local function with(base, fields)
  local out = {}
  for k, v in pairs(base) do out[k] = v end
  for k, v in pairs(fields) do out[k] = v end
  return out
end

-- Moves a group's rules in one direction from `old` to `new` (CloudFormation
-- rule lists): revoke removed, authorize added, rewrite changed descriptions.
local function sync(ec2, group, old, new, egress)
  local suffix = egress and "Egress" or "Ingress"
  local before, after = {}, {}
  for _, r in ipairs(old or {}) do before[cfn.rule_key(r, egress)] = r end
  for _, r in ipairs(new or {}) do after[cfn.rule_key(r, egress)] = r end
  local revoke, authorize, describe = {}, {}, {}
  for _, r in ipairs(old or {}) do
    if not after[cfn.rule_key(r, egress)] then revoke[#revoke + 1] = cfn.permission(r, egress) end
  end
  local seen = {}
  for _, r in ipairs(new or {}) do
    local key = cfn.rule_key(r, egress)
    if not seen[key] then
      seen[key] = true
      local was = before[key]
      if not was then
        authorize[#authorize + 1] = cfn.permission(r, egress)
      elseif (was.Description or "") ~= (r.Description or "") then
        describe[#describe + 1] = cfn.permission(with(r, { Description = r.Description or "" }), egress)
      end
    end
  end
  if #revoke > 0 then ec2["RevokeSecurityGroup" .. suffix](with(group, { IpPermissions = revoke })) end
  if #authorize > 0 then ec2["AuthorizeSecurityGroup" .. suffix](with(group, { IpPermissions = authorize })) end
  if #describe > 0 then
    ec2["UpdateSecurityGroupRuleDescriptions" .. suffix](with(group, { IpPermissions = describe }))
  end
end

local function describe_group(ec2, id)
  local r = ref(id)
  local res = cfn.unless_gone(ec2.DescribeSecurityGroups,
    r.GroupId and { GroupIds = { r.GroupId } } or { GroupNames = { r.GroupName } })
  return res and res.SecurityGroups[1] or nil
end

-- The properties read reports from the group itself.
local GROUP_PROPERTIES = { GroupName = true, GroupDescription = true, VpcId = true, Tags = true,
                           SecurityGroupIngress = true, SecurityGroupEgress = true }

return P.define {
  type = "AWS::EC2::SecurityGroup",
  properties = {
    P.string "GroupDescription" { required = true, update = "replace" },
    P.string "GroupName" { update = "replace" },
    P.json "SecurityGroupEgress" { update = "none" },
    P.json "SecurityGroupIngress" { update = "none" },
    P.tags "Tags" { update = "none" },
    P.string "VpcId" { update = "replace" },
  },
  attributes = { "GroupId", "VpcId" },

  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    local name = props.GroupName or cfn.physical_name(ctx, 255)
    local created = ec2.CreateSecurityGroup { GroupName = name, Description = props.GroupDescription,
      VpcId = props.VpcId, TagSpecifications = cfn.tag_specs(ctx, "security-group", props.Tags) }
    local gid = created.GroupId
    local group = { GroupId = gid }
    sync(ec2, group, {}, props.SecurityGroupIngress, false)
    sync(ec2, group, { ALLOW_ALL }, egress_rules(props), true)
    -- The default VPC's ID, when none was given, from the group itself.
    local vpc_id = props.VpcId or ec2.DescribeSecurityGroups { GroupIds = { gid } }.SecurityGroups[1].VpcId
    return { id = props.VpcId and gid or name, attributes = { GroupId = gid, VpcId = vpc_id } }
  end,

  update = function(ctx, id, new, old, changed)
    local ec2 = cfn.ec2(ctx)
    local group = ref(id)
    for _, name in ipairs(changed) do
      if name == "SecurityGroupIngress" then
        sync(ec2, group, old.SecurityGroupIngress, new.SecurityGroupIngress, false)
      elseif name == "SecurityGroupEgress" then
        sync(ec2, group, egress_rules(old), egress_rules(new), true)
      elseif name == "Tags" then
        local g = describe_group(ec2, id)
        if not g then P.fail("The security group '" .. id .. "' does not exist", "NotFound") end
        cfn.update_tags(ctx, ec2, g.GroupId, old.Tags, new.Tags)
      end
    end
  end,

  -- DeleteSecurityGroup; a group already gone is deleted. A dependent
  -- (an instance, in the stack or not, or another group's rule) fails it
  -- with "resource sg-… has a dependent object" (seed 000 tests 37/38); the
  -- engine retries and finally gives up on it.
  delete = function(ctx, id, props)
    cfn.unless_gone(cfn.ec2(ctx).DeleteSecurityGroup, ref(id))
  end,

  read = function(ctx, id, props)
    local ec2 = cfn.ec2(ctx)
    local g = describe_group(ec2, id)
    if not g then return nil end
    local now = {
      GroupName = g.GroupName, GroupDescription = g.Description, VpcId = g.VpcId, Tags = cfn.tags_of(g),
      SecurityGroupIngress = cfn.rules_of(g.IpPermissions, false),
      SecurityGroupEgress = cfn.rules_of(g.IpPermissionsEgress, true),
    }
    -- What the group has now for every property it keeps (a rule list
    -- emptied out of band is gone: drift's REMOVE); the rest as deployed.
    local properties = {}
    for k, v in pairs(props or {}) do
      if GROUP_PROPERTIES[k] then properties[k] = now[k] else properties[k] = v end
    end
    return { properties = properties, attributes = { GroupId = g.GroupId, VpcId = g.VpcId } }
  end,
}
