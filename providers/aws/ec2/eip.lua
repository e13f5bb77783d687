-- AWS::EC2::EIP on the simulated EC2 (VPC addresses).
--
-- Update behaviours (CloudFormation reference): Domain, PublicIpv4Pool,
-- NetworkBorderGroup, TransferAddress Replacement; InstanceId, Tags No
-- interruption. Ref is the public IP address; GetAtt AllocationId and
-- PublicIp. InstanceId associates the address (AssociateAddress); delete
-- disassociates, then releases. An address a NAT gateway uses refuses
-- release ("Address … is in use.").

local P = require("moonstack.provider")
local cfn = require("sim.ec2.cfn")

-- The physical ID is the public IP; the allocation ID is found by it.
local function by_ip(ec2, ip)
  local r = cfn.unless_gone(ec2.DescribeAddresses, { PublicIps = { ip } })
  return r and r.Addresses[1] or nil
end

return P.define {
  type = "AWS::EC2::EIP",
  properties = {
    P.string "Domain" { update = "replace", allowed = { "vpc", "standard" } },
    P.string "InstanceId" { update = "none" },
    P.string "NetworkBorderGroup" { update = "replace" },
    P.string "PublicIpv4Pool" { update = "replace" },
    P.tags "Tags" { update = "none" },
    P.string "TransferAddress" { update = "replace" },
  },
  attributes = { "AllocationId", "PublicIp" },

  create = function(ctx, props)
    local ec2 = cfn.ec2(ctx)
    local a = ec2.AllocateAddress { Domain = props.Domain or "vpc",
      TagSpecifications = cfn.tag_specs(ctx, "elastic-ip", props.Tags) }
    if props.InstanceId ~= nil then
      local ok, err = pcall(ec2.AssociateAddress, { AllocationId = a.AllocationId, InstanceId = props.InstanceId })
      if not ok then  -- nothing half-made: the address goes back
        ec2.ReleaseAddress { AllocationId = a.AllocationId }
        error(err, 0)
      end
    end
    return { id = a.PublicIp, attributes = { AllocationId = a.AllocationId, PublicIp = a.PublicIp } }
  end,

  update = function(ctx, id, new, old, changed)
    local ec2 = cfn.ec2(ctx)
    local a = by_ip(ec2, id)
    if not a then return P.fail("The address " .. id .. " does not exist", "NotFound") end
    for _, name in ipairs(changed) do
      if name == "Tags" then cfn.update_tags(ctx, ec2, a.AllocationId, old.Tags, new.Tags) end
      if name == "InstanceId" then
        if a.AssociationId then ec2.DisassociateAddress { AssociationId = a.AssociationId } end
        if new.InstanceId ~= nil then ec2.AssociateAddress { AllocationId = a.AllocationId, InstanceId = new.InstanceId } end
      end
    end
  end,

  delete = function(ctx, id)
    local ec2 = cfn.ec2(ctx)
    local a = by_ip(ec2, id)
    if not a then return end
    if a.AssociationId then ec2.DisassociateAddress { AssociationId = a.AssociationId } end
    cfn.unless_gone(ec2.ReleaseAddress, { AllocationId = a.AllocationId })
  end,

  read = function(ctx, id, props)
    local ec2 = cfn.ec2(ctx)
    local a = by_ip(ec2, id)
    if not a then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.Tags = cfn.tags_of(a)
    properties.InstanceId = a.InstanceId
    return { properties = properties, attributes = { AllocationId = a.AllocationId, PublicIp = a.PublicIp } }
  end,
}
