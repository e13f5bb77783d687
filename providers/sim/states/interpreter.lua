-- sim.states.interpreter: runs an Amazon States Language definition one
-- state at a time on the world clock, for sim/states.lua's executions.
--
-- An execution's cursor is plain data, kept in its record between runs:
--   { state = <name>, input = <the state's input>, due_ms = <when it goes on>,
--     retries = { [retrier index] = attempts made }, waited = true (a Wait
--     whose time is set) }
-- `run` goes on from the cursor while the world clock has reached due_ms:
-- Pass, Task (a Lambda function by its ARN as Resource, or
-- arn:aws:states:::lambda:invoke with Parameters FunctionName/Payload),
-- Choice, Wait (Seconds, SecondsPath; not Timestamp yet), Succeed,
-- Fail; Retry (ErrorEquals incl. States.ALL, IntervalSeconds 1,
-- MaxAttempts 3, BackoffRate 2.0 by default: the next attempt is due
-- IntervalSeconds × BackoffRate^(n-1) later) and Catch (ErrorEquals, Next,
-- ResultPath, the error output {Error, Cause}). Parallel and Map are
-- refused when the machine is created (`check`).
-- A Lambda task's error is the function's errorType (Cause: its error
-- payload as JSON text), as Step Functions reports it; a function that
-- cannot be invoked is States.TaskFailed with Lambda's message.
-- A Task runs its function with DeliverResponses (sim/lambda_invoke.lua): a
-- custom-resource response it PUTs to a ResponseURL reaches CloudFormation,
-- as the Provider framework's waiter needs.
local world = require("sim.world")
local values = require("moonstack.values")
local decode = require("sim.json_decode")
local util = require("sim.cloudformation_util")
local paths = require("sim.states.paths")
local choice = require("sim.states.choice")

local M = {}

local TYPES = { Pass = true, Task = true, Choice = true, Wait = true, Succeed = true, Fail = true }

---Why a definition cannot run, or nil.
function M.check(def)
  if type(def) ~= "table" or type(def.States) ~= "table" then return "SCHEMA_VALIDATION_FAILED: States is required" end
  if type(def.StartAt) ~= "string" or def.States[def.StartAt] == nil then
    return "MISSING_TRANSITION_TARGET: StartAt names no state"
  end
  for name, s in pairs(def.States) do
    if type(s) ~= "table" or not TYPES[s.Type] then
      return "SCHEMA_VALIDATION_FAILED: moonstack runs Pass, Task, Choice, Wait, Succeed and Fail states, not "
        .. tostring(type(s) == "table" and s.Type or s) .. " at /States/" .. name
    end
    for _, field in ipairs({ "Next", "Default" }) do
      if s[field] ~= nil and def.States[s[field]] == nil then
        return "MISSING_TRANSITION_TARGET: Missing '" .. field .. "' target: " .. tostring(s[field]) .. " at /States/"
          .. name .. "/" .. field
      end
    end
  end
  return nil
end

---The cursor of a new execution.
function M.start(def, input, now_ms)
  return { state = def.StartAt, input = input, due_ms = now_ms, retries = {} }
end

local function raise(err, cause) error({ states_error = err, cause = cause }, 0) end

local function matches(list, err)
  for _, e in ipairs(type(list) == "table" and list or {}) do
    if e == err or (e == "States.ALL" and err ~= "States.Runtime") or
        (e == "States.TaskFailed" and err ~= "States.Timeout" and err ~= "States.Runtime" and err:sub(1, 7) ~= "States.") then
      return true
    end
  end
  return false
end

-- Invokes a Lambda function; the result, or raises its error.
local function invoke(fn, payload, opts)
  local ok, r = pcall(require("sim").call, "lambda", "Invoke",
    { FunctionName = fn, Payload = util.json(payload), DeliverResponses = true }, opts)
  if not ok then raise("States.TaskFailed", require("moonstack.provider").error_message(r)) end
  local out = decode(r.Payload or "null")
  if r.FunctionError then
    local err = type(out) == "table" and type(out.errorType) == "string" and out.errorType or "States.TaskFailed"
    raise(err, r.Payload)
  end
  return out, r
end

-- A Task state's result.
local function task(s, input, opts)
  if type(s.Resource) == "string" and s.Resource:match("^arn:aws[%w%-]*:lambda:") then
    return (invoke(s.Resource, input, opts))
  end
  if s.Resource == "arn:aws:states:::lambda:invoke" then
    if type(input) ~= "table" or input.FunctionName == nil then
      raise("States.Runtime", "The Parameters of arn:aws:states:::lambda:invoke need FunctionName")
    end
    local payload = input.Payload
    if payload == nil then payload = {} end
    local out, r = invoke(input.FunctionName, payload, opts)
    return { ExecutedVersion = r.ExecutedVersion, Payload = out, StatusCode = r.StatusCode }
  end
  raise("States.Runtime", "moonstack runs Task states of Lambda functions only, not " .. tostring(s.Resource))
