-- AWS::KMS::Key on the simulated KMS.
--
-- Update behaviours (CloudFormation reference, AWS::KMS::Key): KeySpec,
-- KeyUsage, MultiRegion, Origin Replacement; Description, Enabled,
-- EnableKeyRotation, KeyPolicy, PendingWindowInDays, Tags,
-- BypassPolicyLockoutSafetyCheck, RotationPeriodInDays No interruption.
-- Ref is the key ID (a UUID); GetAtt Arn and KeyId. Delete schedules the
-- key's deletion (PendingWindowInDays, 7–30, default 30): the key goes to
-- PendingDeletion, as on AWS. Tags are CloudFormation's (tags.for_resource).

local P = require("moonstack.provider")
local tags = require("moonstack.tags")
local client = require("lib.kms_client")

local kms, gone = client.kms, client.unless_gone

local function tag_list(ctx, own)
  local out = {}
  for _, t in ipairs(tags.from_map(tags.for_resource(ctx, own))) do out[#out + 1] = { TagKey = t.Key, TagValue = t.Value } end
  return out
end

return P.define {
  type = "AWS::KMS::Key",
  properties = {
    P.boolean "BypassPolicyLockoutSafetyCheck" { update = "none" },
    P.string "Description" { update = "none" },
    P.boolean "EnableKeyRotation" { update = "none", default = false },
    P.boolean "Enabled" { update = "none", default = true },
    P.json "KeyPolicy" { update = "none" },
    P.string "KeySpec" { update = "replace" },
    P.string "KeyUsage" { update = "replace", allowed = { "ENCRYPT_DECRYPT", "SIGN_VERIFY", "GENERATE_VERIFY_MAC",
                                                           "KEY_AGREEMENT" } },
    P.boolean "MultiRegion" { update = "replace" },
    P.string "Origin" { update = "replace", allowed = { "AWS_KMS", "EXTERNAL" } },
    P.integer "PendingWindowInDays" { update = "none" },
    P.integer "RotationPeriodInDays" { update = "none" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "Arn", "KeyId" },
  primary_identifier = "KeyId",

  create = function(ctx, props)
    local c = kms(ctx)
    local k = c.CreateKey { Description = props.Description, KeyUsage = props.KeyUsage, KeySpec = props.KeySpec,
      Origin = props.Origin, MultiRegion = props.MultiRegion, Policy = props.KeyPolicy,
      BypassPolicyLockoutSafetyCheck = props.BypassPolicyLockoutSafetyCheck, Tags = tag_list(ctx, props.Tags) }.KeyMetadata
    if props.EnableKeyRotation then c.EnableKeyRotation { KeyId = k.KeyId } end
    if props.Enabled == false then c.DisableKey { KeyId = k.KeyId } end
    return { id = k.KeyId, attributes = { Arn = k.Arn, KeyId = k.KeyId } }
  end,

  update = function(ctx, id, new, old, changed)
    local c = kms(ctx)
    for _, name in ipairs(changed) do
      if name == "Description" then c.UpdateKeyDescription { KeyId = id, Description = new.Description or "" }
      elseif name == "Enabled" then
        if new.Enabled == false then c.DisableKey { KeyId = id } else c.EnableKey { KeyId = id } end
      elseif name == "EnableKeyRotation" then
        if new.EnableKeyRotation then c.EnableKeyRotation { KeyId = id } else c.DisableKeyRotation { KeyId = id } end
      elseif name == "KeyPolicy" then
        c.PutKeyPolicy { KeyId = id, Policy = new.KeyPolicy, PolicyName = "default",
                         BypassPolicyLockoutSafetyCheck = new.BypassPolicyLockoutSafetyCheck }
      elseif name == "Tags" then
        local set, remove = tags.update_diff(ctx, old.Tags, new.Tags)
        if #remove > 0 then c.UntagResource { KeyId = id, TagKeys = remove } end
        if next(set) ~= nil then
          local list = {}
          for k, v in pairs(set) do list[#list + 1] = { TagKey = k, TagValue = v } end
          c.TagResource { KeyId = id, Tags = list }
        end
      end
    end
  end,

  delete = function(ctx, id, props)
    local c = kms(ctx)
    local k = gone(c.DescribeKey, { KeyId = id })
    if not k or k.KeyMetadata.KeyState == "PendingDeletion" then return end
    c.ScheduleKeyDeletion { KeyId = id, PendingWindowInDays = props and props.PendingWindowInDays or 30 }
  end,

  read = function(ctx, id, props)
    local c = kms(ctx)
    local r = gone(c.DescribeKey, { KeyId = id })
    if not r or r.KeyMetadata.KeyState == "PendingDeletion" then return nil end
    local k = r.KeyMetadata
    local properties = {}
    for name, v in pairs(props or {}) do properties[name] = v end
    properties.Description = k.Description ~= "" and k.Description or props.Description
    properties.Enabled = k.Enabled
    properties.EnableKeyRotation = c.GetKeyRotationStatus { KeyId = id }.KeyRotationEnabled
    return { properties = properties, attributes = { Arn = k.Arn, KeyId = k.KeyId } }
  end,
}
