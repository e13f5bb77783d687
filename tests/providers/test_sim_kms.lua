-- The simulated KMS: keys, deletion scheduling, aliases and AWS's messages.
local H = require("harness")
local T = H.suite("sim kms")

T.case("keys: UUID IDs and ARNs; deletion is PendingDeletion for 7-30 days, cancellable", function()
  local _, sim = fresh()
  local k = sim.call("kms", "CreateKey", { Description = "d" }).KeyMetadata
  H.match(k.KeyId, "^%x+%-%x+%-4%x+%-%x+%-%x+$")
  H.eq(k.Arn, "arn:aws:kms:us-east-1:123456789012:key/" .. k.KeyId)
  H.eq(k.KeyState, "Enabled")
  H.eq(k.KeySpec, "SYMMETRIC_DEFAULT")
  H.raises(function() sim.call("kms", "ScheduleKeyDeletion", { KeyId = k.KeyId, PendingWindowInDays = 5 }) end,
    "1 validation error detected: Value '5' at 'pendingWindowInDays' failed to satisfy constraint: "
    .. "Member must have value greater than or equal to 7")
  local r = sim.call("kms", "ScheduleKeyDeletion", { KeyId = k.KeyId, PendingWindowInDays = 7 })
  H.eq(r.KeyState, "PendingDeletion")
  H.eq(r.DeletionDate, 7 * 86400)
  H.eq(sim.call("kms", "DescribeKey", { KeyId = k.KeyId }).KeyMetadata.KeyState, "PendingDeletion")
  local e = H.raises(function() sim.call("kms", "EnableKey", { KeyId = k.KeyId }) end, k.Arn .. " is pending deletion.")
  H.eq(e.code, "KMSInvalidStateException")
  sim.call("kms", "CancelKeyDeletion", { KeyId = k.KeyId })
  H.eq(sim.call("kms", "DescribeKey", { KeyId = k.KeyId }).KeyMetadata.KeyState, "Disabled")
  e = H.raises(function() sim.call("kms", "DescribeKey", { KeyId = "00000000-0000-4000-8000-000000000000" }) end,
    "Key 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-4000-8000-000000000000' does not exist")
  H.eq(e.code, "NotFoundException")
end)

T.case("ListKeys: every key with its ARN, one pending deletion too", function()
  local _, sim = fresh()
  H.same(sim.call("kms", "ListKeys", {}), { Keys = {}, Truncated = false })
  local a = sim.call("kms", "CreateKey", {}).KeyMetadata
  local b = sim.call("kms", "CreateKey", {}).KeyMetadata
  sim.call("kms", "ScheduleKeyDeletion", { KeyId = b.KeyId, PendingWindowInDays = 7 })
  local keys = sim.call("kms", "ListKeys", {}).Keys
  table.sort(keys, function(x, y) return x.KeyId < y.KeyId end)
  local want = { { KeyId = a.KeyId, KeyArn = a.Arn }, { KeyId = b.KeyId, KeyArn = b.Arn } }
  table.sort(want, function(x, y) return x.KeyId < y.KeyId end)
  H.same(keys, want)
end)

