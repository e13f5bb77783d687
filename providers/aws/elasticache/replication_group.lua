-- AWS::ElastiCache::ReplicationGroup on the simulated ElastiCache, with the
-- UseOnlineResharding update policy (seed 004).
--
-- Update behaviours ("Update requires" in the resource reference; the
-- registry schema's create-only properties replace): NumNodeGroups and
-- NodeGroupConfiguration are Replacement, or No interruption when the
-- resource's UpdatePolicy has UseOnlineResharding: true — and every node
-- group configuration (before and after) names its NodeGroupId, which
-- CloudFormation needs to tell the shards apart (without it the change is a
-- replacement, as without the policy). The online change is
-- ModifyReplicationGroupShardConfiguration: shards added (named by the new
-- configurations' NodeGroupId) or removed (those no longer in the template,
-- else the last ones), then in progress until the group is available again
-- (reshard_seconds of simulated time).
-- A retained shard whose ReplicaCount in the template differs from the
-- group's fails as CloudFormation does ("Node Group with Id 0001 has replica
-- count 3", cloudformation-coverage-roadmap#918).
-- As the seed says, a failed update does not roll back the node groups:
-- rollback restores the other properties only.
-- Ref is the (lower-case) ReplicationGroupId; without one CloudFormation
-- generates "<stack>-<logical>-<random>" (40 characters at most).

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

local POLL_SECONDS = 30
local SHARD_PROPS = { NumNodeGroups = true, NodeGroupConfiguration = true }

local policy_on = require("lib.policy_values").flag

local function all_named(configs)
  for _, c in ipairs(type(configs) == "table" and configs or {}) do
    if type(c) ~= "table" or c.NodeGroupId == nil then return false end
  end
  return true
end

-- NumNodeGroups / NodeGroupConfiguration: in place only with the policy
-- and identified node groups.
local function reshard_or_replace(old, new, ctx, old_props, new_props)
  if not policy_on(ctx, "UseOnlineResharding") then return "replace" end
  if not all_named((old_props or {}).NodeGroupConfiguration) or not all_named((new_props or {}).NodeGroupConfiguration) then
    return "replace"
  end
  return "none"
end

local function shard_count(props)
  local configs = props.NodeGroupConfiguration
  if props.NumNodeGroups then return tonumber(props.NumNodeGroups) end
  if type(configs) == "table" and #configs > 0 then return #configs end
  return 1
end

local function ec(ctx) return ctx.world.elasticache end

local function describe(ctx, id)
  local ok, r = pcall(ec(ctx).DescribeReplicationGroups, { ReplicationGroupId = id })
  if ok then return r.ReplicationGroups[1] end
  if type(r) == "table" and r.code == "ReplicationGroupNotFoundFault" then return nil end
  error(r, 0)
end

local function attributes(g)
  local cfg, primary, reader = g.ConfigurationEndpoint or {}, g.PrimaryEndpoint or {}, g.ReaderEndpoint or {}
  local addresses, ports = {}, {}
  for _, ng in ipairs(g.NodeGroups) do
    for _, m in ipairs(ng.NodeGroupMembers) do
      if m.CurrentRole == "replica" then
        addresses[#addresses + 1] = m.CacheClusterId .. ".cache.amazonaws.com"
        ports[#ports + 1] = tostring(g.Port)
      end
    end
  end
  local function s(v) return v ~= nil and tostring(v) or "" end
  return {
    ["ConfigurationEndPoint.Address"] = s(cfg.Address), ["ConfigurationEndPoint.Port"] = s(cfg.Port),
    ["PrimaryEndPoint.Address"] = s(primary.Address), ["PrimaryEndPoint.Port"] = s(primary.Port),
    ["ReaderEndPoint.Address"] = s(reader.Address), ["ReaderEndPoint.Port"] = s(reader.Port),
    ["ReadEndPoint.Addresses"] = table.concat(addresses, ","), ["ReadEndPoint.Ports"] = table.concat(ports, ","),
    ["ReadEndPoint.Addresses.List"] = table.concat(addresses, ","), ["ReadEndPoint.Ports.List"] = table.concat(ports, ","),
  }
end

local function wait(step)
  return P.in_progress { after = POLL_SECONDS, context = { step = step } }
end

-- In progress until the group is available again; its attributes then.
local function until_available(ctx, id, step)
  local g = describe(ctx, id)
  if not g then P.fail("ReplicationGroup " .. id .. " not found", "NotFound") end
  if g.Status ~= "available" then return wait(step) end
  return { attributes = attributes(g) }
end

-- The settings ModifyReplicationGroup applies; true when one changed.
local function modify(ctx, id, new, changed)
  local req, any = { ReplicationGroupId = id, ApplyImmediately = true }, false
  for _, name in ipairs(changed) do
    if name == "ReplicationGroupDescription" or name == "CacheNodeType" or name == "EngineVersion"
        or name == "SnapshotRetentionLimit" or name == "SnapshotWindow" or name == "PreferredMaintenanceWindow"
        or name == "AutomaticFailoverEnabled" or name == "MultiAZEnabled" then
      req[name] = new[name]
      any = true
    end
  end
  if any then ec(ctx).ModifyReplicationGroup(req) end
  return any
end

-- The shards the template names, by NodeGroupId.
local function named(props)
  local out = {}
  for _, c in ipairs(props.NodeGroupConfiguration or {}) do out[c.NodeGroupId] = c end
  return out
end

-- Checks retained shards against the group, then asks for the new count.
local function reshard(ctx, id, new)
  local g = describe(ctx, id)
  if not g then P.fail("ReplicationGroup " .. id .. " not found", "NotFound") end
  local wanted = named(new)
  for _, ng in ipairs(g.NodeGroups) do
    local c = wanted[ng.NodeGroupId]
    local actual = #ng.NodeGroupMembers - 1
    if c and c.ReplicaCount ~= nil and tonumber(c.ReplicaCount) ~= actual then
      P.fail("Node Group with Id " .. ng.NodeGroupId .. " has replica count " .. actual, "InvalidRequest")
    end
  end
  local target, current = shard_count(new), #g.NodeGroups
  if target == current then return false end
  local req = { ReplicationGroupId = id, NodeGroupCount = target, ApplyImmediately = true }
  if target > current then
    local have = {}
    for _, ng in ipairs(g.NodeGroups) do have[ng.NodeGroupId] = true end
    local adding = {}
    for _, c in ipairs(new.NodeGroupConfiguration or {}) do
      if not have[c.NodeGroupId] then
        local zones = { c.PrimaryAvailabilityZone }
        for _, z in ipairs(c.ReplicaAvailabilityZones or {}) do zones[#zones + 1] = z end
        adding[#adding + 1] = { NodeGroupId = c.NodeGroupId, PreferredAvailabilityZones = zones }
      end
    end
    if #adding > 0 then req.ReshardingConfiguration = adding end
  elseif next(wanted) ~= nil then
    local remove = {}
    for _, ng in ipairs(g.NodeGroups) do
      if not wanted[ng.NodeGroupId] then remove[#remove + 1] = ng.NodeGroupId end
    end
    req.NodeGroupsToRemove = remove
  else
    local remove = {}
    for i = target + 1, current do remove[#remove + 1] = g.NodeGroups[i].NodeGroupId end
    req.NodeGroupsToRemove = remove
  end
  ec(ctx).ModifyReplicationGroupShardConfiguration(req)
  return true
end

local function without_shards(changed)
  local out = {}
  for _, name in ipairs(changed) do if not SHARD_PROPS[name] then out[#out + 1] = name end end
  return out
end

return P.define {
  type = "AWS::ElastiCache::ReplicationGroup",
  timeout_minutes = 2160,
  properties = {
    P.boolean "AtRestEncryptionEnabled" { update = "replace" },
    P.string "AuthToken" { update = "none" },
    P.boolean "AutoMinorVersionUpgrade" { update = "none" },
    P.boolean "AutomaticFailoverEnabled" { update = "none" },
    P.string "CacheNodeType" { update = "none" },
    P.string "CacheParameterGroupName" { update = "none" },
    P.list(P.string) "CacheSecurityGroupNames" { update = "none" },
    P.string "CacheSubnetGroupName" { update = "replace" },
    P.string "ClusterMode" { allowed = { "enabled", "disabled", "compatible" }, update = "none" },
    P.boolean "DataTieringEnabled" { update = "replace" },
    P.string "Engine" { update = "none" },
    P.string "EngineVersion" { update = "none" },
    P.string "GlobalReplicationGroupId" { update = "replace" },
    P.string "IpDiscovery" { update = "none" },
    P.string "KmsKeyId" { update = "replace" },
    P.list(P.json) "LogDeliveryConfigurations" { update = "none" },
    P.boolean "MultiAZEnabled" { update = "none" },
    P.string "NetworkType" { update = "replace" },
    P.list(P.json) "NodeGroupConfiguration" { update = reshard_or_replace },
    P.string "NotificationTopicArn" { update = "none" },
    P.integer "NumCacheClusters" { update = "none" },
    P.integer "NumNodeGroups" { update = reshard_or_replace },
    P.integer "Port" { update = "replace" },
    P.list(P.string) "PreferredCacheClusterAZs" { update = "replace" },
    P.string "PreferredMaintenanceWindow" { update = "none" },
    P.string "PrimaryClusterId" { update = "none" },
    P.integer "ReplicasPerNodeGroup" { update = "replace" },
    P.string "ReplicationGroupDescription" { required = true, update = "none" },
    P.string "ReplicationGroupId" { update = "replace" },
    P.list(P.string) "SecurityGroupIds" { update = "none" },
    P.list(P.string) "SnapshotArns" { update = "replace" },
    P.string "SnapshotName" { update = "replace" },
    P.integer "SnapshotRetentionLimit" { update = "none" },
    P.string "SnapshotWindow" { update = "none" },
    P.string "SnapshottingClusterId" { update = "none" },
    P.tags "Tags" { update = "none" },
    P.boolean "TransitEncryptionEnabled" { update = "none" },
    P.string "TransitEncryptionMode" { update = "none" },
    P.list(P.string) "UserGroupIds" { update = "none" },
  },
  attributes = {
    "ConfigurationEndPoint.Address", "ConfigurationEndPoint.Port", "PrimaryEndPoint.Address", "PrimaryEndPoint.Port",
    "ReaderEndPoint.Address", "ReaderEndPoint.Port", "ReadEndPoint.Addresses", "ReadEndPoint.Ports",
    "ReadEndPoint.Addresses.List", "ReadEndPoint.Ports.List",
  },
  primary_identifier = "ReplicationGroupId",

  create = function(ctx, props)
    if ctx.progress then
      local r = until_available(ctx, ctx.progress.id, "creating")
      if P.is_in_progress(r) then return P.in_progress { after = POLL_SECONDS, context = ctx.progress, id = ctx.progress.id } end
      return { id = ctx.progress.id, attributes = r.attributes }
    end
    local id = props.ReplicationGroupId
    if not id then
      -- ElastiCache refuses "--": a stack name cut at a hyphen must not make one.
      id = names.physical(ctx.stack_name, ctx.logical_id, 40):gsub("%-%-+", "-")
    end
    id = id:lower()
    local req = {}
    for k, v in pairs(props) do req[k] = v end
    req.ReplicationGroupId = id
    ec(ctx).CreateReplicationGroup(req)
    return P.in_progress { after = POLL_SECONDS, context = { id = id }, id = id }
  end,

  update = function(ctx, id, new, old, changed)
    local step = ctx.progress and ctx.progress.step
    if step then return until_available(ctx, id, step) end
    modify(ctx, id, new, without_shards(changed))
    local busy = false
    for _, name in ipairs(changed) do
      if SHARD_PROPS[name] then busy = reshard(ctx, id, new) break end
    end
    if busy then return wait("resharding") end
    return until_available(ctx, id, "modifying")
  end,

  -- The seed: CloudFormation does not roll back node group changes.
  rollback = function(ctx, id, restore, current, changed)
    modify(ctx, id, restore, without_shards(changed))
    return until_available(ctx, id, "modifying")
  end,

  delete = function(ctx, id)
    if not ctx.progress then
      local g = describe(ctx, id)
      if not g then return nil end
      if g.Status ~= "deleting" then ec(ctx).DeleteReplicationGroup { ReplicationGroupId = id } end
      return P.in_progress { after = POLL_SECONDS, context = { step = "deleting" } }
    end
    if describe(ctx, id) then return P.in_progress { after = POLL_SECONDS, context = { step = "deleting" } } end
  end,

  read = function(ctx, id, props)
    local g = describe(ctx, id)
    if not g or g.Status == "deleting" then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.ReplicationGroupDescription = g.Description
    if props and props.NumNodeGroups ~= nil then properties.NumNodeGroups = #g.NodeGroups end
    return { properties = properties, attributes = attributes(g) }
  end,
}
