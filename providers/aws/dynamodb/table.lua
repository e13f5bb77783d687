-- AWS::DynamoDB::Table on the simulated DynamoDB (sim/dynamodb.lua).
--
-- Update behaviours (AWS::DynamoDB::Table reference): KeySchema, TableName,
-- LocalSecondaryIndexes Replacement (so are ImportSourceSpecification and
-- TableClass-less changes AWS lists as such); AttributeDefinitions,
-- BillingMode, ProvisionedThroughput, GlobalSecondaryIndexes,
-- StreamSpecification, SSESpecification, TimeToLiveSpecification,
-- DeletionProtectionEnabled, PointInTimeRecoverySpecification, TableClass,
-- Tags No interruption. Ref is the table name; GetAtt Arn and StreamArn.
-- Create and update wait (in simulated time) for ACTIVE. Without TableName
-- the name is "<stack>-<logical>-<12>" within 255 characters. Validation is
-- DynamoDB's own (sim/dynamodb.lua), failing the resource with its text.
local P = require("moonstack.provider")
local tags = require("moonstack.tags")
local props_lib = require("lib.service_props")

local MAX_NAME = 255
local POLL_SECONDS = 5

local function status(ctx, name)
  local r = props_lib.call(ctx.world.dynamodb.DescribeTable, { TableName = name }, { "ResourceNotFoundException" })
  return r and r.Table or nil
end

-- CloudFormation's StreamSpecification ({StreamViewType}) as DynamoDB's.
local function stream(spec)
  if type(spec) ~= "table" or spec.StreamViewType == nil then return { StreamEnabled = false } end
  return { StreamEnabled = true, StreamViewType = spec.StreamViewType }
end

local function attributes(t)
  return { Arn = t.TableArn, StreamArn = t.LatestStreamArn }
end

-- Waits for ACTIVE: the hook's answer while the table is not.
local function when_active(ctx, name, context)
  local t = status(ctx, name)
  if t and t.TableStatus ~= "ACTIVE" then
    return nil, P.in_progress { after = POLL_SECONDS, context = context, id = name }
  end
  return t
end

local function ttl(ctx, name, spec)
  local current = ctx.world.dynamodb.DescribeTimeToLive({ TableName = name }).TimeToLiveDescription
  local on = type(spec) == "table" and spec.Enabled == true
  if on == (current.TimeToLiveStatus == "ENABLED") and (not on or current.AttributeName == spec.AttributeName) then
    return
  end
  if on and current.TimeToLiveStatus == "ENABLED" then  -- another attribute: off, then on
    ctx.world.dynamodb.UpdateTimeToLive { TableName = name, TimeToLiveSpecification = { Enabled = false } }
  end
  ctx.world.dynamodb.UpdateTimeToLive { TableName = name,
    TimeToLiveSpecification = { Enabled = on, AttributeName = on and spec.AttributeName or current.AttributeName } }
end

