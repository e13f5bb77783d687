-- Contract-test fixture of AWS::OpenSearchService::Domain: a domain; its
-- EBS options in place; its name (replacement). The version upgrade under
-- EnableVersionUpgrade is in tests/providers/test_aws_opensearch.lua.
return {
  create = { EngineVersion = "OpenSearch_2.11", EBSOptions = { EBSEnabled = true, VolumeSize = 10 } },
  updates = {
    { EBSOptions = { EBSEnabled = true, VolumeSize = 20 } },   -- none
    { DomainName = "contract-renamed" },                       -- replace
  },
  verify = function(aws, id, props, attributes)
    local s = aws.opensearch.DescribeDomain({ DomainName = id }).DomainStatus
    assert(not s.Processing, "still processing")
    assert(s.EngineVersion == props.EngineVersion, "version is " .. s.EngineVersion)
    assert(s.EBSOptions.VolumeSize == props.EBSOptions.VolumeSize, "volume size")
    assert(attributes.DomainEndpoint == s.Endpoint and attributes.Arn == s.ARN, "attributes")
  end,
}
