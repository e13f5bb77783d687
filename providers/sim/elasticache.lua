-- sim.elasticache: simulated ElastiCache (Redis OSS) replication groups,
-- enough for AWS::ElastiCache::ReplicationGroup and its UseOnlineResharding
-- update policy: node groups (shards) with their members, cluster mode,
-- online resharding that takes simulated time.
--
-- Records: kind "elasticache.replication_group", id "<region>:<group id>"
-- (ElastiCache lower-cases the ID). A group moves creating -> available ->
-- modifying (resharding) -> available -> deleting -> gone, each step
-- timed (sim.transitions; world config "elasticache": create_seconds 480,
-- reshard_seconds 600, delete_seconds 300).
--
-- Actions: CreateReplicationGroup, DescribeReplicationGroups,
-- ModifyReplicationGroup, ModifyReplicationGroupShardConfiguration,
-- DeleteReplicationGroup.
--
-- Messages:
--   Operation is only applicable for cluster mode enabled replication
--   groups. (InvalidParameterValue)       verified: widdix/aws-cf-templates#573
--   Node Group with Id 0001 has replica count 3 (CloudFormation's handler,
--   when a template's ReplicaCount does not match the shard)
--                                         verified: cloudformation-coverage-roadmap#918
--   The parameter ReplicationGroupId is not a valid identifier. ...,
--   Replication group X already exists. / not found.,
--   Replication group X is not in available state. and the resharding
--   parameter errors: ElastiCache's wording for the same faults on cache
--   clusters, not seen verbatim for replication groups.

local world = require("sim.world")
local util = require("sim.cloudformation_util")
local transitions = require("sim.transitions")

local A = {}

local KIND = "elasticache.replication_group"
local DEFAULT_PORT = 6379
local MAX_NODE_GROUPS = 500

local function fail(message, code) require("sim").fail(message, code) end

local function invalid(message) fail(message, "InvalidParameterValue") end

local function key(env, id) return env.region .. ":" .. id end

local function not_found(id) fail("Replication group " .. id .. " not found.", "ReplicationGroupNotFoundFault") end

-- ElastiCache identifiers: 1-40 letters, digits, hyphens; a letter first;
-- no "--", no trailing "-".
local function check_id(id)
  if type(id) ~= "string" or id == "" then
    invalid("The parameter ReplicationGroupId must be provided and must not be blank.")
  end
  if #id > 40 or not id:match("^%a[%w%-]*$") or id:find("--", 1, true) or id:sub(-1) == "-" then
    invalid("The parameter ReplicationGroupId is not a valid identifier. Identifiers must begin with a letter; "
      .. "must contain only ASCII letters, digits, and hyphens; and must not end with a hyphen or contain "
      .. "two consecutive hyphens.")
  end
  return id:lower()
end

local function load(env, id)
  return transitions.load(KIND, key(env, id), env, "deleted")
end

local function az(env, i)
  local letters = "abcdef"
  local n = (i - 1) % #letters + 1
  return env.region .. letters:sub(n, n)
end

-- "us-east-1" -> "use1", as endpoints abbreviate the region.
local function short_region(region)
  local area, dir, n = region:match("^(%a+)%-(%a+)%-(%d+)$")
  return area and (area .. dir:sub(1, 1) .. n) or region
end

local function endpoint_host(env, id, prefix)
  return (prefix and (prefix .. ".") or "") .. id .. "." .. util.hash_hex(id, 6) .. "."
    .. (prefix == nil and "clustercfg." or "") .. short_region(env.region) .. ".cache.amazonaws.com"
end

-- One shard: its primary and `replicas` replicas, members named
-- "<group>-<shard>-<nnn>" as ElastiCache names cluster-mode members.
local function node_group(env, group_id, ng_id, replicas, primary_az, replica_azs, slots)
  local members = {}
  for i = 1, replicas + 1 do
    members[i] = {
      CacheClusterId = group_id .. "-" .. ng_id .. "-" .. string.format("%03d", i),
      CacheNodeId = "0001",
      PreferredAvailabilityZone = i == 1 and (primary_az or az(env, 1))
        or ((replica_azs or {})[i - 1] or az(env, i)),
      CurrentRole = i == 1 and "primary" or "replica",
    }
  end
  return { NodeGroupId = ng_id, Status = "available", Slots = slots or "0-16383", NodeGroupMembers = members }
end

-- The next free 4-digit node group ID ("0001", "0002", ...).
local function next_ng_id(groups, taken)
  for n = 1, 9999 do
    local id = string.format("%04d", n)
    local used = taken[id]
    for _, g in ipairs(groups) do if g.NodeGroupId == id then used = true end end
    if not used then return id end
  end
end

local function member_clusters(groups)
  local out = {}
  for _, g in ipairs(groups) do
    for _, m in ipairs(g.NodeGroupMembers) do out[#out + 1] = m.CacheClusterId end
  end
  return out
end

-- The response shape: the record without the sim's bookkeeping.
local function view(rec)
  local v = {}
  for k, x in pairs(rec) do if k ~= "Transition" then v[k] = x end end
  v.MemberClusters = member_clusters(rec.NodeGroups)
  return v
end

local function number(v, name)
  if v == nil then return nil end
  local n = tonumber(v)
  if not n or n ~= math.floor(n) then invalid("Invalid value for " .. name .. ": " .. tostring(v)) end
  return n
end

function A.CreateReplicationGroup(p, env)
  local id = check_id(p.ReplicationGroupId)
  if type(p.ReplicationGroupDescription) ~= "string" or p.ReplicationGroupDescription == "" then
    invalid("The parameter ReplicationGroupDescription must be provided and must not be blank.")
  end
  if world.get(KIND, key(env, id)) then
    fail("Replication group " .. id .. " already exists.", "ReplicationGroupAlreadyExistsFault")
  end
  local configs = p.NodeGroupConfiguration or {}
  local count = number(p.NumNodeGroups, "NumNodeGroups") or (#configs > 0 and #configs) or nil
  if count and (count < 1 or count > MAX_NODE_GROUPS) then
    invalid("NumNodeGroups must be between 1 and " .. MAX_NODE_GROUPS .. ".")
  end
  if count and #configs > 0 and #configs ~= count then
    invalid("The number of node group configurations (" .. #configs .. ") does not match NumNodeGroups ("
      .. count .. ").")
  end
  local cluster = count ~= nil or p.ClusterMode == "enabled"
  local replicas = number(p.ReplicasPerNodeGroup, "ReplicasPerNodeGroup")
  local groups = {}
  if cluster then
    local taken = {}
    for _, c in ipairs(configs) do if c.NodeGroupId then taken[c.NodeGroupId] = true end end
    for i = 1, count or 1 do
      local c = configs[i] or {}
      local ng_id = c.NodeGroupId or next_ng_id(groups, taken)
      local r = number(c.ReplicaCount, "ReplicaCount") or replicas or 1
      groups[i] = node_group(env, id, ng_id, r, c.PrimaryAvailabilityZone, c.ReplicaAvailabilityZones, c.Slots)
    end
  else
    local n = number(p.NumCacheClusters, "NumCacheClusters") or 1
    groups[1] = node_group(env, id, "0001", n - 1, (p.PreferredCacheClusterAZs or {})[1], nil, nil)
  end
  local port = number(p.Port, "Port") or DEFAULT_PORT
  local rec = {
    ReplicationGroupId = id, Description = p.ReplicationGroupDescription,
    NodeGroups = groups, ClusterEnabled = cluster, CacheNodeType = p.CacheNodeType,
    Engine = p.Engine or "redis", EngineVersion = p.EngineVersion,
    AutomaticFailover = (p.AutomaticFailoverEnabled == true or p.AutomaticFailoverEnabled == "true")
      and "enabled" or "disabled",
    MultiAZ = (p.MultiAZEnabled == true or p.MultiAZEnabled == "true") and "enabled" or "disabled",
    ARN = "arn:aws:elasticache:" .. env.region .. ":" .. env.account .. ":replicationgroup:" .. id,
    Port = port,
  }
  if cluster then
    rec.ConfigurationEndpoint = { Address = endpoint_host(env, id, nil), Port = port }
  else
    rec.PrimaryEndpoint = { Address = endpoint_host(env, id, "master"), Port = port }
    rec.ReaderEndpoint = { Address = endpoint_host(env, id, "replica"), Port = port }
  end
  transitions.start(rec, "Status", "creating", "available", env.now_ms,
    transitions.seconds("elasticache", "create", 480))
  world.put(KIND, key(env, id), rec)
  return { ReplicationGroup = view(rec) }
end

function A.DescribeReplicationGroups(p, env)
  local out = {}
  if p.ReplicationGroupId then
    local rec = load(env, tostring(p.ReplicationGroupId):lower())
    if not rec then not_found(p.ReplicationGroupId) end
    out[1] = view(rec)
  else
    local prefix = env.region .. ":"
    for _, k in ipairs(world.ids(KIND, true, prefix)) do
      local rec = load(env, k:sub(#prefix + 1))
      if rec then out[#out + 1] = view(rec) end
    end
  end
  return { ReplicationGroups = out }
end

local function available(env, id)
  local rec = load(env, tostring(id or ""):lower())
  if not rec then not_found(id) end
  if rec.Status ~= "available" then
    fail("Replication group " .. rec.ReplicationGroupId .. " is not in available state.",
      "InvalidReplicationGroupStateFault")
  end
  return rec
end

-- Settings changed in place at once (the sim does not time them).
local MODIFIABLE = {
  ReplicationGroupDescription = "Description", CacheNodeType = "CacheNodeType",
  EngineVersion = "EngineVersion", SnapshotRetentionLimit = "SnapshotRetentionLimit",
  SnapshotWindow = "SnapshotWindow", PreferredMaintenanceWindow = "PreferredMaintenanceWindow",
}

function A.ModifyReplicationGroup(p, env)
  local rec = available(env, p.ReplicationGroupId)
  for param, field in pairs(MODIFIABLE) do
    if p[param] ~= nil then rec[field] = p[param] end
  end
  if p.AutomaticFailoverEnabled ~= nil then
    rec.AutomaticFailover = (p.AutomaticFailoverEnabled == true or p.AutomaticFailoverEnabled == "true")
      and "enabled" or "disabled"
  end
  if p.MultiAZEnabled ~= nil then
    rec.MultiAZ = (p.MultiAZEnabled == true or p.MultiAZEnabled == "true") and "enabled" or "disabled"
  end
  world.put(KIND, key(env, rec.ReplicationGroupId), rec)
  return { ReplicationGroup = view(rec) }
end

local function index_of(groups, ng_id)
  for i, g in ipairs(groups) do if g.NodeGroupId == ng_id then return i end end
end

-- Online resharding: the group is "modifying" for reshard_seconds, then
-- has NodeGroupCount shards. Adding names the new shards by
-- ReshardingConfiguration (NodeGroupId, PreferredAvailabilityZones);
-- removing needs NodeGroupsToRemove or NodeGroupsToRetain.
function A.ModifyReplicationGroupShardConfiguration(p, env)
  local rec = available(env, p.ReplicationGroupId)
  if not rec.ClusterEnabled then
    invalid("Operation is only applicable for cluster mode enabled replication groups.")
  end
  local target = number(p.NodeGroupCount, "NodeGroupCount")
  if not target or target < 1 or target > MAX_NODE_GROUPS then
    invalid("NodeGroupCount must be between 1 and " .. MAX_NODE_GROUPS .. ".")
  end
  local groups = util.as_list(rec.NodeGroups)
  local current = #groups
  if target == current then
    invalid("The replication group already has " .. current .. " node groups.")
  end
  local new_groups = {}
  if target > current then
    for i, g in ipairs(groups) do new_groups[i] = g end
    local replicas = #groups[1].NodeGroupMembers - 1
    local taken = {}
    local configs = p.ReshardingConfiguration or {}
    for _, c in ipairs(configs) do if c.NodeGroupId then taken[c.NodeGroupId] = true end end
    for i = current + 1, target do
      local c = configs[i - current] or {}
      local ng_id = c.NodeGroupId or next_ng_id(new_groups, taken)
      if index_of(new_groups, ng_id) then invalid("Node group " .. ng_id .. " already exists.") end
      local zones, replica_zones = c.PreferredAvailabilityZones or {}, {}
      for z = 2, #zones do replica_zones[z - 1] = zones[z] end
      new_groups[#new_groups + 1] = node_group(env, rec.ReplicationGroupId, ng_id, replicas, zones[1],
        replica_zones, nil)
    end
  else
    local remove, retain = p.NodeGroupsToRemove, p.NodeGroupsToRetain
    if (remove == nil or #remove == 0) and (retain == nil or #retain == 0) then
      invalid("Either NodeGroupsToRemove or NodeGroupsToRetain must be specified when decreasing the "
        .. "number of node groups.")
    end
    local drop = {}
    if remove and #remove > 0 then
      for _, ng_id in ipairs(remove) do
        if not index_of(groups, ng_id) then invalid("Node group " .. tostring(ng_id) .. " not found.") end
        drop[ng_id] = true
      end
    else
      local keep = {}
      for _, ng_id in ipairs(retain) do
        if not index_of(groups, ng_id) then invalid("Node group " .. tostring(ng_id) .. " not found.") end
        keep[ng_id] = true
      end
      for _, g in ipairs(groups) do if not keep[g.NodeGroupId] then drop[g.NodeGroupId] = true end end
    end
    for _, g in ipairs(groups) do
      if not drop[g.NodeGroupId] then new_groups[#new_groups + 1] = g end
    end
    if #new_groups ~= target then
      invalid("The node groups to remove or retain do not leave NodeGroupCount (" .. target .. ") node groups.")
    end
  end
  -- Slots are spread evenly again (the seed: "ElastiCache evenly distributes
  -- the keyspaces").
  local per = math.floor(16384 / target)
  for i, g in ipairs(new_groups) do
    local first = (i - 1) * per
    local last = i == target and 16383 or (i * per - 1)
    g.Slots = first .. "-" .. last
  end
  transitions.start(rec, "Status", "modifying", "available", env.now_ms,
    transitions.seconds("elasticache", "reshard", 600), { NodeGroups = new_groups })
  world.put(KIND, key(env, rec.ReplicationGroupId), rec)
  return { ReplicationGroup = view(rec) }
end

function A.DeleteReplicationGroup(p, env)
  local rec = load(env, tostring(p.ReplicationGroupId or ""):lower())
  if not rec then not_found(p.ReplicationGroupId) end
  if rec.Status == "deleting" then
    fail("Replication group " .. rec.ReplicationGroupId .. " has status deleting which is not valid for deletion.",
      "InvalidReplicationGroupStateFault")
  end
  transitions.start(rec, "Status", "deleting", "deleted", env.now_ms,
    transitions.seconds("elasticache", "delete", 300))
  world.put(KIND, key(env, rec.ReplicationGroupId), rec)
  return { ReplicationGroup = view(rec) }
end

return A
