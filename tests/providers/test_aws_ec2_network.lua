-- AWS::EC2::VPC, ::Subnet, ::SecurityGroup, ::SecurityGroupIngress and
-- ::SecurityGroupEgress driven as the engine drives them.
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("aws ec2 network")


local function load(name) return require("provider_driver").load("ec2/" .. name) end

local function context(sim, logical_id)
  return { stack_name = "s", logical_id = logical_id, region = "us-east-1", account = "123456789012",
           world = sim.client(nil, "cloudformation") }
end

-- Calls a hook as the engine does (these hooks finish in one call).
local function call(decl, hook, ctx, ...)
  ctx.progress = nil
  local r = decl:check_result(hook, decl[hook](ctx, ...))
  H.falsy(P.is_in_progress(r), hook .. " finished")
  return r
end

local function change(decl, ctx, old, new)
  local behavior, changed = decl:change(old, new, ctx)
  return behavior, changed
end

local function group(sim, id)
  return sim.call("ec2", "DescribeSecurityGroups", { GroupIds = { id } }).SecurityGroups[1]
end

-- VPC -------------------------------------------------------------------------------

T.case("VPC: create with DNS settings and tags; Ref and attributes", function()
  local _, sim = fresh()
  local d = load("vpc")
  local ctx = context(sim, "Vpc")
  local props = d:validate({ CidrBlock = "10.0.0.0/16", EnableDnsHostnames = true,
                             Tags = { { Key = "Name", Value = "main" } } }, ctx)
  local r = call(d, "create", ctx, props)
  H.match(r.id, "^vpc%-0%x+$")
  H.eq(r.attributes.VpcId, r.id)
  H.eq(r.attributes.CidrBlock, "10.0.0.0/16")
  local default = sim.call("ec2", "DescribeSecurityGroups", { Filters = {
    { Name = "vpc-id", Values = { r.id } }, { Name = "group-name", Values = { "default" } } } }).SecurityGroups[1]
  H.eq(r.attributes.DefaultSecurityGroup, default.GroupId)
  H.match(r.attributes.DefaultNetworkAcl, "^acl%-0%x+$")
  H.match(r.attributes.CidrBlockAssociations[1], "^vpc%-cidr%-assoc%-")
  H.same(r.attributes.Ipv6CidrBlocks, {})
  H.eq(sim.call("ec2", "DescribeVpcAttribute", { VpcId = r.id, Attribute = "enableDnsHostnames" })
    .EnableDnsHostnames.Value, true)
  local now = call(d, "read", ctx, r.id, props)
  H.same(now.properties, { CidrBlock = "10.0.0.0/16", EnableDnsHostnames = true,
                           Tags = { { Key = "Name", Value = "main" } } })
end)

T.case("VPC: update behaviours; DNS and tags change in place", function()
  local _, sim = fresh()
  local d = load("vpc")
  local ctx = context(sim, "Vpc")
  local old = d:validate({ CidrBlock = "10.0.0.0/16" }, ctx)
  H.eq((change(d, ctx, old, d:validate({ CidrBlock = "10.1.0.0/16" }, ctx))), "replace")
  H.eq(d:update_behavior("InstanceTenancy", "dedicated", "default"), "none")
  H.eq(d:update_behavior("InstanceTenancy", "default", "dedicated"), "replace")
  local r = call(d, "create", ctx, old)
  local new = d:validate({ CidrBlock = "10.0.0.0/16", EnableDnsSupport = false,
                           Tags = { { Key = "Team", Value = "net" } } }, ctx)
  local behavior, changed = change(d, ctx, old, new)
  H.eq(behavior, "none")
  call(d, "update", ctx, r.id, new, old, changed)
  H.eq(sim.call("ec2", "DescribeVpcAttribute", { VpcId = r.id, Attribute = "enableDnsSupport" })
    .EnableDnsSupport.Value, false)
  H.same(sim.call("ec2", "DescribeVpcs", { VpcIds = { r.id } }).Vpcs[1].Tags, { { Key = "Team", Value = "net" },
    { Key = "aws:cloudformation:logical-id", Value = "Vpc" }, { Key = "aws:cloudformation:stack-name", Value = "s" } })
end)

