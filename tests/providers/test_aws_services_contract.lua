-- The contract kit (moonstack.contract) over the S3, SQS, SNS, Logs, Events,
-- Lambda-extras and Step Functions providers with their fixtures, on the host-like world
-- store (see test_aws_iam_contract.lua); their sims' and providers' own
-- suites run there again too.
local H = require("harness")
local T = H.suite("service providers on a host-like world")
local W = require("host_like_world")

W.contract_cases(T, {
  "s3/bucket", "s3/bucket_policy", "sqs/queue", "sqs/queue_policy", "sns/topic", "sns/subscription",
  "sns/topic_policy", "logs/log_group", "events/rule", "lambda/permission", "lambda/layer_version",
  "lambda/event_source_mapping", "lambda/url", "stepfunctions/state_machine",
})

W.suite_cases(T, { "test_sim_s3", "test_aws_s3", "test_sim_sqs", "test_aws_sqs", "test_sim_sns",
                 "test_aws_sns", "test_sim_logs", "test_aws_logs", "test_aws_events",
                 "test_sim_lambda_extras", "test_aws_lambda_extras", "test_sim_states" })

return T
