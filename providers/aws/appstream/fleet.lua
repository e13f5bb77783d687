-- AWS::AppStream::Fleet on the simulated AppStream (sim/appstream.lua),
-- with the StopBeforeUpdate / StartAfterUpdate update policy (seed 004).
--
-- Update behaviours: Name and FleetType Replacement (create-only), the
-- rest No interruption: UpdateFleet. AppStream changes a RUNNING fleet's
-- DisplayName, ComputeCapacity, ImageArn/ImageName and the two disconnect
-- timeouts only; anything else (InstanceType, VpcConfig, IamRoleArn,
-- MaxUserDurationInSeconds, ...) needs a stopped fleet, and without
-- StopBeforeUpdate the update fails with AppStream's "Cannot update the
-- attribute for fleet X when it is ACTIVE. The fleet must be stopped to
-- complete this action." (cloudformation-coverage-roadmap#1017).
-- With StopBeforeUpdate: StopFleet and in progress until STOPPED (the
-- fleet's state in the world), then UpdateFleet. With StartAfterUpdate:
-- StartFleet after the update and in progress until RUNNING. CloudFormation
-- creates a fleet STOPPED (starting it is the user's: StartFleet);
-- deleting a running fleet stops it first.
-- Ref is the fleet name; Fn::GetAtt Id (the name too).
local P = require("moonstack.provider")

local POLL_SECONDS = 30

local policy_on = require("lib.policy_values").flag

local function appstream(ctx) return ctx.world.appstream end

local function gone(err) return type(err) == "table" and err.code == "ResourceNotFoundException" end

local function state(ctx, name)
  local ok, r = pcall(appstream(ctx).DescribeFleets, { Names = { name } })
  if ok then return r.Fleets[1].State end
  if gone(r) then return nil end
  error(r, 0)
end

local function wait(step) return P.in_progress { after = POLL_SECONDS, context = { step = step } } end

local properties = {
  P.string "FleetType" { allowed = { "ALWAYS_ON", "ON_DEMAND", "ELASTIC" }, update = "replace" },
  P.string "InstanceType" { required = true, update = "none" },
  P.string "Name" { required = true, update = "replace" },
  P.tags "Tags" { update = "none" },
  P.list(P.string) "UsbDeviceFilterStrings" { update = "none" },
}
for _, name in ipairs({ "ComputeCapacity", "Description", "DisableIMDSV1", "DisconnectTimeoutInSeconds", "DisplayName",
                        "DomainJoinInfo", "EnableDefaultInternetAccess", "IamRoleArn", "IdleDisconnectTimeoutInSeconds",
                        "ImageArn", "ImageName", "MaxConcurrentSessions", "MaxSessionsPerInstance",
                        "MaxUserDurationInSeconds", "Platform", "RootVolumeConfig", "SessionScriptS3Location",
                        "StreamView", "VpcConfig" }) do
  properties[#properties + 1] = P.json(name) { update = "none" }
end
table.sort(properties, function(a, b) return a.name < b.name end)

local function update_request(id, new, old, changed)
  local req, removed = { Name = id }, {}
  for _, name in ipairs(changed) do
    if name ~= "Tags" then
      if new[name] ~= nil then req[name] = new[name] else removed[#removed + 1] = name end
    end
  end
  if #removed > 0 then req.AttributesToDelete = removed end
  return req
end

return P.define {
  type = "AWS::AppStream::Fleet",
  timeout_minutes = 2160,
  properties = properties,
  attributes = { "Id" },
  primary_identifier = "Name",

  create = function(ctx, props)
    local req = {}
    for k, v in pairs(props) do req[k] = v end
    req.Tags = nil
    appstream(ctx).CreateFleet(req)
    return { id = props.Name, attributes = { Id = props.Name } }
  end,

  update = function(ctx, id, new, old, changed)
    local step = ctx.progress and ctx.progress.step
    if step == nil and policy_on(ctx, "StopBeforeUpdate") then step = "stopping" end
    if step == "stopping" then
      local s = state(ctx, id)
      if s == "RUNNING" or s == "STARTING" then appstream(ctx).StopFleet { Name = id } return wait("stopping") end
      if s == "STOPPING" then return wait("stopping") end
    end
    if step == nil or step == "stopping" then
      appstream(ctx).UpdateFleet(update_request(id, new, old, changed))
      if not policy_on(ctx, "StartAfterUpdate") then return nil end
      appstream(ctx).StartFleet { Name = id }
      return wait("starting")
    end
    -- step == "starting"
    if state(ctx, id) ~= "RUNNING" then return wait("starting") end
  end,

  delete = function(ctx, id)
    local s = state(ctx, id)
    if s == nil then return nil end
    if s == "RUNNING" or s == "STARTING" then appstream(ctx).StopFleet { Name = id } return wait("stopping") end
    if s == "STOPPING" then return wait("stopping") end
    appstream(ctx).DeleteFleet { Name = id }
  end,

  read = function(ctx, id, props)
    local ok, r = pcall(appstream(ctx).DescribeFleets, { Names = { id } })
    if not ok then
      if gone(r) then return nil end
      error(r, 0)
    end
    local f = r.Fleets[1]
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.InstanceType = f.InstanceType
    return { properties = properties, attributes = { Id = f.Name } }
  end,
}