T.case("VPC: delete blocked by a subnet; idempotent once gone", function()
  local _, sim = fresh()
  local d = load("vpc")
  local ctx = context(sim, "Vpc")
  local props = d:validate({ CidrBlock = "10.0.0.0/16" }, ctx)
  local r = call(d, "create", ctx, props)
  local s = sim.call("ec2", "CreateSubnet", { VpcId = r.id, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId
  H.raises(function() call(d, "delete", ctx, r.id, props) end,
    "The vpc '" .. r.id .. "' has dependencies and cannot be deleted.")
  sim.call("ec2", "DeleteSubnet", { SubnetId = s })
  call(d, "delete", ctx, r.id, props)
  call(d, "delete", ctx, r.id, props)
  H.eq(d.read(ctx, r.id, props), nil)
end)

-- Subnet ----------------------------------------------------------------------------

T.case("Subnet: create, update MapPublicIpOnLaunch in place, replace on CidrBlock", function()
  local _, sim = fresh()
  local d = load("subnet")
  local ctx = context(sim, "Subnet")
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local old = d:validate({ VpcId = vpc, CidrBlock = "10.0.1.0/24", AvailabilityZone = "us-east-1b" }, ctx)
  local r = call(d, "create", ctx, old)
  H.match(r.id, "^subnet%-0%x+$")
  H.eq(r.attributes.AvailabilityZone, "us-east-1b")
  H.eq(r.attributes.VpcId, vpc)
  H.match(r.attributes.NetworkAclAssociationId, "^aclassoc%-")
  local new = d:validate({ VpcId = vpc, CidrBlock = "10.0.1.0/24", AvailabilityZone = "us-east-1b",
                           MapPublicIpOnLaunch = true }, ctx)
  local behavior, changed = change(d, ctx, old, new)
  H.eq(behavior, "none")
  call(d, "update", ctx, r.id, new, old, changed)
  H.eq(sim.call("ec2", "DescribeSubnets", { SubnetIds = { r.id } }).Subnets[1].MapPublicIpOnLaunch, true)
  H.eq((change(d, ctx, new, d:validate({ VpcId = vpc, CidrBlock = "10.0.2.0/24" }, ctx))), "replace")
  H.raises(function() call(d, "create", ctx, d:validate({ VpcId = vpc, CidrBlock = "10.0.1.0/25" }, ctx)) end,
    "The CIDR '10.0.1.0/25' conflicts with another subnet")
  call(d, "delete", ctx, r.id, new)
  call(d, "delete", ctx, r.id, new)
  H.eq(d.read(ctx, r.id, new), nil)
end)

-- SecurityGroup ---------------------------------------------------------------------

T.case("SecurityGroup: Ref is the ID in a VPC; rules as given; egress replaces the default", function()
  local _, sim = fresh()
  local d = load("security_group")
  local ctx = context(sim, "WebSG")
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local props = d:validate({ GroupDescription = "web", VpcId = vpc,
    SecurityGroupIngress = { { IpProtocol = "tcp", FromPort = 22, ToPort = 22, CidrIp = "0.0.0.0/0" } },
    SecurityGroupEgress = { { IpProtocol = "tcp", FromPort = 443, ToPort = 443, CidrIp = "0.0.0.0/0" } } }, ctx)
  local r = call(d, "create", ctx, props)
  H.match(r.id, "^sg%-0%x+$")
  H.same(r.attributes, { GroupId = r.id, VpcId = vpc })
  local g = group(sim, r.id)
  H.match(g.GroupName, "^s%-WebSG%-[A-Z0-9]+$", "a generated physical name")
  H.eq(#g.GroupName, #"s-WebSG-" + 13)
  H.eq(#g.IpPermissions, 1)
  H.eq(g.IpPermissions[1].FromPort, 22)
  H.eq(#g.IpPermissionsEgress, 1)
  H.eq(g.IpPermissionsEgress[1].FromPort, 443, "the allow-all default is gone")
  local now = call(d, "read", ctx, r.id, props)
  H.same(now.properties.SecurityGroupIngress, { { IpProtocol = "tcp", FromPort = 22, ToPort = 22, CidrIp = "0.0.0.0/0" } })
end)

T.case("SecurityGroup: rule changes are no interruption and applied as a diff", function()
  local _, sim = fresh()
  local d = load("security_group")
  local ctx = context(sim, "SG")
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local ssh = { IpProtocol = "tcp", FromPort = 22, ToPort = 22, CidrIp = "0.0.0.0/0" }
  local web = { IpProtocol = "tcp", FromPort = 80, ToPort = 80, CidrIp = "0.0.0.0/0", Description = "http" }
  local old = d:validate({ GroupName = "sg1", GroupDescription = "d", VpcId = vpc, SecurityGroupIngress = { ssh, web },
    SecurityGroupEgress = { { IpProtocol = "-1", CidrIp = "10.0.0.0/8" } } }, ctx)
  local r = call(d, "create", ctx, old)
  local rules_before = sim.call("ec2", "DescribeSecurityGroupRules", { Filters = {
    { Name = "group-id", Values = { r.id } } } }).SecurityGroupRules
  local web2 = { IpProtocol = "tcp", FromPort = 80, ToPort = 80, CidrIp = "0.0.0.0/0", Description = "web" }
  local https = { IpProtocol = "tcp", FromPort = 443, ToPort = 443, CidrIp = "0.0.0.0/0" }
  local new = d:validate({ GroupName = "sg1", GroupDescription = "d", VpcId = vpc, SecurityGroupIngress = { web2, https },
                           Tags = { { Key = "a", Value = "b" } } }, ctx)
  local behavior, changed = change(d, ctx, old, new)
  H.eq(behavior, "none")
  H.same(changed, { "SecurityGroupEgress", "SecurityGroupIngress", "Tags" })
  call(d, "update", ctx, r.id, new, old, changed)
  local g = group(sim, r.id)
  local ports = {}
  for _, p in ipairs(g.IpPermissions) do ports[#ports + 1] = p.FromPort .. "=" .. tostring(p.IpRanges[1].Description) end
  table.sort(ports)
  H.same(ports, { "443=nil", "80=web" })
  H.same(g.IpPermissionsEgress[1].IpRanges, { { CidrIp = "0.0.0.0/0" } }, "no egress rules: EC2's default again")
  H.same(g.Tags, { { Key = "a", Value = "b" }, { Key = "aws:cloudformation:logical-id", Value = "SG" },
                   { Key = "aws:cloudformation:stack-name", Value = "s" } })
  -- the kept rule kept its ID
  local kept
  for _, rule in ipairs(rules_before) do if rule.FromPort == 80 then kept = rule.SecurityGroupRuleId end end
  H.eq(sim.call("ec2", "DescribeSecurityGroupRules", { SecurityGroupRuleIds = { kept } }).SecurityGroupRules[1].Description,
    "web")
  for _, name in ipairs({ "GroupName", "GroupDescription", "VpcId" }) do
    H.eq(d:property(name).update, "replace", name)
  end
end)

T.case("SecurityGroup without a VpcId: default VPC, Ref is the name", function()
  local _, sim = fresh()
  local d = load("security_group")
  local ctx = context(sim, "Classic")
  local props = d:validate({ GroupName = "legacy", GroupDescription = "d" }, ctx)
  local r = call(d, "create", ctx, props)
  H.eq(r.id, "legacy")
  H.match(r.attributes.GroupId, "^sg%-0%x+$")
  local new = d:validate({ GroupName = "legacy", GroupDescription = "d", SecurityGroupIngress = {
    { IpProtocol = "tcp", FromPort = 22, ToPort = 22, CidrIp = "0.0.0.0/0" } } }, ctx)
  local _, changed = change(d, ctx, props, new)
  call(d, "update", ctx, r.id, new, props, changed)
  H.eq(#group(sim, r.attributes.GroupId).IpPermissions, 1)
  call(d, "delete", ctx, r.id, new)
  call(d, "delete", ctx, r.id, new)
end)

T.case("stack tags: a VPC, subnet and group get the stack's and CloudFormation's tags; UpdateStack's new ones re-tag them", function()
  local _, sim = fresh()
  local stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/s/1"
  local function ctx_of(logical)
    local c = context(sim, logical)
    c.stack_id, c.stack_tags = stack_id, { { Key = "team", Value = "web" }, { Key = "env", Value = "dev" } }
    return c
  end
  local function tags_of(id)
    local out = {}
    for _, t in ipairs(sim.call("ec2", "DescribeTags", { Filters = { { Name = "resource-id", Values = { id } } } }).Tags) do
      out[t.Key] = t.Value
    end
    return out
  end
  local made = {}
  local vpc_d, subnet_d, sg_d = load("vpc"), load("subnet"), load("security_group")
  local vpc_p = vpc_d:validate({ CidrBlock = "10.0.0.0/16", Tags = { { Key = "env", Value = "prod" } } }, ctx_of("Vpc"))
  made.Vpc = { d = vpc_d, p = vpc_p, id = call(vpc_d, "create", ctx_of("Vpc"), vpc_p).id }
  local subnet_p = subnet_d:validate({ VpcId = made.Vpc.id, CidrBlock = "10.0.1.0/24" }, ctx_of("Subnet"))
  made.Subnet = { d = subnet_d, p = subnet_p, id = call(subnet_d, "create", ctx_of("Subnet"), subnet_p).id }
  local sg_p = sg_d:validate({ GroupDescription = "d", VpcId = made.Vpc.id }, ctx_of("SG"))
  made.SG = { d = sg_d, p = sg_p, id = call(sg_d, "create", ctx_of("SG"), sg_p).id }
  local function cfn(logical, extra)
    local t = { ["aws:cloudformation:stack-name"] = "s", ["aws:cloudformation:stack-id"] = stack_id,
                ["aws:cloudformation:logical-id"] = logical }
    for k, v in pairs(extra) do t[k] = v end
    return t
  end
  -- the template's own tag wins over the stack's
  H.same(tags_of(made.Vpc.id), cfn("Vpc", { team = "web", env = "prod" }))
  H.same(tags_of(made.Subnet.id), cfn("Subnet", { team = "web", env = "dev" }))
  H.same(tags_of(made.SG.id), cfn("SG", { team = "web", env = "dev" }))
  H.eq(#group(sim, made.SG.id).Tags, 5, "DescribeSecurityGroups shows them too")
  -- read reports the template's and the stack's tags, not AWS's own aws:* ones
  H.same(call(vpc_d, "read", ctx_of("Vpc"), made.Vpc.id, vpc_p).properties.Tags,
    { { Key = "env", Value = "prod" }, { Key = "team", Value = "web" } })

  -- UpdateStack with new stack tags: "Tags" changed, the resources' own the same
  for logical, m in pairs(made) do
    local c = ctx_of(logical)
    c.old_stack_tags = c.stack_tags
    c.stack_tags = { { Key = "team", Value = "data" }, { Key = "cost", Value = "42" } }
    call(m.d, "update", c, m.id, m.p, m.p, { "Tags" })
  end
  H.same(tags_of(made.Vpc.id), cfn("Vpc", { team = "data", cost = "42", env = "prod" }))
  H.same(tags_of(made.Subnet.id), cfn("Subnet", { team = "data", cost = "42" }))
  H.same(tags_of(made.SG.id), cfn("SG", { team = "data", cost = "42" }))
end)

-- Standalone rules ------------------------------------------------------------------

T.case("SecurityGroupIngress: Ref is the rule ID; Description in place; delete revokes", function()
  local _, sim = fresh()
  local d = load("security_group_ingress")
  local ctx = context(sim, "Rule")
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local gid = sim.call("ec2", "CreateSecurityGroup", { GroupName = "g", Description = "g", VpcId = vpc }).GroupId
  local src = sim.call("ec2", "CreateSecurityGroup", { GroupName = "src", Description = "s", VpcId = vpc }).GroupId
  local old = d:validate({ GroupId = gid, IpProtocol = "tcp", FromPort = "8080", ToPort = 8080,
                           SourceSecurityGroupId = src }, ctx)
  H.eq(old.FromPort, 8080, "a numeric string is coerced")
  local r = call(d, "create", ctx, old)
  H.match(r.id, "^sgr%-0%x+$")
  H.same(r.attributes, { Id = r.id })
  H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupId = src }) end,
    "resource " .. src .. " has a dependent object", "the rule holds its source group")
  local new = d:validate({ GroupId = gid, IpProtocol = "tcp", FromPort = 8080, ToPort = 8080,
                           SourceSecurityGroupId = src, Description = "app" }, ctx)
  local behavior, changed = change(d, ctx, old, new)
  H.eq(behavior, "none")
  call(d, "update", ctx, r.id, new, old, changed)
  H.eq(sim.call("ec2", "DescribeSecurityGroupRules", { SecurityGroupRuleIds = { r.id } }).SecurityGroupRules[1].Description,
    "app")
  H.eq((change(d, ctx, new, d:validate({ GroupId = gid, IpProtocol = "tcp", FromPort = 9090, ToPort = 9090,
    SourceSecurityGroupId = src }, ctx))), "replace")
  call(d, "delete", ctx, r.id, new)
  H.same(group(sim, gid).IpPermissions, {})
  call(d, "delete", ctx, r.id, new)
  sim.call("ec2", "DeleteSecurityGroup", { GroupId = src })
  H.eq(d.read(ctx, r.id, new), nil)
end)

T.case("SecurityGroupEgress: create, duplicate fails, delete revokes", function()
  local _, sim = fresh()
  local d = load("security_group_egress")
  local ctx = context(sim, "Out")
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local gid = sim.call("ec2", "CreateSecurityGroup", { GroupName = "g", Description = "g", VpcId = vpc }).GroupId
  H.raises(function() call(d, "create", ctx, d:validate({ GroupId = gid, IpProtocol = "-1", CidrIp = "0.0.0.0/0" }, ctx)) end,
    'the specified rule "peer: 0.0.0.0/0, ALL, ALLOW" already exists')
  local props = d:validate({ GroupId = gid, IpProtocol = "udp", FromPort = 53, ToPort = 53, CidrIp = "10.0.0.2/32" }, ctx)
  local r = call(d, "create", ctx, props)
  H.match(r.id, "^sgr%-")
  H.eq(call(d, "read", ctx, r.id, props).properties.CidrIp, "10.0.0.2/32")
  call(d, "delete", ctx, r.id, props)
  H.eq(#group(sim, gid).IpPermissionsEgress, 1, "only the default egress rule is left")
  H.eq(d:property("Description").update, "none")
  H.eq(d:property("DestinationSecurityGroupId").update, "replace")
end)

return T
