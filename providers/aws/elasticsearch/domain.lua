-- AWS::Elasticsearch::Domain (legacy) on the simulated OpenSearch Service's
-- "es" API, with the EnableVersionUpgrade update policy: see
-- sim/opensearch_cfn.lua (shared with AWS::OpenSearchService::Domain).
local cfn = require("sim.opensearch_cfn")

return cfn.define {
  type = "AWS::Elasticsearch::Domain",
  api = cfn.APIS.es,
  properties = {
    "AccessPolicies", "AdvancedOptions", "AdvancedSecurityOptions", "CognitoOptions", "DomainEndpointOptions",
    "EBSOptions", "ElasticsearchClusterConfig", "EncryptionAtRestOptions", "LogPublishingOptions",
    "NodeToNodeEncryptionOptions", "SnapshotOptions", "VPCOptions",
  },
}
