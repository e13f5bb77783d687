-- AWS::EC2::SubnetRouteTableAssociation on the simulated EC2.
--
-- Update behaviours (CloudFormation reference): RouteTableId, SubnetId
-- Replacement. Ref is the association ID (rtbassoc-…); GetAtt Id. A subnet
-- has one explicit association ("the specified association for route table
-- rtb-… conflicts with an existing association"): a replacement (a new
-- RouteTableId) is created while the old association still holds the
-- subnet, so create moves the subnet's association with
-- ReplaceRouteTableAssociation, and the old one's delete finds it gone.

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

return P.define {
  type = "AWS::EC2::SubnetRouteTableAssociation",
  properties = {
    P.string "RouteTableId" { required = true, update = "replace" },
    P.string "SubnetId" { required = true, update = "replace" },
  },
  attributes = { "Id" },
  primary_identifier = "Id",

  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    local held = ec2.DescribeRouteTables { Filters = {
      { Name = "association.subnet-id", Values = { props.SubnetId } } } }.RouteTables[1]
    local id
    if held then
      for _, a in ipairs(held.Associations) do
        if a.SubnetId == props.SubnetId then
          id = ec2.ReplaceRouteTableAssociation { AssociationId = a.RouteTableAssociationId,
                                                   RouteTableId = props.RouteTableId }.NewAssociationId
        end
      end
    end
    id = id or ec2.AssociateRouteTable { RouteTableId = props.RouteTableId, SubnetId = props.SubnetId }.AssociationId
    return { id = id, attributes = { Id = id } }
  end,

  delete = function(ctx, id)
    local ok, err = pcall(cfn.ec2(ctx).DisassociateRouteTable, { AssociationId = id })
    if not ok and not cfn.not_found(err) then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local r = cfn.unless_gone(cfn.ec2(ctx).DescribeRouteTables, { RouteTableIds = { props.RouteTableId } })
    local rt = r and r.RouteTables[1]
    if not rt then return nil end
    for _, a in ipairs(rt.Associations) do
      if a.RouteTableAssociationId == id then
        return { properties = { RouteTableId = rt.RouteTableId, SubnetId = a.SubnetId }, attributes = { Id = id } }
      end
    end
    return nil
  end,
}
