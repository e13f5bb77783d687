-- Contract-test fixture of AWS::ElastiCache::ReplicationGroup: a cluster-mode
-- group of 2 shards; its description in place, its port (replacement).
-- The UseOnlineResharding policy is exercised by tests/providers/test_aws_elasticache.lua.
return {
  create = { ReplicationGroupDescription = "contract", NumNodeGroups = 2, ReplicasPerNodeGroup = 1,
             CacheNodeType = "cache.t3.micro", Engine = "redis" },
  updates = {
    { ReplicationGroupDescription = "changed" },      -- none
    { Port = 6380 },                                  -- replace
  },
  verify = function(aws, id, props, attributes)
    local g = aws.elasticache.DescribeReplicationGroups({ ReplicationGroupId = id }).ReplicationGroups[1]
    assert(g.Status == "available", "status is " .. g.Status)
    assert(g.Description == props.ReplicationGroupDescription, "description is " .. tostring(g.Description))
    assert(#g.NodeGroups == 2, #g.NodeGroups .. " node groups")
    assert(attributes["ConfigurationEndPoint.Port"] == tostring(props.Port or 6379), "port attribute")
  end,
}
