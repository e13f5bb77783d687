-- The example provider (examples/providers/server.lua) driven the way the
-- engine drives it: validate, plan the change, call hooks until they stop
-- answering "in progress", the world's clock moving on meanwhile.
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("example server")

local path = MOONSTACK_ROOT .. "/examples/providers/server.lua"

local function load_example() return require("provider_driver").load_file(path) end

local function new_ctx(sim)
  return { world = sim.client(), logical_id = "Web", region = "us-east-1", account = "123456789012" }
end

-- Call a hook until it finishes, advancing the world's clock as the engine would.
local function run(world, decl, hook, ctx, ...)
  ctx.progress = nil
  for _ = 1, 100 do
    local r = decl:check_result(hook, decl[hook](ctx, ...))
    if not P.is_in_progress(r) then return r end
    world.set_now_ms(world.now_ms() + r.after * 1000)
    ctx.progress = r.context
  end
  error("hook never finished")
end

T.case("create: boots for 30 s of world time, then reports its id and attributes", function()
  local world, sim = fresh()
  local d = load_example()
  H.eq(d.source, path)
  local ctx = new_ctx(sim)
  local props = d:validate({ ImageId = "ami-0123456789abcdef0", Tags = { { Key = "Name", Value = "web" } } }, ctx)
  H.eq(props.InstanceType, "t3.micro")
  local first = d.create(ctx, props)
  H.truthy(P.is_in_progress(first))
  H.eq(first.after, 30)
  H.eq(world.get("example.server", first.context.id).state, "pending")
  ctx.progress = first.context
  H.truthy(P.is_in_progress(d.create(ctx, props)), "not booted before its time")
  world.set_now_ms(30000)
  local r = d:check_result("create", d.create(ctx, props))
  H.match(r.id, "^i%-0%x+$")
  H.eq(r.attributes.InstanceId, r.id)
  H.eq(world.get("example.server", r.id).state, "running")
end)

T.case("update: the engine decides in place or replacement from the image", function()
  local world, sim = fresh()
  local d = load_example()
  local ctx = new_ctx(sim)
  local store = sim.call("ec2", "RegisterImage", { Name = "s", RootDeviceType = "instance-store" }).ImageId
  local old = d:validate({ ImageId = "ami-0123456789abcdef0", UserData = "a",
                           Tags = { { Key = "Name", Value = "web" } } }, ctx)
  local r = run(world, d, "create", ctx, old)

  local new = d:validate({ ImageId = "ami-0123456789abcdef0", InstanceType = "t3.large", UserData = "a",
                           Tags = { { Key = "Team", Value = "x" } } }, ctx)
  local behavior, changed = d:change(old, new, ctx)
  H.eq(behavior, "some")
  H.same(changed, { "InstanceType", "Tags" })
  run(world, d, "update", ctx, r.id, new, old, changed)
  H.same(world.get("example.server", r.id).tags, { Team = "x" })
  H.eq(world.get("example.server", r.id).restarts, 1)

  local on_store = d:validate({ ImageId = store, InstanceType = "t3.large" }, ctx)
  H.eq((d:change(new, on_store, ctx)), "replace")
  local resized_store = d:validate({ ImageId = store, InstanceType = "t3.xlarge" }, ctx)
  H.eq((d:change(on_store, resized_store, ctx)), "replace", "instance-store: a resize replaces")
  H.eq((d:change(new, d:validate({ ImageId = "ami-0123456789abcdef0", InstanceType = "t3.large", UserData = "a",
    Tags = { { Key = "Team", Value = "x" } }, Tenancy = "dedicated" }, ctx), ctx)), "unsupported")
end)

T.case("failures carry AWS's message", function()
  local _, sim = fresh()
  local d = load_example()
  local ctx = new_ctx(sim)
  H.raises(function() d.create(ctx, d:validate({ ImageId = "i-d8d4a266" })) end,
    'Invalid id: "i-d8d4a266" (expecting "ami-...")')
  H.raises(function() d:validate({ ImageId = "ami-12345678", Tenancy = "host" }, { logical_id = "Web" }) end,
    "Properties validation failed for resource Web with message: #/Tenancy: failed validation constraint for keyword [enum]")
end)

T.case("delete: in progress, then gone; deleting again is fine", function()
  local world, sim = fresh()
  local d = load_example()
  local ctx = new_ctx(sim)
  local props = d:validate({ ImageId = "ami-12345678" })
  local r = run(world, d, "create", ctx, props)
  H.eq(run(world, d, "delete", ctx, r.id, props), nil)
  H.eq(world.get("example.server", r.id), nil)
  H.eq(run(world, d, "delete", ctx, r.id, props), nil)
end)

return T
