-- moonstack.scaffold_schema: the files `moonstack provider new TYPE
-- --from-schema schema.json` writes — a provider declaring every property of
-- a CloudFormation registry schema with its type and constraints, working
-- create/read/update/delete/list hooks over a world record, and its
-- contract-test fixture: valid create and update inputs made from the
-- schema, and invalid inputs (each constraint broken once) that validation
-- must refuse with the exact message.
--
--   local files = require("moonstack.scaffold_schema").files(schema)
--   files.provider_path, files.fixture_path, files.provider, files.fixture
--
-- `schema` is the decoded JSON (the host parses the file). The mapping of
-- schema keywords to the DSL is moonstack.registry_schema's.

local values = require("moonstack.values")
local msg = require("moonstack.messages")
local constraints = require("moonstack.constraints")
local registry = require("moonstack.registry_schema")
local scaffold = require("moonstack.scaffold")
local contract = require("moonstack.contract")

local S = {}

-- Lua source -------------------------------------------------------------------

local IDENT = "^[%a_][%w_]*$"
local KEYWORDS = {}
for w in ("and break do else elseif end false for function if in local nil not or repeat return then true until while")
    :gmatch("%a+") do KEYWORDS[w] = true end

-- Marks a key an invalid input leaves out (the fixture's REMOVE).
local REMOVE = setmetatable({}, { __tostring = function() return "REMOVE" end })

-- A Lua literal for a plain value (sorted keys: the output is stable).
local function lit(v, indent)
  indent = indent or ""
  if v == REMOVE then return "REMOVE" end
  local t = type(v)
  if t == "string" then return string.format("%q", v):gsub("\\\n", "\\n") end
  if t == "number" then return values.number_to_string(v) end
  if t ~= "table" then return tostring(v) end
  local inner = indent .. "  "
  local parts = {}
  if values.is_array(v) and #v > 0 then
    for i = 1, #v do parts[i] = lit(v[i], inner) end
    local one = "{ " .. table.concat(parts, ", ") .. " }"
    if #one <= 80 then return one end
    return "{\n" .. inner .. table.concat(parts, ",\n" .. inner) .. ",\n" .. indent .. "}"
  end
  for _, k in ipairs(values.sorted_keys(v)) do
    local key = (type(k) == "string" and k:match(IDENT) and not KEYWORDS[k]) and k or ("[" .. lit(k) .. "]")
    parts[#parts + 1] = key .. " = " .. lit(v[k], inner)
  end
  if #parts == 0 then return "{}" end
  local one = "{ " .. table.concat(parts, ", ") .. " }"
  if #one <= 80 and not one:find("\n") then return one end
  return "{\n" .. inner .. table.concat(parts, ",\n" .. inner) .. ",\n" .. indent .. "}"
end

local OPTION_ORDER = { "required", "update", "write_only", "default", "allowed", "minimum", "maximum",
                       "min_length", "max_length", "regex", "description" }

local function type_code(spec, indent)
  if spec.type == "list" and spec.items then return "P.list(" .. type_code(spec.items, indent) .. ")" end
  if spec.type == "map" and spec.items then return "P.map(" .. type_code(spec.items, indent) .. ")" end
  if spec.type == "object" then
    local inner = indent .. "  "
    local lines = { "P.object {" }
    for _, f in ipairs(spec.fields) do lines[#lines + 1] = S.property_code(f, inner) end
    lines[#lines + 1] = indent .. "}"
    return table.concat(lines, "\n")
  end
  return "P." .. spec.type
end

---One property's declaration, e.g. `P.integer "Size" { minimum = 1, update = "none" },`.
function S.property_code(p, indent)
  local opts = {}
  for _, k in ipairs(OPTION_ORDER) do
    if p.opts[k] ~= nil then opts[#opts + 1] = k .. " = " .. lit(p.opts[k], indent .. "  ") end
  end
  local head = indent .. type_code(p.spec, indent) .. " " .. lit(p.name)
  local pre = ""
  if p.opts.unchecked_pattern then
    pre = indent .. "-- pattern " .. p.opts.unchecked_pattern .. " is not checked: moonstack.regex cannot read it\n"
  end
  if #opts == 0 then return pre .. head .. "," end
  local one = head .. " { " .. table.concat(opts, ", ") .. " },"
  if #one <= 100 then return pre .. one end
  return pre .. head .. " {\n" .. indent .. "  " .. table.concat(opts, ",\n" .. indent .. "  ") .. ",\n" .. indent .. "},"
end

-- Sample values ----------------------------------------------------------------

local WORDS = { "example", "other", "sample1", "Example2", "a1", "x", "value-3", "1", "abc_def", "ABC" }

local function fits_string(o, s)
  local n = values.utf8_len(s)
  if o.min_length and n < o.min_length then return false end
  if o.max_length and n > o.max_length then return false end
  if o.regex and not constraints.regex_matches(o.regex, s) then return false end
  return true
end

-- The `variant`th valid string (1, 2: two different values), or nil.
local function sample_string(o, variant)
  if o.allowed then return o.allowed[math.min(variant, #o.allowed)] end
  local found = 0
  for _, w in ipairs(WORDS) do
    local s = w
    if o.min_length and #s < o.min_length then s = s .. ("a"):rep(o.min_length - #s) end
    if o.max_length and #s > o.max_length then s = s:sub(1, o.max_length) end
    if fits_string(o, s) then
      found = found + 1
      if found == variant then return s end
    end
  end
  return nil
end

local function sample_number(o, variant)
  if o.allowed then return o.allowed[math.min(variant, #o.allowed)] end
  local v = o.minimum or 1
  if o.maximum and v > o.maximum then v = o.maximum end
  if variant == 2 then
    if o.maximum == nil or v + 1 <= o.maximum then v = v + 1 elseif o.minimum == nil or v - 1 >= o.minimum then v = v - 1 end
  end
  return v
end

local sample

local function sample_object(fields, variant, all)
  local out = {}
  for _, f in ipairs(fields) do
    if f.opts.required or (all and f.spec.type ~= "json" and f.spec.type ~= "map") then
      local v = sample(f.spec, f.opts, variant, all)
      if v == nil and f.opts.required then return nil end
      out[f.name] = v
    end
  end
  return out
end

-- A valid value of a property, or nil when none can be made.
sample = function(spec, o, variant, all)
  local t = spec.type
  if t == "string" then return sample_string(o, variant) end
  if t == "integer" or t == "number" then return sample_number(o, variant) end
  if t == "boolean" then return variant == 1 end
  if t == "tags" then return { { Key = "team", Value = variant == 1 and "blue" or "green" } } end
  if t == "list" then
    local n = math.max(o.min_length or 1, 1)
    local item = spec.items and sample(spec.items, {}, variant, all) or ("item" .. variant)
    if item == nil then return nil end
    local out = {}
    for i = 1, n do out[i] = values.deep_copy(item) end
    return out
  end
  if t == "object" then return sample_object(spec.fields, variant, all) end
  if t == "map" then return { key = variant == 1 and "value" or "other" } end
  return "value" .. variant  -- json: a string is a JSON value
end

-- The fixture ------------------------------------------------------------------

local function full(inner) return msg.schema(contract.LOGICAL_ID, inner) end

-- Each constraint broken once, over the valid create properties.
local function invalid_cases(model, create)
  local cases = {}
  local function add(change, message) cases[#cases + 1] = { change = change, message = message } end
  local function with(name, v) return { [name] = v == nil and REMOVE or v } end
  add(with("UndeclaredProperty", "x"), msg.unsupported_property("UndeclaredProperty"))
  for _, p in ipairs(model.properties) do
    local o, path = p.opts, "#/" .. p.name
    if o.required then
      add(with(p.name, nil), full(msg.required_key("#", p.name)))
    end
    if p.spec.type == "string" and not o.allowed then
      if o.max_length then add(with(p.name, ("a"):rep(o.max_length + 1)),
        full(msg.max_length(path, o.max_length, o.max_length + 1))) end
      if o.min_length and o.min_length > 0 then add(with(p.name, ("a"):rep(o.min_length - 1)),
        full(msg.min_length(path, o.min_length, o.min_length - 1))) end
      if o.regex then
        for _, bad in ipairs({ "!", " ", "#$%", "" }) do
          local n = values.utf8_len(bad)
          if (not o.min_length or n >= o.min_length) and (not o.max_length or n <= o.max_length)
              and not constraints.regex_matches(o.regex, bad) then
            add(with(p.name, bad), full(msg.pattern(path)))
            break
          end
        end
      end
    elseif p.spec.type == "string" and o.allowed then
      add(with(p.name, "not-an-allowed-value"), full(msg.enum(path)))
    elseif (p.spec.type == "integer" or p.spec.type == "number") and not o.allowed then
      local num = values.number_to_string
      if o.maximum then add(with(p.name, o.maximum + 1), full(msg.maximum(path, num(o.maximum + 1), num(o.maximum)))) end
      if o.minimum then add(with(p.name, o.minimum - 1), full(msg.minimum(path, num(o.minimum - 1), num(o.minimum)))) end
    elseif p.spec.type == "object" then
      local v = values.deep_copy(create[p.name] or sample_object(p.spec.fields, 1, false) or {})
      v.UndeclaredKey = "x"
      add(with(p.name, v), full(msg.extraneous_key(path, "UndeclaredKey")))
    end
  end
  return cases
end

-- The updates: an in-place change, the tags, and a replacement, where the
-- schema has such properties.
local function updates_of(model, create)
  local updates, in_place, replacing, tags = {}, nil, nil, nil
  for _, p in ipairs(model.properties) do
    if create[p.name] ~= nil and p.spec.type ~= "json" then
      local v2 = sample(p.spec, p.opts, 2, true)
      if v2 ~= nil and not values.deep_equal(v2, create[p.name]) then
        if p.spec.type == "tags" then tags = tags or { [p.name] = v2 }
        elseif p.opts.update == "replace" then replacing = replacing or { [p.name] = v2 }
        -- read never shows a write-only property: another one shows the update better.
        elseif not p.opts.write_only or in_place == nil then
          if in_place == nil or in_place.write_only then in_place = { [p.name] = v2, write_only = p.opts.write_only } end
        end
      end
    end
  end
  if in_place then in_place.write_only = nil end
  for _, u in ipairs({ in_place, tags, replacing }) do
    if u then updates[#updates + 1] = u end
  end
  return updates
end

-- The provider ------------------------------------------------------------------

local PROVIDER = [==[
-- {{TYPE}}: a resource provider generated by
--   moonstack provider new {{TYPE}} --from-schema ...
-- from its CloudFormation registry schema: every property declared with its
-- type and constraints, read-only properties as attributes. Each resource is
-- a record of kind "{{KIND}}" in the world (module moonstack.world), so the
-- contract kit can check what every hook did. Test it with
--   moonstack provider test {{FILE}}
-- then make the hooks do what the real type does (lua-sdk/README.md).

local P = require("moonstack.provider")
local ids = require("moonstack.ids")
local world = require("moonstack.world")
local sim = require("sim")

local KIND = "{{KIND}}"
-- The primary identifier: the physical ID is these values joined with "|".
local IDENTIFIER = {{IDENTIFIER}}
-- Properties a template sets, stored as given and read back.
local PROPERTIES = {{PROPERTIES}}

local function not_found(id)
  P.fail("{{TYPE}} " .. id .. " not found", "NotFound")
end

-- A new resource's read-only attributes, made up from a fresh unique name.
local function new_attributes(ctx)
  local uuid = world.atomic(function() return sim.new_id("uuid") end)
  local name = "{{LOWER}}-" .. uuid:gsub("%-", ""):sub(1, 17)
  return {
{{ATTRIBUTES}}
  }, name
end

local function physical_id(record, attributes)
  local parts = {}
  for i, key in ipairs(IDENTIFIER) do
    local v = attributes[key]
    if v == nil then v = record[key] end
    parts[i] = tostring(v)
  end
  return table.concat(parts, "|")
end

return P.define({
  type = "{{TYPE}}",
  description = {{DESCRIPTION}},
  properties = {
{{DECLARATIONS}}
  },
  attributes = {{ATTRNAMES}},
  primary_identifier = {{PRIMARY}},

{{PERMCREATE}}  create = function(ctx, props)
    local attributes, name = new_attributes(ctx)
    local record = {}
    for _, key in ipairs(PROPERTIES) do record[key] = props[key] end
    -- An identifier the template may leave out gets the generated name.
    for _, key in ipairs(IDENTIFIER) do
      if record[key] == nil and attributes[key] == nil then record[key] = name end
    end
    local id = physical_id(record, attributes)
    if world.get(KIND, id) then P.fail("{{TYPE}} " .. id .. " already exists", "AlreadyExists") end
    world.put(KIND, id, { properties = record, attributes = attributes })
    return { id = id, attributes = attributes }
  end,

{{PERMREAD}}  read = function(ctx, id, props)
    local r = world.get(KIND, id)
    if not r then return nil end  -- gone
    return { properties = r.properties, attributes = r.attributes }
  end,

{{PERMUPDATE}}  update = function(ctx, id, new, old, changed)
    local r = world.get(KIND, id)
    if not r then not_found(id) end
    for _, key in ipairs(changed) do r.properties[key] = new[key] end
    world.put(KIND, id, r)
  end,

{{PERMDELETE}}  delete = function(ctx, id, props)
    if not world.get(KIND, id) then not_found(id) end
    world.remove(KIND, id)
  end,

{{PERMLIST}}  list = function(ctx)
    return world.ids(KIND, true)
  end,
})
]==]

local FIXTURE = [==[
-- Contract-test fixture of {{FILE}}, generated from the registry schema of
-- {{TYPE}}: `moonstack provider test` creates a resource with these
-- properties, applies each update, deletes it, and checks that each invalid
-- input is refused with its message.

local CREATE = {{CREATE}}

-- CREATE with `change` applied; a key set to REMOVE is left out.
local REMOVE = {}
local function with(change)
  local out = {}
  for k, v in pairs(CREATE) do out[k] = v end
  for k, v in pairs(change) do
    if v == REMOVE then out[k] = nil else out[k] = v end
  end
  return out
end

return {
  create = CREATE,
  updates = {{UPDATES}},
  invalid = {
{{INVALID}}
  },
}
]==]

-- A made-up value for a read-only attribute, by its name and schema type.
local function attribute_code(a, service, lower)
  local t = a.schema and a.schema.type
  local v
  if t == "integer" or t == "number" then v = "0"
  elseif t == "boolean" then v = "false"
  elseif a.name:match("Arn$") then
    v = 'ids.arn("' .. service .. '", ctx.region, ctx.account, "' .. lower .. '/" .. name)'
  elseif a.name:match("Url$") then
    v = '"https://' .. service .. '." .. ctx.region .. ".amazonaws.com/" .. ctx.account .. "/" .. name'
  else v = "name" end
  return "    [" .. lit(a.name) .. "] = " .. v .. ","
end

local function permissions_comment(model, hook)
  local perms = model.handlers[hook]
  if perms == nil then return "  -- The schema declares no " .. hook .. " handler.\n" end
  if #perms == 0 then return "" end
  return "  -- Registry handler permissions: " .. table.concat(perms, ", ") .. "\n"
end

local function invalid_code(cases)
  local lines = {}
  for _, c in ipairs(cases) do
    lines[#lines + 1] = "    { properties = with(" .. lit(c.change, "      ") .. "),\n      message = " .. lit(c.message) .. " },"
  end
  return table.concat(lines, "\n")
end

---The provider and fixture for a registry schema. Raises on a schema it
---cannot use (no typeName, no primaryIdentifier, an invalid type name).
---@param schema table the decoded JSON
---@return { type: string, provider_path: string, fixture_path: string, provider: string, fixture: string }
function S.files(schema)
  local model = registry.read(schema)
  local layout = scaffold.layout(model.type)
  local lower, file = layout.lower, layout.provider_path

  local decls, names = {}, {}
  for _, p in ipairs(model.properties) do
    decls[#decls + 1] = S.property_code(p, "    ")
    names[#names + 1] = p.name
  end
  local attr_lines, attr_names = {}, {}
  for _, a in ipairs(model.attributes) do
    attr_lines[#attr_lines + 1] = attribute_code(a, lower[2], lower[3])
    attr_names[#attr_names + 1] = a.name
  end
  local pid = model.primary_identifier
  local vars = {
    TYPE = model.type, KIND = layout.kind, FILE = file, LOWER = lower[3],
    IDENTIFIER = lit(pid), PROPERTIES = lit(names, ""),
    DESCRIPTION = lit(model.description or ("Resource Type definition for " .. model.type)),
    DECLARATIONS = table.concat(decls, "\n"), ATTRIBUTES = table.concat(attr_lines, "\n"),
    ATTRNAMES = lit(attr_names, "  "), PRIMARY = #pid == 1 and lit(pid[1]) or lit(pid),
    PERMCREATE = permissions_comment(model, "create"), PERMREAD = permissions_comment(model, "read"),
    PERMUPDATE = permissions_comment(model, "update"), PERMDELETE = permissions_comment(model, "delete"),
    PERMLIST = permissions_comment(model, "list"),
  }

  local create = {}
  for _, p in ipairs(model.properties) do
    if p.opts.required or (p.spec.type ~= "json" and p.spec.type ~= "map") then
      create[p.name] = sample(p.spec, p.opts, 1, true)
    end
  end
  local fixture_vars = {
    FILE = file, TYPE = model.type, CREATE = lit(create, ""),
    UPDATES = lit(updates_of(model, create), "  "), INVALID = invalid_code(invalid_cases(model, create)),
  }
  return {
    type = model.type,
    provider_path = file,
    fixture_path = layout.fixture_path,
    provider = scaffold.fill(PROVIDER, vars),
    fixture = scaffold.fill(FIXTURE, fixture_vars),
  }
end

return S
