-- sim.ec2.instances: instances (kind "ec2.instance") and their lifecycle.
--
-- States and codes are AWS's: 0 pending, 16 running, 32 shutting-down,
-- 48 terminated, 64 stopping, 80 stopped. A transitional state ends at
-- `_sim.until_ms` of world time; records settle lazily — whenever an action
-- reads or acts on an instance it first moves it on to where the clock says
-- it is (pending -> running after boot_seconds, stopping -> stopped after
-- stop_seconds, shutting-down -> terminated after terminate_seconds; see
-- sim.ec2.common's DEFAULTS and world.get("config", "ec2")).
--
-- An instance's refs are its subnet and its security groups, so a live
-- instance — in a stack or not — blocks deleting either. A terminated
-- instance stays describable as a non-live record without refs: it holds
-- nothing.
--
-- An instance an Auto Scaling group launched (tag aws:autoscaling:groupName,
-- as AWS tags them) that is stopped or terminated leaves a state-change
-- notice (kind "ec2.state_notice", keyed by instance, referring to
-- I.notice_ref(group)), so the group's health check reads only the instances
-- that changed instead of every instance it has (sim.autoscaling.capacity).

local world = require("sim.world")
local C = require("sim.ec2.common")
local images = require("sim.ec2.images")
local types = require("sim.ec2.types")
local network = require("sim.ec2.network")
local groups = require("sim.ec2.groups")
local boot_script = require("sim.ec2.boot_script")

local I = {}

I.CODES = { pending = 0, running = 16, ["shutting-down"] = 32, terminated = 48, stopping = 64, stopped = 80 }

-- Messages ----------------------------------------------------------------------

-- InvalidInstanceID.NotFound: "The instance ID 'i-…' does not exist"; for
-- several, "The instance IDs 'i-…, i-…' do not exist".
local function not_found(ids)
  if #ids == 1 then
    C.fail("The instance ID '" .. tostring(ids[1]) .. "' does not exist", "InvalidInstanceID.NotFound")
  end
  C.fail("The instance IDs '" .. table.concat(ids, ", ") .. "' do not exist", "InvalidInstanceID.NotFound")
end

local function malformed(id)
  C.fail('Invalid id: "' .. tostring(id) .. '"', "InvalidInstanceID.Malformed")
end

-- IncorrectInstanceState for ModifyInstanceAttribute on a running instance:
-- "The instance 'i-XXXXXXXXXXXX' is not in the 'stopped' state." (AWS CLI
-- output quoted in a public note; Eucalyptus returns the same text).
local function not_stopped(id)
  C.fail("The instance '" .. id .. "' is not in the 'stopped' state.", "IncorrectInstanceState")
end

-- Time --------------------------------------------------------------------------

-- Days since 1970-01-01 -> year, month, day (Howard Hinnant's algorithm).
local function civil(days)
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local y = yoe + era * 400
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  if m <= 2 then y = y + 1 end
  return y, m, d
end

---World time (ms since the epoch) as AWS's ISO 8601 timestamp.
function I.iso8601(ms)
  ms = math.floor(ms or 0)
  local secs = math.floor(ms / 1000)
  local days = math.floor(secs / 86400)
  local rem = secs - days * 86400
  local y, m, d = civil(days)
  return string.format("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, m, d,
    math.floor(rem / 3600), math.floor(rem % 3600 / 60), rem % 60, ms % 1000)
end

-- Records -----------------------------------------------------------------------

I.STATE_NOTICE = "ec2.state_notice"
I.GROUP_TAG = "aws:autoscaling:groupName"

---The ref every state notice of `group`'s instances carries.
function I.notice_ref(group) return "autoscaling-group-health:" .. group end

-- A stop or terminate of a group's instance: one notice per instance (a
-- later change overwrites it), so notices grow with the changes, not with
-- the group.
local function notify_group(rec)
  for _, t in ipairs(rec.Tags or {}) do
    if t.Key == I.GROUP_TAG then
      world.put(I.STATE_NOTICE, rec.InstanceId, { InstanceId = rec.InstanceId, State = rec.State.Name },
        { refs = { I.notice_ref(t.Value) } })
      return
    end
  end
end

local function state_name(rec) return rec.State.Name end

local function set_state(rec, name, until_ms)
  rec.State = { Code = I.CODES[name], Name = name }
  rec._sim.until_ms = until_ms
end

---Writes an instance back: live with refs (subnet, groups) unless terminated.
function I.save(rec)
  if state_name(rec) == "terminated" then
    world.put("ec2.instance", rec.InstanceId, rec, { refs = {}, live = false })
    return
  end
  local refs = {}
  if rec.SubnetId then refs[1] = rec.SubnetId end
  for _, g in ipairs(rec.SecurityGroups or {}) do refs[#refs + 1] = g.GroupId end
  world.put("ec2.instance", rec.InstanceId, rec, { refs = refs })
end

local function private_dns(ip, region)
  if not ip then return "" end
  local host = "ip-" .. ip:gsub("%.", "-")
  if region == "us-east-1" then return host .. ".ec2.internal" end
  return host .. "." .. region .. ".compute.internal"
end

-- A public DNS name exists only when the VPC gives DNS hostnames.
local function public_dns(ip, region, vpc_id)
  if not ip then return "" end
  local vpc = network.vpc(vpc_id)
  if not (vpc and vpc._sim.EnableDnsSupport and vpc._sim.EnableDnsHostnames) then return "" end
  local host = "ec2-" .. ip:gsub("%.", "-")
  if region == "us-east-1" then return host .. ".compute-1.amazonaws.com" end
  return host .. "." .. region .. ".compute.amazonaws.com"
end

local function give_public_ip(rec)
  local ip = network.allocate_public_ip()
  rec.PublicIpAddress = ip
  rec.PublicDnsName = public_dns(ip, rec._sim.region, rec.VpcId)
end

local function drop_public_ip(rec)
  rec.PublicIpAddress = nil
  rec.PublicDnsName = ""
end

-- Moves a record on to the state the clock says it is in. Returns true when
-- it changed.
-- The boot script's cfn-signal calls (sim/ec2/boot_script.lua), once running.
local function run_boot_script(rec, at_ms)
  if C.config().run_user_data == false then return end
  boot_script.run(rec._sim.UserData, rec.InstanceId, { region = rec._sim.region, now_ms = at_ms, account = "" })
end

local function settle(rec, now)
  local changed = false
  while rec._sim.until_ms and now >= rec._sim.until_ms do
    local s = state_name(rec)
    changed = true
    if s == "pending" then
      local booted_ms = rec._sim.until_ms  -- set_state clears it
      set_state(rec, "running", nil)
      run_boot_script(rec, booted_ms or now)
    elseif s == "stopping" then
      set_state(rec, "stopped", nil)
      drop_public_ip(rec)
    elseif s == "shutting-down" then
      set_state(rec, "terminated", nil)
      drop_public_ip(rec)
      rec.PrivateIpAddress = nil
      rec.PrivateDnsName = ""
    else
      rec._sim.until_ms = nil
    end
  end
  return changed
end

---The instance record with its state settled (and written back when it
---moved on), or nil when no such instance exists.
---@param id string
---@param env table
---@return table?
function I.load(id, env)
  if type(id) ~= "string" then return nil end
  local rec = world.get("ec2.instance", id)
  if not rec then return nil end
  if settle(rec, env.now_ms or world.now_ms()) then I.save(rec) end
  return rec
end

---True when the instance exists and, settled, is not terminated (so it still
---holds its subnet and groups).
function I.settled_live(id, env)
  local rec = I.load(id, env)
  return rec ~= nil and state_name(rec) ~= "terminated"
end

-- Loads every ID, failing as AWS does for malformed or unknown ones.
local function load_all(ids, env)
  local recs, missing = {}, {}
  for _, id in ipairs(ids) do
    if not C.well_formed(id, "i") then malformed(id) end
    local rec = I.load(id, env)
    if rec then recs[#recs + 1] = rec else missing[#missing + 1] = id end
  end
  if #missing > 0 then not_found(missing) end
  return recs
end

function I.require(id, env)
  if id == nil then C.fail("The request must contain the parameter InstanceId", "MissingParameter") end
  return load_all({ id }, env)[1]
end

local function view(rec) return C.public(rec) end

local function state_view(rec) return { Code = rec.State.Code, Name = rec.State.Name } end

-- Launch ------------------------------------------------------------------------

-- The primary network interface of a RunInstances request (DeviceIndex 0).
local function primary_interface(p)
  for _, ni in ipairs(C.list(p.NetworkInterfaces)) do
    if tonumber(ni.DeviceIndex) == 0 then return ni end
  end
  return nil
end

local function resolve_groups(ids, names, vpc, subnet)
  local out, seen = {}, {}
  local function add(g)
    if not seen[g.GroupId] then seen[g.GroupId] = true; out[#out + 1] = { GroupId = g.GroupId, GroupName = g.GroupName } end
  end
  for _, id in ipairs(ids) do
    local g = groups.require_group(id)
    if g.VpcId ~= vpc.VpcId then
      -- InvalidParameter: "Security group sg-… and subnet subnet-… belong to
      -- different networks."
      C.fail("Security group " .. id .. " and subnet " .. subnet.SubnetId .. " belong to different networks.",
        "InvalidParameter")
    end
    add(g)
  end
  for _, name in ipairs(names) do
    local g = groups.find_by_name(vpc.VpcId, name)
    if not g then
      if vpc.IsDefault then
        C.fail("The security group '" .. tostring(name) .. "' does not exist in default VPC '" .. vpc.VpcId .. "'",
          "InvalidGroup.NotFound")
      end
      C.fail("The security group '" .. tostring(name) .. "' does not exist in VPC '" .. vpc.VpcId .. "'",
        "InvalidGroup.NotFound")
    end
    add(g)
  end
  if #out == 0 then add(groups.require_group(vpc._sim.DefaultSecurityGroupId)) end
  return out
end

-- Burstable types get a credit option: standard for T2, unlimited for T3/T3a/T4g
-- (the CloudFormation reference's CreditSpecification defaults).
local function default_credits(itype)
  if itype:match("^t2%.") then return "standard" end
  if itype:match("^t3a?%.") or itype:match("^t4g%.") then return "unlimited" end
  return nil
end

local function profile_of(spec, env)
  if type(spec) ~= "table" then return nil end
  local arn = spec.Arn
  local name = spec.Name or (type(arn) == "string" and arn:match("instance%-profile/(.+)$") or nil)
  if not arn and name then arn = "arn:aws:iam::" .. env.account .. ":instance-profile/" .. name end
  local known = name and world.get("iam.instance_profile", name)
  local id = type(known) == "table" and known.InstanceProfileId or nil
  return { Arn = arn, Id = id }
end

local A = {}

---RunInstances: ImageId, InstanceType, KeyName, SubnetId, SecurityGroupIds,
---SecurityGroups (names), NetworkInterfaces, PrivateIpAddress, Placement,
---UserData, TagSpecifications, MinCount/MaxCount, ... -> a reservation
---{ ReservationId, OwnerId, Groups, Instances }.
---`service_tags` (a {Key=Value} map) is for another simulated service
---calling in Lua, never a request field: the aws:-prefixed tags AWS's own
---services put on what they launch (aws:autoscaling:groupName), which a
---request's TagSpecifications may not carry.
function A.RunInstances(p, env, service_tags)
  if p.ImageId == nil then C.fail("The request must contain the parameter ImageId", "MissingParameter") end
  local image = images.require_image(p.ImageId, env)
  local itype = p.InstanceType or "m1.small" -- EC2's and CloudFormation's default
  types.check(itype)
  if world.live("ec2.image", image.ImageId) and types.architecture(itype) ~= image.Architecture then
    C.fail("The architecture '" .. types.architecture(itype) .. "' of the specified instance type does not match the architecture '"
      .. tostring(image.Architecture) .. "' of the specified AMI. Specify an instance type and an AMI that have matching architectures, and try again. You can use 'describe-instance-types' or 'describe-images' to discover the architecture of the instance type or AMI.",
      "InvalidParameterValue")
  end
  local min, max = tonumber(p.MinCount or 1), tonumber(p.MaxCount or p.MinCount or 1)
  if not min or not max or min < 1 or max < min then
    C.fail("Value (" .. tostring(p.MinCount) .. ") for parameter minCount is invalid. Expected a positive integer.",
      "InvalidParameterValue")
  end
  if p.KeyName ~= nil then images.require_key_pair(p.KeyName) end

  local placement = type(p.Placement) == "table" and p.Placement or {}
  local ni = primary_interface(p)
  local subnet_id = (ni and ni.SubnetId) or p.SubnetId
  local subnet
  if subnet_id ~= nil then
    subnet = network.require_subnet(subnet_id)
  else
    local az = placement.AvailabilityZone or C.zones(env.region)[1]
    if not C.zone_exists(env.region, az) then
      C.fail("Invalid availability zone: [" .. tostring(az) .. "]", "InvalidParameterValue")
    end
    network.require_default_vpc(env)
    subnet = network.default_subnet(env, az)
  end
  local vpc = network.require_vpc(subnet.VpcId)
  local group_ids = C.list(ni and ni.Groups or p.SecurityGroupIds)
  local sgs = resolve_groups(group_ids, C.list(p.SecurityGroups), vpc, subnet)

  local requested_ip = (ni and ni.PrivateIpAddress) or p.PrivateIpAddress
  if requested_ip ~= nil and max > 1 then
    C.fail("Cannot specify a private IP address when launching more than one instance", "InvalidParameterCombination")
  end
  local public = subnet.MapPublicIpOnLaunch
  if ni and C.bool(ni.AssociatePublicIpAddress) ~= nil then public = C.bool(ni.AssociatePublicIpAddress) end

  local tags = C.spec_tags(p.TagSpecifications, "instance", env)
  for k, v in pairs(service_tags or {}) do tags[k] = v end
  local reservation = C.derived_id(env, "instance", "r")
  local monitoring = type(p.Monitoring) == "table" and C.bool(p.Monitoring.Enabled) or false
  local credits = type(p.CreditSpecification) == "table" and p.CreditSpecification.CpuCredits or default_credits(itype)
  local out = {}
  local addresses = {}  -- network.allocate_ip's cache for this launch
  for index = 0, max - 1 do
    local id = env.new_id("instance")
    local ip = network.allocate_ip(subnet, requested_ip, addresses)
    local rec = {
      InstanceId = id, ImageId = image.ImageId, InstanceType = itype, KeyName = p.KeyName,
      AmiLaunchIndex = index, LaunchTime = I.iso8601(env.now_ms),
      State = { Code = 0, Name = "pending" }, StateTransitionReason = "",
      SubnetId = subnet.SubnetId, VpcId = vpc.VpcId,
      PrivateIpAddress = ip, PrivateDnsName = private_dns(ip, env.region), PublicDnsName = "",
      Placement = { AvailabilityZone = subnet.AvailabilityZone, Tenancy = placement.Tenancy or vpc.InstanceTenancy or "default",
                    GroupName = placement.GroupName or "", Affinity = placement.Affinity, HostId = placement.HostId },
      SecurityGroups = sgs,
      Architecture = image.Architecture, RootDeviceType = image.RootDeviceType, RootDeviceName = image.RootDeviceName,
      VirtualizationType = image.VirtualizationType, Hypervisor = "xen",
      EbsOptimized = C.bool(p.EbsOptimized) or false,
      Monitoring = { State = monitoring and "enabled" or "disabled" },
      SourceDestCheck = true,
      IamInstanceProfile = profile_of(p.IamInstanceProfile, env),
      BlockDeviceMappings = {},
      Tags = C.tag_list(tags),
      ClientToken = p.ClientToken or "",
      _sim = {
        region = env.region, reservation = reservation, launched_ms = env.now_ms,
        until_ms = env.now_ms + C.config().boot_seconds * 1000, public = public,
        UserData = p.UserData, KernelId = p.KernelId, RamdiskId = p.RamdiskId,
        DisableApiTermination = C.bool(p.DisableApiTermination) or false,
        InstanceInitiatedShutdownBehavior = p.InstanceInitiatedShutdownBehavior
          or (image.RootDeviceType == "ebs" and "stop" or "terminate"),
        CpuCredits = credits, boots = 1, reboots = 0,
      },
    }
    if image.RootDeviceType == "ebs" then
      rec.BlockDeviceMappings[1] = { DeviceName = image.RootDeviceName, Ebs = {
        VolumeId = C.derived_id(env, "volume", "vol"), Status = "attached", DeleteOnTermination = true,
        AttachTime = rec.LaunchTime } }
    end
    if public then give_public_ip(rec) end
    if rec.IamInstanceProfile then
      -- a profile given at launch is an association like any other
      local aid = "iip-assoc-" .. env.new_id("instance"):match("%-(%x+)$")
      rec._sim.profile_association = aid
      world.put("ec2.iam_association", aid, { InstanceId = id }, { live = false })
    end
    I.save(rec)
    out[#out + 1] = view(rec)
  end
  return { ReservationId = reservation, OwnerId = env.account, Groups = {}, Instances = out }
end

-- Describe ----------------------------------------------------------------------

local INSTANCE_FILTERS = {
  ["instance-id"] = function(r) return r.InstanceId end,
  ["instance-state-name"] = function(r) return r.State.Name end,
  ["instance-state-code"] = function(r) return tostring(r.State.Code) end,
  ["instance-type"] = function(r) return r.InstanceType end,
  ["image-id"] = function(r) return r.ImageId end,
  ["subnet-id"] = function(r) return r.SubnetId end,
  ["vpc-id"] = function(r) return r.VpcId end,
  ["key-name"] = function(r) return r.KeyName end,
  ["private-ip-address"] = function(r) return r.PrivateIpAddress end,
  ["availability-zone"] = function(r) return r.Placement.AvailabilityZone end,
  ["instance.group-id"] = function(r)
    local out = {}
    for _, g in ipairs(r.SecurityGroups or {}) do out[#out + 1] = g.GroupId end
    return out
  end,
}

---DescribeInstances: InstanceIds (each must exist), Filters ->
---{ Reservations = [{ ReservationId, OwnerId, Groups, Instances }] }.
function A.DescribeInstances(p, env)
  local recs
  local ids = C.list(p.InstanceIds)
  if #ids > 0 then
    recs = load_all(ids, env)
  else
    recs = {}
    for _, id in ipairs(world.ids("ec2.instance")) do recs[#recs + 1] = I.load(id, env) end
  end
  local reservations, by_id = {}, {}
  for _, rec in ipairs(recs) do
    if C.matches(rec, p.Filters, INSTANCE_FILTERS) then
      local rid = rec._sim.reservation
      local r = by_id[rid]
      if not r then
        r = { ReservationId = rid, OwnerId = env.account, Groups = {}, Instances = {} }
        by_id[rid] = r
        reservations[#reservations + 1] = r
      end
      r.Instances[#r.Instances + 1] = view(rec)
    end
  end
  return { Reservations = reservations }
end

-- State changes -----------------------------------------------------------------

local function change(rec, prev)
  return { InstanceId = rec.InstanceId, CurrentState = state_view(rec), PreviousState = prev }
end

-- Applies `fn` to every instance after all have passed `check` (a request
-- changes all of its instances or none).
local function each(p, env, check, fn)
  local recs = load_all(C.list(p.InstanceIds), env)
  for _, rec in ipairs(recs) do check(rec) end
  local out = {}
  for _, rec in ipairs(recs) do
    local prev = state_view(rec)
    fn(rec)
    I.save(rec)
    out[#out + 1] = change(rec, prev)
  end
  return out
end

---StopInstances: InstanceIds -> { StoppingInstances }.
function A.StopInstances(p, env)
  local cfg = C.config()
  local list = each(p, env, function(rec)
    local s, id = state_name(rec), rec.InstanceId
    if s == "terminated" or s == "shutting-down" then
      -- Verbatim from seed 000 test 34 (an update of an instance terminated
      -- out of band): "This instance 'i-4e2455f0' is not in a state from
      -- which it can be stopped."
      C.fail("This instance '" .. id .. "' is not in a state from which it can be stopped.", "IncorrectInstanceState")
    end
    if rec.RootDeviceType ~= "ebs" then
      -- UnsupportedOperation: "The instance 'i-b2acfb92' does not have an
      -- 'ebs' root device type and cannot be stopped." (mitchellh/vagrant-aws#193)
      C.fail("The instance '" .. id .. "' does not have an 'ebs' root device type and cannot be stopped.",
        "UnsupportedOperation")
    end
    if s == "pending" then
      -- cloud-custodian/cloud-custodian#6014 (verified against AWS).
      C.fail("Instance '" .. id .. "' cannot be stopped as it has never reached the 'running' state.",
        "IncorrectInstanceState")
    end
  end, function(rec)
    if state_name(rec) == "running" then
      set_state(rec, "stopping", env.now_ms + cfg.stop_seconds * 1000)
      notify_group(rec)
      rec.StateTransitionReason = "User initiated (" .. I.iso8601(env.now_ms):sub(1, 19):gsub("T", " ") .. " GMT)"
      rec.StateReason = { Code = "Client.UserInitiatedShutdown", Message = "Client.UserInitiatedShutdown: User initiated shutdown" }
    end
  end)
  return { StoppingInstances = list }
end

---StartInstances: InstanceIds -> { StartingInstances }.
function A.StartInstances(p, env)
  local cfg = C.config()
  local list = each(p, env, function(rec)
    local s = state_name(rec)
    if s ~= "stopped" and s ~= "running" and s ~= "pending" then
      -- "The instance 'i-0186ee404747acbaf' is not in a state from which it
      -- can be started." (boto output quoted in public code)
      C.fail("The instance '" .. rec.InstanceId .. "' is not in a state from which it can be started.",
        "IncorrectInstanceState")
    end
  end, function(rec)
    if state_name(rec) == "stopped" then
      set_state(rec, "pending", env.now_ms + cfg.boot_seconds * 1000)
      rec.StateTransitionReason, rec.StateReason = "", nil
      rec._sim.boots = (rec._sim.boots or 1) + 1
      if rec._sim.public then give_public_ip(rec) end
    end
  end)
  return { StartingInstances = list }
end

---TerminateInstances: InstanceIds -> { TerminatingInstances }. Terminating a
---terminated instance succeeds.
function A.TerminateInstances(p, env)
  local cfg = C.config()
  local list = each(p, env, function(rec)
    if rec._sim.DisableApiTermination then
      -- OperationNotPermitted, AWS's text (quoted in AWS workshop guides).
      C.fail("The instance '" .. rec.InstanceId .. "' may not be terminated. Modify its 'disableApiTermination' instance attribute and try again.",
        "OperationNotPermitted")
    end
  end, function(rec)
    local s = state_name(rec)
    if s ~= "terminated" and s ~= "shutting-down" then
      set_state(rec, "shutting-down", env.now_ms + cfg.terminate_seconds * 1000)
      notify_group(rec)
      rec.StateTransitionReason = "User initiated (" .. I.iso8601(env.now_ms):sub(1, 19):gsub("T", " ") .. " GMT)"
      rec.StateReason = { Code = "Client.UserInitiatedShutdown", Message = "Client.UserInitiatedShutdown: User initiated shutdown" }
    end
  end)
  return { TerminatingInstances = list }
end

---RebootInstances: InstanceIds (running or pending).
function A.RebootInstances(p, env)
  each(p, env, function(rec)
    local s = state_name(rec)
    if s ~= "running" and s ~= "pending" then
      -- extrapolated from the start/stop wording
      C.fail("The instance '" .. rec.InstanceId .. "' is not in a state from which it can be rebooted.",
        "IncorrectInstanceState")
    end
  end, function(rec) rec._sim.reboots = (rec._sim.reboots or 0) + 1 end)
  return {}
end

-- Attributes --------------------------------------------------------------------

-- attribute name (Attribute=) -> request field (structured form)
local ATTRIBUTE_FIELDS = {
  instanceType = "InstanceType", userData = "UserData", disableApiTermination = "DisableApiTermination",
  instanceInitiatedShutdownBehavior = "InstanceInitiatedShutdownBehavior", sourceDestCheck = "SourceDestCheck",
  ebsOptimized = "EbsOptimized", kernel = "Kernel", ramdisk = "Ramdisk", groupSet = "Groups",
}
-- Attributes EC2 changes only on a stopped instance.
local STOPPED_ONLY = { InstanceType = true, UserData = true, EbsOptimized = true, Kernel = true, Ramdisk = true }

---ModifyInstanceAttribute: InstanceId and one attribute, either as
---Attribute + Value or as InstanceType / UserData / ... = { Value = ... },
---Groups = { sg ids }.
function A.ModifyInstanceAttribute(p, env)
  local rec = I.require(p.InstanceId, env)
  local changes = {}
  if p.Attribute ~= nil then
    local field = ATTRIBUTE_FIELDS[p.Attribute]
    if not field then
      C.fail("Value (" .. tostring(p.Attribute) .. ") for parameter attribute is invalid. Unknown attribute.",
        "InvalidParameterValue")
    end
    changes[field] = field == "Groups" and C.list(p.Value) or p.Value
  end
  for _, field in pairs(ATTRIBUTE_FIELDS) do
    if p[field] ~= nil then
      changes[field] = field == "Groups" and C.list(p[field]) or C.value(p[field])
    end
  end
  if next(changes) == nil then C.fail("The request must contain the parameter attribute", "MissingParameter") end
  local s = state_name(rec)
  for field in pairs(changes) do
    if STOPPED_ONLY[field] and s ~= "stopped" then not_stopped(rec.InstanceId) end
  end
  if s == "terminated" or s == "shutting-down" then
    C.fail("The instance '" .. rec.InstanceId .. "' is not in a state from which it can be modified.",
      "IncorrectInstanceState")
  end
  if changes.InstanceType ~= nil then
    types.check(changes.InstanceType, "InvalidInstanceAttributeValue")
    rec.InstanceType = changes.InstanceType
  end
  if changes.UserData ~= nil then rec._sim.UserData = changes.UserData end
  if changes.EbsOptimized ~= nil then rec.EbsOptimized = C.bool(changes.EbsOptimized) or false end
  if changes.Kernel ~= nil then rec._sim.KernelId = changes.Kernel end
  if changes.Ramdisk ~= nil then rec._sim.RamdiskId = changes.Ramdisk end
  if changes.SourceDestCheck ~= nil then rec.SourceDestCheck = C.bool(changes.SourceDestCheck) ~= false end
  if changes.DisableApiTermination ~= nil then rec._sim.DisableApiTermination = C.bool(changes.DisableApiTermination) or false end
  if changes.InstanceInitiatedShutdownBehavior ~= nil then
    local b = changes.InstanceInitiatedShutdownBehavior
    if b ~= "stop" and b ~= "terminate" then
      C.fail("Value (" .. tostring(b) .. ") for parameter instanceInitiatedShutdownBehavior is invalid.", "InvalidParameterValue")
    end
    rec._sim.InstanceInitiatedShutdownBehavior = b
  end
  if changes.Groups ~= nil then
    local vpc = network.require_vpc(rec.VpcId)
    local subnet = network.subnet(rec.SubnetId) or { SubnetId = rec.SubnetId }
    if #changes.Groups == 0 then C.fail("The request must contain the parameter groupId", "MissingParameter") end
    rec.SecurityGroups = resolve_groups(changes.Groups, {}, vpc, subnet)
  end
  I.save(rec)
  return {}
end

---DescribeInstanceAttribute: InstanceId, Attribute -> { InstanceId, <Attribute> = { Value } }.
function A.DescribeInstanceAttribute(p, env)
  local rec = I.require(p.InstanceId, env)
  local a = p.Attribute
  local out = { InstanceId = rec.InstanceId }
  if a == "instanceType" then out.InstanceType = { Value = rec.InstanceType }
  elseif a == "userData" then out.UserData = { Value = rec._sim.UserData }
  elseif a == "disableApiTermination" then out.DisableApiTermination = { Value = rec._sim.DisableApiTermination }
  elseif a == "instanceInitiatedShutdownBehavior" then
    out.InstanceInitiatedShutdownBehavior = { Value = rec._sim.InstanceInitiatedShutdownBehavior }
  elseif a == "sourceDestCheck" then out.SourceDestCheck = { Value = rec.SourceDestCheck }
  elseif a == "ebsOptimized" then out.EbsOptimized = { Value = rec.EbsOptimized }
  elseif a == "kernel" then out.KernelId = { Value = rec._sim.KernelId }
  elseif a == "ramdisk" then out.RamdiskId = { Value = rec._sim.RamdiskId }
  elseif a == "rootDeviceName" then out.RootDeviceName = { Value = rec.RootDeviceName }
  elseif a == "groupSet" then out.Groups = rec.SecurityGroups
  else
    C.fail("Value (" .. tostring(a) .. ") for parameter attribute is invalid. Unknown attribute.", "InvalidParameterValue")
  end
  return out
end

local function monitoring(enabled)
  return function(p, env)
    local list = each(p, env, function() end, function(rec)
      rec.Monitoring = { State = enabled and "enabled" or "disabled" }
    end)
    local out = {}
    for _, c in ipairs(list) do
      out[#out + 1] = { InstanceId = c.InstanceId, Monitoring = { State = enabled and "enabled" or "disabled" } }
    end
    return { InstanceMonitorings = out }
  end
end
---MonitorInstances: InstanceIds -> { InstanceMonitorings }.
A.MonitorInstances = monitoring(true)
---UnmonitorInstances: InstanceIds -> { InstanceMonitorings }.
A.UnmonitorInstances = monitoring(false)

---ModifyInstancePlacement: InstanceId, Tenancy / Affinity / HostId /
---GroupName (the instance must be stopped, as on AWS).
function A.ModifyInstancePlacement(p, env)
  local rec = I.require(p.InstanceId, env)
  if state_name(rec) ~= "stopped" then not_stopped(rec.InstanceId) end
  if p.Tenancy ~= nil then rec.Placement.Tenancy = p.Tenancy end
  if p.Affinity ~= nil then rec.Placement.Affinity = p.Affinity end
  if p.HostId ~= nil then rec.Placement.HostId = p.HostId end
  if p.GroupName ~= nil then rec.Placement.GroupName = p.GroupName end
  I.save(rec)
  return { Return = true }
end

---ModifyInstanceCreditSpecification: InstanceCreditSpecifications [{ InstanceId, CpuCredits }].
function A.ModifyInstanceCreditSpecification(p, env)
  local ok = {}
  for _, spec in ipairs(C.list(p.InstanceCreditSpecifications)) do
    local rec = I.require(spec.InstanceId, env)
    if spec.CpuCredits ~= "standard" and spec.CpuCredits ~= "unlimited" then
      C.fail("Value (" .. tostring(spec.CpuCredits) .. ") for parameter cpuCredits is invalid.", "InvalidParameterValue")
    end
    rec._sim.CpuCredits = spec.CpuCredits
    I.save(rec)
    ok[#ok + 1] = { InstanceId = rec.InstanceId }
  end
  return { SuccessfulInstanceCreditSpecifications = ok, UnsuccessfulInstanceCreditSpecifications = {} }
end

---DescribeInstanceCreditSpecifications: InstanceIds.
function A.DescribeInstanceCreditSpecifications(p, env)
  local out = {}
  for _, rec in ipairs(load_all(C.list(p.InstanceIds), env)) do
    if rec._sim.CpuCredits then out[#out + 1] = { InstanceId = rec.InstanceId, CpuCredits = rec._sim.CpuCredits } end
  end
  return { InstanceCreditSpecifications = out }
end

-- IAM instance profiles ---------------------------------------------------------

local function association_view(rec)
  local a = rec._sim.profile_association
  return { AssociationId = a, InstanceId = rec.InstanceId, IamInstanceProfile = rec.IamInstanceProfile, State = "associated" }
end

local function by_association(aid, env)
  local idx = type(aid) == "string" and world.get("ec2.iam_association", aid)
  local rec = idx and I.load(idx.InstanceId, env)
  if not rec or rec._sim.profile_association ~= aid then
    C.fail("There is no association with ID '" .. tostring(aid) .. "'", "InvalidAssociationID.NotFound")
  end
  return rec
end

local function associate(rec, spec, env)
  local aid = "iip-assoc-" .. env.new_id("instance"):match("%-(%x+)$")
  rec.IamInstanceProfile = profile_of(spec, env)
  rec._sim.profile_association = aid
  world.put("ec2.iam_association", aid, { InstanceId = rec.InstanceId }, { live = false })
  I.save(rec)
  return association_view(rec)
end

---AssociateIamInstanceProfile: InstanceId, IamInstanceProfile { Arn | Name }.
function A.AssociateIamInstanceProfile(p, env)
  local rec = I.require(p.InstanceId, env)
  if rec._sim.profile_association then
    C.fail("There is an existing association for instance " .. rec.InstanceId, "IncorrectState")
  end
  return { IamInstanceProfileAssociation = associate(rec, p.IamInstanceProfile, env) }
end

---ReplaceIamInstanceProfileAssociation: AssociationId, IamInstanceProfile.
function A.ReplaceIamInstanceProfileAssociation(p, env)
  local rec = by_association(p.AssociationId, env)
  world.remove("ec2.iam_association", p.AssociationId)
  return { IamInstanceProfileAssociation = associate(rec, p.IamInstanceProfile, env) }
end

---DisassociateIamInstanceProfile: AssociationId.
function A.DisassociateIamInstanceProfile(p, env)
  local rec = by_association(p.AssociationId, env)
  local v = association_view(rec)
  v.State = "disassociating"
  rec.IamInstanceProfile, rec._sim.profile_association = nil, nil
  world.remove("ec2.iam_association", p.AssociationId)
  I.save(rec)
  return { IamInstanceProfileAssociation = v }
end

---DescribeIamInstanceProfileAssociations: Filters instance-id (or AssociationIds).
function A.DescribeIamInstanceProfileAssociations(p, env)
  local out = {}
  for _, aid in ipairs(C.list(p.AssociationIds)) do out[#out + 1] = association_view(by_association(aid, env)) end
  local iid = C.filter_value(p.Filters, "instance-id")
  if iid then
    local rec = I.require(iid, env)
    if rec._sim.profile_association then out[#out + 1] = association_view(rec) end
  end
  return { IamInstanceProfileAssociations = out }
end

I.actions = A
return I
