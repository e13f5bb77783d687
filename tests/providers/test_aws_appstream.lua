-- AWS::AppStream::Fleet driven as the engine drives it, with and without
-- StopBeforeUpdate / StartAfterUpdate (seed 004): the fleet's state in the
-- world before, during and after the update.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws appstream fleet")

local FLEET = D.load("appstream/fleet")

local function fleet(sim) return sim.client().appstream.DescribeFleets({ Names = { "desk" } }).Fleets[1] end

-- A fleet created (STOPPED) and started out of band (RUNNING after 10 min).
local function running(world, sim)
  local ctx = D.context(sim, "Fleet")
  local props = FLEET:validate({ Name = "desk", InstanceType = "stream.standard.small", ImageName = "img",
    ComputeCapacity = { DesiredInstances = 2 } }, ctx)
  local r = D.run(world, FLEET, "create", ctx, props)
  H.eq(fleet(sim).State, "STOPPED")
  sim.client().appstream.StartFleet({ Name = "desk" })
  H.eq(fleet(sim).State, "STARTING")
  world.set_now_ms(world.now_ms() + 600 * 1000)
  H.eq(fleet(sim).State, "RUNNING")
  H.same(fleet(sim).ComputeCapacityStatus, { Desired = 2, Running = 2, InUse = 0, Available = 2 })
  return r, props
end

local function change(props, fields)
  local new = {}
  for k, v in pairs(props) do new[k] = v end
  for k, v in pairs(fields) do new[k] = v end
  return FLEET:validate(new, {})
end

T.case("without StopBeforeUpdate, a change a running fleet cannot take fails with AppStream's message", function()
  local world, sim = fresh()
  local r, props = running(world, sim)
  local new = change(props, { InstanceType = "stream.standard.large" })
  local behaviour, changed = FLEET:change(props, new, D.context(sim, "Fleet"))
  H.eq(behaviour, "none")
  H.eq(D.failure(function() D.run(world, FLEET, "update", D.context(sim, "Fleet"), r.id, new, props, changed) end),
    "Cannot update the attribute for fleet desk when it is ACTIVE. The fleet must be stopped to complete this action.")
  H.eq(fleet(sim).State, "RUNNING")
  H.eq(fleet(sim).InstanceType, "stream.standard.small")
  -- What a running fleet can take goes through without the policy.
  local shown = change(props, { DisplayName = "Desktops", ComputeCapacity = { DesiredInstances = 3 } })
  local _, changed2 = FLEET:change(props, shown, D.context(sim, "Fleet"))
  D.run(world, FLEET, "update", D.context(sim, "Fleet"), r.id, shown, props, changed2)
  H.eq(fleet(sim).DisplayName, "Desktops")
  H.eq(fleet(sim).State, "RUNNING")
end)

T.case("StopBeforeUpdate: STOPPING during the update, STOPPED after; StartAfterUpdate: STARTING, then RUNNING", function()
  local world, sim = fresh()
  local r, props = running(world, sim)
  local new = change(props, { InstanceType = "stream.standard.large" })
  local ctx = D.context(sim, "Fleet", { StopBeforeUpdate = { Type = true } }) -- the seed's form
  local first = FLEET.update(ctx, r.id, new, props, { "InstanceType" })
  H.eq(first.context.step, "stopping")
  H.eq(fleet(sim).State, "STOPPING")
  local _, trace = D.run(world, FLEET, "update", ctx, r.id, new, props, { "InstanceType" })
  H.eq(fleet(sim).State, "STOPPED")
  H.eq(fleet(sim).InstanceType, "stream.standard.large")
  H.truthy(trace.seconds >= 270, "waited for the stop (" .. trace.seconds .. " s)")

  local newer = change(new, { InstanceType = "stream.standard.xlarge" })
  ctx = D.context(sim, "Fleet", { StopBeforeUpdate = "true", StartAfterUpdate = { Type = "true" } })
  sim.client().appstream.StartFleet({ Name = "desk" })
  world.set_now_ms(world.now_ms() + 600 * 1000)
  local started = world.now_ms()
  local _, trace2 = D.run(world, FLEET, "update", ctx, r.id, newer, new, { "InstanceType" })
  H.eq(fleet(sim).State, "RUNNING")
  H.eq(fleet(sim).InstanceType, "stream.standard.xlarge")
  H.eq(trace2.seconds, 300 + 600) -- stopped, updated, started
  H.eq(world.now_ms() - started, 900 * 1000)
end)

T.case("StartAfterUpdate alone starts a stopped fleet after the update", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "Fleet", { StartAfterUpdate = true })
  local props = FLEET:validate({ Name = "desk", InstanceType = "stream.standard.small" }, ctx)
  local r = D.run(world, FLEET, "create", ctx, props)
  local new = change(props, { InstanceType = "stream.standard.medium" })
  local first = FLEET.update(ctx, r.id, new, props, { "InstanceType" })
  H.eq(first.context.step, "starting")
  H.eq(fleet(sim).State, "STARTING")
  H.eq(fleet(sim).InstanceType, "stream.standard.medium")
  ctx.progress = first.context
  world.set_now_ms(world.now_ms() + 600 * 1000)
  H.eq(FLEET.update(ctx, r.id, new, props, { "InstanceType" }), nil)
  H.eq(fleet(sim).State, "RUNNING")
end)

T.case("delete stops a running fleet first", function()
  local world, sim = fresh()
  local r = running(world, sim)
  local _, trace = D.run(world, FLEET, "delete", D.context(sim, "Fleet"), r.id, {})
  H.eq(trace.seconds, 300)
  H.raises(function() fleet(sim) end, "Fleet desk not found.")
end)

return T
