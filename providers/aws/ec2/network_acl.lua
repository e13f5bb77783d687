-- AWS::EC2::NetworkAcl on the simulated EC2.
--
-- Update behaviours (CloudFormation reference): VpcId Replacement, Tags No
-- interruption. Ref is the ACL ID; GetAtt Id.

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

return P.define {
  type = "AWS::EC2::NetworkAcl",
  properties = {
    P.tags "Tags" { update = "none" },
    P.string "VpcId" { required = true, update = "replace" },
  },
  attributes = { "Id" },
  primary_identifier = "Id",

  create = function(ctx, props)
    local acl = cfn.ec2(ctx).CreateNetworkAcl { VpcId = props.VpcId,
      TagSpecifications = cfn.tag_specs(ctx, "network-acl", props.Tags) }.NetworkAcl
    return { id = acl.NetworkAclId, attributes = { Id = acl.NetworkAclId } }
  end,

  update = function(ctx, id, new, old)
    cfn.update_tags(ctx, cfn.ec2(ctx), id, old.Tags, new.Tags)
  end,

  delete = function(ctx, id)
    cfn.unless_gone(cfn.ec2(ctx).DeleteNetworkAcl, { NetworkAclId = id })
  end,

  read = function(ctx, id, props)
    local r = cfn.unless_gone(cfn.ec2(ctx).DescribeNetworkAcls, { NetworkAclIds = { id } })
    local acl = r and r.NetworkAcls[1]
    if not acl then return nil end
    return { properties = { VpcId = acl.VpcId, Tags = cfn.tags_of(acl) }, attributes = { Id = id } }
  end,
}