T.case("ListKeys and ListAliases read their region's range: not another region's keys, not a key's record", function()
  local world, sim = fresh()
  local west = { region = "eu-west-1" }
  local k1 = sim.call("kms", "CreateKey", {}).KeyMetadata
  local k2 = sim.call("kms", "CreateKey", {}, west).KeyMetadata
  sim.call("kms", "CreateAlias", { AliasName = "alias/a", TargetKeyId = k1.KeyId })
  sim.call("kms", "CreateAlias", { AliasName = "alias/b", TargetKeyId = k2.KeyId }, west)
  H.same(world.ids("kms.key_of_region"), { "eu-west-1:" .. k2.KeyId, "us-east-1:" .. k1.KeyId })
  -- What a listing reads: the region's index range, never the kind's every id.
  local raw = require("moonstack.world")
  local ids = raw.ids
  local read = {}
  raw.ids = function(kind, live, prefix, ...)
    read[#read + 1] = kind .. " " .. tostring(prefix)
    return ids(kind, live, prefix, ...)
  end
  local ok, err = pcall(function()
    H.same(sim.call("kms", "ListKeys", {}, west).Keys, { { KeyId = k2.KeyId, KeyArn = k2.Arn } })
    local aliases = sim.call("kms", "ListAliases", {}).Aliases
    H.eq(#aliases, 1)
    H.eq(aliases[1].AliasArn, "arn:aws:kms:us-east-1:123456789012:alias/a")
  end)
  raw.ids = ids
  assert(ok, err)
  H.same(read, { "kms.key_of_region eu-west-1:", "kms.alias us-east-1:", "kms.alias alias/" })
end)

T.case("aliases: the alias/ prefix, a target that exists, unique names; keys found by alias", function()
  local _, sim = fresh()
  local k = sim.call("kms", "CreateKey", {}).KeyMetadata
  H.raises(function() sim.call("kms", "CreateAlias", { AliasName = "app", TargetKeyId = k.KeyId }) end,
    "Alias must start with the prefix \"alias/\". Please see https://docs.aws.amazon.com/kms/latest/developerguide/kms-alias.html")
  H.raises(function() sim.call("kms", "CreateAlias", { AliasName = "alias/aws/x", TargetKeyId = k.KeyId }) end,
    "Cannot create alias with prefix 'alias/aws/'")
  H.raises(function()
    sim.call("kms", "CreateAlias", { AliasName = "alias/app", TargetKeyId = "00000000-0000-4000-8000-000000000000" })
  end, "Key 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-4000-8000-000000000000' does not exist")
  sim.call("kms", "CreateAlias", { AliasName = "alias/app", TargetKeyId = k.KeyId })
  local e = H.raises(function() sim.call("kms", "CreateAlias", { AliasName = "alias/app", TargetKeyId = k.KeyId }) end,
    "An alias with the name arn:aws:kms:us-east-1:123456789012:alias/app already exists")
  H.eq(e.code, "AlreadyExistsException")
  H.eq(sim.call("kms", "DescribeKey", { KeyId = "alias/app" }).KeyMetadata.KeyId, k.KeyId)
  H.eq(#sim.call("kms", "ListAliases", { KeyId = k.KeyId }).Aliases, 1)
  sim.call("kms", "DeleteAlias", { AliasName = "alias/app" })
  H.raises(function() sim.call("kms", "DescribeKey", { KeyId = "alias/app" }) end,
    "Alias arn:aws:kms:us-east-1:123456789012:alias/app is not found.")
end)

T.case("regions: each region has its own keys and aliases, the same alias name in two", function()
  local world, sim = fresh()
  local west = { region = "eu-west-1" }
  local k1 = sim.call("kms", "CreateKey", {}).KeyMetadata
  local k2 = sim.call("kms", "CreateKey", {}, west).KeyMetadata
  H.eq(k2.Arn, "arn:aws:kms:eu-west-1:123456789012:key/" .. k2.KeyId)
  -- A key is found in its own region only, by ID or by ARN.
  local e = H.raises(function() sim.call("kms", "DescribeKey", { KeyId = k2.KeyId }) end,
    "Key 'arn:aws:kms:us-east-1:123456789012:key/" .. k2.KeyId .. "' does not exist")
  H.eq(e.code, "NotFoundException")
  H.raises(function() sim.call("kms", "DescribeKey", { KeyId = k1.Arn }, west) end,
    "Key 'arn:aws:kms:eu-west-1:123456789012:key/" .. k1.KeyId .. "' does not exist")
  H.same(sim.call("kms", "ListKeys", {}).Keys, { { KeyId = k1.KeyId, KeyArn = k1.Arn } })
  H.same(sim.call("kms", "ListKeys", {}, west).Keys, { { KeyId = k2.KeyId, KeyArn = k2.Arn } })
  -- alias/app in each region, each naming its region's key.
  sim.call("kms", "CreateAlias", { AliasName = "alias/app", TargetKeyId = k1.KeyId })
  sim.call("kms", "CreateAlias", { AliasName = "alias/app", TargetKeyId = k2.KeyId }, west)
  H.raises(function() sim.call("kms", "CreateAlias", { AliasName = "alias/other", TargetKeyId = k1.KeyId }, west) end,
    "Key 'arn:aws:kms:eu-west-1:123456789012:key/" .. k1.KeyId .. "' does not exist")
  H.eq(sim.call("kms", "DescribeKey", { KeyId = "alias/app" }).KeyMetadata.KeyId, k1.KeyId)
  H.eq(sim.call("kms", "DescribeKey", { KeyId = "alias/app" }, west).KeyMetadata.KeyId, k2.KeyId)
  local aliases = sim.call("kms", "ListAliases", {}, west).Aliases
  H.eq(#aliases, 1)
  H.eq(aliases[1].AliasArn, "arn:aws:kms:eu-west-1:123456789012:alias/app")
  H.eq(aliases[1].TargetKeyId, k2.KeyId)
  H.same(world.ids("kms.alias"), { "eu-west-1:alias/app", "us-east-1:alias/app" })
  -- Deleting one region's alias leaves the other's.
  sim.call("kms", "DeleteAlias", { AliasName = "alias/app" }, west)
  H.raises(function() sim.call("kms", "DescribeKey", { KeyId = "alias/app" }, west) end,
    "Alias arn:aws:kms:eu-west-1:123456789012:alias/app is not found.")
  H.eq(sim.call("kms", "DescribeKey", { KeyId = "alias/app" }).KeyMetadata.KeyId, k1.KeyId)
end)

T.case("regions: an alias recorded by its bare name (before aliases were per region) is its ARN's region's", function()
  local world, sim = fresh()
  local k = sim.call("kms", "CreateKey", {}).KeyMetadata
  world.atomic(function()
    world.put("kms.alias", "alias/old", { AliasName = "alias/old", TargetKeyId = k.KeyId,
      AliasArn = "arn:aws:kms:us-east-1:123456789012:alias/old", CreationDate = 0 }, { refs = { k.KeyId } })
  end)
  H.eq(sim.call("kms", "DescribeKey", { KeyId = "alias/old" }).KeyMetadata.KeyId, k.KeyId)
  H.raises(function() sim.call("kms", "DescribeKey", { KeyId = "alias/old" }, { region = "eu-west-1" }) end,
    "Alias arn:aws:kms:eu-west-1:123456789012:alias/old is not found.")
  H.raises(function() sim.call("kms", "CreateAlias", { AliasName = "alias/old", TargetKeyId = k.KeyId }) end,
    "An alias with the name arn:aws:kms:us-east-1:123456789012:alias/old already exists")
  H.eq(#sim.call("kms", "ListAliases", { KeyId = k.KeyId }).Aliases, 1)
  sim.call("kms", "DeleteAlias", { AliasName = "alias/old" })
  H.same(world.ids("kms.alias"), {})
end)

T.case("key policies: KMS's default when none is given; one that locks the caller out is refused unless bypassed", function()
  local _, sim = fresh()
  local k = sim.call("kms", "CreateKey", {}).KeyMetadata
  local default = sim.call("kms", "GetKeyPolicy", { KeyId = k.KeyId, PolicyName = "default" }).Policy
  H.eq(default, '{\n  "Version" : "2012-10-17",\n  "Id" : "key-default-1",\n  "Statement" : [ {\n'
    .. '    "Sid" : "Enable IAM User Permissions",\n    "Effect" : "Allow",\n    "Principal" : {\n'
    .. '      "AWS" : "arn:aws:iam::123456789012:root"\n    },\n    "Action" : "kms:*",\n    "Resource" : "*"\n  } ]\n}')
  local function policy(principal, action)
    return { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = principal, Action = action, Resource = "*" } } }
  end
  local lockout = "The new key policy will not allow you to update the key policy in the future."
  for _, bad in ipairs({
    policy({ Service = "logs.amazonaws.com" }, "kms:*"),                      -- a service only
    policy({ AWS = "arn:aws:iam::222222222222:root" }, "kms:*"),              -- another account only
    policy({ AWS = "arn:aws:iam::123456789012:root" }, { "kms:Encrypt", "kms:Decrypt" }),
  }) do
    local e = H.raises(function() sim.call("kms", "CreateKey", { Policy = bad }) end, lockout)
    H.eq(e.code, "MalformedPolicyDocumentException")
    e = H.raises(function() sim.call("kms", "PutKeyPolicy", { KeyId = k.KeyId, PolicyName = "default", Policy = bad }) end,
      lockout)
    H.eq(e.code, "MalformedPolicyDocumentException")
  end
  H.eq(sim.call("kms", "GetKeyPolicy", { KeyId = k.KeyId }).Policy, default)
  H.eq(#sim.call("kms", "ListKeys", {}).Keys, 1)
  -- Bypassed, or a statement letting the account (its root, a role of it, its ID, anyone) put the policy again.
  local bypassed = policy({ Service = "logs.amazonaws.com" }, "kms:*")
  sim.call("kms", "CreateKey", { Policy = bypassed, BypassPolicyLockoutSafetyCheck = true })
  for _, ok in ipairs({
    policy({ AWS = "arn:aws:iam::123456789012:role/admin" }, { "kms:Create*", "kms:Put*" }),
    policy({ AWS = "123456789012" }, "kms:PutKeyPolicy"),
    policy("*", "*"),
    '{"Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::123456789012:root"}, "Action": "KMS:*", "Resource": "*"}]}',
  }) do
    sim.call("kms", "PutKeyPolicy", { KeyId = k.KeyId, PolicyName = "default", Policy = ok })
    H.same(sim.call("kms", "GetKeyPolicy", { KeyId = k.KeyId }).Policy, ok)
  end
end)

return T
