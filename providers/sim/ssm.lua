-- sim.ssm: the simulated Systems Manager Parameter Store.
--
-- Parameters are regional: the world record ("ssm.parameter") is keyed
-- "<region>:<name>" (":" cannot occur in a parameter name). Each one keeps
-- its versions (GetParameterHistory, "name:3" selectors); an overwrite adds
-- a version. The public parameters AWS publishes under /aws/service/ (latest
-- AMI aliases) exist in every region without a record: see sim.ssm_public.
--
-- Messages (AWS's, with where they were seen):
--   The parameter already exists. To overwrite this value, set the overwrite
--   option in the request to true. (ParameterAlreadyExists)   garystafford/emr-demo#1
--   ParameterNotFound from GetParameter / DeleteParameter has an EMPTY
--   message today ("... when calling the GetParameter operation: "):
--   awslabs/aws-simple-cicd#10, aws-solutions/aws-control-tower-customizations#68.
--   Parameter name: can't be prefixed with "ssm" (case-insensitive). If formed
--   as a path, ... .-_  (ValidationException, for any malformed name)
--                                                       aws/aws-sdk-php#1952, boto/boto3#1499
--   Standard tier parameters support a maximum parameter value of 4096
--   characters. To create a larger parameter value, upgrade the parameter to
--   use the advanced-parameter tier. For more information, see https://...
--   (ValidationException)                                aws/aws-sdk-net#3157
--   1 validation error detected: Value at 'value' failed to satisfy constraint:
--   Member must have length less than or equal to 32768 (no value shown: Value
--   is sensitive)                ministryofjustice/cloud-platform-infrastructure#3906
-- Limits (API reference, PutParameter; "Parameter Store quotas"): Name 1 to
-- 2,048 characters, Description 0 to 1,024, AllowedPattern 0 to 1,024, Value
-- 4 KB in the Standard tier and 8 KB in the Advanced one. The 100 versions
-- kept drop the oldest (AWS refuses with ParameterMaxVersionLimitExceeded
-- only when that version has a label: this sim has no labels).
-- Not verified verbatim (wording as moto reproduces it):
--   A parameter type is required when you create a parameter. (ValidationException)
--   Parameter value, cannot be validated against allowedPattern: <p>
--                                                       (ParameterPatternMismatchException)
--   Invalid request: tags and overwrite can't be used together. ... (ValidationException)
--   The following data type is not supported: x (Data type names are all lowercase.)
--   Parameter X not found. (InvalidResourceId, the tag actions)
--   Advanced tier parameters support a maximum parameter value of 8192
--   characters. (ValidationException: the Standard tier's, by analogy)
--
-- Helpers for the engine (lower-case, not actions):
--   resolve(name, opts)       the value of an SSM parameter ({{resolve:ssm:...}},
--                             AWS::SSM::Parameter::Value<...> parameters), or nil
--   exists(kind, value, opts) for "AWS::SSM::Parameter::Name" parameters
-- opts = { region = ..., account = ... } (defaults: the sim's).

local world = require("sim.world")
local public = require("sim.ssm_public")
local regex = require("sim.ssm_regex")
local values = require("moonstack.values")
local util = require("sim.cloudformation_util")

local A = {}

local copy = values.deep_copy
local function fail(message, code) require("sim").fail(message, code) end

local MAX_HISTORY = 100 -- SSM keeps the last 100 versions of a parameter
local MAX_VALUE = { Standard = 4096, Advanced = 8192 } -- characters, per tier
local MAX_VALUE_MEMBER = 32768 -- the API's own bound on Value, before any tier
local MAX_DESCRIPTION, MAX_ALLOWED_PATTERN = 1024, 1024

local BAD_NAME = "Parameter name: can't be prefixed with \"ssm\" (case-insensitive). If formed as a path, "
  .. "it can consist of sub-paths divided by slash symbol; each sub-path can be formed as a mix of "
  .. "letters, numbers and the following 3 symbols .-_"

local TYPES = { String = true, StringList = true, SecureString = true }
local TIERS = { Standard = true, Advanced = true, ["Intelligent-Tiering"] = true }
local DATA_TYPES = { text = true, ["aws:ec2:image"] = true, ["aws:ssm:integration"] = true }

local function invalid(value, field, constraint)
  local shown = value == nil and "null" or ("'" .. tostring(value) .. "'")
  fail("1 validation error detected: Value " .. shown .. " at '" .. field
    .. "' failed to satisfy constraint: " .. constraint, "ValidationException")
end

-- The number of characters of UTF-8 `s` (AWS's lengths count characters).
local function chars(s)
  return #s - select(2, s:gsub("[\128-\191]", ""))
end

local function check_max_length(value, field, max)
  if value ~= nil and type(value) == "string" and #value > max and chars(value) > max then
    invalid(value, field, "Member must have length less than or equal to " .. max)
  end
end

-- A value fits its tier (Intelligent-Tiering has already picked one).
local function check_value_size(value, tier)
  if #value <= MAX_VALUE.Standard then return end
  local n = chars(value)
  if n > MAX_VALUE_MEMBER then
    fail("1 validation error detected: Value at 'value' failed to satisfy constraint: Member must have length "
      .. "less than or equal to " .. MAX_VALUE_MEMBER, "ValidationException")
  end
  if tier == "Standard" and n > MAX_VALUE.Standard then
    fail("Standard tier parameters support a maximum parameter value of 4096 characters. To create a larger "
      .. "parameter value, upgrade the parameter to use the advanced-parameter tier. For more information, see "
      .. "https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-advanced-parameters.html",
      "ValidationException")
  end
  if n > MAX_VALUE.Advanced then
    fail("Advanced tier parameters support a maximum parameter value of 8192 characters.", "ValidationException")
  end
end

-- A name a user may write: letters, digits, _ . - and / as the path
-- separator (a path starts with "/", has no empty segment), not starting
-- with aws or ssm.
local function check_name(name)
  if name == nil then invalid(nil, "name", "Member must not be null") end
  if type(name) ~= "string" or name == "" then
    invalid(name, "name", "Member must have length greater than or equal to 1")
  end
  if #name > 2048 then invalid(name, "name", "Member must have length less than or equal to 2048") end
  local bare = name:gsub("^/", "")
  if not name:match("^[%w_%.%-/]+$") or name:find("//", 1, true)
      or (name:find("/", 1, true) and name:sub(1, 1) ~= "/") or name:sub(-1) == "/"
      or bare:lower():match("^aws") or bare:lower():match("^ssm") then
    fail(BAD_NAME, "ValidationException")
  end
  return name
end

-- A name to look up: the same characters; public names are allowed here.
local function check_lookup(name)
  if name == nil then invalid(nil, "name", "Member must not be null") end
  if type(name) ~= "string" or name == "" or not name:match("^[%w_%.%-/:]+$") then
    fail(BAD_NAME, "ValidationException")
  end
  return name
end

local function key(env, name) return env.region .. ":" .. name end

-- A stored parameter, with its lists ready to grow (see util.as_list).
local function load_param(k)
  local rec = world.get("ssm.parameter", k)
  if rec then rec.History, rec.Tags = util.as_list(rec.History), util.as_list(rec.Tags) end
  return rec
end

local function arn(env, name, account)
  return "arn:aws:ssm:" .. env.region .. ":" .. (account or env.account) .. ":parameter"
    .. (name:sub(1, 1) == "/" and name or ("/" .. name))
end

local function now_seconds(env) return math.floor(env.now_ms / 1000) end

-- The Parameter shape of GetParameter; `version` = one entry of the history.
local function parameter_view(env, rec, version, selector)
  local v = {
    Name = rec.Name, Type = version.Type, Value = version.Value, Version = version.Version,
    LastModifiedDate = version.LastModifiedDate, ARN = arn(env, rec.Name), DataType = version.DataType,
  }
  if selector then v.Selector = selector end
  return v
end

-- The public parameter `name` as a record, or nil.
local function public_record(env, name)
  local id = public.image_id(name, env.region)
  if not id then return nil end
  local version = { Version = 1, Value = id, Type = "String", DataType = "text", LastModifiedDate = 0, Tier = "Standard" }
  return { Name = name, Public = true, History = { version } }, version
end

-- A stored or public parameter by name ("name" or "name:version").
local function lookup(env, spec)
  local name, sel = spec:match("^(.-):(%d+)$")
  if not name then name = spec end
  local rec = load_param(key(env, name))
  if not rec then rec = public_record(env, name) end
  if not rec then return nil end
  local version = rec.History[#rec.History]
  if sel then
    version = nil
    for _, h in ipairs(rec.History) do
      if h.Version == tonumber(sel) then version = h end
    end
    if not version then return nil end
    return rec, version, ":" .. sel
  end
  return rec, version
end

local function not_found() fail("", "ParameterNotFound") end

local function check_tags(tags)
  local out = {}
  for _, t in ipairs(tags or {}) do
    if type(t) ~= "table" or type(t.Key) ~= "string" or t.Key == "" then
      invalid(nil, "tags.member.key", "Member must not be null")
    end
    out[#out + 1] = { Key = t.Key, Value = t.Value == nil and "" or tostring(t.Value) }
  end
  return out
end

function A.PutParameter(p, env)
  local name = check_name(p.Name)
  if p.Value == nil then invalid(nil, "value", "Member must not be null") end
  local value = type(p.Value) == "string" and p.Value or tostring(p.Value)
  check_max_length(p.Description, "description", MAX_DESCRIPTION)
  check_max_length(p.AllowedPattern, "allowedPattern", MAX_ALLOWED_PATTERN)
  if p.Type ~= nil and not TYPES[p.Type] then
    invalid(p.Type, "type", "Member must satisfy enum value set: [SecureString, StringList, String]")
  end
  if p.Tier ~= nil and not TIERS[p.Tier] then
    invalid(p.Tier, "tier", "Member must satisfy enum value set: [Advanced, Intelligent-Tiering, Standard]")
  end
  if p.DataType ~= nil and not DATA_TYPES[p.DataType] then
    fail("The following data type is not supported: " .. tostring(p.DataType)
      .. " (Data type names are all lowercase.)", "ValidationException")
  end
  local overwrite = p.Overwrite == true or p.Overwrite == "true"
  if overwrite and p.Tags and #p.Tags > 0 then
    fail("Invalid request: tags and overwrite can't be used together. To create a parameter with tags, "
      .. "please remove overwrite flag. To update tags for an existing parameter, please use "
      .. "AddTagsToResource or RemoveTagsFromResource.", "ValidationException")
  end
  local k = key(env, name)
  local rec = load_param(k)
  if rec and not overwrite then
    fail("The parameter already exists. To overwrite this value, set the overwrite option in the request to true.",
      "ParameterAlreadyExists")
  end
  local last = rec and rec.History[#rec.History]
  local typ = p.Type or (last and last.Type)
  if typ == nil then fail("A parameter type is required when you create a parameter.", "ValidationException") end
  -- Left out on an overwrite, AllowedPattern and Description keep their
  -- values; "" clears them.
  local pattern = p.AllowedPattern
  if pattern == nil and rec then pattern = rec.AllowedPattern end
  if pattern == "" then pattern = nil end
  local description = p.Description
  if description == nil and rec then description = rec.Description end
  if description == "" then description = nil end
  if pattern ~= nil then
    -- A pattern this sim cannot evaluate is not enforced (see sim.ssm_regex).
    if regex.test(pattern, value) == false then
      fail("Parameter value, cannot be validated against allowedPattern: " .. pattern,
        "ParameterPatternMismatchException")
    end
  end
  -- Intelligent-Tiering picks Advanced only when Standard cannot hold the
  -- parameter (a value over 4 KB, or policies).
  local tier = p.Tier or (rec and rec.Tier) or "Standard"
  if tier == "Intelligent-Tiering" then
    tier = (chars(value) > MAX_VALUE.Standard or (p.Policies and p.Policies ~= "")) and "Advanced"
      or ((rec and rec.Tier) or "Standard")
  end
  check_value_size(value, tier)
  local version = {
    Version = last and (last.Version + 1) or 1, Value = value, Type = typ,
    DataType = p.DataType or (last and last.DataType) or "text", LastModifiedDate = now_seconds(env),
    Description = description, Tier = tier,
  }
  if not rec then
    rec = { Name = name, History = {}, Tags = check_tags(p.Tags) }
  end
  rec.Description = version.Description
  rec.AllowedPattern = pattern
  rec.Tier = tier
  rec.Policies = p.Policies or rec.Policies
  rec.History[#rec.History + 1] = version
  while #rec.History > MAX_HISTORY do table.remove(rec.History, 1) end
  world.put("ssm.parameter", k, rec)
  return { Version = version.Version, Tier = tier }
end

function A.GetParameter(p, env)
  local rec, version, sel = lookup(env, check_lookup(p.Name))
  if not rec then not_found() end
  return { Parameter = parameter_view(env, rec, version, sel) }
end

function A.GetParameters(p, env)
  local found, invalid_names = {}, {}
  for _, name in ipairs(p.Names or {}) do
    local rec, version, sel = lookup(env, check_lookup(name))
    if rec then found[#found + 1] = parameter_view(env, rec, version, sel)
    else invalid_names[#invalid_names + 1] = name end
  end
  return { Parameters = found, InvalidParameters = invalid_names }
end

function A.GetParameterHistory(p, env)
  local name = check_lookup(p.Name)
  local rec = load_param(key(env, name)) or public_record(env, name)
  if not rec then not_found() end
  local out = {}
  for i, h in ipairs(rec.History) do
    out[i] = {
      Name = rec.Name, Type = h.Type, Value = h.Value, Version = h.Version,
      LastModifiedDate = h.LastModifiedDate, Description = h.Description,
      AllowedPattern = rec.AllowedPattern, Tier = h.Tier, DataType = h.DataType, Labels = {}, Policies = {},
    }
  end
  return { Parameters = out }
end

function A.DeleteParameter(p, env)
  local name = check_lookup(p.Name)
  if not world.remove("ssm.parameter", key(env, name)) then not_found() end
  return {}
end

function A.DeleteParameters(p, env)
  local deleted, invalid_names = {}, {}
  for _, name in ipairs(p.Names or {}) do
    if world.remove("ssm.parameter", key(env, check_lookup(name))) then deleted[#deleted + 1] = name
    else invalid_names[#invalid_names + 1] = name end
  end
  return { DeletedParameters = deleted, InvalidParameters = invalid_names }
end

-- Metadata of DescribeParameters (no value).
local function metadata(env, rec)
  local last = rec.History[#rec.History]
  return {
    Name = rec.Name, ARN = arn(env, rec.Name), Type = last.Type, Version = last.Version,
    LastModifiedDate = last.LastModifiedDate, Description = rec.Description,
    AllowedPattern = rec.AllowedPattern, Tier = rec.Tier or "Standard", Policies = {},
    DataType = last.DataType,
  }
end

-- The parameter names of this region that start with `start` (all when
-- nil), sorted: a range of the world's ordered ids ("<region>:<name>").
local function all_names(env, start)
  local prefix = env.region .. ":"
  local names = {}
  for _, id in ipairs(world.ids("ssm.parameter", true, prefix .. (start or ""))) do
    names[#names + 1] = id:sub(#prefix + 1)
  end
  return names
end

local function under_path(name, path, recursive)
  if path:sub(-1) ~= "/" then path = path .. "/" end
  if name:sub(1, #path) ~= path then return false end
  return recursive or not name:sub(#path + 1):find("/", 1, true)
end

-- DescribeParameters: ParameterFilters with Key Name (Equals/BeginsWith),
-- Path (OneLevel/Recursive), Type (Equals); the old Filters (Name, Type) too.
local function keep(name, rec, filters)
  for _, f in ipairs(filters) do
    local key_, option, vals = f.Key, f.Option or "Equals", f.Values or {}
    local hit = false
    for _, v in ipairs(vals) do
      if key_ == "Name" then
        if option == "BeginsWith" then hit = hit or name:sub(1, #v) == v
        elseif option == "Contains" then hit = hit or name:find(v, 1, true) ~= nil
        else hit = hit or name == v or name == "/" .. v end
      elseif key_ == "Path" then
        hit = hit or under_path(name, v, option == "Recursive")
      elseif key_ == "Type" then
        hit = hit or rec.History[#rec.History].Type == v
      else
        hit = true
      end
    end
    if not hit then return false end
  end
  return true
end

function A.DescribeParameters(p, env)
  local filters = {}
  for _, f in ipairs(p.ParameterFilters or {}) do filters[#filters + 1] = f end
  for _, f in ipairs(p.Filters or {}) do
    filters[#filters + 1] = { Key = f.Key, Option = f.Key == "Name" and "BeginsWith" or "Equals", Values = f.Values }
  end
  local out = {}
  for _, name in ipairs(all_names(env)) do
    local rec = load_param(key(env, name))
    if keep(name, rec, filters) then out[#out + 1] = metadata(env, rec) end
  end
  return { Parameters = out }
end

function A.GetParametersByPath(p, env)
  local path = p.Path
  if type(path) ~= "string" or path:sub(1, 1) ~= "/" then
    -- The newer wording of SSM's name rule (aws-samples/resource-autotagger#1).
    fail("The parameter doesn't meet the parameter name requirements. The parameter name must begin "
      .. "with a forward slash \"/\". It can't be prefixed with \"aws\" or \"ssm\" (case-insensitive). "
      .. "It must use only letters, numbers, or the following symbols: . (period), - (hyphen), "
      .. "_ (underscore). Special characters are not allowed. All sub-paths, if specified, must use "
      .. "the forward slash symbol \"/\". Valid example: /get/parameters2-/by1./path0_.", "ValidationException")
  end
  local recursive = p.Recursive == true or p.Recursive == "true"
  local out = {}
  for _, name in ipairs(all_names(env, path:sub(-1) == "/" and path or path .. "/")) do
    if under_path(name, path, recursive) then
      local rec = load_param(key(env, name))
      out[#out + 1] = parameter_view(env, rec, rec.History[#rec.History])
    end
  end
  if path:sub(1, #public.PREFIX) == public.PREFIX or public.PREFIX:sub(1, #path) == path then
    local known = {}
    for _, name in ipairs(public.KNOWN) do known[#known + 1] = name end
    table.sort(known)
    for _, name in ipairs(known) do
      if under_path(name, path, recursive) then
        local rec, version = public_record(env, name)
        out[#out + 1] = parameter_view(env, rec, version)
      end
    end
  end
  return { Parameters = out }
end

-- Tags (ResourceType "Parameter", ResourceId = the name) --------------------------------

local function tagged(p, env)
  if p.ResourceType ~= "Parameter" then
    invalid(p.ResourceType, "resourceType",
      "Member must satisfy enum value set: [Parameter]")
  end
  local name = check_lookup(p.ResourceId)
  local rec = load_param(key(env, name))
  if not rec then
    fail("Parameter " .. name .. " not found.", "InvalidResourceId")
  end
  return rec, key(env, name)
end

function A.AddTagsToResource(p, env)
  local rec, k = tagged(p, env)
  local at = {}
  for i, t in ipairs(rec.Tags) do at[t.Key] = i end
  for _, t in ipairs(check_tags(p.Tags)) do
    if at[t.Key] then rec.Tags[at[t.Key]].Value = t.Value
    else rec.Tags[#rec.Tags + 1] = t; at[t.Key] = #rec.Tags end
  end
  world.put("ssm.parameter", k, rec)
  return {}
end

function A.RemoveTagsFromResource(p, env)
  local rec, k = tagged(p, env)
  local drop = {}
  for _, key_ in ipairs(p.TagKeys or {}) do drop[key_] = true end
  local out = {}
  for _, t in ipairs(rec.Tags) do if not drop[t.Key] then out[#out + 1] = t end end
  rec.Tags = out
  world.put("ssm.parameter", k, rec)
  return {}
end

function A.ListTagsForResource(p, env)
  local rec = tagged(p, env)
  return { TagList = copy(rec.Tags) }
end

-- Helpers for the engine -------------------------------------------------------------------

local function env_of(opts)
  local sim = require("sim")
  opts = opts or {}
  return { region = opts.region or sim.DEFAULT_REGION, account = opts.account or sim.DEFAULT_ACCOUNT }
end

---The value of parameter `name` ("name" or "name:version") as
---{{resolve:ssm:...}} and AWS::SSM::Parameter::Value<...> see it (a
---StringList's comma-separated text), or nil when there is no such
---parameter.
---@param name string
---@param opts { region: string?, account: string? }?
---@return string?
function A.resolve(name, opts)
  if type(name) ~= "string" or name == "" then return nil end
  local env = env_of(opts)
  return world.atomic(function()
    local rec, version = lookup(env, name)
    return rec and version.Value or nil
  end)
end

---The value of SecureString parameter `name` ("name" or "name:version") as
---{{resolve:ssm-secure:...}} sees it, or nil when there is no such
---SecureString parameter (a String one included: AWS resolves only secure
---strings there).
---@param name string
---@param opts { region: string?, account: string? }?
---@return string?
function A.resolve_secure(name, opts)
  if type(name) ~= "string" or name == "" then return nil end
  local env = env_of(opts)
  return world.atomic(function()
    local rec, version = lookup(env, name)
    if not rec or (version.Type or rec.Type) ~= "SecureString" then return nil end
    return version.Value
  end)
end

---For the engine's check of AWS-specific parameter types: true / false for
---"AWS::SSM::Parameter::Name", nil for a type SSM does not answer.
---@param kind string
---@param value string
---@param opts { region: string?, account: string? }?
---@return boolean?
function A.exists(kind, value, opts)
  if kind ~= "AWS::SSM::Parameter::Name" then return nil end
  return A.resolve(value, opts) ~= nil
end

return A
