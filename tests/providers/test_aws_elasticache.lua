-- AWS::ElastiCache::ReplicationGroup driven as the engine drives it, with and
-- without the UseOnlineResharding update policy (seed 004).
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws elasticache replication group")

local RG = D.load("elasticache/replication_group")

local function shards(g) return g.NodeGroups end
local function ids(g)
  local out = {}
  for i, ng in ipairs(g.NodeGroups) do out[i] = ng.NodeGroupId end
  return out
end

local function group(sim, id)
  return sim.client().elasticache.DescribeReplicationGroups({ ReplicationGroupId = id }).ReplicationGroups[1]
end

local function configs(n)
  local out = {}
  for i = 1, n do out[i] = { NodeGroupId = string.format("%04d", i), ReplicaCount = 1 } end
  return out
end

local function create(world, sim, props, ctx)
  ctx = ctx or D.context(sim, "Cache")
  local valid = RG:validate(props, ctx)
  local r, trace = D.run(world, RG, "create", ctx, valid)
  return r, valid, trace
end

T.case("create: in progress until available (8 simulated minutes), Ref lower-case, endpoints", function()
  local world, sim = fresh()
  local r, _, trace = create(world, sim, { ReplicationGroupDescription = "d", NumNodeGroups = 2, ReplicasPerNodeGroup = 2 })
  H.match(r.id, "^s%-cache%-%w+$")
  H.eq(r.id, r.id:lower())
  H.eq(trace.seconds, 480)
  local g = group(sim, r.id)
  H.eq(g.Status, "available")
  H.same(ids(g), { "0001", "0002" })
  H.eq(#shards(g)[1].NodeGroupMembers, 3)
  H.eq(r.attributes["ConfigurationEndPoint.Port"], "6379")
  H.match(r.attributes["ConfigurationEndPoint.Address"], "^" .. r.id:gsub("%-", "%%-") .. "%.%x+%.clustercfg%.use1%.cache%.amazonaws%.com$")
end)

T.case("validation: the description is required, node group configurations are a list", function()
  H.raises(function() RG:validate({ NumNodeGroups = 2 }, { logical_id = "Cache" }) end,
    "Properties validation failed for resource Cache with message: #: required key [ReplicationGroupDescription] not found")
  H.raises(function() RG:validate({ ReplicationGroupDescription = "d", NodeGroupConfiguration = "0001" }, { logical_id = "Cache" }) end,
    "Value of property NodeGroupConfiguration must be of type List")
  H.raises(function() RG:validate({ ReplicationGroupDescription = "d", NumNodeGroups = "two" }, { logical_id = "Cache" }) end,
    "Encountered non numeric value for property NumNodeGroups")
end)

T.case("a generated ID never holds \"--\" (a stack name cut at a hyphen)", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "SessionCache")
  ctx.stack_name = "prod-sessions-store"
  local r = D.run(world, RG, "create", ctx, RG:validate({ ReplicationGroupDescription = "d" }, ctx))
  H.match(r.id, "^prod%-sessions%-sessioncache%-%w+$")
end)

T.case("NumNodeGroups: replacement without the policy, in place with UseOnlineResharding (true or \"true\")", function()
  local world, sim = fresh()
  local old = RG:validate({ ReplicationGroupDescription = "d", NumNodeGroups = 2 }, {})
  local new = RG:validate({ ReplicationGroupDescription = "d", NumNodeGroups = 3 }, {})
  H.eq((RG:change(old, new, D.context(sim))), "replace")
  H.eq((RG:change(old, new, D.context(sim, "Cache", { UseOnlineResharding = false }))), "replace")
  H.eq((RG:change(old, new, D.context(sim, "Cache", { UseOnlineResharding = true }))), "none")
  H.eq((RG:change(old, new, D.context(sim, "Cache", { UseOnlineResharding = "true" }))), "none")
  -- Node group configurations without NodeGroupId cannot be resharded online.
  local anon_old = RG:validate({ ReplicationGroupDescription = "d", NodeGroupConfiguration = { { ReplicaCount = 1 } } }, {})
  local anon_new = RG:validate({ ReplicationGroupDescription = "d",
    NodeGroupConfiguration = { { ReplicaCount = 1 }, { ReplicaCount = 1 } } }, {})
  H.eq((RG:change(anon_old, anon_new, D.context(sim, "Cache", { UseOnlineResharding = true }))), "replace")
  local named_old = RG:validate({ ReplicationGroupDescription = "d", NodeGroupConfiguration = configs(1) }, {})
  local named_new = RG:validate({ ReplicationGroupDescription = "d", NodeGroupConfiguration = configs(2) }, {})
  H.eq((RG:change(named_old, named_new, D.context(sim, "Cache", { UseOnlineResharding = true }))), "none")
  -- Other properties keep their own behaviour under the policy.
  local moved = RG:validate({ ReplicationGroupDescription = "d", NumNodeGroups = 2, Port = 6380 }, {})
  H.eq((RG:change(old, moved, D.context(sim, "Cache", { UseOnlineResharding = true }))), "replace")
end)

