-- The simulated Lambda and CodeDeploy on their own: names and ARNs,
-- versions, aliases, deployment configurations, hooks, errors.
local H = require("harness")
local T = H.suite("sim lambda + codedeploy")
-- Each case's world holds role r, which Lambda may assume (it refuses a
-- role that is missing or does not trust it).
local fresh = require("lambda_role").fresh("r")

local ROLE = "arn:aws:iam::123456789012:role/r"
local function aws() return require("sim").client() end

T.case("functions by name, name:qualifier or ARN; versions never reuse a number", function()
  fresh()
  local l = aws().lambda
  l.CreateFunction({ FunctionName = "f", Role = ROLE, Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "a" } })
  H.eq(l.PublishVersion({ FunctionName = "f" }).Version, "1")
  l.UpdateFunctionConfiguration({ FunctionName = "arn:aws:lambda:us-east-1:123456789012:function:f", MemorySize = 256 })
  H.eq(l.PublishVersion({ FunctionName = "f" }).Version, "2")
  H.eq(l.GetFunctionConfiguration({ FunctionName = "f:1" }).MemorySize, 128)
  H.eq(l.GetFunctionConfiguration({ FunctionName = "f", Qualifier = "2" }).MemorySize, 256)
  l.DeleteFunction({ FunctionName = "f", Qualifier = "2" })
  l.UpdateFunctionConfiguration({ FunctionName = "f", MemorySize = "" })  -- "" resets to the default
  H.eq(l.GetFunctionConfiguration({ FunctionName = "f" }).MemorySize, 128)
  l.UpdateFunctionCode({ FunctionName = "f", ZipFile = "b" })
  H.eq(l.PublishVersion({ FunctionName = "f" }).Version, "3")
  H.raises(function() l.GetFunctionConfiguration({ FunctionName = "f", Qualifier = "2" }) end,
    "Function not found: arn:aws:lambda:us-east-1:123456789012:function:f:2")
  H.raises(function() l.GetFunction({ FunctionName = "nope" }) end,
    "Function not found: arn:aws:lambda:us-east-1:123456789012:function:nope")
  H.raises(function() l.PublishVersion({ FunctionName = "f", CodeSha256 = "x" }) end,
    "CodeSHA256 (x) is different from current CodeSHA256 in $LATEST ("
    .. l.GetFunctionConfiguration({ FunctionName = "f" }).CodeSha256 .. "). Please try again with the current CodeSHA256.")
end)

T.case("aliases: duplicates, unknown versions, weighted routing; deleting the function deletes them", function()
  local world = fresh()
  local l = aws().lambda
  l.CreateFunction({ FunctionName = "f", Role = ROLE, Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "a" } })
  l.PublishVersion({ FunctionName = "f" })
  local a = l.CreateAlias({ FunctionName = "f", Name = "live", FunctionVersion = "1" })
  H.eq(a.AliasArn, "arn:aws:lambda:us-east-1:123456789012:function:f:live")
  H.raises(function() l.CreateAlias({ FunctionName = "f", Name = "live", FunctionVersion = "1" }) end,
    "Alias already exists: arn:aws:lambda:us-east-1:123456789012:function:f:live")
  H.raises(function() l.CreateAlias({ FunctionName = "f", Name = "x", FunctionVersion = "7" }) end,
    "Function not found: arn:aws:lambda:us-east-1:123456789012:function:f:7")
  H.raises(function() l.GetAlias({ FunctionName = "f", Name = "nope" }) end,
    "Alias not found: arn:aws:lambda:us-east-1:123456789012:function:f:nope")
  l.DeleteFunction({ FunctionName = "f" })
  H.same(world.ids("lambda.alias"), {})
  H.same(world.ids("lambda.version"), {})
end)

T.case("codedeploy: applications, groups, configurations and their errors", function()
  fresh()
  local cd = aws().codedeploy
  H.raises(function() cd.GetApplication({ applicationName = "app" }) end, "No application found for name: app")
  cd.CreateApplication({ applicationName = "app", computePlatform = "Lambda" })
  H.raises(function() cd.CreateApplication({ applicationName = "app" }) end,
    "The application app already exists with the IAM user or AWS account.")
  H.raises(function() cd.GetDeploymentGroup({ applicationName = "app", deploymentGroupName = "g" }) end,
    "No Deployment Group found for name: g")
  H.raises(function()
    cd.CreateDeploymentGroup({ applicationName = "app", deploymentGroupName = "g", serviceRoleArn = ROLE,
      deploymentConfigName = "CodeDeployDefault.LambdaLinear10PercentEvery7Minutes" })
  end, "No deployment configuration found for name: CodeDeployDefault.LambdaLinear10PercentEvery7Minutes")
  cd.CreateDeploymentGroup({ applicationName = "app", deploymentGroupName = "g", serviceRoleArn = ROLE })
  H.eq(cd.GetDeploymentGroup({ applicationName = "app", deploymentGroupName = "g" }).deploymentGroupInfo.deploymentConfigName,
    "CodeDeployDefault.LambdaAllAtOnce")
  H.raises(function()
    cd.CreateDeployment({ applicationName = "app", deploymentGroupName = "g",
      revision = { revisionType = "AppSpecContent", appSpecContent = { content = "{}" } } })
  end, "The AppSpec content must be given as an object to this simulation.")
  H.raises(function() cd.GetDeployment({ deploymentId = "d-NOPE" }) end, "The deployment d-NOPE could not be found.")
end)

