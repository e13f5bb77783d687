-- sim.kms: the simulated AWS KMS — keys (kind "kms.key", by key ID, and
-- their place in their region, "kms.key_of_region" "<region>:<key ID>", no
-- data: a region's keys are a range of ids) and aliases (kind "kms.alias",
-- by "<region>:<name>", refs its target key so a key's aliases are its
-- referrers). Keys hold no key material: nothing encrypts.
--
-- KMS is regional: a key and an alias belong to the region their ARNs
-- name, and an action sees only its own region's. A key's ID is unique
-- everywhere (a UUID), so keys stay keyed by it and a key of another
-- region is not found; an alias name is unique within a region only, so
-- the same alias/app can name a key in each region. Aliases written before
-- they were per region are keyed by their bare name; such a record is still
-- found, in its ARN's region.
--
-- ScheduleKeyDeletion moves a key to PendingDeletion (7–30 days, default
-- 30) as AWS does; the key stays describable and CancelKeyDeletion brings it
-- back (Disabled). Actions: CreateKey, DescribeKey, ScheduleKeyDeletion,
-- CancelKeyDeletion, EnableKey, DisableKey, UpdateKeyDescription,
-- PutKeyPolicy, GetKeyPolicy, Enable/DisableKeyRotation, GetKeyRotationStatus,
-- TagResource, UntagResource, ListResourceTags, CreateAlias, UpdateAlias,
-- DeleteAlias, ListAliases.
--
-- Key policies: a key created without one has KMS's default (the account's
-- root may do everything: GetKeyPolicy answers it as KMS writes it). A
-- policy given to CreateKey or PutKeyPolicy must let the caller put the
-- key's policy again — KMS's lockout safety check, "The new key policy will
-- not allow you to update the key policy in the future."
-- (MalformedPolicyDocumentException) unless BypassPolicyLockoutSafetyCheck.
-- The caller is known by its account only, so a statement allowing
-- kms:PutKeyPolicy (or a wildcard covering it) to "*", the account or any
-- principal of the account passes it; its Condition is not evaluated.

local world = require("sim.world")
local errors = require("moonstack.errors")

local A = {}

local function fail(message, code) errors.fail(message, code) end

-- KMS's default key policy, as GetKeyPolicy answers it (AWS KMS developer
-- guide, "Default key policy").
local function default_policy(account)
  return '{\n  "Version" : "2012-10-17",\n  "Id" : "key-default-1",\n  "Statement" : [ {\n'
    .. '    "Sid" : "Enable IAM User Permissions",\n    "Effect" : "Allow",\n    "Principal" : {\n'
    .. '      "AWS" : "arn:aws:iam::' .. account .. ':root"\n    },\n    "Action" : "kms:*",\n'
    .. '    "Resource" : "*"\n  } ]\n}'
end

local list, glob = require("sim.policy_document").list, require("sim.policy_document").glob

-- Whether a statement's principal may be the caller, of `account`.
local function names_caller(principal, account)
  if principal == "*" then return true end
  if type(principal) ~= "table" then return false end
  for _, p in ipairs(list(principal.AWS)) do
    if p == "*" or p == account or (type(p) == "string" and p:match("^arn:[^:]+:iam::(%d+):") == account) then
      return true
    end
  end
  return false
end

-- Whether an action pattern ("kms:*", "kms:Put*") covers kms:PutKeyPolicy.
local function covers_put_policy(action)
  return type(action) == "string" and ("kms:putkeypolicy"):match(glob(action:lower())) ~= nil
end

-- KMS's lockout safety check of a key policy given to CreateKey or PutKeyPolicy.
local function check_lockout(policy, env, bypass)
  if policy == nil or bypass == true then return end
  local doc = policy
  if type(policy) == "string" then doc = require("sim.json_decode")(policy) end
  if type(doc) ~= "table" then return end  -- a text KMS would refuse otherwise: not ours to word
  for _, s in ipairs(list(doc.Statement)) do
    if type(s) == "table" and s.Effect == "Allow" and s.NotAction == nil and names_caller(s.Principal, env.account) then
      for _, a in ipairs(list(s.Action)) do
        if covers_put_policy(a) then return end
      end
    end
  end
  fail("The new key policy will not allow you to update the key policy in the future.",
    "MalformedPolicyDocumentException")
end

