-- The simulated EC2's security groups: rules, AWS's messages, and the
-- dependent-object checks of seed 000 tests 37 and 38 (an instance outside
-- any stack holding a group).
local H = require("harness")
local T = H.suite("sim ec2 security groups")

local AMI = "ami-0123456789abcdef0"

local function setup(sim)
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local subnet = sim.call("ec2", "CreateSubnet", { VpcId = vpc, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId
  return vpc, subnet
end

local function group(sim, vpc, name)
  return sim.call("ec2", "CreateSecurityGroup", { GroupName = name, Description = name .. " group", VpcId = vpc }).GroupId
end

local function describe(sim, id)
  return sim.call("ec2", "DescribeSecurityGroups", { GroupIds = { id } }).SecurityGroups[1]
end

local SSH = { IpProtocol = "tcp", FromPort = 22, ToPort = 22, IpRanges = { { CidrIp = "0.0.0.0/0" } } }

T.case("CreateSecurityGroup: AWS's shape, allow-all egress, unique names per VPC", function()
  local _, sim = fresh()
  local vpc = setup(sim)
  local id = group(sim, vpc, "web")
  H.match(id, "^sg%-0%x+$")
  local g = describe(sim, id)
  H.eq(g.GroupName, "web")
  H.eq(g.Description, "web group")
  H.eq(g.VpcId, vpc)
  H.same(g.IpPermissions, {})
  H.same(g.IpPermissionsEgress, { { IpProtocol = "-1", IpRanges = { { CidrIp = "0.0.0.0/0" } }, Ipv6Ranges = {},
                                    PrefixListIds = {}, UserIdGroupPairs = {} } })
  local e = H.raises(function() group(sim, vpc, "web") end,
    "The security group 'web' already exists for VPC '" .. vpc .. "'")
  H.eq(e.code, "InvalidGroup.Duplicate")
  H.match(group(sim, setup(sim), "web"), "^sg%-", "the same name in another VPC is fine")
  H.raises(function() sim.call("ec2", "CreateSecurityGroup", { GroupName = "x", VpcId = vpc }) end,
    "The request must contain the parameter GroupDescription")
  H.raises(function() group(sim, vpc, "sg-web") end,
    "Value (sg-web) for parameter GroupName is invalid. Group names may not be in the format sg-*.")
  H.raises(function() group(sim, "vpc-0123456789abcdef0", "x") end, "The vpc ID 'vpc-0123456789abcdef0' does not exist")
end)

T.case("authorize: rules get sgr- IDs; duplicates fail with EC2's wording", function()
  local _, sim = fresh()
  local vpc = setup(sim)
  local id, other = group(sim, vpc, "web"), group(sim, vpc, "lb")
  local r = sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = { SSH } })
  H.eq(r.Return, true)
  H.match(r.SecurityGroupRules[1].SecurityGroupRuleId, "^sgr%-0%x+$")
  H.eq(r.SecurityGroupRules[1].IsEgress, false)
  local e = H.raises(function()
    sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = { SSH } })
  end, 'the specified rule "peer: 0.0.0.0/0, TCP, from port: 22, to port: 22, ALLOW" already exists')
  H.eq(e.code, "InvalidPermission.Duplicate")
  H.raises(function()
    sim.call("ec2", "AuthorizeSecurityGroupEgress", { GroupId = id, IpPermissions = {
      { IpProtocol = "-1", IpRanges = { { CidrIp = "0.0.0.0/0" } } } } })
  end, 'the specified rule "peer: 0.0.0.0/0, ALL, ALLOW" already exists')
  local esp = { IpProtocol = "50", IpRanges = { { CidrIp = "0.0.0.0/0" } } }
  sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = { esp } })
  H.raises(function() sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = { esp } }) end,
    'the specified rule "peer: 0.0.0.0/0, protocol: 50, ALLOW" already exists')
  local from_lb = { IpProtocol = "tcp", FromPort = 0, ToPort = 65535, UserIdGroupPairs = { { GroupId = other } } }
  sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = { from_lb } })
  H.raises(function() sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = { from_lb } }) end,
    'the specified rule "peer: ' .. other .. ', TCP, from port: 0, to port: 65535, ALLOW" already exists')
  -- "6" is TCP: the same rule
  H.raises(function()
    sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = {
      { IpProtocol = "6", FromPort = 22, ToPort = 22, IpRanges = { { CidrIp = "0.0.0.0/0" } } } } })
  end, 'the specified rule "peer: 0.0.0.0/0, TCP, from port: 22, to port: 22, ALLOW" already exists')
  H.raises(function()
    sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = {
      { IpProtocol = "tcp", FromPort = 1, ToPort = 1, UserIdGroupPairs = { { GroupId = "sg-0123456789abcdef0" } } } } })
  end, "The security group 'sg-0123456789abcdef0' does not exist")
