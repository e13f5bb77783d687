-- sim.es: the legacy Elasticsearch Service API ("es") over the same
-- simulated domains as sim.opensearch: CreateElasticsearchDomain,
-- DescribeElasticsearchDomain, UpdateElasticsearchDomainConfig,
-- UpgradeElasticsearchDomain, DeleteElasticsearchDomain. This API names
-- Elasticsearch versions without a prefix ("7.10") and returns them as
-- ElasticsearchVersion; OpenSearch versions keep theirs ("OpenSearch_1.3").

local impl = require("sim.opensearch").impl

local A = {}

-- "7.10" -> "Elasticsearch_7.10" (the shared records' naming), and back.
local function internal(v)
  if type(v) == "string" and v:match("^%d") then return "Elasticsearch_" .. v end
  return v
end
local function shown(v) return (tostring(v):gsub("^Elasticsearch_", "")) end

local function legacy(s)
  s.ElasticsearchVersion = shown(s.EngineVersion)
  s.EngineVersion = nil
  s.ElasticsearchClusterConfig, s.ClusterConfig = s.ClusterConfig, nil
  return s
end

local function request(p)
  local q = {}
  for k, v in pairs(p) do q[k] = v end
  q.EngineVersion = internal(p.ElasticsearchVersion or "1.5")
  q.ClusterConfig = p.ElasticsearchClusterConfig
  q.TargetVersion = p.TargetVersion and internal(p.TargetVersion)
  return q
end

function A.CreateElasticsearchDomain(p, env)
  return { DomainStatus = legacy(impl.create(request(p), env, shown)) }
end

function A.DescribeElasticsearchDomain(p, env)
  return { DomainStatus = legacy(impl.describe(p, env)) }
end

function A.UpdateElasticsearchDomainConfig(p, env)
  return { DomainConfig = legacy(impl.update_config(request(p), env)) }
end

function A.UpgradeElasticsearchDomain(p, env)
  impl.upgrade(request(p), env, shown)
  return { DomainName = p.DomainName, TargetVersion = p.TargetVersion, PerformCheckOnly = p.PerformCheckOnly == true }
end

function A.DeleteElasticsearchDomain(p, env)
  return { DomainStatus = legacy(impl.delete(p, env)) }
end

return A
