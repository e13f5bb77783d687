-- sim.iam: the simulated IAM service: roles (with inline and attached
-- policies), customer managed policies (with versions) and instance
-- profiles. Users and groups are sim.iam_users' (merged in at the end).
--
-- Actions: CreateRole GetRole ListRoles DeleteRole UpdateRole
-- UpdateAssumeRolePolicy PutRolePermissionsBoundary DeleteRolePermissionsBoundary
-- TagRole UntagRole ListRoleTags PutRolePolicy GetRolePolicy DeleteRolePolicy
-- ListRolePolicies AttachRolePolicy DetachRolePolicy ListAttachedRolePolicies
-- CreatePolicy GetPolicy DeletePolicy CreatePolicyVersion GetPolicyVersion
-- ListPolicyVersions DeletePolicyVersion SetDefaultPolicyVersion
-- ListEntitiesForPolicy CreateInstanceProfile GetInstanceProfile
-- DeleteInstanceProfile AddRoleToInstanceProfile RemoveRoleFromInstanceProfile
-- ListInstanceProfilesForRole ListInstanceProfiles.
-- Policy documents are kept as given (a JSON string or a table), their
-- form checked as IAM checks it (sim/iam_policy.lua: MalformedPolicyDocument).
-- AWS managed policies (arn:aws:iam::aws:policy/...) exist implicitly.
--
-- Actions take and return AWS's shapes (boto3 / `aws iam ... --cli-input-json`)
-- and fail with IAM's messages and error codes. Sources of the texts:
--   Role with name X already exists. (EntityAlreadyExists)        terraform-community-modules/tf_aws_nat#13
--   The role with name X cannot be found. (NoSuchEntity)           jarpy/lambkin#3
--   The role policy with name X cannot be found. (NoSuchEntity)    aws/aws-cli#6139
--   Cannot delete entity, must delete policies first.              awslabs/aws-orbit-workbench#633
--   Cannot delete entity, must detach all policies first.          hashicorp/boundary#5646
--   Cannot delete entity, must remove roles from instance profile first.
--                                       99designs/iamy#68 (DeleteRole), #47 (DeleteInstanceProfile)
--   Cannot delete a policy attached to entities. (DeleteConflict)  serverless/components#312
--   Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1 (LimitExceeded)
--                                       getmoto/moto#6404 (checked against AWS there)
--   Instance Profile X cannot be found. (NoSuchEntity)             skyplane-project/skyplane#724
--   Instance Profile X already exists. (EntityAlreadyExists)       ine-labs/AWSGoat#49
--   A policy called X already exists. Duplicate names are not allowed.
--                                       Aabyss-Team/awsKeyTools#13
--   Policy <arn> does not exist or is not attachable. (NoSuchEntity)
--                                       getmoto/moto#6482 (AWS output quoted there)
--   1 validation error detected: Value 'x' at 'roleName' failed to satisfy
--   constraint: Member must have length less than or equal to 64   udondan/cdk-ec2-key-pair#11
-- Not verified verbatim (IAM's wording as other tools reproduce it):
--   Policy <arn> was not found. (GetPolicy / DetachRolePolicy)
--   A managed policy can have up to 5 versions. ... (LimitExceeded)
--   Cannot delete the default version of a policy. (DeleteConflict)
--   This policy has more than one version. ... (DeleteConflict)
--   Cannot exceed quota for PoliciesPerRole: 10 (LimitExceeded)
-- DeleteRole checks instance profiles, then attached, then inline policies
-- (the order moto documents as AWS's).
--
-- World records (kind, id):
--   "iam.role"             lower-cased RoleName (IAM names are unique without
--                          regard to case); refs = the ARNs of the managed
--                          policies attached to it and of its permissions
--                          boundary, so a policy finds the roles using it
--                          with world.referrers(policy ARN).
--   "iam.policy"           lower-cased PolicyName (unique in the account);
--   "iam.instance_profile" lower-cased InstanceProfileName; refs = the ARNs
--                          of its roles, so DeleteRole finds its profiles
--                          with world.referrers(role ARN).
-- "config"/"iam" may hold { PoliciesPerRole = n } (default 10, AWS's default
-- quota) and AwsManagedPolicies (AWS managed policies newer than the
-- generated list: see aws_managed below).

local world = require("sim.world")
local ids = require("moonstack.ids")
local util = require("sim.cloudformation_util")

local A = {}

local function fail(message, code) require("sim").fail(message, code) end

-- Validation ---------------------------------------------------------------------

-- AWS's service-side validation format.
local function invalid(value, field, constraint)
  local shown = value == nil and "null" or ("'" .. tostring(value) .. "'")
  fail("1 validation error detected: Value " .. shown .. " at '" .. field
    .. "' failed to satisfy constraint: " .. constraint, "ValidationError")
end

local NAME_PATTERN = "^[%w+=,%.@_%-]+$"

-- A name parameter (RoleName, PolicyName, InstanceProfileName).
local function check_name(value, field, max)
  if value == nil then invalid(nil, field, "Member must not be null") end
  if type(value) ~= "string" or value == "" then
    invalid(value, field, "Member must have length greater than or equal to 1")
  end
  if #value > max then
    invalid(value, field, "Member must have length less than or equal to " .. max)
  end
  if not value:match(NAME_PATTERN) then
    invalid(value, field, "Member must satisfy regular expression pattern: [\\w+=,.@-]+")
  end
  return value
end

local function check_path(value, field)
  if value == nil then return "/" end
  if type(value) ~= "string" or #value > 512 or not (value == "/" or
      (value:match("^/[\33-\127]+/$") ~= nil)) then
    invalid(value, field,
      "Member must satisfy regular expression pattern: (\\u002F)|(\\u002F[\\u0021-\\u007F]+\\u002F)")
  end
  return value
end

-- A policy document parameter; `kind` "identity" or "trust" checks its
-- form as IAM does (sim/iam_policy.lua), `env` the caller's (a trust
-- policy's principals of its account must exist).
local function check_document(value, field, kind, env)
  if value == nil then invalid(nil, field, "Member must not be null") end
  if type(value) ~= "string" and type(value) ~= "table" then
    fail("Syntax errors in policy.", "MalformedPolicyDocument")
  end
  local policies = require("sim.iam_policy")
  if kind == "identity" then
    policies.check_identity(value)
  elseif kind == "trust" then
    policies.check_trust(value, function(arn)
      local account, what, rest = arn:match("^arn:[^:]+:iam::(%d+):(%a+)/(.+)$")
      if account ~= env.account then return nil end
      local record = world.get(what == "role" and "iam.role" or "iam.user", (rest:match("([^/]+)$") or ""):lower())
      return record ~= nil and record.Arn == arn
    end)
  end
  return value
end

local copy = require("moonstack.values").deep_copy

-- Tags: a list of { Key, Value }; merging keeps the list's order.
local function merge_tags(old, new)
  local out, at = {}, {}
  for _, t in ipairs(old or {}) do out[#out + 1] = { Key = t.Key, Value = t.Value }; at[t.Key] = #out end
  for _, t in ipairs(new or {}) do
    if type(t) ~= "table" or type(t.Key) ~= "string" then
      invalid(nil, "tags.member.key", "Member must not be null")
    end
    local v = t.Value == nil and "" or tostring(t.Value)
    if at[t.Key] then out[at[t.Key]].Value = v
    else out[#out + 1] = { Key = t.Key, Value = v }; at[t.Key] = #out end
  end
  return out
end

local function remove_tags(old, keys)
  local drop = {}
  for _, k in ipairs(keys or {}) do drop[k] = true end
  local out = {}
  for _, t in ipairs(old or {}) do if not drop[t.Key] then out[#out + 1] = t end end
  return out
end

-- AWS managed policies ------------------------------------------------------------

-- arn:aws:iam::aws:policy/<path><name>: AWS's own managed policies exist in
-- every account. Those AWS has are listed in sim/iam_managed_policies.lua
-- (generated); "config"/"iam" AwsManagedPolicies = { "<path><name>", ... }
-- adds newer ones. Any other, a misspelt name or a missing path
-- (AWSLambdaBasicExecutionRole without service-role/, aws/aws-cdk#19830),
-- is IAM's NoSuchEntity, as on AWS.
local managed_policies  -- the generated list, loaded when first needed

local function listed(key)
  managed_policies = managed_policies or require("sim.iam_managed_policies")
  if managed_policies[key] then return true end
  local cfg = world.get("config", "iam")
  for _, extra in ipairs(type(cfg) == "table" and util.as_list(cfg.AwsManagedPolicies) or {}) do
    if extra == key then return true end
  end
  return false
end

local function aws_managed(arn)
  if type(arn) ~= "string" then return nil end
  local partition, rest = arn:match("^arn:(aws[%w%-]*):iam::aws:policy(/.+)$")
  if not rest then return nil end
  local path, name = rest:match("^(.*/)([^/]+)$")
  if not name or not name:match(NAME_PATTERN) or not listed(path:sub(2) .. name) then return nil end
  return { PolicyName = name, Path = path, Arn = arn, partition = partition }
end

-- Roles ------------------------------------------------------------------------------

local function role_key(name) return name:lower() end

local function get_role(name)
  check_name(name, "roleName", 64)
  local r = world.get("iam.role", role_key(name))
  if not r then fail("The role with name " .. name .. " cannot be found.", "NoSuchEntity") end
  r.InlineOrder, r.AttachedPolicies = util.as_list(r.InlineOrder), util.as_list(r.AttachedPolicies)
  r.Tags = util.as_list(r.Tags)
  return r
end

-- Store a role; its refs are what it depends on: attached policies and its
-- permissions boundary.
local function save_role(r)
  local refs = {}
  for _, arn in ipairs(r.AttachedPolicies) do refs[#refs + 1] = arn end
  if r.PermissionsBoundary then refs[#refs + 1] = r.PermissionsBoundary end
  world.put("iam.role", role_key(r.RoleName), r, { refs = refs })
end

-- The Role shape of GetRole / CreateRole.
local function role_view(r)
  local v = {
    Path = r.Path, RoleName = r.RoleName, RoleId = r.RoleId, Arn = r.Arn,
    CreateDate = r.CreateDate, AssumeRolePolicyDocument = copy(r.AssumeRolePolicyDocument),
    Description = r.Description, MaxSessionDuration = r.MaxSessionDuration,
  }
  if r.PermissionsBoundary then
    v.PermissionsBoundary = {
      PermissionsBoundaryType = "PermissionsBoundaryPolicy",
      PermissionsBoundaryArn = r.PermissionsBoundary,
    }
  end
  if #r.Tags > 0 then v.Tags = copy(r.Tags) end
  return v
end

local function check_session(v)
  if v == nil then return 3600 end
  local n = tonumber(v)
  if not n or n % 1 ~= 0 then invalid(v, "maxSessionDuration", "Member must not be null") end
  if n < 3600 then invalid(n, "maxSessionDuration", "Member must have value greater than or equal to 3600") end
  if n > 43200 then invalid(n, "maxSessionDuration", "Member must have value less than or equal to 43200") end
  return n
end

-- A managed policy ARN that exists: an AWS managed one, or a customer policy
-- of this account.
local function policy_exists(arn)
  if aws_managed(arn) then return true end
  local name = type(arn) == "string" and arn:match(":policy/.-([^/]+)$")
  local p = name and world.get("iam.policy", name:lower())
  return p ~= nil and p.Arn == arn
end

local function check_boundary(arn)
  if arn == nil then return nil end
  if not policy_exists(arn) then
    fail("Policy " .. tostring(arn) .. " does not exist or is not attachable.", "NoSuchEntity")
  end
  return arn
end

function A.CreateRole(p, env)
  local name = check_name(p.RoleName, "roleName", 64)
  local path = check_path(p.Path, "path")
  local doc = check_document(p.AssumeRolePolicyDocument, "assumeRolePolicyDocument", "trust", env)
  if p.Description ~= nil and (type(p.Description) ~= "string" or #p.Description > 1000) then
    invalid(p.Description, "description", "Member must have length less than or equal to 1000")
  end
  local session = check_session(p.MaxSessionDuration)
  if world.get("iam.role", role_key(name)) then
    fail("Role with name " .. name .. " already exists.", "EntityAlreadyExists")
  end
  local boundary = check_boundary(p.PermissionsBoundary)
  local r = {
    RoleName = name, Path = path, RoleId = env.new_id("role_id"),
    Arn = ids.role_arn(env.account, name, path), CreateDate = util.iso8601(env.now_ms),
    AssumeRolePolicyDocument = copy(doc), Description = p.Description,
    MaxSessionDuration = session, PermissionsBoundary = boundary,
    Tags = merge_tags({}, p.Tags), InlinePolicies = {}, InlineOrder = {}, AttachedPolicies = {},
  }
  save_role(r)
  return { Role = role_view(r) }
end

function A.GetRole(p)
  return { Role = role_view(get_role(p.RoleName)) }
end

function A.ListRoles(p)
  local out = {}
  for _, key in ipairs(world.ids("iam.role", true)) do
    local r = world.get("iam.role", key)
    if not p.PathPrefix or r.Path:sub(1, #p.PathPrefix) == p.PathPrefix then out[#out + 1] = role_view(r) end
  end
  return { Roles = out, IsTruncated = false }
end

function A.DeleteRole(p)
  local r = get_role(p.RoleName)
  for _, ref in ipairs(world.referrers(r.Arn)) do
    if ref.kind == "iam.instance_profile" then
      fail("Cannot delete entity, must remove roles from instance profile first.", "DeleteConflict")
    end
  end
  if #r.AttachedPolicies > 0 then
    fail("Cannot delete entity, must detach all policies first.", "DeleteConflict")
  end
  if #r.InlineOrder > 0 then
    fail("Cannot delete entity, must delete policies first.", "DeleteConflict")
  end
  world.remove("iam.role", role_key(r.RoleName))
  return {}
end

function A.UpdateRole(p)
  local r = get_role(p.RoleName)
  if p.Description ~= nil then
    if type(p.Description) ~= "string" or #p.Description > 1000 then
      invalid(p.Description, "description", "Member must have length less than or equal to 1000")
    end
    r.Description = p.Description
  end
  if p.MaxSessionDuration ~= nil then r.MaxSessionDuration = check_session(p.MaxSessionDuration) end
  save_role(r)
  return {}
end

function A.UpdateAssumeRolePolicy(p, env)
  local r = get_role(p.RoleName)
  r.AssumeRolePolicyDocument = copy(check_document(p.PolicyDocument, "policyDocument", "trust", env))
  save_role(r)
  return {}
end

function A.PutRolePermissionsBoundary(p)
  local r = get_role(p.RoleName)
  if p.PermissionsBoundary == nil then invalid(nil, "permissionsBoundary", "Member must not be null") end
  r.PermissionsBoundary = check_boundary(p.PermissionsBoundary)
  save_role(r)
  return {}
end

function A.DeleteRolePermissionsBoundary(p)
  local r = get_role(p.RoleName)
  r.PermissionsBoundary = nil
  save_role(r)
  return {}
end

function A.TagRole(p)
  local r = get_role(p.RoleName)
  r.Tags = merge_tags(r.Tags, p.Tags)
  save_role(r)
  return {}
end

function A.UntagRole(p)
  local r = get_role(p.RoleName)
  r.Tags = remove_tags(r.Tags, p.TagKeys)
  save_role(r)
  return {}
end

function A.ListRoleTags(p)
  return { Tags = copy(get_role(p.RoleName).Tags), IsTruncated = false }
end

-- Inline policies ----------------------------------------------------------------------

function A.PutRolePolicy(p)
  local r = get_role(p.RoleName)
  local name = check_name(p.PolicyName, "policyName", 128)
  local doc = check_document(p.PolicyDocument, "policyDocument", "identity")
  if r.InlinePolicies[name] == nil then r.InlineOrder[#r.InlineOrder + 1] = name end
  r.InlinePolicies[name] = copy(doc)
  save_role(r)
  return {}
end

local function inline_missing(name)
  fail("The role policy with name " .. tostring(name) .. " cannot be found.", "NoSuchEntity")
end

function A.GetRolePolicy(p)
  local r = get_role(p.RoleName)
  local doc = r.InlinePolicies[p.PolicyName or ""]
  if doc == nil then inline_missing(p.PolicyName) end
  return { RoleName = r.RoleName, PolicyName = p.PolicyName, PolicyDocument = copy(doc) }
end

function A.DeleteRolePolicy(p)
  local r = get_role(p.RoleName)
  local name = p.PolicyName
  if r.InlinePolicies[name or ""] == nil then inline_missing(name) end
  r.InlinePolicies[name] = nil
  for i, n in ipairs(r.InlineOrder) do
    if n == name then table.remove(r.InlineOrder, i) break end
  end
  save_role(r)
  return {}
end

function A.ListRolePolicies(p)
  local r = get_role(p.RoleName)
  local names = {}
  for i, n in ipairs(r.InlineOrder) do names[i] = n end
  table.sort(names)
  return { PolicyNames = names, IsTruncated = false }
end

-- Attached managed policies ----------------------------------------------------------------

local function policy_name_of(arn)
  local m = aws_managed(arn)
  if m then return m.PolicyName end
  return arn:match("([^/]+)$")
end

function A.AttachRolePolicy(p)
  local r = get_role(p.RoleName)
  local arn = p.PolicyArn
  if arn == nil then invalid(nil, "policyArn", "Member must not be null") end
  if not policy_exists(arn) then
    fail("Policy " .. tostring(arn) .. " does not exist or is not attachable.", "NoSuchEntity")
  end
  for _, a in ipairs(r.AttachedPolicies) do
    if a == arn then return {} end -- attaching twice changes nothing
  end
  local cfg = world.get("config", "iam") or {}
  local quota = tonumber(cfg.PoliciesPerRole) or 10
  if #r.AttachedPolicies >= quota then
    fail("Cannot exceed quota for PoliciesPerRole: " .. quota, "LimitExceeded")
  end
  r.AttachedPolicies[#r.AttachedPolicies + 1] = arn
  save_role(r)
  return {}
end

function A.DetachRolePolicy(p)
  local r = get_role(p.RoleName)
  for i, a in ipairs(r.AttachedPolicies) do
    if a == p.PolicyArn then
      table.remove(r.AttachedPolicies, i)
      save_role(r)
      return {}
    end
  end
  fail("Policy " .. tostring(p.PolicyArn) .. " was not found.", "NoSuchEntity")
end

function A.ListAttachedRolePolicies(p)
  local r = get_role(p.RoleName)
  local out = {}
  for i, arn in ipairs(r.AttachedPolicies) do
    out[i] = { PolicyName = policy_name_of(arn), PolicyArn = arn }
  end
  return { AttachedPolicies = out, IsTruncated = false }
end

-- Customer managed policies ------------------------------------------------------------------

local MAX_VERSIONS = 5

-- The customer policy of `arn`, or a NoSuchEntity error.
local function get_policy(arn)
  if arn == nil then invalid(nil, "policyArn", "Member must not be null") end
  local name = type(arn) == "string" and arn:match(":policy/.-([^/]+)$")
  local pol = name and world.get("iam.policy", name:lower())
  if not pol or pol.Arn ~= arn then
    fail("Policy " .. tostring(arn) .. " was not found.", "NoSuchEntity")
  end
  pol.Versions, pol.Tags = util.as_list(pol.Versions), util.as_list(pol.Tags)
  return pol
end

local function save_policy(pol) world.put("iam.policy", pol.PolicyName:lower(), pol) end

local function default_version(pol)
  for _, v in ipairs(pol.Versions) do if v.IsDefaultVersion then return v end end
end

-- Roles, users and groups using `arn`: attached (AttachmentCount) and as a
-- boundary; the third result maps a kind to the records it is attached to.
local USERS_OF_POLICIES = { ["iam.role"] = true, ["iam.user"] = true, ["iam.group"] = true }
local function usage(arn)
  local attached, boundary, by_kind = 0, 0, { ["iam.role"] = {}, ["iam.user"] = {}, ["iam.group"] = {} }
  for _, ref in ipairs(world.referrers(arn)) do
    if USERS_OF_POLICIES[ref.kind] then
      local r = world.get(ref.kind, ref.id)
      for _, a in ipairs(util.as_list(r.AttachedPolicies)) do
        if a == arn then attached = attached + 1; table.insert(by_kind[ref.kind], r) break end
      end
      if r.PermissionsBoundary == arn then boundary = boundary + 1 end
    end
  end
  return attached, boundary, by_kind
end

local function policy_view(pol, with_description)
  local attached, boundary = usage(pol.Arn)
  local v = {
    PolicyName = pol.PolicyName, PolicyId = pol.PolicyId, Arn = pol.Arn, Path = pol.Path,
    DefaultVersionId = default_version(pol).VersionId, AttachmentCount = attached,
    PermissionsBoundaryUsageCount = boundary, IsAttachable = true,
    CreateDate = pol.CreateDate, UpdateDate = pol.UpdateDate,
  }
  if with_description then v.Description = pol.Description end
  if pol.Tags and #pol.Tags > 0 then v.Tags = copy(pol.Tags) end
  return v
end

function A.CreatePolicy(p, env)
  local name = check_name(p.PolicyName, "policyName", 128)
  local path = check_path(p.Path, "path")
  local doc = check_document(p.PolicyDocument, "policyDocument", "identity")
  if world.get("iam.policy", name:lower()) then
    fail("A policy called " .. name .. " already exists. Duplicate names are not allowed.", "EntityAlreadyExists")
  end
  local now = util.iso8601(env.now_ms)
  local pol = {
    PolicyName = name, Path = path, PolicyId = env.new_id("policy_id"),
    Arn = ids.arn("iam", "", env.account, "policy" .. path .. name),
    Description = p.Description, CreateDate = now, UpdateDate = now,
    Versions = { { VersionId = "v1", Document = copy(doc), IsDefaultVersion = true, CreateDate = now } },
    NextVersion = 2, Tags = merge_tags({}, p.Tags),
  }
  save_policy(pol)
  return { Policy = policy_view(pol, false) }
end

function A.GetPolicy(p)
  local m = aws_managed(p.PolicyArn)
  if m then
    local attached, boundary = usage(m.Arn)
    return { Policy = {
      PolicyName = m.PolicyName, Path = m.Path, Arn = m.Arn,
      PolicyId = "ANPA" .. util.hash_hex(m.Arn, 17):upper(), DefaultVersionId = "v1",
      AttachmentCount = attached, PermissionsBoundaryUsageCount = boundary, IsAttachable = true,
    } }
  end
  return { Policy = policy_view(get_policy(p.PolicyArn), true) }
end

function A.DeletePolicy(p)
  local pol = get_policy(p.PolicyArn)
  if #world.referrers(pol.Arn) > 0 then
    fail("Cannot delete a policy attached to entities.", "DeleteConflict")
  end
  if #pol.Versions > 1 then
    fail("This policy has more than one version. Before you delete a policy, you must delete the policy's versions. The default version is deleted with the policy.", "DeleteConflict")
  end
  world.remove("iam.policy", pol.PolicyName:lower())
  return {}
end

local function version_view(v, with_document)
  local out = { VersionId = v.VersionId, IsDefaultVersion = v.IsDefaultVersion, CreateDate = v.CreateDate }
  if with_document then out.Document = copy(v.Document) end
  return out
end

function A.CreatePolicyVersion(p, env)
  local pol = get_policy(p.PolicyArn)
  local doc = check_document(p.PolicyDocument, "policyDocument", "identity")
  if #pol.Versions >= MAX_VERSIONS then
    fail("A managed policy can have up to 5 versions. Before you create a new version, you must delete an existing version.", "LimitExceeded")
  end
  local now = util.iso8601(env.now_ms)
  local v = { VersionId = "v" .. pol.NextVersion, Document = copy(doc), IsDefaultVersion = false, CreateDate = now }
  pol.NextVersion = pol.NextVersion + 1
  if p.SetAsDefault == true or p.SetAsDefault == "true" then
    for _, old in ipairs(pol.Versions) do old.IsDefaultVersion = false end
    v.IsDefaultVersion = true
    pol.UpdateDate = now
  end
  pol.Versions[#pol.Versions + 1] = v
  save_policy(pol)
  return { PolicyVersion = version_view(v, false) }
end

local function find_version(pol, id)
  for i, v in ipairs(pol.Versions) do if v.VersionId == id then return v, i end end
  fail("Policy " .. pol.Arn .. " version " .. tostring(id) .. " does not exist or is not attachable.", "NoSuchEntity")
end

function A.GetPolicyVersion(p)
  local m = aws_managed(p.PolicyArn)
  if m then
    if p.VersionId ~= "v1" then find_version({ Arn = m.Arn, Versions = {} }, p.VersionId) end
    return { PolicyVersion = { VersionId = "v1", IsDefaultVersion = true,
      Document = { Version = "2012-10-17", Statement = {} } } }
  end
  local pol = get_policy(p.PolicyArn)
  return { PolicyVersion = version_view(find_version(pol, p.VersionId), true) }
end

function A.ListPolicyVersions(p)
  local pol = get_policy(p.PolicyArn)
  local out = {}
  -- Newest first, as IAM lists them.
  for i = #pol.Versions, 1, -1 do out[#out + 1] = version_view(pol.Versions[i], false) end
  return { Versions = out, IsTruncated = false }
end

function A.DeletePolicyVersion(p)
  local pol = get_policy(p.PolicyArn)
  local v, i = find_version(pol, p.VersionId)
  if v.IsDefaultVersion then
    fail("Cannot delete the default version of a policy.", "DeleteConflict")
  end
  table.remove(pol.Versions, i)
  save_policy(pol)
  return {}
end

function A.SetDefaultPolicyVersion(p, env)
  local pol = get_policy(p.PolicyArn)
  local v = find_version(pol, p.VersionId)
  for _, old in ipairs(pol.Versions) do old.IsDefaultVersion = false end
  v.IsDefaultVersion = true
  pol.UpdateDate = util.iso8601(env.now_ms)
  save_policy(pol)
  return {}
end

function A.ListEntitiesForPolicy(p)
  local arn = p.PolicyArn
  if not aws_managed(arn) then get_policy(arn) end
  local _, _, by_kind = usage(arn)
  local roles, users, groups = {}, {}, {}
  for i, r in ipairs(by_kind["iam.role"]) do roles[i] = { RoleName = r.RoleName, RoleId = r.RoleId } end
  for i, u in ipairs(by_kind["iam.user"]) do users[i] = { UserName = u.UserName, UserId = u.UserId } end
  for i, g in ipairs(by_kind["iam.group"]) do groups[i] = { GroupName = g.GroupName, GroupId = g.GroupId } end
  return { PolicyRoles = roles, PolicyUsers = users, PolicyGroups = groups, IsTruncated = false }
end

-- Instance profiles ---------------------------------------------------------------------------

local function get_profile(name)
  check_name(name, "instanceProfileName", 128)
  local ip = world.get("iam.instance_profile", name:lower())
  if not ip then fail("Instance Profile " .. name .. " cannot be found.", "NoSuchEntity") end
  ip.Roles, ip.RoleArns = util.as_list(ip.Roles), util.as_list(ip.RoleArns)
  return ip
end

local function save_profile(ip)
  local refs = {}
  for i, arn in ipairs(ip.RoleArns) do refs[i] = arn end
  world.put("iam.instance_profile", ip.InstanceProfileName:lower(), ip, { refs = refs })
end

local function profile_view(ip)
  local roles = {}
  for _, name in ipairs(ip.Roles) do
    local r = world.get("iam.role", role_key(name))
    if r then roles[#roles + 1] = role_view(r) end
  end
  local v = {
    Path = ip.Path, InstanceProfileName = ip.InstanceProfileName,
    InstanceProfileId = ip.InstanceProfileId, Arn = ip.Arn, CreateDate = ip.CreateDate, Roles = roles,
  }
  if ip.Tags and #ip.Tags > 0 then v.Tags = copy(ip.Tags) end
  return v
end

function A.CreateInstanceProfile(p, env)
  local name = check_name(p.InstanceProfileName, "instanceProfileName", 128)
  local path = check_path(p.Path, "path")
  if world.get("iam.instance_profile", name:lower()) then
    fail("Instance Profile " .. name .. " already exists.", "EntityAlreadyExists")
  end
  local ip = {
    InstanceProfileName = name, Path = path, InstanceProfileId = env.new_id("instance_profile_id"),
    Arn = ids.instance_profile_arn(env.account, name, path), CreateDate = util.iso8601(env.now_ms),
    Roles = {}, RoleArns = {}, Tags = merge_tags({}, p.Tags),
  }
  save_profile(ip)
  return { InstanceProfile = profile_view(ip) }
end

function A.GetInstanceProfile(p)
  return { InstanceProfile = profile_view(get_profile(p.InstanceProfileName)) }
end

function A.DeleteInstanceProfile(p)
  local ip = get_profile(p.InstanceProfileName)
  if #ip.Roles > 0 then
    fail("Cannot delete entity, must remove roles from instance profile first.", "DeleteConflict")
  end
  world.remove("iam.instance_profile", ip.InstanceProfileName:lower())
  return {}
end

function A.AddRoleToInstanceProfile(p)
  local ip = get_profile(p.InstanceProfileName)
  local r = get_role(p.RoleName)
  -- An instance profile holds one role; AWS cannot raise that quota.
  if #ip.Roles >= 1 then
    fail("Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1", "LimitExceeded")
  end
  ip.Roles[#ip.Roles + 1] = r.RoleName
  ip.RoleArns[#ip.RoleArns + 1] = r.Arn
  save_profile(ip)
  return {}
end

function A.RemoveRoleFromInstanceProfile(p)
  local ip = get_profile(p.InstanceProfileName)
  check_name(p.RoleName, "roleName", 64)
  for i, name in ipairs(ip.Roles) do
    if name:lower() == p.RoleName:lower() then
      table.remove(ip.Roles, i)
      table.remove(ip.RoleArns, i)
      save_profile(ip)
      return {}
    end
  end
  fail("The role with name " .. p.RoleName .. " cannot be found.", "NoSuchEntity")
end

function A.ListInstanceProfilesForRole(p)
  local r = get_role(p.RoleName)
  local out = {}
  for _, ref in ipairs(world.referrers(r.Arn)) do
    if ref.kind == "iam.instance_profile" then
      out[#out + 1] = profile_view(world.get("iam.instance_profile", ref.id))
    end
  end
  return { InstanceProfiles = out, IsTruncated = false }
end

function A.ListInstanceProfiles(p)
  local out = {}
  for _, key in ipairs(world.ids("iam.instance_profile", true)) do
    out[#out + 1] = profile_view(world.get("iam.instance_profile", key))
  end
  return { InstanceProfiles = out, IsTruncated = false }
end

-- Helpers for other modules (lower-case: not actions) ----------------------------------------

---True when `arn` names a managed policy that exists (AWS managed or of
---this account).
A.policy_exists = policy_exists
-- Shared with sim.iam_users.
A.check_name, A.check_path, A.check_document, A.invalid = check_name, check_path, check_document, invalid
A.merge_tags, A.remove_tags, A.aws_managed = merge_tags, remove_tags, aws_managed

-- Users and groups (sim.iam_users): their actions are IAM's too.
for name, fn in pairs(require("sim.iam_users")) do
  if name:match("^%u") then A[name] = fn end
end

return A
