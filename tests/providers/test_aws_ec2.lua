-- AWS::EC2::Instance driven as the engine drives it: validate, decide the
-- change (update_behavior / change), call hooks until they stop answering
-- "in progress", moving world time on by each `after`. Covers seed 000
-- tests 34 (an instance terminated out of band) and 35 (stopped out of band).
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("aws ec2 instance")

local AMI = "ami-0123456789abcdef0"

local function load(name) return require("provider_driver").load("ec2/" .. name) end

local function context(sim, logical_id)
  return { stack_name = "s", logical_id = logical_id or "Web", region = "us-east-1", account = "123456789012",
           world = sim.client(nil, "cloudformation") }
end

-- Calls a hook until it finishes. Each in-progress answer moves world time
-- on by its `after`; `observe(ctx)` (optional) runs after every call.
local function drive(world, decl, hook, ctx, args, observe)
  ctx.progress = nil
  for _ = 1, 50 do
    local r = decl:check_result(hook, decl[hook](ctx, unpack(args)))
    if observe then observe(ctx) end
    if not P.is_in_progress(r) then ctx.progress = nil; return r end
    world.set_now_ms(world.now_ms() + r.after * 1000)
    ctx.progress = r.context
  end
  error("hook " .. hook .. " never finished")
end

local function describe(sim, id)
  return sim.call("ec2", "DescribeInstances", { InstanceIds = { id } }).Reservations[1].Instances[1]
end

local function create(world, sim, decl, ctx, props)
  local p = decl:validate(props, ctx)
  local r = drive(world, decl, "create", ctx, { p })
  return r, p
end

-- Updates from `old` to `new` as the engine would for an in-place change.
local function update(world, decl, ctx, id, old, new, observe)
  local behavior, changed = decl:change(old, new, ctx)
  H.truthy(behavior == "none" or behavior == "some", "an in-place change, got " .. tostring(behavior))
  return drive(world, decl, "update", ctx, { id, new, old, changed }, observe)
end

T.case("create: RunInstances, in progress until running, AWS's attributes", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local props = d:validate({ ImageId = AMI, InstanceType = "t2.micro", KeyName = "k",
    Tags = { { Key = "Name", Value = "web" } } }, ctx)
  local first = d.create(ctx, props)
  H.truthy(P.is_in_progress(first))
  H.eq(first.after, 30)
  local id = first.context.id
  H.eq(describe(sim, id).State.Name, "pending")
  world.set_now_ms(30000)
  ctx.progress = first.context
  local r = d:check_result("create", d.create(ctx, props))
  H.eq(r.id, id)
  local i = describe(sim, id)
  H.eq(i.State.Name, "running")
  -- the template's tags and CloudFormation's own (stack-id: none in this ctx)
  H.same(i.Tags, { { Key = "Name", Value = "web" }, { Key = "aws:cloudformation:logical-id", Value = "Web" },
                   { Key = "aws:cloudformation:stack-name", Value = "s" } })
  H.eq(r.attributes.InstanceId, id)
  H.eq(r.attributes.PrivateIp, i.PrivateIpAddress)
  H.eq(r.attributes.PrivateDnsName, i.PrivateDnsName)
  H.eq(r.attributes.PublicIp, i.PublicIpAddress)
  H.eq(r.attributes.PublicDnsName, i.PublicDnsName)
  H.eq(r.attributes.AvailabilityZone, "us-east-1a")
  H.eq(r.attributes.VpcId, i.VpcId)
end)

T.case("create fails with EC2's reason: malformed image, unknown type", function()
  local _, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  H.raises(function() d.create(ctx, d:validate({ ImageId = "i-d8d4a266", InstanceType = "t2.micro" }, ctx)) end,
    'Invalid id: "i-d8d4a266" (expecting "ami-...")')
  H.raises(function() d.create(ctx, d:validate({ ImageId = AMI, InstanceType = "bogus" }, ctx)) end,
    "Invalid value 'bogus' for InstanceType.")
end)

