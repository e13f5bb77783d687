-- sim.codedeploy: simulated CodeDeploy for the Lambda compute platform:
-- applications, deployment groups, and deployments that shift a Lambda
-- alias from one version to another in simulated time, with the
-- BeforeAllowTraffic / AfterAllowTraffic validation hooks — what
-- CloudFormation runs for an AWS::Lambda::Alias with the
-- CodeDeployLambdaAliasUpdate update policy (seed 004).
--
-- Records: "codedeploy.application" "<region>:<name>",
-- "codedeploy.deployment_group" "<region>:<application>:<group>",
-- "codedeploy.deployment" "<region>:<d-XXXXXXXXX>", and its place under its
-- group, "codedeploy.deployment_of_group" "<region>:<application>:<group>:<d-…>"
-- (no data: an application's deployments are a range of ids).
--
-- A deployment (CreateDeployment with an AppSpecContent revision naming the
-- function, alias, CurrentVersion and TargetVersion; this sim takes the
-- AppSpec as an object as well as JSON text it cannot parse — pass the
-- object) runs: BeforeAllowTraffic (the hook, if any) -> AllowTraffic
-- (the deployment group's DeploymentConfigName: AllAtOnce, Canary10PercentN
-- Minutes — 10 % at once, the rest after N minutes — or Linear10PercentEvery
-- N Minutes(s) — 10 % more every N minutes; the alias's RoutingConfig
-- carries the weight of the target version meanwhile) -> AfterAllowTraffic
-- (the hook) -> Succeeded. Nothing runs in the background: a deployment
-- settles to the world clock when it (or the alias it shifts) is read.
--
-- Hooks. A hook is a Lambda function that must report its result with
-- PutLifecycleEventHookExecutionStatus (deploymentId, the execution ID it was
-- invoked with, Succeeded | Failed). Lambda code does not run in this sim, so
-- the hook function reports by itself hook_seconds (10) after it was
-- invoked: "Succeeded", or what the world config says for it —
--   world config "codedeploy": { hook_results = { ["<function name>"] = "Failed" } }
-- (`moonstack world load` a script doing world.put("config", "codedeploy", {...})).
-- A PutLifecycleEventHookExecutionStatus call before then decides instead;
-- the execution IDs are in GetDeployment's deploymentInfo.hookExecutions
-- (a field of this sim, not AWS's). A failed hook fails the deployment and
-- moves the alias back to the current version, as CodeDeploy rolls back.
--
-- Messages: "No application found for name: X"
-- (ApplicationDoesNotExistException), "No Deployment Group found for name: X"
-- (DeploymentGroupDoesNotExistException), "The deployment failed because a
-- specified lifecycle event hook failed: <hook>" (errorInformation of a
-- failed hook, code HOOK_EXECUTION_FAILURE — a CodeDeploy ErrorCode value):
-- CodeDeploy's shapes, not seen verbatim.

local world = require("sim.world")
local transitions = require("sim.transitions")

local A = {}

local APP, GROUP, DEP = "codedeploy.application", "codedeploy.deployment_group", "codedeploy.deployment"
-- A deployment's place under its group (region:app:group:deploymentId, no
-- data): what lists an application's or a group's deployments and deletes
-- them with it, a range of the world's ids rather than a walk of every one.
local DEP_OF_GROUP = "codedeploy.deployment_of_group"
local HOOKS = { "BeforeAllowTraffic", "AfterAllowTraffic" }

-- Lambda deployment configurations: first percentage, step, minutes between.
local CONFIGS = { ["CodeDeployDefault.LambdaAllAtOnce"] = { first = 100 } }
for _, m in ipairs({ 5, 10, 15, 30 }) do
  CONFIGS["CodeDeployDefault.LambdaCanary10Percent" .. m .. "Minutes"] = { first = 10, step = 90, minutes = m }
end
for _, m in ipairs({ 1, 2, 3, 10 }) do
  CONFIGS["CodeDeployDefault.LambdaLinear10PercentEvery" .. m .. (m == 1 and "Minute" or "Minutes")] =
    { first = 10, step = 10, minutes = m }
end
local DEFAULT_CONFIG = "CodeDeployDefault.LambdaAllAtOnce"

local function fail(message, code) require("sim").fail(message, code) end
local function sim() return require("sim") end

local function akey(env, app) return env.region .. ":" .. app end
local function gkey(env, app, group) return env.region .. ":" .. app .. ":" .. group end
local function dkey(env, id) return env.region .. ":" .. id end
local function ikey(env, d) return gkey(env, d.applicationName, d.deploymentGroupName) .. ":" .. d.deploymentId end

