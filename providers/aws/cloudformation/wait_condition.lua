-- AWS::CloudFormation::WaitCondition: waits for Count SUCCESS signals on a
-- WaitConditionHandle, for at most Timeout seconds of world time.
--
-- Updates are not supported (the resource reference says "Updates aren't
-- supported" for Count, Handle and Timeout): every property is declared
-- `unsupported`, so changing one fails the resource with UPDATE_FAILED at run
-- time, never synchronously (seed 000, test 32).
-- Outcomes, with AWS's status reasons:
--   Count SUCCESS signals        -> created; Data = {"<UniqueId>":"<Data>",...}
--   a FAILURE signal             -> WaitCondition received failed message: '<Reason>' for uniqueId: <UniqueId>
--                                   (aws-quickstart/quickstart-trendmicro-deepsecurity#29)
--   Timeout elapsed              -> WaitCondition timed out. Received <n> conditions when expecting <Count>
--                                   (aws-samples/immersive-media-refarch#7, n = SUCCESS signals so far)
--   a signal with another Status -> Unparsable WaitCondition data
--                                   (aws-quickstart/quickstart-pivotal-cloudfoundry#10)
-- Signals are taken in the order they arrived: the Count-th SUCCESS before
-- any FAILURE completes the wait.
-- The physical ID is the ARN inside the handle's URL
-- (arn:...:stack/<stack>/<guid>/<handle logical ID>), as AWS shows it. A
-- completed wait condition is recorded in the world (with its Data) until
-- it is deleted.
--
-- The CreationPolicy form (no properties, a CreationPolicy on the resource)
-- is created at once with its own handle (ID arn:...:stack/<stack>/<guid>/<logical ID>)
-- and nothing to wait for here: waiting for a CreationPolicy's signals is
-- the engine's job, for this type as for any other.

local P = require("moonstack.provider")
local world = require("moonstack.world")
local cfn = require("sim.cloudformation")

local MAX_TIMEOUT = 43200 -- 12 hours, the documented maximum

local function now_ms(ctx)
  local ok, t = pcall(world.now_ms)
  if ok and type(t) == "number" then return t end
  return tonumber(ctx.now_ms) or 0
end

local function timeout_seconds(props)
  local t = tonumber(props.Timeout)
  if t == nil or t % 1 ~= 0 or t < 0 or t > MAX_TIMEOUT then
    P.fail("Timeout must be a whole number of seconds from 0 to " .. MAX_TIMEOUT
      .. ", got " .. tostring(props.Timeout), "InvalidRequest")
  end
  return t
end

-- Seconds until the next look: often at first, less often later.
local function check_interval(elapsed_s) return elapsed_s < 60 and 5 or 30 end

-- What the signals say so far: "done", "failed" (with a reason) or "waiting";
-- and the number of SUCCESS signals counted.
local function evaluate(signals, count)
  local successes = 0
  for _, s in ipairs(signals) do
    if s.Status == "FAILURE" then
      return "failed", successes, "WaitCondition received failed message: '" .. s.Reason
        .. "' for uniqueId: " .. s.UniqueId
    elseif s.Status == "SUCCESS" then
      successes = successes + 1
      if successes >= count then return "done", successes end
    else
      return "failed", successes, "Unparsable WaitCondition data"
    end
  end
  return "waiting", successes
end

local function signals_of(ctx, handle)
  local ok, r = pcall(ctx.world.cloudformation.GetWaitConditionSignals, { Handle = handle })
  if ok then return r.Signals, r.Id end
  if type(r) == "table" and r.code == "AccessDenied" then
    P.fail("Handle " .. tostring(handle) .. " is not a wait condition handle that exists", "NotFound")
  end
  error(r, 0)
end

return P.define {
  type = "AWS::CloudFormation::WaitCondition",
  -- Its own Timeout (at most 43200 s, 12 hours) ends the wait with AWS's
  -- message; the engine's handler deadline must lie beyond it.
  timeout_minutes = 12 * 60 + 30,
  properties = {
    P.integer "Count" { update = "unsupported" },
    P.string "Handle" { update = "unsupported" },
    P.string "Timeout" { update = "unsupported" },
  },
  attributes = { "Data" },

  create = function(ctx, props)
    if props.Handle == nil then
      -- CreationPolicy form: the engine waits for the resource's signals.
      local h = ctx.world.cloudformation.CreateWaitConditionHandle {
        StackId = ctx.stack_id, StackName = ctx.stack_name, LogicalResourceId = ctx.logical_id,
      }
      ctx.world.cloudformation.PutWaitCondition { Id = h.Id, Data = "{}" }
      return { id = h.Id, attributes = { Data = "{}" } }
    end
    local count = props.Count or 1
    if count < 1 then
      P.fail("Count must be at least 1, got " .. tostring(count), "InvalidRequest")
    end
    if props.Timeout == nil then
      P.fail("Properties validation failed for resource " .. tostring(ctx.logical_id)
        .. " with message: #: required key [Timeout] not found", "InvalidRequest")
    end
    local timeout = timeout_seconds(props)
    local signals, id = signals_of(ctx, props.Handle)
    local progress = ctx.progress or { start_ms = now_ms(ctx) }

    local state, successes, reason = evaluate(signals, count)
    if state == "failed" then P.fail(reason, "GeneralServiceException") end
    if state == "done" then
      local data = cfn.signal_data(signals)
      ctx.world.cloudformation.PutWaitCondition {
        Id = id, Handle = props.Handle, Count = count, Timeout = timeout, Data = data,
      }
      return { id = id, attributes = { Data = data } }
    end
    local elapsed_ms = now_ms(ctx) - progress.start_ms
    if elapsed_ms >= timeout * 1000 then
      P.fail("WaitCondition timed out. Received " .. successes .. " conditions when expecting " .. count,
        "NotStabilized")
    end
    local remaining_s = (timeout * 1000 - elapsed_ms) / 1000
    return P.in_progress {
      after = math.min(check_interval(elapsed_ms / 1000), remaining_s),
      context = { start_ms = progress.start_ms },
    }
  end,

  -- The record of the completed wait condition goes, and the CreationPolicy
  -- form's own handle; a handle of the template is its own resource.
  delete = function(ctx, id, props)
    props = props or {}
    local cfn_api = ctx.world.cloudformation
    cfn_api.DeleteWaitCondition { Id = id }
    if props.Handle == nil then cfn_api.DeleteWaitConditionHandle { Handle = id } end
  end,

  read = function(ctx, id, props)
    props = props or {}
    local ok, r = pcall(ctx.world.cloudformation.DescribeWaitCondition, { Id = id })
    if not ok then
      if type(r) == "table" and r.code == "NotFound" then return nil end
      error(r, 0)
    end
    return {
      properties = { Count = props.Count, Handle = props.Handle, Timeout = props.Timeout },
      attributes = { Data = r.WaitCondition.Data },
    }
  end,
}
