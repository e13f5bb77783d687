-- AWS::KMS::Alias on the simulated KMS.
--
-- Update behaviours (CloudFormation reference, AWS::KMS::Alias): AliasName
-- Replacement; TargetKeyId No interruption (UpdateAlias). Ref is the alias
-- name. KMS checks the name ("Alias must start with the prefix
-- \"alias/\"…", no "alias/aws/") and that the target key exists.

local P = require("moonstack.provider")
local sim = require("sim")
local errors = require("moonstack.errors")

local function kms(ctx)
  local client = type(ctx) == "table" and type(ctx.world) == "table" and ctx.world.kms and ctx.world or sim.client(ctx)
  return client.kms
end

return P.define {
  type = "AWS::KMS::Alias",
  properties = {
    P.string "AliasName" { required = true, update = "replace" },
    P.string "TargetKeyId" { required = true, update = "none" },
  },
  attributes = {},
  primary_identifier = "AliasName",

  create = function(ctx, props)
    kms(ctx).CreateAlias { AliasName = props.AliasName, TargetKeyId = props.TargetKeyId }
    return { id = props.AliasName, attributes = {} }
  end,

  update = function(ctx, id, new)
    kms(ctx).UpdateAlias { AliasName = id, TargetKeyId = new.TargetKeyId }
  end,

  delete = function(ctx, id)
    local ok, err = pcall(kms(ctx).DeleteAlias, { AliasName = id })
    if not ok and select(2, errors.message(err)) ~= "NotFoundException" then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local key = props and props.TargetKeyId
    local ok, r = pcall(kms(ctx).DescribeKey, { KeyId = id })
    if not ok then return nil end
    return { properties = { AliasName = id, TargetKeyId = key and (key == r.KeyMetadata.KeyId or key == r.KeyMetadata.Arn)
      and key or r.KeyMetadata.KeyId }, attributes = {} }
  end,
}
