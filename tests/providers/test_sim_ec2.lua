-- The simulated EC2: images, key pairs, instance types, instances and their
-- lifecycle with world time, tags, deterministic IDs and `exists`.
local H = require("harness")
local T = H.suite("sim ec2")

local AMI = "ami-0123456789abcdef0"

local function instance(sim, id)
  return sim.call("ec2", "DescribeInstances", { InstanceIds = { id } }).Reservations[1].Instances[1]
end

local function state(sim, id) return instance(sim, id).State end

-- A VPC with one subnet and one group, made through the API.
local function network(sim)
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc
  local subnet = sim.call("ec2", "CreateSubnet", { VpcId = vpc.VpcId, CidrBlock = "10.0.1.0/24" }).Subnet
  local sg = sim.call("ec2", "CreateSecurityGroup", { GroupName = "web", Description = "web", VpcId = vpc.VpcId }).GroupId
  return vpc.VpcId, subnet.SubnetId, sg
end

local function run(sim, extra)
  local p = { ImageId = AMI, InstanceType = "t2.micro", MinCount = 1, MaxCount = 1 }
  for k, v in pairs(extra or {}) do p[k] = v end
  return sim.call("ec2", "RunInstances", p).Instances[1]
end

-- Images ------------------------------------------------------------------------

T.case("any well-formed AMI ID is an EBS-backed x86_64 image by default", function()
  local _, sim = fresh()
  for _, id in ipairs({ AMI, "ami-12345678" }) do
    local img = sim.call("ec2", "DescribeImages", { ImageIds = { id } }).Images[1]
    H.eq(img.ImageId, id)
    H.eq(img.RootDeviceType, "ebs")
    H.eq(img.Architecture, "x86_64")
    H.eq(img.State, "available")
  end
end)

T.case("a malformed image ID fails as AWS does (seed 000 tests 33, 36, 38)", function()
  local _, sim = fresh()
  local e = H.raises(function() run(sim, { ImageId = "i-d8d4a266" }) end,
    'Invalid id: "i-d8d4a266" (expecting "ami-...")')
  H.eq(e.code, "InvalidAMIID.Malformed")
  H.raises(function() run(sim, { ImageId = "bogus" }) end, 'Invalid id: "bogus" (expecting "ami-...")')
  H.raises(function() run(sim, { ImageId = "ami-XYZ" }) end, 'Invalid id: "ami-XYZ" (expecting "ami-...")')
end)

