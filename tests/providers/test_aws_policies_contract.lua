-- The contract kit over the providers of seed 004's other update policies
-- (ElastiCache, OpenSearch / Elasticsearch, Lambda + CodeDeploy, AppStream)
-- with their fixtures, and their suites again, on the host-like store.
local H = require("harness")
local T = H.suite("update-policy providers on a host-like world")
local W = require("host_like_world")

W.contract_cases(T, {
  "elasticache/replication_group", "opensearchservice/domain", "elasticsearch/domain",
  "lambda/function", "lambda/version", "lambda/alias", "codedeploy/application", "codedeploy/deployment_group",
  "appstream/fleet",
})

W.suite_cases(T, {
  "test_sim_elasticache", "test_aws_elasticache", "test_sim_opensearch", "test_aws_opensearch",
  "test_sim_lambda_codedeploy", "test_aws_lambda_codedeploy", "test_sim_appstream", "test_aws_appstream",
})

return T
