-- moonstack.host: what the C++ provider host (host/lua/provider_host.cc)
-- calls. Provider code never uses it.
--
-- Keeping this in Lua keeps the C++ side to plain values: every function
-- here takes and returns data the host marshals (no functions cross), and
-- raises on failure; the host turns the error into a failed outcome.

local P = require("moonstack.provider")
local values = require("moonstack.values")
local registry = require("moonstack.registry_schema")

local H = {}

---Runs a provider file's source and returns its declaration. Raises
---"<path>: ..." when the file fails to load or does not declare a type.
---@param code string the file's text
---@param path string the file, for messages
---@return moonstack.Declaration
function H.load(code, path)
  -- Each provider file gets its own global table, so a global one provider
  -- sets is not another's. A copy rather than an __index to _G: a global
  -- read stays one plain table lookup on the hot path.
  local env = {}
  for k, v in pairs(_G) do env[k] = v end
  env._G = env
  local chunk, err = load(code, "@" .. path, "t", env)
  if not chunk then error(err, 0) end
  local previous = P.set_source(path)
  local ok, decl = pcall(chunk)
  P.set_source(previous)
  if not ok then error(decl, 0) end
  if not P.is_declaration(decl) then
    error(path .. ": a provider file must return P.define{...}", 0)
  end
  return decl
end

---The declaration as plain data: what the engine's TypeSchema holds.
---@param decl moonstack.Declaration
function H.describe(decl)
  local props = {}
  for i, p in ipairs(decl.properties) do
    props[i] = {
      name = p.name,
      type = p.type,
      items = p.items,
      required = p.required == true,
      update = p.update,  -- a behaviour, or "conditional"
      default = p.default,  -- what validation fills in when the template omits it
      write_only = p.write_only == true,
      -- The registry schema of the property less its type: minimum, enum,
      -- pattern, properties of an object, ... (nil when none).
      constraints = registry.constraints_of(p),
    }
  end
  return {
    type = decl.type,
    source = decl.source,
    attributes = decl.attributes,
    primary_identifier = decl.primary_identifier,
    primary_identifiers = decl.primary_identifiers,
    additional_properties = decl.additional_properties,
    any_attributes = decl.any_attributes == true,
    leaves_partial_updates = decl.leaves_partial_updates == true,
    timeout_minutes = decl.timeout_minutes,
    has_read = decl.read ~= nil,
    properties = props,
  }
end