T.case("RegisterImage / DescribeImages / DeregisterImage", function()
  local _, sim = fresh()
  local id = sim.call("ec2", "RegisterImage", { Name = "store", RootDeviceType = "instance-store" }).ImageId
  H.match(id, "^ami%-0%x+$")
  local img = sim.call("ec2", "DescribeImages", { ImageIds = { id } }).Images[1]
  H.eq(img.Name, "store")
  H.eq(img.RootDeviceType, "instance-store")
  H.eq(#sim.call("ec2", "DescribeImages", {}).Images, 1, "registered images are listed")
  sim.call("ec2", "DeregisterImage", { ImageId = id })
  local e = H.raises(function() sim.call("ec2", "DescribeImages", { ImageIds = { id } }) end,
    "The image id '[" .. id .. "]' does not exist")
  H.eq(e.code, "InvalidAMIID.NotFound")
  H.raises(function() run(sim, { ImageId = id }) end, "The image id '[" .. id .. "]' does not exist")
end)

T.case("a deregistered implicit image stays gone", function()
  local _, sim = fresh()
  sim.call("ec2", "DeregisterImage", { ImageId = AMI })
  H.raises(function() run(sim) end, "The image id '[" .. AMI .. "]' does not exist")
end)

T.case("config implicit_images = false: only registered images exist", function()
  local world, sim = fresh()
  world.put("config", "ec2", { implicit_images = false })
  local e = H.raises(function() run(sim) end, "The image id '[" .. AMI .. "]' does not exist")
  H.eq(e.code, "InvalidAMIID.NotFound")
  local id = sim.call("ec2", "RegisterImage", { Name = "mine" }).ImageId
  H.eq(run(sim, { ImageId = id }).ImageId, id)
end)

-- Key pairs and instance types --------------------------------------------------

T.case("any key name exists unless config says implicit_key_pairs = false", function()
  local world, sim = fresh()
  H.eq(run(sim, { KeyName = "anything" }).KeyName, "anything")
  world.put("config", "ec2", { implicit_key_pairs = false })
  local e = H.raises(function() run(sim, { KeyName = "x" }) end, "The key pair 'x' does not exist")
  H.eq(e.code, "InvalidKeyPair.NotFound")
  local kp = sim.call("ec2", "CreateKeyPair", { KeyName = "x" })
  H.match(kp.KeyPairId, "^key%-0%x+$")
  H.truthy(kp.KeyMaterial:find("BEGIN RSA PRIVATE KEY", 1, true))
  H.eq(run(sim, { KeyName = "x" }).KeyName, "x")
  H.eq(sim.call("ec2", "DescribeKeyPairs", { KeyNames = { "x" } }).KeyPairs[1].KeyPairId, kp.KeyPairId)
  H.raises(function() sim.call("ec2", "CreateKeyPair", { KeyName = "x" }) end, "The keypair 'x' already exists.")
  sim.call("ec2", "DeleteKeyPair", { KeyName = "x" })
  H.raises(function() run(sim, { KeyName = "x" }) end, "The key pair 'x' does not exist")
end)

T.case("a deleted key pair is gone even with implicit key pairs", function()
  local _, sim = fresh()
  sim.call("ec2", "DeleteKeyPair", { KeyName = "old" })
  H.raises(function() run(sim, { KeyName = "old" }) end, "The key pair 'old' does not exist")
end)

T.case("an unknown instance type fails with AWS's message", function()
  local _, sim = fresh()
  local e = H.raises(function() run(sim, { InstanceType = "t2.giant" }) end, "Invalid value 't2.giant' for InstanceType.")
  H.eq(e.code, "InvalidParameterValue")
  for _, t in ipairs({ "t3.micro", "m5.large", "c5.xlarge", "r5.2xlarge", "t4g.nano", "m1.small" }) do
    H.eq(run(sim, { InstanceType = t }).InstanceType, t)
  end
end)

-- Instances ---------------------------------------------------------------------

T.case("RunInstances: AWS's shape, the subnet's network, pending then running after 30 s", function()
  local world, sim = fresh()
  world.set_now_ms(1000)
  local vpc, subnet, sg = network(sim)
  local r = sim.call("ec2", "RunInstances", { ImageId = AMI, InstanceType = "t3.micro", MinCount = 1, MaxCount = 1,
    SubnetId = subnet, SecurityGroupIds = { sg }, UserData = "ZWNobyBoaQ==",
    TagSpecifications = { { ResourceType = "instance", Tags = { { Key = "Name", Value = "web" } } } } })
  H.match(r.ReservationId, "^r%-0%x+$")
  local i = r.Instances[1]
  H.match(i.InstanceId, "^i%-0%x+$")
  H.same(i.State, { Code = 0, Name = "pending" })
  H.eq(i.SubnetId, subnet)
  H.eq(i.VpcId, vpc)
  H.eq(i.PrivateIpAddress, "10.0.1.4", "first address after AWS's four reserved ones")
  H.eq(i.PrivateDnsName, "ip-10-0-1-4.ec2.internal")
  H.eq(i.PublicIpAddress, nil, "a new subnet does not map public IPs")
  H.eq(i.PublicDnsName, "")
  H.same(i.SecurityGroups, { { GroupId = sg, GroupName = "web" } })
  H.eq(i.Placement.AvailabilityZone, "us-east-1a")
  H.eq(i.RootDeviceType, "ebs")
  H.eq(i.LaunchTime, "1970-01-01T00:00:01.000Z")
  H.same(i.Tags, { { Key = "Name", Value = "web" } })
  H.eq(i._sim, nil, "bookkeeping never leaves the simulator")
  world.set_now_ms(30999)
  H.same(state(sim, i.InstanceId), { Code = 0, Name = "pending" })
  world.set_now_ms(31000)
  H.same(state(sim, i.InstanceId), { Code = 16, Name = "running" })
  H.eq(sim.call("ec2", "DescribeInstanceAttribute", { InstanceId = i.InstanceId, Attribute = "userData" }).UserData.Value,
    "ZWNobyBoaQ==")
end)

T.case("boot time comes from world config", function()
  local world, sim = fresh()
  world.put("config", "ec2", { boot_seconds = 5 })
  local id = run(sim).InstanceId
  world.set_now_ms(5000)
  H.eq(state(sim, id).Name, "running")
end)

T.case("stop and start: stopping -> stopped, pending -> running; codes 64, 80", function()
  local world, sim = fresh()
  local id = run(sim).InstanceId
  world.set_now_ms(30000)
  local out = sim.call("ec2", "StopInstances", { InstanceIds = { id } }).StoppingInstances[1]
  H.same(out, { InstanceId = id, CurrentState = { Code = 64, Name = "stopping" },
                PreviousState = { Code = 16, Name = "running" } })
  world.set_now_ms(49999)
  H.eq(state(sim, id).Name, "stopping")
  world.set_now_ms(50000)
  H.same(state(sim, id), { Code = 80, Name = "stopped" })
  H.eq(instance(sim, id).PublicIpAddress, nil)
  local again = sim.call("ec2", "StopInstances", { InstanceIds = { id } }).StoppingInstances[1]
  H.eq(again.CurrentState.Name, "stopped", "stopping a stopped instance changes nothing")
  sim.call("ec2", "StartInstances", { InstanceIds = { id } })
  H.eq(state(sim, id).Name, "pending")
  world.set_now_ms(80000)
  H.eq(state(sim, id).Name, "running")
end)

T.case("a default-VPC instance gets a public IP, loses it when stopped, gets a new one when started", function()
  local world, sim = fresh()
  local i = run(sim)
  H.match(i.PublicIpAddress, "^54%.%d+%.%d+%.%d+$")
  H.eq(i.PublicDnsName, "ec2-" .. i.PublicIpAddress:gsub("%.", "-") .. ".compute-1.amazonaws.com")
  world.set_now_ms(30000)
  sim.call("ec2", "StopInstances", { InstanceIds = { i.InstanceId } })
  world.set_now_ms(60000)
  H.eq(instance(sim, i.InstanceId).PublicIpAddress, nil)
  sim.call("ec2", "StartInstances", { InstanceIds = { i.InstanceId } })
  local ip = instance(sim, i.InstanceId).PublicIpAddress
  H.match(ip, "^54%.")
  H.truthy(ip ~= i.PublicIpAddress, "a new public address after a start")
end)

T.case("stopping a terminated or shutting-down instance fails as in seed 000 test 34", function()
  local world, sim = fresh()
  local id = run(sim).InstanceId
  world.set_now_ms(30000)
  sim.call("ec2", "TerminateInstances", { InstanceIds = { id } })
  H.same(state(sim, id), { Code = 32, Name = "shutting-down" })
  local want = "This instance '" .. id .. "' is not in a state from which it can be stopped."
  local e = H.raises(function() sim.call("ec2", "StopInstances", { InstanceIds = { id } }) end, want)
  H.eq(e.code, "IncorrectInstanceState")
  world.set_now_ms(50000)
  H.same(state(sim, id), { Code = 48, Name = "terminated" })
  H.raises(function() sim.call("ec2", "StopInstances", { InstanceIds = { id } }) end, want)
end)

T.case("a pending instance cannot be stopped; an instance-store one never can", function()
  local world, sim = fresh()
  local id = run(sim).InstanceId
  H.raises(function() sim.call("ec2", "StopInstances", { InstanceIds = { id } }) end,
    "Instance '" .. id .. "' cannot be stopped as it has never reached the 'running' state.")
  local ami = sim.call("ec2", "RegisterImage", { Name = "s", RootDeviceType = "instance-store" }).ImageId
  local sid = run(sim, { ImageId = ami }).InstanceId
  world.set_now_ms(30000)
  local e = H.raises(function() sim.call("ec2", "StopInstances", { InstanceIds = { sid } }) end,
    "The instance '" .. sid .. "' does not have an 'ebs' root device type and cannot be stopped.")
  H.eq(e.code, "UnsupportedOperation")
end)

T.case("a request that fails for one instance changes none", function()
  local world, sim = fresh()
  local a, b = run(sim).InstanceId, run(sim).InstanceId
  world.set_now_ms(30000)
  sim.call("ec2", "TerminateInstances", { InstanceIds = { b } })
  H.raises(function() sim.call("ec2", "StopInstances", { InstanceIds = { a, b } }) end)
  H.eq(state(sim, a).Name, "running")
end)

T.case("ModifyInstanceAttribute: InstanceType and UserData only when stopped", function()
  local world, sim = fresh()
  local id = run(sim).InstanceId
  world.set_now_ms(30000)
  local e = H.raises(function()
    sim.call("ec2", "ModifyInstanceAttribute", { InstanceId = id, InstanceType = { Value = "t2.small" } })
  end, "The instance '" .. id .. "' is not in the 'stopped' state.")
  H.eq(e.code, "IncorrectInstanceState")
  H.raises(function()
    sim.call("ec2", "ModifyInstanceAttribute", { InstanceId = id, Attribute = "userData", Value = "eA==" })
  end, "The instance '" .. id .. "' is not in the 'stopped' state.")
  -- attributes EC2 changes on a running instance
  sim.call("ec2", "ModifyInstanceAttribute", { InstanceId = id, SourceDestCheck = { Value = false } })
  H.eq(instance(sim, id).SourceDestCheck, false)
  sim.call("ec2", "StopInstances", { InstanceIds = { id } })
  world.set_now_ms(60000)
  sim.call("ec2", "ModifyInstanceAttribute", { InstanceId = id, InstanceType = { Value = "t2.small" } })
  sim.call("ec2", "ModifyInstanceAttribute", { InstanceId = id, UserData = { Value = "eA==" } })
  H.eq(instance(sim, id).InstanceType, "t2.small")
  H.eq(sim.call("ec2", "DescribeInstanceAttribute", { InstanceId = id, Attribute = "userData" }).UserData.Value, "eA==")
  H.raises(function()
    sim.call("ec2", "ModifyInstanceAttribute", { InstanceId = id, InstanceType = { Value = "t2.huge" } })
  end, "Invalid value 't2.huge' for InstanceType.")
end)

T.case("terminated instances stay describable, hold nothing, and terminating again succeeds", function()
  local world, sim = fresh()
  local _, subnet, sg = network(sim)
  local id = run(sim, { SubnetId = subnet, SecurityGroupIds = { sg } }).InstanceId
  H.eq(#world.referrers(sg), 1)
  world.set_now_ms(30000)
  local t = sim.call("ec2", "TerminateInstances", { InstanceIds = { id } }).TerminatingInstances[1]
  H.same(t.CurrentState, { Code = 32, Name = "shutting-down" })
  world.set_now_ms(50000)
  local i = instance(sim, id)
  H.same(i.State, { Code = 48, Name = "terminated" })
  H.eq(i.PrivateIpAddress, nil)
  H.eq(world.live("ec2.instance", id), false)
  H.same(world.referrers(sg), {})
  H.same(world.referrers(subnet), {})
  H.eq(sim.call("ec2", "TerminateInstances", { InstanceIds = { id } }).TerminatingInstances[1].CurrentState.Name,
    "terminated")
  H.raises(function() sim.call("ec2", "StartInstances", { InstanceIds = { id } }) end,
    "The instance '" .. id .. "' is not in a state from which it can be started.")
end)

T.case("DisableApiTermination protects an instance", function()
  local world, sim = fresh()
  local id = run(sim, { DisableApiTermination = true }).InstanceId
  local e = H.raises(function() sim.call("ec2", "TerminateInstances", { InstanceIds = { id } }) end,
    "The instance '" .. id .. "' may not be terminated. Modify its 'disableApiTermination' instance attribute and try again.")
  H.eq(e.code, "OperationNotPermitted")
  sim.call("ec2", "ModifyInstanceAttribute", { InstanceId = id, DisableApiTermination = { Value = false } })
  sim.call("ec2", "TerminateInstances", { InstanceIds = { id } })
  H.eq(state(sim, id).Name, "shutting-down")
end)

T.case("unknown and malformed instance IDs", function()
  local _, sim = fresh()
  local e = H.raises(function()
    sim.call("ec2", "DescribeInstances", { InstanceIds = { "i-0123456789abcdef0" } })
  end, "The instance ID 'i-0123456789abcdef0' does not exist")
  H.eq(e.code, "InvalidInstanceID.NotFound")
  H.raises(function()
    sim.call("ec2", "TerminateInstances", { InstanceIds = { "i-0123456789abcdef0", "i-0123456789abcdef1" } })
  end, "The instance IDs 'i-0123456789abcdef0, i-0123456789abcdef1' do not exist")
  H.eq(H.raises(function() sim.call("ec2", "StopInstances", { InstanceIds = { "web" } }) end).code,
    "InvalidInstanceID.Malformed")
end)

T.case("DescribeInstances filters and reservations", function()
  local world, sim = fresh()
  local r = sim.call("ec2", "RunInstances", { ImageId = AMI, MinCount = 2, MaxCount = 2 })
  H.eq(#r.Instances, 2)
  local other = run(sim).InstanceId
  world.set_now_ms(30000)
  sim.call("ec2", "TerminateInstances", { InstanceIds = { other } })
  local res = sim.call("ec2", "DescribeInstances", {}).Reservations
  H.eq(#res, 2)
  H.eq(res[1].ReservationId, r.ReservationId)
  H.eq(#res[1].Instances, 2)
  local running = sim.call("ec2", "DescribeInstances", { Filters = {
    { Name = "instance-state-name", Values = { "running" } } } }).Reservations
  H.eq(#running, 1)
  H.raises(function() sim.call("ec2", "DescribeInstances", { Filters = { { Name = "color", Values = { "x" } } } }) end,
    "The filter 'color' is invalid")
end)

T.case("RebootInstances keeps a running instance running", function()
  local world, sim = fresh()
  local id = run(sim).InstanceId
  world.set_now_ms(30000)
  H.same(sim.call("ec2", "RebootInstances", { InstanceIds = { id } }), {})
  H.eq(state(sim, id).Name, "running")
end)

-- Tags --------------------------------------------------------------------------

T.case("CreateTags / DeleteTags on any resource ID", function()
  local _, sim = fresh()
  local vpc, subnet, sg = network(sim)
  local id = run(sim).InstanceId
  sim.call("ec2", "CreateTags", { Resources = { id, vpc, subnet, sg }, Tags = { { Key = "Team", Value = "a" } } })
  H.same(instance(sim, id).Tags, { { Key = "Team", Value = "a" } })
  H.same(sim.call("ec2", "DescribeVpcs", { VpcIds = { vpc } }).Vpcs[1].Tags, { { Key = "Team", Value = "a" } })
  H.same(sim.call("ec2", "DescribeSubnets", { SubnetIds = { subnet } }).Subnets[1].Tags, { { Key = "Team", Value = "a" } })
  H.same(sim.call("ec2", "DescribeSecurityGroups", { GroupIds = { sg } }).SecurityGroups[1].Tags,
    { { Key = "Team", Value = "a" } })
  sim.call("ec2", "DeleteTags", { Resources = { id }, Tags = { { Key = "Team", Value = "other" } } })
  H.same(instance(sim, id).Tags, { { Key = "Team", Value = "a" } }, "a value that does not match deletes nothing")
  sim.call("ec2", "DeleteTags", { Resources = { id }, Tags = { { Key = "Team" } } })
  H.same(instance(sim, id).Tags, {})
  H.raises(function() sim.call("ec2", "CreateTags", { Resources = { id }, Tags = { { Key = "aws:x", Value = "1" } } }) end,
    "Value ( aws:x ) for parameter key is invalid. Tag keys starting with 'aws:' are reserved for internal use")
  H.raises(function() sim.call("ec2", "CreateTags", { Resources = { "foo-1" }, Tags = { { Key = "a", Value = "1" } } }) end,
    "The ID 'foo-1' is not valid")
  H.raises(function()
    sim.call("ec2", "CreateTags", { Resources = { "vpc-0123456789abcdef0" }, Tags = { { Key = "a", Value = "1" } } })
  end, "The vpc ID 'vpc-0123456789abcdef0' does not exist")
  -- tagging keeps an instance's refs: the group is still in use
  H.eq(#require("moonstack.world").referrers(sg), 0)
  local held = run(sim, { SubnetId = subnet, SecurityGroupIds = { sg } }).InstanceId
  sim.call("ec2", "CreateTags", { Resources = { held }, Tags = { { Key = "k", Value = "v" } } })
  H.raises(function() sim.call("ec2", "DeleteSecurityGroup", { GroupId = sg }) end,
    "resource " .. sg .. " has a dependent object")
end)

T.case("DescribeTags: every tagged resource, or those a filter names, by resource ID then key", function()
  local _, sim = fresh()
  local vpc, subnet, sg = network(sim)
  sim.call("ec2", "CreateTags", { Resources = { sg, vpc }, Tags = { { Key = "b", Value = "2" }, { Key = "a", Value = "1" } } })
  sim.call("ec2", "CreateTags", { Resources = { subnet }, Tags = { { Key = "a", Value = "3" } } })
  local function tag(id, rtype, k, v) return { ResourceId = id, ResourceType = rtype, Key = k, Value = v } end
  local all = {
    tag(sg, "security-group", "a", "1"), tag(sg, "security-group", "b", "2"),
    tag(subnet, "subnet", "a", "3"),
    tag(vpc, "vpc", "a", "1"), tag(vpc, "vpc", "b", "2"),
  }
  H.same(sim.call("ec2", "DescribeTags", {}).Tags, all)
  H.same(sim.call("ec2", "DescribeTags", { Filters = { { Name = "resource-id", Values = { vpc } } } }).Tags,
    { tag(vpc, "vpc", "a", "1"), tag(vpc, "vpc", "b", "2") })
  H.same(sim.call("ec2", "DescribeTags", { Filters = { { Name = "key", Values = { "a" } },
    { Name = "resource-type", Values = { "subnet", "security-group" } } } }).Tags,
    { tag(sg, "security-group", "a", "1"), tag(subnet, "subnet", "a", "3") })
  H.same(sim.call("ec2", "DescribeTags", { Filters = { { Name = "value", Values = { "3" } } } }).Tags,
    { tag(subnet, "subnet", "a", "3") })
  H.same(sim.call("ec2", "DescribeTags", { Filters = { { Name = "resource-id", Values = { "vpc-0123456789abcdef0" } } } }).Tags,
    {}, "an unknown resource has no tags")
  H.raises(function() sim.call("ec2", "DescribeTags", { Filters = { { Name = "colour", Values = { "x" } } } }) end,
    "The filter 'colour' is invalid")
end)

T.case("aws:cloudformation:* tags are CloudFormation's: a hook's client puts them, nobody else", function()
  local _, sim = fresh()
  local mine = { { Key = "aws:cloudformation:stack-name", Value = "app" } }
  local specs = { { ResourceType = "vpc", Tags = mine } }
  H.raises(function() sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16", TagSpecifications = specs }) end,
    "Value ( aws:cloudformation:stack-name ) for parameter key is invalid. Tag keys starting with 'aws:' are reserved for internal use")
  H.same(require("moonstack.world").ids("ec2.vpc"), {}, "nothing made")
  local cfn = sim.client(nil, "cloudformation").ec2
  local vpc = cfn.CreateVpc { CidrBlock = "10.0.0.0/16", TagSpecifications = specs }.Vpc.VpcId
  H.same(sim.call("ec2", "DescribeVpcs", { VpcIds = { vpc } }).Vpcs[1].Tags, mine)
  -- other aws: keys stay AWS's own, CloudFormation's client included
  H.raises(function() cfn.CreateTags { Resources = { vpc }, Tags = { { Key = "aws:autoscaling:groupName", Value = "g" } } } end,
    "Value ( aws:autoscaling:groupName ) for parameter key is invalid. Tag keys starting with 'aws:' are reserved for internal use")
  H.raises(function() sim.call("ec2", "CreateTags", { Resources = { vpc }, Tags = mine }) end,
    "Value ( aws:cloudformation:stack-name ) for parameter key is invalid. Tag keys starting with 'aws:' are reserved for internal use")
end)

-- IDs and exists ------------------------------------------------------------------

T.case("IDs are deterministic: the same seed gives the same IDs", function()
  local function ids()
    local _, sim = fresh()
    local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    return { vpc, run(sim).InstanceId, sim.call("ec2", "CreateSecurityGroup",
      { GroupName = "g", Description = "d", VpcId = vpc }).GroupId }
  end
  local a, b = ids(), ids()
  H.same(a, b)
  H.match(a[1], "^vpc%-0%x+$")
  H.match(a[3], "^sg%-0%x+$")
end)

T.case("exists(kind, value) for AWS-specific parameter types", function()
  local world, sim = fresh()
  local ec2 = require("sim.ec2")
  local vpc, subnet, sg = network(sim)
  local id = run(sim).InstanceId
  H.eq(ec2.exists("AWS::EC2::Image::Id", AMI), true)
  H.eq(ec2.exists("AWS::EC2::Image::Id", "i-d8d4a266"), false)
  H.eq(ec2.exists("AWS::EC2::KeyPair::KeyName", "k"), true)
  H.eq(ec2.exists("AWS::EC2::VPC::Id", vpc), true)
  H.eq(ec2.exists("AWS::EC2::VPC::Id", "vpc-0123456789abcdef0"), false)
  H.eq(ec2.exists("AWS::EC2::Subnet::Id", subnet), true)
  H.eq(ec2.exists("AWS::EC2::Subnet::Id", vpc), false)
  H.eq(ec2.exists("AWS::EC2::SecurityGroup::Id", sg), true)
  H.eq(ec2.exists("AWS::EC2::Instance::Id", id), true)
  H.eq(ec2.exists("AWS::EC2::AvailabilityZone::Name", "us-east-1f"), true)
  H.eq(ec2.exists("AWS::EC2::AvailabilityZone::Name", "us-east-1z"), false)
  H.eq(ec2.exists("AWS::EC2::AvailabilityZone::Name", "eu-west-1c", { region = "eu-west-1" }), true)
  H.eq(ec2.exists("AWS::SSM::Parameter::Name", "x"), nil, "not an EC2 type")
  world.put("config", "ec2", { implicit_images = false, implicit_key_pairs = false })
  H.eq(ec2.exists("AWS::EC2::Image::Id", AMI), false)
  H.eq(ec2.exists("AWS::EC2::KeyPair::KeyName", "k"), false)
  world.set_now_ms(30000)
  sim.call("ec2", "TerminateInstances", { InstanceIds = { id } })
  world.set_now_ms(60000)
  H.eq(ec2.exists("AWS::EC2::Instance::Id", id), false)
end)

return T
