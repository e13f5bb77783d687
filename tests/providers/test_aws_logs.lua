-- AWS::Logs::LogGroup driven as the engine drives it.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws logs providers")

local GROUP = D.load("logs/log_group")

local function create(world, sim, props, logical) return D.create(world, sim, GROUP, props, logical) end

T.case("LogGroupName replaces; the rest in place", function()
  for _, p in ipairs(GROUP.properties) do H.eq(p.update, p.name == "LogGroupName" and "replace" or "none", p.name) end
end)

T.case("Ref is the name, Arn ends :*; a retention outside the schema's values fails", function()
  local world, sim = fresh()
  local r = create(world, sim, { RetentionInDays = 731 }, "AppLogs")
  H.match(r.id, "^s%-AppLogs%-%w+$")
  H.same(r.attributes, { Arn = "arn:aws:logs:us-east-1:123456789012:log-group:" .. r.id .. ":*" })
  H.eq(D.failure(function() create(world, sim, { LogGroupName = "/x", RetentionInDays = 730 }, "Bad") end),
    "Properties validation failed for resource Bad with message: #/RetentionInDays: failed validation constraint "
    .. "for keyword [enum]")
  H.eq(world.get("logs.group", "us-east-1:/x"), nil)
  create(world, sim, { LogGroupName = "/taken" })
  H.eq(D.failure(function() create(world, sim, { LogGroupName = "/taken" }, "Other") end),
    "Resource of type 'AWS::Logs::LogGroup' with identifier '/taken' already exists.")
end)

T.case("read sees an out-of-band retention change and the delete", function()
  local world, sim = fresh()
  local props = GROUP:validate({ LogGroupName = "/read", RetentionInDays = 7 }, {})
  local r, ctx = create(world, sim, props)
  sim.client().logs.PutRetentionPolicy({ logGroupName = "/read", retentionInDays = 90 })
  H.eq(GROUP.read(ctx, r.id, props).properties.RetentionInDays, 90)
  sim.client().logs.DeleteLogGroup({ logGroupName = "/read" })
  H.eq(GROUP.read(ctx, r.id, props), nil)
end)

return T
