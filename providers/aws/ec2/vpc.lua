-- AWS::EC2::VPC on the simulated EC2.
--
-- Update behaviours from the CloudFormation reference (AWS::EC2::VPC):
-- CidrBlock Replacement; EnableDnsSupport, EnableDnsHostnames, Tags No
-- interruption; InstanceTenancy "requires no replacement only if you are
-- updating its value from dedicated to default. Updating InstanceTenancy
-- from default to dedicated requires replacement"; Ipv4IpamPoolId and
-- Ipv4NetmaskLength (IPAM allocation) Replacement.
-- Ref is the VPC ID; every VPC gets a default security group and network
-- ACL (attributes DefaultSecurityGroup, DefaultNetworkAcl).

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

local function tenancy_update(old, new)
  if (old or "default") == "dedicated" and (new or "default") == "default" then return "none" end
  return "replace"
end

local function describe(ec2, id)
  local res = cfn.unless_gone(ec2.DescribeVpcs, { VpcIds = { id } })
  return res and res.Vpcs[1] or nil
end

local function attributes(ec2, vpc)
  local assocs = {}
  for _, a in ipairs(vpc.CidrBlockAssociationSet or {}) do assocs[#assocs + 1] = a.AssociationId end
  local sg = ec2.DescribeSecurityGroups { Filters = {
    { Name = "vpc-id", Values = { vpc.VpcId } }, { Name = "group-name", Values = { "default" } } } }.SecurityGroups[1]
  local acl = ec2.DescribeNetworkAcls { Filters = {
    { Name = "vpc-id", Values = { vpc.VpcId } }, { Name = "default", Values = { "true" } } } }.NetworkAcls[1]
  return {
    VpcId = vpc.VpcId, CidrBlock = vpc.CidrBlock, CidrBlockAssociations = assocs,
    DefaultSecurityGroup = sg and sg.GroupId, DefaultNetworkAcl = acl and acl.NetworkAclId,
    Ipv6CidrBlocks = {},
  }
end

local function set_dns(ec2, id, support, hostnames)
  -- EC2 takes one attribute per call; support first, as hostnames needs it.
  if support ~= nil then ec2.ModifyVpcAttribute { VpcId = id, EnableDnsSupport = { Value = support } } end
  if hostnames ~= nil then ec2.ModifyVpcAttribute { VpcId = id, EnableDnsHostnames = { Value = hostnames } } end
end

return P.define {
  type = "AWS::EC2::VPC",
  properties = {
    P.string "CidrBlock" { required = true, update = "replace" },
    P.boolean "EnableDnsHostnames" { update = "none" },
    P.boolean "EnableDnsSupport" { update = "none" },
    P.string "InstanceTenancy" { allowed = { "default", "dedicated", "host" }, update = tenancy_update },
    P.string "Ipv4IpamPoolId" { update = "replace" },
    P.integer "Ipv4NetmaskLength" { update = "replace" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "CidrBlock", "CidrBlockAssociations", "DefaultNetworkAcl", "DefaultSecurityGroup",
                 "Ipv6CidrBlocks", "VpcId" },
  primary_identifier = "VpcId",

  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    local vpc = ec2.CreateVpc { CidrBlock = props.CidrBlock, InstanceTenancy = props.InstanceTenancy,
                                TagSpecifications = cfn.tag_specs(ctx, "vpc", props.Tags) }.Vpc
    set_dns(ec2, vpc.VpcId, props.EnableDnsSupport, props.EnableDnsHostnames)
    return { id = vpc.VpcId, attributes = attributes(ec2, vpc) }
  end,

  update = function(ctx, id, new, old, changed)
    local ec2 = cfn.ec2(ctx)
    for _, name in ipairs(changed) do
      if name == "EnableDnsSupport" then
        set_dns(ec2, id, new.EnableDnsSupport ~= false, nil)
      elseif name == "EnableDnsHostnames" then
        set_dns(ec2, id, nil, new.EnableDnsHostnames == true)
      elseif name == "InstanceTenancy" then
        ec2.ModifyVpcTenancy { VpcId = id, InstanceTenancy = "default" }
      elseif name == "Tags" then
        cfn.update_tags(ctx, ec2, id, old.Tags, new.Tags)
      end
    end
  end,

  -- DeleteVpc; a VPC already gone is deleted. DependencyViolation ("The vpc
  -- 'vpc-…' has dependencies and cannot be deleted.") propagates.
  delete = function(ctx, id, props)
    cfn.unless_gone(cfn.ec2(ctx).DeleteVpc, { VpcId = id })
  end,

  read = function(ctx, id, props)
    local ec2 = cfn.ec2(ctx)
    local vpc = describe(ec2, id)
    if not vpc then return nil end
    local now = {
      CidrBlock = vpc.CidrBlock, InstanceTenancy = vpc.InstanceTenancy, Tags = cfn.tags_of(vpc),
      EnableDnsSupport = ec2.DescribeVpcAttribute { VpcId = id, Attribute = "enableDnsSupport" }.EnableDnsSupport.Value,
      EnableDnsHostnames = ec2.DescribeVpcAttribute { VpcId = id, Attribute = "enableDnsHostnames" }.EnableDnsHostnames.Value,
    }
    local properties = {}
    for k, v in pairs(props or {}) do
      if now[k] ~= nil then properties[k] = now[k] else properties[k] = v end
    end
    return { properties = properties, attributes = attributes(ec2, vpc) }
  end,
}
