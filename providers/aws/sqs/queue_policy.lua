-- AWS::SQS::QueuePolicy on the simulated SQS: the document becomes each
-- listed queue's Policy attribute (SetQueueAttributes, as JSON text).
-- Update behaviours (registry schema): Queues and PolicyDocument No
-- interruption (a queue taken off the list loses the policy). Ref is the
-- generated Id "<stack>-<logical>-<12>". Every queue must exist: SQS's
-- "The specified queue does not exist." fails the resource.
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local props_lib = require("lib.service_props")

local function set_policy(ctx, queues, policy, tolerate_missing)
  for _, url in ipairs(queues or {}) do
    local _, err = props_lib.call(ctx.world.sqs.SetQueueAttributes,
      { QueueUrl = url, Attributes = { Policy = policy } }, { "QueueDoesNotExist" })
    if err and not tolerate_missing then P.fail(err.message, "NotFound") end
  end
end

return P.define {
  type = "AWS::SQS::QueuePolicy",
  properties = {
    P.json "PolicyDocument" { required = true, update = "none" },
    P.list(P.string) "Queues" { required = true, update = "none" },
  },
  attributes = { "Id" },

  create = function(ctx, props)
    set_policy(ctx, props.Queues, props_lib.json(props.PolicyDocument))
    local id = names.physical(ctx.stack_name, ctx.logical_id, 128)
    return { id = id, attributes = { Id = id } }
  end,

  update = function(ctx, _, new, old)
    local keep = {}
    for _, q in ipairs(new.Queues) do keep[q] = true end
    local dropped = {}
    for _, q in ipairs(old.Queues or {}) do if not keep[q] then dropped[#dropped + 1] = q end end
    set_policy(ctx, dropped, "", true)
    set_policy(ctx, new.Queues, props_lib.json(new.PolicyDocument))
  end,

  delete = function(ctx, _, props)
    set_policy(ctx, props and props.Queues, "", true)
  end,

  read = function(ctx, id, props)
    local queue = props and props.Queues and props.Queues[1]
    local r = queue and props_lib.call(ctx.world.sqs.GetQueueAttributes,
      { QueueUrl = queue, AttributeNames = { "Policy" } }, { "QueueDoesNotExist" })
    if not (r and r.Attributes.Policy) then return nil end
    return { properties = props, attributes = { Id = id } }
  end,
}
