-- AWS::SNS::TopicPolicy on the simulated SNS: the document becomes each
-- listed topic's Policy attribute; a missing topic fails with SNS's "Topic
-- does not exist". Behaviours and Ref: lib/resource_policy.lua.
return require("lib.resource_policy") {
  type = "AWS::SNS::TopicPolicy", list = "Topics", missing = "NotFound",
  set = function(ctx, arn, policy)
    ctx.world.sns.SetTopicAttributes { TopicArn = arn, AttributeName = "Policy", AttributeValue = policy }
  end,
  get = function(ctx, arn) return ctx.world.sns.GetTopicAttributes({ TopicArn = arn }).Attributes.Policy end,
}
