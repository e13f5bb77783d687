-- sim.lambda_event_sources: event source mappings (Create, Get, Update,
-- Delete, ListEventSourceMappings), installed into sim.lambda. No event is
-- polled or delivered.
--
-- A mapping is the record "lambda.event_source_mapping" "<uuid>"; the pair
-- (source, function) is unique, through the index record
-- "lambda.event_source_pair" "<source ARN>|<function ARN>" -> uuid (not live).
-- The function must exist (Lambda's "Function not found"); an SQS source
-- must exist too (sim.sqs), checked as Lambda checks it when it creates the
-- mapping. State: "Creating" then "Enabled" (or "Disabled") as Lambda
-- reports it; the sim settles it at once.
-- Messages (Lambda's):
--   The event source arn (<arn>) and function (<name>) provided mapping already exists. Please
--   update or delete the existing mapping with UUID <uuid> (ResourceConflictException)
--   StartingPosition is not valid for SQS event sources. (InvalidParameterValueException;
--   motdotla/node-lambda#466)
--   Invalid request provided: Error occurred while ReceiveMessage. SQS Error Code:
--   AWS.SimpleQueueService.NonExistentQueue. SQS Error Message: The specified queue does not
--   exist for this wsdl version. (InvalidParameterValueException; the SQS part is SQS's own
--   query-API text, the wrapper Lambda's as reported publicly; unverified verbatim)
--   The resource you requested does not exist. (ResourceNotFoundException)
local world = require("sim.world")

local MAPPING, PAIR = "lambda.event_source_mapping", "lambda.event_source_pair"
local SETTABLE = { "BatchSize", "MaximumBatchingWindowInSeconds", "FilterCriteria", "FunctionResponseTypes",
                   "ScalingConfig", "DestinationConfig", "MaximumRetryAttempts", "MaximumRecordAgeInSeconds",
                   "BisectBatchOnFunctionError", "ParallelizationFactor", "TumblingWindowInSeconds", "Topics", "Queues",
                   "SourceAccessConfigurations", "KMSKeyArn", "MetricsConfig", "ProvisionedPollerConfig" }

return function(A, L)
  local function fail(message, code) require("sim").fail(message, code) end

  local function view(env, m)
    local out = { UUID = m.UUID, EventSourceArn = m.EventSourceArn, FunctionArn = m.FunctionArn, State = m.State,
                  StartingPosition = m.StartingPosition, LastModified = m.LastModified,
                  EventSourceMappingArn = "arn:aws:lambda:" .. env.region .. ":" .. env.account .. ":event-source-mapping:"
                    .. m.UUID }
    for _, k in ipairs(SETTABLE) do out[k] = m[k] end
    return out
  end

  local function check_sqs_source(arn)
    local region, account, name = arn:match("^arn:aws[%w%-]*:sqs:([^:]+):(%d+):(.+)$")
    if not region then return false end
    local ok = pcall(require("sim").call, "sqs", "GetQueueUrl", { QueueName = name }, { region = region, account = account })
    if not ok then
      fail("Invalid request provided: Error occurred while ReceiveMessage. SQS Error Code: "
        .. "AWS.SimpleQueueService.NonExistentQueue. SQS Error Message: The specified queue does not exist for this "
        .. "wsdl version.", "InvalidParameterValueException")
    end
    return true
  end

  function A.CreateEventSourceMapping(p, env)
    local rec = L.load_fn(env, p.FunctionName)
    local fn_arn = L.fn_arn(env, rec.FunctionName)
    local source = p.EventSourceArn
    if type(source) == "string" and check_sqs_source(source) and p.StartingPosition then
      fail("StartingPosition is not valid for SQS event sources.", "InvalidParameterValueException")
    end
    local pair = tostring(source) .. "|" .. fn_arn
    local existing = world.get(PAIR, pair)
    if existing then
      fail("The event source arn (" .. tostring(source) .. ") and function (" .. rec.FunctionName .. ") provided "
        .. "mapping already exists. Please update or delete the existing mapping with UUID " .. existing.UUID,
        "ResourceConflictException")
    end
    local uuid = require("sim").new_id("uuid")
    local m = { UUID = uuid, EventSourceArn = source, FunctionArn = fn_arn, StartingPosition = p.StartingPosition,
                State = p.Enabled == false and "Disabled" or "Enabled", LastModified = env.now_ms / 1000,
                Pair = pair }
    for _, k in ipairs(SETTABLE) do m[k] = p[k] end
    if m.BatchSize == nil then m.BatchSize = 10 end
    world.put(MAPPING, uuid, m, { refs = { fn_arn } })
    world.put(PAIR, pair, { UUID = uuid }, { live = false })
    local out = view(env, m)
    out.State = "Creating"  -- as CreateEventSourceMapping answers; GetEventSourceMapping sees it settled
    return out
  end

  local function load_mapping(uuid)
    local m = type(uuid) == "string" and world.get(MAPPING, uuid)
    if not m then fail("The resource you requested does not exist.", "ResourceNotFoundException") end
    return m
  end

  function A.GetEventSourceMapping(p, env) return view(env, load_mapping(p.UUID)) end

  function A.UpdateEventSourceMapping(p, env)
    local m = load_mapping(p.UUID)
    if p.FunctionName then
      local rec = L.load_fn(env, p.FunctionName)
      local fn_arn = L.fn_arn(env, rec.FunctionName)
      if fn_arn ~= m.FunctionArn then
        world.remove(PAIR, m.Pair)
        m.FunctionArn, m.Pair = fn_arn, tostring(m.EventSourceArn) .. "|" .. fn_arn
        world.put(PAIR, m.Pair, { UUID = m.UUID }, { live = false })
      end
    end
    if p.Enabled ~= nil then m.State = p.Enabled and "Enabled" or "Disabled" end
    for _, k in ipairs(SETTABLE) do if p[k] ~= nil then m[k] = p[k] end end
    m.LastModified = env.now_ms / 1000
    world.put(MAPPING, m.UUID, m, { refs = { m.FunctionArn } })
    return view(env, m)
  end

  function A.DeleteEventSourceMapping(p, env)
    local m = load_mapping(p.UUID)
    world.remove(MAPPING, m.UUID)
    world.remove(PAIR, m.Pair)
    local out = view(env, m)
    out.State = "Deleting"
    return out
  end

  -- The mappings of one function (the referrers index), of one source (the
  -- pair index under it), or all of them.
  function A.ListEventSourceMappings(p, env)
    local out = {}
    if p.FunctionName then
      local rec = L.load_fn(env, p.FunctionName)
      for _, r in ipairs(world.referrers(L.fn_arn(env, rec.FunctionName))) do
        if r.kind == MAPPING then
          local m = world.get(MAPPING, r.id)
          if p.EventSourceArn == nil or m.EventSourceArn == p.EventSourceArn then out[#out + 1] = view(env, m) end
        end
      end
    elseif p.EventSourceArn ~= nil then
      -- The source's mappings: the pairs under it, a range of ids.
      for _, pair in ipairs(world.ids(PAIR, false, tostring(p.EventSourceArn) .. "|")) do
        local m = world.get(MAPPING, world.get(PAIR, pair).UUID)
        if m and m.EventSourceArn == p.EventSourceArn then out[#out + 1] = view(env, m) end
      end
    else
      for _, uuid in ipairs(world.ids(MAPPING, true)) do out[#out + 1] = view(env, world.get(MAPPING, uuid)) end
    end
    return { EventSourceMappings = out }
  end
end
