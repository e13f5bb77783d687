-- sim.iam_users: IAM users (inline and attached policies, permissions
-- boundary, tags, login profile, access keys) and groups (members, inline
-- and attached policies). sim.iam merges these actions into its own table,
-- so they are called as iam actions: sim.call("iam", "CreateUser", {...}).
--
-- Actions: CreateUser GetUser ListUsers UpdateUser DeleteUser TagUser UntagUser
-- ListUserTags PutUserPermissionsBoundary DeleteUserPermissionsBoundary
-- PutUserPolicy GetUserPolicy DeleteUserPolicy ListUserPolicies
-- AttachUserPolicy DetachUserPolicy ListAttachedUserPolicies
-- CreateLoginProfile GetLoginProfile UpdateLoginProfile DeleteLoginProfile
-- CreateAccessKey UpdateAccessKey DeleteAccessKey ListAccessKeys
-- CreateGroup GetGroup ListGroups UpdateGroup DeleteGroup AddUserToGroup
-- RemoveUserFromGroup ListGroupsForUser PutGroupPolicy GetGroupPolicy
-- DeleteGroupPolicy ListGroupPolicies AttachGroupPolicy DetachGroupPolicy
-- ListAttachedGroupPolicies.
--
-- IAM's messages, and where each was seen as AWS returned it:
--   User with name X already exists. (EntityAlreadyExists)        ucopacme/aws-orgs#12
--   The user with name X cannot be found. (NoSuchEntity)           ansible/ansible#45593
--   Cannot delete entity, must remove users from group first. (DeleteConflict)
--       on DeleteUser mozilla-services/userplex#17, on DeleteGroup go-to-k/delstack#40
--   Cannot delete entity, must delete login profile first.         cloud-custodian/cloud-custodian#1663
--   Cannot delete entity, must delete access keys first.           aws-controllers-k8s/community#2229
--   Cannot delete entity, must detach all policies first. / must delete policies first.
--                                                                   (as for roles, see sim.iam)
--   Login Profile for User X cannot be found. (NoSuchEntity)       ansible/ansible#43197
--   Cannot exceed quota for AccessKeysPerUser: 2 (LimitExceeded)   bartekj/aws-tools#29
--   The group with name X cannot be found. (NoSuchEntity)          quoted from the CLI in a
--                                                                   docs page (PutGroupPolicy)
--   The Access Key with id X cannot be found. (NoSuchEntity)       paws-r-sdk docs (delete_access_key)
-- Not verified verbatim (the wording IAM emulators use, by analogy with roles):
--   Group with name X already exists. / Login Profile for user X already exists.
--   The user policy with name X cannot be found. / The group policy with name X cannot be found.
-- AddUserToGroup of a member and RemoveUserFromGroup of a non-member succeed
-- without change (checked against AWS in cloud-custodian/cloud-custodian#4730).
-- DeleteUser checks login profile, access keys, groups, attached policies,
-- then inline policies (moonstack's order; AWS does not document one).
--
-- World records (kind, id):
--   "iam.user"        lower-cased UserName; refs = ARNs of its attached managed
--                     policies and of its permissions boundary (so sim.iam's
--                     DeletePolicy / ListEntitiesForPolicy find it).
--   "iam.group"       lower-cased GroupName; refs = its attached policy ARNs and
--                     the UserIds of its members (so DeleteUser finds the
--                     groups of a user with world.referrers(UserId)).
--   "iam.access_key"  the AccessKeyId; refs = { UserId of its user }.
-- UserIds, not ARNs, name users in refs: a user's ARN changes with its path.

local world = require("sim.world")
local ids = require("moonstack.ids")
local util = require("sim.cloudformation_util")
local copy = require("moonstack.values").deep_copy

local A = {}

local function fail(message, code) require("sim").fail(message, code) end
-- sim.iam's helpers (validation, tags, managed policy lookup). Required
-- lazily: sim.iam requires this module while it loads.
local function iam() return require("sim.iam") end

local ACCESS_KEYS_PER_USER = 2

local function key(name) return name:lower() end

local function arn_of(env, kind, path, name)
  return ids.arn("iam", "", env.account, kind .. path .. name)
end

-- Users ---------------------------------------------------------------------------------

local function get_user(name)
  iam().check_name(name, "userName", 64)
  local u = world.get("iam.user", key(name))
  if not u then fail("The user with name " .. name .. " cannot be found.", "NoSuchEntity") end
  u.InlineOrder, u.AttachedPolicies = util.as_list(u.InlineOrder), util.as_list(u.AttachedPolicies)
  u.Tags = util.as_list(u.Tags)
  return u
end

local function save_user(u)
  local refs = {}
  for _, arn in ipairs(u.AttachedPolicies) do refs[#refs + 1] = arn end
  if u.PermissionsBoundary then refs[#refs + 1] = u.PermissionsBoundary end
  world.put("iam.user", key(u.UserName), u, { refs = refs })
end

local function user_view(u)
  local v = { Path = u.Path, UserName = u.UserName, UserId = u.UserId, Arn = u.Arn, CreateDate = u.CreateDate }
  if u.PermissionsBoundary then
    v.PermissionsBoundary = { PermissionsBoundaryType = "PermissionsBoundaryPolicy",
      PermissionsBoundaryArn = u.PermissionsBoundary }
  end
  if #u.Tags > 0 then v.Tags = copy(u.Tags) end
  return v
end

local function check_boundary(arn)
  if arn ~= nil and not iam().policy_exists(arn) then
    fail("Policy " .. tostring(arn) .. " does not exist or is not attachable.", "NoSuchEntity")
  end
  return arn
end

-- Live records of `kind` that name the user (its groups, its access keys).
local function referring(u, kind)
  local out = {}
  for _, ref in ipairs(world.referrers(u.UserId)) do
    if ref.kind == kind then out[#out + 1] = world.get(kind, ref.id) end
  end
  return out
end

function A.CreateUser(p, env)
  local h = iam()
  local name = h.check_name(p.UserName, "userName", 64)
  local path = h.check_path(p.Path, "path")
  if world.get("iam.user", key(name)) then
    fail("User with name " .. name .. " already exists.", "EntityAlreadyExists")
  end
  local u = {
    UserName = name, Path = path, UserId = env.new_id("user_id"),
    Arn = arn_of(env, "user", path, name), CreateDate = util.iso8601(env.now_ms),
    PermissionsBoundary = check_boundary(p.PermissionsBoundary), Tags = h.merge_tags({}, p.Tags),
    InlinePolicies = {}, InlineOrder = {}, AttachedPolicies = {},
  }
  save_user(u)
  return { User = user_view(u) }
end

function A.GetUser(p) return { User = user_view(get_user(p.UserName)) } end

function A.ListUsers(p)
  local out = {}
  for _, id in ipairs(world.ids("iam.user", true)) do
    local u = get_user(world.get("iam.user", id).UserName)
    if not p.PathPrefix or u.Path:sub(1, #p.PathPrefix) == p.PathPrefix then out[#out + 1] = user_view(u) end
  end
  return { Users = out, IsTruncated = false }
end

-- NewPath and NewUserName; a rename carries the user's groups and keys along.
function A.UpdateUser(p, env)
  local h = iam()
  local u = get_user(p.UserName)
  local old_key = key(u.UserName)
  if p.NewPath ~= nil then u.Path = h.check_path(p.NewPath, "newPath") end
  if p.NewUserName ~= nil then
    local new = h.check_name(p.NewUserName, "newUserName", 64)
    if key(new) ~= old_key and world.get("iam.user", key(new)) then
      fail("User with name " .. new .. " already exists.", "EntityAlreadyExists")
    end
    for _, g in ipairs(referring(u, "iam.group")) do
      g.Members = util.as_list(g.Members)
      for i, m in ipairs(g.Members) do if key(m) == old_key then g.Members[i] = new end end
      A.save_group(g)
    end
    for _, k in ipairs(referring(u, "iam.access_key")) do
      k.UserName = new
      world.put("iam.access_key", k.AccessKeyId, k, { refs = { u.UserId } })
    end
    u.UserName = new
  end
  u.Arn = arn_of(env, "user", u.Path, u.UserName)
  if key(u.UserName) ~= old_key then world.remove("iam.user", old_key) end
  save_user(u)
  return {}
end

function A.DeleteUser(p)
  local u = get_user(p.UserName)
  if u.LoginProfile then
    fail("Cannot delete entity, must delete login profile first.", "DeleteConflict")
  end
  if #referring(u, "iam.access_key") > 0 then
    fail("Cannot delete entity, must delete access keys first.", "DeleteConflict")
  end
  if #referring(u, "iam.group") > 0 then
    fail("Cannot delete entity, must remove users from group first.", "DeleteConflict")
  end
  if #u.AttachedPolicies > 0 then
    fail("Cannot delete entity, must detach all policies first.", "DeleteConflict")
  end
  if #u.InlineOrder > 0 then
    fail("Cannot delete entity, must delete policies first.", "DeleteConflict")
  end
  world.remove("iam.user", key(u.UserName))
  return {}
end

function A.TagUser(p)
  local u = get_user(p.UserName)
  u.Tags = iam().merge_tags(u.Tags, p.Tags)
  save_user(u)
  return {}
end

function A.UntagUser(p)
  local u = get_user(p.UserName)
  u.Tags = iam().remove_tags(u.Tags, p.TagKeys)
  save_user(u)
  return {}
end

function A.ListUserTags(p) return { Tags = copy(get_user(p.UserName).Tags), IsTruncated = false } end

function A.PutUserPermissionsBoundary(p)
  local u = get_user(p.UserName)
  if p.PermissionsBoundary == nil then
    iam().invalid(nil, "permissionsBoundary", "Member must not be null")
  end
  u.PermissionsBoundary = check_boundary(p.PermissionsBoundary)
  save_user(u)
  return {}
end

function A.DeleteUserPermissionsBoundary(p)
  local u = get_user(p.UserName)
  u.PermissionsBoundary = nil
  save_user(u)
  return {}
end

-- Inline and attached policies, shared by users and groups ------------------------------------
-- `e` is a user or group record; `what` "user" or "group" (for messages).

local function put_inline(e, p)
  local h = iam()
  local name = h.check_name(p.PolicyName, "policyName", 128)
  local doc = h.check_document(p.PolicyDocument, "policyDocument", "identity")
  if e.InlinePolicies[name] == nil then e.InlineOrder[#e.InlineOrder + 1] = name end
  e.InlinePolicies[name] = copy(doc)
end

local function inline_doc(e, what, name)
  local doc = e.InlinePolicies[name or ""]
  if doc == nil then
    fail("The " .. what .. " policy with name " .. tostring(name) .. " cannot be found.", "NoSuchEntity")
  end
  return doc
end

local function delete_inline(e, what, name)
  inline_doc(e, what, name)
  e.InlinePolicies[name] = nil
  for i, n in ipairs(e.InlineOrder) do
    if n == name then table.remove(e.InlineOrder, i) break end
  end
end

local function inline_names(e)
  local names = {}
  for i, n in ipairs(e.InlineOrder) do names[i] = n end
  table.sort(names)
  return { PolicyNames = names, IsTruncated = false }
end

local function attach(e, arn)
  if arn == nil then iam().invalid(nil, "policyArn", "Member must not be null") end
  if not iam().policy_exists(arn) then
    fail("Policy " .. tostring(arn) .. " does not exist or is not attachable.", "NoSuchEntity")
  end
  for _, a in ipairs(e.AttachedPolicies) do if a == arn then return end end
  e.AttachedPolicies[#e.AttachedPolicies + 1] = arn
end

local function detach(e, arn)
  for i, a in ipairs(e.AttachedPolicies) do
    if a == arn then table.remove(e.AttachedPolicies, i) return end
  end
  fail("Policy " .. tostring(arn) .. " was not found.", "NoSuchEntity")
end

local function attached_view(e)
  local out = {}
  for i, arn in ipairs(e.AttachedPolicies) do
    local m = iam().aws_managed(arn)
    out[i] = { PolicyName = m and m.PolicyName or arn:match("([^/]+)$"), PolicyArn = arn }
  end
  return { AttachedPolicies = out, IsTruncated = false }
end

function A.PutUserPolicy(p)
  local u = get_user(p.UserName)
  put_inline(u, p)
  save_user(u)
  return {}
end

function A.GetUserPolicy(p)
  local u = get_user(p.UserName)
  return { UserName = u.UserName, PolicyName = p.PolicyName, PolicyDocument = copy(inline_doc(u, "user", p.PolicyName)) }
end

function A.DeleteUserPolicy(p)
  local u = get_user(p.UserName)
  delete_inline(u, "user", p.PolicyName)
  save_user(u)
  return {}
end

function A.ListUserPolicies(p) return inline_names(get_user(p.UserName)) end

function A.AttachUserPolicy(p)
  local u = get_user(p.UserName)
  attach(u, p.PolicyArn)
  save_user(u)
  return {}
end

function A.DetachUserPolicy(p)
  local u = get_user(p.UserName)
  detach(u, p.PolicyArn)
  save_user(u)
  return {}
end

function A.ListAttachedUserPolicies(p) return attached_view(get_user(p.UserName)) end

-- Login profiles ----------------------------------------------------------------------------------
-- The password is checked for presence only (no account password policy).

local function profile_view(u)
  return { LoginProfile = { UserName = u.UserName, CreateDate = u.LoginProfile.CreateDate,
    PasswordResetRequired = u.LoginProfile.PasswordResetRequired } }
end

local function get_profile(u)
  if not u.LoginProfile then
    fail("Login Profile for User " .. u.UserName .. " cannot be found.", "NoSuchEntity")
  end
  return u.LoginProfile
end

function A.CreateLoginProfile(p, env)
  local u = get_user(p.UserName)
  if type(p.Password) ~= "string" or p.Password == "" then
    iam().invalid(nil, "password", "Member must not be null")
  end
  if u.LoginProfile then
    fail("Login Profile for user " .. u.UserName .. " already exists.", "EntityAlreadyExists")
  end
  u.LoginProfile = { CreateDate = util.iso8601(env.now_ms),
    PasswordResetRequired = p.PasswordResetRequired == true or p.PasswordResetRequired == "true" }
  save_user(u)
  return profile_view(u)
end

function A.GetLoginProfile(p)
  local u = get_user(p.UserName)
  get_profile(u)
  return profile_view(u)
end

function A.UpdateLoginProfile(p)
  local u = get_user(p.UserName)
  local lp = get_profile(u)
  if p.PasswordResetRequired ~= nil then
    lp.PasswordResetRequired = p.PasswordResetRequired == true or p.PasswordResetRequired == "true"
  end
  save_user(u)
  return {}
end

function A.DeleteLoginProfile(p)
  local u = get_user(p.UserName)
  get_profile(u)
  u.LoginProfile = nil
  save_user(u)
  return {}
end

-- Access keys ---------------------------------------------------------------------------------------

local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

-- 40 characters of the base64 alphabet, drawn from the world's ID sequence.
local function secret(env)
  local hex, out = env.new_id("hex", 80), {}
  for i = 1, 40 do
    local j = tonumber(hex:sub(2 * i - 1, 2 * i), 16) % 64 + 1
    out[i] = B64:sub(j, j)
  end
  return table.concat(out)
end

local function key_view(k, with_secret)
  local v = { UserName = k.UserName, AccessKeyId = k.AccessKeyId, Status = k.Status, CreateDate = k.CreateDate }
  if with_secret then v.SecretAccessKey = k.SecretAccessKey end
  return v
end

local function check_status(s)
  if s ~= "Active" and s ~= "Inactive" then
    iam().invalid(s, "status", "Member must satisfy enum value set: [Active, Inactive]")
  end
  return s
end

-- The key `id` of user `name` (or of anyone when `name` is nil).
local function get_key(name, id)
  local k = type(id) == "string" and world.get("iam.access_key", id)
  if name ~= nil then
    local u = get_user(name)
    if k and k.UserId ~= u.UserId then k = nil end
  end
  if not k then fail("The Access Key with id " .. tostring(id) .. " cannot be found.", "NoSuchEntity") end
  return k
end

function A.CreateAccessKey(p, env)
  local u = get_user(p.UserName)
  if #referring(u, "iam.access_key") >= ACCESS_KEYS_PER_USER then
    fail("Cannot exceed quota for AccessKeysPerUser: " .. ACCESS_KEYS_PER_USER, "LimitExceeded")
  end
  local k = {
    AccessKeyId = "AKIA" .. env.new_id("upper_alnum", 16), SecretAccessKey = secret(env),
    Status = "Active", CreateDate = util.iso8601(env.now_ms), UserName = u.UserName, UserId = u.UserId,
  }
  world.put("iam.access_key", k.AccessKeyId, k, { refs = { u.UserId } })
  return { AccessKey = key_view(k, true) }
end

function A.UpdateAccessKey(p)
  local k = get_key(p.UserName, p.AccessKeyId)
  k.Status = check_status(p.Status)
  world.put("iam.access_key", k.AccessKeyId, k, { refs = { k.UserId } })
  return {}
end

function A.DeleteAccessKey(p)
  local k = get_key(p.UserName, p.AccessKeyId)
  world.remove("iam.access_key", k.AccessKeyId)
  return {}
end

function A.ListAccessKeys(p)
  local out = {}
  for _, k in ipairs(referring(get_user(p.UserName), "iam.access_key")) do out[#out + 1] = key_view(k, false) end
  table.sort(out, function(a, b) return a.AccessKeyId < b.AccessKeyId end)
  return { AccessKeyMetadata = out, IsTruncated = false }
end

-- Groups ----------------------------------------------------------------------------------------------

local function get_group(name)
  iam().check_name(name, "groupName", 128)
  local g = world.get("iam.group", key(name))
  if not g then fail("The group with name " .. name .. " cannot be found.", "NoSuchEntity") end
  g.InlineOrder, g.AttachedPolicies = util.as_list(g.InlineOrder), util.as_list(g.AttachedPolicies)
  g.Members, g.MemberIds = util.as_list(g.Members), util.as_list(g.MemberIds)
  return g
end

---Stores a group record (also used when a user is renamed).
function A.save_group(g)
  local refs = {}
  for _, arn in ipairs(g.AttachedPolicies) do refs[#refs + 1] = arn end
  for _, id in ipairs(g.MemberIds) do refs[#refs + 1] = id end
  world.put("iam.group", key(g.GroupName), g, { refs = refs })
end
local save_group = A.save_group

local function group_view(g)
  return { Path = g.Path, GroupName = g.GroupName, GroupId = g.GroupId, Arn = g.Arn, CreateDate = g.CreateDate }
end

function A.CreateGroup(p, env)
  local h = iam()
  local name = h.check_name(p.GroupName, "groupName", 128)
  local path = h.check_path(p.Path, "path")
  if world.get("iam.group", key(name)) then
    fail("Group with name " .. name .. " already exists.", "EntityAlreadyExists")
  end
  local g = {
    GroupName = name, Path = path, GroupId = env.new_id("group_id"), Arn = arn_of(env, "group", path, name),
    CreateDate = util.iso8601(env.now_ms), InlinePolicies = {}, InlineOrder = {}, AttachedPolicies = {},
    Members = {}, MemberIds = {},
  }
  save_group(g)
  return { Group = group_view(g) }
end

function A.GetGroup(p)
  local g = get_group(p.GroupName)
  local users = {}
  for _, name in ipairs(g.Members) do
    local u = world.get("iam.user", key(name))
    if u then u.Tags = util.as_list(u.Tags); users[#users + 1] = user_view(u) end
  end
  return { Group = group_view(g), Users = users, IsTruncated = false }
end

function A.ListGroups(p)
  local out = {}
  for _, id in ipairs(world.ids("iam.group", true)) do
    local g = world.get("iam.group", id)
    if not p.PathPrefix or g.Path:sub(1, #p.PathPrefix) == p.PathPrefix then out[#out + 1] = group_view(g) end
  end
  return { Groups = out, IsTruncated = false }
end

function A.UpdateGroup(p, env)
  local h = iam()
  local g = get_group(p.GroupName)
  local old_key = key(g.GroupName)
  if p.NewPath ~= nil then g.Path = h.check_path(p.NewPath, "newPath") end
  if p.NewGroupName ~= nil then
    local new = h.check_name(p.NewGroupName, "newGroupName", 128)
    if key(new) ~= old_key and world.get("iam.group", key(new)) then
      fail("Group with name " .. new .. " already exists.", "EntityAlreadyExists")
    end
    g.GroupName = new
  end
  g.Arn = arn_of(env, "group", g.Path, g.GroupName)
  if key(g.GroupName) ~= old_key then world.remove("iam.group", old_key) end
  save_group(g)
  return {}
end

function A.DeleteGroup(p)
  local g = get_group(p.GroupName)
  if #g.Members > 0 then
    fail("Cannot delete entity, must remove users from group first.", "DeleteConflict")
  end
  if #g.AttachedPolicies > 0 then
    fail("Cannot delete entity, must detach all policies first.", "DeleteConflict")
  end
  if #g.InlineOrder > 0 then
    fail("Cannot delete entity, must delete policies first.", "DeleteConflict")
  end
  world.remove("iam.group", key(g.GroupName))
  return {}
end

function A.AddUserToGroup(p)
  local g = get_group(p.GroupName)
  local u = get_user(p.UserName)
  for _, id in ipairs(g.MemberIds) do if id == u.UserId then return {} end end
  g.Members[#g.Members + 1] = u.UserName
  g.MemberIds[#g.MemberIds + 1] = u.UserId
  save_group(g)
  return {}
end

function A.RemoveUserFromGroup(p)
  local g = get_group(p.GroupName)
  local u = get_user(p.UserName)
  for i, id in ipairs(g.MemberIds) do
    if id == u.UserId then
      table.remove(g.MemberIds, i)
      table.remove(g.Members, i)
      save_group(g)
      break
    end
  end
  return {}
end

function A.ListGroupsForUser(p)
  local out = {}
  for _, g in ipairs(referring(get_user(p.UserName), "iam.group")) do out[#out + 1] = group_view(g) end
  table.sort(out, function(a, b) return a.GroupName < b.GroupName end)
  return { Groups = out, IsTruncated = false }
end

function A.PutGroupPolicy(p)
  local g = get_group(p.GroupName)
  put_inline(g, p)
  save_group(g)
  return {}
end

function A.GetGroupPolicy(p)
  local g = get_group(p.GroupName)
  return { GroupName = g.GroupName, PolicyName = p.PolicyName, PolicyDocument = copy(inline_doc(g, "group", p.PolicyName)) }
end

function A.DeleteGroupPolicy(p)
  local g = get_group(p.GroupName)
  delete_inline(g, "group", p.PolicyName)
  save_group(g)
  return {}
end

function A.ListGroupPolicies(p) return inline_names(get_group(p.GroupName)) end

function A.AttachGroupPolicy(p)
  local g = get_group(p.GroupName)
  attach(g, p.PolicyArn)
  save_group(g)
  return {}
end

function A.DetachGroupPolicy(p)
  local g = get_group(p.GroupName)
  detach(g, p.PolicyArn)
  save_group(g)
  return {}
end

function A.ListAttachedGroupPolicies(p) return attached_view(get_group(p.GroupName)) end

return A
