-- The example provider (examples/providers/server.lua) driven the way the
-- engine will drive it: validate, plan the change, call hooks until they
-- stop answering "in progress".
local H = require("harness")
local P = require("moonstack.provider")
local ids = require("moonstack.ids")
local T = H.suite("example")

local here = package.searchpath("harness", package.path):match("^(.*)[/\\]")
local path = here .. "/../../examples/providers/server.lua"

local function load_example()
  P.set_source(path)
  local ok, decl = pcall(dofile, path)
  P.set_source(nil)
  if not ok then error(decl, 0) end
  return decl
end

local function new_world()
  return {
    servers = {}, ids = ids.new("example"),
    images = { ["ami-ebs"] = { root_device = "ebs" }, ["ami-store"] = { root_device = "instance-store" } },
  }
end

-- Call a hook until it finishes, as the engine does (virtual time: no waits).
local function run(decl, hook, ctx, ...)
  ctx.progress = nil
  for _ = 1, 10 do
    local r = decl:check_result(hook, decl[hook](ctx, ...))
    if not P.is_in_progress(r) then return r end
    ctx.progress = r.context
  end
  error("hook never finished")
end

T.case("create: boots, then reports its id and attributes", function()
  local d = load_example()
  H.eq(d.source, path)
  local ctx = { world = new_world(), logical_id = "Web" }
  local props = d:validate({ ImageId = "ami-ebs", Tags = { { Key = "Name", Value = "web" } } }, ctx)
  H.eq(props.InstanceType, "t3.micro")
  local first = d.create(ctx, props)
  H.truthy(P.is_in_progress(first))
  H.eq(first.after, 30)
  local r = run(d, "create", ctx, props)
  H.match(r.id, "^i%-0%x+$")
  H.eq(r.attributes.InstanceId, r.id)
  H.eq(ctx.world.servers[r.id].state, "running")
end)

T.case("update: the engine decides in place or replacement", function()
  local d = load_example()
  local ctx = { world = new_world(), logical_id = "Web" }
  local old = d:validate({ ImageId = "ami-ebs", UserData = "a", Tags = { { Key = "Name", Value = "web" } } }, ctx)
  local r = run(d, "create", ctx, old)

  local new = d:validate({ ImageId = "ami-ebs", InstanceType = "t3.large", UserData = "a",
                           Tags = { { Key = "Team", Value = "x" } } }, ctx)
  local behavior, changed = d:change(old, new, ctx)
  H.eq(behavior, "some")
  H.same(changed, { "InstanceType", "Tags" })
  run(d, "update", ctx, r.id, new, old, changed)
  H.same(ctx.world.servers[r.id].tags, { Team = "x" })
  H.eq(ctx.world.servers[r.id].restarts, 1)

  local store = d:validate({ ImageId = "ami-store", InstanceType = "t3.large" }, ctx)
  H.eq((d:change(new, store, ctx)), "replace")
  H.eq((d:change(new, d:validate({ ImageId = "ami-ebs", InstanceType = "t3.large", UserData = "a",
    Tags = { { Key = "Team", Value = "x" } }, Tenancy = "dedicated" }, ctx), ctx)), "unsupported")
end)

T.case("failures carry AWS's message", function()
  local d = load_example()
  local ctx = { world = new_world() }
  H.raises(function() d.create(ctx, d:validate({ ImageId = "ami-nope" })) end,
    "The image id '[ami-nope]' does not exist")
  H.raises(function() d:validate({ ImageId = "ami-ebs", Tenancy = "host" }, { logical_id = "Web" }) end,
    "Properties validation failed for resource Web with message: #/Tenancy: host is not a valid enum value")
end)

T.case("delete: in progress, then gone; deleting again is fine", function()
  local d = load_example()
  local ctx = { world = new_world() }
  local props = d:validate({ ImageId = "ami-ebs" })
  local r = run(d, "create", ctx, props)
  H.eq(run(d, "delete", ctx, r.id, props), nil)
  H.eq(ctx.world.servers[r.id], nil)
  H.eq(run(d, "delete", ctx, r.id, props), nil)
end)

return T
