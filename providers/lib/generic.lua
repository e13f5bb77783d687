-- lib.generic: a provider made from a resource type's registry schema, for
-- the AWS types that have no Lua provider of their own (AWS::EC2::RouteTable,
-- AWS::S3::Bucket, ...), so real templates deploy against the simulated
-- cloud. The host builds one per type from the engine's resource catalog
-- (engine/catalog): every top-level property, required as the schema says,
-- "replace" when the schema lists it create-only and "none" otherwise (the
-- registry's own reading of "Update requires"), and the type's GetAtt names.
--
-- What such a resource does is only bookkeeping: a record in the world
-- (kind "generic.<Type>") holding its properties, a physical ID in the
-- type's usual format, and deterministic attribute values.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local sim = require("sim")
local world = require("moonstack.world")

local G = {}

-- Types whose Ref is an EC2-style "<prefix>-0" + 16 hex ID.
local EC2_PREFIX = {
  ["AWS::EC2::RouteTable"] = "rtb", ["AWS::EC2::InternetGateway"] = "igw",
  ["AWS::EC2::EgressOnlyInternetGateway"] = "eigw", ["AWS::EC2::NatGateway"] = "nat",
  ["AWS::EC2::NetworkAcl"] = "acl", ["AWS::EC2::NetworkInterface"] = "eni",
  ["AWS::EC2::VPCEndpoint"] = "vpce", ["AWS::EC2::SubnetRouteTableAssociation"] = "rtbassoc",
  ["AWS::EC2::SubnetNetworkAclAssociation"] = "aclassoc", ["AWS::EC2::TransitGateway"] = "tgw",
  ["AWS::EC2::VPNGateway"] = "vgw", ["AWS::EC2::CustomerGateway"] = "cgw",
  ["AWS::EC2::LaunchTemplate"] = "lt", ["AWS::EC2::Volume"] = "vol",
  ["AWS::EC2::DHCPOptions"] = "dopt", ["AWS::EC2::VPCPeeringConnection"] = "pcx",
  ["AWS::EC2::FlowLog"] = "fl", ["AWS::EC2::PrefixList"] = "pl",
  ["AWS::EC2::NetworkInterfaceAttachment"] = "attach", ["AWS::EC2::VPNConnection"] = "vpn",
}

-- CloudFormation's generated physical name, <stack>-<logical>-<12 random>.
local function generated_name(ctx)
  return names.physical(ctx.stack_name or "stack", ctx.logical_id or "Resource", 64)
end

local function physical_id(type_name, ctx)
  local prefix = EC2_PREFIX[type_name]
  if prefix then return sim.new_id("resource", prefix) end
  if type_name == "AWS::EC2::EIP" then  -- Ref of an EIP is its public address
    return "3." .. sim.new_id("int", 256) .. "." .. sim.new_id("int", 256) .. "." .. (sim.new_id("int", 254) + 1)
  end
  return generated_name(ctx)
end

-- ARN formats that differ from "<service>:<region>:<account>:<resource>/<id>".
local ARN_FORMATS = {
  ["AWS::Lambda::Function"] = "arn:aws:lambda:%s:%s:function:%s",
  ["AWS::SNS::Topic"] = "arn:aws:sns:%s:%s:%s",
  ["AWS::SQS::Queue"] = "arn:aws:sqs:%s:%s:%s",
}

-- "AWS::S3::Bucket" -> service "s3", resource "bucket".
local function arn_for(type_name, ctx, id)
  local format = ARN_FORMATS[type_name]
  if format then return string.format(format, ctx.region or "us-east-1", ctx.account or "123456789012", id) end
  local _, service, resource = type_name:match("^(%w+)::([%w]+)::([%w]+)$")
  service, resource = (service or "service"):lower(), (resource or "resource"):lower()
  return "arn:aws:" .. service .. ":" .. (ctx.region or "us-east-1") .. ":" .. (ctx.account or "123456789012")
      .. ":" .. resource .. "/" .. id
end

-- A deterministic value per attribute: ARNs look like ARNs, an attribute that
-- is also a given property echoes it, "...Id" is the physical ID, anything
-- else is "<id>.<Name>".
local function attribute_values(decl, ctx, id, props)
  local out = {}
  for _, name in ipairs(decl.attributes) do
    local last = name:match("([%w]+)$") or name
    if last == "Arn" or last:sub(-3) == "Arn" then
      out[name] = arn_for(decl.type, ctx, id)
    elseif type(props[name]) == "string" then
      out[name] = props[name]
    elseif last:sub(-2) == "Id" then
      out[name] = id
    else
      out[name] = id .. "." .. name
    end
  end
  return out
end

local function kind(type_name) return "generic." .. type_name end

---The declaration for one catalog type.
---@param info { type: string, properties: { name: string, required: boolean, create_only: boolean }[], attributes: string[], any_attributes: boolean? }
---@return moonstack.Declaration
function G.define(info)
  local props = {}
  for i, p in ipairs(info.properties) do
    props[i] = P.json(p.name) { required = p.required == true, update = p.create_only and "replace" or "none" }
  end
  local decl
  decl = P.define({
    type = info.type,
    description = "generic provider from the registry schema of " .. info.type,
    properties = props,
    attributes = info.attributes,
    any_attributes = info.any_attributes == true,

    create = function(ctx, given)
      return world.atomic(function()
        local id = physical_id(info.type, ctx)
        local attrs = attribute_values(decl, ctx, id, given)
        world.put(kind(info.type), id, { Properties = given, Attributes = attrs })
        return { id = id, attributes = attrs }
      end)
    end,

    update = function(ctx, id, new)
      return world.atomic(function()
        local r = world.get(kind(info.type), id)
        if r == nil then P.fail("Resource " .. id .. " of type " .. info.type .. " does not exist", "NotFound") end
        r.Properties = new
        world.put(kind(info.type), id, r)
      end)
    end,

    delete = function(ctx, id)
      world.remove(kind(info.type), id)  -- gone already: nothing to do
    end,

    read = function(ctx, id)
      local r = world.get(kind(info.type), id)
      if r == nil then return nil end
      return { properties = r.Properties, attributes = r.Attributes }
    end,
  }, "generic provider for " .. info.type)
  return decl
end

return G
