-- AWS::EC2::RouteTable on the simulated EC2.
--
-- Update behaviours (CloudFormation reference): VpcId Replacement, Tags No
-- interruption. Ref is the route table ID; GetAtt RouteTableId. A table
-- with subnet associations refuses delete ("The routeTable 'rtb-…' has
-- dependencies and cannot be deleted.").

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

return P.define {
  type = "AWS::EC2::RouteTable",
  properties = {
    P.tags "Tags" { update = "none" },
    P.string "VpcId" { required = true, update = "replace" },
  },
  attributes = { "RouteTableId" },
  primary_identifier = "RouteTableId",

  create = function(ctx, props)
    local rt = cfn.ec2(ctx).CreateRouteTable { VpcId = props.VpcId,
      TagSpecifications = cfn.tag_specs(ctx, "route-table", props.Tags) }.RouteTable
    return { id = rt.RouteTableId, attributes = { RouteTableId = rt.RouteTableId } }
  end,

  update = function(ctx, id, new, old, changed)
    cfn.update_tags(ctx, cfn.ec2(ctx), id, old.Tags, new.Tags)
  end,

  delete = function(ctx, id)
    cfn.unless_gone(cfn.ec2(ctx).DeleteRouteTable, { RouteTableId = id })
  end,

  read = function(ctx, id, props)
    local r = cfn.unless_gone(cfn.ec2(ctx).DescribeRouteTables, { RouteTableIds = { id } })
    if not r then return nil end
    local rt = r.RouteTables[1]
    return { properties = { VpcId = rt.VpcId, Tags = cfn.tags_of(rt) }, attributes = { RouteTableId = id } }
  end,
}
