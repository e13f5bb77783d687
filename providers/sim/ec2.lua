-- sim.ec2: the simulated EC2 service. Actions carry AWS's names, request and
-- response shapes and error messages (see sim/init.lua for the calling
-- convention). The work is split by resource:
--
--   sim/ec2/images.lua     RegisterImage, DeregisterImage, DescribeImages,
--                          CreateKeyPair, DeleteKeyPair, DescribeKeyPairs
--   sim/ec2/instances.lua  RunInstances, DescribeInstances, Stop/Start/
--                          Terminate/RebootInstances, ModifyInstanceAttribute, ...
--   sim/ec2/network.lua    CreateVpc, DeleteVpc, DescribeVpcs, ModifyVpcAttribute,
--                          CreateSubnet, DeleteSubnet, DescribeSubnets, ...
--   sim/ec2/groups.lua     CreateSecurityGroup, DeleteSecurityGroup,
--                          Authorize/RevokeSecurityGroupIngress/Egress, ...
--   sim/ec2/tagging.lua    CreateTags, DeleteTags, DescribeTags
--   sim/ec2/launch_templates.lua  Create/Modify/Delete/DescribeLaunchTemplate(s),
--                          Create/DescribeLaunchTemplateVersion(s)
--   sim/ec2/gateways.lua   Create/Attach/Detach/Delete/DescribeInternetGateway(s),
--                          Allocate/Release/DescribeAddress(es), Create/Delete/DescribeNatGateway(s)
--   sim/ec2/routes.lua     Create/Delete/DescribeRouteTable(s), Create/Replace/DeleteRoute,
--                          Associate/DisassociateRouteTable
--   sim/ec2/endpoints.lua  Create/Modify/DeleteVpcEndpoint(s), DescribeVpcEndpoints,
--                          Create/DeleteNetworkAcl
--   (sim/ec2/kinds.lua says how the records of those three are stored)
--
-- Lower-case fields are helpers, not actions: `exists(kind, value)`.

local world = require("sim.world")
local C = require("sim.ec2.common")
local images = require("sim.ec2.images")
local instances = require("sim.ec2.instances")
local network = require("sim.ec2.network")
local groups = require("sim.ec2.groups")
local tagging = require("sim.ec2.tagging")
local launch_templates = require("sim.ec2.launch_templates")
local gateways = require("sim.ec2.gateways")
local routes = require("sim.ec2.routes")
local endpoints = require("sim.ec2.endpoints")

local M = {}

for _, part in ipairs({ images, instances, network, groups, tagging, launch_templates, gateways, routes, endpoints }) do
  for name, fn in pairs(part.actions) do
    assert(M[name] == nil, "sim.ec2: action " .. name .. " defined twice")
    M[name] = fn
  end
end

local CHECKS = {
  ["AWS::EC2::Image::Id"] = function(v, env)
    return C.well_formed(v, "ami") and images.image(v, env) ~= nil
  end,
  ["AWS::EC2::KeyPair::KeyName"] = function(v) return images.key_pair(v) ~= nil end,
  ["AWS::EC2::VPC::Id"] = function(v) return network.vpc(v) ~= nil end,
  ["AWS::EC2::Subnet::Id"] = function(v) return network.subnet(v) ~= nil end,
  ["AWS::EC2::SecurityGroup::Id"] = function(v) return groups.group(v) ~= nil end,
  ["AWS::EC2::Instance::Id"] = function(v, env) return instances.settled_live(v, env) end,
  ["AWS::EC2::AvailabilityZone::Name"] = function(v, env) return C.zone_exists(env.region, v) end,
}

---Whether an AWS-specific parameter value exists in the world, for
---CloudFormation's "Parameter validation failed: parameter value X for
---parameter name P does not exist". `kind` is the parameter type
---("AWS::EC2::Image::Id", "AWS::EC2::KeyPair::KeyName", "AWS::EC2::VPC::Id",
---"AWS::EC2::Subnet::Id", "AWS::EC2::SecurityGroup::Id",
---"AWS::EC2::Instance::Id", "AWS::EC2::AvailabilityZone::Name").
---Returns nil for a kind this service does not know.
---@param kind string
---@param value any
---@param opts { region: string? }?
---@return boolean?
function M.exists(kind, value, opts)
  local check = CHECKS[kind]
  if not check then return nil end
  if type(value) ~= "string" then return false end
  local env = { region = opts and opts.region or "us-east-1" }
  return world.atomic(function()
    env.now_ms = world.now_ms()
    return check(value, env) == true
  end)
end

return M
