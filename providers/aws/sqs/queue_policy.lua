-- AWS::SQS::QueuePolicy on the simulated SQS: the document becomes each
-- listed queue's Policy attribute (SetQueueAttributes, as JSON text); a
-- missing queue fails with SQS's "The specified queue does not exist.".
-- Behaviours and Ref: lib/resource_policy.lua.
return require("lib.resource_policy") {
  type = "AWS::SQS::QueuePolicy", list = "Queues", missing = "QueueDoesNotExist",
  set = function(ctx, url, policy)
    ctx.world.sqs.SetQueueAttributes { QueueUrl = url, Attributes = { Policy = policy } }
  end,
  get = function(ctx, url)
    return ctx.world.sqs.GetQueueAttributes({ QueueUrl = url, AttributeNames = { "Policy" } }).Attributes.Policy
  end,
}
