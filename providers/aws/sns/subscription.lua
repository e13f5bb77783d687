-- AWS::SNS::Subscription on the simulated SNS. Update behaviours (registry
-- schema): TopicArn, Protocol and Endpoint Replacement; the others
-- (FilterPolicy, RawMessageDelivery, RedrivePolicy, ...) No interruption
-- (SetSubscriptionAttributes). Ref and Fn::GetAtt Arn are the subscription
-- ARN ("<topic ARN>:<uuid>"). The topic must exist ("Topic does not exist",
-- SNS's NotFound); the protocol is one SNS supports.
local P = require("moonstack.provider")
local props_lib = require("lib.service_props")

local ATTRIBUTES = { "DeliveryPolicy", "FilterPolicy", "FilterPolicyScope", "RawMessageDelivery", "RedrivePolicy",
                     "ReplayPolicy", "SubscriptionRoleArn" }

local function text(v)
  if v == nil then return "" end
  if type(v) == "table" then return props_lib.json(v) end
  return tostring(v)
end

return P.define {
  type = "AWS::SNS::Subscription",
  properties = props_lib.json_list(P, {
    "DeliveryPolicy", "Endpoint", "FilterPolicy", "FilterPolicyScope", "Protocol", "RawMessageDelivery",
    "RedrivePolicy", "Region", "ReplayPolicy", "SubscriptionRoleArn", "TopicArn",
  }, { "Endpoint", "Protocol", "TopicArn" }, {
    Endpoint = P.string "Endpoint" { update = "replace" },
    Protocol = P.string "Protocol" { required = true, update = "replace" },
    RawMessageDelivery = P.boolean "RawMessageDelivery" { update = "none" },
    Region = P.string "Region" { update = "none" },
    TopicArn = P.string "TopicArn" { required = true, update = "replace" },
  }),
  attributes = { "Arn" },
  primary_identifier = "Arn",

  create = function(ctx, props)
    local attrs = {}
    for _, a in ipairs(ATTRIBUTES) do if props[a] ~= nil then attrs[a] = text(props[a]) end end
    local r, err = props_lib.call(ctx.world.sns.Subscribe,
      { TopicArn = props.TopicArn, Protocol = props.Protocol, Endpoint = props.Endpoint, Attributes = attrs },
      { "NotFound", "InvalidParameter" })
    if err then P.fail(err.message, err.code) end
    local arn = r.SubscriptionArn
    return { id = arn, attributes = { Arn = arn } }
  end,

  update = function(ctx, id, new, _, changed)
    for _, prop in ipairs(changed) do
      if prop ~= "Region" then
        ctx.world.sns.SetSubscriptionAttributes { SubscriptionArn = id, AttributeName = prop, AttributeValue = text(new[prop]) }
      end
    end
  end,

  delete = function(ctx, id)
    props_lib.call(ctx.world.sns.Unsubscribe, { SubscriptionArn = id }, { "NotFound" })
  end,

  read = function(ctx, id, props)
    local r = props_lib.call(ctx.world.sns.GetSubscriptionAttributes, { SubscriptionArn = id }, { "NotFound" })
    if not r then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    local raw = r.Attributes.RawMessageDelivery
    if raw ~= nil or properties.RawMessageDelivery ~= nil then properties.RawMessageDelivery = raw == "true" end
    return { properties = properties, attributes = { Arn = id } }
  end,
}
