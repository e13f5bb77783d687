-- AWS::EC2::Instance on the simulated EC2.
--
-- Update behaviours follow the CloudFormation reference (AWS::EC2::Instance,
-- "Update requires"). Properties whose change needs the instance stopped
-- ("Some interruptions" — InstanceType, UserData, EbsOptimized, KernelId,
-- RamdiskId, AdditionalInfo, Affinity, HostId) are decided at run time from
-- the image: an EBS-backed instance is stopped, modified and started; an
-- instance-store one cannot be stopped, so the change is a replacement (the
-- reference's wording: "Some interruptions for Amazon EBS-backed instances /
-- Replacement for instance store-backed instances").
--
-- The some-interruption update is a small state machine kept in
-- ctx.progress.step: StopInstances -> (in progress until stopped) ->
-- ModifyInstanceAttribute / ModifyInstancePlacement -> StartInstances ->
-- (in progress until running). A stop of a terminated instance fails with
-- EC2's "This instance 'i-…' is not in a state from which it can be
-- stopped." (seed 000 test 34); an instance stopped out of band is modified
-- and started (test 35: "Instance2 is now running").

local P = require("moonstack.provider")
local values = require("moonstack.values")
local cfn = require("sim.ec2.cfn")

-- The image's root device type, or nil when EC2 does not know the image.
local function root_device(ctx, image_id)
  if type(image_id) ~= "string" then return nil end
  local ok, res = pcall(function() return cfn.ec2(ctx).DescribeImages { ImageIds = { image_id } } end)
  if not ok or not res.Images[1] then return nil end
  return res.Images[1].RootDeviceType
end

-- "Some interruptions for Amazon EBS-backed instances; Replacement for
-- instance store-backed instances" (an unknown image: replacement, the
-- safe answer).
local function stop_or_replace(old, new, ctx, old_props, new_props)
  return root_device(ctx, new_props.ImageId) == "ebs" and "some" or "replace"
end

