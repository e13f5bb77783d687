-- AWS::IAM::AccessKey: an access key of a user, against the simulated IAM.
--
-- Update behaviours are AWS's ("Update requires" in the resource reference,
-- aws-resource-iam-accesskey): Serial: Replacement (raising it rotates the
-- key), UserName: Replacement, Status: No interruption (UpdateAccessKey).
-- Ref is the access key ID; Fn::GetAtt gives SecretAccessKey. A user holds
-- at most two keys: a third fails with IAM's quota message.

local P = require("moonstack.provider")
local pol = require("lib.iam_policies")

return P.define {
  type = "AWS::IAM::AccessKey",
  properties = {
    P.integer "Serial" { update = "replace" },
    P.string "Status" { update = "none", allowed = { "Active", "Inactive" } },
    P.string "UserName" { required = true, update = "replace" },
  },
  attributes = { "SecretAccessKey" },

  create = function(ctx, props)
    local iam = ctx.world.iam
    local key = iam.CreateAccessKey { UserName = props.UserName }.AccessKey
    if props.Status == "Inactive" then
      iam.UpdateAccessKey { UserName = props.UserName, AccessKeyId = key.AccessKeyId, Status = "Inactive" }
    end
    return { id = key.AccessKeyId, attributes = { SecretAccessKey = key.SecretAccessKey } }
  end,

  update = function(ctx, id, new)
    ctx.world.iam.UpdateAccessKey { UserName = new.UserName, AccessKeyId = id, Status = new.Status or "Active" }
  end,

  delete = function(ctx, id, props)
    pol.quietly(ctx.world.iam, "DeleteAccessKey", { UserName = props and props.UserName, AccessKeyId = id })
  end,

  read = function(ctx, id, props)
    props = props or {}
    local ok, r = pcall(ctx.world.iam.ListAccessKeys, { UserName = props.UserName })
    if not ok then
      if pol.gone(r) then return nil end
      error(r, 0)
    end
    for _, k in ipairs(r.AccessKeyMetadata) do
      if k.AccessKeyId == id then
        return { properties = { UserName = k.UserName, Status = k.Status, Serial = props.Serial } }
      end
    end
    return nil
  end,
}