T.case("create fails when the instance terminates while booting", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local props = d:validate({ ImageId = AMI }, ctx)
  local first = d.create(ctx, props)
  local id = first.context.id
  sim.call("ec2", "TerminateInstances", { InstanceIds = { id } })
  world.set_now_ms(30000)
  ctx.progress = first.context
  H.raises(function() d.create(ctx, props) end,
    "Instance " .. id .. " failed to stabilize. Current state: terminated. Reason: Client.UserInitiatedShutdown: User initiated shutdown")
end)

T.case("validation: AWS's messages for bad properties", function()
  local _, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  H.raises(function() d:validate({ ImageId = AMI, Colour = "red" }, ctx) end, "Encountered unsupported property Colour")
  H.raises(function() d:validate({ ImageId = AMI, Tenancy = "shared" }, ctx) end,
    "Properties validation failed for resource Web with message: #/Tenancy: failed validation constraint for keyword [enum]")
  H.raises(function() d:validate({ ImageId = AMI, SecurityGroupIds = "sg-1" }, ctx) end,
    "Value of property SecurityGroupIds must be of type List")
end)

T.case("EBS-backed: InstanceType is some interruption — stop, modify, start observed in the world", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local r, old = create(world, sim, d, ctx, { ImageId = AMI, InstanceType = "t2.micro" })
  local ip = describe(sim, r.id).PrivateIpAddress
  local new = d:validate({ ImageId = AMI, InstanceType = "t2.small" }, ctx)
  local behavior, changed = d:change(old, new, ctx)
  H.eq(behavior, "some")
  H.same(changed, { "InstanceType" })
  H.eq(d:update_behavior("UserData", nil, "eA==", ctx, old, new), "some")
  local seen = {}
  local res = update(world, d, ctx, r.id, old, new, function()
    local i = describe(sim, r.id)
    seen[#seen + 1] = i.State.Name .. ":" .. i.InstanceType
  end)
  H.same(seen, { "stopping:t2.micro", "pending:t2.small", "running:t2.small" })
  local i = describe(sim, r.id)
  H.eq(i.InstanceType, "t2.small")
  H.eq(i.PrivateIpAddress, ip, "a stop/start keeps the private address")
  H.eq(res.attributes.PublicIp, i.PublicIpAddress, "the new public address is reported")
end)

T.case("EBS-backed: a UserData change reaches the instance", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local r, old = create(world, sim, d, ctx, { ImageId = AMI, UserData = "b2xk" })
  local new = d:validate({ ImageId = AMI, UserData = "bmV3" }, ctx)
  update(world, d, ctx, r.id, old, new)
  H.eq(sim.call("ec2", "DescribeInstanceAttribute", { InstanceId = r.id, Attribute = "userData" }).UserData.Value, "bmV3")
  H.eq(describe(sim, r.id).State.Name, "running")
end)

T.case("instance-store: the same changes are replacements", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local ami = sim.call("ec2", "RegisterImage", { Name = "store", RootDeviceType = "instance-store" }).ImageId
  local old = d:validate({ ImageId = ami, InstanceType = "m3.medium", UserData = "YQ==" }, ctx)
  H.eq((d:change(old, d:validate({ ImageId = ami, InstanceType = "m3.large", UserData = "YQ==" }, ctx), ctx)), "replace")
  H.eq((d:change(old, d:validate({ ImageId = ami, InstanceType = "m3.medium", UserData = "Yg==" }, ctx), ctx)), "replace")
  H.eq((d:change(old, d:validate({ ImageId = ami, InstanceType = "m3.medium", UserData = "YQ==",
    Tags = { { Key = "a", Value = "b" } } }, ctx), ctx)), "none", "tags stay in place")
  -- an image EC2 does not know: replacement, the safe answer
  H.eq(d:update_behavior("InstanceType", "t2.micro", "t2.small", ctx, {}, { ImageId = "ami-00000000" }), "some")
  sim.call("ec2", "DeregisterImage", { ImageId = "ami-00000000" })
  H.eq(d:update_behavior("InstanceType", "t2.micro", "t2.small", ctx, {}, { ImageId = "ami-00000000" }), "replace")
end)

T.case("declared behaviours: replacement, none, tenancy, block devices", function()
  local _, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  for _, name in ipairs({ "ImageId", "KeyName", "SubnetId", "AvailabilityZone", "PrivateIpAddress",
                           "SecurityGroups", "NetworkInterfaces", "PlacementGroupName", "LaunchTemplate" }) do
    H.eq(d:property(name).update, "replace", name)
  end
  for _, name in ipairs({ "Tags", "Monitoring", "DisableApiTermination", "SourceDestCheck", "IamInstanceProfile",
                           "CreditSpecification", "InstanceInitiatedShutdownBehavior", "SsmAssociations", "Volumes" }) do
    H.eq(d:property(name).update, "none", name)
  end
  H.eq(d:property("SecurityGroupIds").update, "some")
  local p = { ImageId = AMI }
  H.eq(d:update_behavior("Tenancy", "dedicated", "host", ctx, p, p), "some")
  H.eq(d:update_behavior("Tenancy", nil, "dedicated", ctx, p, p), "replace")
  local bdm = { { DeviceName = "/dev/xvda", Ebs = { VolumeSize = 8, DeleteOnTermination = true } } }
  local dot = { { DeviceName = "/dev/xvda", Ebs = { VolumeSize = 8, DeleteOnTermination = false } } }
  local bigger = { { DeviceName = "/dev/xvda", Ebs = { VolumeSize = 20, DeleteOnTermination = true } } }
  H.eq(d:update_behavior("BlockDeviceMappings", bdm, dot, ctx, p, p), "none")
  H.eq(d:update_behavior("BlockDeviceMappings", bdm, bigger, ctx, p, p), "replace")
end)

T.case("seed 000 test 34: an instance terminated out of band fails the some-interruption update", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim, "Instance2")
  local r, old = create(world, sim, d, ctx, { ImageId = AMI, InstanceType = "t2.micro" })
  sim.call("ec2", "TerminateInstances", { InstanceIds = { r.id } }) -- "I also terminated 'Instance2' manually"
  local new = d:validate({ ImageId = AMI, InstanceType = "t2.small" }, ctx)
  local _, changed = d:change(old, new, ctx)
  local want = "This instance '" .. r.id .. "' is not in a state from which it can be stopped."
  ctx.progress = nil
  local e = H.raises(function() d.update(ctx, r.id, new, old, changed) end, want)
  H.eq(P.error_message(e), want)
  world.set_now_ms(world.now_ms() + 60000)
  H.raises(function() d.update(ctx, r.id, new, old, changed) end, want, "also once terminated")
  -- test 36: the rollback's update (old and new swapped) fails the same way
  H.raises(function() d.rollback(ctx, r.id, old, new, changed) end, want)
  H.eq(d.read(ctx, r.id, new), nil, "read: the instance is gone")
  H.eq(drive(world, d, "delete", ctx, { r.id, new }), nil, "deleting it succeeds")
end)

