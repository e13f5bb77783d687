-- The simulated EC2's networks: the CIDR helper, VPCs, subnets, the default
-- VPC and private address allocation.
local H = require("harness")
local T = H.suite("sim ec2 network")

local cidr = require("sim.ec2.cidr")
local AMI = "ami-0123456789abcdef0"

local function vpc(sim, block)
  return sim.call("ec2", "CreateVpc", { CidrBlock = block or "10.0.0.0/16" }).Vpc.VpcId
end

local function subnet(sim, vpc_id, block, az)
  return sim.call("ec2", "CreateSubnet", { VpcId = vpc_id, CidrBlock = block, AvailabilityZone = az }).Subnet
end

-- CIDR arithmetic -----------------------------------------------------------------

T.case("cidr: parse, canonical text, sizes at the edges", function()
  local b = cidr.parse("10.0.1.0/24")
  H.eq(b.first, 10 * 2 ^ 24 + 1 * 256)
  H.eq(b.last, b.first + 255)
  H.eq(b.size, 256)
  H.eq(b.text, "10.0.1.0/24")
  local all = cidr.parse("0.0.0.0/0")
  H.eq(all.size, 4294967296)
  H.eq(all.last, 4294967295)
  local one = cidr.parse("255.255.255.255/32")
  H.eq(one.first, 4294967295)
  H.eq(one.size, 1)
  H.eq(cidr.ip_text(cidr.parse_ip("192.168.10.254")), "192.168.10.254")
end)

T.case("cidr: malformed text and host bits are told apart", function()
  for _, bad in ipairs({ "10.0.0.0", "10.0.0/16", "256.0.0.0/16", "10.0.0.0/33", "a.b.c.d/8", "10.0.0.0/ 8", 42 }) do
    local b, why = cidr.parse(bad)
    H.eq(b, nil, tostring(bad))
    H.eq(why, "syntax", tostring(bad))
  end
  local b, why = cidr.parse("10.0.0.1/16")
  H.eq(b, nil)
  H.eq(why, "host bits")
end)

T.case("cidr: contains and overlaps", function()
  local vpc_block, a, b = cidr.parse("10.0.0.0/16"), cidr.parse("10.0.1.0/24"), cidr.parse("10.0.1.128/25")
  H.truthy(cidr.contains(vpc_block, a))
  H.falsy(cidr.contains(a, vpc_block))
  H.falsy(cidr.contains(vpc_block, cidr.parse("10.1.0.0/24")))
  H.truthy(cidr.overlaps(a, b))
  H.truthy(cidr.overlaps(b, a))
  H.falsy(cidr.overlaps(a, cidr.parse("10.0.2.0/24")))
  H.falsy(cidr.overlaps(cidr.parse("10.0.0.0/24"), a), "adjacent blocks do not overlap")
  H.truthy(cidr.contains_ip(a, cidr.parse_ip("10.0.1.255")))
  H.falsy(cidr.contains_ip(a, cidr.parse_ip("10.0.2.0")))
end)

-- VPCs ----------------------------------------------------------------------------

T.case("CreateVpc: AWS's shape, a default security group, DNS attributes", function()
  local world, sim = fresh()
  local v = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16",
    TagSpecifications = { { ResourceType = "vpc", Tags = { { Key = "Name", Value = "main" } } } } }).Vpc
  H.match(v.VpcId, "^vpc%-0%x+$")
  H.eq(v.CidrBlock, "10.0.0.0/16")
  H.eq(v.State, "available")
  H.eq(v.IsDefault, false)
  H.eq(v.InstanceTenancy, "default")
  H.match(v.CidrBlockAssociationSet[1].AssociationId, "^vpc%-cidr%-assoc%-0%x+$")
  H.same(v.Tags, { { Key = "Name", Value = "main" } })
  local groups = sim.call("ec2", "DescribeSecurityGroups", { Filters = { { Name = "vpc-id", Values = { v.VpcId } } } })
  H.eq(#groups.SecurityGroups, 1)
  local sg = groups.SecurityGroups[1]
  H.eq(sg.GroupName, "default")
  H.eq(sg.IpPermissions[1].UserIdGroupPairs[1].GroupId, sg.GroupId, "default group admits itself")
  H.eq(sg.IpPermissionsEgress[1].IpRanges[1].CidrIp, "0.0.0.0/0")
  local function attr(name) return sim.call("ec2", "DescribeVpcAttribute", { VpcId = v.VpcId, Attribute = name }) end
  H.eq(attr("enableDnsSupport").EnableDnsSupport.Value, true)
  H.eq(attr("enableDnsHostnames").EnableDnsHostnames.Value, false)
  sim.call("ec2", "ModifyVpcAttribute", { VpcId = v.VpcId, EnableDnsHostnames = { Value = true } })
  H.eq(attr("enableDnsHostnames").EnableDnsHostnames.Value, true)
  local acl = sim.call("ec2", "DescribeNetworkAcls", { Filters = { { Name = "vpc-id", Values = { v.VpcId } } } })
  H.match(acl.NetworkAcls[1].NetworkAclId, "^acl%-0%x+$")
  H.same(world.referrers(v.VpcId), { { kind = "ec2.security_group", id = sg.GroupId } })
end)

