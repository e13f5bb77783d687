-- AWS::StepFunctions::StateMachine on the simulated Step Functions
-- (sim/states.lua), whose executions run the definition.
--
-- The definition: DefinitionString (text; CDK's Fn::Join arrives joined) or
-- Definition (an object, sent as its JSON), with DefinitionSubstitutions'
-- ${key} replaced; an invalid one fails as Step Functions refuses it
-- (InvalidDefinition). Update behaviours (registry schema):
-- StateMachineName and StateMachineType Replacement; the definition and
-- RoleArn in place (UpdateStateMachine). Ref is the machine's ARN;
-- Fn::GetAtt Arn, Name. Without StateMachineName the name is a generated
-- "<stack>-<logical>-<12>" within 80 characters; a name in use fails with
-- CloudFormation's AlreadyExists. Tags: the stack's, the template's and
-- CloudFormation's aws:cloudformation:* ones on create; an update tags and
-- untags the difference; read gives its own back.
local P = require("moonstack.provider")
local props_lib = require("lib.service_props")
local tags = require("moonstack.tags")
local sfn_tags = require("sim.states").tag_list  -- {k = v} -> Step Functions' [{key, value}]

local TYPE = "AWS::StepFunctions::StateMachine"

-- The definition's text, substitutions applied.
local function definition(props)
  local text = props.DefinitionString
  if text == nil and props.Definition ~= nil then text = props_lib.json(props.Definition) end
  if type(text) ~= "string" then
    P.fail("Properties validation failed for resource with message: [Either DefinitionString, Definition, "
      .. "DefinitionS3Location must be provided]", "InvalidRequest")
  end
  for k, v in pairs(type(props.DefinitionSubstitutions) == "table" and props.DefinitionSubstitutions or {}) do
    text = text:gsub("%${" .. tostring(k):gsub("%p", "%%%0") .. "}", (tostring(v):gsub("%%", "%%%%")))
  end
  return text
end

-- CloudFormation's handler error code for Step Functions' errors.
local HANDLER_CODES = { InvalidDefinition = "InvalidRequest", InvalidName = "InvalidRequest",
                        StateMachineDoesNotExist = "NotFound", ResourceNotFound = "NotFound" }

local function sfn_call(fn, req)
  local ok, r = pcall(fn, req)
  if not ok then P.fail(P.error_message(r), HANDLER_CODES[props_lib.error_code(r)] or "GeneralServiceException") end
  return r
end

local function attributes(arn) return { Arn = arn, Name = arn:match(":stateMachine:(.+)$") } end

return P.define {
  type = TYPE,
  properties = props_lib.json_list(P, {
    "Definition", "DefinitionS3Location", "DefinitionString", "DefinitionSubstitutions", "EncryptionConfiguration",
    "LoggingConfiguration", "RoleArn", "StateMachineName", "StateMachineType", "Tags", "TracingConfiguration",
  }, { "StateMachineName", "StateMachineType" }, {
    DefinitionString = P.string "DefinitionString" { update = "none" },
    RoleArn = P.string "RoleArn" { required = true, update = "none" },
    StateMachineName = P.string "StateMachineName" { update = "replace" },
    StateMachineType = P.string "StateMachineType" { allowed = { "STANDARD", "EXPRESS" }, update = "replace" },
  }),
  attributes = { "Arn", "Name" },

  create = function(ctx, props)
    local name = props.StateMachineName or props_lib.name(ctx, 80)
    -- Step Functions takes a second identical CreateStateMachine as the
    -- same machine; CloudFormation's handler refuses a name in use.
    local arn = "arn:aws:states:" .. (ctx.region ~= "" and ctx.region or "us-east-1") .. ":"
      .. (ctx.account ~= "" and ctx.account or "123456789012") .. ":stateMachine:" .. name
    if pcall(ctx.world.states.DescribeStateMachine, { stateMachineArn = arn }) then props_lib.already_exists(TYPE, name) end
    local r = sfn_call(ctx.world.states.CreateStateMachine, { name = name, definition = definition(props),
      roleArn = props.RoleArn, type = props.StateMachineType, tags = sfn_tags(tags.for_resource(ctx, props.Tags)) })
    return { id = r.stateMachineArn, attributes = attributes(r.stateMachineArn) }
  end,

  update = function(ctx, id, new, old)
    sfn_call(ctx.world.states.UpdateStateMachine, { stateMachineArn = id, definition = definition(new),
      roleArn = new.RoleArn })
    local set, remove = tags.update_diff(ctx, old.Tags, new.Tags)
    if #remove > 0 then ctx.world.states.UntagResource { resourceArn = id, tagKeys = remove } end
    if next(set) then ctx.world.states.TagResource { resourceArn = id, tags = sfn_tags(set) } end
  end,

  delete = function(ctx, id)
    ctx.world.states.DeleteStateMachine { stateMachineArn = id }
  end,

  read = function(ctx, id, props)
    local m = require("sim").attempt(ctx.world.states.DescribeStateMachine, { stateMachineArn = id })
    if not m then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    local own = {}
    for _, t in ipairs(ctx.world.states.ListTagsForResource({ resourceArn = id }).tags) do own[t.key] = t.value end
    properties.Tags = props_lib.own_tags(own)
    return { properties = properties, attributes = attributes(m.stateMachineArn) }
  end,
}
