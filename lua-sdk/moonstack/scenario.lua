-- moonstack.scenario: scripted faults and reactions for one stack workflow
-- (`moonstack create-stack ... --scenario FILE.lua`).
--
-- A scenario script runs once, before the workflow starts, in its own
-- sandboxed Lua state, and registers rules with three globals:
--
--   fail(match, opts)          the next matching provider call fails
--   latency(match, seconds)    matching provider calls start `seconds` later
--   on(event_match, fn)        fn(event, aws) when a stack event matches
--
-- plus `aws` (the simulated cloud's client, `sim.client()`), `sim` and
-- `world` (the store). The engine then asks the scenario before each
-- provider call (`before_call`) and tells it each event (`event`), on the
-- operation's thread. See lua-sdk/README.md, "Scenario scripts".
--
-- Matching: every key given must match; a value is a string or a list of
-- strings (any of them). Unknown keys are errors, so a typo cannot silently
-- match everything.

local ids = require("moonstack.ids")

local M = {}

---The status reason of an injected failure when the script gives none: the
---shape of a registry resource handler's failure, e.g. `Resource handler
---returned message: "Exceeded attempts to wait" (RequestToken: …,
---HandlerErrorCode: NotStabilized)` (quoted in aws/aws-cdk-cli pull request
---#1253).
M.DEFAULT_MESSAGE = 'Resource handler returned message: "Injected failure"'

-- Keys of a provider-call match and their allowed values (nil: any string).
local CALL_KEYS = {
  type = false,
  logical_id = false,
  action = { create = true, update = true, delete = true, rollback = true },
  phase = { start = true, poll = true, any = true },
}
-- Keys of an event match, and the event field each one reads.
local EVENT_FIELDS = {
  logical_id = "LogicalResourceId",
  physical_id = "PhysicalResourceId",
  type = "ResourceType",
  status = "ResourceStatus",
  reason = "ResourceStatusReason", -- matches when the reason CONTAINS the text
}

---A provider call as the engine describes it to `before_call`.
---@class moonstack.ScenarioCall
---@field type string          the resource type, "AWS::EC2::Instance"
---@field logical_id string    "Instance2"
---@field action string        "create" | "update" | "delete" | "rollback"
---@field phase string         "start" (the action's first call) | "poll" (called again after in progress)
---@field physical_id string?  all but a create's first call
---@field stack_name string

---Which provider calls a rule applies to. Every key is optional.
---@class moonstack.CallMatch
---@field type (string|string[])?
---@field logical_id (string|string[])?
---@field action (string|string[])?  "create", "update", "delete", "rollback"
---@field phase string?  "start" (default: an action's first call), "poll" (its follow-up checks while in progress), "any"

---Which events a handler runs for. Every key is optional.
---@class moonstack.EventMatch
---@field logical_id (string|string[])?   LogicalResourceId (the stack's own events: the stack name)
---@field physical_id (string|string[])?
---@field type (string|string[])?         ResourceType
---@field status (string|string[])?       ResourceStatus, e.g. "CREATE_COMPLETE"
---@field reason string?                  the ResourceStatusReason contains this text
---@field once boolean?                   default true: run the handler for the first matching event only

---An event as DescribeStackEvents shows it.
---@class moonstack.ScenarioEvent
---@field StackId string
---@field EventId string
---@field StackName string
---@field LogicalResourceId string
---@field PhysicalResourceId string
---@field ResourceType string
---@field Timestamp string         "2026-01-02T03:04:05.678000+00:00"
---@field ResourceStatus string
---@field ResourceStatusReason string?
---@field ResourceProperties string?  JSON text
---@field ClientRequestToken string?

---@class moonstack.FailOptions
---@field times integer?   how many matching calls fail (default 1)
---@field always boolean?  every matching call fails
---@field message string?  the resource's status reason (default M.DEFAULT_MESSAGE)
---@field code string?     a handler error code ("NotStabilized", "InternalFailure", ...)

---@class moonstack.LatencyOptions
---@field times integer?   delay only the first N matching calls (default: every one)

---What a `fail`, `latency` or `on` call returns; `count` says how often it fired.
---@class moonstack.ScenarioRule
---@field count integer

---@class moonstack.Scenario
---@field aws table  the sim client handed to handlers
local Scenario = {}
Scenario.__index = Scenario

local function list_of(v)
  if type(v) == "table" then return v end
  return { v }
end

-- Checks one match value: a string or a non-empty list of strings, each
-- one of `allowed` when given. Returns an error text or nil.
local function check_value(what, key, v, allowed)
  if type(v) ~= "string" and type(v) ~= "table" then
    return what .. ": " .. key .. " must be a string or a list of strings"
  end
  local items = list_of(v)
  if #items == 0 then return what .. ": " .. key .. " must not be an empty list" end
  for _, item in ipairs(items) do
    if type(item) ~= "string" then return what .. ": " .. key .. " must be a string or a list of strings" end
    if allowed and not allowed[item] then
      local names = {}
      for name in pairs(allowed) do names[#names + 1] = name end
      table.sort(names)
      return what .. ": " .. key .. ' "' .. item .. '" is not one of ' .. table.concat(names, ", ")
    end
  end
  return nil
end

local function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- A copy of a call match, checked; nil and an error text when it is wrong.
local function call_match(what, match)
  if match == nil then match = {} end
  if type(match) ~= "table" then return nil, what .. ": the match must be a table such as { logical_id = \"X\" }" end
  local out = {}
  for k, v in pairs(match) do
    if type(k) ~= "string" or CALL_KEYS[k] == nil then
      return nil, what .. ': unknown match key "' .. tostring(k) .. '" (expected '
        .. table.concat(sorted_keys(CALL_KEYS), ", ") .. ")"
    end
    local err = check_value(what, k, v, CALL_KEYS[k] or nil)
    if err then return nil, err end
    out[k] = list_of(v)
  end
  out.phase = out.phase or { "start" }
  return out
end

local function event_match(what, match)
  if type(match) ~= "table" then
    return nil, what .. ": the match must be a table such as { logical_id = \"X\", status = \"CREATE_COMPLETE\" }"
  end
  local out, once = {}, true
  for k, v in pairs(match) do
    if k == "once" then
      if type(v) ~= "boolean" then return nil, what .. ": once must be a boolean" end
      once = v
    elseif type(k) ~= "string" or EVENT_FIELDS[k] == nil then
      local keys = sorted_keys(EVENT_FIELDS)
      keys[#keys + 1] = "once"
      return nil, what .. ': unknown match key "' .. tostring(k) .. '" (expected ' .. table.concat(keys, ", ") .. ")"
    elseif k == "reason" then
      if type(v) ~= "string" then return nil, what .. ": reason must be a string" end
      out[k] = v
    else
      local err = check_value(what, k, v)
      if err then return nil, err end
      out[k] = list_of(v)
    end
  end
  return out, once
end

local function one_of(list, value)
  for _, item in ipairs(list) do
    if item == value then return true end
  end
  return false
end

local function matches_call(m, call)
  for key, list in pairs(m) do
    if key == "phase" then
      if not (one_of(list, "any") or one_of(list, call.phase)) then return false end
    elseif not one_of(list, call[key]) then
      return false
    end
  end
  return true
end

local function matches_event(m, e)
  for key, want in pairs(m) do
    local have = e[EVENT_FIELDS[key]]
    if key == "reason" then
      if type(have) ~= "string" or not have:find(want, 1, true) then return false end
    elseif not one_of(want, have) then
      return false
    end
  end
  return true
end

local function check_times(what, times)
  if times == nil then return nil end
  if type(times) ~= "number" or times < 1 or times % 1 ~= 0 then
    return what .. ": times must be a whole number >= 1 (or always = true)"
  end
  return nil
end

-- Rule constructors: each returns the rule, or nil and an error text (the
-- public functions raise it at the script's line).

local function add_fail(self, match, opts)
  local m, err = call_match("fail", match)
  if not m then return nil, err end
  if opts ~= nil and type(opts) ~= "table" then return nil, "fail: opts must be a table such as { times = 2 }" end
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "times" and k ~= "always" and k ~= "message" and k ~= "code" then
      return nil, 'fail: unknown option "' .. tostring(k) .. '" (expected always, code, message, times)'
    end
  end
  if opts.always ~= nil and type(opts.always) ~= "boolean" then return nil, "fail: always must be a boolean" end
  if not opts.always then
    err = check_times("fail", opts.times)
    if err then return nil, err end
  end
  if opts.message ~= nil and type(opts.message) ~= "string" then return nil, "fail: message must be a string" end
  if opts.code ~= nil and type(opts.code) ~= "string" then return nil, "fail: code must be a string" end
  local rule = {
    count = 0,
    match = m,
    limit = (not opts.always) and (opts.times or 1) or nil,
    message = opts.message,
    code = opts.code,
  }
  self.faults[#self.faults + 1] = rule
  return rule
end

local function add_latency(self, match, seconds, opts)
  local m, err = call_match("latency", match)
  if not m then return nil, err end
  if type(seconds) ~= "number" or seconds < 0 or seconds ~= seconds or seconds == math.huge then
    return nil, "latency: seconds must be a number >= 0"
  end
  if opts ~= nil and type(opts) ~= "table" then return nil, "latency: opts must be a table such as { times = 1 }" end
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "times" then return nil, 'latency: unknown option "' .. tostring(k) .. '" (expected times)' end
  end
  err = check_times("latency", opts.times)
  if err then return nil, err end
  local rule = { count = 0, match = m, seconds = seconds, limit = opts.times }
  self.latencies[#self.latencies + 1] = rule
  return rule
end

local function add_handler(self, match, fn)
  local m, once = event_match("on", match)
  if not m then return nil, once end
  if type(fn) ~= "function" then return nil, "on: the handler must be a function(event, aws)" end
  local rule = { count = 0, match = m, once = once, fn = fn }
  self.handlers[#self.handlers + 1] = rule
  return rule
end

-- A public entry point: runs `add` and raises its error at the caller's line.
local function entry(add)
  return function(...)
    local rule, err = add(...)
    if not rule then error(err, 2) end
    return rule
  end
end

---A new, empty scenario.
---@param opts { aws: table }?  aws: the client handed to handlers (sim.client())
---@return moonstack.Scenario
function M.new(opts)
  opts = opts or {}
  return setmetatable({
    aws = opts.aws,
    faults = {},
    latencies = {},
    handlers = {},
    tokens = ids.new("moonstack-scenario"), -- RequestTokens of injected failures: deterministic
  }, Scenario)
end

---Fail the provider calls that match: the resource gets `*_FAILED` with
---`opts.message` as its status reason (its hook is never called).
---@param match moonstack.CallMatch
---@param opts moonstack.FailOptions?
---@return moonstack.ScenarioRule
Scenario.fail = entry(add_fail)

---Delay the provider calls that match by `seconds` of clock time (virtual
---time: no waiting, the events' timestamps show the delay). Several
---matching latency rules add up.
---@param match moonstack.CallMatch
---@param seconds number
---@param opts moonstack.LatencyOptions?
---@return moonstack.ScenarioRule
Scenario.latency = entry(add_latency)

---Run `fn(event, aws)` when an event matches (once, unless match.once = false).
---It runs on the engine's thread between two steps of the workflow, so what
---it changes in the world (aws.ec2.TerminateInstances{...}) is what the next
---provider calls see. An error in it fails the command.
---@param match moonstack.EventMatch
---@param fn fun(event: moonstack.ScenarioEvent, aws: table)
---@return moonstack.ScenarioRule
Scenario.on = entry(add_handler)

---Asks for the update running to be cancelled, as `cancel-update-stack`
---does: called from a handler, the engine acts on it before its next step
---(what is being created or updated is cancelled and the update rolls back).
---Outside an update (UPDATE_IN_PROGRESS) it does nothing.
function Scenario:cancel_update()
  self.cancel_requested = true
end

---Sets the script's globals in `env`: fail, latency, on, cancel_update
---(bound to this scenario), aws, sim, world and log.
---@param env table
function Scenario:install(env)
  env.cancel_update = function() self:cancel_update() end
  env.fail = entry(function(...) return add_fail(self, ...) end)
  env.latency = entry(function(...) return add_latency(self, ...) end)
  env.on = entry(function(...) return add_handler(self, ...) end)
  env.aws = self.aws
  env.sim = require("sim")
  env.world = require("moonstack.world")
  -- log.info(...) etc.: the operation's provider log, as print (INFO).
  env.log = require("moonstack.log").host("log")
end

local function left(rule)
  return rule.limit == nil or rule.count < rule.limit
end

---Host side: what to do with a provider call. nil (nothing), or
---{ latency = seconds?, fail = { message, code? }? }.
---@param call moonstack.ScenarioCall
---@return table?
function Scenario:before_call(call)
  local latency = 0
  for _, rule in ipairs(self.latencies) do
    if left(rule) and matches_call(rule.match, call) then
      rule.count = rule.count + 1
      latency = latency + rule.seconds
    end
  end
  local failure
  for _, rule in ipairs(self.faults) do
    if left(rule) and matches_call(rule.match, call) then
      rule.count = rule.count + 1
      local message = rule.message
      if not message then
        message = M.DEFAULT_MESSAGE
        if rule.code then
          message = message .. " (RequestToken: " .. self.tokens:uuid() .. ", HandlerErrorCode: " .. rule.code .. ")"
        end
      end
      failure = { message = message, code = rule.code }
      break
    end
  end
  if latency == 0 and not failure then return nil end
  return { latency = latency > 0 and latency or nil, fail = failure }
end

---Host side: runs the handlers matching an event, in the order they were
---registered (handlers a handler registers start with the next event).
---True when a handler asked for the update to be cancelled.
---@param e moonstack.ScenarioEvent
---@return boolean
function Scenario:event(e)
  local n = #self.handlers
  for i = 1, n do
    local h = self.handlers[i]
    if not (h.once and h.count > 0) and matches_event(h.match, e) then
      h.count = h.count + 1
      h.fn(e, self.aws)
    end
  end
  local cancel = self.cancel_requested == true
  self.cancel_requested = nil
  return cancel
end

---Host side: a scenario whose globals are installed in `globals` (the
---table the script runs in: a module's own _G is not the script's), with
---`aws` the sim client for `opts.region` / `opts.account`.
---@param opts { region: string?, account: string? }?
---@param globals table
---@return moonstack.Scenario
function M.setup(opts, globals)
  local sim = require("sim")
  local sc = M.new { aws = sim.client(opts) }
  sc:install(globals)
  return sc
end

return M
