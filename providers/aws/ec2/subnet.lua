-- AWS::EC2::Subnet on the simulated EC2.
--
-- Update behaviours from the CloudFormation reference (AWS::EC2::Subnet):
-- VpcId, CidrBlock, AvailabilityZone Replacement; MapPublicIpOnLaunch,
-- AssignIpv6AddressOnCreation, Ipv6CidrBlock, Tags No interruption.
-- Ref is the subnet ID.

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

local function describe(ec2, id)
  local res = cfn.unless_gone(ec2.DescribeSubnets, { SubnetIds = { id } })
  return res and res.Subnets[1] or nil
end

local function attributes(ec2, s)
  local acl = ec2.DescribeNetworkAcls { Filters = { { Name = "vpc-id", Values = { s.VpcId } } } }.NetworkAcls[1]
  local assoc
  for _, a in ipairs(acl and acl.Associations or {}) do
    if a.SubnetId == s.SubnetId then assoc = a.NetworkAclAssociationId end
  end
  return {
    SubnetId = s.SubnetId, VpcId = s.VpcId, AvailabilityZone = s.AvailabilityZone, CidrBlock = s.CidrBlock,
    Ipv6CidrBlocks = {}, NetworkAclAssociationId = assoc,
  }
end

return P.define {
  type = "AWS::EC2::Subnet",
  properties = {
    P.boolean "AssignIpv6AddressOnCreation" { update = "none" },
    P.string "AvailabilityZone" { update = "replace" },
    P.string "CidrBlock" { required = true, update = "replace" },
    P.string "Ipv6CidrBlock" { update = "none" },
    P.boolean "MapPublicIpOnLaunch" { update = "none" },
    P.tags "Tags" { update = "none" },
    P.string "VpcId" { required = true, update = "replace" },
  },
  attributes = { "AvailabilityZone", "CidrBlock", "Ipv6CidrBlocks", "NetworkAclAssociationId", "SubnetId", "VpcId" },
  primary_identifier = "SubnetId",

  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    local s = ec2.CreateSubnet { VpcId = props.VpcId, CidrBlock = props.CidrBlock,
                                 AvailabilityZone = props.AvailabilityZone,
                                 TagSpecifications = cfn.tag_specs(ctx, "subnet", props.Tags) }.Subnet
    if props.MapPublicIpOnLaunch then
      ec2.ModifySubnetAttribute { SubnetId = s.SubnetId, MapPublicIpOnLaunch = { Value = true } }
    end
    if props.AssignIpv6AddressOnCreation then
      ec2.ModifySubnetAttribute { SubnetId = s.SubnetId, AssignIpv6AddressOnCreation = { Value = true } }
    end
    return { id = s.SubnetId, attributes = attributes(ec2, s) }
  end,

  update = function(ctx, id, new, old, changed)
    local ec2 = cfn.ec2(ctx)
    for _, name in ipairs(changed) do
      if name == "MapPublicIpOnLaunch" then
        ec2.ModifySubnetAttribute { SubnetId = id, MapPublicIpOnLaunch = { Value = new.MapPublicIpOnLaunch == true } }
      elseif name == "AssignIpv6AddressOnCreation" then
        ec2.ModifySubnetAttribute { SubnetId = id,
          AssignIpv6AddressOnCreation = { Value = new.AssignIpv6AddressOnCreation == true } }
      elseif name == "Tags" then
        cfn.update_tags(ctx, ec2, id, old.Tags, new.Tags)
      end
      -- Ipv6CidrBlock: the simulated EC2 has no IPv6 addressing.
    end
  end,

  -- DeleteSubnet; a subnet already gone is deleted. "The subnet 'subnet-…'
  -- has dependencies and cannot be deleted." propagates.
  delete = function(ctx, id, props)
    cfn.unless_gone(cfn.ec2(ctx).DeleteSubnet, { SubnetId = id })
  end,

  read = function(ctx, id, props)
    local ec2 = cfn.ec2(ctx)
    local s = describe(ec2, id)
    if not s then return nil end
    local now = {
      VpcId = s.VpcId, CidrBlock = s.CidrBlock, AvailabilityZone = s.AvailabilityZone,
      MapPublicIpOnLaunch = s.MapPublicIpOnLaunch, AssignIpv6AddressOnCreation = s.AssignIpv6AddressOnCreation,
      Tags = cfn.tags_of(s),
    }
    local properties = {}
    for k, v in pairs(props or {}) do
      if now[k] ~= nil then properties[k] = now[k] else properties[k] = v end
    end
    return { properties = properties, attributes = attributes(ec2, s) }
  end,
}