T.case("a hook's result: reported by the function, else by itself after hook_seconds", function()
  local world = fresh()
  local l, cd = aws().lambda, aws().codedeploy
  l.CreateFunction({ FunctionName = "f", Role = ROLE, Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "a" } })
  l.PublishVersion({ FunctionName = "f" })
  l.UpdateFunctionCode({ FunctionName = "f", ZipFile = "b" })
  l.PublishVersion({ FunctionName = "f" })
  l.CreateAlias({ FunctionName = "f", Name = "live", FunctionVersion = "1" })
  cd.CreateApplication({ applicationName = "app", computePlatform = "Lambda" })
  cd.CreateDeploymentGroup({ applicationName = "app", deploymentGroupName = "g", serviceRoleArn = ROLE })
  local spec = { Resources = { { f = { Type = "AWS::Lambda::Function",
    Properties = { Name = "f", Alias = "live", CurrentVersion = "1", TargetVersion = "2" } } } },
    Hooks = { { BeforeAllowTraffic = "check" } } }
  local id = cd.CreateDeployment({ applicationName = "app", deploymentGroupName = "g",
    revision = { revisionType = "AppSpecContent", appSpecContent = { content = spec } } }).deploymentId
  H.match(id, "^d%-[A-Z0-9]+$")
  local d = cd.GetDeployment({ deploymentId = id }).deploymentInfo
  H.eq(d.status, "InProgress")
  H.eq(d.hookExecutions.BeforeAllowTraffic.status, "Pending")
  H.raises(function()
    cd.PutLifecycleEventHookExecutionStatus({ deploymentId = id, lifecycleEventHookExecutionId = "x", status = "Succeeded" })
  end, "The lifecycle event hook execution ID x is not valid.")
  H.raises(function()
    cd.PutLifecycleEventHookExecutionStatus({ deploymentId = id, status = "Maybe",
      lifecycleEventHookExecutionId = d.hookExecutions.BeforeAllowTraffic.lifecycleEventHookExecutionId })
  end, "Status must be either Succeeded or Failed.")
  world.set_now_ms(9 * 1000)
  H.eq(cd.GetDeployment({ deploymentId = id }).deploymentInfo.status, "InProgress")
  world.set_now_ms(10 * 1000)
  d = cd.GetDeployment({ deploymentId = id }).deploymentInfo
  H.eq(d.status, "Succeeded")
  H.eq(d.completeTime, 10)
  H.eq(l.GetAlias({ FunctionName = "f", Name = "live" }).FunctionVersion, "2")
end)

T.case("codedeploy: deployments are listed by application and group and deleted with their application only", function()
  local world = fresh()
  local l, cd = aws().lambda, aws().codedeploy
  l.CreateFunction({ FunctionName = "f", Role = ROLE, Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "a" } })
  l.PublishVersion({ FunctionName = "f" })
  l.CreateAlias({ FunctionName = "f", Name = "live", FunctionVersion = "1" })
  local spec = { Resources = { { f = { Type = "AWS::Lambda::Function",
    Properties = { Name = "f", Alias = "live", CurrentVersion = "1", TargetVersion = "1" } } } } }
  local function deploy(app, group)
    return cd.CreateDeployment({ applicationName = app, deploymentGroupName = group,
      revision = { revisionType = "AppSpecContent", appSpecContent = { content = spec } } }).deploymentId
  end
  -- "app:2" begins with "app:": its deployments are not app's.
  for _, app in ipairs({ "app", "app:2" }) do
    cd.CreateApplication({ applicationName = app, computePlatform = "Lambda" })
    cd.CreateDeploymentGroup({ applicationName = app, deploymentGroupName = "g", serviceRoleArn = ROLE })
  end
  cd.CreateDeploymentGroup({ applicationName = "app", deploymentGroupName = "h", serviceRoleArn = ROLE })
  local a1, a2, b, other = deploy("app", "g"), deploy("app", "h"), deploy("app:2", "g"), deploy("app", "g")
  local function sorted(t) table.sort(t); return t end
  H.same(cd.ListDeployments({ applicationName = "app" }).deployments, sorted({ a1, a2, other }))
  H.same(cd.ListDeployments({ applicationName = "app", deploymentGroupName = "g" }).deployments, sorted({ a1, other }))
  H.same(cd.ListDeployments({ applicationName = "app:2" }).deployments, { b })
  H.same(cd.ListDeployments({}).deployments, sorted({ a1, a2, b, other }))
  cd.DeleteApplication({ applicationName = "app" })
  H.same(cd.ListDeployments({}).deployments, { b })
  H.raises(function() cd.GetDeployment({ deploymentId = a1 }) end, "The deployment " .. a1 .. " could not be found.")
  H.eq(cd.GetDeployment({ deploymentId = b }).deploymentInfo.applicationName, "app:2")
  H.same(world.ids("codedeploy.deployment_of_group"), { "us-east-1:app:2:g:" .. b })
end)

return T