local function key_arn(env, id) return "arn:aws:kms:" .. env.region .. ":" .. env.account .. ":key/" .. id end
local function alias_arn(env, name) return "arn:aws:kms:" .. env.region .. ":" .. env.account .. ":" .. name end

-- The region a key's or an alias's ARN names.
local function region_of(arn) return type(arn) == "string" and arn:match("^arn:[^:]*:kms:([^:]*):") or nil end

-- The record ID of alias `name` in the action's region.
local function alias_id(env, name) return env.region .. ":" .. name end

-- Alias `name` of the action's region -> its record and record ID, or nil.
local function get_alias(env, name)
  local id = alias_id(env, name)
  local a = world.get("kms.alias", id)
  if a then return a, id end
  a = world.get("kms.alias", name)  -- written before aliases were per region
  if a and region_of(a.AliasArn) == env.region then return a, name end
  return nil
end

-- Key `id` of the action's region, or nil.
local function get_key(env, id)
  local k = world.get("kms.key", id)
  if k and region_of(k.Arn) ~= env.region then return nil end
  return k
end

-- A key named by ID, key ARN, alias name or alias ARN -> its record, or nil.
local function find_key(env, key_id)
  if type(key_id) ~= "string" or key_id == "" then
    fail("1 validation error detected: Value null at 'keyId' failed to satisfy constraint: Member must not be null",
      "ValidationException")
  end
  local id = key_id:match(":key/(.+)$") or key_id
  if require("sim").other_account(env, key_id) then return nil, id end  -- another account's key
  local alias = key_id:match(":(alias/.+)$") or (key_id:sub(1, 6) == "alias/" and key_id or nil)
  if alias then
    local a = get_alias(env, alias)
    if not a then fail("Alias " .. alias_arn(env, alias) .. " is not found.", "NotFoundException") end
    id = a.TargetKeyId
  end
  return get_key(env, id), id
end

local function require_key(env, key_id)
  local k, id = find_key(env, key_id)
  if not k then fail("Key '" .. key_arn(env, id) .. "' does not exist", "NotFoundException") end
  return k
end

-- A key usable for a change: not pending deletion.
local function usable(env, key_id)
  local k = require_key(env, key_id)
  if k.KeyState == "PendingDeletion" then
    fail(k.Arn .. " is pending deletion.", "KMSInvalidStateException")
  end
  return k
end

local KEY_OF_REGION = "kms.key_of_region"

-- A state saved before keys were listed by region gets their index once.
A.BACKFILL = { { base = "kms.key", index = KEY_OF_REGION, id = function(id, k)
  local region = region_of(k.Arn)
  return region and (region .. ":" .. id) or nil
end } }

local function put_key(k) world.put("kms.key", k.KeyId, k, { live = k.KeyState ~= "PendingDeletion" }) end

local function metadata(k)
  local out = {}
  for key, v in pairs(k) do
    if key ~= "Policy" and key ~= "Tags" and key ~= "KeyRotationEnabled" then out[key] = v end
  end
  return out
end

local KEY_SPECS = { SYMMETRIC_DEFAULT = true, RSA_2048 = true, RSA_3072 = true, RSA_4096 = true,
                    ECC_NIST_P256 = true, ECC_NIST_P384 = true, ECC_NIST_P521 = true, ECC_SECG_P256K1 = true,
                    HMAC_224 = true, HMAC_256 = true, HMAC_384 = true, HMAC_512 = true, SM2 = true }

local function check_tags(tags)
  local out = {}
  for _, t in ipairs(tags or {}) do
    if type(t) ~= "table" or type(t.TagKey) ~= "string" then
      fail("1 validation error detected: Value null at 'tags.member.tagKey' failed to satisfy constraint: "
        .. "Member must not be null", "ValidationException")
    end
    out[t.TagKey] = t.TagValue or ""
  end
  return out
end

