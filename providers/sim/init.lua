-- sim: the simulated cloud the built-in providers run against.
--
-- Each service is a module `sim.<service>` (ec2, iam, ssm, cloudformation)
-- returning a table of ACTIONS named exactly as AWS names them
-- (RunInstances, DeleteSecurityGroup, ...). An action takes AWS's request
-- shape as a Lua table and returns AWS's response shape; it fails by raising
-- `sim.fail(message, code)` with AWS's message and error code, e.g.
--   sim.fail("resource sg-0da0f86b has a dependent object", "DependencyViolation")
--
-- State lives in the world store (`moonstack.world`, see
-- lua-sdk/moonstack/world_memory.lua for its contract), shared by every
-- worker and persisted by the host. Every action runs inside
-- `world.atomic`, so an action's checks and writes are one step no other
-- worker interleaves with.
--
--   local sim = require("sim")
--   local aws = sim.client(ctx)       -- ctx: region, account (optional)
--   local r = aws.ec2.RunInstances{ ImageId = "ami-...", MinCount = 1, MaxCount = 1 }
--   sim.call("ec2", "TerminateInstances", { InstanceIds = { id } })
--
-- Service modules get an `env` as their second argument:
--   env.region, env.account, env.now_ms (the world clock), env.new_id(kind, ...)
--   (a deterministic ID from the world's shared generator: "instance",
--   "security_group", "role_id", ... or ("hex", 8), ("upper_alnum", 13) —
--   the methods of moonstack.ids, with their arguments), env.caller
--   ("cloudformation" for a provider hook's client, else nil: see S.client).

local errors = require("moonstack.errors")
local ids = require("moonstack.ids")
local world = require("moonstack.world")
local scoped_world = require("sim.world")

local S = {}

S.DEFAULT_REGION = "us-east-1"
S.DEFAULT_ACCOUNT = "123456789012"
S.SERVICES = { "ec2", "iam", "ssm", "cloudformation", "custom_resources", "elasticache", "opensearch", "es", "lambda", "codedeploy", "appstream",
  "autoscaling", "s3", "sqs", "sns", "logs", "events", "kms", "sts",
  "secretsmanager", "dynamodb", "states", "background" }

---Raises AWS's error: `message` is AWS's text, `code` its error code.
---@param message string
---@param code string
function S.fail(message, code) errors.fail(message, code) end

-- The world's ID generator: its state is a world record ("sim", "ids"), so
-- every worker draws from one sequence and a replay with the same seed gives
-- the same IDs. The world draws (world.draw, world.uniform: in C++ under the
-- host, host/lua/world_ids.h), each draw one step on the record: no action
-- reads, restores and writes back the generator itself.
local generator = ids.backed(world.draw, world.uniform)

local function new_id(kind, ...)
  local method = generator[kind]
  if type(method) ~= "function" then error("sim: no ID kind " .. tostring(kind), 2) end
  return method(generator, ...)
end
S.new_id = new_id

---Whether an ARN or an SQS queue URL names an account other than the
---action's: the services key their records by name in the action's account
---(sim/world.lua), so a lookup by another account's ARN answers the
---service's "does not exist" instead of finding the caller's namesake.
---@param env table the action's env
---@param ref any an ARN, a URL, a bare name or ID
---@return boolean
function S.other_account(env, ref)
  if type(ref) ~= "string" then return false end
  local account = ref:match("^arn:[^:]*:[^:]*:[^:]*:(%d+):") or ref:match("^https?://[^/]+/(%d+)/")
  return account ~= nil and account ~= env.account
end

---Seeds the world's ID generator (scenarios, tests).
function S.seed(seed)
  world.atomic(function() world.put("sim", "ids", ids.new(seed):state()) end)
end

local loaded = {}  -- service name -> module: every action looks its service up

local function service(name)
  local mod = loaded[name]
  if mod then return mod end
  local ok
  ok, mod = pcall(require, "sim." .. name)
  if not ok then
    if type(mod) == "string" and mod:find("module 'sim%." .. name .. "' not found", 1, false) then
      S.fail("Unknown service " .. name, "UnknownService")
    end
    error(mod, 0)
  end
  loaded[name] = mod
  -- A state saved before the service kept an index gets it once (sim/indexes.lua).
  require("sim.indexes").backfill(mod)
  return mod
end

local invoke, run_action  -- below S.call
local tries  -- below S.client
local in_action = false  -- true while an S.call's action runs (an action's action runs inside it)
-- What run_action answers for an action that raised, with the error: the
-- error leaves world.atomic as a value and is raised again (or, for
-- S.try_call, returned) outside it. Each raise is a C++ unwind of every
-- frame between it and its pcall: a lookup that finds nothing raised three
-- times on its way to the provider's pcall (in the action, out of
-- run_action, out of world.atomic), and the two that S.try_call saves were
-- a third of its cost (bench_lua_ssm_parameter's name check: 11-15 us, then 8.2-8.4).
local FAILED = {}

---Runs one action atomically.
---@param svc string "ec2", "iam", "ssm", "cloudformation"
---@param action string AWS's action name
---@param params table? AWS's request shape
---@param opts table? { region =, account =, caller = }
function S.call(svc, action, params, opts)
  local result, err = invoke(svc, action, params, opts)
  if result == FAILED then error(err, 0) end
  return result
end

---S.call, answering the error an action raised as a second value (nil, err)
---instead of raising it: for a caller that expects an error (a lookup of
---what may not be there), as `pcall(S.call, ...)` would, without the error's
---trip through world.atomic. A bad service or action still raises.
function S.try_call(svc, action, params, opts)
  local result, err = invoke(svc, action, params, opts)
  if result == FAILED then return nil, err end
  return result
end

-- S.call's work: the action's result, or FAILED and its error.
function invoke(svc, action, params, opts)
  local mod = service(svc)
  local fn = type(action) == "string" and action:match("^%u") and rawget(mod, action)
  if type(fn) ~= "function" then
    S.fail("The action " .. tostring(action) .. " is not valid for this web service.", "InvalidAction")
  end
  if params ~= nil and type(params) ~= "table" then
    S.fail("Request parameters must be an object", "ValidationError")
  end
  opts = opts or {}
  local env = {
    region = opts.region or S.DEFAULT_REGION,
    account = opts.account or S.DEFAULT_ACCOUNT,
    caller = opts.caller,
    new_id = new_id,
  }
  -- The action sees the records of its account (sim/world.lua): the same
  -- queue name in two accounts is two queues.
  return scoped_world.with_account(env.account, run_action, mod, action, fn, params, env)
end

-- S.call's action body, run in the action's account.
function run_action(mod, action, fn, params, env)
  -- An action a service lists in UNLOCKED takes the world's lock itself,
  -- around its reads and writes only: Lambda's Invoke runs a function for
  -- seconds, and the function's own calls (under serve) need the world.
  local unlocked = rawget(mod, "UNLOCKED")
  if type(unlocked) == "table" and unlocked[action] and not in_action then
    env.now_ms = world.now_ms()
    local ok, result = pcall(fn, params or {}, env)
    if not ok then return FAILED, result end
    return result
  end
  return world.atomic(function()
    env.now_ms = world.now_ms()
    if in_action then return fn(params or {}, env) end  -- an action's action: its error is the outer one's
    in_action = true
    local ok, result = pcall(fn, params or {}, env)
    in_action = false
    if not ok then return FAILED, result end
    return result
  end)
end

-- A client action's function -> its S.try_call twin (S.try_of). Weak keys:
-- a client's functions live as long as the client.
tries = setmetatable({}, { __mode = "k" })

---A client for hooks: `aws.ec2.RunInstances{...}`. `ctx` gives the region
---and account (a hook's ctx, or nil for the defaults). `caller` is who
---calls: "cloudformation" for the client a provider hook gets (ctx.world),
---which may do what only CloudFormation itself does, as on AWS — put its
---reserved aws:cloudformation:* tags on what it creates, where a service
---refuses aws: tag keys from anyone else (EC2's TagSpecifications).
---@param ctx { region: string?, account: string? }?
---@param caller string?
---@return sim.Client
function S.client(ctx, caller)
  local opts = { region = ctx and ctx.region, account = ctx and ctx.account, caller = caller }
  if opts.region == "" then opts.region = nil end
  if opts.account == "" then opts.account = nil end
  local client = {}
  for _, name in ipairs(S.SERVICES) do
    client[name] = setmetatable({}, {
      -- Made once per action name and kept: hooks call the same few.
      __index = function(service, action)
        local call = function(params) return S.call(name, action, params, opts) end
        tries[call] = function(params) return S.try_call(name, action, params, opts) end
        rawset(service, action, call)
        return call
      end,
    })
  end
  return client
end

---The non-raising twin of a client's action function (`aws.ssm.GetParameter`):
---it answers `result` or `nil, err` as S.try_call does. Nil for any other
---function. `pcall(fn, req)` on a client action gives the same answers, and
---costs its error's unwinds through world.atomic.
---@param fn function
---@return function?
function S.try_of(fn) return tries[fn] end

---fn(req)'s result, or nil and the error it raised: a client action's
---through its non-raising twin (S.try_of), any other function's through pcall.
---@param fn function
---@param req table?
---@return any result, any err
function S.attempt(fn, req)
  local try = tries[fn]
  if try then return try(req) end
  local ok, r = pcall(fn, req)
  if ok then return r end
  if r == nil then r = false end  -- error(nil): still an error
  return nil, r
end

return S