T.case("online resharding adds the named shards in the world, the group keeping its ID", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "Cache", { UseOnlineResharding = true })
  local r, old = create(world, sim, { ReplicationGroupDescription = "d", NodeGroupConfiguration = configs(2) }, ctx)
  local new = RG:validate({ ReplicationGroupDescription = "d2", NodeGroupConfiguration = {
    configs(2)[1], configs(2)[2], { NodeGroupId = "0007", ReplicaCount = 1, PrimaryAvailabilityZone = "us-east-1c" } } }, ctx)
  local behaviour, changed = RG:change(old, new, ctx)
  H.eq(behaviour, "none")
  H.same(changed, { "NodeGroupConfiguration", "ReplicationGroupDescription" })
  local u, trace = D.run(world, RG, "update", ctx, r.id, new, old, changed)
  H.eq(trace.seconds, 600) -- resharding takes reshard_seconds of simulated time
  local g = group(sim, r.id)
  H.eq(g.Status, "available")
  H.eq(g.Description, "d2")
  H.same(ids(g), { "0001", "0002", "0007" })
  H.eq(g.NodeGroups[3].NodeGroupMembers[1].PreferredAvailabilityZone, "us-east-1c")
  H.same({ g.NodeGroups[1].Slots, g.NodeGroups[2].Slots, g.NodeGroups[3].Slots }, { "0-5460", "5461-10921", "10922-16383" })
  H.truthy(u.attributes, "attributes")
end)

T.case("online resharding removes the shards the template dropped; NumNodeGroups alone removes the last", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "Cache", { UseOnlineResharding = "true" })
  local r, old = create(world, sim, { ReplicationGroupDescription = "d", NodeGroupConfiguration = configs(3) }, ctx)
  local new = RG:validate({ ReplicationGroupDescription = "d", NodeGroupConfiguration = { configs(3)[1], configs(3)[3] } }, ctx)
  local _, changed = RG:change(old, new, ctx)
  D.run(world, RG, "update", ctx, r.id, new, old, changed)
  H.same(ids(group(sim, r.id)), { "0001", "0003" })

  local r2, old2 = create(world, sim, { ReplicationGroupDescription = "d", NumNodeGroups = 3 }, D.context(sim, "Other"))
  local new2 = RG:validate({ ReplicationGroupDescription = "d", NumNodeGroups = 1 }, ctx)
  local _, changed2 = RG:change(old2, new2, ctx)
  D.run(world, RG, "update", ctx, r2.id, new2, old2, changed2)
  H.same(ids(group(sim, r2.id)), { "0001" })
end)

T.case("a retained shard whose ReplicaCount differs fails as CloudFormation does; nothing resharded", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "Cache", { UseOnlineResharding = true })
  local r, old = create(world, sim, { ReplicationGroupDescription = "d", NodeGroupConfiguration = configs(1) }, ctx)
  local grown = configs(2)
  grown[1].ReplicaCount = 3
  local new = RG:validate({ ReplicationGroupDescription = "d", NodeGroupConfiguration = grown }, ctx)
  local _, changed = RG:change(old, new, ctx)
  H.eq(D.failure(function() D.run(world, RG, "update", ctx, r.id, new, old, changed) end),
    "Node Group with Id 0001 has replica count 1")
  H.same(ids(group(sim, r.id)), { "0001" })
end)

T.case("rollback restores the other properties but not the node groups (seed 004)", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "Cache", { UseOnlineResharding = true })
  local r, old = create(world, sim, { ReplicationGroupDescription = "d", NumNodeGroups = 1 }, ctx)
  local new = RG:validate({ ReplicationGroupDescription = "d2", NumNodeGroups = 2 }, ctx)
  local _, changed = RG:change(old, new, ctx)
  D.run(world, RG, "update", ctx, r.id, new, old, changed)
  D.run(world, RG, "rollback", ctx, r.id, old, new, changed)
  local g = group(sim, r.id)
  H.eq(g.Description, "d")
  H.eq(#g.NodeGroups, 2)
end)

T.case("delete: in progress until the group is gone", function()
  local world, sim = fresh()
  local r = create(world, sim, { ReplicationGroupDescription = "d" })
  local _, trace = D.run(world, RG, "delete", D.context(sim, "Cache"), r.id, {})
  H.eq(trace.seconds, 300)
  H.same(sim.client().elasticache.DescribeReplicationGroups({}).ReplicationGroups, {})
  H.eq(RG.read(D.context(sim, "Cache"), r.id, {}), nil)
end)

return T