local function tag_list(map)
  local keys = {}
  for k in pairs(map or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for i, k in ipairs(keys) do out[i] = { TagKey = k, TagValue = map[k] } end
  return out
end

---CreateKey: Description, KeyUsage, KeySpec, Policy, Origin, MultiRegion, Tags -> { KeyMetadata }.
function A.CreateKey(p, env)
  local spec = p.KeySpec or p.CustomerMasterKeySpec or "SYMMETRIC_DEFAULT"
  if not KEY_SPECS[spec] then
    fail("1 validation error detected: Value '" .. tostring(spec) .. "' at 'keySpec' failed to satisfy constraint: "
      .. "Member must satisfy enum value set", "ValidationException")
  end
  local usage = p.KeyUsage or (spec:match("^HMAC") and "GENERATE_VERIFY_MAC" or "ENCRYPT_DECRYPT")
  check_lockout(p.Policy, env, p.BypassPolicyLockoutSafetyCheck)
  local id = env.new_id("uuid")
  local k = {
    KeyId = id, Arn = key_arn(env, id), AWSAccountId = env.account, CreationDate = env.now_ms / 1000,
    Description = p.Description or "", Enabled = true, KeyState = "Enabled", KeyUsage = usage, KeySpec = spec,
    CustomerMasterKeySpec = spec, KeyManager = "CUSTOMER", Origin = p.Origin or "AWS_KMS",
    MultiRegion = p.MultiRegion == true,
    EncryptionAlgorithms = usage == "ENCRYPT_DECRYPT" and { "SYMMETRIC_DEFAULT" } or nil,
    Policy = p.Policy, Tags = check_tags(p.Tags), KeyRotationEnabled = false,
  }
  put_key(k)
  world.put(KEY_OF_REGION, env.region .. ":" .. id, {}, { live = false })
  return { KeyMetadata = metadata(k) }
end

---DescribeKey: KeyId (ID, ARN, alias name or alias ARN) -> { KeyMetadata }.
function A.DescribeKey(p, env) return { KeyMetadata = metadata(require_key(env, p.KeyId)) } end

---ScheduleKeyDeletion: KeyId, PendingWindowInDays (7–30, default 30).
function A.ScheduleKeyDeletion(p, env)
  local k = usable(env, p.KeyId)
  local days = tonumber(p.PendingWindowInDays or 30)
  if not days or days < 7 or days > 30 then
    fail("1 validation error detected: Value '" .. tostring(p.PendingWindowInDays) .. "' at 'pendingWindowInDays' "
      .. "failed to satisfy constraint: Member must have value " .. ((days or 0) < 7 and "greater than or equal to 7"
      or "less than or equal to 30"), "ValidationException")
  end
  k.KeyState, k.Enabled = "PendingDeletion", false
  k.DeletionDate = env.now_ms / 1000 + days * 86400
  k.PendingDeletionWindowInDays = days
  put_key(k)
  return { KeyId = k.Arn, KeyState = k.KeyState, DeletionDate = k.DeletionDate, PendingWindowInDays = days }
end

---CancelKeyDeletion: KeyId -> { KeyId }; the key comes back Disabled.
function A.CancelKeyDeletion(p, env)
  local k = require_key(env, p.KeyId)
  if k.KeyState ~= "PendingDeletion" then
    fail(k.Arn .. " is not pending deletion (current state: " .. k.KeyState .. ").", "KMSInvalidStateException")
  end
  k.KeyState, k.DeletionDate, k.PendingDeletionWindowInDays = "Disabled", nil, nil
  put_key(k)
  return { KeyId = k.Arn }
end

local function set_enabled(on)
  return function(p, env)
    local k = usable(env, p.KeyId)
    k.Enabled, k.KeyState = on, on and "Enabled" or "Disabled"
    put_key(k)
    return {}
  end
end
A.EnableKey = set_enabled(true)
A.DisableKey = set_enabled(false)

function A.UpdateKeyDescription(p, env)
  local k = usable(env, p.KeyId)
  k.Description = p.Description or ""
  put_key(k)
  return {}
end

function A.PutKeyPolicy(p, env)
  local k = usable(env, p.KeyId)
  check_lockout(p.Policy, env, p.BypassPolicyLockoutSafetyCheck)
  k.Policy = p.Policy
  put_key(k)
  return {}
end

function A.GetKeyPolicy(p, env)
  local k = require_key(env, p.KeyId)
  return { Policy = k.Policy or default_policy(k.AWSAccountId), PolicyName = "default" }
end

local function set_rotation(on)
  return function(p, env)
    local k = usable(env, p.KeyId)
    if k.KeySpec ~= "SYMMETRIC_DEFAULT" then
      fail(k.Arn .. " key usage/spec does not support key rotation", "UnsupportedOperationException")
    end
    k.KeyRotationEnabled = on
    put_key(k)
    return {}
  end
end
A.EnableKeyRotation = set_rotation(true)
A.DisableKeyRotation = set_rotation(false)

function A.GetKeyRotationStatus(p, env) return { KeyRotationEnabled = require_key(env, p.KeyId).KeyRotationEnabled } end

function A.TagResource(p, env)
  local k = usable(env, p.KeyId)
  for key, v in pairs(check_tags(p.Tags)) do k.Tags[key] = v end
  put_key(k)
  return {}
end

function A.UntagResource(p, env)
  local k = usable(env, p.KeyId)
  for _, key in ipairs(p.TagKeys or {}) do k.Tags[key] = nil end
  put_key(k)
  return {}
end

function A.ListResourceTags(p, env) return { Tags = tag_list(require_key(env, p.KeyId).Tags), Truncated = false } end

-- Aliases -----------------------------------------------------------------------------

local function check_alias_name(name)
  if type(name) ~= "string" or name:sub(1, 6) ~= "alias/" then
    fail("Alias must start with the prefix \"alias/\". Please see "
      .. "https://docs.aws.amazon.com/kms/latest/developerguide/kms-alias.html", "ValidationException")
  end
  if name:sub(1, 10) == "alias/aws/" then
    fail("Cannot create alias with prefix 'alias/aws/'", "NotAuthorizedException")
  end
  if #name > 256 or not name:match("^alias/[%w/_%-]+$") then
    fail("1 validation error detected: Value '" .. name .. "' at 'aliasName' failed to satisfy constraint: "
      .. "Member must satisfy regular expression pattern: ^[a-zA-Z0-9:/_-]+$", "ValidationException")
  end
end

local function put_alias(id, a) world.put("kms.alias", id, a, { refs = { a.TargetKeyId } }) end

---CreateAlias: AliasName ("alias/…"), TargetKeyId (must exist, not pending deletion).
function A.CreateAlias(p, env)
  check_alias_name(p.AliasName)
  if get_alias(env, p.AliasName) then
    fail("An alias with the name " .. alias_arn(env, p.AliasName) .. " already exists", "AlreadyExistsException")
  end
  local k = usable(env, p.TargetKeyId)
  put_alias(alias_id(env, p.AliasName), { AliasName = p.AliasName, AliasArn = alias_arn(env, p.AliasName),
                                         TargetKeyId = k.KeyId, CreationDate = env.now_ms / 1000 })
  return {}
end

-- Alias `name` of the action's region -> its record and record ID; fails when there is none.
local function require_alias(env, name)
  local a, id
  if type(name) == "string" then a, id = get_alias(env, name) end
  if not a then fail("Alias " .. alias_arn(env, tostring(name)) .. " is not found.", "NotFoundException") end
  return a, id
end

---UpdateAlias: AliasName, TargetKeyId.
function A.UpdateAlias(p, env)
  local a, id = require_alias(env, p.AliasName)
  a.TargetKeyId = usable(env, p.TargetKeyId).KeyId
  put_alias(id, a)
  return {}
end

function A.DeleteAlias(p, env)
  local _, id = require_alias(env, p.AliasName)
  world.remove("kms.alias", id)
  return {}
end

---ListKeys: every key of the region, pending deletion too (AWS lists those
---until they are deleted), in ID order; one page. The region's range of
---KEY_OF_REGION, not every key of every region.
function A.ListKeys(_, env)
  local out = {}
  local prefix = env.region .. ":"
  for _, k in ipairs(world.ids(KEY_OF_REGION, false, prefix)) do
    local key = get_key(env, k:sub(#prefix + 1))
    if key then out[#out + 1] = { KeyId = key.KeyId, KeyArn = key.Arn } end
  end
  return { Keys = out, Truncated = false }
end

---ListAliases: KeyId (its aliases, through the key's referrers) or every
---alias of the region: its range of ids, and those recorded by their bare
---name (before aliases were per region, all "alias/…") in its ARN's region.
function A.ListAliases(p, env)
  local names = {}
  if p.KeyId then
    for _, r in ipairs(world.referrers(require_key(env, p.KeyId).KeyId)) do
      if r.kind == "kms.alias" then names[#names + 1] = r.id end
    end
  else
    names = world.ids("kms.alias", true, env.region .. ":")
    for _, n in ipairs(world.ids("kms.alias", true, "alias/")) do names[#names + 1] = n end
  end
  local out = {}
  for _, n in ipairs(names) do
    local a = world.get("kms.alias", n)
    if region_of(a.AliasArn) == env.region then out[#out + 1] = a end
  end
  return { Aliases = out, Truncated = false }
end

return A