end)

T.case("revoke by permission or rule ID; DescribeSecurityGroupRules", function()
  local _, sim = fresh()
  local vpc = setup(sim)
  local id = group(sim, vpc, "web")
  local rid = sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = { SSH,
    { IpProtocol = "tcp", FromPort = 80, ToPort = 80, IpRanges = { { CidrIp = "10.0.0.0/8", Description = "web" } } } } })
    .SecurityGroupRules[2].SecurityGroupRuleId
  local rule = sim.call("ec2", "DescribeSecurityGroupRules", { SecurityGroupRuleIds = { rid } }).SecurityGroupRules[1]
  H.eq(rule.GroupId, id)
  H.eq(rule.CidrIpv4, "10.0.0.0/8")
  H.eq(rule.FromPort, 80)
  H.eq(rule.Description, "web")
  H.eq(#sim.call("ec2", "DescribeSecurityGroupRules", { Filters = { { Name = "group-id", Values = { id } } } })
    .SecurityGroupRules, 3, "two ingress rules and the default egress")
  sim.call("ec2", "UpdateSecurityGroupRuleDescriptionsIngress", { GroupId = id,
    SecurityGroupRuleDescriptions = { { SecurityGroupRuleId = rid, Description = "http" } } })
  H.eq(sim.call("ec2", "DescribeSecurityGroupRules", { SecurityGroupRuleIds = { rid } }).SecurityGroupRules[1].Description,
    "http")
  sim.call("ec2", "RevokeSecurityGroupIngress", { GroupId = id, SecurityGroupRuleIds = { rid } })
  local e = H.raises(function() sim.call("ec2", "DescribeSecurityGroupRules", { SecurityGroupRuleIds = { rid } }) end)
  H.eq(e.code, "InvalidSecurityGroupRuleId.NotFound")
  local r = sim.call("ec2", "RevokeSecurityGroupIngress", { GroupId = id, IpPermissions = { SSH } })
  H.same(r, { Return = true })
  H.same(describe(sim, id).IpPermissions, {})
  r = sim.call("ec2", "RevokeSecurityGroupIngress", { GroupId = id, IpPermissions = { SSH } })
  H.eq(#r.UnknownIpPermissions, 1, "revoking a rule that is not there reports it")
end)

T.case("an instance outside any stack blocks deleting its group (seed 000 tests 37/38)", function()
  local world, sim = fresh()
  local vpc, subnet = setup(sim)
  local id = group(sim, vpc, "SG1")
  sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = id, IpPermissions = { SSH } })
  local inst = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1, SubnetId = subnet,
    SecurityGroupIds = { id } }).Instances[1].InstanceId
  local e = H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupId = id }) end,
    "resource " .. id .. " has a dependent object")
  H.eq(e.code, "DependencyViolation")
  world.set_now_ms(30000)
  sim.call("ec2", "StopInstances", { InstanceIds = { inst } })
  world.set_now_ms(60000)
  H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupId = id }) end,
    "resource " .. id .. " has a dependent object", "a stopped instance still holds its groups")
  sim.call("ec2", "TerminateInstances", { InstanceIds = { inst } })
  H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupId = id }) end,
    "resource " .. id .. " has a dependent object", "so does one shutting down")
  world.set_now_ms(80000)
  H.same(sim.call("ec2", "DeleteSecurityGroup", { GroupId = id }), { Return = true, GroupId = id })
  e = H.raises(function() describe(sim, id) end, "The security group '" .. id .. "' does not exist")
  H.eq(e.code, "InvalidGroup.NotFound")
end)

T.case("another group's rule blocks deleting a group; a self-reference does not", function()
  local _, sim = fresh()
  local vpc = setup(sim)
  local a, b = group(sim, vpc, "a"), group(sim, vpc, "b")
  local perm = { IpProtocol = "tcp", FromPort = 443, ToPort = 443, UserIdGroupPairs = { { GroupId = b } } }
  sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = a, IpPermissions = { perm } })
  sim.call("ec2", "AuthorizeSecurityGroupIngress", { GroupId = b, IpPermissions = {
    { IpProtocol = "-1", UserIdGroupPairs = { { GroupId = b } } } } })
  H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupId = b }) end,
    "resource " .. b .. " has a dependent object")
  sim.call("ec2", "RevokeSecurityGroupIngress", { GroupId = a, IpPermissions = { perm } })
  sim.call("ec2", "DeleteSecurityGroup", { GroupId = b })
  sim.call("ec2", "DeleteSecurityGroup", { GroupId = a })
