-- sim.opensearch: simulated Amazon OpenSearch Service domains (the
-- "opensearch" API; the legacy "es" API, sim.es, serves the same domains),
-- enough for AWS::OpenSearchService::Domain / AWS::Elasticsearch::Domain and
-- the EnableVersionUpgrade update policy.
--
-- Records: kind "opensearch.domain", id "<region>:<domain name>". A domain
-- is Processing for create_seconds (900) after CreateDomain, UpgradeProcessing
-- for upgrade_seconds (1200) after UpgradeDomain (its EngineVersion changes
-- when the upgrade completes), Deleted for delete_seconds (600) before it is
-- gone (world config "opensearch", sim.transitions).
--
-- Versions are named as this API names them: "OpenSearch_2.11",
-- "Elasticsearch_7.10". An upgrade goes to a later version of the same
-- major, or from the last version of a major to the next major
-- (Elasticsearch 5.6 -> 6.x, 6.8 -> 7.x, 7.10 -> OpenSearch 1.x, OpenSearch
-- 1.3 -> 2.x, 2.19 -> 3.x), as GetCompatibleVersions lists them; anything
-- else (a downgrade included) is refused.
--
-- Messages:
--   Failed to submit upgrade. Upgrade from 7.4 to 7.4 not supported.
--        verified (the legacy API's version names): cloudformation-coverage-roadmap#125
--   Unsupported Version: OpenSearch_2.18, allowed Versions are: [OpenSearch_2.17, ...]
--        verified: ministryofjustice/cloud-platform#6654
--   A change/update is in progress. Please wait for it to complete before
--   requesting another change.   verified: aws-samples/siem-on-amazon-opensearch-service#444
--   Domain not found: <name> (ResourceNotFoundException); "Domain <name>
--   already exists" (ResourceAlreadyExistsException): AWS's shape, unverified.

local world = require("sim.world")
local util = require("sim.cloudformation_util")
local transitions = require("sim.transitions")

local A = {}

local KIND = "opensearch.domain"
local DEFAULT_VERSION = "OpenSearch_2.19"

-- Oldest first. Each entry: name, family (for the major-version rule).
local VERSIONS = {
  "Elasticsearch_1.5", "Elasticsearch_2.3", "Elasticsearch_5.1", "Elasticsearch_5.3", "Elasticsearch_5.5",
  "Elasticsearch_5.6", "Elasticsearch_6.0", "Elasticsearch_6.2", "Elasticsearch_6.3", "Elasticsearch_6.4",
  "Elasticsearch_6.5", "Elasticsearch_6.7", "Elasticsearch_6.8", "Elasticsearch_7.1", "Elasticsearch_7.4",
  "Elasticsearch_7.7", "Elasticsearch_7.8", "Elasticsearch_7.9", "Elasticsearch_7.10",
  "OpenSearch_1.0", "OpenSearch_1.1", "OpenSearch_1.2", "OpenSearch_1.3",
  "OpenSearch_2.3", "OpenSearch_2.5", "OpenSearch_2.7", "OpenSearch_2.9", "OpenSearch_2.11", "OpenSearch_2.13",
  "OpenSearch_2.15", "OpenSearch_2.17", "OpenSearch_2.19", "OpenSearch_3.1",
}
local POSITION = {}
for i, v in ipairs(VERSIONS) do POSITION[v] = i end

-- "Elasticsearch_7.10" -> "Elasticsearch_7"
local function major(v) return v:match("^(%a+_%d+)") end

-- The last version of each major: where the next major may be reached from.
local function last_of_major(v)
  local nxt = VERSIONS[POSITION[v] + 1]
  return nxt ~= nil and major(nxt) ~= major(v)
end

---The versions `from` can be upgraded to, oldest first.
local function compatible(from)
  local out, i = {}, POSITION[from]
  if not i then return out end
  local last = last_of_major(from)
  for j = i + 1, #VERSIONS do
    local v = VERSIONS[j]
    if major(v) == major(from) then out[#out + 1] = v
    elseif last and major(v) == major(VERSIONS[i + 1]) then out[#out + 1] = v end
  end
  return out
end

local M = { VERSIONS = VERSIONS, compatible = compatible }

local function fail(message, code) require("sim").fail(message, code) end

local function key(env, name) return env.region .. ":" .. name end

local function not_found(name) fail("Domain not found: " .. tostring(name), "ResourceNotFoundException") end

local function check_name(name)
  if type(name) ~= "string" or #name < 3 or #name > 28 or not name:match("^[a-z][a-z0-9%-]*$") then
    fail("1 validation error detected: Value '" .. tostring(name) .. "' at 'domainName' failed to satisfy "
      .. "constraint: Member must satisfy regular expression pattern: [a-z][a-z0-9\\-]+", "ValidationException")
  end
  return name
end

local function check_version(v, shown)
  if not POSITION[v] then
    local allowed = {}
    for i = #VERSIONS, 1, -1 do allowed[#allowed + 1] = shown(VERSIONS[i]) end
    fail("Unsupported Version: " .. shown(v) .. ", allowed Versions are: [" .. table.concat(allowed, ", ") .. "]",
      "ValidationException")
  end
end

local function load(env, name)
  return transitions.load(KIND, key(env, name), env, "gone")
end

-- Processing / UpgradeProcessing / Deleted follow the record's transition.
local function status(rec)
  local s = {}
  for k, v in pairs(rec) do if k ~= "Transition" and k ~= "State" then s[k] = v end end
  s.Processing = rec.State == "creating" or rec.State == "deleting"
  s.UpgradeProcessing = rec.State == "upgrading"
  s.Deleted = rec.State == "deleting"
  return s
end

local function identity(v) return v end

-- The functions below take `shown`: how the calling API names a version
-- (identity here; sim.es shows Elasticsearch versions without the prefix).
function M.create(p, env, shown)
  local name = check_name(p.DomainName)
  local version = p.EngineVersion or DEFAULT_VERSION
  check_version(version, shown)
  if world.get(KIND, key(env, name)) then
    fail("Domain " .. name .. " already exists", "ResourceAlreadyExistsException")
  end
  local rec = {
    DomainId = env.account .. "/" .. name, DomainName = name,
    ARN = "arn:aws:es:" .. env.region .. ":" .. env.account .. ":domain/" .. name,
    Created = true,
    Endpoint = "search-" .. name .. "-" .. util.hash_hex(name .. env.region, 26) .. "." .. env.region .. ".es.amazonaws.com",
    EngineVersion = version,
    ClusterConfig = p.ClusterConfig or { InstanceType = "r6g.large.search", InstanceCount = 1 },
    EBSOptions = p.EBSOptions, AccessPolicies = p.AccessPolicies, AdvancedOptions = p.AdvancedOptions,
  }
  transitions.start(rec, "State", "creating", "active", env.now_ms, transitions.seconds("opensearch", "create", 900))
  world.put(KIND, key(env, name), rec)
  return status(rec)
end

function M.describe(p, env)
  local rec = load(env, tostring(p.DomainName))
  if not rec then not_found(p.DomainName) end
  return status(rec)
end

local function idle(env, name)
  local rec = load(env, tostring(name))
  if not rec or rec.State == "deleting" then not_found(name) end
  if rec.State ~= "active" then
    fail("A change/update is in progress. Please wait for it to complete before requesting another change.",
      "ValidationException")
  end
  return rec
end

local CONFIG_FIELDS = { "ClusterConfig", "EBSOptions", "AccessPolicies", "AdvancedOptions", "SnapshotOptions",
                        "LogPublishingOptions", "DomainEndpointOptions", "AdvancedSecurityOptions" }

function M.update_config(p, env)
  local rec = idle(env, p.DomainName)
  for _, f in ipairs(CONFIG_FIELDS) do if p[f] ~= nil then rec[f] = p[f] end end
  world.put(KIND, key(env, rec.DomainName), rec)
  return status(rec)
end

function M.upgrade(p, env, shown)
  local rec = idle(env, p.DomainName)
  local target = p.TargetVersion
  local ok = false
  for _, v in ipairs(compatible(rec.EngineVersion)) do if v == target then ok = true end end
  if not ok then
    fail("Failed to submit upgrade. Upgrade from " .. shown(rec.EngineVersion) .. " to " .. shown(tostring(target))
      .. " not supported.", "ValidationException")
  end
  if p.PerformCheckOnly == true or p.PerformCheckOnly == "true" then return status(rec) end
  rec.UpgradeStep, rec.UpgradeTarget = "UPGRADE", target
  transitions.start(rec, "State", "upgrading", "active", env.now_ms, transitions.seconds("opensearch", "upgrade", 1200),
    { EngineVersion = target, UpgradeStep = "UPGRADE", UpgradeStatus = "SUCCEEDED" })
  rec.UpgradeStatus = "IN_PROGRESS"
  world.put(KIND, key(env, rec.DomainName), rec)
  return status(rec)
end

function M.delete(p, env)
  local rec = load(env, tostring(p.DomainName))
  if not rec or rec.State == "deleting" then not_found(p.DomainName) end
  transitions.start(rec, "State", "deleting", "gone", env.now_ms, transitions.seconds("opensearch", "delete", 600))
  world.put(KIND, key(env, rec.DomainName), rec)
  return status(rec)
end

-- The opensearch API's actions.
function A.CreateDomain(p, env) return { DomainStatus = M.create(p, env, identity) } end
function A.DescribeDomain(p, env) return { DomainStatus = M.describe(p, env) } end
function A.UpdateDomainConfig(p, env) return { DomainConfig = M.update_config(p, env) } end
function A.DeleteDomain(p, env) return { DomainStatus = M.delete(p, env) } end

function A.UpgradeDomain(p, env)
  local s = M.upgrade(p, env, identity)
  return { DomainName = s.DomainName, TargetVersion = p.TargetVersion, PerformCheckOnly = p.PerformCheckOnly == true }
end

function A.GetUpgradeStatus(p, env)
  local s = M.describe(p, env)
  return { UpgradeStep = s.UpgradeStep, StepStatus = s.UpgradeStatus }
end

function A.GetCompatibleVersions(p, env)
  local s = M.describe(p, env)
  return { CompatibleVersions = { { SourceVersion = s.EngineVersion, TargetVersions = compatible(s.EngineVersion) } } }
end

-- sim.es reaches the shared implementation through this (not an action:
-- actions start with an upper-case letter).
A.impl = M

return A
