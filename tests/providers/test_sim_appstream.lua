-- The simulated AppStream: fleet states in simulated time and what
-- UpdateFleet accepts in each.
local H = require("harness")
local T = H.suite("sim appstream")

local function as() return require("sim").client().appstream end
local function state() return as().DescribeFleets({ Names = { "f" } }).Fleets[1].State end

T.case("STOPPED -> STARTING -> RUNNING -> STOPPING -> STOPPED, timed by the world config", function()
  local world = fresh()
  world.put("config", "appstream", { start_seconds = 60, stop_seconds = 30 })
  as().CreateFleet({ Name = "f", InstanceType = "stream.standard.small", ComputeCapacity = { DesiredInstances = 1 } })
  H.eq(state(), "STOPPED")
  as().StartFleet({ Name = "f" })
  H.eq(state(), "STARTING")
  world.set_now_ms(60 * 1000)
  H.eq(state(), "RUNNING")
  as().StopFleet({ Name = "f" })
  H.eq(state(), "STOPPING")
  world.set_now_ms(90 * 1000)
  H.eq(state(), "STOPPED")
end)

T.case("UpdateFleet: any change when stopped, a few when running, none while starting", function()
  local world = fresh()
  as().CreateFleet({ Name = "f", InstanceType = "stream.standard.small" })
  as().CreateFleet({ Name = "e", InstanceType = "stream.standard.small", FleetType = "ELASTIC" })
  as().UpdateFleet({ Name = "f", InstanceType = "stream.standard.medium" })
  as().StartFleet({ Name = "f" })
  as().StartFleet({ Name = "e" })
  H.raises(function() as().UpdateFleet({ Name = "f", DisplayName = "x" }) end,
    "Fleet f cannot be updated while it is STARTING.")
  world.set_now_ms(600 * 1000)
  as().UpdateFleet({ Name = "f", DisplayName = "x", ComputeCapacity = { DesiredInstances = 2 } })
  local message = "Cannot update the attribute for fleet f when it is ACTIVE. The fleet must be stopped to complete "
    .. "this action."
  H.raises(function() as().UpdateFleet({ Name = "f", MaxUserDurationInSeconds = 3600 }) end, message)
  H.raises(function() as().UpdateFleet({ Name = "f", MaxConcurrentSessions = 3 }) end, message)
  as().UpdateFleet({ Name = "e", MaxConcurrentSessions = 3 })  -- an Elastic fleet takes this one running
  H.raises(function() as().UpdateFleet({ Name = "e", ComputeCapacity = { DesiredInstances = 2 } }) end,
    "Cannot update the attribute for fleet e when it is ACTIVE. The fleet must be stopped to complete this action.")
  H.raises(function() as().DeleteFleet({ Name = "f" }) end, "Fleet f cannot be deleted while it is RUNNING.")
  H.raises(function() as().DescribeFleets({ Names = { "nope" } }) end, "Fleet nope not found.")
  H.raises(function() as().CreateFleet({ Name = "f", InstanceType = "x" }) end, "Fleet f already exists.")
end)

return T