T.case("seed 000 test 35: an instance stopped out of band is updated and left running", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim, "Instance2")
  local r, old = create(world, sim, d, ctx, { ImageId = AMI, InstanceType = "t2.micro" })
  sim.call("ec2", "StopInstances", { InstanceIds = { r.id } }) -- "I also stopped 'Instance2' manually"
  world.set_now_ms(world.now_ms() + 60000)
  H.eq(describe(sim, r.id).State.Name, "stopped")
  local new = d:validate({ ImageId = AMI, InstanceType = "t2.small" }, ctx)
  update(world, d, ctx, r.id, old, new)
  local i = describe(sim, r.id)
  H.eq(i.State.Name, "running", "Instance2 is now running")
  H.eq(i.InstanceType, "t2.small")
  local now = d.read(ctx, r.id, new)
  H.eq(now.properties.InstanceType, "t2.small")
end)

T.case("an instance still booting (started out of band) is stopped once it runs", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local r, old = create(world, sim, d, ctx, { ImageId = AMI, InstanceType = "t2.micro" })
  sim.call("ec2", "StopInstances", { InstanceIds = { r.id } })
  world.set_now_ms(world.now_ms() + 60000)
  sim.call("ec2", "StartInstances", { InstanceIds = { r.id } })
  H.eq(describe(sim, r.id).State.Name, "pending")
  local seen = {}
  update(world, d, ctx, r.id, old, d:validate({ ImageId = AMI, InstanceType = "t2.large" }, ctx), function()
    seen[#seen + 1] = describe(sim, r.id).State.Name
  end)
  H.eq(seen[1], "pending", "first it waits")
  H.eq(describe(sim, r.id).InstanceType, "t2.large")
  H.eq(describe(sim, r.id).State.Name, "running")
end)

T.case("no-interruption and group changes apply without a stop", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local subnet = sim.call("ec2", "CreateSubnet", { VpcId = vpc, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId
  local a = sim.call("ec2", "CreateSecurityGroup", { GroupName = "a", Description = "a", VpcId = vpc }).GroupId
  local b = sim.call("ec2", "CreateSecurityGroup", { GroupName = "b", Description = "b", VpcId = vpc }).GroupId
  local r, old = create(world, sim, d, ctx, { ImageId = AMI, SubnetId = subnet, SecurityGroupIds = { a },
    Tags = { { Key = "Name", Value = "web" }, { Key = "Old", Value = "1" } } })
  local new = d:validate({ ImageId = AMI, SubnetId = subnet, SecurityGroupIds = { b }, Monitoring = true,
    DisableApiTermination = true, SourceDestCheck = false,
    Tags = { { Key = "Name", Value = "api" } } }, ctx)
  local behavior, changed = d:change(old, new, ctx)
  H.eq(behavior, "some")
  H.same(changed, { "DisableApiTermination", "Monitoring", "SecurityGroupIds", "SourceDestCheck", "Tags" })
  local states = {}
  update(world, d, ctx, r.id, old, new, function() states[#states + 1] = describe(sim, r.id).State.Name end)
  H.same(states, { "running" }, "one call, never stopped")
  local i = describe(sim, r.id)
  H.same(i.SecurityGroups, { { GroupId = b, GroupName = "b" } })
  H.same(i.Tags, { { Key = "Name", Value = "api" }, { Key = "aws:cloudformation:logical-id", Value = "Web" },
                   { Key = "aws:cloudformation:stack-name", Value = "s" } })
  H.eq(i.Monitoring.State, "enabled")
  H.eq(i.SourceDestCheck, false)
  H.raises(function() sim.call("ec2", "TerminateInstances", { InstanceIds = { r.id } }) end,
    "The instance '" .. r.id .. "' may not be terminated. Modify its 'disableApiTermination' instance attribute and try again.")
  H.same(world.referrers(a), {}, "group a is no longer held")
  -- the default rollback is update with old and new swapped
  drive(world, d, "rollback", ctx, { r.id, old, new, changed })
  i = describe(sim, r.id)
  H.same(i.SecurityGroups, { { GroupId = a, GroupName = "a" } })
  H.same(i.Tags, { { Key = "Name", Value = "web" }, { Key = "Old", Value = "1" },
                   { Key = "aws:cloudformation:logical-id", Value = "Web" }, { Key = "aws:cloudformation:stack-name", Value = "s" } })
  H.eq(i.Monitoring.State, "disabled")
  H.eq(i.SourceDestCheck, true)
  sim.call("ec2", "TerminateInstances", { InstanceIds = { r.id } })
end)

T.case("IamInstanceProfile changes in place: replace, then remove the association", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local r, old = create(world, sim, d, ctx, { ImageId = AMI, IamInstanceProfile = "app" })
  local function profile()
    local a = sim.call("ec2", "DescribeIamInstanceProfileAssociations", { Filters = {
      { Name = "instance-id", Values = { r.id } } } }).IamInstanceProfileAssociations[1]
    return a and a.IamInstanceProfile.Arn
  end
  H.eq(profile(), "arn:aws:iam::123456789012:instance-profile/app")
  local new = d:validate({ ImageId = AMI, IamInstanceProfile = "arn:aws:iam::123456789012:instance-profile/web" }, ctx)
  H.eq((d:change(old, new, ctx)), "none")
  update(world, d, ctx, r.id, old, new)
  H.eq(profile(), "arn:aws:iam::123456789012:instance-profile/web")
  local none = d:validate({ ImageId = AMI }, ctx)
  update(world, d, ctx, r.id, new, none)
  H.eq(profile(), nil)
  H.eq(describe(sim, r.id).IamInstanceProfile, nil)
end)

T.case("delete: in progress until terminated; deleting again or an unknown ID succeeds", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local r, props = create(world, sim, d, ctx, { ImageId = AMI })
  ctx.progress = nil
  local first = d.delete(ctx, r.id, props)
  H.truthy(P.is_in_progress(first))
  H.eq(describe(sim, r.id).State.Name, "shutting-down")
  H.eq(drive(world, d, "delete", ctx, { r.id, props }), nil)
  H.eq(describe(sim, r.id).State.Name, "terminated")
  H.eq(drive(world, d, "delete", ctx, { r.id, props }), nil)
  H.eq(drive(world, d, "delete", ctx, { "i-0123456789abcdef0", props }), nil)
end)

T.case("a group used by a stack instance cannot be deleted until the instance is gone", function()
  local world, sim = fresh()
  local inst, sg = load("instance"), load("security_group")
  local ctx = context(sim, "SG1")
  local vpc = sim.call("ec2", "CreateVpc", { CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
  local sgp = sg:validate({ GroupDescription = "ssh", VpcId = vpc, SecurityGroupIngress = {
    { IpProtocol = "tcp", FromPort = 22, ToPort = 22, CidrIp = "0.0.0.0/0" } } }, ctx)
  local g = drive(world, sg, "create", ctx, { sgp })
  local ictx = context(sim, "Instance1")
  local subnet = sim.call("ec2", "CreateSubnet", { VpcId = vpc, CidrBlock = "10.0.1.0/24" }).Subnet.SubnetId
  local r, ip = create(world, sim, inst, ictx, { ImageId = AMI, SubnetId = subnet, SecurityGroupIds = { g.id } })
  local e = H.raises(function() drive(world, sg, "delete", ctx, { g.id, sgp }) end,
    "resource " .. g.id .. " has a dependent object")
  H.eq(select(2, P.error_message(e)), "DependencyViolation")
  drive(world, inst, "delete", ictx, { r.id, ip })
  H.eq(drive(world, sg, "delete", ctx, { g.id, sgp }), nil)
  H.eq(drive(world, sg, "delete", ctx, { g.id, sgp }), nil, "deleting again succeeds")
end)

T.case("read: the template's properties as EC2 has them now", function()
  local world, sim = fresh()
  local d = load("instance")
  local ctx = context(sim)
  local r, props = create(world, sim, d, ctx, { ImageId = AMI, InstanceType = "t2.micro", UserData = "YQ==",
    Tags = { { Key = "Name", Value = "web" } } })
  sim.call("ec2", "CreateTags", { Resources = { r.id }, Tags = { { Key = "Extra", Value = "1" } } })
  local now = d:check_result("read", d.read(ctx, r.id, props))
  H.eq(now.properties.InstanceType, "t2.micro")
  H.eq(now.properties.UserData, "YQ==")
  H.same(now.properties.Tags, { { Key = "Extra", Value = "1" }, { Key = "Name", Value = "web" } })
  H.eq(now.properties.SubnetId, nil, "not a property the template set")
  H.eq(now.attributes.InstanceId, r.id)
end)

return T
