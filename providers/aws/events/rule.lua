-- AWS::Events::Rule on the simulated EventBridge (sim/events.lua).
--
-- Update behaviours: Name Replacement (registry schema, createOnly); the
-- rule lives on its bus, so EventBusName is Replacement here too (its ARN
-- and Ref change with it); everything else No interruption (PutRule again;
-- targets added, replaced and removed by Id). Ref is the rule name
-- ("<bus>|<name>" on a bus other than default, as the registry handler
-- makes the identifier); Fn::GetAtt Arn.
-- Without Name the name is "<stack>-<logical>-<12>" within 64.
-- Tags: the stack's, the template's and CloudFormation's aws:cloudformation:*
-- ones when the rule is made (PutRule's Tags); an update tags and untags
-- the difference (TagResource, UntagResource); read gives its own back.
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local props_lib = require("lib.service_props")
local events_sim = require("sim.events")
local tags = require("moonstack.tags")

local function region(ctx) return (ctx.region and ctx.region ~= "") and ctx.region or "us-east-1" end
local function account(ctx) return (ctx.account and ctx.account ~= "") and ctx.account or "123456789012" end

-- A physical ID -> bus, name.
local function split(id)
  local bus, name = id:match("^(.-)|(.+)$")
  if bus then return bus, name end
  return "default", id
end

local function put_rule(ctx, name, props, tag_list)
  local pattern = props.EventPattern
  return ctx.world.events.PutRule {
    Name = name, EventBusName = props.EventBusName, ScheduleExpression = props.ScheduleExpression,
    EventPattern = type(pattern) == "table" and props_lib.json(pattern) or pattern, State = props.State,
    Description = props.Description, RoleArn = props.RoleArn, Tags = tag_list,
  }
end

local function put_targets(ctx, bus, name, new, old)
  local events = ctx.world.events
  local keep, stale = {}, {}
  for _, t in ipairs(new or {}) do keep[t.Id] = true end
  for _, t in ipairs(old or {}) do if not keep[t.Id] then stale[#stale + 1] = t.Id end end
  if #stale > 0 then events.RemoveTargets { Rule = name, EventBusName = bus, Ids = stale } end
  if new and #new > 0 then events.PutTargets { Rule = name, EventBusName = bus, Targets = new } end
end

return P.define {
  type = "AWS::Events::Rule",
  properties = props_lib.json_list(P, {
    "Description", "EventBusName", "EventPattern", "Name", "RoleArn", "ScheduleExpression", "State", "Tags", "Targets",
  }, { "EventBusName", "Name" }, {
    Description = P.string "Description" { update = "none" },
    EventBusName = P.string "EventBusName" { update = "replace" },
    Name = P.string "Name" { update = "replace" },
    RoleArn = P.string "RoleArn" { update = "none" },
    ScheduleExpression = P.string "ScheduleExpression" { update = "none" },
    State = P.string "State" { allowed = { "ENABLED", "DISABLED", "ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS" },
                               update = "none" },
    Tags = P.tags "Tags" { update = "none" },
  }),
  attributes = { "Arn" },

  create = function(ctx, props)
    local name = props.Name or names.physical(ctx.stack_name, ctx.logical_id, 64)
    local bus = props.EventBusName or "default"
    local arn = put_rule(ctx, name, props, tags.from_map(tags.for_resource(ctx, props.Tags))).RuleArn
    put_targets(ctx, bus, name, props.Targets)
    local id = bus == "default" and name or (bus .. "|" .. name)
    return { id = id, attributes = { Arn = arn } }
  end,

  update = function(ctx, id, new, old)
    local bus, name = split(id)
    local arn = put_rule(ctx, name, new).RuleArn
    put_targets(ctx, bus, name, new.Targets, old.Targets)
    local set, remove = tags.update_diff(ctx, old.Tags, new.Tags)
    if #remove > 0 then ctx.world.events.UntagResource { ResourceARN = arn, TagKeys = remove } end
    if next(set) then ctx.world.events.TagResource { ResourceARN = arn, Tags = tags.from_map(set) } end
  end,

  delete = function(ctx, id)
    local bus, name = split(id)
    local events = ctx.world.events
    local listed = props_lib.call(events.ListTargetsByRule, { Rule = name, EventBusName = bus }, { "ResourceNotFoundException" })
    if not listed then return end
    local ids = {}
    for _, t in ipairs(listed.Targets) do ids[#ids + 1] = t.Id end
    if #ids > 0 then events.RemoveTargets { Rule = name, EventBusName = bus, Ids = ids } end
    events.DeleteRule { Name = name, EventBusName = bus }
  end,

  read = function(ctx, id, props)
    local bus, name = split(id)
    local events = ctx.world.events
    local r = props_lib.call(events.DescribeRule, { Name = name, EventBusName = bus }, { "ResourceNotFoundException" })
    if not r then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    if properties.State ~= nil or r.State ~= "ENABLED" then properties.State = r.State end
    properties.ScheduleExpression = r.ScheduleExpression
    local targets = events.ListTargetsByRule({ Rule = name, EventBusName = bus }).Targets
    properties.Targets = #targets > 0 and targets or nil
    local arn = events_sim.rule_arn(region(ctx), account(ctx), bus, name)
    properties.Tags = props_lib.own_tags(events.ListTagsForResource({ ResourceARN = arn }).Tags)
    return { properties = properties, attributes = { Arn = arn } }
  end,
}
