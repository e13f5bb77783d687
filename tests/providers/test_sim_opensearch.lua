-- The simulated OpenSearch Service: domains, versions and upgrade paths,
-- the legacy es API over the same domains.
local H = require("harness")
local T = H.suite("sim opensearch")

local function aws() return require("sim").client() end

T.case("compatible versions: later ones of the same major, the next major from the last of a major", function()
  fresh()
  local c = require("sim.opensearch").impl.compatible
  H.same(c("Elasticsearch_7.9"), { "Elasticsearch_7.10" })
  H.same(c("Elasticsearch_7.10"), { "OpenSearch_1.0", "OpenSearch_1.1", "OpenSearch_1.2", "OpenSearch_1.3" })
  H.same(c("OpenSearch_2.19"), { "OpenSearch_3.1" })
  H.same(c("OpenSearch_3.1"), {})
  H.same(c("Elasticsearch_6.7"), { "Elasticsearch_6.8" })
end)

T.case("errors: names, versions, changes while processing, unknown domains", function()
  local world = fresh()
  H.raises(function() aws().opensearch.CreateDomain({ DomainName = "Logs" }) end,
    "1 validation error detected: Value 'Logs' at 'domainName' failed to satisfy constraint: Member must satisfy "
    .. "regular expression pattern: [a-z][a-z0-9\\-]+")
  H.raises_match(function() aws().opensearch.CreateDomain({ DomainName = "logs", EngineVersion = "OpenSearch_2.18" }) end,
    "^Unsupported Version: OpenSearch_2%.18, allowed Versions are: %[OpenSearch_3%.1, OpenSearch_2%.19, .*, Elasticsearch_1%.5%]$")
  aws().opensearch.CreateDomain({ DomainName = "logs", EngineVersion = "OpenSearch_2.11" })
  H.raises(function() aws().opensearch.CreateDomain({ DomainName = "logs" }) end, "Domain logs already exists")
  H.raises(function() aws().opensearch.UpgradeDomain({ DomainName = "logs", TargetVersion = "OpenSearch_2.13" }) end,
    "A change/update is in progress. Please wait for it to complete before requesting another change.")
  world.set_now_ms(900 * 1000)
  local s = aws().opensearch.DescribeDomain({ DomainName = "logs" }).DomainStatus
  H.eq(s.Processing, false)
  aws().opensearch.UpgradeDomain({ DomainName = "logs", TargetVersion = "OpenSearch_2.13" })
  s = aws().opensearch.DescribeDomain({ DomainName = "logs" }).DomainStatus
  H.eq(s.UpgradeProcessing, true)
  H.eq(s.EngineVersion, "OpenSearch_2.11")
  H.same(aws().opensearch.GetUpgradeStatus({ DomainName = "logs" }), { UpgradeStep = "UPGRADE", StepStatus = "IN_PROGRESS" })
  world.set_now_ms(2100 * 1000)
  s = aws().opensearch.DescribeDomain({ DomainName = "logs" }).DomainStatus
  H.eq(s.UpgradeProcessing, false)
  H.eq(s.EngineVersion, "OpenSearch_2.13")
  H.same(aws().opensearch.GetUpgradeStatus({ DomainName = "logs" }), { UpgradeStep = "UPGRADE", StepStatus = "SUCCEEDED" })
  H.raises(function() aws().opensearch.DescribeDomain({ DomainName = "nope" }) end, "Domain not found: nope")
end)

T.case("the es API sees the same domains, versions without the Elasticsearch_ prefix", function()
  local world = fresh()
  aws().es.CreateElasticsearchDomain({ DomainName = "old", ElasticsearchVersion = "7.10" })
  H.eq(aws().opensearch.DescribeDomain({ DomainName = "old" }).DomainStatus.EngineVersion, "Elasticsearch_7.10")
  world.set_now_ms(900 * 1000)
  aws().opensearch.UpgradeDomain({ DomainName = "old", TargetVersion = "OpenSearch_1.3" })
  world.set_now_ms(2100 * 1000)
  H.eq(aws().es.DescribeElasticsearchDomain({ DomainName = "old" }).DomainStatus.ElasticsearchVersion, "OpenSearch_1.3")
  H.raises(function() aws().es.UpgradeElasticsearchDomain({ DomainName = "old", TargetVersion = "7.10" }) end,
    "Failed to submit upgrade. Upgrade from OpenSearch_1.3 to 7.10 not supported.")
end)

return T
