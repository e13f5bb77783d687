-- The simulated ElastiCache: replication groups, their timed states and
-- online resharding, with ElastiCache's errors.
local H = require("harness")
local T = H.suite("sim elasticache")

local function ec() return require("sim").client().elasticache end

T.case("a group is creating, then available after create_seconds; IDs are lower-cased", function()
  local world = fresh()
  local g = ec().CreateReplicationGroup({ ReplicationGroupId = "Web-Cache", ReplicationGroupDescription = "d",
    NumNodeGroups = 2, ReplicasPerNodeGroup = 1 }).ReplicationGroup
  H.eq(g.Status, "creating")
  H.eq(g.ReplicationGroupId, "web-cache")
  H.same(g.MemberClusters, { "web-cache-0001-001", "web-cache-0001-002", "web-cache-0002-001", "web-cache-0002-002" })
  world.set_now_ms(479 * 1000)
  H.eq(ec().DescribeReplicationGroups({ ReplicationGroupId = "web-cache" }).ReplicationGroups[1].Status, "creating")
  world.set_now_ms(480 * 1000)
  H.eq(ec().DescribeReplicationGroups({ ReplicationGroupId = "WEB-CACHE" }).ReplicationGroups[1].Status, "available")
  H.raises(function() ec().CreateReplicationGroup({ ReplicationGroupId = "web-cache", ReplicationGroupDescription = "d" }) end,
    "Replication group web-cache already exists.")
end)

T.case("errors: identifiers, description, unknown groups, states", function()
  local world = fresh()
  H.raises(function() ec().CreateReplicationGroup({ ReplicationGroupId = "1abc", ReplicationGroupDescription = "d" }) end,
    "The parameter ReplicationGroupId is not a valid identifier. Identifiers must begin with a letter; must contain "
    .. "only ASCII letters, digits, and hyphens; and must not end with a hyphen or contain two consecutive hyphens.")
  H.raises(function() ec().CreateReplicationGroup({ ReplicationGroupId = "a--b", ReplicationGroupDescription = "d" }) end,
    "The parameter ReplicationGroupId is not a valid identifier. Identifiers must begin with a letter; must contain "
    .. "only ASCII letters, digits, and hyphens; and must not end with a hyphen or contain two consecutive hyphens.")
  H.raises(function() ec().CreateReplicationGroup({ ReplicationGroupId = "a" }) end,
    "The parameter ReplicationGroupDescription must be provided and must not be blank.")
  H.raises(function() ec().DescribeReplicationGroups({ ReplicationGroupId = "nope" }) end,
    "Replication group nope not found.")
  ec().CreateReplicationGroup({ ReplicationGroupId = "plain", ReplicationGroupDescription = "d", NumCacheClusters = 2 })
  H.raises(function() ec().ModifyReplicationGroupShardConfiguration({ ReplicationGroupId = "plain", NodeGroupCount = 2 }) end,
    "Replication group plain is not in available state.")
  world.set_now_ms(480 * 1000)
  H.raises(function() ec().ModifyReplicationGroupShardConfiguration({ ReplicationGroupId = "plain", NodeGroupCount = 2 }) end,
    "Operation is only applicable for cluster mode enabled replication groups.")
end)

T.case("resharding: modifying for reshard_seconds, then the new shards; removal names them", function()
  local world = fresh()
  world.put("config", "elasticache", { create_seconds = 1, reshard_seconds = 60 })
  ec().CreateReplicationGroup({ ReplicationGroupId = "c", ReplicationGroupDescription = "d", NumNodeGroups = 2 })
  world.set_now_ms(1000)
  local g = ec().ModifyReplicationGroupShardConfiguration({ ReplicationGroupId = "c", NodeGroupCount = 3,
    ReshardingConfiguration = { { NodeGroupId = "abcd", PreferredAvailabilityZones = { "us-east-1b" } } } }).ReplicationGroup
  H.eq(g.Status, "modifying")
  H.eq(#g.NodeGroups, 2)
  world.set_now_ms(61 * 1000)
  g = ec().DescribeReplicationGroups({ ReplicationGroupId = "c" }).ReplicationGroups[1]
  H.eq(g.Status, "available")
  H.same({ g.NodeGroups[1].NodeGroupId, g.NodeGroups[2].NodeGroupId, g.NodeGroups[3].NodeGroupId }, { "0001", "0002", "abcd" })
  H.raises(function() ec().ModifyReplicationGroupShardConfiguration({ ReplicationGroupId = "c", NodeGroupCount = 1 }) end,
    "Either NodeGroupsToRemove or NodeGroupsToRetain must be specified when decreasing the number of node groups.")
  H.raises(function() ec().ModifyReplicationGroupShardConfiguration({ ReplicationGroupId = "c", NodeGroupCount = 3 }) end,
    "The replication group already has 3 node groups.")
  H.raises(function()
    ec().ModifyReplicationGroupShardConfiguration({ ReplicationGroupId = "c", NodeGroupCount = 2, NodeGroupsToRemove = { "9999" } })
  end, "Node group 9999 not found.")
  ec().ModifyReplicationGroupShardConfiguration({ ReplicationGroupId = "c", NodeGroupCount = 1, NodeGroupsToRetain = { "abcd" } })
  world.set_now_ms(121 * 1000)
  g = ec().DescribeReplicationGroups({ ReplicationGroupId = "c" }).ReplicationGroups[1]
  H.eq(#g.NodeGroups, 1)
  H.eq(g.NodeGroups[1].NodeGroupId, "abcd")
  H.eq(g.NodeGroups[1].Slots, "0-16383")
end)

T.case("delete: deleting, then gone", function()
  local world = fresh()
  world.put("config", "elasticache", { create_seconds = 1, delete_seconds = 10 })
  ec().CreateReplicationGroup({ ReplicationGroupId = "c", ReplicationGroupDescription = "d" })
  H.eq(ec().DeleteReplicationGroup({ ReplicationGroupId = "c" }).ReplicationGroup.Status, "deleting")
  H.raises(function() ec().DeleteReplicationGroup({ ReplicationGroupId = "c" }) end,
    "Replication group c has status deleting which is not valid for deletion.")
  world.set_now_ms(10 * 1000)
  H.same(ec().DescribeReplicationGroups({}).ReplicationGroups, {})
end)

return T
