-- sim.events: simulated EventBridge rules and their targets (no event
-- delivery). A rule is the record "events.rule" "<region>:<bus>:<name>";
-- its targets are kept in it (at most 5 per rule, as EventBridge allows).
-- ARN: arn:aws:events:<region>:<account>:rule/<name> on the default bus,
-- rule/<bus>/<name> on another one. A rule's tags (PutRule's Tags when it
-- makes the rule, TagResource, UntagResource, ListTagsForResource by the
-- rule's ARN) are kept in it.
--
-- Messages (EventBridge's):
--   Rule <name> does not exist on EventBus <bus>. (ResourceNotFoundException)
--   Rule can't be deleted since it has targets. (ValidationException)
--   Parameter(s) ScheduleExpression or EventPattern must be specified. (ValidationException;
--   unverified wording)
--   Parameter ScheduleExpression is not valid. (ValidationException)

local world = require("sim.world")
local tags = require("moonstack.tags")

local A = {}

local RULE = "events.rule"
local MAX_TARGETS = 5

local function fail(message, code) require("sim").fail(message, code) end

local function bus_of(p)
  local bus = p.EventBusName or "default"
  return bus:match(":event%-bus/(.+)$") or bus  -- a bus ARN names the bus too
end

-- A [{Key, Value}] list's tags onto rule `r`'s map.
local function add_tags(r, list)
  r.Tags = r.Tags or {}
  for k, v in pairs(tags.to_map(list)) do r.Tags[k] = v end
end

function A.rule_arn(region, account, bus, name)
  return "arn:aws:events:" .. region .. ":" .. account .. ":rule/" .. (bus == "default" and "" or (bus .. "/")) .. name
end

local function key(env, bus, name) return env.region .. ":" .. bus .. ":" .. name end

local function load_rule(env, p, name)
  local bus = bus_of(p)
  local r = type(name) == "string" and world.get(RULE, key(env, bus, name))
  if not r then fail("Rule " .. tostring(name) .. " does not exist on EventBus " .. bus .. ".", "ResourceNotFoundException") end
  return r, key(env, bus, name)
end

local function check_schedule(expr)
  if expr == nil then return end
  if type(expr) ~= "string" or not (expr:match("^rate%(%d+ %a+%)$") or expr:match("^cron%(.+%)$")) then
    fail("Parameter ScheduleExpression is not valid.", "ValidationException")
  end
end

function A.PutRule(p, env)
  if type(p.Name) ~= "string" or not p.Name:match("^[%.%-_%w]+$") or #p.Name > 64 then
    fail("1 validation error detected: Value '" .. tostring(p.Name) .. "' at 'name' failed to satisfy constraint: "
      .. "Member must satisfy regular expression pattern: [\\.\\-_A-Za-z0-9]+", "ValidationException")
  end
  if p.ScheduleExpression == nil and p.EventPattern == nil then
    fail("Parameter(s) ScheduleExpression or EventPattern must be specified.", "ValidationException")
  end
  check_schedule(p.ScheduleExpression)
  local bus = bus_of(p)
  local k = key(env, bus, p.Name)
  local r = world.get(RULE, k)
  -- "If you are updating an existing rule, any tags you specify in the
  -- PutRule operation are ignored" (PutRule's API reference): only a new
  -- rule takes them.
  if not r then
    r = { Name = p.Name, EventBusName = bus, Targets = {}, Tags = {} }
    add_tags(r, p.Tags)
  end
  r.ScheduleExpression, r.EventPattern, r.Description, r.RoleArn = p.ScheduleExpression, p.EventPattern, p.Description,
    p.RoleArn
  r.State = p.State or "ENABLED"
  world.put(RULE, k, r)
  return { RuleArn = A.rule_arn(env.region, env.account, bus, p.Name) }
end

-- The rule a ResourceARN names (of the caller's region and account), or
-- EventBridge's not-found answer for it.
local function rule_of_arn(env, arn)
  local rest = type(arn) == "string" and arn:match("^arn:aws[%w%-]*:events:[^:]*:%d+:rule/(.+)$")
  if not rest or require("sim").other_account(env, arn) then
    fail("Rule " .. tostring(arn) .. " does not exist on EventBus default.", "ResourceNotFoundException")
  end
  local bus, name = rest:match("^(.+)/([^/]+)$")
  return load_rule(env, { EventBusName = bus or "default" }, name or rest)
end

function A.TagResource(p, env)
  local r, k = rule_of_arn(env, p.ResourceARN)
  add_tags(r, p.Tags)
  world.put(RULE, k, r)
  return {}
end

function A.UntagResource(p, env)
  local r, k = rule_of_arn(env, p.ResourceARN)
  for _, key_name in ipairs(p.TagKeys or {}) do (r.Tags or {})[key_name] = nil end
  world.put(RULE, k, r)
  return {}
end

function A.ListTagsForResource(p, env)
  return { Tags = tags.from_map(rule_of_arn(env, p.ResourceARN).Tags) }
end

function A.DescribeRule(p, env)
  local r = load_rule(env, p, p.Name)
  return { Name = r.Name, Arn = A.rule_arn(env.region, env.account, r.EventBusName, r.Name), EventBusName = r.EventBusName,
           ScheduleExpression = r.ScheduleExpression, EventPattern = r.EventPattern, State = r.State,
           Description = r.Description, RoleArn = r.RoleArn }
end

function A.DeleteRule(p, env)
  local r, k = load_rule(env, p, p.Name)
  if #(r.Targets or {}) > 0 then fail("Rule can't be deleted since it has targets.", "ValidationException") end
  world.remove(RULE, k)
  return {}
end

local function set_state(p, env, state)
  local r, k = load_rule(env, p, p.Name)
  r.State = state
  world.put(RULE, k, r)
  return {}
end
function A.EnableRule(p, env) return set_state(p, env, "ENABLED") end
function A.DisableRule(p, env) return set_state(p, env, "DISABLED") end

-- Targets: PutTargets adds or replaces by Id; past 5 a target is refused as
-- EventBridge refuses it (LimitExceededException for the whole call).
function A.PutTargets(p, env)
  local r, k = load_rule(env, p, p.Rule)
  local targets = require("sim.cloudformation_util").as_list(r.Targets)
  local at = {}
  for i, t in ipairs(targets) do at[t.Id] = i end
  for _, t in ipairs(p.Targets or {}) do
    if at[t.Id] then targets[at[t.Id]] = t else targets[#targets + 1] = t; at[t.Id] = #targets end
  end
  if #targets > MAX_TARGETS then
    fail("The requested resource exceeds the maximum number allowed.", "LimitExceededException")
  end
  r.Targets = targets
  world.put(RULE, k, r)
  return { FailedEntryCount = 0, FailedEntries = {} }
end

function A.RemoveTargets(p, env)
  local r, k = load_rule(env, p, p.Rule)
  local drop = {}
  for _, id in ipairs(p.Ids or {}) do drop[id] = true end
  local keep = {}
  for _, t in ipairs(r.Targets or {}) do if not drop[t.Id] then keep[#keep + 1] = t end end
  r.Targets = keep
  world.put(RULE, k, r)
  return { FailedEntryCount = 0, FailedEntries = {} }
end

function A.ListTargetsByRule(p, env)
  local r = load_rule(env, p, p.Rule)
  return { Targets = require("sim.cloudformation_util").as_list(r.Targets) }
end

return A
