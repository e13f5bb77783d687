-- sim.lambda_urls: function URLs (CreateFunctionUrlConfig, Get-, Update-,
-- Delete-, ListFunctionUrlConfigs), installed into sim.lambda's actions.
--
-- A function has at most one URL for $LATEST and one per alias. Each is a
-- record "lambda.url" "<region>:<function>:<qualifier or $LATEST>" whose
-- refs name the function's ARN, so ListFunctionUrlConfigs and
-- DeleteFunction find a function's URLs through the referrers index. Its
-- URL is "https://<32 lowercase letters and digits>.lambda-url.<region>.on.aws/"
-- ("https://nmpfj3dvfqhb4aqq3eoqy45ljm0gnyvh.lambda-url.us-east-1.on.aws/").
--
-- Messages (Lambda's):
--   Failed to create function url config for [functionArn = <arn>]. Error message:  FunctionUrlConfig
--   exists for this Lambda function (ResourceConflictException; two spaces
--   after "message:", as reported verbatim in Terraform's and moto's logs)
--   The resource you requested does not exist. (ResourceNotFoundException)
--   Function not found: <arn>:<alias> for an alias the function does not
--   have (the form of sim.lambda's other lookups; unverified for URLs)
-- and the request validation of the API reference: AuthType in [NONE,
-- AWS_IAM], InvokeMode in [BUFFERED, RESPONSE_STREAM], a Qualifier that is
-- an alias name, not a version number.
local world = require("sim.world")
local util = require("sim.cloudformation_util")

local URL = "lambda.url"
local URL_ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"

return function(A, L)
  local function fail(message, code) require("sim").fail(message, code) end

  local function invalid(value, field, constraint)
    local shown = value == nil and "null" or ("'" .. tostring(value) .. "'")
    fail("1 validation error detected: Value " .. shown .. " at '" .. field .. "' failed to satisfy constraint: "
      .. constraint, "ValidationException")
  end

  local function check_enum(value, field, allowed, required)
    if value == nil then
      if required then invalid(nil, field, "Member must not be null") end
      return
    end
    for _, v in ipairs(allowed) do
      if value == v then return end
    end
    invalid(value, field, "Member must satisfy enum value set: [" .. table.concat(allowed, ", ") .. "]")
  end

  -- The function's record and the qualifier the URL is for (nil: $LATEST):
  -- an alias the function has.
  local function target(env, p)
    local rec, qualifier = L.load_fn(env, p.FunctionName)
    qualifier = p.Qualifier or qualifier
    if qualifier == "$LATEST" then qualifier = nil end
    if qualifier ~= nil then
      if type(qualifier) ~= "string" or qualifier:match("^%d+$") or not qualifier:match("^[%w%-_]+$") then
        invalid(qualifier, "qualifier", "Member must satisfy regular expression pattern: ((?!^\\d+$)^[0-9a-zA-Z-_]+$)")
      end
      if not world.get("lambda.alias", L.fkey(env, rec.FunctionName) .. ":" .. qualifier) then
        fail("Function not found: " .. L.fn_arn(env, rec.FunctionName, qualifier), "ResourceNotFoundException")
      end
    end
    return rec, qualifier
  end

  local function url_key(env, name, qualifier) return L.fkey(env, name) .. ":" .. (qualifier or "$LATEST") end

  local function load_url(env, p)
    local rec, qualifier = target(env, p)
    local k = url_key(env, rec.FunctionName, qualifier)
    local u = world.get(URL, k)
    if not u then fail("The resource you requested does not exist.", "ResourceNotFoundException") end
    return u, k
  end

  -- A Cors object as kept: nil for none or an empty one (how a client drops it).
  local function cors_of(cors)
    if type(cors) ~= "table" or next(cors) == nil then return nil end
    return cors
  end

  -- The config as the API answers it; `modified`: with LastModifiedTime
  -- (CreateFunctionUrlConfig's answer has none).
  local function view(u, modified)
    return { FunctionUrl = u.FunctionUrl, FunctionArn = u.FunctionArn, AuthType = u.AuthType, Cors = u.Cors,
             CreationTime = u.CreationTime, LastModifiedTime = modified and u.LastModifiedTime or nil,
             InvokeMode = u.InvokeMode }
  end

  function A.CreateFunctionUrlConfig(p, env)
    check_enum(p.AuthType, "authType", { "NONE", "AWS_IAM" }, true)
    check_enum(p.InvokeMode, "invokeMode", { "BUFFERED", "RESPONSE_STREAM" })
    local rec, qualifier = target(env, p)
    local arn = L.fn_arn(env, rec.FunctionName, qualifier)
    local k = url_key(env, rec.FunctionName, qualifier)
    if world.get(URL, k) then
      fail("Failed to create function url config for [functionArn = " .. arn .. "]. Error message:  "
        .. "FunctionUrlConfig exists for this Lambda function", "ResourceConflictException")
    end
    local now = util.iso8601(env.now_ms)
    local u = {
      FunctionUrl = "https://" .. require("sim").new_id("chars", URL_ID_CHARS, 32) .. ".lambda-url." .. env.region
        .. ".on.aws/",
      FunctionArn = arn, AuthType = p.AuthType, Cors = cors_of(p.Cors), InvokeMode = p.InvokeMode or "BUFFERED",
      CreationTime = now, LastModifiedTime = now,
    }
    world.put(URL, k, u, { refs = { L.fn_arn(env, rec.FunctionName) } })
    return view(u, false)
  end

  function A.GetFunctionUrlConfig(p, env)
    return view((load_url(env, p)), true)
  end

  ---UpdateFunctionUrlConfig: the fields given replace the config's (Cors
  ---as a whole; an empty Cors removes it).
  function A.UpdateFunctionUrlConfig(p, env)
    check_enum(p.AuthType, "authType", { "NONE", "AWS_IAM" })
    check_enum(p.InvokeMode, "invokeMode", { "BUFFERED", "RESPONSE_STREAM" })
    local u, k = load_url(env, p)
    if p.AuthType ~= nil then u.AuthType = p.AuthType end
    if p.InvokeMode ~= nil then u.InvokeMode = p.InvokeMode end
    if p.Cors ~= nil then u.Cors = cors_of(p.Cors) end
    u.LastModifiedTime = util.iso8601(env.now_ms)
    local rec = L.load_fn(env, p.FunctionName)
    world.put(URL, k, u, { refs = { L.fn_arn(env, rec.FunctionName) } })
    return view(u, true)
  end

  function A.DeleteFunctionUrlConfig(p, env)
    local _, k = load_url(env, p)
    world.remove(URL, k)
    return {}
  end

  ---ListFunctionUrlConfigs: the function's URLs, $LATEST's first, then by alias.
  function A.ListFunctionUrlConfigs(p, env)
    local rec = L.load_fn(env, p.FunctionName)
    local out = {}
    for _, u in ipairs(L.urls(env, rec.FunctionName)) do out[#out + 1] = view(u.url, true) end
    return { FunctionUrlConfigs = out }
  end

  -- The URL records of a function, { key =, url = } in key order.
  function L.urls(env, name)
    local out = {}
    for _, r in ipairs(world.referrers(L.fn_arn(env, name))) do
      if r.kind == URL then out[#out + 1] = { key = r.id, url = world.get(URL, r.id) } end
    end
    table.sort(out, function(a, b)
      local la, lb = a.key:sub(-8) == ":$LATEST", b.key:sub(-8) == ":$LATEST"
      if la ~= lb then return la end
      return a.key < b.key
    end)
    return out
  end

  -- The URL of an alias, when the alias goes (DeleteAlias).
  function L.remove_url(env, name, qualifier)
    world.remove(URL, url_key(env, name, qualifier))
  end
end
