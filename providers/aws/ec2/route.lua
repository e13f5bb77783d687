-- AWS::EC2::Route on the simulated EC2.
--
-- Update behaviours (CloudFormation reference): RouteTableId,
-- DestinationCidrBlock, DestinationIpv6CidrBlock Replacement; the targets
-- (GatewayId, NatGatewayId, InstanceId, ...) No interruption (ReplaceRoute).
-- Ref is the registry's primary identifier (RouteTableId, CidrBlock) joined
-- as "rtb-…|0.0.0.0/0"; GetAtt CidrBlock. EC2 checks the target: a gateway
-- not attached to the table's VPC fails with "route table rtb-… and network
-- gateway igw-… belong to different networks".

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

local TARGETS = { "CarrierGatewayId", "CoreNetworkArn", "EgressOnlyInternetGatewayId", "GatewayId", "InstanceId",
                  "LocalGatewayId", "NatGatewayId", "NetworkInterfaceId", "TransitGatewayId", "VpcEndpointId",
                  "VpcPeeringConnectionId" }

local properties = {
  P.string "DestinationCidrBlock" { update = "replace" },
  P.string "DestinationIpv6CidrBlock" { update = "replace" },
  P.string "DestinationPrefixListId" { update = "replace" },
  P.string "RouteTableId" { required = true, update = "replace" },
}
for _, t in ipairs(TARGETS) do properties[#properties + 1] = P.string(t) { update = "none" } end

local function request(props)
  local r = { RouteTableId = props.RouteTableId, DestinationCidrBlock = props.DestinationCidrBlock,
              DestinationIpv6CidrBlock = props.DestinationIpv6CidrBlock,
              DestinationPrefixListId = props.DestinationPrefixListId }
  for _, t in ipairs(TARGETS) do r[t] = props[t] end
  return r
end

local function destination(props)
  return props.DestinationCidrBlock or props.DestinationIpv6CidrBlock or props.DestinationPrefixListId
end

return P.define {
  type = "AWS::EC2::Route",
  properties = properties,
  attributes = { "CidrBlock" },

  create = function(ctx, props)
    cfn.ec2(ctx).CreateRoute(request(props))
    local dest = destination(props)
    return { id = props.RouteTableId .. "|" .. dest, attributes = { CidrBlock = dest } }
  end,

  update = function(ctx, id, new)
    cfn.ec2(ctx).ReplaceRoute(request(new))
  end,

  delete = function(ctx, id, props)
    local ok, err = pcall(cfn.ec2(ctx).DeleteRoute, { RouteTableId = props.RouteTableId,
      DestinationCidrBlock = props.DestinationCidrBlock, DestinationIpv6CidrBlock = props.DestinationIpv6CidrBlock,
      DestinationPrefixListId = props.DestinationPrefixListId })
    if not ok and not cfn.not_found(err) then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local r = cfn.unless_gone(cfn.ec2(ctx).DescribeRouteTables, { RouteTableIds = { props.RouteTableId } })
    if not r then return nil end
    local dest = destination(props)
    for _, route in ipairs(r.RouteTables[1].Routes) do
      if (route.DestinationCidrBlock or route.DestinationIpv6CidrBlock or route.DestinationPrefixListId) == dest then
        local now = { RouteTableId = props.RouteTableId, DestinationCidrBlock = route.DestinationCidrBlock,
                      DestinationIpv6CidrBlock = route.DestinationIpv6CidrBlock,
                      DestinationPrefixListId = route.DestinationPrefixListId }
        for _, t in ipairs(TARGETS) do now[t] = route[t] end
        return { properties = now, attributes = { CidrBlock = dest } }
      end
    end
    return nil
  end,
}