---The constraints of the registry schema `schema` (one type's) a provider
---of an AWS type does not declare itself, added
---(Declaration:adopt_registry_constraints). With a validator (the host
---passes providers/lib's schema_validate when it has one), the nested ones
---of each property the provider takes as plain JSON too:
---`validator.check_value(schema, property_schema, value, path, errors)`
---appends the registry's messages.
function H.adopt_registry_constraints(decl, schema, validator)
  if type(schema) ~= "table" or type(schema.properties) ~= "table" then return end
  local properties, nested = schema.properties, nil
  if type(validator) == "table" and type(validator.check_value) == "function" then
    nested = function(name, value)
      local errs = {}
      validator.check_value(schema, properties[name], value, "#/" .. name, errs)
      return errs
    end
  end
  decl:adopt_registry_constraints(properties, nested)
end

function H.validate(decl, props, ctx)
  return decl:validate(props, ctx)
end


-- The simulated cloud's client, when the providers' `sim` package is on the
-- module path (it is for the built-in providers/): ctx.world.ec2.RunInstances{...}.
-- One client per region and account, made once: hooks run often. Every
-- provider of the state gets the same one, so it is read-only, its service
-- tables too (`ctx.world.ssm.GetParameter = f` raises).
local sim_loaded, sim
local clients = {}

local function read_only(client)
  local services = {}
  for name, service in pairs(client) do services[name] = values.freeze(service, "ctx.world." .. name) end
  return values.freeze(services, "ctx.world")
end
local function sim_client(ctx)
  if sim_loaded == nil then
    sim_loaded, sim = pcall(require, "sim")
  end
  if not sim_loaded then return nil end
  -- Nested lookups, not a concatenated key: no string is made per call.
  local region, account = ctx.region or "", ctx.account or ""
  local by_account = clients[region]
  if by_account == nil then
    by_account = {}
    clients[region] = by_account
  end
  local c = by_account[account]
  if c == nil then
    c = read_only(sim.client(ctx, "cloudformation"))  -- hooks act as CloudFormation
    by_account[account] = c
  end
  return c
end

-- The logger every hook's ctx.log is: its lines go to the session running
-- the hook (host/lua/log_binding.h), which hands them to the engine with the
-- hook's answer: the operation's provider log (moonstack.log's host()).
local logger = require("moonstack.log").host("ctx.log")

local function with_defaults(ctx)
  ctx.log = ctx.log or logger
  if ctx.world == nil then ctx.world = sim_client(ctx) end
  return ctx
end

-- The provider's update-behaviour function for one property, with ctx.world
-- and the resource's whole properties (an instance type change depends on
-- the ImageId).
function H.decide_update(decl, name, old, new, ctx, old_props, new_props)
  return decl:update_behavior(name, old, new, with_defaults(ctx), old_props, new_props)
end

---Runs one hook and describes what came back:
---  { state = "done", id = ..., attributes = {...}, properties = {...} } (read: gone = true when nil)
---  { state = "in_progress", after = seconds, progress = {...}, reasons = {...} }
---@param decl moonstack.Declaration
---@param hook "create"|"update"|"delete"|"rollback"|"read"
function H.call(decl, hook, ctx, id, props, old, changed)
  ctx = with_defaults(ctx)
  local fn = decl[hook]
  if fn == nil then
    if hook == "read" then return { state = "done" } end
    error((decl.source or decl.type) .. ": no " .. hook .. " hook", 0)
  end
  local r
  if hook == "create" then
    r = fn(ctx, props)
  elseif hook == "delete" or hook == "read" then
    r = fn(ctx, id, props)
  else  -- update, rollback: (ctx, id, new, old, changed)
    r = fn(ctx, id, props, old, changed)
  end
  r = decl:check_result(hook, r)
  if P.is_in_progress(r) then
    return { state = "in_progress", after = r.after, progress = r.context, id = r.id, reasons = r.reasons }
  end
  local out = { state = "done" }
  -- read: nil is "the resource is gone"; the engine hears cloudformation-cli's
  -- NotFound (provider_host.cc). Without a read hook: done with no properties.
  if hook == "read" and r == nil then out.gone = true end
  if r ~= nil then
    out.id, out.attributes, out.properties = r.id, r.attributes, r.properties
  end
  return out
end

-- The simulated services that answer the engine's world questions.
local function sim_service(name)
  local ok, mod = pcall(require, "sim." .. name)
  return ok and type(mod) == "table" and mod or nil
end

-- Runs fn(opts) with the world scoped to `account` (providers/sim/world.lua):
-- the engine asks in the stack's region and account, and the simulated
-- cloud is per account. opts = { region =, account = } for the service.
local function in_account(region, account, fn)
  if account == "" then account = nil end
  local opts = { region = region, account = account }
  local scoped = sim_service("world")
  if scoped and type(scoped.with_account) == "function" then return scoped.with_account(account, fn, opts) end
  return fn(opts)
end

---Whether an AWS-specific parameter value exists (the engine's check when a
---workflow starts): the first simulated service that knows the type answers;
---true when none does.
function H.value_exists(aws_type, value, region, account)
  return in_account(region, account, function(opts)
    for _, name in ipairs({ "ec2", "ssm" }) do
      local mod = sim_service(name)
      if mod and type(mod.exists) == "function" then
        local answer = mod.exists(aws_type, value, opts)
        if answer ~= nil then return answer end
      end
    end
    return true
  end)
end

---The value of an SSM parameter, or nil.
function H.ssm_parameter(name, region, account)
  local mod = sim_service("ssm")
  if not (mod and type(mod.resolve) == "function") then return nil end
  return in_account(region, account, function(opts) return mod.resolve(name, opts) end)
end

---The value of a SecureString SSM parameter ({{resolve:ssm-secure:...}}), or nil.
function H.ssm_secure_parameter(name, region, account)
  local mod = sim_service("ssm")
  if not (mod and type(mod.resolve_secure) == "function") then return nil end
  return in_account(region, account, function(opts) return mod.resolve_secure(name, opts) end)
end

---A secret's SecretString ({{resolve:secretsmanager:...}}): {SecretString = text},
---or {Message = Secrets Manager's text}.
function H.secret_string(id, stage, version_id, region, account)
  local mod = sim_service("secretsmanager")
  if not mod then return { Message = "Secrets Manager can't find the specified secret." } end
  local value, why = in_account(region, account, function(opts)
    return mod.resolve(id, stage ~= "" and stage or nil, version_id ~= "" and version_id or nil, opts)
  end)
  if value then return { SecretString = value } end
  return { Message = why }
end

---An object of the simulated S3 (a TemplateURL's template, an AWS::Include
---snippet), read with its GetObject as `account` (the stack's; another
---account's bucket must grant it in its policy): {Body = text}, or
---{Code = S3's error code, Message = its text}.
function H.s3_object(bucket, key, account)
  local ok_sim, sim = pcall(require, "sim")
  if not ok_sim or type(sim) ~= "table" then
    return { Code = "NoSuchBucket", Message = "The specified bucket does not exist" }
  end
  if account == "" then account = nil end
  local ok, r = pcall(sim.call, "s3", "GetObject", { Bucket = bucket, Key = key }, { account = account })
  if ok then return { Body = require("sim.s3_body").result_bytes(r) } end
  if type(r) == "table" and r.message then return { Code = r.code or "InternalError", Message = r.message } end
  return { Code = "InternalError", Message = tostring(r) }
end

---Whether a bucket of `account` holds any object (false when it is not there).
function H.s3_bucket_has_objects(bucket, account)
  local ok_sim, sim = pcall(require, "sim")
  if not ok_sim or type(sim) ~= "table" then return false end
  if account == "" then account = nil end
  local ok, r = pcall(sim.call, "s3", "ListObjectsV2", { Bucket = bucket, MaxKeys = 1 }, { account = account })
  return ok and type(r) == "table" and (r.KeyCount or 0) > 0
end

return H