T.case("CreateVpc: AWS's errors for a bad CIDR", function()
  local _, sim = fresh()
  local e = H.raises(function() vpc(sim, "10.0.0.0/8") end, "The CIDR '10.0.0.0/8' is invalid.")
  H.eq(e.code, "InvalidVpc.Range")
  H.raises(function() vpc(sim, "10.0.0.0/29") end, "The CIDR '10.0.0.0/29' is invalid.")
  e = H.raises(function() vpc(sim, "SomeRandomString") end,
    "Value (SomeRandomString) for parameter cidrBlock is invalid. This is not a valid CIDR block.")
  H.eq(e.code, "InvalidParameterValue")
  H.raises(function() vpc(sim, "10.0.0.1/16") end,
    "Value (10.0.0.1/16) for parameter cidrBlock is invalid. This is not a valid CIDR block.")
  H.eq(vpc(sim, "10.0.0.0/28"):sub(1, 4), "vpc-", "/28 is the smallest VPC")
end)

T.case("DeleteVpc: subnets and groups block it; its default group does not", function()
  local world, sim = fresh()
  local v = vpc(sim)
  local s = subnet(sim, v, "10.0.1.0/24").SubnetId
  local e = H.raises(function() sim.call("ec2", "DeleteVpc", { VpcId = v }) end,
    "The vpc '" .. v .. "' has dependencies and cannot be deleted.")
  H.eq(e.code, "DependencyViolation")
  sim.call("ec2", "DeleteSubnet", { SubnetId = s })
  local g = sim.call("ec2", "CreateSecurityGroup", { GroupName = "x", Description = "x", VpcId = v }).GroupId
  H.raises(function() sim.call("ec2", "DeleteVpc", { VpcId = v }) end,
    "The vpc '" .. v .. "' has dependencies and cannot be deleted.")
  sim.call("ec2", "DeleteSecurityGroup", { GroupId = g })
  sim.call("ec2", "DeleteVpc", { VpcId = v })
  H.same(world.ids("ec2.security_group"), {}, "the default group went with its VPC")
  e = H.raises(function() sim.call("ec2", "DescribeVpcs", { VpcIds = { v } }) end,
    "The vpc ID '" .. v .. "' does not exist")
  H.eq(e.code, "InvalidVpcID.NotFound")
end)

-- Subnets -------------------------------------------------------------------------

T.case("CreateSubnet: inside the VPC, default AZ region + a, AWS's shape", function()
  local _, sim = fresh()
  local v = vpc(sim)
  local s = subnet(sim, v, "10.0.1.0/24")
  H.match(s.SubnetId, "^subnet%-0%x+$")
  H.eq(s.VpcId, v)
  H.eq(s.AvailabilityZone, "us-east-1a")
  H.eq(s.AvailableIpAddressCount, 251)
  H.eq(s.MapPublicIpOnLaunch, false)
  H.eq(subnet(sim, v, "10.0.2.0/24", "us-east-1c").AvailabilityZone, "us-east-1c")
  sim.call("ec2", "ModifySubnetAttribute", { SubnetId = s.SubnetId, MapPublicIpOnLaunch = { Value = true } })
  H.eq(sim.call("ec2", "DescribeSubnets", { SubnetIds = { s.SubnetId } }).Subnets[1].MapPublicIpOnLaunch, true)
  H.eq(#sim.call("ec2", "DescribeSubnets", { Filters = { { Name = "vpc-id", Values = { v } } } }).Subnets, 2)
end)

T.case("CreateSubnet: outside the VPC or too big/small is invalid; overlap conflicts", function()
  local _, sim = fresh()
  local v = vpc(sim)
  subnet(sim, v, "10.0.1.0/24")
  local e = H.raises(function() subnet(sim, v, "10.1.0.0/24") end, "The CIDR '10.1.0.0/24' is invalid.")
  H.eq(e.code, "InvalidSubnet.Range")
  H.raises(function() subnet(sim, v, "10.0.0.0/29") end, "The CIDR '10.0.0.0/29' is invalid.")
  e = H.raises(function() subnet(sim, v, "10.0.1.0/24") end, "The CIDR '10.0.1.0/24' conflicts with another subnet")
  H.eq(e.code, "InvalidSubnet.Conflict")
  H.raises(function() subnet(sim, v, "10.0.0.0/23") end, "The CIDR '10.0.0.0/23' conflicts with another subnet")
  H.raises(function() subnet(sim, v, "10.0.1.128/25") end, "The CIDR '10.0.1.128/25' conflicts with another subnet")
  -- only siblings count: the same block in another VPC is fine
  H.eq(subnet(sim, vpc(sim), "10.0.1.0/24").CidrBlock, "10.0.1.0/24")
  H.raises(function() subnet(sim, "vpc-0123456789abcdef0", "10.0.1.0/24") end,
    "The vpc ID 'vpc-0123456789abcdef0' does not exist")
  H.raises(function() subnet(sim, v, "10.0.9.0/24", "us-east-1z") end,
    "Value (us-east-1z) for parameter availabilityZone is invalid. Subnets can currently only be created in the following availability zones: us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e, us-east-1f.")
end)

T.case("DeleteSubnet: a live instance blocks it, a terminated one does not", function()
  local world, sim = fresh()
  local v = vpc(sim)
  local s = subnet(sim, v, "10.0.1.0/24").SubnetId
  local id = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1, SubnetId = s }).Instances[1].InstanceId
  local e = H.raises(function() sim.call("ec2", "DeleteSubnet", { SubnetId = s }) end,
    "The subnet '" .. s .. "' has dependencies and cannot be deleted.")
  H.eq(e.code, "DependencyViolation")
  world.set_now_ms(30000)
  sim.call("ec2", "TerminateInstances", { InstanceIds = { id } })
  H.raises(function() sim.call("ec2", "DeleteSubnet", { SubnetId = s }) end,
    "The subnet '" .. s .. "' has dependencies and cannot be deleted.", "shutting-down still holds it")
  world.set_now_ms(50000) -- terminated now; nothing re-read the record yet
  H.same(sim.call("ec2", "DeleteSubnet", { SubnetId = s }), { Return = true })
  H.raises(function() sim.call("ec2", "DeleteSubnet", { SubnetId = s }) end,
    "The subnet ID '" .. s .. "' does not exist")
