-- AWS::Lambda::Function / Version / Alias and AWS::CodeDeploy::Application /
-- DeploymentGroup driven as the engine drives them; an alias's version
-- change with and without CodeDeployLambdaAliasUpdate (seed 004).
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws lambda alias + codedeploy")
-- Each case's world holds role lambda, which Lambda may assume (it refuses a
-- role that is missing or does not trust it).
local fresh = require("lambda_role").fresh("lambda")

local FN = D.load("lambda/function")
local VERSION = D.load("lambda/version")
local ALIAS = D.load("lambda/alias")
local APP = D.load("codedeploy/application")
local GROUP = D.load("codedeploy/deployment_group")

local ROLE = "arn:aws:iam::123456789012:role/lambda"

local function make(world, sim, decl, logical, props)
  local ctx = D.context(sim, logical)
  local valid = decl:validate(props, ctx)
  return D.run(world, decl, "create", ctx, valid), valid
end

-- A function with versions 1 and 2, an alias "live" on 1, an application
-- and a group with `config`, and hook functions PreHook and PostHook.
local function setup(world, sim, config)
  local f = make(world, sim, FN, "Fn", { FunctionName = "app", Role = ROLE, Runtime = "python3.12", Handler = "a.h",
    Code = { ZipFile = "v1" } })
  local v1 = make(world, sim, VERSION, "V1", { FunctionName = f.id })
  sim.client().lambda.UpdateFunctionCode({ FunctionName = "app", ZipFile = "v2" })
  local v2 = make(world, sim, VERSION, "V2", { FunctionName = f.id })
  local alias, props = make(world, sim, ALIAS, "Alias", { FunctionName = f.id, Name = "live",
    FunctionVersion = v1.attributes.Version })
  make(world, sim, APP, "App", { ApplicationName = "deployer", ComputePlatform = "Lambda" })
  make(world, sim, GROUP, "Group", { ApplicationName = "deployer", DeploymentGroupName = "group", ServiceRoleArn = ROLE,
    DeploymentConfigName = config or "CodeDeployDefault.LambdaAllAtOnce" })
  for _, hook in ipairs({ "PreHook", "PostHook" }) do
    make(world, sim, FN, hook, { FunctionName = hook, Role = ROLE, Runtime = "python3.13", Handler = "index.handler",
      Code = { ZipFile = hook } })
  end
  return { alias = alias, props = props, v1 = v1, v2 = v2 }
end

local POLICY = { CodeDeployLambdaAliasUpdate = { ApplicationName = "deployer", DeploymentGroupName = "group",
  BeforeAllowTrafficHook = "PreHook", AfterAllowTrafficHook = "PostHook" } }

local function move(world, sim, s, policy)
  local ctx = D.context(sim, "Alias", policy)
  local new = ALIAS:validate({ FunctionName = "app", Name = "live", FunctionVersion = s.v2.attributes.Version }, ctx)
  local behaviour, changed = ALIAS:change(s.props, new, ctx)
  H.eq(behaviour, "none")
  return function() return D.run(world, ALIAS, "update", ctx, s.alias.id, new, s.props, changed) end, ctx, new
end

local function alias(sim) return sim.client().lambda.GetAlias({ FunctionName = "app", Name = "live" }) end
local function deployment(sim)
  local cd = sim.client().codedeploy
  local id = cd.ListDeployments({ applicationName = "deployer" }).deployments[1]
  return id and cd.GetDeployment({ deploymentId = id }).deploymentInfo
end

T.case("Version publishes 1, 2; Ref is the version ARN; Alias points at a version", function()
  local world, sim = fresh()
  local s = setup(world, sim)
  H.eq(s.v1.id, "arn:aws:lambda:us-east-1:123456789012:function:app:1")
  H.same(FN.read(D.context(sim, "Fn"), "app", { SnapStart = { ApplyOn = "PublishedVersions" } }).attributes, {
    Arn = "arn:aws:lambda:us-east-1:123456789012:function:app", ["SnapStartResponse.ApplyOn"] = "PublishedVersions",
    ["SnapStartResponse.OptimizationStatus"] = "On" })
  H.same(s.v2.attributes, { Version = "2", FunctionArn = "arn:aws:lambda:us-east-1:123456789012:function:app" })
  H.eq(s.alias.id, "arn:aws:lambda:us-east-1:123456789012:function:app:live")
  H.eq(alias(sim).FunctionVersion, "1")
  -- An unchanged function publishes nothing new: Lambda gives version 2
  -- back, and a Version resource fails as CloudFormation's does.
  H.eq(sim.client().lambda.PublishVersion({ FunctionName = "app" }).Version, "2")
  H.eq(D.failure(function() make(world, sim, VERSION, "V3", { FunctionName = "app" }) end),
    "A version for this Lambda function exists ( 2 ). Modify the function to create a new version.")
end)

