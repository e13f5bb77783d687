-- sim.lambda_layers: Lambda layers and their numbered versions
-- (PublishLayerVersion, GetLayerVersion, GetLayerVersionByArn,
-- ListLayerVersions, DeleteLayerVersion), installed into sim.lambda.
--
-- A version is the record "lambda.layer_version" "<region>:<layer>:<n>";
-- "lambda.layer_counter" "<region>:<layer>" (not live) keeps the next
-- number, never reused (as in Lambda, after a delete too).
-- ARNs: arn:aws:lambda:<region>:<account>:layer:<name>[:<n>].
-- Messages: The resource you requested does not exist. (ResourceNotFoundException)
--
-- A function's Layers (L.check_layers, L.layer_version): a version ARN of
-- the function's own account must exist ("Layer version <arn> does not
-- exist.", InvalidParameterValueException, as CreateFunction answers it in
-- public Terraform and console reports); one of another account (AWS's or a
-- vendor's public layer, which the simulated cloud does not hold) is taken
-- as given, and its content is not there to mount.
local world = require("sim.world")
local util = require("sim.cloudformation_util")

local VERSION, COUNTER = "lambda.layer_version", "lambda.layer_counter"

return function(A, L)
  local function fail(message, code) require("sim").fail(message, code) end

  local function layer_arn(env, name, n)
    return "arn:aws:lambda:" .. env.region .. ":" .. env.account .. ":layer:" .. name .. (n and (":" .. n) or "")
  end

  local function view(env, v)
    return { LayerArn = layer_arn(env, v.LayerName), LayerVersionArn = layer_arn(env, v.LayerName, v.Version),
             Version = v.Version, Description = v.Description, CreatedDate = v.CreatedDate,
             CompatibleRuntimes = v.CompatibleRuntimes, CompatibleArchitectures = v.CompatibleArchitectures,
             LicenseInfo = v.LicenseInfo, Content = { CodeSha256 = v.CodeSha256, CodeSize = v.CodeSize or 0 } }
  end

  local function check_name(name)
    if type(name) ~= "string" or #name < 1 or #name > 140 or not name:match("^[%w_%-]+$") then
      L.invalid(tostring(name), "layerName", "Member must satisfy regular expression pattern: "
        .. "(arn:[a-zA-Z0-9-]+:lambda:[a-zA-Z0-9-]+:\\d{12}:layer:[a-zA-Z0-9-_]+)|[a-zA-Z0-9-_]+")
    end
  end

  function A.PublishLayerVersion(p, env)
    check_name(p.LayerName)
    if type(p.Content) ~= "table" then
      L.invalid(nil, "content", "Member must not be null")
    end
    local taken = L.take_s3_code(env, p.Content)
    local ck = env.region .. ":" .. p.LayerName
    local counter = world.get(COUNTER, ck) or { Next = 1 }
    local n = counter.Next
    counter.Next = n + 1
    world.put(COUNTER, ck, counter, { live = false })
    local v = { LayerName = p.LayerName, Version = n, Description = p.Description or "",
                CreatedDate = util.iso8601(env.now_ms), CompatibleRuntimes = p.CompatibleRuntimes,
                CompatibleArchitectures = p.CompatibleArchitectures, LicenseInfo = p.LicenseInfo }
    v.CodeSha256, v.CodeSize = L.code_digest(p.Content, taken)
    L.keep_code(v, taken)  -- the layer's content is Lambda's own too
    if not taken and type(p.Content.ZipFile) == "string" then v.Code = { ZipFile = p.Content.ZipFile } end
    world.put(VERSION, ck .. ":" .. n, v)
    return view(env, v)
  end

  local function load_version(env, name, n)
    local v = type(name) == "string" and world.get(VERSION, env.region .. ":" .. name .. ":" .. tostring(n))
    if not v then fail("The resource you requested does not exist.", "ResourceNotFoundException") end
    return v
  end

  function A.GetLayerVersion(p, env) return view(env, load_version(env, p.LayerName, p.VersionNumber)) end

  -- A layer version ARN's parts: region, account, name, number (nil when
  -- it is not one).
  local function parse_version_arn(arn)
    if type(arn) ~= "string" then return nil end
    return arn:match("^arn:[%w%-]+:lambda:([%w%-]+):(%d+):layer:([%w_%-]+):(%d+)$")
  end

  ---The record of the layer version `arn` names when it is one of the
  ---caller's account and exists; nil otherwise.
  function L.layer_version(env, arn)
    local region, account, name, n = parse_version_arn(arn)
    if not region or account ~= env.account then return nil end
    return world.get(VERSION, region .. ":" .. name .. ":" .. n)
  end

  ---Refuses a function's Layers naming a version of the caller's account
  ---that does not exist (CreateFunction, UpdateFunctionConfiguration).
  function L.check_layers(env, layers)
    if type(layers) ~= "table" then return end
    for _, arn in ipairs(layers) do
      local _, account = parse_version_arn(arn)
      if account == env.account and not L.layer_version(env, arn) then
        fail("Layer version " .. tostring(arn) .. " does not exist.", "InvalidParameterValueException")
      end
    end
  end

  ---Layers as GetFunctionConfiguration shows them: { Arn, CodeSize } each
  ---(0 for another account's layer, whose content is not here).
  function L.layer_views(env, layers)
    if type(layers) ~= "table" or #layers == 0 then return nil end
    local out = {}
    for i, arn in ipairs(layers) do
      local v = L.layer_version(env, arn)
      out[i] = { Arn = arn, CodeSize = v and v.CodeSize or 0 }
    end
    return out
  end

  function A.GetLayerVersionByArn(p, env)
    local name, n = tostring(p.Arn):match(":layer:([^:]+):(%d+)$")
    return view(env, load_version(env, name, n))
  end

  function A.DeleteLayerVersion(p, env)
    world.remove(VERSION, env.region .. ":" .. tostring(p.LayerName) .. ":" .. tostring(p.VersionNumber))  -- no error if gone
    return {}
  end

  function A.ListLayerVersions(p, env)
    local ck = env.region .. ":" .. tostring(p.LayerName)
    local counter = world.get(COUNTER, ck) or { Next = 1 }
    local out = {}
    for n = counter.Next - 1, 1, -1 do
      local v = world.get(VERSION, ck .. ":" .. n)
      if v then out[#out + 1] = view(env, v) end
    end
    return { LayerVersions = out }
  end
end
