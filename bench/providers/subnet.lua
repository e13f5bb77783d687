-- The provider bench_lua_provider_call drives: ten declared properties in,
-- an id and three attributes out.
local P = require("moonstack.provider")

return P.define {
  type = "Bench::EC2::Subnet",
  properties = {
    P.string "VpcId" { required = true, update = "replace" },
    P.string "CidrBlock" { required = true, update = "replace" },
    P.string "AvailabilityZone" { update = "replace" },
    P.boolean "MapPublicIpOnLaunch" { update = "none" },
    P.boolean "AssignIpv6AddressOnCreation" { update = "none" },
    P.string "Ipv6CidrBlock" { update = "none" },
    P.integer "Ipv4NetmaskLength" { update = "replace" },
    P.string "OutpostArn" { update = "replace" },
    P.boolean "EnableDns64" { update = "none" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "SubnetId", "VpcId", "AvailabilityZone" },
  create = function(ctx, props)
    local id = "subnet-" .. props.CidrBlock:gsub("[^0-9]", "")
    return { id = id, attributes = { SubnetId = id, VpcId = props.VpcId,
                                     AvailabilityZone = props.AvailabilityZone or "us-east-1a" } }
  end,
  update = function() return {} end,
  delete = function() end,
}
