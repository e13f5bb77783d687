-- AWS::EC2::SecurityGroupEgress (a standalone outbound rule) on the
-- simulated EC2.
--
-- Update behaviours from the CloudFormation reference
-- (AWS::EC2::SecurityGroupEgress): every property Replacement except
-- Description (No interruption). Ref is the rule's ID (sgr-…), as EC2
-- returns it from AuthorizeSecurityGroupEgress; deleting revokes the rule.

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

local function describe(ec2, id)
  local res = cfn.unless_gone(ec2.DescribeSecurityGroupRules, { SecurityGroupRuleIds = { id } })
  return res and res.SecurityGroupRules[1] or nil
end

return P.define {
  type = "AWS::EC2::SecurityGroupEgress",
  properties = {
    P.string "CidrIp" { update = "replace" },
    P.string "CidrIpv6" { update = "replace" },
    P.string "Description" { update = "none" },
    P.string "DestinationPrefixListId" { update = "replace" },
    P.string "DestinationSecurityGroupId" { update = "replace" },
    P.integer "FromPort" { update = "replace" },
    P.string "GroupId" { required = true, update = "replace" },
    P.string "IpProtocol" { required = true, update = "replace" },
    P.integer "ToPort" { update = "replace" },
  },
  attributes = { "Id" },

  create = function(ctx, props)
    local rule = cfn.ec2(ctx).AuthorizeSecurityGroupEgress {
      GroupId = props.GroupId, IpPermissions = { cfn.permission(props, true) } }.SecurityGroupRules[1]
    return { id = rule.SecurityGroupRuleId, attributes = { Id = rule.SecurityGroupRuleId } }
  end,

  update = function(ctx, id, new, old, changed)
    cfn.ec2(ctx).UpdateSecurityGroupRuleDescriptionsEgress { GroupId = new.GroupId,
      SecurityGroupRuleDescriptions = { { SecurityGroupRuleId = id, Description = new.Description or "" } } }
  end,

  -- RevokeSecurityGroupEgress by rule ID; a rule or group already gone is
  -- deleted.
  delete = function(ctx, id, props)
    cfn.unless_gone(cfn.ec2(ctx).RevokeSecurityGroupEgress, { GroupId = props.GroupId, SecurityGroupRuleIds = { id } })
  end,

  read = function(ctx, id, props)
    local rule = describe(cfn.ec2(ctx), id)
    if not rule or not rule.IsEgress then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.Description = rule.Description
    return { properties = properties, attributes = { Id = id } }
  end,
}
