-- The simulated Secrets Manager: ARNs with their 6-character suffix, versions
-- and staging labels, scheduled deletion, passwords and AWS's messages.
local H = require("harness")
local T = H.suite("sim secretsmanager")

T.case("CreateSecret: the ARN's 6-character suffix, unique names, AWS's messages", function()
  local _, sim = fresh()
  local r = sim.call("secretsmanager", "CreateSecret", { Name = "db", SecretString = "s3cret" })
  H.match(r.ARN, "^arn:aws:secretsmanager:us%-east%-1:123456789012:secret:db%-%w%w%w%w%w%w$")
  H.eq(r.Name, "db")
  local e = H.raises(function() sim.call("secretsmanager", "CreateSecret", { Name = "db" }) end,
    "The operation failed because the secret db already exists.")
  H.eq(e.code, "ResourceExistsException")
  H.eq(sim.call("secretsmanager", "GetSecretValue", { SecretId = "db" }).SecretString, "s3cret")
  H.eq(sim.call("secretsmanager", "GetSecretValue", { SecretId = r.ARN }).SecretString, "s3cret")
  e = H.raises(function() sim.call("secretsmanager", "GetSecretValue", { SecretId = "nope" }) end,
    "Secrets Manager can't find the specified secret.")
  H.eq(e.code, "ResourceNotFoundException")
  sim.call("secretsmanager", "CreateSecret", { Name = "empty" })
  H.raises(function() sim.call("secretsmanager", "GetSecretValue", { SecretId = "empty" }) end,
    "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT")
end)

T.case("PutSecretValue: AWSCURRENT moves, AWSPREVIOUS follows, versions by ID", function()
  local _, sim = fresh()
  local first = sim.call("secretsmanager", "CreateSecret", { Name = "api", SecretString = "v1" }).VersionId
  local second = sim.call("secretsmanager", "PutSecretValue", { SecretId = "api", SecretString = "v2" })
  H.same(second.VersionStages, { "AWSCURRENT" })
  H.eq(sim.call("secretsmanager", "GetSecretValue", { SecretId = "api" }).SecretString, "v2")
  H.eq(sim.call("secretsmanager", "GetSecretValue", { SecretId = "api", VersionStage = "AWSPREVIOUS" }).SecretString, "v1")
  H.eq(sim.call("secretsmanager", "GetSecretValue", { SecretId = "api", VersionId = first }).SecretString, "v1")
  H.raises(function() sim.call("secretsmanager", "GetSecretValue", { SecretId = "api", VersionId = "x" }) end,
    "Secrets Manager can't find the specified secret value for VersionId: x")
  local d = sim.call("secretsmanager", "DescribeSecret", { SecretId = "api" })
  H.same(d.VersionIdsToStages, { [first] = { "AWSPREVIOUS" }, [second.VersionId] = { "AWSCURRENT" } })
  H.eq(d.SecretString, nil, "DescribeSecret never shows the value")
end)

T.case("DeleteSecret: a recovery window keeps the name, Restore brings it back, Force removes it", function()
  local world, sim = fresh()
  sim.call("secretsmanager", "CreateSecret", { Name = "db", SecretString = "x" })
  H.raises(function()
    sim.call("secretsmanager", "DeleteSecret", { SecretId = "db", RecoveryWindowInDays = 7, ForceDeleteWithoutRecovery = true })
  end, "You can't use ForceDeleteWithoutRecovery in conjunction with RecoveryWindowInDays.")
  H.raises(function() sim.call("secretsmanager", "DeleteSecret", { SecretId = "db", RecoveryWindowInDays = 3 }) end,
    "The RecoveryWindowInDays value must be between 7 and 30 days (inclusive).")
  local r = sim.call("secretsmanager", "DeleteSecret", { SecretId = "db", RecoveryWindowInDays = 7 })
  H.eq(r.DeletionDate, 7 * 86400)
  H.raises(function() sim.call("secretsmanager", "GetSecretValue", { SecretId = "db" }) end,
    "You can't perform this operation on the secret because it was marked for deletion.")
  H.raises(function() sim.call("secretsmanager", "CreateSecret", { Name = "db" }) end,
    "You can't create this secret because a secret with this name is already scheduled for deletion.")
  H.eq(#sim.call("secretsmanager", "ListSecrets", {}).SecretList, 0)
  H.eq(#sim.call("secretsmanager", "ListSecrets", { IncludePlannedDeletion = true }).SecretList, 1)
  sim.call("secretsmanager", "RestoreSecret", { SecretId = "db" })
  H.eq(sim.call("secretsmanager", "GetSecretValue", { SecretId = "db" }).SecretString, "x")
  sim.call("secretsmanager", "DeleteSecret", { SecretId = "db", RecoveryWindowInDays = 7 })
  world.set_now_ms(7 * 86400 * 1000)
  H.raises(function() sim.call("secretsmanager", "DescribeSecret", { SecretId = "db" }) end,
    "Secrets Manager can't find the specified secret.")
  sim.call("secretsmanager", "CreateSecret", { Name = "db", SecretString = "y" })
  sim.call("secretsmanager", "DeleteSecret", { SecretId = "db", ForceDeleteWithoutRecovery = true })
  H.same(world.ids("secretsmanager.secret"), {})
end)

T.case("GetRandomPassword: length, exclusions, one of each class, the same under the same seed", function()
  local _, sim = fresh()
  local p = sim.call("secretsmanager", "GetRandomPassword", {}).RandomPassword
  H.eq(#p, 32)
  H.match(p, "%l") H.match(p, "%u") H.match(p, "%d") H.match(p, "%p")
  local q = sim.call("secretsmanager", "GetRandomPassword",
    { PasswordLength = 20, ExcludePunctuation = true, ExcludeCharacters = "abcdefghij" }).RandomPassword
  H.eq(#q, 20)
  H.eq(q:find("[%pa-j]"), nil)
  fresh()
  H.eq(sim.call("secretsmanager", "GetRandomPassword", {}).RandomPassword, p)
  H.raises(function() sim.call("secretsmanager", "GetRandomPassword", { PasswordLength = 0 }) end,
    "1 validation error detected: Value '0' at 'passwordLength' failed to satisfy constraint: "
    .. "Member must have value greater than or equal to 1")
end)

T.case("tags: TagResource / UntagResource shown by DescribeSecret", function()
  local _, sim = fresh()
  sim.call("secretsmanager", "CreateSecret", { Name = "t", Tags = { { Key = "a", Value = "1" } } })
  sim.call("secretsmanager", "TagResource", { SecretId = "t", Tags = { { Key = "b", Value = "2" } } })
  sim.call("secretsmanager", "UntagResource", { SecretId = "t", TagKeys = { "a" } })
  H.same(sim.call("secretsmanager", "DescribeSecret", { SecretId = "t" }).Tags, { { Key = "b", Value = "2" } })
end)

return T
