-- moonstack.constraints: a declared property's constraints (allowed,
-- pattern, regex, minimum/maximum, min_length/max_length) checked on its
-- coerced value, and the sub-properties of P.object types coerced and
-- checked at any depth. Declaration:validate calls it once per present
-- property; each failure is the registry validator's message for the JSON
-- pointer at fault ("#/Config/Items/0/Key: required key [Key] not found"),
-- which the caller wraps in "Properties validation failed for resource ...".

local values = require("moonstack.values")
local msg = require("moonstack.messages")
local regex = require("moonstack.regex")
local schema = require("moonstack.schema")

local M = {}

-- The validator's names for what a value is ("found: JSONObject").
local function found_label(v)
  local t = type(v)
  if t == "string" then return "String" end
  if t == "boolean" then return "Boolean" end
  if t == "number" then return values.is_integral(v) and "Integer" or "BigDecimal" end
  if values.is_null(v) then return "Null" end
  if values.is_array(v) and next(v) ~= nil then return "JSONArray" end
  return "JSONObject"
end

-- ...and for what a declared type expects.
local EXPECTED = {
  string = "String", number = "Number", integer = "Integer", boolean = "Boolean",
  list = "JSONArray", tags = "JSONArray", map = "JSONObject", object = "JSONObject",
}

---A Lua `pattern` must match the whole value (as AWS schema patterns mostly
---do), so it is wrapped in ^...$; a pattern the author anchored at either
---end is used as written ("^ab" = starts with ab).
---@param p string
---@return string
function M.anchored(p)
  local starts = p:sub(1, 1) == "^"
  local ends = p:sub(-1) == "$" and p:sub(-2, -2) ~= "%"
  if starts or ends then return p end
  return "^" .. p .. "$"
end

-- Compiled regexes by source: a property's regex is compiled when it is
-- declared and found here on every validation.
local compiled = {}

---Compile a `regex` option; nil and why when moonstack.regex cannot read it.
---@param source string
---@return table?
---@return string?
function M.compile_regex(source)
  local c = compiled[source]
  if c then return c end
  local why
  c, why = regex.compile(source)
  if c then compiled[source] = c end
  return c, why
end

---True when some part of `s` matches the regex (JSON Schema's "pattern").
---@param source string
---@param s string
---@return boolean
function M.regex_matches(source, s)
  local c = M.compile_regex(source)
  return c == nil or regex.search(c, s)
end

local num = values.number_to_string

-- allowed, lengths, pattern/regex, bounds of `p` on the coerced value `c`:
-- the first failure's message, or nil.
local function bounds(p, c, path)
  if p.allowed then
    local ok = false
    for _, a in ipairs(p.allowed) do if a == c then ok = true break end end
    if not ok then return msg.enum(path) end
  end
  local t = type(c)
  if t == "string" then
    local len = values.utf8_len(c)
    if p.min_length and len < p.min_length then return msg.min_length(path, num(p.min_length), len) end
    if p.max_length and len > p.max_length then return msg.max_length(path, num(p.max_length), len) end
    if p.pattern and not c:find(M.anchored(p.pattern)) then return msg.pattern(path) end
    if p.regex and not M.regex_matches(p.regex, c) then return msg.pattern(path) end
  elseif t == "number" then
    if p.minimum and c < p.minimum then return msg.minimum(path, num(c), num(p.minimum)) end
    if p.maximum and c > p.maximum then return msg.maximum(path, num(c), num(p.maximum)) end
  elseif t == "table" and (p.type == "list" or p.type == "tags") then
    if p.min_length and #c < p.min_length then return msg.min_items(path, num(p.min_length), #c) end
    if p.max_length and #c > p.max_length then return msg.max_items(path, num(p.max_length), #c) end
  end
  return nil
end

local check  -- forward

-- An object's sub-properties: required ones present, no others, each
-- coerced and checked. Returns the coerced object, or nil and the message.
local function check_object(spec, obj, path, lid)
  local missing
  for _, sp in ipairs(spec.properties) do
    if sp.required and values.is_absent(obj[sp.name]) then
      missing = missing or {}
      missing[#missing + 1] = msg.required_key(path, sp.name)
    end
  end
  if missing then return nil, table.concat(missing, "\n") end
  local extra
  for k in pairs(obj) do
    if not spec.by_name[k] and not values.is_absent(obj[k]) and (extra == nil or tostring(k) < extra) then
      extra = tostring(k)
    end
  end
  if extra then return nil, msg.extraneous_key(path, extra) end
  local out = values.deep_copy(obj)
  for _, sp in ipairs(spec.properties) do
    local v, sub = obj[sp.name], path .. "/" .. sp.name
    if values.is_absent(v) then
      out[sp.name] = sp.default ~= nil and values.deep_copy(sp.default) or nil
    else
      local c = schema.coerce_value(v, sp, lid)
      if c == nil then return nil, msg.expected_type(sub, EXPECTED[sp.type] or sp.type, found_label(v)) end
      local checked, why = check(sp, c, sub, lid)
      if why then return nil, why end
      out[sp.name] = checked
    end
  end
  return out
end

---Checks the constraints of property (or sub-property, or object spec) `p`
---on its coerced value `c` at JSON pointer `path`. Returns the value (with
---nested objects coerced and their defaults filled in), or nil and the
---validator's message.
---@param p moonstack.Property|moonstack.Spec
---@param c any
---@param path string
---@param lid string?
---@return any
---@return string?
check = function(p, c, path, lid)
  local why = bounds(p, c, path)
  if why then return nil, why end
  if p.type == "object" and p.properties then return check_object(p, c, path, lid) end
  local items = p.items
  if p.type == "list" and items and items.type == "object" and items.properties then
    local out = values.deep_copy(c)
    for i, x in ipairs(c) do
      local v, why2 = check_object(items, x, path .. "/" .. (i - 1), lid)
      if why2 then return nil, why2 end
      out[i] = v
    end
    return out
  end
  return c
end
M.check = check

return M
