-- AWS::OpenSearchService::Domain on the simulated OpenSearch Service, with
-- the EnableVersionUpgrade update policy: see sim/opensearch_cfn.lua (shared
-- with the legacy AWS::Elasticsearch::Domain) and sim/opensearch.lua.
local cfn = require("sim.opensearch_cfn")

return cfn.define {
  type = "AWS::OpenSearchService::Domain",
  api = cfn.APIS.opensearch,
  properties = {
    "AIMLOptions", "AccessPolicies", "AdvancedOptions", "AdvancedSecurityOptions", "ClusterConfig",
    "CognitoOptions", "DeploymentStrategyOptions", "DomainEndpointOptions", "EBSOptions",
    "EncryptionAtRestOptions", "IPAddressType", "IdentityCenterOptions", "LogPublishingOptions",
    "NodeToNodeEncryptionOptions", "OffPeakWindowOptions", "SkipShardMigrationWait", "SnapshotOptions",
    "SoftwareUpdateOptions", "VPCOptions",
  },
}
