-- sim.states: simulated AWS Step Functions (botocore "stepfunctions", JSON
-- target prefix AWSStepFunctions): state machines and their executions,
-- which really run the Amazon States Language definition
-- (sim/states/interpreter.lua) in simulated time.
--
--   CreateStateMachine { name, definition, roleArn, type, tags } -> { stateMachineArn, creationDate }
--   UpdateStateMachine { stateMachineArn, definition, roleArn } -> { updateDate }
--   DescribeStateMachine { stateMachineArn } -> { stateMachineArn, name, status, definition, roleArn, type, creationDate }
--   DeleteStateMachine { stateMachineArn } -> {}
--   ListStateMachines {} -> { stateMachines }
--   TagResource { resourceArn, tags = [{key, value}] } / UntagResource { resourceArn, tagKeys }
--   ListTagsForResource { resourceArn } -> { tags = [{key, value}] }   a machine's tags, by key
--   StartExecution { stateMachineArn, name, input } -> { executionArn, startDate }
--   DescribeExecution { executionArn } -> { executionArn, stateMachineArn, name, status, startDate, stopDate,
--                                          input, output, error, cause }
--   StopExecution { executionArn, error, cause } -> { stopDate }
--   ListExecutions { stateMachineArn, statusFilter } -> { executions }
--
-- Records: "states.machine" <ARN> (refs: none; a region's are the range of
-- ids under "arn:aws:states:<region>:<account>:stateMachine:"); "states.execution" <ARN>
-- (refs: its machine, so ListExecutions reads the referrers index);
-- "states.running" <execution ARN> while it runs, so the background work
-- (sim/background.lua) touches running executions only.
--
-- Time: an execution never runs on the thread of the call that started it.
-- StartExecution records it, due at once; it advances whenever the world
-- looks at it (DescribeExecution, ListExecutions) and whenever the
-- simulated cloud's background work runs (a custom resource waiting for a
-- late response runs it at each poll): each state whose moment has come is
-- run — a Task invokes its Lambda function then, a Retry or a Wait makes
-- the execution due IntervalSeconds (or Seconds) later on the world clock,
-- so under virtual time nothing waits in real time.
-- Messages: Step Functions' (StateMachineDoesNotExist "State Machine Does
-- Not Exist: '<arn>'", ExecutionDoesNotExist "Execution Does Not Exist:
-- '<arn>'", StateMachineAlreadyExists, ExecutionAlreadyExists,
-- InvalidDefinition, InvalidName). The tag actions name a resource, not a
-- machine: ResourceNotFound, as their API reference lists it ("Resource not
-- found: '<arn>'", moto's text; AWS's own is not on record).
local world = require("sim.world")
local decode = require("sim.json_decode")
local interpreter = require("sim.states.interpreter")

local A = {}
local MACHINE, EXECUTION, RUNNING = "states.machine", "states.execution", "states.running"

local function fail(message, code) require("sim").fail(message, code) end

local function machine_arn(env, name)
  return "arn:aws:states:" .. env.region .. ":" .. env.account .. ":stateMachine:" .. name
end

local function check_name(name, what)
  if type(name) ~= "string" or #name < 1 or #name > 80 or name:find("[%s<>{}%[%]%?%*\"#%%\\%^|~`%$&,;:/]")
      or name:find("[%z\1-\31\127]") then
    fail("Invalid " .. what .. " name: '" .. tostring(name) .. "'", "InvalidName")
  end
end

-- The definition's text checked: JSON, StartAt naming one of States, each
-- state's Type known.
local function check_definition(text)
  if type(text) ~= "string" or text == "" then
    fail("1 validation error detected: Value null at 'definition' failed to satisfy constraint: Member must not be null",
      "ValidationException")
  end
  local def, why = decode(text)
  if not def then fail("Invalid State Machine Definition: 'INVALID_JSON_DESCRIPTION: " .. why .. "'", "InvalidDefinition") end
  local problem = interpreter.check(def)
  if problem then fail("Invalid State Machine Definition: '" .. problem .. "'", "InvalidDefinition") end
  return def
end

local function load_machine(arn)
  local m = type(arn) == "string" and world.get(MACHINE, arn)
  if not m then fail("State Machine Does Not Exist: '" .. tostring(arn) .. "'", "StateMachineDoesNotExist") end
  return m
end

-- The machine a tag action names (TagResource, UntagResource,
-- ListTagsForResource), or their ResourceNotFound.
local function tagged_machine(arn)
  local m = type(arn) == "string" and world.get(MACHINE, arn)
  if not m then fail("Resource not found: '" .. tostring(arn) .. "'", "ResourceNotFound") end
  return m
end

-- A [{key, value}] list's tags onto machine `m`'s map (none: no map).
local function add_tags(m, list)
  for _, t in ipairs(list or {}) do
    m.tags = m.tags or {}
    m.tags[t.key] = t.value
  end
end

---A {k = v} map as Step Functions lists tags: [{key, value}], by key
---(ListTagsForResource; AWS::StepFunctions::StateMachine's create and update).
function A.tag_list(map)
  local out = {}
  for _, t in ipairs(require("moonstack.tags").from_map(map)) do out[#out + 1] = { key = t.Key, value = t.Value } end
  return out
end

local function seconds(ms) return ms and ms / 1000 or nil end

function A.CreateStateMachine(p, env)
  check_name(p.name, "State Machine")
  check_definition(p.definition)
  local arn = machine_arn(env, p.name)
  local old = world.get(MACHINE, arn)
  if old then
    if old.definition == p.definition and old.roleArn == p.roleArn then
      return { stateMachineArn = arn, creationDate = seconds(old.creationMs) }  -- idempotent, as AWS
    end
    fail("State Machine Already Exists: '" .. arn .. "'", "StateMachineAlreadyExists")
  end
  local m = { name = p.name, stateMachineArn = arn, definition = p.definition, roleArn = p.roleArn,
              type = p.type or "STANDARD", creationMs = env.now_ms, status = "ACTIVE" }
  add_tags(m, p.tags)
  world.put(MACHINE, arn, m)
  return { stateMachineArn = arn, creationDate = seconds(env.now_ms) }
end

function A.UpdateStateMachine(p, env)
  local m = load_machine(p.stateMachineArn)
  if p.definition ~= nil then
    check_definition(p.definition)
    m.definition = p.definition
  end
  if p.roleArn ~= nil then m.roleArn = p.roleArn end
  m.updateMs = env.now_ms
  world.put(MACHINE, m.stateMachineArn, m)
  return { updateDate = seconds(env.now_ms) }
end

function A.DescribeStateMachine(p)
  local m = load_machine(p.stateMachineArn)
  return { stateMachineArn = m.stateMachineArn, name = m.name, status = m.status, definition = m.definition,
           roleArn = m.roleArn, type = m.type, creationDate = seconds(m.creationMs) }
end

function A.TagResource(p)
  local m = tagged_machine(p.resourceArn)
  add_tags(m, p.tags)
  world.put(MACHINE, m.stateMachineArn, m)
  return {}
end

function A.UntagResource(p)
  local m = tagged_machine(p.resourceArn)
  for _, k in ipairs(p.tagKeys or {}) do (m.tags or {})[k] = nil end
  world.put(MACHINE, m.stateMachineArn, m)
  return {}
end

function A.ListTagsForResource(p)
  return { tags = A.tag_list(tagged_machine(p.resourceArn).tags) }
end

-- As AWS: deleting a machine that does not exist succeeds.
function A.DeleteStateMachine(p)
  if type(p.stateMachineArn) == "string" then world.remove(MACHINE, p.stateMachineArn) end
  return {}
end

-- The region's machines (AWS lists the caller's region only): their ARNs
-- are a range of ids, read as one.
function A.ListStateMachines(_, env)
  local out = {}
  for _, arn in ipairs(world.ids(MACHINE, false, machine_arn(env, ""))) do
    local m = world.get(MACHINE, arn)
    out[#out + 1] = { stateMachineArn = arn, name = m.name, type = m.type, creationDate = seconds(m.creationMs) }
  end
  return { stateMachines = out }
end

local function view(e)
  return { executionArn = e.executionArn, stateMachineArn = e.stateMachineArn, name = e.name, status = e.status,
           startDate = seconds(e.startMs), stopDate = seconds(e.stopMs), input = e.input, output = e.output,
           error = e.error, cause = e.cause }
end

local function save(e)
  world.put(EXECUTION, e.executionArn, e, { refs = { e.stateMachineArn } })
  if e.status == "RUNNING" then world.put(RUNNING, e.executionArn, { due_ms = e.cursor.due_ms })
  else world.remove(RUNNING, e.executionArn) end
end

function A.StartExecution(p, env)
  local m = load_machine(p.stateMachineArn)
  local name = p.name
  if name == nil then name = env.new_id("uuid") end
  check_name(name, "Execution")
  local input = p.input or "{}"
  local value, why = decode(input)
  if value == nil and why then
    fail("Invalid execution input: " .. why, "InvalidExecutionInput")
  end
  local arn = "arn:aws:states:" .. env.region .. ":" .. env.account .. ":execution:" .. m.name .. ":" .. name
  if world.get(EXECUTION, arn) then fail("Execution Already Exists: '" .. arn .. "'", "ExecutionAlreadyExists") end
  local e = { executionArn = arn, stateMachineArn = m.stateMachineArn, name = name, status = "RUNNING",
              startMs = env.now_ms, input = input, definition = m.definition, region = env.region,
              account = env.account, cursor = interpreter.start(decode(m.definition), value, env.now_ms) }
  save(e)
  return { executionArn = arn, startDate = seconds(env.now_ms) }
end

-- How long a worker's claim on an execution holds (`busy_until_ms`): Lambda's
-- longest timeout and a minute. The claim is in the world record, so a
-- process killed while advancing one would otherwise leave it claimed for
-- ever; past the lease, the next poll takes it over.
local BUSY_LEASE_MS = (900 + 60) * 1000

-- Advances one execution to the world clock, outside the world's lock
-- (its Tasks run Lambda functions). An execution another worker is
-- advancing is left to it until its lease ends.
local function advance(arn)
  local e = world.atomic(function()
    local e = world.get(EXECUTION, arn)
    local now = world.now_ms()
    if not e or e.status ~= "RUNNING" or (e.busy_until_ms or 0) > now or e.cursor.due_ms > now then return nil end
    e.busy_until_ms = now + BUSY_LEASE_MS
    world.put(EXECUTION, arn, e, { refs = { e.stateMachineArn } })
    return e
  end)
  if not e then return end
  local ok, why = pcall(interpreter.run, e, decode(e.definition), { region = e.region, account = e.account })
  world.atomic(function()
    local now = world.get(EXECUTION, arn)
    if now and now.status ~= "RUNNING" then e.status, e.stopMs, e.error, e.cause = now.status, now.stopMs, now.error,
        now.cause end  -- stopped meanwhile: StopExecution wins
    if not ok then
      e.status, e.stopMs, e.error, e.cause = "FAILED", world.now_ms(), "States.Runtime", tostring(why)
    end
    e.busy_until_ms = nil
    save(e)
  end)
end

-- The background work (sim/background.lua): advances every running
-- execution that is due; returns the next moment one is due, or nil.
function A.background()
  for _, arn in ipairs(world.ids(RUNNING)) do
    local r = world.get(RUNNING, arn)
    if r and r.due_ms <= world.now_ms() then advance(arn) end
  end
  local next_ms
  for _, arn in ipairs(world.ids(RUNNING)) do
    local r = world.get(RUNNING, arn)
    if r and (next_ms == nil or r.due_ms < next_ms) then next_ms = r.due_ms end
  end
  return next_ms
end

local function load_execution(arn)
  local e = type(arn) == "string" and world.get(EXECUTION, arn)
  if not e then fail("Execution Does Not Exist: '" .. tostring(arn) .. "'", "ExecutionDoesNotExist") end
  return e
end

function A.DescribeExecution(p)
  load_execution(p.executionArn)
  advance(p.executionArn)
  return view(load_execution(p.executionArn))
end

function A.StopExecution(p, env)
  local e = load_execution(p.executionArn)
  if e.status == "RUNNING" then
    e.status, e.stopMs, e.error, e.cause = "ABORTED", env.now_ms, p.error, p.cause
    save(e)
  end
  return { stopDate = seconds(e.stopMs) }
end

function A.ListExecutions(p)
  local m = load_machine(p.stateMachineArn)
  local out = {}
  for _, r in ipairs(world.referrers(m.stateMachineArn)) do
    if r.kind == EXECUTION then
      advance(r.id)
      local e = world.get(EXECUTION, r.id)
      if p.statusFilter == nil or p.statusFilter == e.status then
        out[#out + 1] = { executionArn = e.executionArn, stateMachineArn = e.stateMachineArn, name = e.name,
                          status = e.status, startDate = seconds(e.startMs), stopDate = seconds(e.stopMs) }
      end
    end
  end
  table.sort(out, function(a, b) return a.startDate > b.startDate or (a.startDate == b.startDate and a.name < b.name) end)
  return { executions = out }
end

-- Advancing runs Lambda functions: these take the world's lock themselves.
A.UNLOCKED = { DescribeExecution = true, ListExecutions = true }

return A
