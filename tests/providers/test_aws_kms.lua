-- AWS::KMS::Key and ::Alias driven as the engine drives them, and their
-- contract fixtures.
local H = require("harness")
local D = require("provider_driver")
local P = require("moonstack.provider")
local T = H.suite("aws kms")

T.case("Key: Ref is the key ID, GetAtt Arn/KeyId, CloudFormation's tags; delete schedules deletion", function()
  local world, sim = fresh()
  local decl = D.load("kms/key")
  local ctx = D.context(sim, "AppKey")
  local props = decl:validate({ Description = "app", PendingWindowInDays = 7, Tags = { { Key = "team", Value = "a" } } }, ctx)
  local r = D.run(world, decl, "create", ctx, props)
  H.match(r.id, "^%x+%-%x+%-4%x+%-%x+%-%x+$")
  H.eq(r.attributes.KeyId, r.id)
  H.eq(r.attributes.Arn, "arn:aws:kms:us-east-1:123456789012:key/" .. r.id)
  local tags = {}
  for _, t in ipairs(sim.call("kms", "ListResourceTags", { KeyId = r.id }).Tags) do tags[t.TagKey] = t.TagValue end
  H.eq(tags.team, "a")
  H.eq(tags["aws:cloudformation:logical-id"], "AppKey")
  H.eq(tags["aws:cloudformation:stack-name"], "s")
  H.eq(decl:change({ KeyUsage = "ENCRYPT_DECRYPT" }, { KeyUsage = "SIGN_VERIFY" }, ctx), "replace")
  H.eq(decl:change({ Description = "a" }, { Description = "b" }, ctx), "none")
  D.run(world, decl, "delete", ctx, r.id, props)
  local k = sim.call("kms", "DescribeKey", { KeyId = r.id }).KeyMetadata
  H.eq(k.KeyState, "PendingDeletion")
  H.eq(k.PendingDeletionWindowInDays, 7)
  H.eq(D.run(world, decl, "read", ctx, r.id, props), nil, "a key pending deletion is gone for CloudFormation")
end)

T.case("Alias: Ref is the name; the target key must exist; the prefix rule", function()
  local world, sim = fresh()
  local decl = D.load("kms/alias")
  local ctx = D.context(sim, "AppAlias")
  local key = sim.call("kms", "CreateKey", {}).KeyMetadata.KeyId
  local r = D.run(world, decl, "create", ctx, decl:validate({ AliasName = "alias/app", TargetKeyId = key }, ctx))
  H.eq(r.id, "alias/app")
  -- KMS's refusals in the registry handlers' form: KMS's message and the SDK's details inside.
  local function reported(message, code)
    return "^Resource handler returned message: \"" .. message:gsub("%p", "%%%0")
      .. " %(Service: Kms, Status Code: 400, Request ID: [%x%-]+%) %(SDK Attempt Count: 1%)\" "
      .. "%(RequestToken: [%x%-]+, HandlerErrorCode: " .. code .. "%)$"
  end
  local ok, err = pcall(D.run, world, decl, "create", ctx, decl:validate({ AliasName = "app", TargetKeyId = key }, ctx))
  H.eq(ok, false)
  H.match(P.error_message(err), reported("Alias must start with the prefix \"alias/\". Please see "
    .. "https://docs.aws.amazon.com/kms/latest/developerguide/kms-alias.html", "InvalidRequest"))
  H.eq(err.code, "InvalidRequest")
  ok, err = pcall(D.run, world, decl, "create", ctx,
    decl:validate({ AliasName = "alias/b", TargetKeyId = "00000000-0000-4000-8000-000000000000" }, ctx))
  H.eq(ok, false)
  H.match(P.error_message(err),
    reported("Key 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-4000-8000-000000000000' does not exist", "NotFound"))
  H.eq(err.code, "NotFound")
  H.eq(decl:change({ AliasName = "alias/a", TargetKeyId = "k" }, { AliasName = "alias/a", TargetKeyId = "k2" }, ctx), "none")
end)

T.case("Key: a key policy that locks the account out fails as the registry handler reports it; nothing is made", function()
  local world, sim = fresh()
  local decl = D.load("kms/key")
  local ctx = D.context(sim, "AppKey")
  local props = decl:validate({ KeyPolicy = { Version = "2012-10-17", Statement = { {
    Effect = "Allow", Principal = { Service = "logs.amazonaws.com" }, Action = "kms:*", Resource = "*" } } } }, ctx)
  local ok, err = pcall(D.run, world, decl, "create", ctx, props)
  H.eq(ok, false)
  H.match(P.error_message(err), "^Resource handler returned message: \"The new key policy will not allow you to update "
    .. "the key policy in the future%. %(Service: Kms, Status Code: 400, Request ID: [%x%-]+%) %(SDK Attempt Count: 1%)\" "
    .. "%(RequestToken: [%x%-]+, HandlerErrorCode: InvalidRequest%)$")
  H.eq(err.code, "InvalidRequest")
  H.same(sim.call("kms", "ListKeys", {}).Keys, {})
end)

for _, name in ipairs({ "key", "alias" }) do
  T.case(name .. ".lua passes the contract kit but its listed gaps", function()
    local _, sim = fresh()
    sim.seed("contract")
    local report = require("moonstack.contract").run(MOONSTACK_ROOT .. "/providers/aws/kms/" .. name .. ".lua")
    require("contract_gaps").check(report, "aws/kms/" .. name .. ".lua")
  end)
end

return T
