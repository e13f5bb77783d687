-- lib.generic: a provider made from a resource type's registry schema, for
-- the AWS types that have no Lua provider of their own (AWS::EC2::RouteTable,
-- AWS::S3::Bucket, ...), so real templates deploy against the simulated
-- cloud. The host builds one per type from the engine's resource catalog
-- (engine/catalog): every top-level property, required as the schema says,
-- "replace" when the schema lists it create-only (or a path below it that
-- changed), "none" otherwise, and the type's GetAtt names; `info.schema` is
-- the type's registry schema (aws_resource_schemas.jsonl).
--
-- What such a resource does:
--   * its properties are checked against the schema at create and update
--     (lib.schema_validate: AWS's "Properties validation failed for
--     resource X with message: [...]"); nothing is written when they fail;
--   * a record in the world (kind "generic.<Type>") holds its properties,
--     its attributes and, for a taggable type, the tags CloudFormation puts
--     on it (moonstack.tags.for_resource: the stack's tags, its own and the
--     aws:cloudformation:* ones);
--   * its name, Ref, ARN and the attributes AWS makes up (URLs, IDs, DNS
--     names) come from lib.resource_identity (data: lib.resource_formats);
--     other attributes get a value of the shape the schema gives them
--     (numbers, lists, objects, a timestamp's the world's time, an enum's
--     value: a status's steady state);
--   * read leaves out write-only properties, as AWS's read handlers do.

local P = require("moonstack.provider")
local tags = require("moonstack.tags")
local values = require("moonstack.values")
local world = require("moonstack.world")
local sim_world = require("sim.world")
local identity = require("lib.resource_identity")
local validate = require("lib.schema_validate")
local util = require("sim.cloudformation_util")

local G = {}

-- The records of a type, per account as the simulated services' are
-- (sim/world.lua): the default account's kind is "generic.<type>".
local function kind(type_name, ctx) return sim_world.kind_in(ctx and ctx.account, "generic." .. type_name) end

-- "/properties/A/B" -> { "A", "B" }; nil for a pointer outside properties.
local function pointer_parts(pointer)
  local rest = pointer:match("^/properties/(.+)$")
  if not rest then return nil end
  local parts = {}
  for part in rest:gmatch("[^/]+") do parts[#parts + 1] = part end
  return parts
end

-- The value at `parts` (from index `from`) below `v`; a "*" part stops the
-- walk and gives the value above it (a list compared as a whole).
local function value_at(v, parts, from)
  for i = from, #parts do
    if parts[i] == "*" then return v end
    if type(v) ~= "table" then return nil end
    v = v[parts[i]]
  end
  return v
end

-- Top-level property -> its nested create-only paths ({ {"A","B"}, ... }).
local function nested_create_only(schema)
  local out = {}
  for _, pointer in ipairs(schema and schema.createOnly or {}) do
    local parts = pointer_parts(pointer)
    if parts and #parts > 1 then
      out[parts[1]] = out[parts[1]] or {}
      table.insert(out[parts[1]], parts)
    end
  end
  return out
end

-- The update behaviour of a property with create-only paths below it:
-- "replace" when one of them changed, else "none".
local function nested_update(paths)
  return function(old, new)
    for _, parts in ipairs(paths) do
      if not values.deep_equal(value_at(old, parts, 2), value_at(new, parts, 2)) then return "replace" end
    end
    return "none"
  end
end

-- The values a status or state attribute takes once a resource is made,
-- in order of preference, compared without case: the first of these its
-- schema's enum lists is the one it gets.
local STEADY_STATES = { "ACTIVE", "AVAILABLE", "ENABLED", "DEPLOYED", "READY", "CREATED", "CREATE_COMPLETE",
  "CREATION_SUCCESSFUL", "SUCCEEDED", "SUCCESS", "COMPLETED", "COMPLETE", "OPERATIONAL", "RUNNING", "IN_SERVICE",
  "INSERVICE", "HEALTHY", "LIVE" }

local function steady_state(enum)
  local upper = {}
  for _, v in ipairs(enum) do if type(v) == "string" then upper[v:upper()] = v end end
  for _, want in ipairs(STEADY_STATES) do
    if upper[want] then return upper[want] end
  end
  return nil
end

-- A timestamp attribute (CreatedAt, CreationTime, LastModifiedTime, ...):
-- its name says so, and its value is the world's time.
local function is_timestamp(name)
  local last = name:match("([^.]+)$")
  return last:match("Time$") ~= nil or last:match("At$") ~= nil or last:match("Date$") ~= nil
      or last:match("Timestamp$") ~= nil
end

-- A value of the shape the schema gives attribute `name` (dotted for a
-- nested one) when nothing derives it: 0 for numbers, false for booleans,
-- empty lists and objects; for strings, a timestamp's the world's time
-- (ISO 8601), an enum's steady state for a status or state (else its first
-- value), and "<id>.<Name>" otherwise.
local function shaped_value(schema, name, id, ctx)
  local sub = schema and schema.properties
  local prop
  for part in name:gmatch("[^.]+") do
    prop = sub and sub[part]
    if prop and prop["$ref"] and schema.definitions then
      prop = schema.definitions[prop["$ref"]:match("([^/]+)$")] or prop
    end
    sub = prop and prop.properties
  end
  local t = prop and prop.type
  if type(t) == "table" then t = t[1] end
  if t == "integer" or t == "number" then return 0 end
  if t == "boolean" then return false end
  if t == "array" then return setmetatable({}, { __jsontype = "array" }) end  -- [] , not {}
  if t == "object" then return {} end
  local enum = prop and prop.enum
  if type(enum) == "table" and enum[1] ~= nil then
    local last = name:match("([^.]+)$")
    if last:match("Status$") or last:match("State$") then return steady_state(enum) or enum[1] end
    return enum[1]
  end
  if is_timestamp(name) then return util.iso8601(ctx.now_ms or world.now_ms()) end
  return id .. "." .. name
end

-- The attribute values of a new resource: what AWS makes up for it
-- (lib.resource_identity's maker `m`), its name, its ARN, the properties of
-- the same name, else a value of the schema's shape.
local function attribute_values(decl, schema, m, props)
  local out = {}
  local last_type = decl.type:match("(%w+)$")
  local name_property = identity.name_property(decl.type, schema)
  for _, attr in ipairs(decl.attributes) do
    local made = m:attribute(attr)
    if made ~= nil then
      out[attr] = made
    elseif attr == name_property then
      out[attr] = m.name
    elseif attr == "Arn" or attr == last_type .. "Arn" then
      out[attr] = m:arn()
    elseif props[attr] ~= nil then
      out[attr] = props[attr]
    elseif attr:sub(-3) == "Arn" then
      out[attr] = m:arn()
    elseif attr:sub(-2) == "Id" and not attr:find("%.") then
      out[attr] = m.name
    else
      out[attr] = shaped_value(schema, attr, m.name, m.ctx)
    end
  end
  return out
end

-- The physical ID (Ref): the Ref property's value — an attribute, an
-- identifier AWS makes up that GetAtt does not list (an ACM certificate's
-- ARN), the name, or the property as given — else the name.
local function physical_id(decl, schema, m, attrs, props)
  local ref = identity.ref_property(decl.type, schema)
  if ref then
    local v = attrs[ref]
    if v == nil then v = m:attribute(ref) end
    if v == nil and ref == identity.name_property(decl.type, schema) then v = m.name end
    if v == nil then v = props[ref] end
    if type(v) == "string" and v ~= "" then return v end
  end
  return m.name
end

local function fail_validation(ctx, schema, props)
  if not schema then return end
  local errs = validate.errors(schema, props)
  if #errs > 0 then P.fail(validate.message(ctx.logical_id or "Resource", errs), "InvalidRequest") end
end

-- Properties as read returns them: write-only ones left out.
local function readable(schema, props)
  if not schema or not schema.writeOnly then return props end
  local out = values.deep_copy(props)
  for _, pointer in ipairs(schema.writeOnly) do
    local parts = pointer_parts(pointer)
    if parts then
      local parent = out
      for i = 1, #parts - 1 do
        parent = type(parent) == "table" and parts[i] ~= "*" and parent[parts[i]] or nil
      end
      if type(parent) == "table" then parent[parts[#parts]] = nil end
    end
  end
  return out
end

---The declaration for one catalog type.
---@param info { type: string, properties: { name: string, required: boolean, create_only: boolean }[], attributes: string[], any_attributes: boolean?, schema: table? }
---@return moonstack.Declaration
function G.define(info)
  local schema = info.schema
  local nested = nested_create_only(schema)
  local taggable = schema and schema.taggable == true
  local props = {}
  for i, p in ipairs(info.properties) do
    local update = p.create_only and "replace" or (nested[p.name] and nested_update(nested[p.name])) or "none"
    props[i] = P.json(p.name) { required = p.required == true, update = update }
  end
  local decl
  decl = P.define({
    type = info.type,
    description = "generic provider from the registry schema of " .. info.type,
    properties = props,
    attributes = info.attributes,
    any_attributes = info.any_attributes == true,

    create = function(ctx, given)
      fail_validation(ctx, schema, given)
      return world.atomic(function()
        local m = identity.maker(info.type, ctx, identity.name(info.type, schema, ctx, given), given)
        local attrs = attribute_values(decl, schema, m, given)
        local id = physical_id(decl, schema, m, attrs, given)
        local record = { Properties = given, Attributes = attrs }
        if taggable then record.Tags = tags.for_resource(ctx, given.Tags) end
        world.put(kind(info.type, ctx), id, record)
        return { id = id, attributes = attrs }
      end)
    end,

    update = function(ctx, id, new)
      fail_validation(ctx, schema, new)
      return world.atomic(function()
        local r = world.get(kind(info.type, ctx), id)
        if r == nil then P.fail("Resource " .. id .. " of type " .. info.type .. " does not exist", "NotFound") end
        r.Properties = new
        if taggable then r.Tags = tags.for_resource(ctx, new.Tags) end
        world.put(kind(info.type, ctx), id, r)
      end)
    end,

    delete = function(ctx, id)
      world.remove(kind(info.type, ctx), id)  -- gone already: nothing to do
    end,

    read = function(ctx, id)
      local r = world.get(kind(info.type, ctx), id)
      if r == nil then return nil end
      return { properties = readable(schema, r.Properties), attributes = r.Attributes }
    end,
  }, "generic provider for " .. info.type)
  return decl
end

return G
