-- sim.ec2.common: what the simulated EC2 actions share — settings, ID
-- shapes, tags, filters, and how records are stored.
--
-- Records keep AWS's response fields at the top level and the simulator's
-- own bookkeeping under `_sim`, which `public` strips before a record leaves
-- an action, so a Describe* answer has AWS's shape and nothing else.

local world = require("sim.world")
local errors = require("moonstack.errors")
local msg = require("moonstack.messages")
local values = require("moonstack.values")

local C = {}

---Raises AWS's error (message and code as AWS sends them).
---@param message string
---@param code string
function C.fail(message, code) errors.fail(message, code) end

-- Settings ----------------------------------------------------------------------

-- world.get("config", "ec2") overrides any of these.
C.DEFAULTS = {
  implicit_images = true,     -- any well-formed AMI ID exists as an EBS-backed x86_64 image
  implicit_key_pairs = true,  -- any key name exists
  default_vpc = true,         -- launches without a subnet go to the default VPC
  boot_seconds = 30,          -- pending -> running (also after a start)
  stop_seconds = 20,          -- stopping -> stopped
  terminate_seconds = 20,     -- shutting-down -> terminated
  run_user_data = true,       -- a boot script's cfn-signal signals its wait-condition handle (boot_script.lua)
  -- availability_zones = { "us-east-1a", ... }   (default: per region, below)
  -- instance_types = { "x9.huge", ... }           (added to the catalog)
}