end)

T.case("the default group cannot be deleted; groups by name live in the default VPC", function()
  local _, sim = fresh()
  local vpc = setup(sim)
  local default = sim.call("ec2", "DescribeSecurityGroups", { Filters = {
    { Name = "vpc-id", Values = { vpc } }, { Name = "group-name", Values = { "default" } } } }).SecurityGroups[1].GroupId
  local e = H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupId = default }) end,
    'the specified group: "' .. default .. '" name: "default" cannot be deleted by a user')
  H.eq(e.code, "CannotDelete")
  local id = sim.call("ec2", "CreateSecurityGroup", { GroupName = "classic", Description = "d" }).GroupId
  local g = sim.call("ec2", "DescribeSecurityGroups", { GroupNames = { "classic" } }).SecurityGroups[1]
  H.eq(g.GroupId, id)
  local dv = g.VpcId
  H.eq(sim.call("ec2", "DescribeVpcs", { VpcIds = { dv } }).Vpcs[1].IsDefault, true)
  H.raises(function() sim.call("ec2", "DescribeSecurityGroups", { GroupNames = { "nope" } }) end,
    "The security group 'nope' does not exist in default VPC '" .. dv .. "'")
  -- launching by group name
  local inst = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1, SecurityGroups = { "classic" } })
  H.eq(inst.Instances[1].SecurityGroups[1].GroupId, id)
  H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupName = "classic" }) end,
    "resource " .. id .. " has a dependent object", "deleting by name checks dependents too")
end)

T.case("an instance's groups must be in its subnet's VPC", function()
  local _, sim = fresh()
  local _, subnet = setup(sim)
  local elsewhere = group(sim, setup(sim), "far")
  H.raises(function()
    sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1, SubnetId = subnet,
      SecurityGroupIds = { elsewhere } })
  end, "Security group " .. elsewhere .. " and subnet " .. subnet .. " belong to different networks.")
end)

T.case("changing an instance's groups moves the dependency", function()
  local world, sim = fresh()
  local vpc, subnet = setup(sim)
  local a, b = group(sim, vpc, "a"), group(sim, vpc, "b")
  local inst = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1, SubnetId = subnet,
    SecurityGroupIds = { a } }).Instances[1].InstanceId
  sim.call("ec2", "ModifyInstanceAttribute", { InstanceId = inst, Groups = { b } })
  sim.call("ec2", "DeleteSecurityGroup", { GroupId = a })
  H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupId = b }) end, "resource " .. b .. " has a dependent object")
  H.same(world.referrers(b), { { kind = "ec2.instance", id = inst } })
end)

-- The world reads one CreateSecurityGroup makes (get, referrers, ids calls).
local function reads_of_create(world, sim, vpc, name)
  local counted = { "get", "referrers", "ids" }
  local saved, n = {}, 0
  for _, f in ipairs(counted) do
    saved[f] = world[f]
    world[f] = function(...) n = n + 1; return saved[f](...) end
  end
  local ok, err = pcall(group, sim, vpc, name)
  for _, f in ipairs(counted) do world[f] = saved[f] end
  assert(ok, err)
  return n
end

T.case("CreateSecurityGroup's name check is one indexed read, however many groups the VPC holds", function()
  local world, sim = fresh()
  local vpc = setup(sim)
  local few = reads_of_create(world, sim, vpc, "g-first")
  for i = 1, 300 do group(sim, vpc, "g" .. i) end
  H.eq(reads_of_create(world, sim, vpc, "g-last"), few, "reads with 302 groups in the VPC")
  -- the index follows deletes: a deleted group's name is free again, in its VPC only
  local id = sim.call("ec2", "DescribeSecurityGroups", { Filters = {
    { Name = "vpc-id", Values = { vpc } }, { Name = "group-name", Values = { "g7" } } } }).SecurityGroups[1].GroupId
  sim.call("ec2", "DeleteSecurityGroup", { GroupId = id })
  H.match(group(sim, vpc, "g7"), "^sg%-", "g7 is free after its delete")
  H.raises(function() group(sim, vpc, "g8") end, "The security group 'g8' already exists for VPC '" .. vpc .. "'")
  H.falsy(world.live("ec2.security_group_name", vpc .. "/g8"), "the index record is not live (not a dependent)")
end)

return T
