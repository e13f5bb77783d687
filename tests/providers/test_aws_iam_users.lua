-- AWS::IAM::User, Group, UserToGroupAddition, AccessKey, and Policy /
-- ManagedPolicy on users and groups, driven as the engine drives them.
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("aws iam user/group providers")

local function load(rel) return require("provider_driver").load("iam/" .. rel) end

local USER, GROUP = load("user"), load("group")
local ADDITION, KEY = load("user_to_group_addition"), load("access_key")
local POLICY, MANAGED = load("policy"), load("managed_policy")

local function context(sim, logical)
  return { stack_name = "s", logical_id = logical or "R", region = "us-east-1",
           account = "123456789012", world = sim.client() }
end

local function run(world, decl, hook, ctx, ...)
  ctx.progress = nil
  for _ = 1, 1000 do
    local r = decl:check_result(hook, decl[hook](ctx, ...))
    if not P.is_in_progress(r) then return r end
    ctx.progress = r.context
    world.set_now_ms(world.now_ms() + r.after * 1000)
  end
  error("hook never finished")
end

local DOC = { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = "*", Resource = "*" } } }
local S3 = { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = "s3:Get*", Resource = "*" } } }
local RO = "arn:aws:iam::aws:policy/ReadOnlyAccess"

local function behaviours(decl, want)
  for _, p in ipairs(decl.properties) do H.eq(p.update, want[p.name], p.name) want[p.name] = nil end
  H.same(want, {}, "every AWS property declared")
end

T.case("declared update behaviours and attributes are AWS's", function()
  behaviours(USER, { Groups = "none", LoginProfile = "none", ManagedPolicyArns = "none", Path = "none",
    PermissionsBoundary = "none", Policies = "none", Tags = "none", UserName = "replace" })
  behaviours(GROUP, { GroupName = "replace", ManagedPolicyArns = "none", Path = "none", Policies = "none" })
  behaviours(ADDITION, { GroupName = "none", Users = "none" })
  behaviours(KEY, { Serial = "replace", Status = "none", UserName = "replace" })
  H.same(USER.attributes, { "Arn" })
  H.same(GROUP.attributes, { "Arn" })
  H.same(KEY.attributes, { "SecretAccessKey" })
  H.raises(function() KEY:validate({}, { logical_id = "K" }) end,
    "Properties validation failed for resource K with message: #: required key [UserName] not found")
end)

