-- AWS::OpenSearchService::Domain and AWS::Elasticsearch::Domain driven as the
-- engine drives them, with and without EnableVersionUpgrade (seed 004).
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws opensearch domains")

local OS = D.load("opensearchservice/domain")
local ES = D.load("elasticsearch/domain")

local function domain(sim, name) return sim.client().opensearch.DescribeDomain({ DomainName = name }).DomainStatus end

T.case("create: processing for 15 simulated minutes; Ref is a generated lower-case name", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "SearchDomain")
  local r, trace = D.run(world, OS, "create", ctx, OS:validate({ EngineVersion = "OpenSearch_2.11" }, ctx))
  H.match(r.id, "^s%-searchdomain%-[a-z0-9]+$")
  H.truthy(#r.id <= 28, "at most 28 characters")
  H.eq(trace.seconds, 900)
  local s = domain(sim, r.id)
  H.same(r.attributes, { Arn = "arn:aws:es:us-east-1:123456789012:domain/" .. r.id, DomainArn = s.ARN,
    DomainEndpoint = s.Endpoint, Id = "123456789012/" .. r.id })
  H.match(s.Endpoint, "^search%-" .. r.id:gsub("%-", "%%-") .. "%-[a-z0-9]+%.us%-east%-1%.es%.amazonaws%.com$")
end)

T.case("EngineVersion: replacement without the policy, in place with EnableVersionUpgrade", function()
  local _, sim = fresh()
  local old = OS:validate({ DomainName = "logs", EngineVersion = "OpenSearch_2.11" }, {})
  local new = OS:validate({ DomainName = "logs", EngineVersion = "OpenSearch_2.13" }, {})
  H.eq((OS:change(old, new, D.context(sim))), "replace")
  H.eq((OS:change(old, new, D.context(sim, "D", { EnableVersionUpgrade = "false" }))), "replace")
  H.eq((OS:change(old, new, D.context(sim, "D", { EnableVersionUpgrade = true }))), "none")
  H.eq((OS:change(old, new, D.context(sim, "D", { EnableVersionUpgrade = "true" }))), "none")
  local eold = ES:validate({ DomainName = "logs", ElasticsearchVersion = "6.8" }, {})
  local enew = ES:validate({ DomainName = "logs", ElasticsearchVersion = "7.10" }, {})
  H.eq((ES:change(eold, enew, D.context(sim))), "replace")
  H.eq((ES:change(eold, enew, D.context(sim, "D", { EnableVersionUpgrade = true }))), "none")
end)

T.case("an in-place upgrade: UpgradeDomain, in progress 20 simulated minutes, the version changes in the world", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "D", { EnableVersionUpgrade = true })
  local old = OS:validate({ DomainName = "logs", EngineVersion = "Elasticsearch_7.10" }, ctx)
  local r = D.run(world, OS, "create", ctx, old)
  local new = OS:validate({ DomainName = "logs", EngineVersion = "OpenSearch_1.3" }, ctx)
  local _, changed = OS:change(old, new, ctx)
  local before = world.now_ms()
  local u, trace = D.run(world, OS, "update", ctx, r.id, new, old, changed)
  H.eq(trace.seconds, 1200)
  H.eq(domain(sim, "logs").EngineVersion, "OpenSearch_1.3")
  H.eq(domain(sim, "logs").ARN, r.attributes.Arn) -- the same domain
  H.eq(u.attributes.Id, "123456789012/logs")
  H.truthy(world.now_ms() - before == 1200 * 1000, "clock moved by the upgrade")
end)

T.case("a downgrade or an unsupported path fails as the service does; the rollback of an upgrade cannot downgrade", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "D", { EnableVersionUpgrade = true })
  local old = OS:validate({ DomainName = "logs", EngineVersion = "OpenSearch_2.11" }, ctx)
  local r = D.run(world, OS, "create", ctx, old)
  local down = OS:validate({ DomainName = "logs", EngineVersion = "OpenSearch_1.3" }, ctx)
  H.eq(D.failure(function() D.run(world, OS, "update", ctx, r.id, down, old, { "EngineVersion" }) end),
    "Failed to submit upgrade. Upgrade from OpenSearch_2.11 to OpenSearch_1.3 not supported.")
  local skip = OS:validate({ DomainName = "logs", EngineVersion = "OpenSearch_3.1" }, ctx)
  H.eq(D.failure(function() D.run(world, OS, "update", ctx, r.id, skip, old, { "EngineVersion" }) end),
    "Failed to submit upgrade. Upgrade from OpenSearch_2.11 to OpenSearch_3.1 not supported.")
  H.eq(domain(sim, "logs").EngineVersion, "OpenSearch_2.11")
  -- Rolling back the refused change finds the domain where it was: nothing to do.
  local _, trace = D.run(world, OS, "rollback", ctx, r.id, old, skip, { "EngineVersion" })
  H.eq(trace.calls, 1)
  local up = OS:validate({ DomainName = "logs", EngineVersion = "OpenSearch_2.19" }, ctx)
  D.run(world, OS, "update", ctx, r.id, up, old, { "EngineVersion" })
  H.eq(D.failure(function() D.run(world, OS, "rollback", ctx, r.id, old, up, { "EngineVersion" }) end),
    "Failed to submit upgrade. Upgrade from OpenSearch_2.19 to OpenSearch_2.11 not supported.")
  H.eq(domain(sim, "logs").EngineVersion, "OpenSearch_2.19")
end)

T.case("the legacy type upgrades through the es API, naming versions without a prefix", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "D", { EnableVersionUpgrade = "true" })
  local old = ES:validate({ DomainName = "legacy", ElasticsearchVersion = "6.8" }, ctx)
  local r = D.run(world, ES, "create", ctx, old)
  local new = ES:validate({ DomainName = "legacy", ElasticsearchVersion = "7.10" }, ctx)
  D.run(world, ES, "update", ctx, r.id, new, old, { "ElasticsearchVersion" })
  H.eq(sim.client().es.DescribeElasticsearchDomain({ DomainName = "legacy" }).DomainStatus.ElasticsearchVersion, "7.10")
  local bad = ES:validate({ DomainName = "legacy", ElasticsearchVersion = "7.4" }, ctx)
  H.eq(D.failure(function() D.run(world, ES, "update", ctx, r.id, bad, new, { "ElasticsearchVersion" }) end),
    "Failed to submit upgrade. Upgrade from 7.10 to 7.4 not supported.")
end)

T.case("delete: deleted, then gone after 10 simulated minutes", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "D")
  local r = D.run(world, OS, "create", ctx, OS:validate({ DomainName = "gone" }, ctx))
  local _, trace = D.run(world, OS, "delete", ctx, r.id, {})
  H.eq(trace.seconds, 600)
  H.raises(function() domain(sim, "gone") end, "Domain not found: gone")
end)

return T
