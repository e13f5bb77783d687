-- AWS::CDK::Metadata: the resource every CDK app adds to its stacks
-- (CDKMetadata, under the CDKMetadataAvailable condition) to report which
-- constructs it uses. CloudFormation handles it itself; it creates nothing in
-- any service.
--
-- Properties: Analytics (CDK v2: "v2:deflate64:<base64>"), Modules (CDK v1's
-- list of module versions); both update in place. The physical ID is a UUID
-- (a real one: "74a61c80-0208-11ec-9abd-0a5c3cef1144", aws/aws-cdk#16155).
-- No attributes. The world keeps a record so that `read` can tell a
-- deployed resource from a deleted one.

local P = require("moonstack.provider")
local sim = require("sim")
local world = require("moonstack.world")

local KIND = "cdk.metadata"

return P.define {
  type = "AWS::CDK::Metadata",
  properties = {
    P.string "Analytics" { update = "none" },
    P.string "Modules" { update = "none" },
  },

  create = function(ctx, props)
    return world.atomic(function()
      local id = sim.new_id("uuid")
      world.put(KIND, id, { Properties = props })
      return { id = id }
    end)
  end,

  update = function(ctx, id, props)
    world.atomic(function()
      if world.get(KIND, id) == nil then P.fail("Resource " .. id .. " of type AWS::CDK::Metadata does not exist", "NotFound") end
      world.put(KIND, id, { Properties = props })
    end)
  end,

  delete = function(ctx, id)
    world.remove(KIND, id)
  end,

  read = function(ctx, id)
    local r = world.get(KIND, id)
    if r == nil then return nil end
    return { properties = r.Properties }
  end,
}