T.case("without the policy a version change moves the alias at once; no deployment", function()
  local world, sim = fresh()
  local s = setup(world, sim)
  local run = move(world, sim, s, nil)
  local _, trace = run()
  H.eq(trace.calls, 1)
  H.eq(alias(sim).FunctionVersion, "2")
  H.eq(deployment(sim), nil)
end)

T.case("with the policy: a deployment runs both hooks (10 s each, all at once) and moves the alias", function()
  local world, sim = fresh()
  local s = setup(world, sim)
  local run = move(world, sim, s, POLICY)
  local _, trace = run()
  H.eq(trace.seconds, 20)
  H.eq(alias(sim).FunctionVersion, "2")
  H.eq(alias(sim).RoutingConfig, nil)
  local d = deployment(sim)
  H.eq(d.status, "Succeeded")
  H.eq(d.hookExecutions.BeforeAllowTraffic.status, "Succeeded")
  H.eq(d.hookExecutions.AfterAllowTraffic.functionName, "PostHook")
  -- Deleting the application takes its groups and deployment history with it.
  D.run(world, APP, "delete", D.context(sim, "App"), "deployer", {})
  H.same(world.ids("codedeploy.deployment"), {})
  H.same(world.ids("codedeploy.deployment_group"), {})
end)

T.case("Linear10PercentEvery1Minute shifts 10 % a minute: the alias's weights in the world meanwhile", function()
  local world, sim = fresh()
  local s = setup(world, sim, "CodeDeployDefault.LambdaLinear10PercentEvery1Minute")
  local policy = { CodeDeployLambdaAliasUpdate = { ApplicationName = "deployer", DeploymentGroupName = "group" } }
  local ctx = D.context(sim, "Alias", policy)
  local new = ALIAS:validate({ FunctionName = "app", Name = "live", FunctionVersion = "2" }, ctx)
  local start = world.now_ms()
  local r = ALIAS.update(ctx, s.alias.id, new, s.props, { "FunctionVersion" })
  H.truthy(require("moonstack.provider").is_in_progress(r), "in progress")
  H.same(alias(sim).RoutingConfig, { AdditionalVersionWeights = { ["2"] = 0.1 } })
  world.set_now_ms(start + 60 * 1000)
  H.same(alias(sim).RoutingConfig, { AdditionalVersionWeights = { ["2"] = 0.2 } })
  H.eq(alias(sim).FunctionVersion, "1")
  world.set_now_ms(start + 8 * 60 * 1000 + 59 * 1000)
  H.same(alias(sim).RoutingConfig, { AdditionalVersionWeights = { ["2"] = 0.9 } })
  world.set_now_ms(start + 9 * 60 * 1000)
  H.eq(alias(sim).FunctionVersion, "2")
  H.eq(alias(sim).RoutingConfig, nil)
  H.eq(deployment(sim).status, "Succeeded")
end)

T.case("Canary10Percent5Minutes: 10 %, then the rest after 5 simulated minutes", function()
  local world, sim = fresh()
  local s = setup(world, sim, "CodeDeployDefault.LambdaCanary10Percent5Minutes")
  local run = move(world, sim, s, { CodeDeployLambdaAliasUpdate = { ApplicationName = "deployer", DeploymentGroupName = "group" } })
  local _, trace = run()
  H.eq(trace.seconds, 300)
  H.eq(alias(sim).FunctionVersion, "2")
end)