end)

-- Addresses -----------------------------------------------------------------------

T.case("private addresses: in order, a requested one, in use, out of range", function()
  local _, sim = fresh()
  local v = vpc(sim)
  local s = subnet(sim, v, "10.0.1.0/28").SubnetId
  local function launch(ip)
    return sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1, SubnetId = s,
      PrivateIpAddress = ip }).Instances[1]
  end
  H.eq(launch().PrivateIpAddress, "10.0.1.4")
  H.eq(launch().PrivateIpAddress, "10.0.1.5")
  H.eq(launch("10.0.1.9").PrivateIpAddress, "10.0.1.9")
  local e = H.raises(function() launch("10.0.1.9") end, "Address 10.0.1.9 is in use.")
  H.eq(e.code, "InvalidIPAddress.InUse")
  H.raises(function() launch("10.0.1.15") end, "Address does not fall within the subnet's address range")
  H.eq(sim.call("ec2", "DescribeSubnets", { SubnetIds = { s } }).Subnets[1].AvailableIpAddressCount, 8)
  for _ = 1, 8 do launch() end
  H.eq(H.raises(function() launch() end).code, "InsufficientFreeAddressesInSubnet")
end)

T.case("private addresses after the counter wraps around: a terminated instance's address is reused, none twice", function()
  local world, sim = fresh()
  local v = vpc(sim)
  local s = subnet(sim, v, "10.0.1.0/28").SubnetId
  local r = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 11, MaxCount = 11, SubnetId = s })
  local seen = {}
  for _, i in ipairs(r.Instances) do
    H.falsy(seen[i.PrivateIpAddress], "address given twice: " .. i.PrivateIpAddress)
    seen[i.PrivateIpAddress] = true
  end
  local freed = r.Instances[3]
  sim.call("ec2", "TerminateInstances", { InstanceIds = { freed.InstanceId } })
  world.set_now_ms(60000)
  sim.call("ec2", "DescribeInstances", { InstanceIds = { freed.InstanceId } })  -- settles it: terminated
  local again = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1, SubnetId = s }).Instances[1]
  H.eq(again.PrivateIpAddress, freed.PrivateIpAddress)
  H.eq(H.raises(function()
    sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1, SubnetId = s })
  end).code, "InsufficientFreeAddressesInSubnet")
end)

T.case("the default VPC: made on first use; config default_vpc = false removes it", function()
  local world, sim = fresh()
  local i = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1 }).Instances[1]
  local v = sim.call("ec2", "DescribeVpcs", { VpcIds = { i.VpcId } }).Vpcs[1]
  H.eq(v.IsDefault, true)
  H.eq(v.CidrBlock, "172.31.0.0/16")
  local s = sim.call("ec2", "DescribeSubnets", { SubnetIds = { i.SubnetId } }).Subnets[1]
  H.eq(s.CidrBlock, "172.31.0.0/20")
  H.eq(s.DefaultForAz, true)
  H.eq(s.MapPublicIpOnLaunch, true)
  local j = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1,
    Placement = { AvailabilityZone = "us-east-1b" } }).Instances[1]
  H.eq(j.VpcId, i.VpcId)
  H.eq(sim.call("ec2", "DescribeSubnets", { SubnetIds = { j.SubnetId } }).Subnets[1].CidrBlock, "172.31.16.0/20")
  local _, sim2 = fresh()
  require("moonstack.world").put("config", "ec2", { default_vpc = false })
  local e = H.raises(function() sim2.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 1, MaxCount = 1 }) end,
    "No default VPC for this user")
  H.eq(e.code, "VPCIdNotSpecified")
end)

return T
