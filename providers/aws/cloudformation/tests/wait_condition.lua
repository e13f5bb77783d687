-- Contract-test fixture of AWS::CloudFormation::WaitCondition. setup makes a
-- handle and signals it twice, so the create completes at its first look;
-- every update is unsupported (the engine fails it without a hook call).
local STACK = "arn:aws:cloudformation:us-east-1:123456789012:stack/contract/00000000-0000-4000-8000-000000000000"

return {
  setup = function(aws)
    local h = aws.cloudformation.CreateWaitConditionHandle({ StackId = STACK, LogicalResourceId = "Handle" })
    aws.cloudformation.SignalWaitCondition({ Handle = h.Url, Status = "SUCCESS", UniqueId = "i-1", Data = "one" })
    aws.cloudformation.SignalWaitCondition({ Handle = h.Url, Status = "SUCCESS", UniqueId = "i-2", Data = "two" })
    return { url = h.Url }
  end,
  create = function(v) return { Handle = v.url, Timeout = "300", Count = 2 } end,
  updates = {
    { Timeout = "600" },   -- unsupported
  },
  verify = function(aws, id, props, attributes)
    assert(id == STACK .. "/Handle", "id is " .. id)
    assert(attributes.Data == '{"i-1":"one","i-2":"two"}', "Data is " .. tostring(attributes.Data))
  end,
}
