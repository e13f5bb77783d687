-- AWS::EC2::InternetGateway on the simulated EC2.
--
-- Update behaviours (CloudFormation reference, AWS::EC2::InternetGateway):
-- Tags No interruption. Ref is the gateway ID; GetAtt InternetGatewayId.
-- An attached gateway's delete fails with EC2's DependencyViolation ("The
-- internetGateway 'igw-…' has dependencies and cannot be deleted.").

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

return P.define {
  type = "AWS::EC2::InternetGateway",
  properties = {
    P.tags "Tags" { update = "none" },
  },
  attributes = { "InternetGatewayId" },
  primary_identifier = "InternetGatewayId",

  create = function(ctx, props)
    local g = cfn.ec2(ctx).CreateInternetGateway {
      TagSpecifications = cfn.tag_specs(ctx, "internet-gateway", props.Tags) }.InternetGateway
    return { id = g.InternetGatewayId, attributes = { InternetGatewayId = g.InternetGatewayId } }
  end,

  update = function(ctx, id, new, old, changed)
    cfn.update_tags(ctx, cfn.ec2(ctx), id, old.Tags, new.Tags)
  end,

  delete = function(ctx, id)
    cfn.unless_gone(cfn.ec2(ctx).DeleteInternetGateway, { InternetGatewayId = id })
  end,

  read = function(ctx, id, props)
    local r = cfn.unless_gone(cfn.ec2(ctx).DescribeInternetGateways, { InternetGatewayIds = { id } })
    if not r then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.Tags = cfn.tags_of(r.InternetGateways[1])
    return { properties = properties, attributes = { InternetGatewayId = id } }
  end,
}
