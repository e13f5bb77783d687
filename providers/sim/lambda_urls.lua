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
--
-- Sim-only: InvokeFunctionUrl { UrlId, Method, RawPath, RawQueryString,
-- Headers (lowercase names), Body, SourceIp } -> { StatusCode, Headers,
-- Cookies, Body } is an HTTP request to a URL, how `moonstack serve`
-- answers http://<url id>.lambda-url.<region>.localhost:<port>/... (the
-- URL's own host, on this machine): Lambda's payload format 2.0 event, the
-- function run (Invoke, of the alias for an alias's URL), its
-- answer mapped back as Lambda maps it. Who may call, as Lambda decides it
-- (the Lambda Developer Guide, "Control access to Lambda function URLs"):
-- AuthType NONE needs the function's policy to grant lambda:InvokeFunctionUrl
-- to everyone ("*"), and, for a URL made from October 2025 on (the world's
-- clock), lambda:InvokeFunction too ("new function URLs will require both
-- lambda:InvokeFunctionUrl and lambda:InvokeFunction permissions");
-- AWS_IAM needs a SigV4-signed request (the signature is not checked, as
-- nowhere in moonstack). Refused: 403 {"Message":"Forbidden"}. A function
-- that fails: 502 "Internal Server Error" (moonstack's; AWS's body is not
-- on record). An id no URL has: 404 {"Message":null}.
local world = require("sim.world")
local util = require("sim.cloudformation_util")

local URL = "lambda.url"
-- URL id -> { Account, Region, Key }: a request to a URL names only its id
-- (shared by every account, sim/world.lua, as its ids are unique).
local URL_ID = "lambda.url_id"
-- When Lambda began to ask new URLs for lambda:InvokeFunction too:
-- 2025-10-01T00:00:00Z ("Starting in October 2025").
local BOTH_PERMISSIONS_FROM_MS = 1759276800000
local URL_ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"

return function(A, L)
  local function fail(message, code) require("sim").fail(message, code) end

  local function check_enum(value, field, allowed, required)
    if value == nil then
      if required then L.invalid(nil, field, "Member must not be null") end
      return
    end
    for _, v in ipairs(allowed) do
      if value == v then return end
    end
    L.invalid(value, field, "Member must satisfy enum value set: [" .. table.concat(allowed, ", ") .. "]")
  end

  -- The function's record and the qualifier the URL is for (nil: $LATEST):
  -- an alias the function has.
  local function target(env, p)
    local rec, qualifier = L.load_fn(env, p.FunctionName)
    qualifier = p.Qualifier or qualifier
    if qualifier == "$LATEST" then qualifier = nil end
    if qualifier ~= nil then
      if type(qualifier) ~= "string" or qualifier:match("^%d+$") or not qualifier:match("^[%w%-_]+$") then
        L.invalid(qualifier, "qualifier", "Member must satisfy regular expression pattern: ((?!^\\d+$)^[0-9a-zA-Z-_]+$)")
      end
      if not world.get("lambda.alias", L.fkey(env, rec.FunctionName) .. ":" .. qualifier) then
        fail("Function not found: " .. L.fn_arn(env, rec.FunctionName, qualifier), "ResourceNotFoundException")
      end
    end
    return rec, qualifier
  end

  -- The id in a URL's host: "https://<id>.lambda-url...".
  local function url_id_of(u) return u.FunctionUrl:match("^https://([^.]+)") end

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
      CreationTime = now, LastModifiedTime = now, CreationMs = env.now_ms,
    }
    world.put(URL, k, u, { refs = { L.fn_arn(env, rec.FunctionName) } })
    world.put(URL_ID, url_id_of(u), { Account = env.account, Region = env.region, Key = k },
      { live = false })
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
    L.remove_url_record(k)
    return {}
  end

  ---ListFunctionUrlConfigs: the function's URLs, $LATEST's first, then by alias.
  function A.ListFunctionUrlConfigs(p, env)
    local rec = L.load_fn(env, p.FunctionName)
    local out = {}
    for _, u in ipairs(L.urls(env, rec.FunctionName)) do out[#out + 1] = view(u.record, true) end
    return { FunctionUrlConfigs = out }
  end

  -- The URL records of a function, { key =, record = }, $LATEST's first.
  function L.urls(env, name)
    local out = L.records_naming(env, name, URL)
    table.sort(out, function(a, b)
      local la, lb = a.key:sub(-8) == ":$LATEST", b.key:sub(-8) == ":$LATEST"
      if la ~= lb then return la end
      return a.key < b.key
    end)
    return out
  end

  -- A URL's record and its id's, by the record's key.
  function L.remove_url_record(key)
    local u = world.get(URL, key)
    if u then world.remove(URL_ID, url_id_of(u)) end
    world.remove(URL, key)
  end

  -- The URL of an alias, when the alias goes (DeleteAlias).
  function L.remove_url(env, name, qualifier)
    L.remove_url_record(url_key(env, name, qualifier))
  end

  -- Invoking a URL ---------------------------------------------------------------

  A.UNLOCKED = A.UNLOCKED or {}
  A.UNLOCKED.InvokeFunctionUrl = true  -- the function runs without the world's lock, as Invoke

  local TEXT_TYPES = { "^text/", "^application/json", "^application/xml", "^application/javascript",
                       "^application/x%-www%-form%-urlencoded", "^application/[%w.+-]*%+json", "^application/[%w.+-]*%+xml" }

  -- Whether a body of this content type reaches the function as text
  -- (else base64, isBase64Encoded).
  local function is_text(content_type)
    if content_type == nil then return true end
    local t = content_type:lower()
    for _, pattern in ipairs(TEXT_TYPES) do
      if t:match(pattern) then return true end
    end
    return false
  end

  local NO_SUCH_URL = { StatusCode = 404, Headers = { ["content-type"] = "application/json" }, Body = '{"Message":null}' }

  local function forbidden() return { StatusCode = 403, Headers = { ["content-type"] = "application/json",
    ["x-amzn-errortype"] = "AccessDeniedException" }, Body = '{"Message":"Forbidden"}' } end

  -- Whether the function's policy lets anyone call `action` (a statement
  -- of Principal "*" for it, or for lambda:*).
  local function public(env, name, action)
    for _, st in ipairs(L.statements(env, name)) do
      local s = st.record
      local who = type(s.Principal) == "table" and (s.Principal.Service or s.Principal.AWS) or s.Principal
      if s.Effect == "Allow" and who == "*" and (s.Action == action or s.Action == "lambda:*" or s.Action == "*") then
        return true
      end
    end
    return false
  end

  local function allowed(env, u, name, headers)
    if u.AuthType == "AWS_IAM" then
      return type(headers.authorization) == "string" and headers.authorization:find("^AWS4%-HMAC%-SHA256 ") ~= nil
    end
    if not public(env, name, "lambda:InvokeFunctionUrl") then return false end
    return (u.CreationMs or 0) < BOTH_PERMISSIONS_FROM_MS or public(env, name, "lambda:InvokeFunction")
  end

  -- Lambda's payload format 2.0 event of an HTTP request to the URL.
  local function event_of(env, u, url_id, p, request_id)
    local headers, cookies = {}, nil
    for k, v in pairs(type(p.Headers) == "table" and p.Headers or {}) do
      if k == "cookie" then
        cookies = {}
        for c in tostring(v):gmatch("[^;]+") do cookies[#cookies + 1] = (c:gsub("^%s+", ""):gsub("%s+$", "")) end
      else
        headers[k] = tostring(v)
      end
    end
    local query = nil
    local raw_query = type(p.RawQueryString) == "string" and p.RawQueryString or ""
    for pair in raw_query:gmatch("[^&]+") do
      local k, v = pair:match("^([^=]*)=?(.*)$")
      k, v = util.url_decode(k), util.url_decode(v)
      query = query or {}
      query[k] = query[k] and (query[k] .. "," .. v) or v
    end
    local body, base64 = p.Body, false
    if type(body) == "string" and body ~= "" then
      if not is_text(headers["content-type"]) then body, base64 = require("sim.s3_body").encode_base64(body), true end
    else
      body = nil
    end
    local domain = url_id .. ".lambda-url." .. env.region .. ".on.aws"
    local path = type(p.RawPath) == "string" and p.RawPath ~= "" and p.RawPath or "/"
    return {
      version = "2.0", routeKey = "$default", rawPath = path, rawQueryString = raw_query, cookies = cookies,
      headers = headers, queryStringParameters = query,
      requestContext = {
        accountId = u.AuthType == "AWS_IAM" and env.account or "anonymous", apiId = url_id, domainName = domain,
        domainPrefix = url_id,
        http = { method = tostring(p.Method or "GET"), path = path, protocol = "HTTP/1.1",
                 sourceIp = tostring(p.SourceIp or "127.0.0.1"), userAgent = headers["user-agent"] },
        requestId = request_id, routeKey = "$default", stage = "$default",
        time = util.clf_time(env.now_ms), timeEpoch = env.now_ms,
      },
      body = body, isBase64Encoded = base64,
    }
  end

  -- The function's answer as an HTTP response, as Lambda maps it: an object
  -- with a statusCode is the response itself; any other JSON is a 200
  -- application/json whose body is that JSON.
  local function response_of(payload)
    local decoded = require("sim.json_decode")(payload or "")
    if type(decoded) == "table" and decoded.statusCode ~= nil then
      local headers = {}
      for k, v in pairs(type(decoded.headers) == "table" and decoded.headers or {}) do headers[k:lower()] = tostring(v) end
      if headers["content-type"] == nil then headers["content-type"] = "application/json" end
      local body = decoded.body
      if type(body) ~= "string" then body = body ~= nil and util.json(body) or "" end
      if decoded.isBase64Encoded == true then body = require("sim.s3_body").decode_base64(body) end
      local cookies = {}
      for i, c in ipairs(type(decoded.cookies) == "table" and decoded.cookies or {}) do cookies[i] = tostring(c) end
      return { StatusCode = tonumber(decoded.statusCode) or 200, Headers = headers, Cookies = cookies, Body = body }
    end
    return { StatusCode = 200, Headers = { ["content-type"] = "application/json" }, Body = payload or "" }
  end

  function A.InvokeFunctionUrl(p, env)
    local url_id = type(p.UrlId) == "string" and p.UrlId or ""
    local found = world.atomic(function() return world.get(URL_ID, url_id) end)
    if not found or (p.Region ~= nil and p.Region ~= found.Region) then return NO_SUCH_URL end
    local call_env = { region = found.Region, account = found.Account, caller = env.caller, new_id = env.new_id,
                       now_ms = env.now_ms }
    return world.with_account(found.Account, function()
      local u, name, alias, request_id, ok = world.atomic(function()
        local u = world.get(URL, found.Key)
        if not u then return nil end
        local name, alias = u.FunctionArn:match(":function:([^:]+):?([^:]*)$")
        return u, name, alias, env.new_id("uuid"), allowed(call_env, u, name, type(p.Headers) == "table" and p.Headers or {})
      end)
      if not u then return NO_SUCH_URL end
      if not ok then return forbidden() end
      local event = event_of(call_env, u, url_id, p, request_id)
      local out = A.Invoke({ FunctionName = name, Qualifier = alias ~= "" and alias or nil, Payload = L.json(event) },
        call_env)
      if out.FunctionError then
        return { StatusCode = 502, Headers = { ["content-type"] = "text/plain" }, Body = "Internal Server Error" }
      end
      return response_of(out.Payload)
    end)
  end
end
