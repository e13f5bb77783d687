-- Contract-test fixture of AWS::Elasticsearch::Domain: a 7.10 domain; its
-- access policies in place; its name (replacement).
return {
  create = { ElasticsearchVersion = "7.10", ElasticsearchClusterConfig = { InstanceType = "t3.small.elasticsearch" } },
  updates = {
    { AccessPolicies = { Version = "2012-10-17", Statement = {} } },  -- none
    { DomainName = "contract-renamed" },                              -- replace
  },
  verify = function(aws, id, props, attributes)
    local s = aws.es.DescribeElasticsearchDomain({ DomainName = id }).DomainStatus
    assert(s.ElasticsearchVersion == props.ElasticsearchVersion, "version is " .. s.ElasticsearchVersion)
    assert(s.ElasticsearchClusterConfig.InstanceType == "t3.small.elasticsearch", "cluster config")
    assert(attributes.Id == s.DomainId, "Id")
  end,
}
