-- moonstack.schema: property types, the declaration DSL's building blocks,
-- and coercion of template values to a property's type.
--
-- Types are callable tables so that one name serves every use:
--   P.string "VpcId"                     a property named VpcId
--   P.string "VpcId" { required = true } ...with options
--   P.list(P.string) "SubnetIds"         a list whose elements are strings
--   P.string { required = true }         an unnamed property (map form only)
--   P.object { P.string "Name" { required = true } } "Config"
--                                        an object with typed sub-properties
--                                        (no others allowed), any depth;
--                                        P.list(P.object {...}) for a list of them

local values = require("moonstack.values")
local msg = require("moonstack.messages")
local tags = require("moonstack.tags")

local M = {}

M.TYPE_NAMES = { "string", "number", "integer", "boolean", "list", "map", "json", "tags" }
local KNOWN = {}
for _, t in ipairs(M.TYPE_NAMES) do KNOWN[t] = true end
M.EXPECTED_TYPES = "string, number, integer, boolean, list, map, json or tags"

---@class moonstack.Spec
---@field type "string"|"number"|"integer"|"boolean"|"list"|"map"|"json"|"tags"
---@field items moonstack.Spec? element type of a list, value type of a map (nil: any JSON value)
---@field fields moonstack.PropertyBuilder[]? object: its sub-properties as written (P.define normalizes them)
---@field properties moonstack.Property[]? object, after P.define: its normalized sub-properties
---@field by_name table<string, moonstack.Property>? object, after P.define: sub-properties by name

---@class moonstack.Type: moonstack.Spec
---@operator call(string): moonstack.PropertyBuilder
---@field spec moonstack.Spec

---@class moonstack.PropertyOptions
---@field required boolean?  the template must set it (default false)
---@field default any        value used when the template leaves it out (not with required)
---@field allowed any[]?     allowed values (string, number, integer and boolean properties)
---@field pattern string?    Lua pattern (not a regex) the whole string must match: wrapped in ^...$ unless it already starts with ^ or ends with $
---@field regex string?      a registry schema's "pattern": an ECMAScript regular expression (moonstack.regex's subset) some part of the string must match (anchor it with ^...$ to match the whole)
---@field minimum number?    number and integer properties: the smallest value allowed
---@field maximum number?    number and integer properties: the largest value allowed
---@field min_length integer? strings: fewest characters; lists: fewest items
---@field max_length integer? strings: most characters; lists: most items
---@field write_only boolean? a secret or input only (a password): read never returns it, drift never compares it (registry writeOnlyProperties)
---@field update moonstack.UpdateBehavior|fun(old: any, new: any, ctx: moonstack.Context, old_props: table, new_props: table): moonstack.UpdateBehavior  how a change is carried out (default "replace")
---@field description string?

---@class moonstack.PropertyBuilder
---@operator call(moonstack.PropertyOptions): moonstack.PropertyBuilder
---@field name string?
---@field spec moonstack.Spec
---@field opts moonstack.PropertyOptions
---@field problems string[]   misuse found while building, reported by P.define with the provider's file name

local TypeMT, PropMT = {}, {}

function M.is_type(x) return getmetatable(x) == TypeMT end
function M.is_prop(x) return getmetatable(x) == PropMT end

local function describe(v)
  if M.is_type(v) then return "a type" end
  if M.is_prop(v) then return "a property" end
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "table" then return "a table" end
  return tostring(v)
end
M.describe = describe

local function new_prop(name, spec, opts, problems)
  return setmetatable({ name = name, spec = spec, opts = opts or {}, problems = problems or {} }, PropMT)
end

---A human name for a spec: "string", "list of string", "map of integer".
---@param spec moonstack.Spec
---@return string
local function describe_spec(spec)
  if spec.items then return spec.type .. " of " .. describe_spec(spec.items) end
  return spec.type
end
M.describe_spec = describe_spec

local function copy_list(t) local o = {} for i = 1, #t do o[i] = t[i] end return o end

