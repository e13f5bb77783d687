-- AWS::SSM::Parameter driven as the engine drives it.
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("aws ssm providers")

local load = require("provider_driver").load

local PARAM = load("ssm/parameter")

local function context(sim, logical)
  return { stack_name = "s", logical_id = logical or "Param", region = "us-east-1",
           account = "123456789012", world = sim.client(),
           stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/s/0b5e3c10-0000-4000-8000-000000000001" }
end

local function run(world, decl, hook, ctx, ...)
  ctx.progress = nil
  for _ = 1, 10000 do
    local r = decl:check_result(hook, decl[hook](ctx, ...))
    if not P.is_in_progress(r) then return r end
    ctx.progress = r.context
    world.set_now_ms(world.now_ms() + r.after * 1000)
  end
  error("hook never finished")
end

T.case("declared behaviours: Name replaces, the rest updates in place", function()
  for _, p in ipairs(PARAM.properties) do
    H.eq(p.update, p.name == "Name" and "replace" or "none", p.name)
  end
  H.same(PARAM.attributes, { "Type", "Value" })
  H.raises(function() PARAM:validate({ Value = "v" }, { logical_id = "Param" }) end,
    "Properties validation failed for resource Param with message: #: required key [Type] not found")
  H.raises(function() PARAM:validate({ Value = "v", Type = "Number" }, { logical_id = "Param" }) end,
    "Properties validation failed for resource Param with message: #/Type: failed validation constraint for keyword [enum]")
  H.raises(function() PARAM:validate({ Value = "v", Type = "String", Tags = { { Key = "a", Value = "b" } } }, { logical_id = "Param" }) end,
    "Value of property Tags must be an object")
end)

T.case("create with a generated name CFN-<logical>-<random>, tags and system tags", function()
  local world, sim = fresh()
  local ctx = context(sim, "DatabaseEndpointParameterForTheApp")
  local props = PARAM:validate({ Type = "String", Value = "db.local", Description = "d", Tags = { env = "dev" } }, ctx)
  local r = run(world, PARAM, "create", ctx, props)
  H.match(r.id, "^CFN%-DatabaseEndpointParamet%-%w+$") -- the prefix keeps 40 - 13 characters
  H.eq(#r.id, 40)
  H.same(r.attributes, { Type = "String", Value = "db.local" })
  local ssm = sim.client().ssm
  H.eq(ssm.GetParameter({ Name = r.id }).Parameter.Value, "db.local")
  H.same(ssm.ListTagsForResource({ ResourceType = "Parameter", ResourceId = r.id }).TagList, {
    { Key = "aws:cloudformation:logical-id", Value = "DatabaseEndpointParameterForTheApp" },
    { Key = "aws:cloudformation:stack-id", Value = ctx.stack_id },
    { Key = "aws:cloudformation:stack-name", Value = "s" },
    { Key = "env", Value = "dev" },
  })
  local read = PARAM:check_result("read", PARAM.read(ctx, r.id, props))
  H.same(read.properties, { Name = r.id, Type = "String", Value = "db.local", DataType = "text",
    Description = "d", Tier = "Standard", Tags = { env = "dev" } })
end)

T.case("a named parameter that exists already fails with SSM's message; SecureString is refused", function()
  local world, sim = fresh()
  local ctx = context(sim)
  sim.client().ssm.PutParameter({ Name = "/taken", Value = "x", Type = "String" })
  H.raises(function() run(world, PARAM, "create", ctx, PARAM:validate({ Name = "/taken", Type = "String", Value = "y" }, ctx)) end,
    "The parameter already exists. To overwrite this value, set the overwrite option in the request to true.")
  H.raises(function() run(world, PARAM, "create", ctx, PARAM:validate({ Name = "/s", Type = "SecureString", Value = "y" }, ctx)) end,
    "SSM Parameters of type SecureString cannot be created using CloudFormation")
  H.raises(function()
    run(world, PARAM, "create", ctx, PARAM:validate({ Name = "/n", Type = "String", Value = "abc", AllowedPattern = "^\\d+$" }, ctx))
  end, "Parameter value, cannot be validated against allowedPattern: ^\\d+$")
end)

T.case("update: Value, Type, Description in place as a new version; tags by the tag actions", function()
  local world, sim = fresh()
  local ctx = context(sim)
  local old = PARAM:validate({ Name = "/app/cfg", Type = "String", Value = "1", Description = "d",
    AllowedPattern = "^\\d+$", Tags = { a = "1", b = "2" } }, ctx)
  run(world, PARAM, "create", ctx, old)
  local new = PARAM:validate({ Name = "/app/cfg", Type = "StringList", Value = "x,y", Tags = { b = "3", c = "4" } }, ctx)
  local behavior, changed = PARAM:change(old, new, ctx)
  H.eq(behavior, "none")
  H.same(changed, { "AllowedPattern", "Description", "Tags", "Type", "Value" })
  local u = run(world, PARAM, "update", ctx, "/app/cfg", new, old, changed)
  H.same(u.attributes, { Type = "StringList", Value = "x,y" })
  local ssm = sim.client().ssm
  local p = ssm.GetParameter({ Name = "/app/cfg" }).Parameter
  H.eq(p.Version, 2)
  H.eq(p.Type, "StringList")
  local meta = ssm.DescribeParameters({}).Parameters[1]
  H.eq(meta.Description, nil, "a description the template dropped is cleared")
  H.eq(meta.AllowedPattern, nil, "so is the pattern")
  local read = PARAM.read(ctx, "/app/cfg", new)
  H.same(read.properties.Tags, { b = "3", c = "4" })
  -- Only tags changed: no new version.
  local tagged = PARAM:validate({ Name = "/app/cfg", Type = "StringList", Value = "x,y", Tags = { c = "4" } }, ctx)
  run(world, PARAM, "update", ctx, "/app/cfg", tagged, new, { "Tags" })
  H.eq(ssm.GetParameter({ Name = "/app/cfg" }).Parameter.Version, 2)
  H.same(PARAM.read(ctx, "/app/cfg", tagged).properties.Tags, { c = "4" })
end)

T.case("a Name change replaces: the new parameter is created, the old one deleted in cleanup", function()
  local world, sim = fresh()
  local ctx = context(sim)
  local old = PARAM:validate({ Name = "/v1", Type = "String", Value = "a" }, ctx)
  run(world, PARAM, "create", ctx, old)
  local new = PARAM:validate({ Name = "/v2", Type = "String", Value = "a" }, ctx)
  H.eq((PARAM:change(old, new, ctx)), "replace")
  H.eq(run(world, PARAM, "create", ctx, new).id, "/v2")
  run(world, PARAM, "delete", ctx, "/v1", old)
  H.eq(PARAM.read(ctx, "/v1", old), nil)
  H.eq(sim.client().ssm.GetParameter({ Name = "/v2" }).Parameter.Value, "a")
  -- Deleting again is fine.
  run(world, PARAM, "delete", ctx, "/v1", old)
end)

return T
