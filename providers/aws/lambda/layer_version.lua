-- AWS::Lambda::LayerVersion on the simulated Lambda: PublishLayerVersion.
-- Every property is Replacement (registry schema: all createOnly): a
-- change publishes a new version and deletes the old one. Ref and
-- Fn::GetAtt LayerVersionArn are the version's ARN
-- (arn:aws:lambda:REGION:ACCOUNT:layer:NAME:N). Without LayerName the name
-- is "<stack>-<logical>-<12>" within 140.
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local props_lib = require("lib.service_props")

local function split(arn) return arn:match(":layer:([^:]+):(%d+)$") end

return P.define {
  type = "AWS::Lambda::LayerVersion",
  properties = {
    P.list(P.string) "CompatibleArchitectures" { update = "replace" },
    P.list(P.string) "CompatibleRuntimes" { update = "replace" },
    P.json "Content" { required = true, update = "replace" },
    P.string "Description" { update = "replace" },
    P.string "LayerName" { update = "replace" },
    P.string "LicenseInfo" { update = "replace" },
  },
  attributes = { "LayerVersionArn" },

  create = function(ctx, props)
    local v = ctx.world.lambda.PublishLayerVersion {
      LayerName = props.LayerName or names.physical(ctx.stack_name, ctx.logical_id, 140), Content = props.Content,
      Description = props.Description, CompatibleRuntimes = props.CompatibleRuntimes,
      CompatibleArchitectures = props.CompatibleArchitectures, LicenseInfo = props.LicenseInfo,
    }
    return { id = v.LayerVersionArn, attributes = { LayerVersionArn = v.LayerVersionArn } }
  end,

  delete = function(ctx, id)
    local name, n = split(id)
    ctx.world.lambda.DeleteLayerVersion { LayerName = name, VersionNumber = tonumber(n) }
  end,

  read = function(ctx, id, props)
    if not props_lib.call(ctx.world.lambda.GetLayerVersionByArn, { Arn = id }, { "ResourceNotFoundException" }) then
      return nil
    end
    return { properties = props, attributes = { LayerVersionArn = id } }
  end,
}
