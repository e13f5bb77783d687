-- sim.appstream: simulated AppStream 2.0 fleets and their states, enough for
-- AWS::AppStream::Fleet and its StopBeforeUpdate / StartAfterUpdate update
-- policy (seed 004).
--
-- Records: "appstream.fleet" "<region>:<name>". A fleet is created STOPPED;
-- StartFleet makes it STARTING, then RUNNING after start_seconds (600);
-- StopFleet STOPPING, then STOPPED after stop_seconds (300) (world config
-- "appstream", sim.transitions).
-- UpdateFleet follows the API reference: a STOPPED fleet takes any change
-- but its name; a RUNNING one only DisplayName, ComputeCapacity, ImageArn,
-- ImageName, IdleDisconnectTimeoutInSeconds and DisconnectTimeoutInSeconds
-- (Elastic fleets: DisplayName, the two timeouts, MaxConcurrentSessions,
-- SessionScriptS3Location, UsbDeviceFilterStrings); a STARTING or STOPPING
-- one nothing.
--
-- Messages:
--   Cannot update the attribute for fleet <name> when it is ACTIVE. The fleet
--   must be stopped to complete this action. (ResourceInUseException)
--                                  verified: cloudformation-coverage-roadmap#1017
--   Fleet <name> not found. / already exists. / the STARTING-STOPPING
--   refusal: AppStream's exception names, wording unverified.

local world = require("sim.world")
local transitions = require("sim.transitions")

local A = {}

local KIND = "appstream.fleet"

local ATTRIBUTES = { "DisplayName", "Description", "InstanceType", "FleetType", "ComputeCapacity", "ImageName",
  "ImageArn", "MaxUserDurationInSeconds", "DisconnectTimeoutInSeconds", "IdleDisconnectTimeoutInSeconds", "VpcConfig",
  "EnableDefaultInternetAccess", "DomainJoinInfo", "IamRoleArn", "StreamView", "Platform", "MaxConcurrentSessions",
  "MaxSessionsPerInstance", "SessionScriptS3Location", "UsbDeviceFilterStrings", "DisableIMDSV1", "RootVolumeConfig" }

local WHILE_RUNNING = {
  default = { DisplayName = true, ComputeCapacity = true, ImageArn = true, ImageName = true,
              IdleDisconnectTimeoutInSeconds = true, DisconnectTimeoutInSeconds = true },
  ELASTIC = { DisplayName = true, IdleDisconnectTimeoutInSeconds = true, DisconnectTimeoutInSeconds = true,
              MaxConcurrentSessions = true, SessionScriptS3Location = true, UsbDeviceFilterStrings = true },
}

local function fail(message, code) require("sim").fail(message, code) end
local function key(env, name) return env.region .. ":" .. tostring(name) end

local function load(env, name)
  local rec = transitions.load(KIND, key(env, name), env)
  if not rec then fail("Fleet " .. tostring(name) .. " not found.", "ResourceNotFoundException") end
  return rec
end

local function view(rec)
  local v = {}
  for k, x in pairs(rec) do if k ~= "Transition" then v[k] = x end end
  local desired = type(rec.ComputeCapacity) == "table" and tonumber(rec.ComputeCapacity.DesiredInstances) or 0
  local running = rec.State == "RUNNING" and desired or 0
  v.ComputeCapacityStatus = { Desired = desired, Running = running, InUse = 0, Available = running }
  v.ComputeCapacity = nil
  return v
end

function A.CreateFleet(p, env)
  if type(p.Name) ~= "string" or not p.Name:match("^[%w][%w_.%-]*$") or #p.Name > 100 then
    fail("1 validation error detected: Value '" .. tostring(p.Name) .. "' at 'name' failed to satisfy constraint: "
      .. "Member must satisfy regular expression pattern: ^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,100}$", "ValidationException")
  end
  if world.get(KIND, key(env, p.Name)) then fail("Fleet " .. p.Name .. " already exists.", "ResourceAlreadyExistsException") end
  local rec = { Name = p.Name, Arn = "arn:aws:appstream:" .. env.region .. ":" .. env.account .. ":fleet/" .. p.Name,
                State = "STOPPED", CreatedTime = math.floor(env.now_ms / 1000) }
  for _, k in ipairs(ATTRIBUTES) do rec[k] = p[k] end
  rec.FleetType = rec.FleetType or "ON_DEMAND"
  world.put(KIND, key(env, p.Name), rec)
  return { Fleet = view(rec) }
end

function A.DescribeFleets(p, env)
  local out = {}
  for _, name in ipairs(p.Names or {}) do out[#out + 1] = view(load(env, name)) end
  return { Fleets = out }
end

function A.UpdateFleet(p, env)
  local rec = load(env, p.Name)
  if rec.State == "STARTING" or rec.State == "STOPPING" then
    fail("Fleet " .. rec.Name .. " cannot be updated while it is " .. rec.State .. ".", "ConcurrentModificationException")
  end
  local allowed = rec.State == "RUNNING" and (WHILE_RUNNING[rec.FleetType] or WHILE_RUNNING.default) or nil
  for _, k in ipairs(ATTRIBUTES) do
    if p[k] ~= nil and allowed and not allowed[k] then
      fail("Cannot update the attribute for fleet " .. rec.Name .. " when it is ACTIVE. The fleet must be stopped to "
        .. "complete this action.", "ResourceInUseException")
    end
  end
  for _, k in ipairs(ATTRIBUTES) do if p[k] ~= nil then rec[k] = p[k] end end
  for _, k in ipairs(p.AttributesToDelete or {}) do rec[k] = nil end
  world.put(KIND, key(env, rec.Name), rec)
  return { Fleet = view(rec) }
end

function A.StartFleet(p, env)
  local rec = load(env, p.Name)
  if rec.State == "STOPPED" then
    transitions.start(rec, "State", "STARTING", "RUNNING", env.now_ms, transitions.seconds("appstream", "start", 600))
    world.put(KIND, key(env, rec.Name), rec)
  end
  return {}
end

function A.StopFleet(p, env)
  local rec = load(env, p.Name)
  if rec.State == "RUNNING" or rec.State == "STARTING" then
    transitions.start(rec, "State", "STOPPING", "STOPPED", env.now_ms, transitions.seconds("appstream", "stop", 300))
    world.put(KIND, key(env, rec.Name), rec)
  end
  return {}
end

function A.DeleteFleet(p, env)
  local rec = load(env, p.Name)
  if rec.State ~= "STOPPED" then
    fail("Fleet " .. rec.Name .. " cannot be deleted while it is " .. rec.State .. ".", "ResourceInUseException")
  end
  world.remove(KIND, key(env, rec.Name))
  return {}
end

return A