end

-- The context object ($$) of a state.
local function context_of(e, name)
  return { Execution = { Id = e.executionArn, Name = e.name, Input = decode(e.input) },
           StateMachine = { Id = e.stateMachineArn }, State = { Name = name } }
end

-- Moves the cursor to `next_name` (or ends the execution) with `output`.
local function transition(e, s, output, now)
  if s.End == true or s.Type == "Succeed" then
    e.status, e.output, e.stopMs = "SUCCEEDED", util.json(output), now
    return
  end
  e.cursor = { state = s.Next, input = output, due_ms = now, retries = {} }
end

-- An error in state `s`: a Retry makes the state due again later, a Catch
-- moves on, else the execution fails.
local function on_error(e, s, err, cause, now)
  for i, r in ipairs(type(s.Retry) == "table" and s.Retry or {}) do
    if matches(r.ErrorEquals, err) then
      local made = e.cursor.retries[tostring(i)] or 0
      local max = tonumber(r.MaxAttempts) or 3
      if made < max then
        e.cursor.retries[tostring(i)] = made + 1
        local interval = (tonumber(r.IntervalSeconds) or 1) * (tonumber(r.BackoffRate) or 2) ^ made
        e.cursor.due_ms = now + math.floor(interval * 1000)
        return
      end
      break  -- exhausted: on to the catchers
    end
  end
  for _, c in ipairs(type(s.Catch) == "table" and s.Catch or {}) do
    if matches(c.ErrorEquals, err) then
      local output = paths.merge(e.cursor.input, { Error = err, Cause = cause }, c.ResultPath)
      e.cursor = { state = c.Next, input = output, due_ms = now, retries = {} }
      return
    end
  end
  e.status, e.error, e.cause, e.stopMs = "FAILED", err, cause, now
end

-- Runs state `s` once: returns nothing (the cursor moved or the execution
-- ended), raising {states_error, cause} for its errors.
local function step(e, name, s, opts, now)
  local ctx = context_of(e, name)
  local input = paths.select(e.cursor.input, s.InputPath, ctx)
  if s.Type == "Fail" then
    e.status, e.error, e.cause, e.stopMs = "FAILED", s.Error, s.Cause, now
    return
  end
  if s.Type == "Wait" then
    if not e.cursor.waited then
      local seconds = tonumber(s.Seconds) or (s.SecondsPath and tonumber(paths.get(input, s.SecondsPath, ctx)))
      local at_ms = seconds and now + math.floor(seconds * 1000) or nil
      if not at_ms then
        raise("States.Runtime", "moonstack's Wait state takes Seconds or SecondsPath (" .. name .. ")")
      end
      e.cursor.waited, e.cursor.due_ms = true, at_ms
      return
    end
    return transition(e, s, paths.select(e.cursor.input, s.OutputPath, ctx), now)
  end
  if s.Type == "Choice" then
    local next_name = choice.next(s, input, ctx)
    if not next_name then raise("States.NoChoiceMatched", "No Matches!") end
    e.cursor = { state = next_name, input = paths.select(input, s.OutputPath, ctx), due_ms = now, retries = {} }
    return
  end
  if s.Type == "Succeed" then return transition(e, s, paths.select(input, s.OutputPath, ctx), now) end
  local effective = s.Parameters ~= nil and paths.template(s.Parameters, input, ctx) or input
  local result
  if s.Type == "Pass" then
    result = s.Result ~= nil and s.Result or effective
  else
    result = task(s, effective, opts)
    if s.ResultSelector ~= nil then result = paths.template(s.ResultSelector, result, ctx) end
  end
  local output = paths.merge(e.cursor.input, result, s.ResultPath)
  transition(e, s, paths.select(output, s.OutputPath, ctx), now)
end

---Goes on with execution `e` (its record, changed in place) while it runs
---and is due; `def` its definition, `opts` the region and account its
---Tasks' calls use. A Task's Lambda runs outside the world's lock.
function M.run(e, def, opts)
  local guard = 0
  while e.status == "RUNNING" and e.cursor.due_ms <= world.now_ms() do
    guard = guard + 1
    if guard > 10000 then raise("States.Runtime", "more than 10000 state transitions in one moment") end
    local name = e.cursor.state
    local s = def.States[name]
    local ok, why = pcall(step, e, name, s, opts, world.now_ms())
    if not ok then
      if type(why) ~= "table" or not why.states_error then error(why, 0) end
      on_error(e, s, why.states_error, why.cause, world.now_ms())
    end
  end
  if values.is_null(e.output) then e.output = nil end
end

return M
