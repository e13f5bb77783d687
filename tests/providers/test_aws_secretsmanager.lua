-- AWS::SecretsManager::Secret driven as the engine drives it.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws secretsmanager")

local function value(sim, id, stage)
  return sim.call("secretsmanager", "GetSecretValue", { SecretId = id, VersionStage = stage }).SecretString
end

T.case("Secret: Ref is the ARN, a generated name, GenerateSecretString with a template, CloudFormation's tags", function()
  local world, sim = fresh()
  local decl = D.load("secretsmanager/secret")
  local ctx = D.context(sim, "DbSecret")
  local props = decl:validate({ GenerateSecretString = { SecretStringTemplate = '{"username":"admin"}',
    GenerateStringKey = "password", PasswordLength = 16, ExcludePunctuation = true },
    Tags = { { Key = "team", Value = "a" } } }, ctx)
  local r = D.run(world, decl, "create", ctx, props)
  H.match(r.id, "^arn:aws:secretsmanager:us%-east%-1:123456789012:secret:DbSecret%-%w+%-%w%w%w%w%w%w$")
  H.eq(r.attributes.Id, r.id)
  local v = value(sim, r.id)
  H.match(v, '^{"username":"admin","password":"[%w]+"}$')
  H.eq(#v:match('"password":"(%w+)"'), 16)
  local d = sim.call("secretsmanager", "DescribeSecret", { SecretId = r.id })
  local t = {}
  for _, tag in ipairs(d.Tags) do t[tag.Key] = tag.Value end
  H.eq(t.team, "a")
  H.eq(t["aws:cloudformation:logical-id"], "DbSecret")
  H.eq(decl:change({ Name = "a" }, { Name = "b" }, ctx), "replace")
  H.eq(decl:change({ SecretString = "a" }, { SecretString = "b" }, ctx), "none")
  D.run(world, decl, "delete", ctx, r.id, props)
  H.same(world.ids("secretsmanager.secret"), {}, "deleted without a recovery window")
end)

T.case("Secret: an update of SecretString puts a new current version; the old one is AWSPREVIOUS", function()
  local world, sim = fresh()
  local decl = D.load("secretsmanager/secret")
  local ctx = D.context(sim, "Api")
  local old = decl:validate({ Name = "api-key", SecretString = "one", Description = "d1" }, ctx)
  local r = D.run(world, decl, "create", ctx, old)
  H.eq(r.id:match(":secret:(.+)%-%w%w%w%w%w%w$"), "api-key")
  local new = decl:validate({ Name = "api-key", SecretString = "two", Description = "d2" }, ctx)
  D.run(world, decl, "update", ctx, r.id, new, old, { "Description", "SecretString" })
  H.eq(value(sim, r.id), "two")
  H.eq(value(sim, r.id, "AWSPREVIOUS"), "one")
  H.eq(sim.call("secretsmanager", "DescribeSecret", { SecretId = r.id }).Description, "d2")
  H.eq(D.failure(function()
    D.run(world, decl, "create", ctx, decl:validate({ Name = "x", SecretString = "a", GenerateSecretString = {} }, ctx))
  end), "You can't specify both SecretString and GenerateSecretString.")
end)

T.case("secret.lua passes the contract kit", function()
  local _, sim = fresh()
  sim.seed("contract")
  H.same(D.contract_failures(MOONSTACK_ROOT .. "/providers/aws/secretsmanager/secret.lua"), {})
end)

return T
