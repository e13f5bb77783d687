-- lib.schema_validate: a resource's properties checked against its registry
-- schema (the JSON lines of engine/catalog/aws_resource_schemas.jsonl, whose
-- kept keywords tools/gen_resource_catalog.py lists), with the messages
-- CloudFormation's registry validator (everit json-schema) gives.
--
-- Messages, each "<JSON pointer>: <what>", the pointer "#" for the top
-- level and "#/A/0/B" below it (array indexes count from 0):
--   required key [X] not found             verified (moonstack.messages)
--   extraneous key [X] is not permitted    verified (moonstack.messages)
--   expected type: String, found: JSONObject   verified: a CREATE_FAILED
--       event of 2024-09-06 ("#/Content: expected type: String, found:
--       JSONObject"), and "#/Tags: expected type: JSONArray, found: JSONObject"
--   expected type is one of JSONObject, String, found: Integer
--       everit's wording for a list of types (extrapolated)
--   expected maxLength: 32, actual: 33     verified ("#/SamplingRule/RuleName:
--       expected maxLength: 32, actual: 33"); minLength extrapolated
--   failed validation constraint for keyword [pattern]   verified (AWS
--       Knowledge Center, events quoted in public repositories); [enum] too
--       ("#/Mappings/.../DataType: failed validation constraint for keyword
--       [enum]")
--   11 is not less or equal to 10 / 19 is not greater or equal to 20
--       everit's maximum / minimum wording (extrapolated to CloudFormation)
--   expected maximum item count: 2, found: 3 / expected minimum item
--       count: 1, found: 0    everit's wording (extrapolated)
-- Several errors are reported together, in the event as
--   Properties validation failed for resource X with message: [#/A: ..., #/B: ...]
-- (verified with one and with several errors: "[#/Name: expected maxLength:
-- 64, actual: 68]", "[#: extraneous key [SkipFinalSnapshot] is not permitted]").
--
-- Scalars are converted as CloudFormation converts them before validating:
-- a number or boolean where a string is expected is fine, and so is a
-- string holding a number or a boolean where one of those is expected.
-- A pattern this module's regex engine cannot read (sim.ssm_regex: no
-- lookaround, \Z, \p{...}) is not checked: better to accept what AWS might
-- reject than to reject what AWS accepts.

local values = require("moonstack.values")
local regex = require("sim.ssm_regex")

local M = {}

-- The schema type names as the validator prints them (everit's).
local TYPE_LABEL = {
  string = "String", integer = "Integer", number = "Number", boolean = "Boolean",
  array = "JSONArray", object = "JSONObject", null = "Null",
}

-- "array" or "object" for a table (the host marks empty ones), else nil.
local function table_kind(v)
  if type(v) ~= "table" or values.is_null(v) then return nil end
  local mt = getmetatable(v)
  local marked = type(mt) == "table" and rawget(mt, "__jsontype")
  if marked == "array" or marked == "object" then return marked end
  if next(v) == nil then return nil end  -- unmarked {}: either
  return values.is_array(v) and "array" or "object"
end

-- What a value is, in the validator's words.
local function found_label(v)
  local t = type(v)
  if t == "string" then return "String" end
  if t == "boolean" then return "Boolean" end
  if t == "number" then return (v == math.floor(v)) and "Integer" or "BigDecimal" end
  local k = table_kind(v)
  if k == "array" then return "JSONArray" end
  if k == "object" or type(v) == "table" and not values.is_null(v) then return "JSONObject" end
  return "Null"
end

local function is_scalar(v) local t = type(v); return t == "string" or t == "number" or t == "boolean" end

local function numeric(v)
  if type(v) == "number" then return v end
  if type(v) == "string" then return tonumber(v) end
  return nil
end

-- Does `v` have schema type `t` (after CloudFormation's scalar conversion)?
local function has_type(v, t)
  if t == "string" then return is_scalar(v) end
  if t == "number" then return numeric(v) ~= nil end
  if t == "integer" then local n = numeric(v); return n ~= nil and n == math.floor(n) end
  if t == "boolean" then
    if type(v) == "boolean" then return true end
    return type(v) == "string" and (v:lower() == "true" or v:lower() == "false")
  end
  if t == "array" or t == "object" then
    local k = table_kind(v)
    return k == t or (k == nil and type(v) == "table" and not values.is_null(v))
  end
  return true  -- "null" and anything unknown: not checked
end

local function number_text(n)
  if n == math.floor(n) and math.abs(n) < 2 ^ 53 then return string.format("%d", n) end
  return tostring(n)
end

-- Compiled patterns, by source text; false when the engine cannot read one.
local compiled = {}
local function pattern_ok(pattern, s)
  local c = compiled[pattern]
  if c == nil then
    c = regex.compile(pattern) or false
    compiled[pattern] = c
  end
  if c == false then return true end
  return regex.search(c, s)
end

local function child(path, key) return path .. "/" .. tostring(key) end

local check  -- forward

-- The schema a "$ref" chain ends at ({} when the data lacks it).
local function follow_refs(root, schema)
  local seen = 0
  while schema["$ref"] do
    local name = tostring(schema["$ref"]):match("^#/definitions/(.+)$")
    local defs = root.definitions
    schema = name and defs and defs[name]
    if schema == nil then return {} end  -- a reference the data lacks: nothing to check
    seen = seen + 1
    if seen > 32 then return {} end
  end
  return schema
end

-- What a "$ref" schema resolves to, kept per schema table: a subschema
-- belongs to one type's schema (`root`), and every value a provider
-- validates resolves the same few definitions. Weak both ways: a target
-- (a definition of the same root) may hold other keys of this table.
local resolved = setmetatable({}, { __mode = "kv" })
local function resolve(root, schema)
  if schema["$ref"] == nil then return schema end
  local target = resolved[schema]
  if target == nil then
    target = follow_refs(root, schema)
    resolved[schema] = target
  end
  return target
end

local function check_type(schema, v, path, errs)
  local t = schema.type
  if t == nil then return true end
  if type(t) == "string" then
    if has_type(v, t) then return true end
    errs[#errs + 1] = path .. ": expected type: " .. (TYPE_LABEL[t] or t) .. ", found: " .. found_label(v)
    return false
  end
  local labels = {}
  for _, one in ipairs(t) do
    if has_type(v, one) then return true end
    labels[#labels + 1] = TYPE_LABEL[one] or one
  end
  table.sort(labels)
  errs[#errs + 1] = path .. ": expected type is one of " .. table.concat(labels, ", ") .. ", found: " .. found_label(v)
  return false
end

local function check_scalar(schema, v, path, errs)
  if schema.enum and is_scalar(v) then
    local text, ok = tostring(v), false
    for _, e in ipairs(schema.enum) do
      if is_scalar(e) and (e == v or tostring(e) == text
          or (type(e) == "number" and numeric(v) == e)) then ok = true break end
    end
    if not ok then errs[#errs + 1] = path .. ": failed validation constraint for keyword [enum]" end
  end
  local wants_string = schema.type == "string" or (schema.type == nil and type(v) == "string")
  if wants_string and is_scalar(v) then
    local s = type(v) == "string" and v or (type(v) == "number" and number_text(v) or tostring(v))
    if schema.minLength or schema.maxLength then
      local len = values.utf8_len(s)
      if schema.minLength and len < schema.minLength then
        errs[#errs + 1] = path .. ": expected minLength: " .. number_text(schema.minLength) .. ", actual: " .. len
      end
      if schema.maxLength and len > schema.maxLength then
        errs[#errs + 1] = path .. ": expected maxLength: " .. number_text(schema.maxLength) .. ", actual: " .. len
      end
    end
    if schema.pattern and not pattern_ok(schema.pattern, s) then
      errs[#errs + 1] = path .. ": failed validation constraint for keyword [pattern]"
    end
  end
  local n = (schema.type == "integer" or schema.type == "number") and numeric(v) or (type(v) == "number" and v)
  if n then
    if schema.minimum and n < schema.minimum then
      errs[#errs + 1] = path .. ": " .. number_text(n) .. " is not greater or equal to " .. number_text(schema.minimum)
    end
    if schema.maximum and n > schema.maximum then
      errs[#errs + 1] = path .. ": " .. number_text(n) .. " is not less or equal to " .. number_text(schema.maximum)
    end
  end
end

local function check_array(root, schema, v, path, errs)
  local n = #v
  if schema.minItems and n < schema.minItems then
    errs[#errs + 1] = path .. ": expected minimum item count: " .. number_text(schema.minItems) .. ", found: " .. n
  end
  if schema.maxItems and n > schema.maxItems then
    errs[#errs + 1] = path .. ": expected maximum item count: " .. number_text(schema.maxItems) .. ", found: " .. n
  end
  if schema.items then
    for i, item in ipairs(v) do check(root, schema.items, item, child(path, i - 1), errs) end
  end
end

local function matching_pattern_schema(schema, key)
  if not schema.patternProperties then return nil end
  for pattern, sub in pairs(schema.patternProperties) do
    if pattern_ok(pattern, key) then return sub end
  end
  return nil
end

-- A schema's required keys, sorted (the order they are reported in); kept
-- per schema table, which the catalog's data never changes.
local sorted_required = setmetatable({}, { __mode = "k" })
local function required_of(schema)
  local req = sorted_required[schema]
  if req == nil then
    req = {}
    for _, k in ipairs(schema.required) do req[#req + 1] = k end
    table.sort(req)
    sorted_required[schema] = req
  end
  return req
end

-- Extraneous keys of `v` among `keys`, then each property's own checks.
local function check_keys(root, schema, props, v, keys, path, errs)
  if schema.additionalProperties == false then
    for _, k in ipairs(keys) do
      if props[k] == nil and not values.is_absent(v[k]) then
        errs[#errs + 1] = path .. ": extraneous key [" .. k .. "] is not permitted"
      end
    end
  end
  for _, k in ipairs(keys) do
    local sub = props[k] or matching_pattern_schema(schema, k)
    if sub and not values.is_absent(v[k]) then check(root, sub, v[k], child(path, k), errs) end
  end
end

-- `v` an object: required keys, extraneous keys, then each property, in key
-- order. Most values pass: their keys are sorted only to report errors.
function M.check_object(root, schema, v, path, errs)
  local props = schema.properties or {}
  if schema.required then
    for _, k in ipairs(required_of(schema)) do
      if values.is_absent(v[k]) then errs[#errs + 1] = path .. ": required key [" .. k .. "] not found" end
    end
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  local before = #errs
  check_keys(root, schema, props, v, keys, path, errs)
  if #errs > before then
    for i = #errs, before + 1, -1 do errs[i] = nil end
    table.sort(keys, values.key_before)
    check_keys(root, schema, props, v, keys, path, errs)
  end
end

check = function(root, schema, v, path, errs)
  schema = resolve(root, schema)
  if not check_type(schema, v, path, errs) then return end
  if is_scalar(v) then
    check_scalar(schema, v, path, errs)
  elseif type(v) == "table" and not values.is_null(v) then
    local k = table_kind(v) or (schema.type == "array" and "array") or "object"
    if k == "array" then check_array(root, schema, v, path, errs) else M.check_object(root, schema, v, path, errs) end
  end
end

---The errors of `props` against the type schema `root` (one JSON line of
---aws_resource_schemas.jsonl), in the order the validator reports them.
---Read-only properties are not checked here (a template cannot set them:
---the declaration already refuses them).
---@param root table
---@param props table
---@return string[]
function M.errors(root, props)
  local errs = {}
  local top = { properties = root.properties, required = root.required,
                additionalProperties = root.additionalProperties }
  M.check_object(root, top, props or {}, "#", errs)
  return errs
end

---Appends to `errs` the errors of one value `v` against `schema` (a
---property's schema in the type schema `root`, whose definitions its
---"$ref"s name), reported at `path` ("#/Code"): what a hand-written
---provider's plain-JSON property gets from the registry (moonstack.host).
---@param root table
---@param schema table?
---@param v any
---@param path string
---@param errs string[]
function M.check_value(root, schema, v, path, errs)
  if type(schema) == "table" and not values.is_absent(v) then check(root, schema, v, path, errs) end
end

---CloudFormation's event text for `errs` (non-empty) of resource `logical_id`.
---@param logical_id string
---@param errs string[]
---@return string
function M.message(logical_id, errs)
  return "Properties validation failed for resource " .. logical_id .. " with message: ["
      .. table.concat(errs, ", ") .. "]"
end

return M
