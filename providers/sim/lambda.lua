-- sim.lambda: simulated Lambda functions, their published versions and
-- aliases — the bookkeeping AWS::Lambda::Function / Version / Alias and a
-- CodeDeploy traffic shift need — and Invoke, which runs the function's code
-- locally (sim/lambda_invoke.lua).
--
-- Records: "lambda.function" "<region>:<name>" (configuration, the code as
-- given — Code: ZipFile text or S3Bucket/S3Key — and its hash, published
-- versions), "lambda.alias" "<region>:<name>:<alias>".
--
-- Code in S3 is taken when the function is created or its code updated, as
-- Lambda takes its own copy: the function's record (and each version
-- published from it) names the object's blobs in its top-level Blobs/Sizes,
-- so it owns them too (engine/store/blob_store.h: a blob is freed when its
-- last owner lets it go), or holds a body kept in the object's record as
-- Package {Body | BodyBase64}. Invoke runs what was taken: the object
-- overwritten or deleted later changes nothing until UpdateFunctionCode.
--
-- What CreateFunction and the updates refuse, as Lambda does:
--   - an execution role that is not a role of the caller's account
--     trusting Lambda (check_role below);
--   - a runtime Lambda no longer creates or updates functions of, on the
--     world clock's day (sim/lambda_runtimes.lua);
--   - a .zip package without its runtime, handler or code (check_package);
--   - code in S3 that is missing or the caller's account may not read
--     (S3's refusal in Lambda's words, s3_code below; PublishLayerVersion
--     too).
--
-- Tags (CreateFunction's Tags map, TagResource, UntagResource, ListTags,
-- GetFunction's Tags) are the function's, kept in its record; a Resource
-- ARN's version or alias qualifier names the same function's.
--
-- PublishVersion publishes "1", "2", ... and, as Lambda does, returns the
-- latest version instead when neither the code nor the configuration
-- changed since it was published. An alias points at a version, optionally
-- with RoutingConfig.AdditionalVersionWeights (a weighted second version,
-- how CodeDeploy shifts traffic: sim.codedeploy); reading an alias settles
-- the deployment shifting it.
--
-- Messages (Lambda's):
--   Function not found: arn:aws:lambda:us-east-1:123456789012:function:f
--   Function already exist: f                     (ResourceConflictException)
--   Alias not found: arn:...:function:f:live / Alias already exists: arn:...
--   Unable to delete version because the following aliases reference it: [live]
-- The first two are widely reported verbatim; the alias and delete ones
-- follow the same shapes (unverified).

local world = require("sim.world")
local util = require("sim.cloudformation_util")
local runtimes = require("sim.lambda_runtimes")

local A = {}
local L = {}  -- helpers shared with sim.lambda_permissions / _layers / _event_sources

local FN, ALIAS, VERSION = "lambda.function", "lambda.alias", "lambda.version"
-- Per function, not live (bookkeeping, not a resource): the next version
-- number (never reused, as in Lambda) and the latest published one.
local COUNTER = "lambda.version_counter"

local function fail(message, code) require("sim").fail(message, code) end

-- Lambda's request validation (ValidationException): each violation
-- "Value 'x' at 'field' failed to satisfy constraint: <constraint>" (a nil
-- value: "Value null"), all of a request's in one message,
-- "1 validation error detected: ..." or "N validation errors detected: a; b".
function L.violation(value, field, constraint)
  return "Value " .. (value == nil and "null" or "'" .. tostring(value) .. "'") .. " at '" .. field
    .. "' failed to satisfy constraint: " .. constraint
end

function L.fail_validation(violations)
  local n = #violations
  fail(n .. " validation error" .. (n > 1 and "s" or "") .. " detected: " .. table.concat(violations, "; "),
    "ValidationException")
end

function L.invalid(value, field, constraint) L.fail_validation({ L.violation(value, field, constraint) }) end

local function fn_arn(env, name, qualifier)
  return "arn:aws:lambda:" .. env.region .. ":" .. env.account .. ":function:" .. name
    .. (qualifier and (":" .. qualifier) or "")
end

-- A FunctionName parameter: a name, "name:qualifier", or an ARN.
local function parse_name(spec)
  if type(spec) ~= "string" or spec == "" then
    L.invalid(nil, "functionName", "Member must not be null")
  end
  local name, qualifier = spec:match("^arn:aws[%w%-]*:lambda:[^:]*:%d+:function:([^:]+):?(.*)$")
  if not name then name, qualifier = spec:match("^([^:]+):?(.*)$") end
  return name, qualifier ~= "" and qualifier or nil
end

local function fkey(env, name) return env.region .. ":" .. name end
local function akey(env, name, alias) return env.region .. ":" .. name .. ":" .. alias end

local function load_fn(env, spec)
  local name, qualifier = parse_name(spec)
  local rec = not require("sim").other_account(env, spec) and world.get(FN, fkey(env, name))
  if not rec then fail("Function not found: " .. fn_arn(env, name, qualifier), "ResourceNotFoundException") end
  return rec, qualifier
end

local function save_fn(env, rec) world.put(FN, fkey(env, rec.FunctionName), rec) end

-- A Tags map as given (string keys; a number value as its text), {} for none.
local function tag_map(tags)
  local out = {}
  for k, v in pairs(type(tags) == "table" and tags or {}) do
    if type(k) == "string" then out[k] = tostring(v) end
  end
  return out
end

-- The code as given (CreateFunction's Code, UpdateFunctionCode's
-- parameters): what Invoke runs.
local CODE_FIELDS = { "ZipFile", "S3Bucket", "S3Key", "S3ObjectVersion", "ImageUri" }
local function code_of(code)
  local out = {}
  for _, k in ipairs(CODE_FIELDS) do out[k] = type(code) == "table" and code[k] or nil end
  return out
end

-- Gets the S3 object a function's or a layer's code names (S3Bucket,
-- S3Key, S3ObjectVersion), as the caller's account; S3's refusal in
-- Lambda's words. Lambda takes the object when the function is
-- created or its code updated, so a missing one fails CreateFunction
-- ("Error occurred while GetObject. S3 Error Code: NoSuchKey. S3 Error
-- Message: The specified key does not exist.", InvalidParameterValueException:
-- public CloudFormation events of AWS::Lambda::Function, and CloudTrail's
-- CreateFunction20150331 errorMessage).
local function s3_code(env, code)
  local sim = require("sim")
  local ok, obj = pcall(sim.call, "s3", "GetObject",
    { Bucket = code.S3Bucket, Key = code.S3Key, VersionId = code.S3ObjectVersion },
    { region = env.region, account = env.account })
  if ok then return obj end
  local code_name = type(obj) == "table" and obj.code or nil
  if code_name == nil then error(obj, 0) end  -- not S3's refusal: a fault of the sim itself
  if code_name == "AccessDenied" then  -- Lambda's text for an object its caller may not read
    fail("Your access has been denied by S3, please make sure your request credentials have permission to "
      .. "GetObject for " .. code.S3Bucket .. "/" .. code.S3Key .. ". S3 Error Code: AccessDenied. S3 Error "
      .. "Message: Access Denied", "AccessDeniedException")
  end
  fail("Error occurred while GetObject. S3 Error Code: " .. code_name .. ". S3 Error Message: " .. tostring(obj.message),
    "InvalidParameterValueException")
end

-- The execution role: an IAM role ARN (the API's pattern, ValidationException),
-- of a role of the caller's account whose trust policy lets
-- lambda.amazonaws.com assume it ("The role defined for the function cannot
-- be assumed by Lambda.", InvalidParameterValueException: Lambda's text for a
-- role that is missing, another account's or not trusting Lambda). A trust
-- statement's Condition is not evaluated: it trusts Lambda if it names it.
local ROLE_PATTERN = "arn:(aws[a-zA-Z-]*)?:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+"

local function one_or_list(v)
  if type(v) == "table" then return v end
  return { v }
end

local function trusts_lambda(doc)
  if type(doc) == "string" then
    local decoded = require("sim.json_decode")(doc)
    if decoded == nil then return true end  -- a text the sim cannot read: not refused on the sim's account
    doc = decoded
  end
  if type(doc) ~= "table" then return false end
  for _, s in ipairs(one_or_list(doc.Statement)) do
    if type(s) == "table" and s.Effect == "Allow" then
      local assume = false
      for _, a in ipairs(one_or_list(s.Action)) do
        local action = type(a) == "string" and a:lower() or ""
        if action == "sts:assumerole" or action == "sts:*" or action == "*" then assume = true end
      end
      local p = s.Principal
      local names = p == "*"
      if type(p) == "table" then
        for _, service in ipairs(one_or_list(p.Service)) do
          if service == "lambda.amazonaws.com" then names = true end
        end
      end
      if assume and names then return true end
    end
  end
  return false
end

local function check_role(role_arn)
  local arn = type(role_arn) == "string" and role_arn or ""
  local partition, rest = arn:match("^arn:([%w%-]*):iam::%d%d%d%d%d%d%d%d%d%d%d%d:role/?([%w_+=,.@%-/]+)$")
  if not rest or not (partition == "" or partition:match("^aws[%a%-]*$")) then
    L.invalid(tostring(role_arn), "role", "Member must satisfy regular expression pattern: " .. ROLE_PATTERN)
  end
  local role = world.get("iam.role", (arn:match("([^/]+)$") or ""):lower())
  if not role or role.Arn ~= arn or not trusts_lambda(role.AssumeRolePolicyDocument) then
    fail("The role defined for the function cannot be assumed by Lambda.", "InvalidParameterValueException")
  end
end

-- A package's blobs as the host reads them: id1, size1, id2, size2, ...
-- (world.blob_sha256's arguments, the runner's zip_blobs).
local function blob_extents(blobs, sizes)
  local out = {}
  for i, id in ipairs(blobs) do out[#out + 1], out[#out + 2] = id, sizes[i] end
  return out
end

-- The raw SHA-256 and the size of a package's bytes.
local function digest_of(bytes) return require("moonstack.digest").sha256(bytes), #bytes end

-- What Lambda takes of code naming an S3 object (nil for other code): the
-- object's blobs (Blobs, Sizes) or its body kept in its record (Package),
-- and the package's digest and size. Blobs are digested by the host, a
-- chunk at a time: a package of tens of MB never becomes a Lua string here.
local function take_s3_code(env, code)
  if type(code) ~= "table" or code.S3Bucket == nil or code.S3Key == nil then return nil end
  local obj = s3_code(env, code)
  if obj.BodyBlob then
    local blobs, sizes, size = obj.BodyBlob.Blobs, obj.BodyBlob.Sizes, 0
    for _, n in ipairs(sizes) do size = size + n end
    return { Blobs = blobs, Sizes = sizes, sha256 = world.blob_sha256(unpack(blob_extents(blobs, sizes))), size = size }
  end
  local text, base64 = require("sim.s3_body").fields(obj.Body or "")
  local sha256, size = digest_of(obj.Body or "")
  return { Package = { Body = text, BodyBase64 = base64 }, sha256 = sha256, size = size }
end

-- Records the code taken (take_s3_code's, or none) on `rec`, a function's
-- record or a version's: the blobs at its top level, where the store sees
-- its ownership of them.
local function keep_code(rec, taken)
  rec.Blobs, rec.Sizes = taken and taken.Blobs, taken and taken.Sizes
  rec.Package = taken and taken.Package
end

-- CodeSha256 and CodeSize, as Lambda gives them: the base64 of the
-- SHA-256 of the package (the ZipFile bytes, or the S3 object's taken),
-- which tools compare with the digest of the zip they hold, and its size in
-- bytes. An image's CodeSha256 is a hash of its URI here (Lambda gives the
-- image's digest), its size 0.
local function code_digest(code, taken)
  local sha256, size
  if taken then
    sha256, size = taken.sha256, taken.size
  elseif type(code) == "table" and type(code.ZipFile) == "string" then
    sha256, size = digest_of(code.ZipFile)
  end
  if sha256 then return require("sim.s3_body").encode_base64(sha256), size end
  local parts = {}
  for _, k in ipairs({ "ZipFile", "S3Bucket", "S3Key", "S3ObjectVersion", "ImageUri" }) do
    parts[#parts + 1] = k .. "=" .. tostring(type(code) == "table" and code[k] or "")
  end
  return util.hash_hex(table.concat(parts, "\n"), 43) .. "=", 0
end

local CONFIG = { "Runtime", "Role", "Handler", "Description", "Timeout", "MemorySize", "Environment",
                 "Architectures", "Layers", "TracingConfig", "DeadLetterConfig", "KmsKeyArn", "VpcConfig",
                 "EphemeralStorage", "PackageType", "ImageConfig", "LoggingConfig" }

-- A value as canonical text (keys sorted), to compare configurations.
local function canonical(v)
  if type(v) ~= "table" then return util.json_string(tostring(v)) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do parts[i] = k .. ":" .. canonical(v[k] == nil and v[tonumber(k)] or v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- What a published version captures, as one comparable string.
local function fingerprint(rec)
  local parts = { rec.CodeSha256 }
  for _, k in ipairs(CONFIG) do parts[#parts + 1] = k .. "=" .. canonical(rec[k]) end
  return table.concat(parts, "|")
end

local function configuration(env, rec, version)
  local c = { FunctionName = rec.FunctionName, FunctionArn = fn_arn(env, rec.FunctionName, version and version.Version),
              CodeSha256 = version and version.CodeSha256 or rec.CodeSha256,
              CodeSize = (version or rec).CodeSize or 0,
              Version = version and version.Version or "$LATEST", LastModified = rec.LastModified,
              State = "Active", LastUpdateStatus = "Successful" }
  local settings = version and version.Config or rec  -- a version keeps the configuration it was published with
  for _, k in ipairs(CONFIG) do c[k] = settings[k] end
  c.Layers = L.layer_views(env, settings.Layers)
  if version then c.Description = version.Description end
  c.Timeout, c.MemorySize = c.Timeout or 3, c.MemorySize or 128
  return c
end

-- What a function's package needs (InvalidParameterValueException, Lambda's
-- texts from public boto3 and Go SDK reports): a .zip package (PackageType
-- Zip, the default) names its runtime and handler, and its code comes from
-- ZipFile or S3 (an ImageUri is not a source for it); an image names its
-- image.
local function check_package(p)
  local code = type(p.Code) == "table" and p.Code or {}
  if p.PackageType == "Image" then
    if code.ImageUri == nil then fail("Please provide a source for function code.", "InvalidParameterValueException") end
    return
  end
  if p.Runtime == nil or p.Handler == nil then
    fail("Runtime and Handler are mandatory parameters for functions created with deployment packages.",
      "InvalidParameterValueException")
  end
  if code.ZipFile == nil and (code.S3Bucket == nil or code.S3Key == nil) then
    fail("Please provide a source for function code.", "InvalidParameterValueException")
  end
end

function A.CreateFunction(p, env)
  local name = parse_name(p.FunctionName)
  if world.get(FN, fkey(env, name)) then fail("Function already exist: " .. name, "ResourceConflictException") end
  if p.Role == nil then
    L.invalid(nil, "role", "Member must not be null")
  end
  check_role(p.Role)
  check_package(p)
  runtimes.check_create(p.Runtime, env.now_ms)
  L.check_layers(env, p.Layers)
  local taken = take_s3_code(env, p.Code)
  local tags = tag_map(p.Tags)
  local rec = { FunctionName = name, Code = code_of(p.Code), LastModified = util.iso8601(env.now_ms),
                Tags = next(tags) ~= nil and tags or nil }
  rec.CodeSha256, rec.CodeSize = code_digest(p.Code, taken)
  keep_code(rec, taken)
  for _, k in ipairs(CONFIG) do rec[k] = p[k] end
  save_fn(env, rec)
  return configuration(env, rec)
end

function A.GetFunctionConfiguration(p, env)
  local rec, qualifier = load_fn(env, p.FunctionName)
  qualifier = p.Qualifier or qualifier
  if qualifier and qualifier ~= "$LATEST" then
    local v = world.get(VERSION, fkey(env, rec.FunctionName) .. ":" .. qualifier)
    if v then return configuration(env, rec, v) end
    fail("Function not found: " .. fn_arn(env, rec.FunctionName, qualifier), "ResourceNotFoundException")
  end
  return configuration(env, rec)
end

function A.GetFunction(p, env)
  local out = { Configuration = A.GetFunctionConfiguration(p, env) }
  local tags = load_fn(env, p.FunctionName).Tags
  if tags and next(tags) ~= nil then out.Tags = tags end
  return out
end

-- Tags (a record read from the world is the caller's own copy: changed in
-- place, then saved) ----------------------------------------------------------

function A.TagResource(p, env)
  local rec = load_fn(env, p.Resource)
  rec.Tags = rec.Tags or {}
  for k, v in pairs(tag_map(p.Tags)) do rec.Tags[k] = v end
  save_fn(env, rec)
  return {}
end

function A.UntagResource(p, env)
  local rec = load_fn(env, p.Resource)
  for _, k in ipairs(type(p.TagKeys) == "table" and p.TagKeys or {}) do (rec.Tags or {})[k] = nil end
  if rec.Tags and next(rec.Tags) == nil then rec.Tags = nil end
  save_fn(env, rec)
  return {}
end

function A.ListTags(p, env)
  return { Tags = load_fn(env, p.Resource).Tags or {} }
end

function A.UpdateFunctionConfiguration(p, env)
  local rec = load_fn(env, p.FunctionName)
  for _, k in ipairs(CONFIG) do
    if p[k] == "" then rec[k] = nil elseif p[k] ~= nil then rec[k] = p[k] end  -- "" resets a setting
  end
  if p.Role ~= nil then check_role(p.Role) end
  runtimes.check_update(rec.Runtime, env.now_ms)
  L.check_layers(env, rec.Layers)
  rec.LastModified = util.iso8601(env.now_ms)
  save_fn(env, rec)
  return configuration(env, rec)
end

function A.UpdateFunctionCode(p, env)
  local rec = load_fn(env, p.FunctionName)
  runtimes.check_update(rec.Runtime, env.now_ms)
  local taken = take_s3_code(env, p)
  rec.CodeSha256, rec.CodeSize = code_digest(p, taken)
  rec.Code = code_of(p)
  keep_code(rec, taken)
  rec.LastModified = util.iso8601(env.now_ms)
  save_fn(env, rec)
  return configuration(env, rec)
end

function A.PublishVersion(p, env)
  local rec = load_fn(env, p.FunctionName)
  if p.CodeSha256 and p.CodeSha256 ~= rec.CodeSha256 then
    fail("CodeSHA256 (" .. p.CodeSha256 .. ") is different from current CodeSHA256 in $LATEST (" .. rec.CodeSha256
      .. "). Please try again with the current CodeSHA256.", "PreconditionFailedException")
  end
  local ck = fkey(env, rec.FunctionName)
  local counter = world.get(COUNTER, ck) or { Next = 1 }
  local last = counter.Latest and world.get(VERSION, ck .. ":" .. counter.Latest)
  if last and last.Fingerprint == fingerprint(rec) then return configuration(env, rec, last) end
  local config = {}
  for _, k in ipairs(CONFIG) do config[k] = rec[k] end
  local v = { Version = tostring(counter.Next), CodeSha256 = rec.CodeSha256, CodeSize = rec.CodeSize, Code = rec.Code,
              Description = p.Description or "", Fingerprint = fingerprint(rec), Config = config,
              Blobs = rec.Blobs, Sizes = rec.Sizes, Package = rec.Package }
  counter.Next, counter.Latest = counter.Next + 1, v.Version
  world.put(COUNTER, ck, counter, { live = false })
  world.put(VERSION, ck .. ":" .. v.Version, v)
  return configuration(env, rec, v)
end

-- The published versions of a function, oldest first.
local function versions(env, name)
  local ck, out = fkey(env, name), {}
  local counter = world.get(COUNTER, ck) or { Next = 1 }
  for n = 1, counter.Next - 1 do
    local v = world.get(VERSION, ck .. ":" .. n)
    if v then out[#out + 1] = v end
  end
  return out
end

function A.ListVersionsByFunction(p, env)
  local rec = load_fn(env, p.FunctionName)
  local out = { configuration(env, rec) }
  for _, v in ipairs(versions(env, rec.FunctionName)) do out[#out + 1] = configuration(env, rec, v) end
  return { Versions = out }
end

-- A function's aliases, in name order: the ids under its key.
local function aliases_of(env, name)
  local out = {}
  for _, k in ipairs(world.ids(ALIAS, true, fkey(env, name) .. ":")) do out[#out + 1] = world.get(ALIAS, k) end
  return out
end

function A.DeleteFunction(p, env)
  local rec, qualifier = load_fn(env, p.FunctionName)
  qualifier = p.Qualifier or qualifier
  if qualifier then
    local users = {}
    for _, a in ipairs(aliases_of(env, rec.FunctionName)) do
      local weights = a.RoutingConfig and a.RoutingConfig.AdditionalVersionWeights or {}
      if a.FunctionVersion == qualifier or weights[qualifier] then users[#users + 1] = a.Name end
    end
    if #users > 0 then
      fail("Unable to delete version because the following aliases reference it: [" .. table.concat(users, ", ") .. "]",
        "ResourceConflictException")
    end
    if not world.remove(VERSION, fkey(env, rec.FunctionName) .. ":" .. qualifier) then
      fail("Function not found: " .. fn_arn(env, rec.FunctionName, qualifier), "ResourceNotFoundException")
    end
    return {}
  end
  for _, a in ipairs(aliases_of(env, rec.FunctionName)) do world.remove(ALIAS, akey(env, rec.FunctionName, a.Name)) end
  for _, v in ipairs(versions(env, rec.FunctionName)) do
    world.remove(VERSION, fkey(env, rec.FunctionName) .. ":" .. v.Version)
  end
  for _, s in ipairs(L.statements(env, rec.FunctionName)) do world.remove("lambda.permission", s.key) end
  for _, u in ipairs(L.urls(env, rec.FunctionName)) do L.remove_url_record(u.key) end
  world.remove(COUNTER, fkey(env, rec.FunctionName))
  world.remove(FN, fkey(env, rec.FunctionName))
  return {}
end

local function has_version(env, rec, version)
  return version == "$LATEST" or world.get(VERSION, fkey(env, rec.FunctionName) .. ":" .. version) ~= nil
end

local function check_version(env, rec, version)
  if not has_version(env, rec, tostring(version)) then
    fail("Function not found: " .. fn_arn(env, rec.FunctionName, tostring(version)), "ResourceNotFoundException")
  end
end

local function alias_view(env, a)
  return { AliasArn = fn_arn(env, a.FunctionName, a.Name), Name = a.Name, FunctionVersion = a.FunctionVersion,
           Description = a.Description or "", RoutingConfig = a.RoutingConfig, RevisionId = a.RevisionId }
end

local function check_routing(env, rec, routing)
  for version in pairs(type(routing) == "table" and routing.AdditionalVersionWeights or {}) do
    check_version(env, rec, version)
  end
end

function A.CreateAlias(p, env)
  local rec = load_fn(env, p.FunctionName)
  local k = akey(env, rec.FunctionName, tostring(p.Name))
  if world.get(ALIAS, k) then
    fail("Alias already exists: " .. fn_arn(env, rec.FunctionName, p.Name), "ResourceConflictException")
  end
  check_version(env, rec, p.FunctionVersion)
  check_routing(env, rec, p.RoutingConfig)
  local a = { FunctionName = rec.FunctionName, Name = p.Name, FunctionVersion = tostring(p.FunctionVersion),
              Description = p.Description, RoutingConfig = p.RoutingConfig, RevisionId = require("sim").new_id("uuid") }
  world.put(ALIAS, k, a)
  return alias_view(env, a)
end

-- `settle`: a deployment shifting the alias is first moved along to the
-- clock (reads only: CodeDeploy's own UpdateAlias calls must not re-enter it).
local function load_alias(env, spec, name, settle)
  local fname = parse_name(spec)
  local k = akey(env, fname, tostring(name))
  local a = world.get(ALIAS, k)
  if a and a.DeploymentId and settle then
    require("sim.codedeploy").settle_deployment(env, a.DeploymentId)
    a = world.get(ALIAS, k)
  end
  if not a then fail("Alias not found: " .. fn_arn(env, fname, name), "ResourceNotFoundException") end
  return a, k
end

function A.GetAlias(p, env)
  return alias_view(env, (load_alias(env, p.FunctionName, p.Name, true)))
end

function A.UpdateAlias(p, env)
  local a, k = load_alias(env, p.FunctionName, p.Name)
  local rec = load_fn(env, p.FunctionName)
  if p.FunctionVersion ~= nil then
    check_version(env, rec, p.FunctionVersion)
    a.FunctionVersion = tostring(p.FunctionVersion)
  end
  if p.Description ~= nil then a.Description = p.Description end
  if p.RoutingConfig ~= nil then
    check_routing(env, rec, p.RoutingConfig)
    a.RoutingConfig = next(p.RoutingConfig.AdditionalVersionWeights or {}) and p.RoutingConfig or nil
  end
  -- CodeDeploy marks the alias it is shifting (sim-only field).
  if p.DeploymentId ~= nil then a.DeploymentId = p.DeploymentId ~= "" and p.DeploymentId or nil end
  a.RevisionId = require("sim").new_id("uuid")
  world.put(ALIAS, k, a)
  return alias_view(env, a)
end

function A.DeleteAlias(p, env)
  local _, k = load_alias(env, p.FunctionName, p.Name)
  world.remove(ALIAS, k)
  L.remove_url(env, (parse_name(p.FunctionName)), p.Name)  -- its URL goes with it
  return {}
end

function A.ListAliases(p, env)
  local rec = load_fn(env, p.FunctionName)
  local out = {}
  for _, a in ipairs(aliases_of(env, rec.FunctionName)) do out[#out + 1] = alias_view(env, a) end
  return { Aliases = out }
end

-- The records of `kind` whose refs name function `name`'s ARN (its
-- permissions, its URLs), { key =, record = } in key order: found through
-- the referrers index, not a walk of the kind.
function L.records_naming(env, name, kind)
  local out = {}
  for _, r in ipairs(world.referrers(fn_arn(env, name))) do
    if r.kind == kind then out[#out + 1] = { key = r.id, record = world.get(kind, r.id) } end
  end
  return out
end

-- Permissions, layer versions and event source mappings live in their own
-- files; they get the helpers above (lower-case fields of L, not actions).
L.load_fn, L.fn_arn, L.fkey, L.code_digest, L.json = load_fn, fn_arn, fkey, code_digest, util.json
L.configuration, L.VERSION = configuration, VERSION
L.s3_code, L.take_s3_code, L.keep_code, L.blob_extents = s3_code, take_s3_code, keep_code, blob_extents
require("sim.lambda_permissions")(A, L)
require("sim.lambda_urls")(A, L)
require("sim.lambda_layers")(A, L)
require("sim.lambda_event_sources")(A, L)
require("sim.lambda_invoke")(A, L)

return A
