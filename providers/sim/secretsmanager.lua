-- sim.secretsmanager: the simulated AWS Secrets Manager.
--
-- A secret is a record "secretsmanager.secret" keyed by its ARN
-- (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-XXXXXX, the 6-character
-- random suffix Secrets Manager adds); "secretsmanager.name" ("REGION/NAME"
-- -> ARN) finds it by name, so every lookup is O(1). Its versions live in the
-- record ({ [VersionId] = { SecretString, Stages, CreatedDate } }); the
-- AWSCURRENT label moves to a new value and AWSPREVIOUS follows, as on AWS.
--
-- DeleteSecret schedules the deletion (RecoveryWindowInDays 7–30, default
-- 30): the secret stays describable, its name taken, every value refused,
-- until RestoreSecret or the window ends (the record goes when it is next
-- looked up after DeletionDate). ForceDeleteWithoutRecovery removes it now.
--
-- Passwords (GetRandomPassword, a secret's GenerateSecretString) are drawn
-- from the world's ID sequence: the same seed gives the same passwords.
--
-- Actions: CreateSecret, GetSecretValue, PutSecretValue, DescribeSecret,
-- UpdateSecret, DeleteSecret, RestoreSecret, GetRandomPassword, ListSecrets,
-- TagResource, UntagResource, PutResourcePolicy, GetResourcePolicy,
-- DeleteResourcePolicy. `M.resolve` answers the engine's
-- {{resolve:secretsmanager:...}} references.

local world = require("sim.world")
local errors = require("moonstack.errors")
local tag_list = require("moonstack.tags").from_map  -- {k=v} -> [{Key, Value}] sorted by key

local A = {}

local SECRET, NAME = "secretsmanager.secret", "secretsmanager.name"
local CURRENT, PREVIOUS = "AWSCURRENT", "AWSPREVIOUS"
local ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
local LOWER, UPPER, DIGITS = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"
local PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

local function fail(message, code) errors.fail(message, code) end

local function not_found() fail("Secrets Manager can't find the specified secret.", "ResourceNotFoundException") end

-- n characters of `alphabet` drawn from the world's ID sequence.
local function draw(env, alphabet, n)
  local out = {}
  for i = 1, n do
    local j = env.new_id("int", #alphabet) + 1
    out[i] = alphabet:sub(j, j)
  end
  return table.concat(out)
end

local function name_key(env, name) return env.region .. "/" .. name end

-- The secret named by `id` (a name or an ARN, the suffix optional as AWS
-- allows for a full ARN only), or nil. A secret whose recovery window has
-- ended is removed here, lazily.
local function find(env, id)
  if type(id) ~= "string" or id == "" then
    fail("1 validation error detected: Value null at 'secretId' failed to satisfy constraint: Member must not be null",
      "ValidationException")
  end
  local arn = id
  if id:sub(1, 4) ~= "arn:" then
    local index = world.get(NAME, name_key(env, id))
    arn = index and index.ARN
  end
  local s = arn and world.get(SECRET, arn)
  if s and s.DeletionDate and env.now_ms / 1000 >= s.DeletionDate then
    world.remove(SECRET, s.ARN)
    world.remove(NAME, name_key(env, s.Name))
    return nil
  end
  return s
end

local function require_secret(env, id)
  return find(env, id) or not_found()
end

-- A secret that may change: not scheduled for deletion.
local function usable(env, id)
  local s = require_secret(env, id)
  if s.DeletionDate then
    fail("You can't perform this operation on the secret because it was marked for deletion.", "InvalidRequestException")
  end
  return s
end

local function save(s) world.put(SECRET, s.ARN, s, { live = s.DeletionDate == nil }) end

-- Adds a version holding `value` ({SecretString=} or {SecretBinary=}) and
-- moves AWSCURRENT to it (the old current becomes AWSPREVIOUS), unless
-- `stages` names other labels.
local function add_version(env, s, value, token, stages)
  local id = token or env.new_id("uuid")
  if s.Versions[id] then
    fail("You can't modify an existing version, you can only create new versions.", "ResourceExistsException")
  end
  stages = stages or { CURRENT }
  for _, stage in ipairs(stages) do
    for vid, v in pairs(s.Versions) do
      local kept = {}
      for _, st in ipairs(v.Stages) do
        if st ~= stage and not (stage == CURRENT and st == PREVIOUS) then kept[#kept + 1] = st end
        if stage == CURRENT and st == CURRENT then kept[#kept + 1] = PREVIOUS end
      end
      v.Stages = kept
      if #kept == 0 then s.Versions[vid] = nil end  -- a version without labels is deprecated: gone
    end
  end
  s.Versions[id] = { SecretString = value.SecretString, SecretBinary = value.SecretBinary, Stages = stages,
                     CreatedDate = env.now_ms / 1000 }
  s.LastChangedDate = env.now_ms / 1000
  return id
end

local function tag_map(list)
  local out = {}
  for _, t in ipairs(list or {}) do
    if type(t) ~= "table" or type(t.Key) ~= "string" then
      fail("1 validation error detected: Value null at 'tags.member.key' failed to satisfy constraint: "
        .. "Member must not be null", "ValidationException")
    end
    out[t.Key] = t.Value or ""
  end
  return out
end

local function value_of(p)
  if p.SecretString ~= nil and p.SecretBinary ~= nil then
    fail("You can't specify both a binary secret value and a string secret value in the same secret.",
      "InvalidParameterException")
  end
  if p.SecretString == nil and p.SecretBinary == nil then return nil end
  return { SecretString = p.SecretString, SecretBinary = p.SecretBinary }
end

---CreateSecret: Name, Description, KmsKeyId, SecretString | SecretBinary,
---ClientRequestToken, Tags -> { ARN, Name, VersionId }.
function A.CreateSecret(p, env)
  local name = p.Name
  if type(name) ~= "string" or name == "" or #name > 512 then
    fail("1 validation error detected: Value at 'name' failed to satisfy constraint: Member must have length "
      .. "between 1 and 512", "ValidationException")
  end
  local existing = find(env, name)
  if existing then
    if existing.DeletionDate then
      fail("You can't create this secret because a secret with this name is already scheduled for deletion.",
        "InvalidRequestException")
    end
    fail("The operation failed because the secret " .. name .. " already exists.", "ResourceExistsException")
  end
  local arn = "arn:aws:secretsmanager:" .. env.region .. ":" .. env.account .. ":secret:" .. name .. "-"
      .. draw(env, ALNUM, 6)
  local s = { ARN = arn, Name = name, Description = p.Description, KmsKeyId = p.KmsKeyId, Tags = tag_map(p.Tags),
              CreatedDate = env.now_ms / 1000, LastChangedDate = env.now_ms / 1000, Versions = {} }
  local value, version = value_of(p), nil
  if value then version = add_version(env, s, value, p.ClientRequestToken) end
  world.put(NAME, name_key(env, name), { ARN = arn })
  save(s)
  return { ARN = arn, Name = name, VersionId = version }
end

-- The version asked for (VersionId or VersionStage, default AWSCURRENT).
local function version_of(s, version_id, stage)
  if version_id and version_id ~= "" then
    local v = s.Versions[version_id]
    local labelled = not stage or stage == ""
    for _, st in ipairs(v and v.Stages or {}) do labelled = labelled or st == stage end
    if not v or not labelled then
      fail("Secrets Manager can't find the specified secret value for VersionId: " .. version_id,
        "ResourceNotFoundException")
    end
    return version_id, v
  end
  stage = (stage and stage ~= "") and stage or CURRENT
  for vid, v in pairs(s.Versions) do
    for _, st in ipairs(v.Stages) do
      if st == stage then return vid, v end
    end
  end
  fail("Secrets Manager can't find the specified secret value for staging label: " .. stage,
    "ResourceNotFoundException")
end

---GetSecretValue: SecretId, VersionId, VersionStage -> { ARN, Name,
---VersionId, SecretString | SecretBinary, VersionStages, CreatedDate }.
function A.GetSecretValue(p, env)
  local s = usable(env, p.SecretId)
  local vid, v = version_of(s, p.VersionId, p.VersionStage)
  return { ARN = s.ARN, Name = s.Name, VersionId = vid, SecretString = v.SecretString, SecretBinary = v.SecretBinary,
           VersionStages = v.Stages, CreatedDate = v.CreatedDate }
end

---PutSecretValue: SecretId, SecretString | SecretBinary, ClientRequestToken,
---VersionStages -> { ARN, Name, VersionId, VersionStages }.
function A.PutSecretValue(p, env)
  local s = usable(env, p.SecretId)
  local value = value_of(p)
  if not value then
    fail("You must provide either SecretString or SecretBinary.", "InvalidRequestException")
  end
  local vid = add_version(env, s, value, p.ClientRequestToken, p.VersionStages)
  save(s)
  return { ARN = s.ARN, Name = s.Name, VersionId = vid, VersionStages = s.Versions[vid].Stages }
end

---UpdateSecret: SecretId, Description, KmsKeyId, SecretString | SecretBinary
----> { ARN, Name, VersionId (when a value was given) }.
function A.UpdateSecret(p, env)
  local s = usable(env, p.SecretId)
  if p.Description ~= nil then s.Description = p.Description end
  if p.KmsKeyId ~= nil then s.KmsKeyId = p.KmsKeyId end
  local value, vid = value_of(p), nil
  if value then vid = add_version(env, s, value, p.ClientRequestToken) end
  s.LastChangedDate = env.now_ms / 1000
  save(s)
  return { ARN = s.ARN, Name = s.Name, VersionId = vid }
end

local function description(s)
  local stages = {}
  for vid, v in pairs(s.Versions) do stages[vid] = v.Stages end
  return { ARN = s.ARN, Name = s.Name, Description = s.Description, KmsKeyId = s.KmsKeyId,
           Tags = next(s.Tags) and tag_list(s.Tags) or nil, VersionIdsToStages = stages, CreatedDate = s.CreatedDate,
           LastChangedDate = s.LastChangedDate, DeletedDate = s.DeletedDate, RotationEnabled = false }
end

---DescribeSecret: SecretId -> the secret's metadata (never its value).
function A.DescribeSecret(p, env) return description(require_secret(env, p.SecretId)) end

---ListSecrets: IncludePlannedDeletion -> { SecretList }, sorted by name.
function A.ListSecrets(p, env)
  local out = {}
  for _, arn in ipairs(world.ids(SECRET, not p.IncludePlannedDeletion)) do
    local s = world.get(SECRET, arn)
    if s and arn:find(":" .. env.region .. ":", 1, true) then out[#out + 1] = description(s) end
  end
  table.sort(out, function(a, b) return a.Name < b.Name end)
  return { SecretList = out }
end

---DeleteSecret: SecretId, RecoveryWindowInDays (7–30, default 30) or
---ForceDeleteWithoutRecovery -> { ARN, Name, DeletionDate }.
function A.DeleteSecret(p, env)
  local s = require_secret(env, p.SecretId)
  if p.ForceDeleteWithoutRecovery and p.RecoveryWindowInDays ~= nil then
    fail("You can't use ForceDeleteWithoutRecovery in conjunction with RecoveryWindowInDays.",
      "InvalidParameterException")
  end
  local now = env.now_ms / 1000
  if p.ForceDeleteWithoutRecovery then
    world.remove(SECRET, s.ARN)
    world.remove(NAME, name_key(env, s.Name))
    return { ARN = s.ARN, Name = s.Name, DeletionDate = now }
  end
  if s.DeletionDate then
    fail("You can't perform this operation on the secret because it was already scheduled for deletion.",
      "InvalidRequestException")
  end
  local days = tonumber(p.RecoveryWindowInDays or 30)
  if not days or days < 7 or days > 30 then
    fail("The RecoveryWindowInDays value must be between 7 and 30 days (inclusive).", "InvalidParameterException")
  end
  s.DeletedDate, s.DeletionDate = now, now + days * 86400
  save(s)
  return { ARN = s.ARN, Name = s.Name, DeletionDate = s.DeletionDate }
end

---RestoreSecret: SecretId -> { ARN, Name }; cancels a scheduled deletion.
function A.RestoreSecret(p, env)
  local s = require_secret(env, p.SecretId)
  s.DeletedDate, s.DeletionDate = nil, nil
  save(s)
  return { ARN = s.ARN, Name = s.Name }
end

---TagResource: SecretId, Tags [{Key, Value}].
function A.TagResource(p, env)
  local s = usable(env, p.SecretId)
  for k, v in pairs(tag_map(p.Tags)) do s.Tags[k] = v end
  save(s)
  return {}
end

---UntagResource: SecretId, TagKeys.
function A.UntagResource(p, env)
  local s = usable(env, p.SecretId)
  for _, k in ipairs(p.TagKeys or {}) do s.Tags[k] = nil end
  save(s)
  return {}
end

---PutResourcePolicy / GetResourcePolicy / DeleteResourcePolicy: SecretId, ResourcePolicy (JSON text).
function A.PutResourcePolicy(p, env)
  local s = usable(env, p.SecretId)
  s.ResourcePolicy = p.ResourcePolicy
  save(s)
  return { ARN = s.ARN, Name = s.Name }
end

function A.GetResourcePolicy(p, env)
  local s = require_secret(env, p.SecretId)
  return { ARN = s.ARN, Name = s.Name, ResourcePolicy = s.ResourcePolicy }
end

function A.DeleteResourcePolicy(p, env)
  local s = usable(env, p.SecretId)
  s.ResourcePolicy = nil
  save(s)
  return { ARN = s.ARN, Name = s.Name }
end

-- The character classes a password draws from, per GetRandomPassword's flags.
local function classes(p)
  local out = {}
  local exclude = p.ExcludeCharacters or ""
  local function keep(set)
    local s = set:gsub(".", function(c) return exclude:find(c, 1, true) and "" or c end)
    if s ~= "" then out[#out + 1] = s end
  end
  if not p.ExcludeLowercase then keep(LOWER) end
  if not p.ExcludeUppercase then keep(UPPER) end
  if not p.ExcludeNumbers then keep(DIGITS) end
  if not p.ExcludePunctuation then keep(PUNCTUATION) end
  if p.IncludeSpace then keep(" ") end
  return out
end

---A password of GetRandomPassword's parameters (PasswordLength 1–4096,
---default 32; Exclude*; IncludeSpace; RequireEachIncludedType, default true:
---one character of each class at a drawn position).
function A.password(p, env)
  local n = tonumber(p.PasswordLength or 32)
  if not n or n < 1 or n > 4096 or n % 1 ~= 0 then
    fail("1 validation error detected: Value '" .. tostring(p.PasswordLength) .. "' at 'passwordLength' failed to "
      .. "satisfy constraint: Member must have value " .. ((n or 0) < 1 and "greater than or equal to 1"
      or "less than or equal to 4096"), "ValidationException")
  end
  local sets = classes(p)
  if #sets == 0 then
    fail("Cannot generate a password: every character is excluded.", "InvalidParameterException")
  end
  local all = table.concat(sets)
  local chars = {}
  for i = 1, n do chars[i] = draw(env, all, 1) end
  if p.RequireEachIncludedType ~= false then
    if #sets > n then
      fail("The password length is too short to include every required character type.", "InvalidParameterException")
    end
    local free = {}
    for i = 1, n do free[i] = i end
    for _, set in ipairs(sets) do  -- one of each class, each at its own drawn position
      local k = env.new_id("int", #free) + 1
      chars[table.remove(free, k)] = draw(env, set, 1)
    end
  end
  return table.concat(chars)
end

---GetRandomPassword -> { RandomPassword }.
function A.GetRandomPassword(p, env) return { RandomPassword = A.password(p, env) } end

---The engine's {{resolve:secretsmanager:...}}: the SecretString of secret
---`id` (name or ARN) at `version_id` or `stage` -> text, or nil + Secrets
---Manager's message.
function A.resolve(id, stage, version_id, opts)
  local sim = require("sim")
  local ok, r = pcall(sim.call, "secretsmanager", "GetSecretValue",
    { SecretId = id, VersionStage = stage, VersionId = version_id }, opts)
  if ok then return r.SecretString or "" end
  return nil, (errors.message(r))
end

return A
