-- moonstack.scaffold: the files `moonstack provider new TYPE` writes — a
-- working provider for TYPE and its contract-test fixture, such that
-- `moonstack provider test` passes on them as they are.
--
--   local files = require("moonstack.scaffold").files("Acme::Thing::Widget")
--   files.provider_path  -- "acme/thing/widget.lua"
--   files.fixture_path   -- "acme/thing/tests/widget.lua"
--   files.provider, files.fixture   -- their text
--
-- The provider keeps each resource as a world record of kind
-- "acme.thing.widget" (the type, lowercased, dot-separated), with properties
-- of three update kinds (replace, none, some), two attributes, an in-progress
-- create, and read.

local S = {}

---Checks a resource type name against AWS's rule for registry types
---(TypeName pattern [A-Za-z0-9]{2,64}::[A-Za-z0-9]{2,64}::[A-Za-z0-9]{2,64}).
---Returns the three parts, or nil and why.
---@param type_name string
---@return string[]?
---@return string? why
function S.type_parts(type_name)
  local a, b, c
  if type(type_name) == "string" then a, b, c = type_name:match("^(%w+)::(%w+)::(%w+)$") end
  local ok = a ~= nil
  for _, part in ipairs({ a or "", b or "", c or "" }) do
    if #part < 2 or #part > 64 then ok = false end
  end
  if not ok then
    return nil, string.format("invalid type name %q: expected Organization::Service::Resource, three parts of "
      .. "2 to 64 letters or digits (AWS's rule for resource type names)", tostring(type_name))
  end
  return { a, b, c }
end