T.case("a hook reporting Failed (world config) fails the update; CodeDeploy moved the alias back", function()
  local world, sim = fresh()
  local s = setup(world, sim)
  world.put("config", "codedeploy", { hook_results = { PostHook = "Failed" } })
  local run = move(world, sim, s, POLICY)
  local d
  local message = D.failure(run)
  d = deployment(sim)
  H.eq(message, "CodeDeploy deployment " .. d.deploymentId
    .. " failed: The deployment failed because a specified lifecycle event hook failed: AfterAllowTraffic")
  H.eq(d.status, "Failed")
  H.eq(d.errorInformation.code, "HOOK_EXECUTION_FAILURE")
  H.eq(alias(sim).FunctionVersion, "1")
  -- The rollback finds the alias on the old version: no second deployment.
  local ctx = D.context(sim, "Alias", POLICY)
  local newer = ALIAS:validate({ FunctionName = "app", Name = "live", FunctionVersion = "2" }, ctx)
  local _, trace = D.run(world, ALIAS, "rollback", ctx, s.alias.id, s.props, newer, { "FunctionVersion" })
  H.eq(trace.calls, 1)
  H.eq(#sim.client().codedeploy.ListDeployments({}).deployments, 1)
end)

T.case("a hook function reporting Failed through PutLifecycleEventHookExecutionStatus", function()
  local world, sim = fresh()
  local s = setup(world, sim)
  local _, ctx, new = move(world, sim, s, POLICY)
  local r = ALIAS.update(ctx, s.alias.id, new, s.props, { "FunctionVersion" })
  local d = deployment(sim)
  local cd = sim.client().codedeploy
  cd.PutLifecycleEventHookExecutionStatus({ deploymentId = d.deploymentId, status = "Failed",
    lifecycleEventHookExecutionId = d.hookExecutions.BeforeAllowTraffic.lifecycleEventHookExecutionId })
  H.raises(function()
    cd.PutLifecycleEventHookExecutionStatus({ deploymentId = d.deploymentId, status = "Succeeded",
      lifecycleEventHookExecutionId = d.hookExecutions.BeforeAllowTraffic.lifecycleEventHookExecutionId })
  end, "The lifecycle event hook execution " .. d.hookExecutions.BeforeAllowTraffic.lifecycleEventHookExecutionId
    .. " has already completed.")
  ctx.progress = r.context
  H.eq(D.failure(function() ALIAS.update(ctx, s.alias.id, new, s.props, { "FunctionVersion" }) end),
    "CodeDeploy deployment " .. d.deploymentId
    .. " failed: The deployment failed because a specified lifecycle event hook failed: BeforeAllowTraffic")
  H.eq(alias(sim).FunctionVersion, "1")
  H.eq(deployment(sim).hookExecutions.AfterAllowTraffic, nil) -- never reached
end)

T.case("the application, the group and the hook functions must exist", function()
  local world, sim = fresh()
  local s = setup(world, sim)
  local function policy(fields)
    local p = { ApplicationName = "deployer", DeploymentGroupName = "group" }
    for k, v in pairs(fields) do p[k] = v end
    return { CodeDeployLambdaAliasUpdate = p }
  end
  local run = move(world, sim, s, policy({ ApplicationName = "nope" }))
  H.eq(D.failure(run), "No application found for name: nope")
  run = move(world, sim, s, policy({ DeploymentGroupName = "nope" }))
  H.eq(D.failure(run), "No Deployment Group found for name: nope")
  run = move(world, sim, s, policy({ BeforeAllowTrafficHook = "Missing" }))
  H.eq(D.failure(run), "Function not found: arn:aws:lambda:us-east-1:123456789012:function:Missing")
  H.eq(alias(sim).FunctionVersion, "1")
  H.same(sim.client().codedeploy.ListDeployments({}).deployments, {})
end)

T.case("lambda errors: duplicate functions, versions in use by an alias", function()
  local world, sim = fresh()
  local s = setup(world, sim)
  local l = sim.client().lambda
  H.raises(function() l.CreateFunction({ FunctionName = "app", Role = ROLE, Runtime = "python3.13", Handler = "index.handler", Code = {} }) end, "Function already exist: app")
  H.raises(function() l.DeleteFunction({ FunctionName = "app", Qualifier = "1" }) end,
    "Unable to delete version because the following aliases reference it: [live]")
  H.raises(function() l.UpdateAlias({ FunctionName = "app", Name = "live", FunctionVersion = "9" }) end,
    "Function not found: arn:aws:lambda:us-east-1:123456789012:function:app:9")
  D.run(world, VERSION, "delete", D.context(sim, "V2"), s.v2.id, {})
  H.eq(#l.ListVersionsByFunction({ FunctionName = "app" }).Versions, 2) -- $LATEST and 1
end)

return T
