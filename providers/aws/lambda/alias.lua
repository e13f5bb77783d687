-- AWS::Lambda::Alias on the simulated Lambda, with the
-- CodeDeployLambdaAliasUpdate update policy (seed 004).
--
-- Update behaviours: FunctionName and Name are Replacement (create-only);
-- FunctionVersion, Description, RoutingConfig and
-- ProvisionedConcurrencyConfig No interruption. Ref is the alias ARN;
-- Fn::GetAtt AliasArn.
--
-- Without the policy a FunctionVersion change moves the alias
-- (UpdateAlias). With `CodeDeployLambdaAliasUpdate: { ApplicationName,
-- DeploymentGroupName, BeforeAllowTrafficHook?, AfterAllowTrafficHook? }`
-- it is a CodeDeploy deployment instead (sim/codedeploy.lua): the
-- application and deployment group must exist and the hook functions too
-- (their services' errors fail the update otherwise); CreateDeployment
-- with an AppSpec naming the function, the alias, its current and target
-- versions and the hooks; then in progress while the deployment runs its
-- hooks and shifts traffic per the group's DeploymentConfigName in
-- simulated time. A failed deployment (a hook reporting Failed) fails the
-- update with "CodeDeploy deployment <id> failed: <CodeDeploy's error
-- message>" (this wording is moonstack's: no public log showed AWS's) and
-- CodeDeploy has moved the alias back. An alias that already points at the
-- target version (the rollback after such a failure) is not deployed again.
local P = require("moonstack.provider")

local POLL_SECONDS = 10

local function gone(err) return type(err) == "table" and err.code == "ResourceNotFoundException" end

-- "arn:…:function:f:live" -> "f"
local function function_of(arn) return arn:match(":function:([^:]+):[^:]+$") end

local function deploy_policy(ctx)
  local p = type(ctx.update_policy) == "table" and ctx.update_policy.CodeDeployLambdaAliasUpdate or nil
  return type(p) == "table" and p or nil
end

local function routing(cfg)
  if type(cfg) ~= "table" then return { AdditionalVersionWeights = {} } end
  local weights = {}
  for _, w in ipairs(cfg.AdditionalVersionWeights or {}) do
    weights[tostring(w.FunctionVersion)] = tonumber(w.FunctionWeight)
  end
  return { AdditionalVersionWeights = weights }
end

local function appspec(ctx, fn, alias, current, target, policy)
  local hooks = {}
  if policy.BeforeAllowTrafficHook then hooks[#hooks + 1] = { BeforeAllowTraffic = policy.BeforeAllowTrafficHook } end
  if policy.AfterAllowTrafficHook then hooks[#hooks + 1] = { AfterAllowTraffic = policy.AfterAllowTrafficHook } end
  return { version = 0.0, Resources = { { [ctx.logical_id or "Alias"] = { Type = "AWS::Lambda::Function",
    Properties = { Name = fn, Alias = alias, CurrentVersion = current, TargetVersion = target } } } }, Hooks = hooks }
end

-- Starts the deployment; the checks raise the services' own errors.
local function start_deployment(ctx, fn, new, current, policy)
  for _, field in ipairs({ "ApplicationName", "DeploymentGroupName" }) do
    if type(policy[field]) ~= "string" or policy[field] == "" then
      P.fail("Property " .. field .. " of CodeDeployLambdaAliasUpdate is required", "InvalidRequest")
    end
  end
  local cd, lambda = ctx.world.codedeploy, ctx.world.lambda
  cd.GetDeploymentGroup { applicationName = policy.ApplicationName, deploymentGroupName = policy.DeploymentGroupName }
  for _, hook in ipairs({ "BeforeAllowTrafficHook", "AfterAllowTrafficHook" }) do
    if policy[hook] then lambda.GetFunction { FunctionName = policy[hook] } end
  end
  local r = cd.CreateDeployment {
    applicationName = policy.ApplicationName, deploymentGroupName = policy.DeploymentGroupName,
    revision = { revisionType = "AppSpecContent",
                 appSpecContent = { content = appspec(ctx, fn, new.Name, current, new.FunctionVersion, policy) } },
  }
  return r.deploymentId
end

local function watch(ctx, id)
  local d = ctx.world.codedeploy.GetDeployment { deploymentId = id }.deploymentInfo
  if d.status == "Succeeded" then return nil end
  if d.status == "Failed" or d.status == "Stopped" then
    P.fail("CodeDeploy deployment " .. id .. " failed: " .. tostring(d.errorInformation and d.errorInformation.message),
      "NotStabilized")
  end
  return P.in_progress { after = POLL_SECONDS, context = { deployment = id } }
end

return P.define {
  type = "AWS::Lambda::Alias",
  timeout_minutes = 2160,
  properties = {
    P.string "Description" { update = "none" },
    P.string "FunctionName" { required = true, update = "replace" },
    P.string "FunctionVersion" { required = true, update = "none" },
    P.string "Name" { required = true, update = "replace" },
    P.json "ProvisionedConcurrencyConfig" { update = "none" },
    P.json "RoutingConfig" { update = "none" },
  },
  attributes = { "AliasArn" },
  primary_identifier = "AliasArn",

  create = function(ctx, props)
    local a = ctx.world.lambda.CreateAlias { FunctionName = props.FunctionName, Name = props.Name,
      FunctionVersion = props.FunctionVersion, Description = props.Description,
      RoutingConfig = props.RoutingConfig and routing(props.RoutingConfig) or nil }
    return { id = a.AliasArn, attributes = { AliasArn = a.AliasArn } }
  end,

  update = function(ctx, id, new, old, changed)
    if ctx.progress then return watch(ctx, ctx.progress.deployment) end
    local fn, lambda = function_of(id), ctx.world.lambda
    local moves_version = false
    for _, name in ipairs(changed) do if name == "FunctionVersion" then moves_version = true end end
    local policy = deploy_policy(ctx)
    local current = lambda.GetAlias { FunctionName = fn, Name = new.Name }.FunctionVersion
    local deploy = moves_version and policy ~= nil and current ~= tostring(new.FunctionVersion)
    lambda.UpdateAlias { FunctionName = fn, Name = new.Name, Description = new.Description or "",
      FunctionVersion = not deploy and new.FunctionVersion or nil, RoutingConfig = routing(new.RoutingConfig) }
    if deploy then
      return P.in_progress { after = POLL_SECONDS, context = { deployment = start_deployment(ctx, fn, new, current, policy) } }
    end
  end,

  delete = function(ctx, id)
    local ok, err = pcall(ctx.world.lambda.DeleteAlias, { FunctionName = function_of(id), Name = id:match(":([^:]+)$") })
    if not ok and not gone(err) then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local ok, a = pcall(ctx.world.lambda.GetAlias, { FunctionName = function_of(id), Name = id:match(":([^:]+)$") })
    if not ok then
      if gone(a) then return nil end
      error(a, 0)
    end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.FunctionVersion = a.FunctionVersion
    return { properties = properties, attributes = { AliasArn = a.AliasArn } }
  end,
}
