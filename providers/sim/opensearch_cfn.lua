-- sim.opensearch_cfn: what AWS::OpenSearchService::Domain and the legacy
-- AWS::Elasticsearch::Domain share (the same domains, two APIs): one
-- provider declaration made for either API, with the EnableVersionUpgrade
-- update policy (seed 004).
--
-- The version property (EngineVersion / ElasticsearchVersion) is
-- Replacement, or No interruption with `EnableVersionUpgrade: true`: the
-- update then calls UpgradeDomain (UpgradeElasticsearchDomain) and stays in
-- progress until the domain has upgraded (upgrade_seconds of simulated
-- time); a downgrade or an unsupported path fails with the service's
-- "Failed to submit upgrade. Upgrade from X to Y not supported.". Because
-- domains cannot be downgraded, the rollback of an upgrade fails the same
-- way, as it does on AWS (cloudformation-coverage-roadmap#1240): the stack
-- ends UPDATE_ROLLBACK_FAILED.
-- DomainName is Replacement (create-only in the registry schema); every
-- other property updates in place (UpdateDomainConfig).
-- Ref is the domain name (generated lower-case, 28 characters at most,
-- without DomainName); Fn::GetAtt: Arn, DomainArn, DomainEndpoint, Id
-- ("<account>/<name>").

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

local M = {}

local POLL_SECONDS = 60

local policy_on = require("lib.policy_values").flag

local function upgrade_or_replace(old, new, ctx)
  return policy_on(ctx, "EnableVersionUpgrade") and "none" or "replace"
end

M.APIS = {
  opensearch = {
    service = "opensearch", create = "CreateDomain", describe = "DescribeDomain", update = "UpdateDomainConfig",
    upgrade = "UpgradeDomain", delete = "DeleteDomain", version = "EngineVersion", cluster = "ClusterConfig",
  },
  es = {
    service = "es", create = "CreateElasticsearchDomain", describe = "DescribeElasticsearchDomain",
    update = "UpdateElasticsearchDomainConfig", upgrade = "UpgradeElasticsearchDomain",
    delete = "DeleteElasticsearchDomain", version = "ElasticsearchVersion", cluster = "ElasticsearchClusterConfig",
  },
}

local function call(ctx, api, action, req) return ctx.world[api.service][api[action]](req) end

local function describe(ctx, api, name)
  local ok, r = pcall(call, ctx, api, "describe", { DomainName = name })
  if ok then return r.DomainStatus end
  if type(r) == "table" and r.code == "ResourceNotFoundException" then return nil end
  error(r, 0)
end

local function attributes(s)
  return { Arn = s.ARN, DomainArn = s.ARN, DomainEndpoint = s.Endpoint, Id = s.DomainId }
end

local function wait(step)
  return P.in_progress { after = POLL_SECONDS, context = { step = step } }
end

-- In progress while the domain is processing or upgrading.
local function until_idle(ctx, api, name, step)
  local s = describe(ctx, api, name)
  if not s or s.Deleted then P.fail("Domain not found: " .. name, "NotFound") end
  if s.Processing or s.UpgradeProcessing then return wait(step) end
  return { attributes = attributes(s) }
end

local function config_request(name, props, changed, api)
  local req, any = { DomainName = name }, false
  for _, prop in ipairs(changed) do
    if prop ~= api.version and prop ~= "Tags" then req[prop] = props[prop]; any = true end
  end
  return any and req or nil
end

---The P.define table of a domain type. `opts`: type, api (M.APIS.x),
---properties (the type's own, besides DomainName / the version / Tags).
function M.define(opts)
  local api = opts.api
  local properties = {
    P.string "DomainName" { update = "replace" },
    P.string(api.version) { update = upgrade_or_replace },
    P.tags "Tags" { update = "none" },
  }
  for _, name in ipairs(opts.properties) do properties[#properties + 1] = P.json(name) { update = "none" } end
  table.sort(properties, function(a, b) return a.name < b.name end)

  return P.define {
    type = opts.type,
    timeout_minutes = 2160,
    properties = properties,
    attributes = { "Arn", "DomainArn", "DomainEndpoint", "Id" },
    primary_identifier = "DomainName",

    create = function(ctx, props)
      if ctx.progress then
        local r = until_idle(ctx, api, ctx.progress.id, "creating")
        if P.is_in_progress(r) then return P.in_progress { after = POLL_SECONDS, context = ctx.progress, id = ctx.progress.id } end
        return { id = ctx.progress.id, attributes = r.attributes }
      end
      local name = props.DomainName or names.physical(ctx.stack_name, ctx.logical_id, 28):lower()
      local req = {}
      for k, v in pairs(props) do req[k] = v end
      req.DomainName, req.Tags = name, nil
      call(ctx, api, "create", req)
      return P.in_progress { after = POLL_SECONDS, context = { id = name }, id = name }
    end,

    update = function(ctx, id, new, old, changed)
      if ctx.progress then return until_idle(ctx, api, id, ctx.progress.step) end
      local req = config_request(id, new, changed, api)
      if req then call(ctx, api, "update", req) end
      for _, prop in ipairs(changed) do
        -- A domain already at the version (the rollback of an upgrade that
        -- was refused) is not "upgraded" to it: CloudFormation once did, and
        -- failed ("Upgrade from 7.4 to 7.4 not supported", #125, since fixed).
        local current = prop == api.version and describe(ctx, api, id)
        if current and current[api.version] ~= new[api.version] then
          call(ctx, api, "upgrade", { DomainName = id, TargetVersion = new[api.version] })
          return wait("upgrading")
        end
      end
      return until_idle(ctx, api, id, "updating")
    end,

    delete = function(ctx, id)
      local s = describe(ctx, api, id)
      if not s then return nil end
      if not s.Deleted then call(ctx, api, "delete", { DomainName = id }) end
      return wait("deleting")
    end,

    read = function(ctx, id, props)
      local s = describe(ctx, api, id)
      if not s or s.Deleted then return nil end
      local properties = {}
      for k, v in pairs(props or {}) do properties[k] = v end
      properties.DomainName = s.DomainName
      if props and props[api.version] ~= nil then properties[api.version] = s[api.version] end
      return { properties = properties, attributes = attributes(s) }
    end,
  }
end

return M