local function gsi_updates(old, new)
  local before, after, out = {}, {}, {}
  for _, g in ipairs(old or {}) do before[g.IndexName] = g end
  for _, g in ipairs(new or {}) do after[g.IndexName] = g end
  for _, g in ipairs(old or {}) do
    if not after[g.IndexName] then out[#out + 1] = { Delete = { IndexName = g.IndexName } } end
  end
  for _, g in ipairs(new or {}) do
    local b = before[g.IndexName]
    if not b then out[#out + 1] = { Create = g }
    elseif not P.deep_equal(b.ProvisionedThroughput, g.ProvisionedThroughput) then
      out[#out + 1] = { Update = { IndexName = g.IndexName, ProvisionedThroughput = g.ProvisionedThroughput } }
    end
  end
  return out
end

local REPLACE = { "KeySchema", "LocalSecondaryIndexes", "TableName", "ImportSourceSpecification" }
local IN_PLACE = { "AttributeDefinitions", "BillingMode", "ContributorInsightsSpecification", "DeletionProtectionEnabled",
                   "GlobalSecondaryIndexes", "KinesisStreamSpecification", "OnDemandThroughput",
                   "PointInTimeRecoverySpecification", "ProvisionedThroughput", "ResourcePolicy", "SSESpecification",
                   "StreamSpecification", "TableClass", "TimeToLiveSpecification", "WarmThroughput" }
local names = {}
for _, n in ipairs(REPLACE) do names[#names + 1] = n end
for _, n in ipairs(IN_PLACE) do names[#names + 1] = n end
table.sort(names)
local properties = props_lib.json_list(P, names, REPLACE, {
  TableName = P.string "TableName" { update = "replace" },
  BillingMode = P.string "BillingMode" { update = "none", allowed = { "PROVISIONED", "PAY_PER_REQUEST" } },
  DeletionProtectionEnabled = P.boolean "DeletionProtectionEnabled" { update = "none" },
  TableClass = P.string "TableClass" { update = "none" },
})
properties[#properties + 1] = P.tags "Tags" { update = "none" }

return P.define {
  type = "AWS::DynamoDB::Table",
  properties = properties,
  attributes = { "Arn", "StreamArn" },
  primary_identifier = "TableName",
  timeout_minutes = 30,

  create = function(ctx, props)
    local name = ctx.progress and ctx.progress.name
    if not name then
      name = props.TableName or props_lib.name(ctx, MAX_NAME)
      local _, exists = props_lib.call(ctx.world.dynamodb.CreateTable, {
        TableName = name, AttributeDefinitions = props.AttributeDefinitions, KeySchema = props.KeySchema,
        BillingMode = props.BillingMode, ProvisionedThroughput = props.ProvisionedThroughput,
        GlobalSecondaryIndexes = props.GlobalSecondaryIndexes, LocalSecondaryIndexes = props.LocalSecondaryIndexes,
        StreamSpecification = stream(props.StreamSpecification), SSESpecification = props.SSESpecification,
        DeletionProtectionEnabled = props.DeletionProtectionEnabled,
        Tags = tags.from_map(tags.for_resource(ctx, props.Tags)),
      }, { "ResourceInUseException" })
      if exists then props_lib.already_exists("AWS::DynamoDB::Table", name) end
    end
    local t, wait = when_active(ctx, name, { name = name })
    if wait then return wait end
    if props.TimeToLiveSpecification then ttl(ctx, name, props.TimeToLiveSpecification) end
    return { id = name, attributes = attributes(t) }
  end,

  update = function(ctx, id, new, old, changed)
    local db = ctx.world.dynamodb
    if not status(ctx, id) then props_lib.not_found("AWS::DynamoDB::Table", id) end
    if not (ctx.progress and ctx.progress.updating) then
      local req, any = { TableName = id }, false
      for _, name in ipairs(changed) do
        if name == "Tags" then
          local arn = status(ctx, id).TableArn
          local set, remove = tags.update_diff(ctx, old.Tags, new.Tags)
          if #remove > 0 then db.UntagResource { ResourceArn = arn, TagKeys = remove } end
          if next(set) then db.TagResource { ResourceArn = arn, Tags = tags.from_map(set) } end
        elseif name == "TimeToLiveSpecification" then
          ttl(ctx, id, new.TimeToLiveSpecification)
        elseif name == "BillingMode" or name == "ProvisionedThroughput" then
          req.BillingMode = new.BillingMode or "PROVISIONED"
          req.ProvisionedThroughput = new.ProvisionedThroughput
          any = true
        elseif name == "GlobalSecondaryIndexes" then
          req.GlobalSecondaryIndexUpdates, req.AttributeDefinitions = gsi_updates(old.GlobalSecondaryIndexes,
            new.GlobalSecondaryIndexes), new.AttributeDefinitions
          any = true
        elseif name == "StreamSpecification" then
          req.StreamSpecification = stream(new.StreamSpecification)
          any = true
        elseif name == "SSESpecification" then
          req.SSESpecification = new.SSESpecification or { Enabled = false }
          any = true
        elseif name == "DeletionProtectionEnabled" then
          req.DeletionProtectionEnabled = new.DeletionProtectionEnabled == true
          any = true
        end
      end
      if any then db.UpdateTable(req) end
    end
    local t, wait = when_active(ctx, id, { updating = true })
    if wait then return wait end
    return { attributes = attributes(t) }
  end,

  delete = function(ctx, id)
    props_lib.call(ctx.world.dynamodb.DeleteTable, { TableName = id }, { "ResourceNotFoundException" })
  end,

  read = function(ctx, id, props)
    local t = status(ctx, id)
    if not t then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.Tags = props_lib.own_tags(ctx.world.dynamodb.ListTagsOfResource({ ResourceArn = t.TableArn }).Tags)
    return { properties = properties, attributes = attributes(t) }
  end,
}
