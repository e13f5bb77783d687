-- AWS::Lambda::EventSourceMapping on the simulated Lambda.
--
-- Update behaviours (registry schema): EventSourceArn, StartingPosition,
-- StartingPositionTimestamp and SelfManagedEventSource Replacement;
-- everything else, FunctionName included, No interruption
-- (UpdateEventSourceMapping). Ref is the mapping's UUID; Fn::GetAtt Id (the
-- UUID) and EventSourceMappingArn
-- (arn:aws:lambda:REGION:ACCOUNT:event-source-mapping:UUID). The function
-- and an SQS source queue must exist: Lambda's errors fail the resource
-- (sim/lambda_event_sources.lua).
local P = require("moonstack.provider")
local props_lib = require("lib.service_props")

local NAMES = {
  "AmazonManagedKafkaEventSourceConfig", "BatchSize", "BisectBatchOnFunctionError", "DestinationConfig",
  "DocumentDBEventSourceConfig", "Enabled", "EventSourceArn", "FilterCriteria", "FunctionName", "FunctionResponseTypes",
  "KmsKeyArn", "LoggingConfig", "MaximumBatchingWindowInSeconds", "MaximumRecordAgeInSeconds", "MaximumRetryAttempts",
  "MetricsConfig", "ParallelizationFactor", "ProvisionedPollerConfig", "Queues", "ScalingConfig",
  "SelfManagedEventSource", "SelfManagedKafkaEventSourceConfig", "SourceAccessConfigurations", "StartingPosition",
  "StartingPositionTimestamp", "Tags", "Topics", "TumblingWindowInSeconds",
}
-- Template property -> API parameter where they differ.
local API_NAME = { KmsKeyArn = "KMSKeyArn" }
local NOT_SENT = { Tags = true, LoggingConfig = true }

local function request(props, uuid)
  local req = { UUID = uuid }
  for _, k in ipairs(NAMES) do
    if not NOT_SENT[k] and props[k] ~= nil then req[API_NAME[k] or k] = props[k] end
  end
  return req
end

local function fail_with(err) P.fail(err.message, err.code == "ResourceNotFoundException" and "NotFound" or "InvalidRequest") end

return P.define {
  type = "AWS::Lambda::EventSourceMapping",
  properties = props_lib.json_list(P, NAMES,
    { "EventSourceArn", "SelfManagedEventSource", "StartingPosition", "StartingPositionTimestamp" }, {
      BatchSize = P.integer "BatchSize" { update = "none" },
      Enabled = P.boolean "Enabled" { update = "none" },
      EventSourceArn = P.string "EventSourceArn" { update = "replace" },
      FunctionName = P.string "FunctionName" { required = true, update = "none" },
      StartingPosition = P.string "StartingPosition" { update = "replace" },
      Tags = P.tags "Tags" { update = "none" },
    }),
  attributes = { "EventSourceMappingArn", "Id" },

  create = function(ctx, props)
    local m, err = props_lib.call(ctx.world.lambda.CreateEventSourceMapping, request(props),
      { "ResourceNotFoundException", "InvalidParameterValueException", "ResourceConflictException" })
    if err then fail_with(err) end
    return { id = m.UUID, attributes = { Id = m.UUID, EventSourceMappingArn = m.EventSourceMappingArn } }
  end,

  update = function(ctx, id, new, old)
    local req = request(new, id)
    if new.Enabled == nil and old.Enabled ~= nil then req.Enabled = true end  -- taken out: Lambda's default
    local _, err = props_lib.call(ctx.world.lambda.UpdateEventSourceMapping, req, { "ResourceNotFoundException" })
    if err then fail_with(err) end
  end,

  delete = function(ctx, id)
    props_lib.call(ctx.world.lambda.DeleteEventSourceMapping, { UUID = id }, { "ResourceNotFoundException" })
  end,

  read = function(ctx, id, props)
    local m = props_lib.call(ctx.world.lambda.GetEventSourceMapping, { UUID = id }, { "ResourceNotFoundException" })
    if not m then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    if properties.BatchSize ~= nil or m.BatchSize ~= 10 then properties.BatchSize = m.BatchSize end
    if properties.Enabled ~= nil or m.State == "Disabled" then properties.Enabled = m.State ~= "Disabled" end
    return { properties = properties, attributes = { Id = id, EventSourceMappingArn = m.EventSourceMappingArn } }
  end,
}