local PROVIDER = [==[
-- {{TYPE}}: a resource provider scaffolded by `moonstack provider new`.
--
-- Each {{LOWER}} is a record of kind "{{KIND}}" in the world (the simulated
-- cloud's store, module moonstack.world), so the contract kit can check that
-- delete leaves nothing behind. Test it with
--   moonstack provider test {{FILE}}
-- (the fixture is tests/{{LOWER}}.lua next to this file). Then make the
-- properties, attributes and hooks those of the real type: lua-sdk/README.md
-- explains every part.

local P = require("moonstack.provider")
local ids = require("moonstack.ids")
local world = require("moonstack.world")
local sim = require("sim")

local KIND = "{{KIND}}"

-- A new physical ID, from the world's shared, deterministic ID generator.
local function new_id()
  local uuid = world.atomic(function() return sim.new_id("uuid") end)
  return "{{LOWER}}-" .. uuid:gsub("%-", ""):sub(1, 17)
end

local function attributes(ctx, id)
  return { ["{{NAME}}Id"] = id, Arn = ids.arn("{{SERVICE}}", ctx.region, ctx.account, "{{LOWER}}/" .. id) }
end

local function not_found(id)
  P.fail("{{NAME}} " .. id .. " not found", "NotFound")
end

return P.define({
  type = "{{TYPE}}",
  properties = {
    -- The name cannot change in place: a new name is a new {{LOWER}}.
    P.string "Name" { required = true, update = "replace" },
    -- Resized in place, without interruption.
    P.integer "Size" { default = 1, update = "none" },
    -- Switching modes restarts the {{LOWER}}: some interruption.
    P.string "Mode" { allowed = { "standard", "fast" }, default = "standard", update = "some" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "{{NAME}}Id", "Arn" },
  primary_identifier = "{{NAME}}Id",

  create = function(ctx, props)
    if ctx.progress then
      -- Called again `after` seconds later: it has started by now.
      local id = ctx.progress.id
      local r = world.get(KIND, id)
      if not r then not_found(id) end
      r.State = "ready"
      world.put(KIND, id, r)
      return { id = id, attributes = attributes(ctx, id) }
    end
    local id = new_id()
    world.put(KIND, id, {
      Name = props.Name, Size = props.Size, Mode = props.Mode, Tags = props.Tags,
      State = "starting", Restarts = 0,
    })
    -- Starting takes a while: the engine calls create again in 5 seconds,
    -- with ctx.progress = the context below. Hooks never sleep.
    return P.in_progress({ after = 5, context = { id = id } })
  end,

  update = function(ctx, id, new, old, changed)
    local r = world.get(KIND, id)
    if not r then not_found(id) end
    for _, name in ipairs(changed) do
      if name == "Mode" then r.Restarts = r.Restarts + 1 end
    end
    r.Size, r.Mode, r.Tags = new.Size, new.Mode, new.Tags
    world.put(KIND, id, r)
    -- Nothing returned: the attributes did not change.
  end,

  delete = function(ctx, id, props)
    -- Deleting twice is fine: the second time there is nothing to remove.
    world.remove(KIND, id)
  end,

  read = function(ctx, id, props)
    local r = world.get(KIND, id)
    if not r then return nil end  -- gone
    return {
      properties = { Name = r.Name, Size = r.Size, Mode = r.Mode, Tags = r.Tags },
      attributes = attributes(ctx, id),
    }
  end,

  -- Every {{LOWER}} there is (the registry's list handler; live records only).
  list = function(ctx)
    return world.ids(KIND, true)
  end,
})
]==]

local FIXTURE = [==[
-- Contract-test fixture of {{FILE}}: `moonstack provider test` creates a
-- {{LOWER}} with these properties, applies each update (rolled back and
-- forward again, or replaced), deletes it, and checks every step.
local world = require("moonstack.world")

return {
  create = { Name = "first", Size = 1, Tags = { { Key = "team", Value = "blue" } } },
  updates = {
    { Size = 2 },           -- No interruption
    { Mode = "fast" },      -- Some interruption
    { Name = "second" },    -- Replacement
  },
  -- The world holds what the properties say (raise on a mismatch).
  verify = function(aws, id, props, attributes)
    local r = world.get("{{KIND}}", id)
    assert(r, "no {{LOWER}} " .. id .. " in the world")
    for _, name in ipairs({ "Name", "Size", "Mode" }) do
      assert(r[name] == props[name], name .. " is " .. tostring(r[name]) .. ", expected " .. tostring(props[name]))
    end
    assert(attributes["{{NAME}}Id"] == id, "{{NAME}}Id is not the physical id")
  end,
}
]==]

local function fill(text, vars)
  return (text:gsub("{{(%u+)}}", function(k) return vars[k] end))
end

---Where the files of `type_name` go and the names made from it:
---{ parts = {"Acme", "Thing", "Widget"}, lower = {"acme", "thing", "widget"},
---provider_path = "acme/thing/widget.lua", fixture_path =
---"acme/thing/tests/widget.lua", kind = "acme.thing.widget" }. Raises on an
---invalid type name. (moonstack.scaffold_schema uses it too.)
---@param type_name string
---@return table
function S.layout(type_name)
  local parts, why = S.type_parts(type_name)
  if not parts then error(why, 0) end
  local lower = {}
  for i, p in ipairs(parts) do lower[i] = p:lower() end
  local dir = lower[1] .. "/" .. lower[2]
  return {
    parts = parts, lower = lower, kind = table.concat(lower, "."),
    provider_path = dir .. "/" .. lower[3] .. ".lua",
    fixture_path = dir .. "/tests/" .. lower[3] .. ".lua",
  }
end

---`text` with each {{NAME}} replaced by vars.NAME.
S.fill = fill

---The scaffold of `type_name`: relative paths and the text of the provider
---and its fixture. Raises on an invalid type name.
---@param type_name string
---@return { provider_path: string, fixture_path: string, provider: string, fixture: string }
function S.files(type_name)
  local parts, why = S.type_parts(type_name)
  if not parts then error(why, 0) end
  local lower = {}
  for i, p in ipairs(parts) do lower[i] = p:lower() end
  local dir = lower[1] .. "/" .. lower[2]
  local file = dir .. "/" .. lower[3] .. ".lua"
  local vars = {
    TYPE = type_name, KIND = table.concat(lower, "."), FILE = file,
    NAME = parts[3], LOWER = lower[3], SERVICE = lower[2],
  }
  return {
    provider_path = file,
    fixture_path = dir .. "/tests/" .. lower[3] .. ".lua",
    provider = fill(PROVIDER, vars),
    fixture = fill(FIXTURE, vars),
  }
end

return S
