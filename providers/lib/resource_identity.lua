-- lib.resource_identity: what a resource of a registry type is called and
-- how AWS refers to it: its name (the schema's name property, or
-- CloudFormation's generated name cut to the type's rules), its ARN, the
-- attributes and identifiers AWS makes up for it (an SQS queue's URL, a
-- REST API's ID, a load balancer's DNS name), and which property `Ref`
-- returns. The data is lib/resource_formats.lua, with its sources; this
-- file applies it.
--
-- Used by lib.generic; a hand-written provider may use it too.

local names = require("sim.cloudformation_names")
local sim = require("sim")
local validate = require("lib.schema_validate")
local formats = require("lib.resource_formats")

local M = {}

-- The longest generated name when neither the schema nor
-- resource_formats.NAME_MAX gives one (the resource-provider toolkit's
-- default for physical names).
local DEFAULT_MAX_NAME = 64

-- The characters of each random placeholder ({lower:N}, ...).
local ALPHABETS = {
  lower = "abcdefghijklmnopqrstuvwxyz0123456789",
  upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
  hex = "0123456789abcdef",
  HEX = "0123456789ABCDEF",
  digits = "0123456789",
  base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
}

-- A name pattern that spells out lowercase letters and not capitals (S3's
-- "^([a-z0-9][a-z0-9.-]*[a-z0-9])?$", ECR's): read as text, since some
-- such patterns use what the regex engine cannot check (ECR's lookahead).
local function lowercase_only(pattern)
  if type(pattern) ~= "string" then return false end
  return pattern:find("a-z", 1, true) ~= nil and pattern:find("A-Z", 1, true) == nil
      and pattern:find("\\w", 1, true) == nil and pattern:find("(?i)", 1, true) == nil
end

---The property that names a resource of the type: the catalog's, or the
---type's in resource_formats.NAME_PROPERTY; nil when none does.
function M.name_property(type_name, schema)
  return schema and schema.nameProperty or formats.NAME_PROPERTY[type_name]
end

---CloudFormation's generated name for a resource of the type `type_name`
---with schema `schema` (nil: none): "<stack>-<logical>-<RANDOM>" cut to
---the name property's maxLength (or the type's limit in NAME_MAX),
---lowercased when its pattern does not accept capitals (S3: at most 63,
---lowercase) or AWS keeps the type's names in lowercase.
function M.generated_name(schema, ctx, type_name)
  local name_prop = M.name_property(type_name, schema)
  local prop = name_prop and schema and schema.properties and schema.properties[name_prop]
  local max = (prop and tonumber(prop.maxLength)) or formats.NAME_MAX[type_name] or DEFAULT_MAX_NAME
  local name = names.physical(ctx.stack_name or "stack", ctx.logical_id or "Resource", max)
  if formats.LOWERCASE_NAMES[type_name] or prop and (lowercase_only(prop.pattern)
      or #validate.errors({ properties = { N = prop } }, { N = name }) > 0) then
    name = name:lower()
  end
  return name
end

---The resource's name: the name property's value when the template sets
---it (lowercased for a type AWS names in lowercase), else a generated one.
---Also the default physical ID of a type whose identifier is made up by AWS.
function M.name(type_name, schema, ctx, props)
  local prop = M.name_property(type_name, schema)
  if prop and type(props[prop]) == "string" and props[prop] ~= "" then
    return formats.LOWERCASE_NAMES[type_name] and props[prop]:lower() or props[prop]
  end
  local prefix = formats.EC2_PREFIX[type_name]
  if prefix and not prop then return sim.new_id("resource", prefix) end
  if type_name == "AWS::EC2::EIP" then  -- an EIP is known by its public address
    return "3." .. sim.new_id("int", 256) .. "." .. sim.new_id("int", 256) .. "." .. (sim.new_id("int", 254) + 1)
  end
  return M.generated_name(schema, ctx, type_name)
end

-- A maker: one new resource's formats filled in (resource_formats.lua's
-- placeholders), each random placeholder drawn once.
local Maker = {}
Maker.__index = Maker

---`format` with its placeholders filled in.
function Maker:fill(format)
  return (format:gsub("{([^}]+)}", function(spec)
    if spec == "region" then return self.ctx.region or "us-east-1" end
    if spec == "account" then return self.ctx.account or "123456789012" end
    if spec == "name" then return self.name end
    local drawn = self.drawn[spec]
    if drawn then return drawn end
    local kind, n = spec:match("^(%w+):(%d+)")
    if kind and ALPHABETS[kind] then
      drawn = sim.new_id("chars", ALPHABETS[kind], tonumber(n))
    elseif spec == "uuid" or spec:match("^uuid:") then
      drawn = sim.new_id("uuid")
    else
      error("lib.resource_identity: unknown placeholder {" .. spec .. "}", 0)
    end
    self.drawn[spec] = drawn
    return drawn
  end))
end

-- A format's value: text, a list of texts, or what a function gives.
function Maker:value(format)
  if type(format) == "function" then return format(self) end
  if type(format) == "table" then
    local out = {}
    for i, f in ipairs(format) do out[i] = self:fill(f) end
    return out
  end
  return self:fill(format)
end

---The type's ARN for this resource.
function Maker:arn()
  local format = formats.ARN_FORMATS[self.type]
  if format then return self:value(format) end
  local service, resource = self.type:match("^%w+::(%w+)::(%w+)$")
  service, resource = (service or "service"):lower(), (resource or "resource"):lower()
  return self:fill("arn:aws:" .. service .. ":{region}:{account}:" .. resource .. "/{name}")
end

---The value AWS gives attribute `attr` (or the identifier `attr` names)
---of this resource, or nil when the data has none. Made once: asked
---again (the Ref property's), it is the same value.
function Maker:attribute(attr)
  local of_type = formats.ATTRIBUTE_FORMATS[self.type]
  local format = of_type and of_type[attr]
  if format == nil then return nil end
  if self.made[attr] == nil then self.made[attr] = { value = self:value(format) } end
  return self.made[attr].value
end

---A maker for a new resource of `type_name` called `name` with properties
---`props`, in ctx's region and account.
function M.maker(type_name, ctx, name, props)
  return setmetatable({ type = type_name, ctx = ctx or {}, name = name, props = props or {}, drawn = {}, made = {} },
    Maker)
end

---The property whose value `Ref` returns: a documented exception, else the
---primary identifier (its first part when it has several).
function M.ref_property(type_name, schema)
  if formats.REF_PROPERTY[type_name] then return formats.REF_PROPERTY[type_name] end
  local ids = schema and schema.primaryIdentifier
  local first = ids and ids[1]
  return first and first:match("^/properties/([^/]+)$") or nil
end

return M