T.case("User: create with a generated name, policies, groups, login profile; update; delete cleans up", function()
  local world, sim = fresh()
  local iam = sim.client().iam
  iam.CreateGroup({ GroupName = "g1" })
  iam.CreateGroup({ GroupName = "g2" })
  local ctx = context(sim, "CFNUser")
  local old = USER:validate({
    Policies = { { PolicyName = "p", PolicyDocument = DOC } }, ManagedPolicyArns = { RO },
    Groups = { "g1" }, LoginProfile = { Password = "Pw-12345!" }, Tags = { { Key = "k", Value = "v" } },
  }, ctx)
  local r = run(world, USER, "create", ctx, old)
  H.match(r.id, "^s%-CFNUser%-%w+$")
  H.eq(#r.id, #"s-CFNUser-" + 12)
  H.eq(r.attributes.Arn, "arn:aws:iam::123456789012:user/" .. r.id)
  H.same(iam.GetUserPolicy({ UserName = r.id, PolicyName = "p" }).PolicyDocument, DOC)
  H.eq(iam.ListGroupsForUser({ UserName = r.id }).Groups[1].GroupName, "g1")
  H.eq(iam.GetLoginProfile({ UserName = r.id }).LoginProfile.PasswordResetRequired, false)
  local read = USER.read(ctx, r.id, old)
  H.same(read.properties.Policies, old.Policies)
  H.same(read.properties.Groups, { "g1" })
  H.same(read.properties.LoginProfile, { Password = "Pw-12345!" })

  local new = USER:validate({
    Policies = { { PolicyName = "q", PolicyDocument = S3 } }, Groups = { "g2" }, Path = "/x/",
    LoginProfile = { Password = "Pw-12345!", PasswordResetRequired = true }, Tags = { { Key = "k2", Value = "v2" } },
    PermissionsBoundary = RO,
  }, ctx)
  local behavior, changed = USER:change(old, new, ctx)
  H.eq(behavior, "none")
  local u = run(world, USER, "update", ctx, r.id, new, old, changed)
  H.eq(u.attributes.Arn, "arn:aws:iam::123456789012:user/x/" .. r.id)
  H.same(iam.ListUserPolicies({ UserName = r.id }).PolicyNames, { "q" })
  H.same(iam.ListAttachedUserPolicies({ UserName = r.id }).AttachedPolicies, {})
  H.eq(iam.ListGroupsForUser({ UserName = r.id }).Groups[1].GroupName, "g2")
  H.eq(#iam.ListGroupsForUser({ UserName = r.id }).Groups, 1)
  H.eq(iam.GetLoginProfile({ UserName = r.id }).LoginProfile.PasswordResetRequired, true)
  H.same(iam.ListUserTags({ UserName = r.id }).Tags, { { Key = "k2", Value = "v2" } })
  H.eq(iam.GetUser({ UserName = r.id }).User.PermissionsBoundary.PermissionsBoundaryArn, RO)
  H.eq((USER:change(new, USER:validate({ UserName = "named" }, ctx), ctx)), "replace")

  -- An inline policy put by another resource and a group joined elsewhere
  -- go with the user.
  iam.PutUserPolicy({ UserName = r.id, PolicyName = "extra", PolicyDocument = DOC })
  iam.AddUserToGroup({ GroupName = "g1", UserName = r.id })
  run(world, USER, "delete", ctx, r.id, new)
  H.eq(#world.ids("iam.user"), 0)
  H.same(iam.GetGroup({ GroupName = "g1" }).Users, {})
  run(world, USER, "delete", ctx, r.id, new) -- again: fine
  H.eq(USER.read(ctx, r.id, new), nil)
end)

T.case("User: a missing group fails the create and leaves no user; a foreign access key stops the delete", function()
  local world, sim = fresh()
  local iam = sim.client().iam
  local ctx = context(sim)
  local props = USER:validate({ UserName = "bob", Groups = { "ghost" }, LoginProfile = { Password = "Pw-12345!" } }, ctx)
  H.raises(function() run(world, USER, "create", ctx, props) end, "The group with name ghost cannot be found.")
  H.raises(function() iam.GetUser({ UserName = "bob" }) end, "The user with name bob cannot be found.")
  H.raises(function() run(world, USER, "create", ctx, USER:validate({ LoginProfile = {} }, ctx)) end,
    "Properties validation failed for resource R with message: #/LoginProfile: required key [Password] not found")
  props = USER:validate({ UserName = "bob" }, ctx)
  run(world, USER, "create", ctx, props)
  iam.CreateAccessKey({ UserName = "bob" })
  local e = H.raises(function() run(world, USER, "delete", ctx, "bob", props) end,
    "Cannot delete entity, must delete access keys first.")
  H.eq(e.code, "DeleteConflict")
end)

T.case("Group: create with policies, path and policy updates, delete; a member stops the delete", function()
  local world, sim = fresh()
  local iam = sim.client().iam
  local ctx = context(sim, "Admins")
  local old = GROUP:validate({ Policies = { { PolicyName = "p", PolicyDocument = DOC } }, ManagedPolicyArns = { RO } }, ctx)
  local r = run(world, GROUP, "create", ctx, old)
  H.match(r.id, "^s%-Admins%-%w+$")
  H.eq(r.attributes.Arn, "arn:aws:iam::123456789012:group/" .. r.id)
  local new = GROUP:validate({ Policies = { { PolicyName = "p", PolicyDocument = S3 } }, Path = "/ops/" }, ctx)
  local behavior, changed = GROUP:change(old, new, ctx)
  H.eq(behavior, "none")
  local u = run(world, GROUP, "update", ctx, r.id, new, old, changed)
  H.eq(u.attributes.Arn, "arn:aws:iam::123456789012:group/ops/" .. r.id)
  H.same(iam.GetGroupPolicy({ GroupName = r.id, PolicyName = "p" }).PolicyDocument, S3)
  H.same(iam.ListAttachedGroupPolicies({ GroupName = r.id }).AttachedPolicies, {})
  H.same(GROUP.read(ctx, r.id, new).properties, { GroupName = r.id, Path = "/ops/", Policies = new.Policies })
  H.eq((GROUP:change(new, GROUP:validate({ GroupName = "n" }, ctx), ctx)), "replace")
  iam.CreateUser({ UserName = "u" })
  iam.AddUserToGroup({ GroupName = r.id, UserName = "u" })
  H.raises(function() run(world, GROUP, "delete", ctx, r.id, new) end,
    "Cannot delete entity, must remove users from group first.")
  iam.RemoveUserFromGroup({ GroupName = r.id, UserName = "u" })
  run(world, GROUP, "delete", ctx, r.id, new)
  H.eq(#world.ids("iam.group"), 0)
  H.eq(GROUP.read(ctx, r.id, new), nil)
end)

T.case("UserToGroupAddition: adds, moves between groups, removes only its users", function()
  local world, sim = fresh()
  local iam = sim.client().iam
  for _, n in ipairs({ "a", "b", "c" }) do iam.CreateUser({ UserName = n }) end
  iam.CreateGroup({ GroupName = "g" })
  iam.CreateGroup({ GroupName = "h" })
  local ctx = context(sim, "Users")
  local old = ADDITION:validate({ GroupName = "g", Users = { "a", "b" } }, ctx)
  local r = run(world, ADDITION, "create", ctx, old)
  H.match(r.id, "^s%-Users%-%w+$")
  H.eq(#iam.GetGroup({ GroupName = "g" }).Users, 2)
  local new = ADDITION:validate({ GroupName = "g", Users = { "b", "c" } }, ctx)
  run(world, ADDITION, "update", ctx, r.id, new, old, { "Users" })
  local members = {}
  for _, u in ipairs(iam.GetGroup({ GroupName = "g" }).Users) do members[#members + 1] = u.UserName end
  H.same(members, { "b", "c" })
  local moved = ADDITION:validate({ GroupName = "h", Users = { "c" } }, ctx)
  run(world, ADDITION, "update", ctx, r.id, moved, new, { "GroupName", "Users" })
  H.same(iam.GetGroup({ GroupName = "g" }).Users, {})
  H.same(ADDITION.read(ctx, r.id, moved).properties, { GroupName = "h", Users = { "c" } })
  iam.AddUserToGroup({ GroupName = "h", UserName = "a" }) -- someone else's membership
  run(world, ADDITION, "delete", ctx, r.id, moved)
  H.eq(iam.GetGroup({ GroupName = "h" }).Users[1].UserName, "a")
  H.eq(#iam.GetGroup({ GroupName = "h" }).Users, 1)
  run(world, ADDITION, "delete", ctx, r.id, moved) -- again: fine
  H.eq(ADDITION.read(ctx, r.id, moved), nil)
  H.raises(function() run(world, ADDITION, "create", ctx, ADDITION:validate({ GroupName = "g", Users = { "a", "ghost" } }, ctx)) end,
    "The user with name ghost cannot be found.")
  H.same(iam.GetGroup({ GroupName = "g" }).Users, {})
end)

T.case("AccessKey: Ref is the key ID, SecretAccessKey; Status in place; Serial replaces; delete", function()
  local world, sim = fresh()
  local iam = sim.client().iam
  iam.CreateUser({ UserName = "u" })
  local ctx = context(sim, "Keys")
  local old = KEY:validate({ UserName = "u", Status = "Inactive" }, ctx)
  local r = run(world, KEY, "create", ctx, old)
  H.match(r.id, "^AKIA[A-Z0-9]+$")
  H.eq(#r.id, 20)
  H.eq(#r.attributes.SecretAccessKey, 40)
  H.eq(iam.ListAccessKeys({ UserName = "u" }).AccessKeyMetadata[1].Status, "Inactive")
  local new = KEY:validate({ UserName = "u" }, ctx)
  H.eq((KEY:change(old, new, ctx)), "none")
  run(world, KEY, "update", ctx, r.id, new, old, { "Status" })
  H.same(KEY.read(ctx, r.id, new).properties, { UserName = "u", Status = "Active" })
  H.eq((KEY:change(new, KEY:validate({ UserName = "u", Serial = 2 }, ctx), ctx)), "replace")
  H.raises(function() KEY:validate({ UserName = "u", Status = "Off" }, ctx) end,
    "Properties validation failed for resource Keys with message: #/Status: failed validation constraint for keyword [enum]")
  iam.CreateAccessKey({ UserName = "u" })
  H.raises(function() run(world, KEY, "create", ctx, new) end, "Cannot exceed quota for AccessKeysPerUser: 2")
  run(world, KEY, "delete", ctx, r.id, new)
  H.eq(KEY.read(ctx, r.id, new), nil)
  run(world, KEY, "delete", ctx, r.id, new) -- again: fine
  H.eq(#iam.ListAccessKeys({ UserName = "u" }).AccessKeyMetadata, 1)
end)

T.case("Policy on users and groups: create, move, delete", function()
  local world, sim = fresh()
  local iam = sim.client().iam
  iam.CreateUser({ UserName = "u" })
  iam.CreateGroup({ GroupName = "g" })
  iam.CreateGroup({ GroupName = "h" })
  local ctx = context(sim, "Pol")
  local old = POLICY:validate({ PolicyName = "p", PolicyDocument = DOC, Users = { "u" }, Groups = { "g" } }, ctx)
  local r = run(world, POLICY, "create", ctx, old)
  H.same(iam.GetUserPolicy({ UserName = "u", PolicyName = "p" }).PolicyDocument, DOC)
  H.same(iam.GetGroupPolicy({ GroupName = "g", PolicyName = "p" }).PolicyDocument, DOC)
  H.same(POLICY.read(ctx, r.id, old).properties, { PolicyName = "p", PolicyDocument = DOC, Users = { "u" }, Groups = { "g" } })
  local new = POLICY:validate({ PolicyName = "p", PolicyDocument = S3, Groups = { "h" } }, ctx)
  run(world, POLICY, "update", ctx, r.id, new, old, { "Groups", "PolicyDocument", "Users" })
  H.same(iam.ListUserPolicies({ UserName = "u" }).PolicyNames, {})
  H.same(iam.ListGroupPolicies({ GroupName = "g" }).PolicyNames, {})
  H.same(iam.GetGroupPolicy({ GroupName = "h", PolicyName = "p" }).PolicyDocument, S3)
  run(world, POLICY, "delete", ctx, r.id, new)
  H.same(iam.ListGroupPolicies({ GroupName = "h" }).PolicyNames, {})
  -- A missing group undoes what was put.
  local bad = POLICY:validate({ PolicyName = "p", PolicyDocument = DOC, Users = { "u" }, Groups = { "ghost" } }, ctx)
  H.raises(function() run(world, POLICY, "create", ctx, bad) end, "The group with name ghost cannot be found.")
  H.same(iam.ListUserPolicies({ UserName = "u" }).PolicyNames, {})
end)

T.case("ManagedPolicy on users and groups: attach, update, read, delete detaches all", function()
  local world, sim = fresh()
  local iam = sim.client().iam
  iam.CreateUser({ UserName = "u" })
  iam.CreateUser({ UserName = "v" })
  iam.CreateGroup({ GroupName = "g" })
  local ctx = context(sim, "MP")
  local old = MANAGED:validate({ ManagedPolicyName = "mp", PolicyDocument = DOC, Users = { "u" }, Groups = { "g" } }, ctx)
  local r = run(world, MANAGED, "create", ctx, old)
  H.eq(r.attributes.AttachmentCount, 2)
  H.eq(iam.ListAttachedUserPolicies({ UserName = "u" }).AttachedPolicies[1].PolicyArn, r.id)
  local read = MANAGED.read(ctx, r.id, old).properties
  H.same(read.Users, { "u" })
  H.same(read.Groups, { "g" })
  local new = MANAGED:validate({ ManagedPolicyName = "mp", PolicyDocument = DOC, Users = { "v" } }, ctx)
  local u = run(world, MANAGED, "update", ctx, r.id, new, old, { "Groups", "Users" })
  H.eq(u.attributes.AttachmentCount, 1)
  H.same(iam.ListAttachedGroupPolicies({ GroupName = "g" }).AttachedPolicies, {})
  iam.AttachGroupPolicy({ GroupName = "g", PolicyArn = r.id }) -- attached elsewhere too
  run(world, MANAGED, "delete", ctx, r.id, new)
  H.same(iam.ListAttachedUserPolicies({ UserName = "v" }).AttachedPolicies, {})
  H.same(iam.ListAttachedGroupPolicies({ GroupName = "g" }).AttachedPolicies, {})
  H.eq(#world.ids("iam.policy"), 0)
end)

T.case("the contract kit passes for the four new providers, but their listed gaps", function()
  for _, rel in ipairs({ "user", "group", "user_to_group_addition", "access_key" }) do
    fresh()
    local report = require("moonstack.contract").run(MOONSTACK_ROOT .. "/providers/aws/iam/" .. rel .. ".lua")
    require("contract_gaps").check(report, "aws/iam/" .. rel .. ".lua")
    H.truthy(report.passed >= 10, rel .. " ran the whole lifecycle")
  end
end)

return T
