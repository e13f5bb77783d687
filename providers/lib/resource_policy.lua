-- lib.resource_policy: the declaration of a policy resource that puts one
-- document on a list of targets (AWS::SQS::QueuePolicy on Queues,
-- AWS::SNS::TopicPolicy on Topics). Update behaviours (registry schemas):
-- the list and PolicyDocument No interruption; a target taken off the list
-- loses the policy. Ref is the generated Id "<stack>-<logical>-<12>". Every
-- target must exist: the service's not-found message fails the resource.
--
--   return require("lib.resource_policy") {
--     type = "AWS::SQS::QueuePolicy", list = "Queues", missing = "QueueDoesNotExist",
--     set = function(ctx, target, policy_text) ... end,   -- policy_text "" removes it
--     get = function(ctx, target) return policy_text_or_nil end,
--   }
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local props_lib = require("lib.service_props")

return function(spec)
  local function set_all(ctx, targets, policy, tolerate_missing)
    for _, target in ipairs(targets or {}) do
      local _, err = props_lib.call(function() return spec.set(ctx, target, policy) end, nil, { spec.missing })
      if err and not tolerate_missing then P.fail(err.message, "NotFound") end
    end
  end

  return P.define {
    type = spec.type,
    properties = {
      P.json "PolicyDocument" { required = true, update = "none" },
      P.list(P.string)(spec.list) { required = true, update = "none" },
    },
    attributes = { "Id" },

    create = function(ctx, props)
      set_all(ctx, props[spec.list], props_lib.json(props.PolicyDocument))
      local id = names.physical(ctx.stack_name, ctx.logical_id, 128)
      return { id = id, attributes = { Id = id } }
    end,

    update = function(ctx, _, new, old)
      local keep, dropped = {}, {}
      for _, t in ipairs(new[spec.list]) do keep[t] = true end
      for _, t in ipairs(old[spec.list] or {}) do if not keep[t] then dropped[#dropped + 1] = t end end
      set_all(ctx, dropped, "", true)
      set_all(ctx, new[spec.list], props_lib.json(new.PolicyDocument))
    end,

    delete = function(ctx, _, props) set_all(ctx, props and props[spec.list], "", true) end,

    read = function(ctx, id, props)
      local first = props and props[spec.list] and props[spec.list][1]
      local ok, policy = pcall(function() return first and spec.get(ctx, first) end)
      if not (ok and policy) then return nil end
      return { properties = props, attributes = { Id = id } }
    end,
  }
end
