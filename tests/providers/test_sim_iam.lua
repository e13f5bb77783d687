-- The simulated IAM: roles, inline and attached policies, managed policies
-- with versions, instance profiles; IAM's messages and codes.
local H = require("harness")
local T = H.suite("sim iam")

local TRUST = {
  Version = "2012-10-17",
  Statement = { { Effect = "Allow", Principal = { Service = "ec2.amazonaws.com" }, Action = "sts:AssumeRole" } },
}
local DOC = { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = "s3:*", Resource = "*" } } }

local function iam()
  local world, sim = fresh()
  return sim.client().iam, world, sim
end

local function role(client, name, extra)
  local p = { RoleName = name, AssumeRolePolicyDocument = TRUST }
  for k, v in pairs(extra or {}) do p[k] = v end
  return client.CreateRole(p).Role
end

T.case("CreateRole returns the role: ID, ARN with its path, defaults", function()
  local c, world = iam()
  world.set_now_ms(86400000 + 3723000) -- 1970-01-02T01:02:03Z
  local r = role(c, "web", { Path = "/app/", Description = "d", Tags = { { Key = "team", Value = "x" } } })
  H.match(r.RoleId, "^AROA[A-Z0-9]+$")
  H.eq(#r.RoleId, 21)
  H.eq(r.Arn, "arn:aws:iam::123456789012:role/app/web")
  H.eq(r.Path, "/app/")
  H.eq(r.MaxSessionDuration, 3600)
  H.eq(r.CreateDate, "1970-01-02T01:02:03Z")
  H.same(r.Tags, { { Key = "team", Value = "x" } })
  H.same(c.GetRole({ RoleName = "web" }).Role, r)
  H.same(r.AssumeRolePolicyDocument, TRUST)
  H.same(c.ListRoles({}).Roles, { r })
end)

T.case("role names are unique without regard to case", function()
  local c = iam()
  role(c, "Web")
  local e = H.raises(function() role(c, "Web") end, "Role with name Web already exists.")
  H.eq(e.code, "EntityAlreadyExists")
  H.raises(function() role(c, "WEB") end, "Role with name WEB already exists.")
  H.eq(c.GetRole({ RoleName = "web" }).Role.RoleName, "Web")
end)

T.case("a missing role is NoSuchEntity with IAM's message", function()
  local c = iam()
  local e = H.raises(function() c.GetRole({ RoleName = "nope" }) end, "The role with name nope cannot be found.")
  H.eq(e.code, "NoSuchEntity")
  H.raises(function() c.DeleteRole({ RoleName = "nope" }) end, "The role with name nope cannot be found.")
end)

T.case("role parameters are validated with IAM's validation messages", function()
  local c = iam()
  local long = string.rep("a", 65)
  local e = H.raises(function() role(c, long) end,
    "1 validation error detected: Value '" .. long .. "' at 'roleName' failed to satisfy constraint: Member must have length less than or equal to 64")
  H.eq(e.code, "ValidationError")
  H.raises(function() role(c, "a b") end,
    "1 validation error detected: Value 'a b' at 'roleName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]+")
  H.raises(function() c.CreateRole({ AssumeRolePolicyDocument = TRUST }) end,
    "1 validation error detected: Value null at 'roleName' failed to satisfy constraint: Member must not be null")
  H.raises(function() role(c, "r", { Path = "app" }) end,
    "1 validation error detected: Value 'app' at 'path' failed to satisfy constraint: Member must satisfy regular expression pattern: (\\u002F)|(\\u002F[\\u0021-\\u007F]+\\u002F)")
  H.raises(function() role(c, "r", { MaxSessionDuration = 60 }) end,
    "1 validation error detected: Value '60' at 'maxSessionDuration' failed to satisfy constraint: Member must have value greater than or equal to 3600")
  H.raises(function() role(c, "r", { MaxSessionDuration = 50000 }) end,
    "1 validation error detected: Value '50000' at 'maxSessionDuration' failed to satisfy constraint: Member must have value less than or equal to 43200")
  H.same(c.ListRoles({}).Roles, {}) -- nothing was created
end)

T.case("UpdateRole, UpdateAssumeRolePolicy, boundary, tags", function()
  local c = iam()
  role(c, "r")
  c.UpdateRole({ RoleName = "r", Description = "new", MaxSessionDuration = 7200 })
  local doc = { Version = "2012-10-17", Statement = {} }
  c.UpdateAssumeRolePolicy({ RoleName = "r", PolicyDocument = doc })
  c.PutRolePermissionsBoundary({ RoleName = "r", PermissionsBoundary = "arn:aws:iam::aws:policy/ReadOnlyAccess" })
  c.TagRole({ RoleName = "r", Tags = { { Key = "a", Value = "1" }, { Key = "b", Value = "2" } } })
  c.TagRole({ RoleName = "r", Tags = { { Key = "a", Value = "3" } } })
  c.UntagRole({ RoleName = "r", TagKeys = { "b" } })
  local r = c.GetRole({ RoleName = "r" }).Role
  H.eq(r.Description, "new")
  H.eq(r.MaxSessionDuration, 7200)
  H.same(r.AssumeRolePolicyDocument, doc)
  H.same(r.PermissionsBoundary, { PermissionsBoundaryType = "PermissionsBoundaryPolicy",
    PermissionsBoundaryArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" })
  H.same(c.ListRoleTags({ RoleName = "r" }).Tags, { { Key = "a", Value = "3" } })
  c.DeleteRolePermissionsBoundary({ RoleName = "r" })
  H.eq(c.GetRole({ RoleName = "r" }).Role.PermissionsBoundary, nil)
  H.raises(function()
    c.PutRolePermissionsBoundary({ RoleName = "r", PermissionsBoundary = "arn:aws:iam::123456789012:policy/none" })
  end, "Policy arn:aws:iam::123456789012:policy/none does not exist or is not attachable.")
end)

T.case("inline policies: put, get, list, replace, delete", function()
  local c = iam()
  role(c, "r")
  c.PutRolePolicy({ RoleName = "r", PolicyName = "b", PolicyDocument = DOC })
  c.PutRolePolicy({ RoleName = "r", PolicyName = "a", PolicyDocument = DOC })
  H.same(c.ListRolePolicies({ RoleName = "r" }).PolicyNames, { "a", "b" })
  H.same(c.GetRolePolicy({ RoleName = "r", PolicyName = "a" }),
    { RoleName = "r", PolicyName = "a", PolicyDocument = DOC })
  local other = { Version = "2012-10-17", Statement = {} }
  c.PutRolePolicy({ RoleName = "r", PolicyName = "a", PolicyDocument = other })
  H.same(c.GetRolePolicy({ RoleName = "r", PolicyName = "a" }).PolicyDocument, other)
  c.DeleteRolePolicy({ RoleName = "r", PolicyName = "a" })
  H.same(c.ListRolePolicies({ RoleName = "r" }).PolicyNames, { "b" })
  local e = H.raises(function() c.GetRolePolicy({ RoleName = "r", PolicyName = "a" }) end,
    "The role policy with name a cannot be found.")
  H.eq(e.code, "NoSuchEntity")
  H.raises(function() c.DeleteRolePolicy({ RoleName = "r", PolicyName = "a" }) end,
    "The role policy with name a cannot be found.")
end)

T.case("policy documents: IAM refuses an identity or trust policy of the wrong form, in its words", function()
  local c = iam()
  role(c, "r")
  local function statement(fields)
    local st = { Effect = "Allow", Action = "s3:GetObject", Resource = "arn:aws:s3:::b/*" }
    for k, v in pairs(fields) do st[k] = v ~= false and v or nil end
    return { Version = "2012-10-17", Statement = { st } }
  end
  local function refused(fn, message)
    local e = H.raises(fn, message)
    H.eq(e.code, "MalformedPolicyDocument", message)
  end
  for _, case in ipairs({
    { "not json", "Syntax errors in policy." },
    { statement({ Principal = { AWS = "*" } }), "Policy document should not specify a principal." },
    { statement({ Action = false }), "Policy statement must contain actions." },
    { statement({ Resource = false }), "Policy statement must contain resources." },
    { statement({ Resource = "my-bucket" }), 'Resource my-bucket must be in ARN format or "*".' },
    { statement({ Action = "GetObject" }), "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc." },
    { statement({ Action = "s3:Get:Object" }), "Actions/Condition can contain only one colon." },
  }) do
    refused(function() c.PutRolePolicy({ RoleName = "r", PolicyName = "p", PolicyDocument = case[1] }) end, case[2])
    refused(function() c.CreatePolicy({ PolicyName = "p", PolicyDocument = case[1] }) end, case[2])
  end
  H.same(c.ListRolePolicies({ RoleName = "r" }).PolicyNames, {})
  -- A trust policy names principals, never resources; a role or user of the account it names must exist.
  local function trust(principal, extra)
    local st = { Effect = "Allow", Principal = principal, Action = "sts:AssumeRole" }
    for k, v in pairs(extra or {}) do st[k] = v end
    return { Version = "2012-10-17", Statement = { st } }
  end
  refused(function() role(c, "t1", { AssumeRolePolicyDocument = trust({ Service = "ec2.amazonaws.com" }, { Resource = "*" }) }) end,
    "Has prohibited field Resource")
  refused(function() role(c, "t2", { AssumeRolePolicyDocument = trust({ AWS = "arn:aws:iam::123456789012:role/missing" }) }) end,
    'Invalid principal in policy: "AWS":"arn:aws:iam::123456789012:role/missing"')
  refused(function() c.UpdateAssumeRolePolicy({ RoleName = "r", PolicyDocument = trust({}, { Action = "AssumeRole" }) }) end,
    "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc.")
  H.same(c.GetRole({ RoleName = "r" }).Role.AssumeRolePolicyDocument, TRUST)
  -- What IAM takes: an existing role of the account, another account's (not asked), its root, a service.
  role(c, "t3", { AssumeRolePolicyDocument = trust({ AWS = { "arn:aws:iam::123456789012:role/r", "arn:aws:iam::222222222222:role/x",
    "arn:aws:iam::123456789012:root" }, Service = "lambda.amazonaws.com" }) })
  c.PutRolePolicy({ RoleName = "r", PolicyName = "ok", PolicyDocument = statement({ Action = { "s3:Get*", "*" }, Resource = { "*", "arn:aws:s3:::b" } }) })
  c.PutRolePolicy({ RoleName = "r", PolicyName = "not", PolicyDocument = statement({ Action = false, NotAction = "iam:*", Resource = false, NotResource = "arn:aws:iam::*:role/x" }) })
  H.same(c.ListRolePolicies({ RoleName = "r" }).PolicyNames, { "not", "ok" })
end)

T.case("attached policies: AWS managed ones exist implicitly; unknown ones do not", function()
  local c = iam()
  role(c, "r")
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" })
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/service-role/AmazonEC2RoleforSSM" })
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" }) -- again: no-op
  H.same(c.ListAttachedRolePolicies({ RoleName = "r" }).AttachedPolicies, {
    { PolicyName = "ReadOnlyAccess", PolicyArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" },
    { PolicyName = "AmazonEC2RoleforSSM", PolicyArn = "arn:aws:iam::aws:policy/service-role/AmazonEC2RoleforSSM" },
  })
  local e = H.raises(function()
    c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::123456789012:policy/missing" })
  end, "Policy arn:aws:iam::123456789012:policy/missing does not exist or is not attachable.")
  H.eq(e.code, "NoSuchEntity")
  c.DetachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" })
  H.eq(#c.ListAttachedRolePolicies({ RoleName = "r" }).AttachedPolicies, 1)
  H.raises(function()
    c.DetachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" })
  end, "Policy arn:aws:iam::aws:policy/ReadOnlyAccess was not found.")
  local p = c.GetPolicy({ PolicyArn = "arn:aws:iam::aws:policy/service-role/AmazonEC2RoleforSSM" }).Policy
  H.eq(p.Path, "/service-role/")
  H.eq(p.AttachmentCount, 1)
end)

-- Eleven AWS managed policies (sim/iam_managed_policies.lua lists them).
local ELEVEN = { "ReadOnlyAccess", "AdministratorAccess", "PowerUserAccess", "AmazonS3ReadOnlyAccess",
  "AmazonSSMManagedInstanceCore", "AWSCloudFormationReadOnlyAccess", "AmazonEC2ReadOnlyAccess",
  "AmazonDynamoDBReadOnlyAccess", "AmazonSQSReadOnlyAccess", "AmazonSNSReadOnlyAccess", "CloudWatchReadOnlyAccess" }

T.case("a role takes at most the quota of managed policies (10, configurable)", function()
  local c, world = iam()
  role(c, "r")
  for i = 1, 10 do c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/" .. ELEVEN[i] }) end
  local eleventh = "arn:aws:iam::aws:policy/" .. ELEVEN[11]
  local e = H.raises(function() c.AttachRolePolicy({ RoleName = "r", PolicyArn = eleventh }) end,
    "Cannot exceed quota for PoliciesPerRole: 10")
  H.eq(e.code, "LimitExceeded")
  world.put("config", "iam", { PoliciesPerRole = 20 })
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = eleventh })
end)

T.case("an AWS managed policy AWS does not have is NoSuchEntity: a misspelt name or a missing path", function()
  local c, world = iam()
  role(c, "r")
  for _, arn in ipairs({
    "arn:aws:iam::aws:policy/AWSLambdaBasicExecutionRole",  -- service-role/ left out (aws/aws-cdk#19830)
    "arn:aws:iam::aws:policy/AmazonConnectFullAccess",      -- it is AmazonConnect_FullAccess
    "arn:aws:iam::aws:policy/service-role/AWSConfigRole",   -- deprecated: no longer attachable
  }) do
    local e = H.raises(function() c.AttachRolePolicy({ RoleName = "r", PolicyArn = arn }) end,
      "Policy " .. arn .. " does not exist or is not attachable.")
    H.eq(e.code, "NoSuchEntity")
    H.raises(function() c.GetPolicy({ PolicyArn = arn }) end, "Policy " .. arn .. " was not found.")
  end
  H.same(c.ListAttachedRolePolicies({ RoleName = "r" }).AttachedPolicies, {})
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole" })
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/AmazonConnect_FullAccess" })
  -- A policy newer than the generated list: named in the IAM config, it exists.
  local newer = "arn:aws:iam::aws:policy/service-role/BrandNewServicePolicy"
  H.raises(function() c.AttachRolePolicy({ RoleName = "r", PolicyArn = newer }) end,
    "Policy " .. newer .. " does not exist or is not attachable.")
  world.put("config", "iam", { AwsManagedPolicies = { "service-role/BrandNewServicePolicy" } })
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = newer })
  H.eq(c.GetPolicy({ PolicyArn = newer }).Policy.Path, "/service-role/")
  H.eq(#c.ListAttachedRolePolicies({ RoleName = "r" }).AttachedPolicies, 3)
end)

T.case("DeleteRole: instance profile, attached policy, inline policy each block it", function()
  local c = iam()
  role(c, "r")
  c.CreateInstanceProfile({ InstanceProfileName = "ip" })
  c.AddRoleToInstanceProfile({ InstanceProfileName = "ip", RoleName = "r" })
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" })
  c.PutRolePolicy({ RoleName = "r", PolicyName = "inline", PolicyDocument = DOC })
  local e = H.raises(function() c.DeleteRole({ RoleName = "r" }) end,
    "Cannot delete entity, must remove roles from instance profile first.")
  H.eq(e.code, "DeleteConflict")
  c.RemoveRoleFromInstanceProfile({ InstanceProfileName = "ip", RoleName = "r" })
  H.raises(function() c.DeleteRole({ RoleName = "r" }) end, "Cannot delete entity, must detach all policies first.")
  c.DetachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" })
  H.raises(function() c.DeleteRole({ RoleName = "r" }) end, "Cannot delete entity, must delete policies first.")
  c.DeleteRolePolicy({ RoleName = "r", PolicyName = "inline" })
  H.same(c.DeleteRole({ RoleName = "r" }), {})
  H.raises(function() c.GetRole({ RoleName = "r" }) end, "The role with name r cannot be found.")
end)

T.case("managed policies: create, get, duplicate name, versions, delete", function()
  local c, world = iam()
  world.set_now_ms(0)
  local p = c.CreatePolicy({ PolicyName = "pol", Path = "/team/", PolicyDocument = DOC, Description = "d" }).Policy
  H.eq(p.Arn, "arn:aws:iam::123456789012:policy/team/pol")
  H.match(p.PolicyId, "^ANPA[A-Z0-9]+$")
  H.eq(p.DefaultVersionId, "v1")
  H.eq(p.AttachmentCount, 0)
  H.eq(p.IsAttachable, true)
  H.eq(p.Description, nil) -- CreatePolicy's answer has none; GetPolicy's has it
  H.eq(c.GetPolicy({ PolicyArn = p.Arn }).Policy.Description, "d")
  local e = H.raises(function() c.CreatePolicy({ PolicyName = "POL", PolicyDocument = DOC }) end,
    "A policy called POL already exists. Duplicate names are not allowed.")
  H.eq(e.code, "EntityAlreadyExists")

  local doc2 = { Version = "2012-10-17", Statement = {} }
  world.set_now_ms(1000)
  local v2 = c.CreatePolicyVersion({ PolicyArn = p.Arn, PolicyDocument = doc2, SetAsDefault = true }).PolicyVersion
  H.same(v2, { VersionId = "v2", IsDefaultVersion = true, CreateDate = "1970-01-01T00:00:01Z" })
  H.same(c.GetPolicyVersion({ PolicyArn = p.Arn, VersionId = "v2" }).PolicyVersion.Document, doc2)
  H.eq(c.GetPolicy({ PolicyArn = p.Arn }).Policy.DefaultVersionId, "v2")
  for _ = 3, 5 do c.CreatePolicyVersion({ PolicyArn = p.Arn, PolicyDocument = DOC }) end
  local lim = H.raises(function() c.CreatePolicyVersion({ PolicyArn = p.Arn, PolicyDocument = DOC }) end,
    "A managed policy can have up to 5 versions. Before you create a new version, you must delete an existing version.")
  H.eq(lim.code, "LimitExceeded")
  local ids = {}
  for i, v in ipairs(c.ListPolicyVersions({ PolicyArn = p.Arn }).Versions) do ids[i] = v.VersionId end
  H.same(ids, { "v5", "v4", "v3", "v2", "v1" })
  H.raises(function() c.DeletePolicyVersion({ PolicyArn = p.Arn, VersionId = "v2" }) end,
    "Cannot delete the default version of a policy.")
  c.SetDefaultPolicyVersion({ PolicyArn = p.Arn, VersionId = "v1" })
  H.raises(function() c.DeletePolicy({ PolicyArn = p.Arn }) end,
    "This policy has more than one version. Before you delete a policy, you must delete the policy's versions. The default version is deleted with the policy.")
  for _, v in ipairs({ "v2", "v3", "v4", "v5" }) do c.DeletePolicyVersion({ PolicyArn = p.Arn, VersionId = v }) end
  c.DeletePolicy({ PolicyArn = p.Arn })
  local gone = H.raises(function() c.GetPolicy({ PolicyArn = p.Arn }) end,
    "Policy arn:aws:iam::123456789012:policy/team/pol was not found.")
  H.eq(gone.code, "NoSuchEntity")
end)

T.case("an attached managed policy cannot be deleted; attachments are counted", function()
  local c = iam()
  role(c, "a")
  role(c, "b")
  local arn = c.CreatePolicy({ PolicyName = "pol", PolicyDocument = DOC }).Policy.Arn
  c.AttachRolePolicy({ RoleName = "a", PolicyArn = arn })
  c.PutRolePermissionsBoundary({ RoleName = "b", PermissionsBoundary = arn })
  local p = c.GetPolicy({ PolicyArn = arn }).Policy
  H.eq(p.AttachmentCount, 1)
  H.eq(p.PermissionsBoundaryUsageCount, 1)
  H.same(c.ListEntitiesForPolicy({ PolicyArn = arn }).PolicyRoles,
    { { RoleName = "a", RoleId = c.GetRole({ RoleName = "a" }).Role.RoleId } })
  local e = H.raises(function() c.DeletePolicy({ PolicyArn = arn }) end, "Cannot delete a policy attached to entities.")
  H.eq(e.code, "DeleteConflict")
  c.DetachRolePolicy({ RoleName = "a", PolicyArn = arn })
  H.raises(function() c.DeletePolicy({ PolicyArn = arn }) end, "Cannot delete a policy attached to entities.")
  c.DeleteRolePermissionsBoundary({ RoleName = "b" })
  c.DeletePolicy({ PolicyArn = arn })
end)

T.case("instance profiles: create, one role at most, get, remove, delete", function()
  local c = iam()
  role(c, "r1")
  role(c, "r2")
  local ip = c.CreateInstanceProfile({ InstanceProfileName = "ip", Path = "/x/" }).InstanceProfile
  H.eq(ip.Arn, "arn:aws:iam::123456789012:instance-profile/x/ip")
  H.match(ip.InstanceProfileId, "^AIPA[A-Z0-9]+$")
  H.same(ip.Roles, {})
  local dup = H.raises(function() c.CreateInstanceProfile({ InstanceProfileName = "IP" }) end,
    "Instance Profile IP already exists.")
  H.eq(dup.code, "EntityAlreadyExists")
  c.AddRoleToInstanceProfile({ InstanceProfileName = "ip", RoleName = "r1" })
  local lim = H.raises(function() c.AddRoleToInstanceProfile({ InstanceProfileName = "ip", RoleName = "r2" }) end,
    "Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1")
  H.eq(lim.code, "LimitExceeded")
  local got = c.GetInstanceProfile({ InstanceProfileName = "ip" }).InstanceProfile
  H.eq(#got.Roles, 1)
  H.eq(got.Roles[1].RoleName, "r1")
  H.eq(c.ListInstanceProfilesForRole({ RoleName = "r1" }).InstanceProfiles[1].InstanceProfileName, "ip")
  H.same(c.ListInstanceProfilesForRole({ RoleName = "r2" }).InstanceProfiles, {})
  local busy = H.raises(function() c.DeleteInstanceProfile({ InstanceProfileName = "ip" }) end,
    "Cannot delete entity, must remove roles from instance profile first.")
  H.eq(busy.code, "DeleteConflict")
  c.RemoveRoleFromInstanceProfile({ InstanceProfileName = "ip", RoleName = "r1" })
  H.raises(function() c.RemoveRoleFromInstanceProfile({ InstanceProfileName = "ip", RoleName = "r1" }) end,
    "The role with name r1 cannot be found.")
  c.DeleteInstanceProfile({ InstanceProfileName = "ip" })
  local e = H.raises(function() c.GetInstanceProfile({ InstanceProfileName = "ip" }) end,
    "Instance Profile ip cannot be found.")
  H.eq(e.code, "NoSuchEntity")
  H.raises(function() c.AddRoleToInstanceProfile({ InstanceProfileName = "ip", RoleName = "r1" }) end,
    "Instance Profile ip cannot be found.")
  c.DeleteRole({ RoleName = "r1" }) -- free again
end)

T.case("records carry refs: a role's profiles and a policy's roles are found without scanning", function()
  local c, world = iam()
  local r = role(c, "r")
  c.CreateInstanceProfile({ InstanceProfileName = "ip" })
  c.AddRoleToInstanceProfile({ InstanceProfileName = "ip", RoleName = "r" })
  H.same(world.referrers(r.Arn), { { kind = "iam.instance_profile", id = "ip" } })
  c.AttachRolePolicy({ RoleName = "r", PolicyArn = "arn:aws:iam::aws:policy/ReadOnlyAccess" })
  H.same(world.referrers("arn:aws:iam::aws:policy/ReadOnlyAccess"), { { kind = "iam.role", id = "r" } })
end)

return T