-- Calling a property with a table merges options; problems are recorded, not
-- raised, because only P.define knows which file to name.
PropMT.__call = function(self, opts)
  local merged, problems = {}, copy_list(self.problems)
  for k, v in pairs(self.opts) do merged[k] = v end
  if type(opts) ~= "table" or M.is_type(opts) or M.is_prop(opts) then
    problems[#problems + 1] = "options must be a table, got " .. describe(opts)
  else
    for k, v in pairs(opts) do merged[k] = v end
  end
  return new_prop(self.name, self.spec, merged, problems)
end

TypeMT.__call = function(self, arg)
  if type(arg) == "string" then return new_prop(arg, self.spec) end
  if M.is_type(arg) then
    local t = self.spec.type
    if (t ~= "list" and t ~= "map") or self.spec.items then
      return new_prop(nil, self.spec, {}, { describe_spec(self.spec) .. " does not take an element type" })
    end
    return setmetatable({ spec = { type = t, items = arg.spec } }, TypeMT)
  end
  if type(arg) == "table" and not M.is_prop(arg) then return new_prop(nil, self.spec, arg) end
  return new_prop(nil, self.spec, {}, {
    "expected a property name, an element type or an options table, got " .. describe(arg) })
end

TypeMT.__index = function(self, k) return rawget(self, "spec")[k] end


for _, t in ipairs(M.TYPE_NAMES) do
  M[t] = setmetatable({ spec = { type = t } }, TypeMT)
end

---An object type with declared sub-properties (a registry schema's nested
---object with additionalProperties false): P.object { P.string "Key" {
---required = true }, P.integer "Count" { minimum = 1 } }. Sub-properties
---take the options of a property except update and write_only (a change
---anywhere in the object is a change of the top-level property). P.define
---checks them.
---@param fields moonstack.PropertyBuilder[]
---@return moonstack.Type
function M.object(fields)
  if type(fields) ~= "table" or M.is_type(fields) or M.is_prop(fields) then
    return setmetatable({ spec = { type = "object", fields = {},
      problem = "P.object expects a list of properties, got " .. describe(fields) } }, TypeMT)
  end
  return setmetatable({ spec = { type = "object", fields = fields } }, TypeMT)
end

---Normalize a type given as a name ("string"), a type (P.list(P.string)) or
---a table ({ type = "list", items = "string" }).
---@return moonstack.Spec? spec
---@return string? problem
function M.normalize_spec(x)
  if M.is_type(x) then return x.spec end
  if type(x) == "string" then
    if not KNOWN[x] then
      return nil, string.format('unknown type "%s" (expected %s)', x, M.EXPECTED_TYPES)
    end
    return { type = x }
  end
  if type(x) == "table" and not M.is_prop(x) then
    local base, why = M.normalize_spec(x.type)
    if not base then
      if x.type == nil then return nil, "missing type" end
      return nil, why
    end
    for k in pairs(x) do
      if k ~= "type" and k ~= "items" then
        return nil, string.format('unknown field "%s" in type', tostring(k))
      end
    end
    if x.items == nil then return base end
    if base.type ~= "list" and base.type ~= "map" then
      return nil, base.type .. " does not take an element type"
    end
    local items, why2 = M.normalize_spec(x.items)
    if not items then return nil, why2 end
    return { type = base.type, items = items }
  end
  if x == nil then return nil, "missing type" end
  return nil, "expected a type, got " .. describe(x)
end

---Generic property constructor: P.prop("VpcId", "string", { required = true }).
---@param name string
---@param type_ string|moonstack.Type|moonstack.Spec
---@param opts moonstack.PropertyOptions?
---@return moonstack.PropertyBuilder
function M.prop(name, type_, opts)
  local spec, why = M.normalize_spec(type_)
  local problems = {}
  if not spec then problems[1] = why; spec = { type = "json" } end
  local p = new_prop(name, spec, {}, problems)
  if opts ~= nil then p = p(opts) end
  return p
end

-- Coercion -------------------------------------------------------------------

local LABEL = { string = "String", number = "Number", integer = "Integer", boolean = "Boolean",
                list = "List", map = "Map", json = "Json", tags = "Tags", object = "Object" }

-- The type as AWS's legacy messages name it: "String", "List of String".
local function label(spec)
  if spec.type == "list" and spec.items then return "List of " .. label(spec.items) end
  return LABEL[spec.type]
end
M.label = label

-- CloudFormation is lax about scalars: numbers and booleans go into string
-- properties, numeric strings into number properties, "true"/"false" into
-- boolean ones. Returns nil when the value cannot be converted.
local function scalar(v, t)
  local vt = type(v)
  if t == "string" then
    if vt == "string" then return v end
    if vt == "number" then return values.number_to_string(v) end
    if vt == "boolean" then return tostring(v) end
    return nil
  end
  if t == "number" or t == "integer" then
    if vt == "number" then
      if v ~= v or v == math.huge or v == -math.huge then return nil end
      return v
    end
    if vt == "string" then return values.parse_number(v) end
    return nil
  end
  if t == "boolean" then
    if vt == "boolean" then return v end
    if vt == "string" then
      local l = v:lower()
      if l == "true" then return true end
      if l == "false" then return false end
    end
    return nil
  end
end

-- Element coercion inside a list or map: plain success/failure, the caller
-- words the message for the whole property.
local coerce_inner

local function coerce_items(list, items, lid)
  local out = {}
  for i, x in ipairs(list) do
    local v = coerce_inner(x, items, lid)
    if v == nil then return nil end
    out[i] = v
  end
  return out
end

coerce_inner = function(v, spec, lid)
  if values.is_absent(v) then return nil end
  local t = spec.type
  if t == "json" then return values.deep_copy(v) end
  if t == "integer" then
    local n = scalar(v, "number")
    if n == nil or not values.is_integral(n) then return nil end
    return n
  end
  if t == "string" or t == "number" or t == "boolean" then return scalar(v, t) end
  if t == "list" then
    if not values.is_array(v) then return nil end
    if not spec.items then return values.deep_copy(v) end
    return coerce_items(v, spec.items, lid)
  end
  if t == "map" then
    if not values.is_object(v) then return nil end
    if not spec.items then return values.deep_copy(v) end
    local out = {}
    for k, x in pairs(v) do
      local c = coerce_inner(x, spec.items, lid)
      if c == nil then return nil end
      out[k] = c
    end
    return out
  end
  if t == "tags" then return (tags.check(v, { logical_id = lid })) end
  -- An object's sub-properties are checked by moonstack.constraints, which
  -- can name the one at fault.
  if t == "object" then return values.is_object(v) and values.deep_copy(v) or nil end
  return nil
end
---A value inside a list, map or object coerced to `spec`, or nil when it
---cannot be (the caller words the message).
M.coerce_value = function(v, spec, lid) return coerce_inner(v, spec, lid) end

-- Keep the source table's metatable (host array/object markers) on a
-- coerced copy.
local function keep_mt(src, out)
  local mt = getmetatable(src)
  if type(out) == "table" and type(mt) == "table" and getmetatable(out) == nil then
    pcall(setmetatable, out, mt)
  end
  return out
end

---Coerce a template value to the property's type, as CloudFormation does.
---Returns the converted copy, or nil and AWS's message.
---@param v any            the (present) value
---@param spec moonstack.Spec
---@param name string      property name, for messages
---@param logical_id string? for registry-style messages
---@return any value
---@return string? message
function M.coerce(v, spec, name, logical_id)
  local t = spec.type
  if t == "string" or t == "boolean" then
    local c = scalar(v, t)
    if c == nil then return nil, msg.must_be_type(name, label(spec)) end
    return c
  end
  if t == "number" or t == "integer" then
    local n = scalar(v, "number")
    if n == nil then return nil, msg.non_numeric(name) end
    if t == "integer" and not values.is_integral(n) then
      return nil, msg.must_be_type(name, "Integer")
    end
    return n
  end
  if t == "json" then return values.deep_copy(v) end
  if t == "list" then
    if not values.is_array(v) then return nil, msg.must_be_type(name, "List") end
    if not spec.items then return values.deep_copy(v) end
    local out = coerce_items(v, spec.items, logical_id)
    if out == nil then return nil, msg.must_be_type(name, label(spec)) end
    return keep_mt(v, out)
  end
  if t == "map" then
    if not values.is_object(v) then return nil, msg.must_be_object(name) end
    if not spec.items then return values.deep_copy(v) end
    local out = coerce_inner(v, spec, logical_id)
    if out == nil then return nil, msg.must_be_object_of(name, label(spec.items)) end
    return keep_mt(v, out)
  end
  if t == "object" then
    if not values.is_object(v) then return nil, msg.must_be_object(name) end
    return keep_mt(v, values.deep_copy(v))
  end
  if t == "tags" then
    local out, why = tags.check(v, { property = name, logical_id = logical_id })
    if not out then return nil, why end
    return keep_mt(v, out)
  end
  return nil, "unknown type " .. tostring(t)
end

return M
