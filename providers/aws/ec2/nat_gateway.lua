-- AWS::EC2::NatGateway on the simulated EC2.
--
-- Update behaviours (CloudFormation reference): AllocationId, SubnetId,
-- ConnectivityType, PrivateIpAddress Replacement; Tags No interruption.
-- Ref is the NAT gateway ID; GetAtt NatGatewayId. Create waits (in
-- simulated time) until EC2 says "available"; delete until "deleted".
-- A public gateway needs an Elastic IP allocation.

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

local function state(ec2, id)
  local r = cfn.unless_gone(ec2.DescribeNatGateways, { NatGatewayIds = { id } })
  local g = r and r.NatGateways[1]
  return g and g.State or nil, g
end

return P.define {
  type = "AWS::EC2::NatGateway",
  properties = {
    P.string "AllocationId" { update = "replace" },
    P.string "ConnectivityType" { update = "replace", allowed = { "public", "private" } },
    P.string "PrivateIpAddress" { update = "replace" },
    P.string "SubnetId" { required = true, update = "replace" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "NatGatewayId" },
  primary_identifier = "NatGatewayId",
  timeout_minutes = 30,

  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    local id = ctx.progress and ctx.progress.id
    if not id then
      id = ec2.CreateNatGateway { SubnetId = props.SubnetId, AllocationId = props.AllocationId,
        ConnectivityType = props.ConnectivityType,
        TagSpecifications = cfn.tag_specs(ctx, "natgateway", props.Tags) }.NatGateway.NatGatewayId
    end
    local s = state(ec2, id)
    if s == "pending" then return P.in_progress { after = cfn.POLL_SECONDS, context = { id = id }, id = id } end
    if s ~= "available" then return P.fail("NAT gateway " .. id .. " went to " .. tostring(s), "NotStabilized") end
    return { id = id, attributes = { NatGatewayId = id } }
  end,

  update = function(ctx, id, new, old)
    cfn.update_tags(ctx, cfn.ec2(ctx), id, old.Tags, new.Tags)
  end,

  delete = function(ctx, id)
    local ec2 = cfn.ec2(ctx)
    if not ctx.progress then cfn.unless_gone(ec2.DeleteNatGateway, { NatGatewayId = id }) end
    local s = state(ec2, id)
    if s == nil or s == "deleted" then return end
    return P.in_progress { after = cfn.POLL_SECONDS, context = { deleting = true } }
  end,

  read = function(ctx, id, props)
    local s, g = state(cfn.ec2(ctx), id)
    if s == nil or s == "deleted" or s == "deleting" then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.Tags = cfn.tags_of(g)
    return { properties = properties, attributes = { NatGatewayId = id } }
  end,
}
