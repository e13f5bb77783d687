-- AWS::EC2::VPCGatewayAttachment on the simulated EC2 (internet gateways;
-- the simulation has no VPN gateways).
--
-- Update behaviours (CloudFormation reference): VpcId Replacement;
-- InternetGatewayId No interruption (the old gateway is detached, the new
-- one attached). Ref is the registry's primary identifier
-- (AttachmentType, VpcId) joined as CloudFormation joins a compound one:
-- "IGW|vpc-…"; GetAtt AttachmentType. EC2's answers pass through: a VPC
-- that already has a gateway ("Network vpc-… already has an internet
-- gateway attached"), a gateway attached elsewhere (Resource.AlreadyAssociated).

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

local function attach(ec2, igw, vpc)
  ec2.AttachInternetGateway { InternetGatewayId = igw, VpcId = vpc }
end

local function detach(ec2, igw, vpc)
  cfn.unless_gone(ec2.DetachInternetGateway, { InternetGatewayId = igw, VpcId = vpc })
end

return P.define {
  type = "AWS::EC2::VPCGatewayAttachment",
  properties = {
    P.string "InternetGatewayId" { update = "none" },
    P.string "VpcId" { required = true, update = "replace" },
    P.string "VpnGatewayId" { update = "none" },
  },
  attributes = { "AttachmentType" },

  create = function(ctx, props)
    if props.VpnGatewayId ~= nil then
      return P.fail("VPN gateways are not simulated: give InternetGatewayId", "InvalidRequest")
    end
    if props.InternetGatewayId == nil then
      -- moonstack's wording: the registry schema requires one of the two.
      return P.fail("Either InternetGatewayId or VpnGatewayId must be specified", "InvalidRequest")
    end
    attach(cfn.ec2(ctx), props.InternetGatewayId, props.VpcId)
    return { id = "IGW|" .. props.VpcId, attributes = { AttachmentType = "IGW" } }
  end,

  update = function(ctx, id, new, old, changed)
    local ec2 = cfn.ec2(ctx)
    detach(ec2, old.InternetGatewayId, old.VpcId)
    attach(ec2, new.InternetGatewayId, new.VpcId)
  end,

  delete = function(ctx, id, props)
    local res = cfn.unless_gone(cfn.ec2(ctx).DescribeInternetGateways, { InternetGatewayIds = { props.InternetGatewayId } })
    local g = res and res.InternetGateways[1]
    if g and g.Attachments[1] and g.Attachments[1].VpcId == props.VpcId then
      detach(cfn.ec2(ctx), props.InternetGatewayId, props.VpcId)
    end
  end,

  read = function(ctx, id, props)
    local res = cfn.unless_gone(cfn.ec2(ctx).DescribeInternetGateways, { InternetGatewayIds = { props.InternetGatewayId } })
    local g = res and res.InternetGateways[1]
    if not (g and g.Attachments[1] and g.Attachments[1].VpcId == props.VpcId) then return nil end
    return { properties = props, attributes = { AttachmentType = "IGW" } }
  end,
}
