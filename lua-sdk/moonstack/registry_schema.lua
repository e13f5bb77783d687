-- moonstack.registry_schema: CloudFormation registry schemas (the JSON
-- documents of `cfn init` / DescribeType) and moonstack declarations, both
-- ways.
--
--   M.read(schema)   a registry schema (decoded JSON) -> a model: every
--                    property with the DSL type and options it maps to,
--                    attributes, identifiers, handlers. moonstack.scaffold_schema
--                    writes a provider from it.
--   M.export(decl)   a declaration -> a registry schema (decoded JSON):
--                    `moonstack provider describe TYPE --format schema`.
--   M.markdown(decl) a declaration documented: `--format markdown`.
--
-- The mapping, one way and back:
--   string/integer/number/boolean      P.string / P.integer / P.number / P.boolean
--   array of a scalar / of an object   P.list(P.string) / P.list(P.object {...})
--   the tagging.tagProperty (or Tags)  P.tags
--   object with properties             P.object { ... } (additionalProperties false)
--   object with patternProperties      P.map / P.map(P.string)
--   several types, or none             P.json
--   enum, minimum, maximum             allowed, minimum, maximum
--   minLength/maxLength, minItems/maxItems   min_length / max_length
--   pattern                            regex (ECMAScript; moonstack.regex)
--   required, default, description     required, default, description
--   createOnlyProperties               update = "replace" (others "none")
--   readOnlyProperties                 attributes ("A/B" below the top: "A.B")
--   writeOnlyProperties                write_only = true
--   primaryIdentifier                  primary_identifier (a list when compound)
-- $ref to "#/definitions/X" is resolved (inlined) on reading.

local values = require("moonstack.values")
local constraints = require("moonstack.constraints")

local M = {}

local SCALAR = { string = true, integer = true, number = true, boolean = true }

-- Reading ------------------------------------------------------------------------

-- The name of a top-level property from a JSON pointer "/properties/A/B":
-- "A", and the rest "B" (nil at the top).
local function pointer_name(p)
  local rest = type(p) == "string" and p:match("^/properties/(.+)$")
  if not rest then return nil end
  local head, tail = rest:match("^([^/]+)/(.+)$")
  if head then return head, tail end
  return rest
end

local function pointer_set(list)
  local set = {}
  for _, p in ipairs(list or {}) do
    local name, rest = pointer_name(p)
    if name and not rest then set[name] = true end
  end
  return set
end

local function resolve(root, s, depth)
  depth = depth or 0
  while type(s) == "table" and s["$ref"] ~= nil do
    local name = tostring(s["$ref"]):match("^#/definitions/(.+)$")
    local def = name and root.definitions and root.definitions[name]
    if def == nil then error("unresolved $ref " .. tostring(s["$ref"]), 0) end
    depth = depth + 1
    if depth > 32 then error("$ref " .. tostring(s["$ref"]) .. " refers to itself", 0) end
    s = def
  end
  return s
end

local function is_tag_item(item)
  return type(item) == "table" and item.type == "object" and type(item.properties) == "table"
      and item.properties.Key ~= nil and item.properties.Value ~= nil
end

local read_property  -- forward

