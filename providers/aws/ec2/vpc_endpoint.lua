-- AWS::EC2::VPCEndpoint on the simulated EC2.
--
-- Update behaviours (CloudFormation reference): VpcId, ServiceName,
-- VpcEndpointType Replacement; PolicyDocument, PrivateDnsEnabled,
-- RouteTableIds, SubnetIds, SecurityGroupIds No interruption
-- (ModifyVpcEndpoint); Tags No interruption (CreateTags / DeleteTags, with
-- the stack's tags and CloudFormation's aws:cloudformation:* ones: the
-- registry schema says taggable). Ref is the endpoint ID; GetAtt Id,
-- CreationTimestamp, DnsEntries ("hostedzone:dnsname" texts),
-- NetworkInterfaceIds.

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")
local util = require("sim.cloudformation_util")

-- The policy as the simulated EC2 keeps it: the template's document as is.
local function policy_text(doc) return doc end

local function describe(ec2, id)
  local r = cfn.unless_gone(ec2.DescribeVpcEndpoints, { VpcEndpointIds = { id } })
  return r and r.VpcEndpoints[1] or nil
end

local function attributes(e)
  local dns = {}
  for i, d in ipairs(e.DnsEntries or {}) do dns[i] = d.HostedZoneId .. ":" .. d.DnsName end
  return { Id = e.VpcEndpointId, CreationTimestamp = util.iso8601(e.CreationTimestamp), DnsEntries = dns, NetworkInterfaceIds = e.NetworkInterfaceIds }
end

-- What an update adds and removes from a list property.
local function delta(old, new)
  local was, now, add, remove = {}, {}, {}, {}
  for _, v in ipairs(old or {}) do was[v] = true end
  for _, v in ipairs(new or {}) do now[v] = true; if not was[v] then add[#add + 1] = v end end
  for _, v in ipairs(old or {}) do if not now[v] then remove[#remove + 1] = v end end
  return add, remove
end

return P.define {
  type = "AWS::EC2::VPCEndpoint",
  properties = {
    P.json "PolicyDocument" { update = "none" },
    P.boolean "PrivateDnsEnabled" { update = "none" },
    P.list(P.string) "RouteTableIds" { update = "none" },
    P.list(P.string) "SecurityGroupIds" { update = "none" },
    P.string "ServiceName" { required = true, update = "replace" },
    P.list(P.string) "SubnetIds" { update = "none" },
    P.tags "Tags" { update = "none" },
    P.string "VpcEndpointType" { update = "replace", allowed = { "Gateway", "Interface", "GatewayLoadBalancer" } },
    P.string "VpcId" { required = true, update = "replace" },
  },
  attributes = { "CreationTimestamp", "DnsEntries", "Id", "NetworkInterfaceIds" },
  primary_identifier = "Id",

  create = function(ctx, props)
    local e = cfn.ec2(ctx).CreateVpcEndpoint { VpcId = props.VpcId, ServiceName = props.ServiceName,
      VpcEndpointType = props.VpcEndpointType, RouteTableIds = props.RouteTableIds, SubnetIds = props.SubnetIds,
      SecurityGroupIds = props.SecurityGroupIds, PolicyDocument = policy_text(props.PolicyDocument),
      PrivateDnsEnabled = props.PrivateDnsEnabled,
      TagSpecifications = cfn.tag_specs(ctx, "vpc-endpoint", props.Tags) }.VpcEndpoint
    return { id = e.VpcEndpointId, attributes = attributes(e) }
  end,

  update = function(ctx, id, new, old, changed)
    local ec2 = cfn.ec2(ctx)
    local modify = false
    for _, name in ipairs(changed) do
      if name == "Tags" then cfn.update_tags(ctx, ec2, id, old.Tags, new.Tags) else modify = true end
    end
    if not modify then return end
    local add_rt, remove_rt = delta(old.RouteTableIds, new.RouteTableIds)
    local add_sn, remove_sn = delta(old.SubnetIds, new.SubnetIds)
    ec2.ModifyVpcEndpoint { VpcEndpointId = id, AddRouteTableIds = add_rt, RemoveRouteTableIds = remove_rt,
      AddSubnetIds = add_sn, RemoveSubnetIds = remove_sn, PolicyDocument = policy_text(new.PolicyDocument),
      ResetPolicy = new.PolicyDocument == nil and old.PolicyDocument ~= nil or nil,
      PrivateDnsEnabled = new.PrivateDnsEnabled }
  end,

  delete = function(ctx, id)
    cfn.ec2(ctx).DeleteVpcEndpoints { VpcEndpointIds = { id } }  -- an unknown ID is "Unsuccessful", not an error
  end,

  read = function(ctx, id, props)
    local e = describe(cfn.ec2(ctx), id)
    if not e then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.RouteTableIds = #e.RouteTableIds > 0 and e.RouteTableIds or props.RouteTableIds
    properties.SubnetIds = #e.SubnetIds > 0 and e.SubnetIds or props.SubnetIds
    properties.Tags = cfn.tags_of(e)
    return { properties = properties, attributes = attributes(e) }
  end,
}
