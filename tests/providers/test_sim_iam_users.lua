-- The simulated IAM's users and groups (sim.iam_users): users with policies,
-- login profiles and access keys, groups with members and policies; IAM's
-- messages, the DeleteConflict cases, and managed policies seeing them.
local H = require("harness")
local T = H.suite("sim iam users and groups")

local DOC = { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = "s3:*", Resource = "*" } } }
local RO = "arn:aws:iam::aws:policy/ReadOnlyAccess"

local function iam()
  local world, sim = fresh()
  return sim.client().iam, world
end

T.case("CreateUser returns the user: ID, ARN with its path; GetUser; names unique without case", function()
  local c, world = iam()
  world.set_now_ms(86400000)
  local u = c.CreateUser({ UserName = "Bob", Path = "/staff/", Tags = { { Key = "team", Value = "x" } } }).User
  H.match(u.UserId, "^AIDA[A-Z0-9]+$")
  H.eq(#u.UserId, 21)
  H.eq(u.Arn, "arn:aws:iam::123456789012:user/staff/Bob")
  H.eq(u.CreateDate, "1970-01-02T00:00:00Z")
  H.same(c.GetUser({ UserName = "bob" }).User, u)
  local e = H.raises(function() c.CreateUser({ UserName = "BOB" }) end, "User with name BOB already exists.")
  H.eq(e.code, "EntityAlreadyExists")
  e = H.raises(function() c.GetUser({ UserName = "nope" }) end, "The user with name nope cannot be found.")
  H.eq(e.code, "NoSuchEntity")
  H.raises(function() c.CreateUser({ UserName = string.rep("a", 65) }) end,
    "1 validation error detected: Value '" .. string.rep("a", 65) .. "' at 'userName' failed to satisfy constraint: Member must have length less than or equal to 64")
  H.eq(#c.ListUsers({}).Users, 1)
end)

T.case("UpdateUser changes the path and the name; groups and keys follow a rename", function()
  local c = iam()
  c.CreateUser({ UserName = "a" })
  c.CreateGroup({ GroupName = "g" })
  c.AddUserToGroup({ GroupName = "g", UserName = "a" })
  local key = c.CreateAccessKey({ UserName = "a" }).AccessKey.AccessKeyId
  c.UpdateUser({ UserName = "a", NewPath = "/p/", NewUserName = "b" })
  H.raises(function() c.GetUser({ UserName = "a" }) end, "The user with name a cannot be found.")
  H.eq(c.GetUser({ UserName = "b" }).User.Arn, "arn:aws:iam::123456789012:user/p/b")
  H.eq(c.GetGroup({ GroupName = "g" }).Users[1].UserName, "b")
  H.eq(c.ListAccessKeys({ UserName = "b" }).AccessKeyMetadata[1].AccessKeyId, key)
  H.eq(c.ListGroupsForUser({ UserName = "b" }).Groups[1].GroupName, "g")
end)

T.case("tags, boundary, inline and attached user policies", function()
  local c = iam()
  c.CreateUser({ UserName = "u", Tags = { { Key = "a", Value = "1" } } })
  c.TagUser({ UserName = "u", Tags = { { Key = "b", Value = "2" } } })
  c.UntagUser({ UserName = "u", TagKeys = { "a" } })
  H.same(c.ListUserTags({ UserName = "u" }).Tags, { { Key = "b", Value = "2" } })
  c.PutUserPermissionsBoundary({ UserName = "u", PermissionsBoundary = RO })
  H.eq(c.GetUser({ UserName = "u" }).User.PermissionsBoundary.PermissionsBoundaryArn, RO)
  c.DeleteUserPermissionsBoundary({ UserName = "u" })
  H.eq(c.GetUser({ UserName = "u" }).User.PermissionsBoundary, nil)
  c.PutUserPolicy({ UserName = "u", PolicyName = "z", PolicyDocument = DOC })
  c.PutUserPolicy({ UserName = "u", PolicyName = "a", PolicyDocument = DOC })
  H.same(c.ListUserPolicies({ UserName = "u" }).PolicyNames, { "a", "z" })
  H.same(c.GetUserPolicy({ UserName = "u", PolicyName = "z" }).PolicyDocument, DOC)
  c.DeleteUserPolicy({ UserName = "u", PolicyName = "z" })
  local e = H.raises(function() c.DeleteUserPolicy({ UserName = "u", PolicyName = "z" }) end,
    "The user policy with name z cannot be found.")
  H.eq(e.code, "NoSuchEntity")
  c.AttachUserPolicy({ UserName = "u", PolicyArn = RO })
  c.AttachUserPolicy({ UserName = "u", PolicyArn = RO }) -- twice: no change
  H.same(c.ListAttachedUserPolicies({ UserName = "u" }).AttachedPolicies, { { PolicyName = "ReadOnlyAccess", PolicyArn = RO } })
  H.raises(function() c.AttachUserPolicy({ UserName = "u", PolicyArn = "arn:aws:iam::123456789012:policy/none" }) end,
    "Policy arn:aws:iam::123456789012:policy/none does not exist or is not attachable.")
  c.DetachUserPolicy({ UserName = "u", PolicyArn = RO })
  H.raises(function() c.DetachUserPolicy({ UserName = "u", PolicyArn = RO }) end, "Policy " .. RO .. " was not found.")
end)

T.case("login profiles: create, get, update, delete; IAM's messages", function()
  local c = iam()
  c.CreateUser({ UserName = "u" })
  local e = H.raises(function() c.GetLoginProfile({ UserName = "u" }) end, "Login Profile for User u cannot be found.")
  H.eq(e.code, "NoSuchEntity")
  H.eq(c.CreateLoginProfile({ UserName = "u", Password = "Pw-12345!" }).LoginProfile.PasswordResetRequired, false)
  e = H.raises(function() c.CreateLoginProfile({ UserName = "u", Password = "x" }) end, "Login Profile for user u already exists.")
  H.eq(e.code, "EntityAlreadyExists")
  c.UpdateLoginProfile({ UserName = "u", PasswordResetRequired = true })
  H.eq(c.GetLoginProfile({ UserName = "u" }).LoginProfile.PasswordResetRequired, true)
  c.DeleteLoginProfile({ UserName = "u" })
  H.raises(function() c.DeleteLoginProfile({ UserName = "u" }) end, "Login Profile for User u cannot be found.")
end)

T.case("access keys: AKIA IDs and 40-character secrets, deterministic; two per user; Status", function()
  local c = iam()
  c.CreateUser({ UserName = "u" })
  local k1 = c.CreateAccessKey({ UserName = "u" }).AccessKey
  H.match(k1.AccessKeyId, "^AKIA[A-Z0-9]+$")
  H.eq(#k1.AccessKeyId, 20)
  H.match(k1.SecretAccessKey, "^[A-Za-z0-9+/]+$")
  H.eq(#k1.SecretAccessKey, 40)
  H.eq(k1.Status, "Active")
  local k2 = c.CreateAccessKey({ UserName = "u" }).AccessKey
  local e = H.raises(function() c.CreateAccessKey({ UserName = "u" }) end, "Cannot exceed quota for AccessKeysPerUser: 2")
  H.eq(e.code, "LimitExceeded")
  H.eq(#c.ListAccessKeys({ UserName = "u" }).AccessKeyMetadata, 2)
  H.eq(c.ListAccessKeys({ UserName = "u" }).AccessKeyMetadata[1].SecretAccessKey, nil)
  c.UpdateAccessKey({ UserName = "u", AccessKeyId = k2.AccessKeyId, Status = "Inactive" })
  H.raises(function() c.UpdateAccessKey({ UserName = "u", AccessKeyId = k2.AccessKeyId, Status = "Off" }) end,
    "1 validation error detected: Value 'Off' at 'status' failed to satisfy constraint: Member must satisfy enum value set: [Active, Inactive]")
  c.DeleteAccessKey({ UserName = "u", AccessKeyId = k1.AccessKeyId })
  e = H.raises(function() c.DeleteAccessKey({ UserName = "u", AccessKeyId = k1.AccessKeyId }) end,
    "The Access Key with id " .. k1.AccessKeyId .. " cannot be found.")
  H.eq(e.code, "NoSuchEntity")
  local left = c.ListAccessKeys({ UserName = "u" }).AccessKeyMetadata
  H.eq(#left, 1)
  H.eq(left[1].Status, "Inactive")
  -- The same seed gives the same key.
  local again = iam()
  again.CreateUser({ UserName = "u" })
  H.same(again.CreateAccessKey({ UserName = "u" }).AccessKey, k1)
end)

T.case("DeleteUser: DeleteConflict while it has a login profile, keys, groups, policies", function()
  local c = iam()
  c.CreateUser({ UserName = "u" })
  c.CreateGroup({ GroupName = "g" })
  c.CreateLoginProfile({ UserName = "u", Password = "Pw-12345!" })
  local key = c.CreateAccessKey({ UserName = "u" }).AccessKey.AccessKeyId
  c.AddUserToGroup({ GroupName = "g", UserName = "u" })
  c.AttachUserPolicy({ UserName = "u", PolicyArn = RO })
  c.PutUserPolicy({ UserName = "u", PolicyName = "p", PolicyDocument = DOC })
  local steps = {
    { "Cannot delete entity, must delete login profile first.", function() c.DeleteLoginProfile({ UserName = "u" }) end },
    { "Cannot delete entity, must delete access keys first.", function() c.DeleteAccessKey({ UserName = "u", AccessKeyId = key }) end },
    { "Cannot delete entity, must remove users from group first.", function() c.RemoveUserFromGroup({ GroupName = "g", UserName = "u" }) end },
    { "Cannot delete entity, must detach all policies first.", function() c.DetachUserPolicy({ UserName = "u", PolicyArn = RO }) end },
    { "Cannot delete entity, must delete policies first.", function() c.DeleteUserPolicy({ UserName = "u", PolicyName = "p" }) end },
  }
  for _, s in ipairs(steps) do
    local e = H.raises(function() c.DeleteUser({ UserName = "u" }) end, s[1])
    H.eq(e.code, "DeleteConflict")
    s[2]()
  end
  c.DeleteUser({ UserName = "u" })
  H.raises(function() c.GetUser({ UserName = "u" }) end, "The user with name u cannot be found.")
  H.same(c.GetGroup({ GroupName = "g" }).Users, {})
end)

T.case("groups: create, get with members, membership idempotent, IAM's messages", function()
  local c = iam()
  local g = c.CreateGroup({ GroupName = "Admins", Path = "/ops/" }).Group
  H.match(g.GroupId, "^AGPA[A-Z0-9]+$")
  H.eq(g.Arn, "arn:aws:iam::123456789012:group/ops/Admins")
  local e = H.raises(function() c.CreateGroup({ GroupName = "admins" }) end, "Group with name admins already exists.")
  H.eq(e.code, "EntityAlreadyExists")
  e = H.raises(function() c.GetGroup({ GroupName = "none" }) end, "The group with name none cannot be found.")
  H.eq(e.code, "NoSuchEntity")
  c.CreateUser({ UserName = "u" })
  H.raises(function() c.AddUserToGroup({ GroupName = "Admins", UserName = "ghost" }) end, "The user with name ghost cannot be found.")
  c.AddUserToGroup({ GroupName = "admins", UserName = "u" })
  c.AddUserToGroup({ GroupName = "Admins", UserName = "U" }) -- a member already: no change
  local got = c.GetGroup({ GroupName = "Admins" })
  H.same(got.Group, g)
  H.eq(#got.Users, 1)
  H.eq(got.Users[1].UserName, "u")
  c.RemoveUserFromGroup({ GroupName = "Admins", UserName = "u" })
  c.RemoveUserFromGroup({ GroupName = "Admins", UserName = "u" }) -- not a member: no change
  H.same(c.GetGroup({ GroupName = "Admins" }).Users, {})
  c.UpdateGroup({ GroupName = "Admins", NewPath = "/" })
  H.eq(c.GetGroup({ GroupName = "Admins" }).Group.Arn, "arn:aws:iam::123456789012:group/Admins")
  H.eq(#c.ListGroups({}).Groups, 1)
end)

T.case("group policies and DeleteGroup's DeleteConflict cases", function()
  local c = iam()
  c.CreateGroup({ GroupName = "g" })
  c.CreateUser({ UserName = "u" })
  c.AddUserToGroup({ GroupName = "g", UserName = "u" })
  c.AttachGroupPolicy({ GroupName = "g", PolicyArn = RO })
  c.PutGroupPolicy({ GroupName = "g", PolicyName = "p", PolicyDocument = DOC })
  H.same(c.ListGroupPolicies({ GroupName = "g" }).PolicyNames, { "p" })
  H.same(c.GetGroupPolicy({ GroupName = "g", PolicyName = "p" }).PolicyDocument, DOC)
  H.raises(function() c.GetGroupPolicy({ GroupName = "g", PolicyName = "q" }) end, "The group policy with name q cannot be found.")
  H.eq(c.ListAttachedGroupPolicies({ GroupName = "g" }).AttachedPolicies[1].PolicyArn, RO)
  local steps = {
    { "Cannot delete entity, must remove users from group first.", function() c.RemoveUserFromGroup({ GroupName = "g", UserName = "u" }) end },
    { "Cannot delete entity, must detach all policies first.", function() c.DetachGroupPolicy({ GroupName = "g", PolicyArn = RO }) end },
    { "Cannot delete entity, must delete policies first.", function() c.DeleteGroupPolicy({ GroupName = "g", PolicyName = "p" }) end },
  }
  for _, s in ipairs(steps) do
    local e = H.raises(function() c.DeleteGroup({ GroupName = "g" }) end, s[1])
    H.eq(e.code, "DeleteConflict")
    s[2]()
  end
  c.DeleteGroup({ GroupName = "g" })
  H.raises(function() c.DeleteGroup({ GroupName = "g" }) end, "The group with name g cannot be found.")
end)

T.case("a customer managed policy counts and lists users and groups, and cannot go while attached", function()
  local c = iam()
  local arn = c.CreatePolicy({ PolicyName = "mine", PolicyDocument = DOC }).Policy.Arn
  c.CreateUser({ UserName = "u" })
  c.CreateGroup({ GroupName = "g" })
  c.AttachUserPolicy({ UserName = "u", PolicyArn = arn })
  c.AttachGroupPolicy({ GroupName = "g", PolicyArn = arn })
  c.CreateUser({ UserName = "bounded", PermissionsBoundary = arn })
  local p = c.GetPolicy({ PolicyArn = arn }).Policy
  H.eq(p.AttachmentCount, 2)
  H.eq(p.PermissionsBoundaryUsageCount, 1)
  local e = c.ListEntitiesForPolicy({ PolicyArn = arn })
  H.eq(e.PolicyUsers[1].UserName, "u")
  H.eq(e.PolicyGroups[1].GroupName, "g")
  H.same(e.PolicyRoles, {})
  H.raises(function() c.DeletePolicy({ PolicyArn = arn }) end, "Cannot delete a policy attached to entities.")
end)

return T
