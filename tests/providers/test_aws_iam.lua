-- The IAM providers (AWS::IAM::Role, Policy, ManagedPolicy, InstanceProfile)
-- driven as the engine drives them: validate, decide the update behaviour,
-- call hooks until they stop answering "in progress".
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("aws iam providers")

local load = require("provider_driver").load

local ROLE, POLICY = load("iam/role"), load("iam/policy")
local MANAGED, PROFILE = load("iam/managed_policy"), load("iam/instance_profile")

local function context(sim, logical)
  return { stack_name = "s", logical_id = logical or "R", region = "us-east-1",
           account = "123456789012", world = sim.client() }
end

-- Call a hook until it finishes, advancing the world clock as the engine
-- would in virtual time.
local function run(world, decl, hook, ctx, ...)
  ctx.progress = nil
  for _ = 1, 10000 do
    local r = decl:check_result(hook, decl[hook](ctx, ...))
    if not P.is_in_progress(r) then return r end
    ctx.progress = r.context
    world.set_now_ms(world.now_ms() + r.after * 1000)
  end
  error("hook never finished")
end

local TRUST = {
  Version = "2012-10-17",
  Statement = { { Effect = "Allow", Principal = { Service = { "ec2.amazonaws.com" } }, Action = { "sts:AssumeRole" } } },
}
local ALLOW_ALL = { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = "*", Resource = "*" } } }
local READ_S3 = { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = "s3:Get*", Resource = "*" } } }

local function role_props(extra)
  local p = { AssumeRolePolicyDocument = TRUST }
  for k, v in pairs(extra or {}) do p[k] = v end
  return p
end

-- AWS::IAM::Role --------------------------------------------------------------------------------

T.case("Role: declared update behaviours are AWS's", function()
  local want = {
    AssumeRolePolicyDocument = "none", Description = "none", ManagedPolicyArns = "none",
    MaxSessionDuration = "none", Path = "replace", PermissionsBoundary = "none", Policies = "none",
    RoleName = "replace", Tags = "none",
  }
  for _, p in ipairs(ROLE.properties) do H.eq(p.update, want[p.name], p.name) want[p.name] = nil end
  H.same(want, {}, "every AWS property declared")
  H.same(ROLE.attributes, { "Arn", "RoleId" })
end)

T.case("Role: validation messages", function()
  H.raises(function() ROLE:validate({}, { logical_id = "R" }) end,
    "Properties validation failed for resource R with message: #: required key [AssumeRolePolicyDocument] not found")
  H.raises(function() ROLE:validate(role_props({ Rolename = "x" }), { logical_id = "R" }) end,
    "Encountered unsupported property Rolename")
  local world, sim = fresh()
  local ctx = context(sim)
  local props = ROLE:validate(role_props({ Policies = { { PolicyName = "p" } } }), ctx)
  H.raises(function() run(world, ROLE, "create", ctx, props) end,
    "Properties validation failed for resource R with message: #/Policies/0: required key [PolicyDocument] not found")
end)