-- Tenancy: EC2 changes it only between "dedicated" and "host", on a stopped
-- instance (the classic reference: "No interruption if this property was set
-- to dedicated and you change it to host or vice versa; Replacement for all
-- other changes"; today's reference says Some interruptions).
local function tenancy_update(old, new, ctx, old_props, new_props)
  local o, n = old or "default", new or "default"
  if (o == "dedicated" and n == "host") or (o == "host" and n == "dedicated") then
    return stop_or_replace(old, new, ctx, old_props, new_props)
  end
  return "replace"
end

-- BlockDeviceMappings: EC2 cannot change an instance's mappings after
-- launch except DeleteOnTermination (ModifyInstanceAttribute), so only that
-- change is in place; anything else replaces (the classic reference:
-- "Replacement. If you change only the DeleteOnTermination property for one
-- or more block devices, update requires No interruption").
local function without_delete_on_termination(list)
  local copy = values.deep_copy(list or {})
  for _, m in ipairs(type(copy) == "table" and copy or {}) do
    if type(m) == "table" and type(m.Ebs) == "table" then m.Ebs.DeleteOnTermination = nil end
  end
  return copy
end
local function block_device_update(old, new)
  if values.deep_equal(without_delete_on_termination(old), without_delete_on_termination(new)) then return "none" end
  return "replace"
end

-- Properties applied by stopping the instance.
local NEEDS_STOP = { InstanceType = true, UserData = true, EbsOptimized = true, KernelId = true,
                     RamdiskId = true, AdditionalInfo = true, Affinity = true, HostId = true, Tenancy = true }

local function describe(ec2, id)
  local res = cfn.unless_gone(ec2.DescribeInstances, { InstanceIds = { id } })
  local r = res and res.Reservations[1]
  return r and r.Instances[1] or nil
end

local function attributes(inst)
  return {
    InstanceId = inst.InstanceId,
    AvailabilityZone = inst.Placement.AvailabilityZone,
    PrivateDnsName = inst.PrivateDnsName or "",
    PrivateIp = inst.PrivateIpAddress,
    PublicDnsName = inst.PublicDnsName or "",
    PublicIp = inst.PublicIpAddress or "", -- "" when the instance has no public address
    VpcId = inst.VpcId,
  }
end

local function profile(spec)
  if spec == nil then return nil end
  if spec:match("^arn:") then return { Arn = spec } end
  return { Name = spec }
end

-- CloudFormation's NetworkInterface property -> RunInstances' shape.
local function interfaces(list)
  if list == nil then return nil end
  local out = {}
  for i, ni in ipairs(list) do
    out[i] = {
      DeviceIndex = tonumber(ni.DeviceIndex), SubnetId = ni.SubnetId, Groups = ni.GroupSet,
      AssociatePublicIpAddress = ni.AssociatePublicIpAddress, PrivateIpAddress = ni.PrivateIpAddress,
      NetworkInterfaceId = ni.NetworkInterfaceId, DeleteOnTermination = ni.DeleteOnTermination,
      Description = ni.Description, SecondaryPrivateIpAddressCount = ni.SecondaryPrivateIpAddressCount,
    }
  end
  return out
end

local function run_params(ctx, props)
  local credit = type(props.CreditSpecification) == "table" and props.CreditSpecification.CPUCredits or nil
  return {
    ImageId = props.ImageId, InstanceType = props.InstanceType, KeyName = props.KeyName,
    SubnetId = props.SubnetId, SecurityGroupIds = props.SecurityGroupIds, SecurityGroups = props.SecurityGroups,
    UserData = props.UserData, MinCount = 1, MaxCount = 1,
    PrivateIpAddress = props.PrivateIpAddress, NetworkInterfaces = interfaces(props.NetworkInterfaces),
    Placement = { AvailabilityZone = props.AvailabilityZone, Tenancy = props.Tenancy,
                  GroupName = props.PlacementGroupName, Affinity = props.Affinity, HostId = props.HostId },
    IamInstanceProfile = profile(props.IamInstanceProfile),
    EbsOptimized = props.EbsOptimized, DisableApiTermination = props.DisableApiTermination,
    InstanceInitiatedShutdownBehavior = props.InstanceInitiatedShutdownBehavior,
    Monitoring = props.Monitoring ~= nil and { Enabled = props.Monitoring } or nil,
    CreditSpecification = credit and { CpuCredits = credit } or nil,
    BlockDeviceMappings = props.BlockDeviceMappings, KernelId = props.KernelId, RamdiskId = props.RamdiskId,
    LaunchTemplate = props.LaunchTemplate, CpuOptions = props.CpuOptions,
    TagSpecifications = cfn.tag_specs(ctx, "instance", props.Tags),
  }
end

-- The VPC's default group, for SecurityGroupIds removed from the template.
local function default_group(ec2, vpc_id)
  local res = ec2.DescribeSecurityGroups { Filters = {
    { Name = "vpc-id", Values = { vpc_id } }, { Name = "group-name", Values = { "default" } } } }
  return res.SecurityGroups[1] and res.SecurityGroups[1].GroupId
end

-- Changes EC2 applies to a running instance.
local function apply_live(ctx, ec2, id, new, old, changed)
  for _, name in ipairs(changed) do
    if name == "Tags" then
      cfn.update_tags(ctx, ec2, id, old.Tags, new.Tags)
    elseif name == "SecurityGroupIds" then
      local ids = new.SecurityGroupIds
      if ids == nil or #ids == 0 then ids = { default_group(ec2, describe(ec2, id).VpcId) } end
      ec2.ModifyInstanceAttribute { InstanceId = id, Groups = ids }
    elseif name == "DisableApiTermination" then
      ec2.ModifyInstanceAttribute { InstanceId = id, DisableApiTermination = { Value = new.DisableApiTermination == true } }
    elseif name == "SourceDestCheck" then
      ec2.ModifyInstanceAttribute { InstanceId = id, SourceDestCheck = { Value = new.SourceDestCheck ~= false } }
    elseif name == "InstanceInitiatedShutdownBehavior" then
      ec2.ModifyInstanceAttribute { InstanceId = id,
        InstanceInitiatedShutdownBehavior = { Value = new.InstanceInitiatedShutdownBehavior or "stop" } }
    elseif name == "Monitoring" then
      if new.Monitoring then ec2.MonitorInstances { InstanceIds = { id } }
      else ec2.UnmonitorInstances { InstanceIds = { id } } end
    elseif name == "CreditSpecification" then
      local credit = type(new.CreditSpecification) == "table" and new.CreditSpecification.CPUCredits
      if credit then
        ec2.ModifyInstanceCreditSpecification { InstanceCreditSpecifications = { { InstanceId = id, CpuCredits = credit } } }
      end
    elseif name == "IamInstanceProfile" then
      local assoc = ec2.DescribeIamInstanceProfileAssociations { Filters = {
        { Name = "instance-id", Values = { id } } } }.IamInstanceProfileAssociations[1]
      if assoc and new.IamInstanceProfile then
        ec2.ReplaceIamInstanceProfileAssociation { AssociationId = assoc.AssociationId,
          IamInstanceProfile = profile(new.IamInstanceProfile) }
      elseif assoc then
        ec2.DisassociateIamInstanceProfile { AssociationId = assoc.AssociationId }
      elseif new.IamInstanceProfile then
        ec2.AssociateIamInstanceProfile { InstanceId = id, IamInstanceProfile = profile(new.IamInstanceProfile) }
      end
    end
    -- SsmAssociations, Volumes and BlockDeviceMappings' DeleteOnTermination
    -- have no counterpart in the simulated EC2: nothing to apply.
  end
end

-- Changes EC2 applies only to a stopped instance.
local function apply_stopped(ec2, id, new, changed)
  local placement
  for _, name in ipairs(changed) do
    if name == "InstanceType" then
      ec2.ModifyInstanceAttribute { InstanceId = id, InstanceType = { Value = new.InstanceType or "m1.small" } }
    elseif name == "UserData" then
      ec2.ModifyInstanceAttribute { InstanceId = id, UserData = { Value = new.UserData or "" } }
    elseif name == "EbsOptimized" then
      ec2.ModifyInstanceAttribute { InstanceId = id, EbsOptimized = { Value = new.EbsOptimized == true } }
    elseif name == "KernelId" and new.KernelId then
      ec2.ModifyInstanceAttribute { InstanceId = id, Kernel = { Value = new.KernelId } }
    elseif name == "RamdiskId" and new.RamdiskId then
      ec2.ModifyInstanceAttribute { InstanceId = id, Ramdisk = { Value = new.RamdiskId } }
    elseif name == "Affinity" or name == "HostId" or name == "Tenancy" then
      placement = placement or { InstanceId = id }
      placement[name] = new[name] or (name == "Tenancy" and "default" or nil)
    end
  end
  if placement then ec2.ModifyInstancePlacement(placement) end
end

local function needs_stop(changed)
  for _, name in ipairs(changed) do if NEEDS_STOP[name] then return true end end
  return false
end

local function wait(step, seconds)
  return P.in_progress { after = seconds or cfn.POLL_SECONDS, context = { step = step } }
end

return P.define {
  type = "AWS::EC2::Instance",
  properties = {
    P.string "AdditionalInfo" { update = stop_or_replace },
    P.string "Affinity" { allowed = { "default", "host" }, update = stop_or_replace },
    P.string "AvailabilityZone" { update = "replace" },
    P.json "BlockDeviceMappings" { update = block_device_update },
    P.json "CpuOptions" { update = "replace" },
    P.json "CreditSpecification" { update = "none" },
    P.boolean "DisableApiTermination" { update = "none" },
    P.boolean "EbsOptimized" { update = stop_or_replace },
    P.json "ElasticGpuSpecifications" { update = "replace" },
    P.json "ElasticInferenceAccelerators" { update = "replace" },
    P.json "EnclaveOptions" { update = "replace" },
    P.json "HibernationOptions" { update = "replace" },
    P.string "HostId" { update = stop_or_replace },
    P.string "HostResourceGroupArn" { update = "replace" },
    P.string "IamInstanceProfile" { update = "none" },
    P.string "ImageId" { update = "replace" },
    P.string "InstanceInitiatedShutdownBehavior" { allowed = { "stop", "terminate" }, update = "none" },
    P.string "InstanceType" { update = stop_or_replace },
    P.integer "Ipv6AddressCount" { update = "replace" },
    P.json "Ipv6Addresses" { update = "replace" },
    P.string "KernelId" { update = stop_or_replace },
    P.string "KeyName" { update = "replace" },
    P.json "LaunchTemplate" { update = "replace" },
    P.json "LicenseSpecifications" { update = "replace" },
    P.boolean "Monitoring" { update = "none" },
    P.json "NetworkInterfaces" { update = "replace" },
    P.string "PlacementGroupName" { update = "replace" },
    P.string "PrivateIpAddress" { update = "replace" },
    P.string "RamdiskId" { update = stop_or_replace },
    -- "Some interruptions" in the current reference; in a VPC EC2 changes
    -- the groups of a running instance, so no stop is made.
    P.list(P.string) "SecurityGroupIds" { update = "some" },
    P.list(P.string) "SecurityGroups" { update = "replace" },
    P.boolean "SourceDestCheck" { update = "none" },
    P.json "SsmAssociations" { update = "none" },
    P.string "SubnetId" { update = "replace" },
    P.tags "Tags" { update = "none" },
    P.string "Tenancy" { allowed = { "dedicated", "default", "host" }, update = tenancy_update },
    P.string "UserData" { update = stop_or_replace },
    P.json "Volumes" { update = "none" },
  },
  attributes = { "AvailabilityZone", "InstanceId", "PrivateDnsName", "PrivateIp", "PublicDnsName", "PublicIp", "VpcId" },
  primary_identifier = "InstanceId",

  -- RunInstances, then in progress until the instance is running.
  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    if not ctx.progress then
      local inst = ec2.RunInstances(run_params(ctx, props)).Instances[1]
      if props.SourceDestCheck == false then
        ec2.ModifyInstanceAttribute { InstanceId = inst.InstanceId, SourceDestCheck = { Value = false } }
      end
      return P.in_progress { after = cfn.seconds("boot"), context = { id = inst.InstanceId }, id = inst.InstanceId }
    end
    local id = ctx.progress.id
    local inst = describe(ec2, id)
    if not inst then P.fail("The instance ID '" .. id .. "' does not exist", "NotFound") end
    local state = inst.State.Name
    if state == "running" then return { id = id, attributes = attributes(inst) } end
    if state == "pending" then return P.in_progress { after = cfn.POLL_SECONDS, context = { id = id }, id = id } end
    -- Shape of CloudFormation's reason for an instance that never ran
    -- ("Instance i-… failed to stabilize. Current state: shutting-down.
    -- Reason: Server.InternalError: Internal error on launch").
    local reason = inst.StateReason and inst.StateReason.Message or "Unknown"
    P.fail("Instance " .. id .. " failed to stabilize. Current state: " .. state .. ". Reason: " .. reason,
      "NotStabilized")
  end,

  update = function(ctx, id, new, old, changed)
    local ec2 = cfn.ec2(ctx)
    local step = ctx.progress and ctx.progress.step
    if not step then
      if not needs_stop(changed) then
        apply_live(ctx, ec2, id, new, old, changed)
        local inst = describe(ec2, id)
        return { attributes = inst and attributes(inst) or nil }
      end
      step = "stopping"
    end
    if step == "stopping" then
      local inst = describe(ec2, id)
      if not inst then P.fail("The instance ID '" .. id .. "' does not exist", "NotFound") end
      local state = inst.State.Name
      if state == "stopping" or state == "pending" then
        -- EC2 stops a pending instance only once it has run: wait either way
        return wait("stopping")
      end
      if state ~= "stopped" then
        -- running, or terminated out of band: EC2 says which (seed 000 test 34)
        ec2.StopInstances { InstanceIds = { id } }
        return wait("stopping", cfn.seconds("stop"))
      end
      -- stopped (by us, or out of band as in seed 000 test 35): modify now
      apply_stopped(ec2, id, new, changed)
      apply_live(ctx, ec2, id, new, old, changed)
      ec2.StartInstances { InstanceIds = { id } }
      return wait("starting", cfn.seconds("boot"))
    end
    -- step == "starting"
    local inst = describe(ec2, id)
    if not inst then P.fail("The instance ID '" .. id .. "' does not exist", "NotFound") end
    local state = inst.State.Name
    if state == "pending" then return wait("starting") end
    if state ~= "running" then
      ec2.StartInstances { InstanceIds = { id } } -- raises EC2's message when it cannot start
      return wait("starting", cfn.seconds("boot"))
    end
    return { attributes = attributes(inst) }
  end,

  -- TerminateInstances, in progress until terminated. An instance already
  -- gone (terminated, unknown) is deleted.
  delete = function(ctx, id, props)
    local ec2 = cfn.ec2(ctx)
    local inst = describe(ec2, id)
    if not inst or inst.State.Name == "terminated" then return nil end
    if not ctx.progress then
      ec2.TerminateInstances { InstanceIds = { id } }
      return P.in_progress { after = cfn.seconds("terminate"), context = { step = "terminating" } }
    end
    return P.in_progress { after = cfn.POLL_SECONDS, context = { step = "terminating" } }
  end,

  read = function(ctx, id, props)
    local ec2 = cfn.ec2(ctx)
    local inst = describe(ec2, id)
    if not inst or inst.State.Name == "terminated" or inst.State.Name == "shutting-down" then return nil end
    local now = {
      ImageId = inst.ImageId, InstanceType = inst.InstanceType, KeyName = inst.KeyName,
      SubnetId = inst.SubnetId, AvailabilityZone = inst.Placement.AvailabilityZone,
      PrivateIpAddress = inst.PrivateIpAddress, Tenancy = inst.Placement.Tenancy,
      EbsOptimized = inst.EbsOptimized, SourceDestCheck = inst.SourceDestCheck,
      Monitoring = inst.Monitoring.State == "enabled", Tags = cfn.tags_of(inst),
    }
    local ids, names = {}, {}
    for _, g in ipairs(inst.SecurityGroups) do ids[#ids + 1] = g.GroupId; names[#names + 1] = g.GroupName end
    now.SecurityGroupIds, now.SecurityGroups = ids, names
    now.UserData = ec2.DescribeInstanceAttribute { InstanceId = id, Attribute = "userData" }.UserData.Value
    now.DisableApiTermination = ec2.DescribeInstanceAttribute { InstanceId = id,
      Attribute = "disableApiTermination" }.DisableApiTermination.Value
    -- Report what the template manages: its own properties, as they are now
    -- where EC2 knows them.
    local properties = {}
    for k, v in pairs(props or {}) do
      if now[k] ~= nil or k == "Tags" then properties[k] = now[k] else properties[k] = v end
    end
    return { properties = properties, attributes = attributes(inst) }
  end,
}