-- A state saved before deployments were kept under their group gets the
-- index once: "<region>:<d-id>" and the deployment's application and group.
A.BACKFILL = { { base = DEP, index = DEP_OF_GROUP, id = function(id, d)
  local region, did = id:match("^([^:]*):(d%-.*)$")
  if not region or type(d.applicationName) ~= "string" or type(d.deploymentGroupName) ~= "string" then return nil end
  return region .. ":" .. d.applicationName .. ":" .. d.deploymentGroupName .. ":" .. did
end } }

-- An application's deployments (one group's, given `group`). A name may
-- hold ':', so the range under "app:" can hold app "app:x"'s too: each is
-- checked against its record.
local function deployments_under(env, app, group)
  local out = {}
  local under = group ~= nil and gkey(env, app, group) or akey(env, app)
  for _, k in ipairs(world.ids(DEP_OF_GROUP, false, under .. ":")) do
    local d = world.get(DEP, dkey(env, k:match("[^:]*$")))
    if d and d.applicationName == app and (group == nil or d.deploymentGroupName == group) then out[#out + 1] = d end
  end
  return out
end

local function required(v, field)
  if type(v) ~= "string" or v == "" then
    fail(field .. " is required", field:sub(1, 1):upper() .. field:sub(2) .. "RequiredException")
  end
  return v
end

local function load_app(env, name)
  required(name, "applicationName")
  local rec = world.get(APP, akey(env, name))
  if not rec then fail("No application found for name: " .. name, "ApplicationDoesNotExistException") end
  return rec
end

local function load_group(env, app, name)
  load_app(env, app)
  required(name, "deploymentGroupName")
  local rec = world.get(GROUP, gkey(env, app, name))
  if not rec then fail("No Deployment Group found for name: " .. name, "DeploymentGroupDoesNotExistException") end
  return rec
end

function A.CreateApplication(p, env)
  local name = required(p.applicationName, "applicationName")
  if world.get(APP, akey(env, name)) then
    fail("The application " .. name .. " already exists with the IAM user or AWS account.",
      "ApplicationAlreadyExistsException")
  end
  local id = sim().new_id("uuid")
  world.put(APP, akey(env, name), { applicationId = id, applicationName = name,
    computePlatform = p.computePlatform or "Server", createTime = math.floor(env.now_ms / 1000) })
  return { applicationId = id }
end

function A.GetApplication(p, env) return { application = load_app(env, p.applicationName) } end

function A.DeleteApplication(p, env)
  local name = required(p.applicationName, "applicationName")
  world.remove(APP, akey(env, name))
  for _, k in ipairs(world.ids(GROUP, false, akey(env, name) .. ":")) do world.remove(GROUP, k) end
  -- Its deployments' history goes with it.
  for _, d in ipairs(deployments_under(env, name)) do
    world.remove(DEP, dkey(env, d.deploymentId))
    world.remove(DEP_OF_GROUP, ikey(env, d))
  end
  return {}
end

local function check_config(name)
  if name ~= nil and not CONFIGS[name] then
    fail("No deployment configuration found for name: " .. tostring(name), "DeploymentConfigDoesNotExistException")
  end
end

function A.CreateDeploymentGroup(p, env)
  local app = load_app(env, p.applicationName)
  local name = required(p.deploymentGroupName, "deploymentGroupName")
  required(p.serviceRoleArn, "serviceRoleArn")
  check_config(p.deploymentConfigName)
  if world.get(GROUP, gkey(env, app.applicationName, name)) then
    fail("The deployment group " .. name .. " already exists with the IAM user or AWS account.",
      "DeploymentGroupAlreadyExistsException")
  end
  local id = sim().new_id("uuid")
  world.put(GROUP, gkey(env, app.applicationName, name), {
    applicationName = app.applicationName, deploymentGroupName = name, deploymentGroupId = id,
    serviceRoleArn = p.serviceRoleArn, deploymentConfigName = p.deploymentConfigName or DEFAULT_CONFIG,
    deploymentStyle = p.deploymentStyle, computePlatform = app.computePlatform,
  })
  return { deploymentGroupId = id }
end

function A.GetDeploymentGroup(p, env)
  return { deploymentGroupInfo = load_group(env, p.applicationName, p.deploymentGroupName) }
end

function A.UpdateDeploymentGroup(p, env)
  local g = load_group(env, p.applicationName, p.currentDeploymentGroupName)
  check_config(p.deploymentConfigName)
  for _, f in ipairs({ "serviceRoleArn", "deploymentConfigName", "deploymentStyle" }) do
    if p[f] ~= nil then g[f] = p[f] end
  end
  world.remove(GROUP, gkey(env, g.applicationName, g.deploymentGroupName))
  g.deploymentGroupName = p.newDeploymentGroupName or g.deploymentGroupName
  world.put(GROUP, gkey(env, g.applicationName, g.deploymentGroupName), g)
  return { hooksNotCleanedUp = {} }
end

function A.DeleteDeploymentGroup(p, env)
  load_app(env, p.applicationName)
  world.remove(GROUP, gkey(env, p.applicationName, required(p.deploymentGroupName, "deploymentGroupName")))
  return { hooksNotCleanedUp = {} }
end

-- The Lambda resource and hooks of an AppSpec (object form).
local function read_appspec(content)
  if type(content) ~= "table" then
    fail("The AppSpec content must be given as an object to this simulation.", "InvalidRevisionException")
  end
  local target
  for _, entry in ipairs(content.Resources or {}) do
    for _, r in pairs(entry) do if type(r) == "table" and r.Type == "AWS::Lambda::Function" then target = r.Properties end end
  end
  if type(target) ~= "table" or not target.Name or not target.Alias or not target.TargetVersion then
    fail("The AppSpec file is missing or has an invalid configuration.", "InvalidRevisionException")
  end
  local hooks = {}
  for _, h in ipairs(content.Hooks or {}) do
    for event, fn in pairs(h) do hooks[event] = fn end
  end
  return target, hooks
end

local function lambda(env, action, params)
  return sim().call("lambda", action, params, { region = env.region, account = env.account })
end

local function set_weight(env, d, weight)
  local t = d.target
  if weight >= 100 then
    lambda(env, "UpdateAlias", { FunctionName = t.Name, Name = t.Alias, FunctionVersion = tostring(t.TargetVersion),
      RoutingConfig = { AdditionalVersionWeights = {} }, DeploymentId = "" })
  else
    lambda(env, "UpdateAlias", { FunctionName = t.Name, Name = t.Alias, FunctionVersion = tostring(t.CurrentVersion),
      RoutingConfig = { AdditionalVersionWeights = { [tostring(t.TargetVersion)] = weight / 100 } } })
  end
end

local function finish(env, d, status, at, error_info)
  d.status, d.completeTime, d.errorInformation, d.phase = status, math.floor(at / 1000), error_info, "done"
  if status == "Failed" then
    local t = d.target
    lambda(env, "UpdateAlias", { FunctionName = t.Name, Name = t.Alias, FunctionVersion = tostring(t.CurrentVersion),
      RoutingConfig = { AdditionalVersionWeights = {} }, DeploymentId = "" })
    d.rollbackInfo = { rollbackMessage = "Deployment " .. d.deploymentId .. " failed; the alias was moved back to "
      .. "version " .. tostring(t.CurrentVersion) .. "." }
  end
end

local function start_phase(env, d, phase, at)
  d.phase, d.phaseStartedAt = phase, at
  local fn = d.hooks[phase]
  if fn then
    d.hookExecutions[phase] = { lifecycleEventHookExecutionId = sim().new_id("hex", 64), functionName = fn,
                                status = "Pending", invokedAt = at }
  end
end

local function hook_config_result(fn)
  local cfg = world.get("config", "codedeploy")
  local results = type(cfg) == "table" and cfg.hook_results or nil
  local r = type(results) == "table" and results[fn] or nil
  return r == "Failed" and "Failed" or "Succeeded"
end

local NEXT = { BeforeAllowTraffic = "AllowTraffic", AllowTraffic = "AfterAllowTraffic", AfterAllowTraffic = "end" }

-- Moves deployment `d` along to `now`; true when it changed.
local function advance(env, d, now)
  local changed = false
  while d.phase ~= "done" do
    local phase = d.phase
    if phase == "BeforeAllowTraffic" or phase == "AfterAllowTraffic" then
      local h = d.hookExecutions[phase]
      if h then
        if h.status == "Pending" then
          local due = h.invokedAt + transitions.seconds("codedeploy", "hook", 10) * 1000
          if now < due then break end
          h.status, h.reportedAt = hook_config_result(h.functionName), due
        end
        if h.status == "Failed" then
          finish(env, d, "Failed", h.reportedAt, { code = "HOOK_EXECUTION_FAILURE",
            message = "The deployment failed because a specified lifecycle event hook failed: " .. phase })
          changed = true
          break
        end
      end
      local at = h and h.reportedAt or d.phaseStartedAt
      if NEXT[phase] == "end" then finish(env, d, "Succeeded", at) else start_phase(env, d, NEXT[phase], at) end
      changed = true
    else -- AllowTraffic: step k of the configuration is due at start + k * interval
      local cfg = CONFIGS[d.deploymentConfigName]
      local k = d.trafficStep or 0
      local due = d.phaseStartedAt + k * (cfg.minutes or 0) * 60000
      if now < due then break end
      local weight = math.min(100, cfg.first + k * (cfg.step or 0))
      set_weight(env, d, weight)
      d.trafficStep, d.trafficWeight = k + 1, weight
      if weight >= 100 then start_phase(env, d, "AfterAllowTraffic", due) end
      changed = true
    end
  end
  return changed
end

local function load_deployment(env, id)
  local d = world.get(DEP, dkey(env, tostring(id)))
  if not d then fail("The deployment " .. tostring(id) .. " could not be found.", "DeploymentDoesNotExistException") end
  return d
end

---Settles deployment `id` to the world clock (sim.lambda calls it when an
---alias being shifted is read).
function A.settle_deployment(env, id)
  local d = world.get(DEP, dkey(env, id))
  if d and advance(env, d, env.now_ms) then world.put(DEP, dkey(env, id), d, { live = false }) end
  return d
end

function A.CreateDeployment(p, env)
  local g = load_group(env, p.applicationName, p.deploymentGroupName)
  local rev = p.revision or {}
  local content = rev.appSpecContent and rev.appSpecContent.content
  local target, hooks = read_appspec(content)
  local id = "d-" .. sim().new_id("upper_alnum", 9)
  local d = {
    deploymentId = id, applicationName = g.applicationName, deploymentGroupName = g.deploymentGroupName,
    deploymentConfigName = p.deploymentConfigName or g.deploymentConfigName, status = "InProgress",
    createTime = math.floor(env.now_ms / 1000), computePlatform = "Lambda", creator = "user",
    target = target, hooks = hooks, hookExecutions = {},
  }
  check_config(d.deploymentConfigName)
  lambda(env, "UpdateAlias", { FunctionName = target.Name, Name = target.Alias, DeploymentId = id })
  start_phase(env, d, "BeforeAllowTraffic", env.now_ms)
  advance(env, d, env.now_ms)
  world.put(DEP, dkey(env, id), d, { live = false }) -- history, not a resource
  world.put(DEP_OF_GROUP, ikey(env, d), {}, { live = false })
  return { deploymentId = id }
end

function A.GetDeployment(p, env)
  local d = load_deployment(env, p.deploymentId)
  if advance(env, d, env.now_ms) then world.put(DEP, dkey(env, d.deploymentId), d, { live = false }) end
  local info = {}
  for k, v in pairs(d) do
    if k ~= "target" and k ~= "hooks" and k ~= "phaseStartedAt" and k ~= "trafficStep" then info[k] = v end
  end
  info.deploymentOverview = nil
  return { deploymentInfo = info }
end

function A.PutLifecycleEventHookExecutionStatus(p, env)
  local d = load_deployment(env, p.deploymentId)
  advance(env, d, env.now_ms)
  local status = p.status
  if status ~= "Succeeded" and status ~= "Failed" then
    fail("Status must be either Succeeded or Failed.", "InvalidLifecycleEventHookExecutionStatusException")
  end
  local found
  for _, h in pairs(d.hookExecutions) do
    if h.lifecycleEventHookExecutionId == p.lifecycleEventHookExecutionId then found = h end
  end
  if not found then
    fail("The lifecycle event hook execution ID " .. tostring(p.lifecycleEventHookExecutionId) .. " is not valid.",
      "InvalidLifecycleEventHookExecutionIdException")
  end
  if found.status ~= "Pending" then
    fail("The lifecycle event hook execution " .. found.lifecycleEventHookExecutionId .. " has already completed.",
      "LifecycleEventAlreadyCompletedException")
  end
  found.status, found.reportedAt = status, env.now_ms
  advance(env, d, env.now_ms)
  world.put(DEP, dkey(env, d.deploymentId), d, { live = false })
  return { lifecycleEventHookExecutionId = found.lifecycleEventHookExecutionId }
end

---ListDeployments: the region's deployments, or an application's, or one of
---its groups' (a range of the index under it), in deployment-ID order.
function A.ListDeployments(p, env)
  local out = {}
  if p.applicationName ~= nil then
    for _, d in ipairs(deployments_under(env, p.applicationName, p.deploymentGroupName)) do
      out[#out + 1] = d.deploymentId
    end
    table.sort(out)
  else
    for _, k in ipairs(world.ids(DEP, false, env.region .. ":")) do
      local d = world.get(DEP, k)
      if p.deploymentGroupName == nil or d.deploymentGroupName == p.deploymentGroupName then
        out[#out + 1] = d.deploymentId
      end
    end
  end
  return { deployments = out }
end

A.CONFIGS = CONFIGS
return A