T.case("Role: create with a generated name, inline and managed policies, tags", function()
  local world, sim = fresh()
  local ctx = context(sim, "AppRole")
  local props = ROLE:validate(role_props({
    Policies = { { PolicyName = "root", PolicyDocument = ALLOW_ALL } },
    ManagedPolicyArns = { "arn:aws:iam::aws:policy/ReadOnlyAccess" },
    Tags = { { Key = "team", Value = "web" } }, MaxSessionDuration = 7200,
  }), ctx)
  local r = run(world, ROLE, "create", ctx, props)
  H.match(r.id, "^s%-AppRole%-%w+$")
  H.eq(#r.id, #"s-AppRole-" + 12)
  H.eq(r.attributes.Arn, "arn:aws:iam::123456789012:role/" .. r.id)
  H.match(r.attributes.RoleId, "^AROA")
  local iam = sim.client().iam
  local role = iam.GetRole({ RoleName = r.id }).Role
  H.eq(role.MaxSessionDuration, 7200)
  H.same(role.Tags, { { Key = "team", Value = "web" } })
  H.same(iam.GetRolePolicy({ RoleName = r.id, PolicyName = "root" }).PolicyDocument, ALLOW_ALL)
  H.eq(iam.ListAttachedRolePolicies({ RoleName = r.id }).AttachedPolicies[1].PolicyArn,
    "arn:aws:iam::aws:policy/ReadOnlyAccess")
  local read = ROLE:check_result("read", ROLE.read(ctx, r.id, props))
  H.same(read.properties.Policies, props.Policies)
  H.same(read.properties.ManagedPolicyArns, props.ManagedPolicyArns)
  H.eq(read.properties.RoleName, r.id)
end)

T.case("Role: a failing managed policy fails the create and leaves no role behind", function()
  local world, sim = fresh()
  local ctx = context(sim)
  local props = ROLE:validate(role_props({
    RoleName = "named", Policies = { { PolicyName = "root", PolicyDocument = ALLOW_ALL } },
    ManagedPolicyArns = { "arn:aws:iam::123456789012:policy/missing" },
  }), ctx)
  -- IAM's 404 with the SDK's details, as an AWS::IAM::Role's event shows it.
  local SDK = " %(Service: AmazonIdentityManagement; Status Code: 404; Error Code: NoSuchEntity; "
    .. "Request ID: %x+%-%x+%-%x+%-%x+%-%x+; Proxy: null%)$"
  local e = H.raises_match(function() run(world, ROLE, "create", ctx, props) end,
    "^Policy arn:aws:iam::123456789012:policy/missing does not exist or is not attachable%." .. SDK)
  H.eq(e.code, "NotFound")
  H.raises(function() sim.client().iam.GetRole({ RoleName = "named" }) end,
    "The role with name named cannot be found.")
  -- An AWS managed policy without its path (CDK users' common slip) fails the same way.
  props.ManagedPolicyArns = { "arn:aws:iam::aws:policy/AWSLambdaBasicExecutionRole" }
  H.raises_match(function() run(world, ROLE, "create", ctx, props) end,
    "^Policy arn:aws:iam::aws:policy/AWSLambdaBasicExecutionRole does not exist or is not attachable%." .. SDK)
  H.raises(function() sim.client().iam.GetRole({ RoleName = "named" }) end,
    "The role with name named cannot be found.")
  -- And a name that exists already is the registry handler's AlreadyExists.
  sim.client().iam.CreateRole({ RoleName = "taken", AssumeRolePolicyDocument = TRUST })
  e = H.raises(function() run(world, ROLE, "create", ctx, ROLE:validate(role_props({ RoleName = "taken" }), ctx)) end,
    "Resource of type 'AWS::IAM::Role' with identifier 'taken' already exists.")
  H.eq(e.code, "AlreadyExists")
end)

T.case("Role: in-place update of every No-interruption property", function()
  local world, sim = fresh()
  local ctx = context(sim)
  local boundary = "arn:aws:iam::aws:policy/PowerUserAccess"
  local old = ROLE:validate(role_props({
    RoleName = "app", Policies = { { PolicyName = "a", PolicyDocument = ALLOW_ALL }, { PolicyName = "b", PolicyDocument = ALLOW_ALL } },
    ManagedPolicyArns = { "arn:aws:iam::aws:policy/ReadOnlyAccess" }, Tags = { { Key = "k1", Value = "v1" } },
  }), ctx)
  local r = run(world, ROLE, "create", ctx, old)
  local new_trust = { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" } } }
  local new = ROLE:validate({
    RoleName = "app", AssumeRolePolicyDocument = new_trust, Description = "now described",
    MaxSessionDuration = 10800, PermissionsBoundary = boundary,
    Policies = { { PolicyName = "b", PolicyDocument = READ_S3 }, { PolicyName = "c", PolicyDocument = ALLOW_ALL } },
    ManagedPolicyArns = { "arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess" },
    Tags = { { Key = "k2", Value = "v2" } },
  }, ctx)
  local behavior, changed = ROLE:change(old, new, ctx)
  H.eq(behavior, "none")
  H.same(changed, { "AssumeRolePolicyDocument", "Description", "ManagedPolicyArns", "MaxSessionDuration",
    "PermissionsBoundary", "Policies", "Tags" })
  H.same(run(world, ROLE, "update", ctx, r.id, new, old, changed), {})
  local iam = sim.client().iam
  local role = iam.GetRole({ RoleName = "app" }).Role
  H.same(role.AssumeRolePolicyDocument, new_trust)
  H.eq(role.Description, "now described")
  H.eq(role.MaxSessionDuration, 10800)
  H.eq(role.PermissionsBoundary.PermissionsBoundaryArn, boundary)
  H.same(role.Tags, { { Key = "k2", Value = "v2" } })
  H.same(iam.ListRolePolicies({ RoleName = "app" }).PolicyNames, { "b", "c" })
  H.same(iam.GetRolePolicy({ RoleName = "app", PolicyName = "b" }).PolicyDocument, READ_S3)
  H.same(iam.ListAttachedRolePolicies({ RoleName = "app" }).AttachedPolicies,
    { { PolicyName = "AmazonS3ReadOnlyAccess", PolicyArn = "arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess" } })
  -- Rolling back is updating towards the old properties.
  run(world, ROLE, "rollback", ctx, r.id, old, new, changed)
  role = iam.GetRole({ RoleName = "app" }).Role
  H.same(role.AssumeRolePolicyDocument, TRUST)
  H.eq(role.PermissionsBoundary, nil)
  H.eq(role.MaxSessionDuration, 3600)
  H.same(iam.ListRolePolicies({ RoleName = "app" }).PolicyNames, { "a", "b" })
  H.same(role.Tags, { { Key = "k1", Value = "v1" } })
end)

T.case("Role and User: the stack's tags after their own, no aws: tags; UpdateStack's new ones re-tag them", function()
  local world, sim = fresh()
  local USER = load("iam/user")
  local function ctx_of(logical, stack_tags, old_stack_tags)
    local c = context(sim, logical)
    c.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/s/1"
    c.stack_tags, c.old_stack_tags = stack_tags, old_stack_tags
    return c
  end
  local web = { { Key = "team", Value = "web" }, { Key = "env", Value = "dev" } }
  local role_p = ROLE:validate(role_props({ Tags = { { Key = "env", Value = "prod" } } }), ctx_of("R"))
  local role = run(world, ROLE, "create", ctx_of("R", web), role_p).id
  local user_p = USER:validate({}, ctx_of("U"))
  local user = run(world, USER, "create", ctx_of("U", web), user_p).id
  local iam = sim.client().iam
  -- IAM refuses aws: keys, so no aws:cloudformation:* tags; the template's own tag wins
  H.same(iam.ListRoleTags({ RoleName = role }).Tags, { { Key = "env", Value = "prod" }, { Key = "team", Value = "web" } })
  H.same(iam.ListUserTags({ UserName = user }).Tags, web)

  local data = { { Key = "team", Value = "data" }, { Key = "cost", Value = "42" } }
  run(world, ROLE, "update", ctx_of("R", data, web), role, role_p, role_p, { "Tags" })
  run(world, USER, "update", ctx_of("U", data, web), user, user_p, user_p, { "Tags" })
  H.same(iam.ListRoleTags({ RoleName = role }).Tags,
    { { Key = "env", Value = "prod" }, { Key = "team", Value = "data" }, { Key = "cost", Value = "42" } })
  H.same(iam.ListUserTags({ UserName = user }).Tags, { { Key = "team", Value = "data" }, { Key = "cost", Value = "42" } })
  -- taken away again (Tags=[]): only the role's own is left
  run(world, ROLE, "update", ctx_of("R", nil, data), role, role_p, role_p, { "Tags" })
  H.same(iam.ListRoleTags({ RoleName = role }).Tags, { { Key = "env", Value = "prod" } })
end)

T.case("Role: RoleName and Path changes are replacements; the old role goes in cleanup", function()
  local world, sim = fresh()
  local ctx = context(sim)
  local old = ROLE:validate(role_props({ RoleName = "v1" }), ctx)
  local first = run(world, ROLE, "create", ctx, old)
  local new = ROLE:validate(role_props({ RoleName = "v2" }), ctx)
  H.eq((ROLE:change(old, new, ctx)), "replace")
  H.eq((ROLE:change(old, ROLE:validate(role_props({ RoleName = "v1", Path = "/x/" }), ctx), ctx)), "replace")
  local second = run(world, ROLE, "create", ctx, new)
  H.eq(second.id, "v2")
  run(world, ROLE, "delete", ctx, first.id, old)
  H.raises(function() sim.client().iam.GetRole({ RoleName = "v1" }) end, "The role with name v1 cannot be found.")
  H.eq(sim.client().iam.GetRole({ RoleName = "v2" }).Role.RoleName, "v2")
end)

T.case("Role: delete removes its policies; deleting again is fine; read says gone", function()
  local world, sim = fresh()
  local ctx = context(sim)
  local props = ROLE:validate(role_props({
    Policies = { { PolicyName = "p", PolicyDocument = ALLOW_ALL } },
    ManagedPolicyArns = { "arn:aws:iam::aws:policy/ReadOnlyAccess" },
  }), ctx)
  local r = run(world, ROLE, "create", ctx, props)
  -- An inline policy some other resource (AWS::IAM::Policy) put there too.
  sim.client().iam.PutRolePolicy({ RoleName = r.id, PolicyName = "extra", PolicyDocument = READ_S3 })
  H.eq(run(world, ROLE, "delete", ctx, r.id, props), nil)
  H.eq(#world.ids("iam.role"), 0)
  H.eq(run(world, ROLE, "delete", ctx, r.id, props), nil)
  H.eq(ROLE:check_result("read", ROLE.read(ctx, r.id, props)), nil)
end)

T.case("Role: deleting a role an instance profile still holds fails with IAM's message", function()
  local world, sim = fresh()
  local ctx = context(sim)
  local props = ROLE:validate(role_props({ RoleName = "held" }), ctx)
  run(world, ROLE, "create", ctx, props)
  local iam = sim.client().iam
  iam.CreateInstanceProfile({ InstanceProfileName = "outside" })
  iam.AddRoleToInstanceProfile({ InstanceProfileName = "outside", RoleName = "held" })
  local e = H.raises(function() run(world, ROLE, "delete", ctx, "held", props) end,
    "Cannot delete entity, must remove roles from instance profile first.")
  H.eq(e.code, "DeleteConflict")
  H.eq(iam.GetRole({ RoleName = "held" }).Role.RoleName, "held")
end)

-- AWS::IAM::Policy -----------------------------------------------------------------------------

local function make_roles(sim, ...)
  for _, n in ipairs({ ... }) do sim.client().iam.CreateRole({ RoleName = n, AssumeRolePolicyDocument = TRUST }) end
end

T.case("Policy: every property updates in place; create puts it on each role", function()
  for _, p in ipairs(POLICY.properties) do H.eq(p.update, "none", p.name) end
  H.raises(function() POLICY:validate({ Roles = { "a" } }, { logical_id = "Pol" }) end,
    "Properties validation failed for resource Pol with message: #: required key [PolicyDocument] not found\n#: required key [PolicyName] not found")
  local world, sim = fresh()
  make_roles(sim, "a", "b")
  local ctx = context(sim, "RolePolicies")
  ctx.stack_name = "mystack"
  local props = POLICY:validate({ PolicyName = "root", PolicyDocument = ALLOW_ALL, Roles = { "a", "b" } }, ctx)
  local r = run(world, POLICY, "create", ctx, props)
  H.match(r.id, "^mysta%-RoleP%-%w+$")
  H.eq(#r.id, 24)
  H.eq(r.attributes.Id, r.id)
  local iam = sim.client().iam
  for _, role in ipairs({ "a", "b" }) do
    H.same(iam.GetRolePolicy({ RoleName = role, PolicyName = "root" }).PolicyDocument, ALLOW_ALL)
  end
  H.same(POLICY.read(ctx, r.id, props).properties.Roles, { "a", "b" })
end)

T.case("Policy: update renames, moves between roles, changes the document; delete", function()
  local world, sim = fresh()
  make_roles(sim, "a", "b", "c")
  local ctx = context(sim)
  local old = POLICY:validate({ PolicyName = "p1", PolicyDocument = ALLOW_ALL, Roles = { "a", "b" } }, ctx)
  local r = run(world, POLICY, "create", ctx, old)
  local new = POLICY:validate({ PolicyName = "p2", PolicyDocument = READ_S3, Roles = { "b", "c" } }, ctx)
  local behavior, changed = POLICY:change(old, new, ctx)
  H.eq(behavior, "none")
  run(world, POLICY, "update", ctx, r.id, new, old, changed)
  local iam = sim.client().iam
  H.same(iam.ListRolePolicies({ RoleName = "a" }).PolicyNames, {})
  H.same(iam.ListRolePolicies({ RoleName = "b" }).PolicyNames, { "p2" })
  H.same(iam.GetRolePolicy({ RoleName = "c", PolicyName = "p2" }).PolicyDocument, READ_S3)
  -- Same name, one role dropped: only that role loses it.
  local third = POLICY:validate({ PolicyName = "p2", PolicyDocument = READ_S3, Roles = { "c" } }, ctx)
  run(world, POLICY, "update", ctx, r.id, third, new, { "Roles" })
  H.same(iam.ListRolePolicies({ RoleName = "b" }).PolicyNames, {})
  H.same(iam.ListRolePolicies({ RoleName = "c" }).PolicyNames, { "p2" })
  run(world, POLICY, "delete", ctx, r.id, third)
  H.same(iam.ListRolePolicies({ RoleName = "c" }).PolicyNames, {})
  run(world, POLICY, "delete", ctx, r.id, third) -- again: fine
  H.eq(POLICY.read(ctx, r.id, third), nil)
end)

T.case("Policy: a missing role or user fails the create and undoes the roles done", function()
  local world, sim = fresh()
  make_roles(sim, "a")
  local ctx = context(sim, "Pol")
  local props = POLICY:validate({ PolicyName = "p", PolicyDocument = ALLOW_ALL, Roles = { "a", "ghost" } }, ctx)
  H.raises(function() run(world, POLICY, "create", ctx, props) end, "The role with name ghost cannot be found.")
  H.same(sim.client().iam.ListRolePolicies({ RoleName = "a" }).PolicyNames, {})
  H.raises(function()
    run(world, POLICY, "create", ctx, POLICY:validate({ PolicyName = "p", PolicyDocument = ALLOW_ALL, Users = { "u" } }, ctx))
  end, "The user with name u cannot be found.")
  H.raises(function()
    run(world, POLICY, "create", ctx, POLICY:validate({ PolicyName = "p", PolicyDocument = ALLOW_ALL }, ctx))
  end, "At least one of [Groups, Roles, Users] must be specified.")
end)

-- AWS::IAM::ManagedPolicy ---------------------------------------------------------------------

T.case("ManagedPolicy: behaviours, create with roles, Ref is the ARN, attributes", function()
  local want = { Description = "replace", Groups = "none", ManagedPolicyName = "replace", Path = "replace",
    PolicyDocument = "none", Roles = "none", Users = "none" }
  for _, p in ipairs(MANAGED.properties) do H.eq(p.update, want[p.name], p.name) end
  local world, sim = fresh()
  make_roles(sim, "a")
  world.set_now_ms(0)
  local ctx = context(sim, "Pol")
  local props = MANAGED:validate({ PolicyDocument = ALLOW_ALL, Roles = { "a" }, Description = "d" }, ctx)
  local r = run(world, MANAGED, "create", ctx, props)
  H.match(r.id, "^arn:aws:iam::123456789012:policy/s%-Pol%-%w+$")
  H.eq(r.attributes.PolicyArn, r.id)
  H.eq(r.attributes.AttachmentCount, 1)
  H.eq(r.attributes.DefaultVersionId, "v1")
  H.eq(r.attributes.IsAttachable, true)
  H.eq(r.attributes.CreateDate, "1970-01-01T00:00:00Z")
  H.match(r.attributes.PolicyId, "^ANPA")
  H.eq(sim.client().iam.ListAttachedRolePolicies({ RoleName = "a" }).AttachedPolicies[1].PolicyArn, r.id)
  local read = MANAGED.read(ctx, r.id, props)
  H.same(read.properties.PolicyDocument, ALLOW_ALL)
  H.same(read.properties.Roles, { "a" })
  H.eq(read.properties.Description, "d")
end)

T.case("ManagedPolicy: a new document is a new default version; old ones are pruned at five", function()
  local world, sim = fresh()
  local ctx = context(sim)
  local old = MANAGED:validate({ ManagedPolicyName = "pol", PolicyDocument = ALLOW_ALL }, ctx)
  local r = run(world, MANAGED, "create", ctx, old)
  local iam = sim.client().iam
  for i = 2, 8 do
    local new = MANAGED:validate({ ManagedPolicyName = "pol",
      PolicyDocument = { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = "s3:" .. i, Resource = "*" } } } }, ctx)
    H.eq((MANAGED:change(old, new, ctx)), "none")
    local u = run(world, MANAGED, "update", ctx, r.id, new, old, { "PolicyDocument" })
    H.eq(u.attributes.DefaultVersionId, "v" .. i)
    old = new
  end
  local ids = {}
  for i, v in ipairs(iam.ListPolicyVersions({ PolicyArn = r.id }).Versions) do ids[i] = v.VersionId end
  H.same(ids, { "v8", "v7", "v6", "v5", "v4" })
  H.same(iam.GetPolicyVersion({ PolicyArn = r.id, VersionId = "v8" }).PolicyVersion.Document, old.PolicyDocument)
  -- Description, Path, ManagedPolicyName: replacement.
  H.eq((MANAGED:change(old, MANAGED:validate({ ManagedPolicyName = "pol", PolicyDocument = old.PolicyDocument, Description = "x" }, ctx), ctx)), "replace")
  -- Delete drops the old versions first.
  run(world, MANAGED, "delete", ctx, r.id, old)
  H.eq(#world.ids("iam.policy"), 0)
  run(world, MANAGED, "delete", ctx, r.id, old)
end)

T.case("ManagedPolicy: Roles update attaches and detaches; delete detaches every role", function()
  local world, sim = fresh()
  make_roles(sim, "a", "b", "c")
  local ctx = context(sim)
  local old = MANAGED:validate({ ManagedPolicyName = "pol", PolicyDocument = ALLOW_ALL, Roles = { "a", "b" } }, ctx)
  local r = run(world, MANAGED, "create", ctx, old)
  local new = MANAGED:validate({ ManagedPolicyName = "pol", PolicyDocument = ALLOW_ALL, Roles = { "b", "c" } }, ctx)
  local u = run(world, MANAGED, "update", ctx, r.id, new, old, { "Roles" })
  H.eq(u.attributes.AttachmentCount, 2)
  local iam = sim.client().iam
  H.same(iam.ListAttachedRolePolicies({ RoleName = "a" }).AttachedPolicies, {})
  H.eq(#iam.ListAttachedRolePolicies({ RoleName = "c" }).AttachedPolicies, 1)
  -- Attached elsewhere too (e.g. a role's ManagedPolicyArns): delete detaches it.
  iam.AttachRolePolicy({ RoleName = "a", PolicyArn = r.id })
  run(world, MANAGED, "delete", ctx, r.id, new)
  for _, role in ipairs({ "a", "b", "c" }) do
    H.same(iam.ListAttachedRolePolicies({ RoleName = role }).AttachedPolicies, {}, role)
  end
  H.raises(function() iam.GetPolicy({ PolicyArn = r.id }) end, "Policy " .. r.id .. " was not found.")
end)

-- AWS::IAM::InstanceProfile ------------------------------------------------------------------

T.case("InstanceProfile: create with its role; Ref is the name; Arn", function()
  local want = { InstanceProfileName = "replace", Path = "replace", Roles = "none" }
  for _, p in ipairs(PROFILE.properties) do H.eq(p.update, want[p.name], p.name) end
  H.raises(function() PROFILE:validate({}, { logical_id = "IP" }) end,
    "Properties validation failed for resource IP with message: #: required key [Roles] not found")
  local world, sim = fresh()
  make_roles(sim, "r")
  local ctx = context(sim, "Profile")
  local props = PROFILE:validate({ Roles = { "r" }, Path = "/p/" }, ctx)
  local res = run(world, PROFILE, "create", ctx, props)
  H.match(res.id, "^s%-Profile%-%w+$")
  H.eq(res.attributes.Arn, "arn:aws:iam::123456789012:instance-profile/p/" .. res.id)
  H.same(PROFILE.read(ctx, res.id, props).properties, { InstanceProfileName = res.id, Path = "/p/", Roles = { "r" } })
end)

T.case("InstanceProfile: swapping the role updates in place; a name change replaces", function()
  local world, sim = fresh()
  make_roles(sim, "r1", "r2")
  local ctx = context(sim)
  local old = PROFILE:validate({ InstanceProfileName = "ip", Roles = { "r1" } }, ctx)
  run(world, PROFILE, "create", ctx, old)
  local new = PROFILE:validate({ InstanceProfileName = "ip", Roles = { "r2" } }, ctx)
  H.eq((PROFILE:change(old, new, ctx)), "none")
  run(world, PROFILE, "update", ctx, "ip", new, old, { "Roles" })
  local roles = sim.client().iam.GetInstanceProfile({ InstanceProfileName = "ip" }).InstanceProfile.Roles
  H.eq(#roles, 1)
  H.eq(roles[1].RoleName, "r2")
  H.eq((PROFILE:change(new, PROFILE:validate({ InstanceProfileName = "ip2", Roles = { "r2" } }, ctx), ctx)), "replace")
  -- Delete takes the role out first; then the role can go.
  run(world, PROFILE, "delete", ctx, "ip", new)
  sim.client().iam.DeleteRole({ RoleName = "r2" })
  run(world, PROFILE, "delete", ctx, "ip", new)
  H.eq(PROFILE.read(ctx, "ip", new), nil)
end)

T.case("InstanceProfile: two roles fail with IAM's quota message and leave nothing", function()
  local world, sim = fresh()
  make_roles(sim, "r1", "r2")
  local ctx = context(sim)
  local props = PROFILE:validate({ InstanceProfileName = "ip", Roles = { "r1", "r2" } }, ctx)
  local e = H.raises(function() run(world, PROFILE, "create", ctx, props) end,
    "Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1")
  H.eq(e.code, "LimitExceeded")
  H.eq(#world.ids("iam.instance_profile"), 0)
  sim.client().iam.DeleteRole({ RoleName = "r1" }) -- not held any more
end)

T.case("a name IAM already holds fails the create with the registry handler's AlreadyExists and changes nothing", function()
  local world, sim = fresh()
  local iam = sim.client().iam
  iam.CreateRole({ RoleName = "taken", AssumeRolePolicyDocument = TRUST })
  iam.CreateUser({ UserName = "taken" })
  iam.CreateGroup({ GroupName = "taken" })
  iam.CreateInstanceProfile({ InstanceProfileName = "taken" })
  local cases = {
    { ROLE, role_props({ RoleName = "TAKEN" }), "AWS::IAM::Role", "TAKEN" },  -- IAM's names ignore case
    { load("iam/user"), { UserName = "taken" }, "AWS::IAM::User", "taken" },
    { load("iam/group"), { GroupName = "taken" }, "AWS::IAM::Group", "taken" },
    { PROFILE, { InstanceProfileName = "taken", Roles = { "taken" } }, "AWS::IAM::InstanceProfile", "taken" },
  }
  for _, c in ipairs(cases) do
    local decl, props, type_name, id = c[1], c[2], c[3], c[4]
    local ctx = context(sim, "X")
    local e = H.raises(function() run(world, decl, "create", ctx, decl:validate(props, ctx)) end,
      "Resource of type '" .. type_name .. "' with identifier '" .. id .. "' already exists.", type_name)
    H.eq(e.code, "AlreadyExists", type_name)
  end
  -- The profile that was there keeps no role: the failed create added none.
  H.same(iam.GetInstanceProfile({ InstanceProfileName = "taken" }).InstanceProfile.Roles, {})
  H.eq(#iam.ListRoles({}).Roles, 1)
end)

T.case("Role and InstanceProfile together: delete in reverse order succeeds", function()
  local world, sim = fresh()
  local rctx, pctx = context(sim, "Role"), context(sim, "Profile")
  local rprops = ROLE:validate(role_props(), rctx)
  local role = run(world, ROLE, "create", rctx, rprops)
  local pprops = PROFILE:validate({ Roles = { role.id } }, pctx)
  local profile = run(world, PROFILE, "create", pctx, pprops)
  -- Role first (wrong order): refused, as on AWS.
  H.raises(function() run(world, ROLE, "delete", rctx, role.id, rprops) end,
    "Cannot delete entity, must remove roles from instance profile first.")
  run(world, PROFILE, "delete", pctx, profile.id, pprops)
  run(world, ROLE, "delete", rctx, role.id, rprops)
  H.eq(#world.ids("iam.role"), 0)
  H.eq(#world.ids("iam.instance_profile"), 0)
end)

T.case("a policy document IAM refuses fails the hook with IAM's message and the SDK's details; no role is left", function()
  local world, sim = fresh()
  local failure = require("provider_driver").failure
  local bad = { Version = "2012-10-17", Statement = { { Effect = "Allow", Principal = "*", Action = "s3:GetObject",
                                                       Resource = "*" } } }
  local reason = failure(function()
    run(world, ROLE, "create", context(sim, "Fn"), role_props({ Policies = { { PolicyName = "p", PolicyDocument = bad } } }))
  end)
  H.match(reason, "^Policy document should not specify a principal%. %(Service: AmazonIdentityManagement; Status Code: 400; "
    .. "Error Code: MalformedPolicyDocument; Request ID: %x+%-%x+%-%x+%-%x+%-%x+; Proxy: null%)$")
  H.same(sim.client().iam.ListRoles({}).Roles, {})
  -- A trust policy naming a resource, the same way.
  reason = failure(function()
    run(world, ROLE, "create", context(sim, "Fn"), role_props({ AssumeRolePolicyDocument = ALLOW_ALL }))
  end)
  H.match(reason, "^Has prohibited field Resource %(Service: AmazonIdentityManagement; Status Code: 400; ")
end)

return T