---The EC2 settings in force (defaults overlaid by the world's config record).
---@return table
function C.config()
  local cfg = {}
  for k, v in pairs(C.DEFAULTS) do cfg[k] = v end
  local over = world.get("config", "ec2")
  if type(over) == "table" then
    for k, v in pairs(over) do cfg[k] = v end
  end
  return cfg
end

-- Availability Zones: us-east-1 has six (a-f); the sim gives other regions
-- three (a-c), which every commercial region has.
function C.zones(region)
  local cfg = C.config()
  if type(cfg.availability_zones) == "table" then return cfg.availability_zones end
  local letters = region == "us-east-1" and "abcdef" or "abc"
  local out = {}
  for i = 1, #letters do out[i] = region .. letters:sub(i, i) end
  return out
end

function C.zone_exists(region, name)
  for _, z in ipairs(C.zones(region)) do if z == name then return true end end
  return false
end

-- Records -----------------------------------------------------------------------

---A copy of a record without the simulator's `_sim` bookkeeping.
---@param rec table
---@return table
function C.public(rec)
  local out = {}
  for k, v in pairs(rec) do
    if k ~= "_sim" then out[k] = values.deep_copy(v) end
  end
  return out
end

---A list parameter as a Lua list: AWS clients send lists, the CLI's
---shorthand may send one string.
---@param v any
---@return table
function C.list(v)
  if v == nil or values.is_null(v) then return {} end
  if type(v) ~= "table" then return { v } end
  return v
end

---A boolean parameter: true/false, or "true"/"false" from query-style clients.
---nil when absent.
function C.bool(v)
  if v == nil or values.is_null(v) then return nil end
  if type(v) == "boolean" then return v end
  if type(v) == "string" then
    local l = v:lower()
    if l == "true" then return true end
    if l == "false" then return false end
  end
  return nil
end

---Either `v` itself or `v.Value` (ModifyInstanceAttribute's {Value=...} shape).
function C.value(v)
  if type(v) == "table" and not values.is_null(v) then return v.Value end
  return v
end

-- ID shapes ---------------------------------------------------------------------

-- EC2 IDs are "<prefix>-" and 8 (old) or 17 (current) lowercase hex digits.
function C.well_formed(id, prefix)
  if type(id) ~= "string" then return false end
  local hex = id:match("^" .. prefix:gsub("%-", "%%-") .. "%-(%x+)$")
  return hex ~= nil and (#hex == 8 or #hex == 17) and hex == hex:lower()
end

---Which record kind an EC2 resource ID names, from its prefix.
---@param id string
---@return string? kind
function C.kind_of(id)
  if type(id) ~= "string" then return nil end
  local prefix = id:match("^(%l+)%-")
  local known = ({ i = "ec2.instance", sg = "ec2.security_group", vpc = "ec2.vpc",
                   subnet = "ec2.subnet", ami = "ec2.image" })[prefix]
  if known then return known end
  local k = require("sim.ec2.kinds").by_prefix(prefix)
  return k and k.kind or nil
end

-- An ID drawn from the world's generator with another prefix: EC2 has IDs
-- (reservations, CIDR associations, ...) that moonstack.ids has no method
-- for; they share the "<prefix>-0" + 16 hex shape.
function C.derived_id(env, kind, prefix)
  local id = env.new_id(kind)
  return prefix .. "-" .. id:match("%-(%x+)$")
end

-- Tags --------------------------------------------------------------------------

-- CloudFormation's own tags, which it alone may put on what it creates.
local CLOUDFORMATION_PREFIX = "aws:cloudformation:"

---True when `key` has the reserved aws: prefix (any letter case) and `env`'s
---caller may not use it: only CloudFormation (env.caller, sim.client) puts
---aws:cloudformation:* tags on a resource, as on AWS.
local function reserved(key, env)
  if key:sub(1, 4):lower() ~= "aws:" then return false end
  return not (env and env.caller == "cloudformation" and key:sub(1, #CLOUDFORMATION_PREFIX) == CLOUDFORMATION_PREFIX)
end

---Checks a Tags list as EC2 does (aws: prefix, lengths, duplicates) and
---returns it as a map. `env` (the action's) lets CloudFormation's
---aws:cloudformation:* keys through.
---@param list any
---@param env table?
---@return table<string,string>
function C.tag_map(list, env)
  local map = {}
  for i, t in ipairs(C.list(list)) do
    if type(t) ~= "table" or type(t.Key) ~= "string" then
      C.fail("The request must contain the parameter Tag.Key", "MissingParameter")
    end
    local key, value = t.Key, t.Value
    if value == nil or values.is_null(value) then value = "" end
    value = tostring(value)
    if reserved(key, env) then C.fail(msg.tag_reserved(key), "InvalidParameterValue") end
    if #key < 1 then C.fail(msg.tag_too_short(i, "key", key, 1), "InvalidParameterValue") end
    if values.utf8_len(key) > 128 then C.fail(msg.tag_too_long(i, "key", key, 128), "InvalidParameterValue") end
    if values.utf8_len(value) > 256 then C.fail(msg.tag_too_long(i, "value", value, 256), "InvalidParameterValue") end
    if map[key] ~= nil then C.fail(msg.tag_duplicate(key), "InvalidParameterValue") end
    map[key] = value
  end
  return map
end

---A tag map as AWS's Tags list, sorted by key (deterministic answers).
function C.tag_list(map)
  local out = {}
  for _, k in ipairs(values.sorted_keys(map or {})) do out[#out + 1] = { Key = k, Value = map[k] } end
  return out
end

---The tags TagSpecifications give a resource type ("instance", "vpc", ...),
---checked as `tag_map` checks them for the action's `env`.
function C.spec_tags(specs, resource_type, env)
  local map = {}
  for _, spec in ipairs(C.list(specs)) do
    if type(spec) == "table" and (spec.ResourceType == nil or spec.ResourceType == resource_type) then
      for k, v in pairs(C.tag_map(spec.Tags, env)) do map[k] = v end
    end
  end
  return map
end

-- Filters -----------------------------------------------------------------------

---True when `rec` passes every filter. `fields` maps a filter name to a
---function(rec) returning the record's value(s) for it (a string or a list);
---"tag:Key" filters read rec.Tags. An unknown filter name fails as AWS does.
---@param rec table
---@param filters table?  [{ Name=, Values={...} }]
---@param fields table<string, fun(rec: table): any>
---@return boolean
function C.matches(rec, filters, fields)
  for _, f in ipairs(C.list(filters)) do
    local name = f.Name
    local have
    local tag = type(name) == "string" and name:match("^tag:(.+)$")
    if tag then
      for _, t in ipairs(rec.Tags or {}) do if t.Key == tag then have = t.Value end end
    elseif name == "tag-key" then
      have = {}
      for _, t in ipairs(rec.Tags or {}) do have[#have + 1] = t.Key end
    elseif fields[name] then
      have = fields[name](rec)
    else
      C.fail("The filter '" .. tostring(name) .. "' is invalid", "InvalidParameterValue")
    end
    local set = {}
    for _, v in ipairs(type(have) == "table" and have or { have }) do set[tostring(v)] = true end
    local ok = false
    for _, want in ipairs(C.list(f.Values)) do
      if set[tostring(want)] then ok = true break end
    end
    if not ok then return false end
  end
  return true
end

---The value of a filter, when a filter with that name is present (the first
---value), so an action can narrow its search through the referrers index.
function C.filter_value(filters, name)
  for _, f in ipairs(C.list(filters)) do
    if f.Name == name then
      local vs = C.list(f.Values)
      if #vs == 1 then return vs[1] end
    end
  end
  return nil
end

return C
