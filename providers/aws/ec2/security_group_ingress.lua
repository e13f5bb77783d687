-- AWS::EC2::SecurityGroupIngress (a standalone inbound rule) on the
-- simulated EC2.
--
-- Update behaviours from the CloudFormation reference
-- (AWS::EC2::SecurityGroupIngress): every property Replacement except
-- Description (No interruption). Ref is the rule's ID (sgr-…), as EC2
-- returns it from AuthorizeSecurityGroupIngress; deleting revokes the rule.

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

local function group(props)
  if props.GroupId then return { GroupId = props.GroupId } end
  return { GroupName = props.GroupName }
end

local function describe(ec2, id)
  local res = cfn.unless_gone(ec2.DescribeSecurityGroupRules, { SecurityGroupRuleIds = { id } })
  return res and res.SecurityGroupRules[1] or nil
end

return P.define {
  type = "AWS::EC2::SecurityGroupIngress",
  properties = {
    P.string "CidrIp" { update = "replace" },
    P.string "CidrIpv6" { update = "replace" },
    P.string "Description" { update = "none" },
    P.integer "FromPort" { update = "replace" },
    P.string "GroupId" { update = "replace" },
    P.string "GroupName" { update = "replace" },
    P.string "IpProtocol" { required = true, update = "replace" },
    P.string "SourcePrefixListId" { update = "replace" },
    P.string "SourceSecurityGroupId" { update = "replace" },
    P.string "SourceSecurityGroupName" { update = "replace" },
    P.string "SourceSecurityGroupOwnerId" { update = "replace" },
    P.integer "ToPort" { update = "replace" },
  },
  attributes = { "Id" },

  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    local req = group(props)
    req.IpPermissions = { cfn.permission(props, false) }
    local rule = ec2.AuthorizeSecurityGroupIngress(req).SecurityGroupRules[1]
    return { id = rule.SecurityGroupRuleId, attributes = { Id = rule.SecurityGroupRuleId } }
  end,

  update = function(ctx, id, new, old, changed)
    local ec2 = cfn.ec2(ctx)
    local req = group(new)
    req.SecurityGroupRuleDescriptions = { { SecurityGroupRuleId = id, Description = new.Description or "" } }
    ec2.UpdateSecurityGroupRuleDescriptionsIngress(req)
  end,

  -- RevokeSecurityGroupIngress by rule ID; a rule or group already gone is
  -- deleted.
  delete = function(ctx, id, props)
    local req = group(props)
    req.SecurityGroupRuleIds = { id }
    cfn.unless_gone(cfn.ec2(ctx).RevokeSecurityGroupIngress, req)
  end,

  read = function(ctx, id, props)
    local rule = describe(cfn.ec2(ctx), id)
    if not rule or rule.IsEgress then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.Description = rule.Description
    return { properties = properties, attributes = { Id = id } }
  end,
}
