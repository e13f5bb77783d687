-- AWS::KMS::Alias on the simulated KMS.
--
-- Update behaviours (CloudFormation reference, AWS::KMS::Alias): AliasName
-- Replacement; TargetKeyId No interruption (UpdateAlias). Ref is the alias
-- name. KMS checks the name ("Alias must start with the prefix
-- \"alias/\"…", no "alias/aws/") and that the target key exists.

local P = require("moonstack.provider")
local client = require("lib.kms_client")

local kms = client.kms

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
    client.unless_gone(kms(ctx).DeleteAlias, { AliasName = id })
  end,

  read = function(ctx, id, props)
    local key = props and props.TargetKeyId
    local r = client.unless_gone(kms(ctx).DescribeKey, { KeyId = id })
    if not r then return nil end
    return { properties = { AliasName = id, TargetKeyId = key and (key == r.KeyMetadata.KeyId or key == r.KeyMetadata.Arn)
      and key or r.KeyMetadata.KeyId }, attributes = {} }
  end,
}