-- The DSL spec of a property schema: { type = ..., items = spec?, properties = {field...}? }.
local function read_spec(root, s, name, is_tag_property, depth)
  local t = s.type
  if type(t) ~= "string" then return { type = "json" } end
  if SCALAR[t] then return { type = t } end
  if t == "array" then
    local item = s.items and resolve(root, s.items, depth) or nil
    if is_tag_property or (name == "Tags" and is_tag_item(item)) then return { type = "tags" } end
    if item == nil then return { type = "list" } end
    local inner = read_spec(root, item, nil, false, depth + 1)
    if inner.type == "json" or inner.type == "tags" then return { type = "list" } end
    if inner.type == "list" and inner.items == nil then return { type = "list" } end
    return { type = "list", items = inner, item_schema = item }
  end
  if t == "object" then
    if type(s.properties) == "table" and next(s.properties) ~= nil and s.patternProperties == nil then
      local fields = {}
      local required = {}
      for _, r in ipairs(s.required or {}) do required[r] = true end
      for _, k in ipairs(values.sorted_keys(s.properties)) do
        fields[#fields + 1] = read_property(root, k, s.properties[k], { required = required[k] == true }, depth + 1)
      end
      return { type = "object", fields = fields }
    end
    if type(s.patternProperties) == "table" then
      local only
      for _, sub in pairs(s.patternProperties) do
        sub = resolve(root, sub, depth)
        if only == nil then only = sub.type elseif only ~= sub.type then only = false end
      end
      if type(only) == "string" and SCALAR[only] then return { type = "map", items = { type = only } } end
      return { type = "map" }
    end
    return { type = "json" }
  end
  return { type = "json" }
end

-- The options of a property schema that the DSL can say for its spec.
local function read_options(s, spec, flags)
  local o = { description = type(s.description) == "string" and s.description or nil }
  if flags.required then o.required = true end
  if SCALAR[spec.type] and type(s.enum) == "table" and #s.enum > 0 then
    local ok = true
    for _, e in ipairs(s.enum) do
      if not (type(e) == spec.type or (type(e) == "number" and (spec.type == "integer" or spec.type == "number"))) then
        ok = false
      end
    end
    if ok then o.allowed = values.deep_copy(s.enum) end
  end
  if spec.type == "integer" or spec.type == "number" then
    if type(s.minimum) == "number" then o.minimum = s.minimum end
    if type(s.maximum) == "number" then o.maximum = s.maximum end
  elseif spec.type == "string" then
    if type(s.minLength) == "number" then o.min_length = s.minLength end
    if type(s.maxLength) == "number" then o.max_length = s.maxLength end
    if type(s.pattern) == "string" then
      if constraints.compile_regex(s.pattern) then o.regex = s.pattern else o.unchecked_pattern = s.pattern end
    end
  elseif spec.type == "list" or spec.type == "tags" then
    if type(s.minItems) == "number" then o.min_length = s.minItems end
    if type(s.maxItems) == "number" then o.max_length = s.maxItems end
  end
  if s.default ~= nil and not flags.required and (SCALAR[spec.type] or spec.type == "json") then
    o.default = values.deep_copy(s.default)
  end
  return o
end

---One property: { name, spec, opts, schema } (schema: the resolved property schema).
read_property = function(root, name, raw, flags, depth)
  local s = resolve(root, raw, depth)
  -- A description on the referring schema wins over the definition's.
  if type(raw) == "table" and raw.description and s ~= raw then
    s = values.deep_copy(s)
    s.description = raw.description
  end
  local spec = read_spec(root, s, name, flags.tag_property, depth or 0)
  return { name = name, spec = spec, opts = read_options(s, spec, flags), schema = s }
end

---A registry schema (decoded JSON) as a model moonstack.scaffold_schema writes
---a provider from. Raises on a schema it cannot read.
---@param schema table
---@return table model { type, description, properties = {...}, attributes = {...}, primary_identifier = {...}, handlers = { create = {permissions...}, ...}, tagging, tag_property }
function M.read(schema)
  if type(schema) ~= "table" then error("a registry schema is a JSON object", 0) end
  if type(schema.typeName) ~= "string" then error("the schema has no typeName", 0) end
  if type(schema.properties) ~= "table" then error("the schema has no properties", 0) end
  local create_only = pointer_set(schema.createOnlyProperties)
  local read_only = pointer_set(schema.readOnlyProperties)
  local write_only = pointer_set(schema.writeOnlyProperties)
  local required = {}
  for _, r in ipairs(schema.required or {}) do required[r] = true end
  local tagging = type(schema.tagging) == "table" and schema.tagging or nil
  local tag_property = tagging and tagging.taggable ~= false and pointer_name(tagging.tagProperty or "/properties/Tags") or nil
  local model = {
    type = schema.typeName, description = schema.description, properties = {}, attributes = {},
    primary_identifier = {}, handlers = {}, tagging = tagging, unsupported_updates = false,
  }
  local has_update = type(schema.handlers) == "table" and schema.handlers.update ~= nil
  for _, name in ipairs(values.sorted_keys(schema.properties)) do
    local raw = schema.properties[name]
    if read_only[name] then
      model.attributes[#model.attributes + 1] = { name = name, schema = resolve(schema, raw) }
    else
      local p = read_property(schema, name, raw, { required = required[name] == true, tag_property = name == tag_property })
      if write_only[name] then p.opts.write_only = true end
      local updatable = has_update or schema.handlers == nil
      if create_only[name] or not updatable then
        p.opts.update = "replace"
      else
        p.opts.update = "none"
      end
      model.properties[#model.properties + 1] = p
    end
  end
  -- Read-only paths below a writable property ("/properties/Endpoint/Address").
  for _, ptr in ipairs(schema.readOnlyProperties or {}) do
    local name, rest = pointer_name(ptr)
    if name and rest and not read_only[name] then
      model.attributes[#model.attributes + 1] = { name = name .. "." .. rest:gsub("/", "."), schema = { type = "string" } }
    end
  end
  for _, ptr in ipairs(schema.primaryIdentifier or {}) do
    local name, rest = pointer_name(ptr)
    if not name or rest then error("primaryIdentifier " .. tostring(ptr) .. " is not a top-level property", 0) end
    model.primary_identifier[#model.primary_identifier + 1] = name
  end
  if #model.primary_identifier == 0 then error("the schema has no primaryIdentifier", 0) end
  for _, h in ipairs({ "create", "read", "update", "delete", "list" }) do
    local handler = type(schema.handlers) == "table" and schema.handlers[h] or nil
    if handler then model.handlers[h] = values.deep_copy(handler.permissions or {}) end
  end
  return model
end

-- Export --------------------------------------------------------------------------

-- Empty tables marked for the host, which cannot tell an empty [] from {}.
local function empty_array() return setmetatable({}, { __jsontype = "array" }) end
local function empty_object() return setmetatable({}, { __jsontype = "object" }) end

local function ordered_list(t) local o = {} for i, v in ipairs(t) do o[i] = v end return o end

local property_schema  -- forward

local function spec_schema(spec, defs)
  local t = spec.type
  if SCALAR[t] then return { type = t } end
  if t == "tags" then
    defs.Tag = defs.Tag or {
      type = "object", additionalProperties = false, required = { "Key", "Value" },
      properties = { Key = { type = "string" }, Value = { type = "string" } },
    }
    return { type = "array", items = { ["$ref"] = "#/definitions/Tag" } }
  end
  if t == "list" then
    local s = { type = "array" }
    if spec.items then s.items = spec_schema(spec.items, defs) end
    return s
  end
  if t == "map" then
    return { type = "object", patternProperties = { [".+"] = spec.items and spec_schema(spec.items, defs) or empty_object() } }
  end
  if t == "object" then
    local s = { type = "object", additionalProperties = false, properties = {} }
    local req = {}
    for _, sp in ipairs(spec.properties or {}) do
      s.properties[sp.name] = property_schema(sp, defs)
      if sp.required then req[#req + 1] = sp.name end
    end
    if #req > 0 then s.required = req end
    return s
  end
  return empty_object()  -- json: any value
end

property_schema = function(p, defs)
  local s = spec_schema(p, defs)
  if p.description then s.description = p.description end
  if p.allowed then s.enum = values.deep_copy(p.allowed) end
  if p.minimum then s.minimum = p.minimum end
  if p.maximum then s.maximum = p.maximum end
  if p.type == "string" then
    if p.min_length then s.minLength = p.min_length end
    if p.max_length then s.maxLength = p.max_length end
  elseif p.min_length or p.max_length then
    if p.min_length then s.minItems = p.min_length end
    if p.max_length then s.maxItems = p.max_length end
  end
  if p.regex then s.pattern = p.regex end
  if p.default ~= nil then s.default = values.deep_copy(p.default) end
  return s
end

---A property's constraints as registry-schema keywords (its schema less
---type, description and default), or nil when it has none: what
---`provider describe` shows beside the type.
---@param p moonstack.Property
---@return table?
function M.constraints_of(p)
  local s = property_schema(p, {})
  s.type, s.description, s.default, s.items = nil, nil, nil, s.items and s.items.properties and s.items or nil
  if next(s) == nil then return nil end
  return s
end

local function creates_only(p) return p.update == "replace" or p.update == "unsupported" end

---A declaration as a registry schema (decoded JSON, registry shape).
---@param decl moonstack.Declaration
---@return table
function M.export(decl)
  local defs, props = {}, {}
  local required, create_only, read_only, write_only, tag_property = {}, {}, {}, {}, nil
  for _, p in ipairs(decl.properties) do
    props[p.name] = property_schema(p, defs)
    if p.required then required[#required + 1] = p.name end
    if creates_only(p) then create_only[#create_only + 1] = "/properties/" .. p.name end
    if p.write_only then write_only[#write_only + 1] = "/properties/" .. p.name end
    if p.type == "tags" and tag_property == nil then tag_property = p end
  end
  for _, a in ipairs(decl.attributes) do
    local ptr = "/properties/" .. a:gsub("%.", "/")
    if not a:find(".", 1, true) then props[a] = props[a] or { type = "string" } end
    read_only[#read_only + 1] = ptr
  end
  local out = {
    typeName = decl.type,
    description = decl.description or ("Resource Type definition for " .. decl.type),
    additionalProperties = decl.additional_properties ~= nil,
    properties = props,
  }
  if next(defs) then out.definitions = defs end
  if #required > 0 then out.required = required end
  if #create_only > 0 then out.createOnlyProperties = create_only end
  if #read_only > 0 then out.readOnlyProperties = read_only end
  if #write_only > 0 then out.writeOnlyProperties = write_only end
  local pid = {}
  for i, name in ipairs(decl.primary_identifiers or {}) do pid[i] = "/properties/" .. name end
  if #pid > 0 then out.primaryIdentifier = pid end
  out.tagging = { taggable = tag_property ~= nil }
  if tag_property then
    out.tagging.tagOnCreate = true
    out.tagging.tagUpdatable = not creates_only(tag_property)
    out.tagging.cloudFormationSystemTags = true
    out.tagging.tagProperty = "/properties/" .. tag_property.name
  end
  local handlers = {}
  for _, h in ipairs({ "create", "read", "update", "delete", "list" }) do
    if decl[h] then handlers[h] = { permissions = empty_array() } end
  end
  if decl.timeout_minutes then
    for _, h in pairs(handlers) do h.timeoutInMinutes = decl.timeout_minutes end
  end
  out.handlers = handlers
  return out
end

-- Markdown -------------------------------------------------------------------------

local UPDATE_TEXT = {
  none = "No interruption", some = "Some interruptions", replace = "Replacement",
  unsupported = "Updates are not supported", conditional = "Conditional (decided by the provider)",
}

local function type_text(p)
  if p.type == "list" and p.items then return "List of " .. type_text(p.items) end
  if p.type == "map" and p.items then return "Map of " .. type_text(p.items) end
  local names = { string = "String", integer = "Integer", number = "Number", boolean = "Boolean", list = "List",
                  map = "Map", json = "Json", tags = "List of Tag", object = "Object" }
  return names[p.type] or p.type
end

local function literal(v)
  if type(v) == "string" then return "`" .. v .. "`" end
  if type(v) == "number" then return "`" .. values.number_to_string(v) .. "`" end
  return "`" .. tostring(v) .. "`"
end

local function document(lines, p, heading, top)
  lines[#lines + 1] = heading .. " " .. p.name
  lines[#lines + 1] = ""
  if p.description then lines[#lines + 1] = p.description; lines[#lines + 1] = "" end
  lines[#lines + 1] = "- Required: " .. (p.required and "Yes" or "No")
  lines[#lines + 1] = "- Type: " .. type_text(p)
  if p.default ~= nil then lines[#lines + 1] = "- Default: " .. literal(p.default) end
  if p.allowed then
    local a = {}
    for i, v in ipairs(p.allowed) do a[i] = literal(v) end
    lines[#lines + 1] = "- Allowed values: " .. table.concat(a, " | ")
  end
  if p.minimum then lines[#lines + 1] = "- Minimum: " .. values.number_to_string(p.minimum) end
  if p.maximum then lines[#lines + 1] = "- Maximum: " .. values.number_to_string(p.maximum) end
  local unit = p.type == "string" and "characters" or "items"
  if p.min_length then lines[#lines + 1] = "- Minimum length: " .. p.min_length .. " " .. unit end
  if p.max_length then lines[#lines + 1] = "- Maximum length: " .. p.max_length .. " " .. unit end
  if p.regex then lines[#lines + 1] = "- Pattern: `" .. p.regex .. "`" end
  if p.pattern then lines[#lines + 1] = "- Lua pattern: `" .. p.pattern .. "`" end
  if p.write_only then lines[#lines + 1] = "- Write-only: never returned by read, not compared for drift" end
  if top then lines[#lines + 1] = "- Update requires: " .. (UPDATE_TEXT[p.update] or p.update) end
  lines[#lines + 1] = ""
  local spec = p.type == "list" and p.items or p
  if spec.type == "object" and spec.properties then
    for _, sp in ipairs(spec.properties) do document(lines, { name = p.name .. "." .. sp.name,
      description = sp.description, required = sp.required, type = sp.type, items = sp.items,
      default = sp.default, allowed = sp.allowed, minimum = sp.minimum, maximum = sp.maximum,
      min_length = sp.min_length, max_length = sp.max_length, regex = sp.regex, pattern = sp.pattern,
      properties = sp.properties }, heading .. "#", false) end
  end
end

---The type documented in Markdown: description, each property (required,
---type, default, constraints, update behaviour, sub-properties), Ref and
---the Fn::GetAtt attributes.
---@param decl moonstack.Declaration
---@return string
function M.markdown(decl)
  local lines = { "# " .. decl.type, "" }
  if decl.description then lines[#lines + 1] = decl.description; lines[#lines + 1] = "" end
  lines[#lines + 1] = "## Properties"
  lines[#lines + 1] = ""
  for _, p in ipairs(decl.properties) do document(lines, p, "###", true) end
  lines[#lines + 1] = "## Return values"
  lines[#lines + 1] = ""
  lines[#lines + 1] = "### Ref"
  lines[#lines + 1] = ""
  local pid = decl.primary_identifiers or {}
  if #pid > 1 then
    lines[#lines + 1] = "Returns the primary identifier: " .. table.concat(ordered_list(pid), "|") .. " (the values joined with `|`)."
  elseif #pid == 1 then
    lines[#lines + 1] = "Returns the primary identifier, " .. pid[1] .. "."
  else
    lines[#lines + 1] = "Returns the physical ID."
  end
  lines[#lines + 1] = ""
  if #decl.attributes > 0 then
    lines[#lines + 1] = "### Fn::GetAtt"
    lines[#lines + 1] = ""
    for _, a in ipairs(decl.attributes) do lines[#lines + 1] = "- `" .. a .. "`" end
    lines[#lines + 1] = ""
  end
  return table.concat(lines, "\n")
end

return M
