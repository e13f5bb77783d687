-- sim.autoscaling.tags: CreateOrUpdateTags, DeleteTags, DescribeTags.
--
-- A group's tags live in its record (`Tags`, DescribeAutoScalingGroups'
-- TagDescription shape: ResourceId, ResourceType, Key, Value,
-- PropagateAtLaunch). A changed tag reaches instances launched after it;
-- instances already running keep theirs, as on AWS ("the change affects
-- only instances launched after it", the Auto Scaling user guide on tag
-- propagation).

local C = require("sim.autoscaling.common")

local T = {}

local RESOURCE_TYPE = "auto-scaling-group"

-- "Incomplete tags information for these tags. Tag - 'Key:Lab,PropagateAtLaunch:true,
-- ResourceId:tfetest-tfe-asg,ResourceType:null' , " (ValidationError,
-- verbatim in a public boto3 issue): a tag without its ResourceId or
-- ResourceType.
local function check_complete(t)
  if C.present(t.ResourceId) and C.present(t.ResourceType) then return end
  local function field(v) return C.present(v) and tostring(v) or "null" end
  local parts = { "Key:" .. field(t.Key) }
  if C.present(t.PropagateAtLaunch) then parts[#parts + 1] = "PropagateAtLaunch:" .. tostring(t.PropagateAtLaunch) end
  parts[#parts + 1] = "ResourceId:" .. field(t.ResourceId)
  parts[#parts + 1] = "ResourceType:" .. field(t.ResourceType)
  C.fail("Incomplete tags information for these tags. Tag - '" .. table.concat(parts, ",") .. "' , ", "ValidationError")
end

-- The group a tag names. "AutoScalingGroup not found - AutoScaling Group
-- xxx not found" is CreateOrUpdateTags' answer for a missing group
-- (ValidationError, quoted in cloud-custodian#380).
local function group_of(t)
  check_complete(t)
  if t.ResourceType ~= RESOURCE_TYPE then
    -- (wording not verified against AWS)
    C.fail("Invalid resource type " .. tostring(t.ResourceType) .. ". Valid values are: auto-scaling-group", "ValidationError")
  end
  local group = C.group(t.ResourceId)
  if not group then
    C.fail("AutoScalingGroup not found - AutoScaling Group " .. tostring(t.ResourceId) .. " not found", "ValidationError")
  end
  return group
end

-- Applies `fn(group, tag)` to each tag of a request, saving each touched
-- group once.
local function each_tag(tags, fn)
  local groups, order = {}, {}
  for _, t in ipairs(C.list(tags)) do
    local name = t.ResourceId
    local group = groups[name]
    if not group then
      group = group_of(t)
      groups[name], order[#order + 1] = group, name
    end
    fn(group, t)
  end
  for _, name in ipairs(order) do C.save_group(groups[name]) end
end

local function index_of(group, key)
  for i, t in ipairs(group.Tags) do if t.Key == key then return i end end
  return nil
end

local A = {}

---CreateOrUpdateTags: Tags (ResourceId, ResourceType, Key, Value,
---PropagateAtLaunch) -> {}. A key the group has is overwritten.
function A.CreateOrUpdateTags(p, env)
  each_tag(p.Tags, function(group, t)
    group.Tags = C.list(group.Tags)
    local tag = { ResourceId = group.AutoScalingGroupName, ResourceType = RESOURCE_TYPE, Key = t.Key,
                  Value = C.present(t.Value) and tostring(t.Value) or "",
                  PropagateAtLaunch = C.bool(t.PropagateAtLaunch) or false }
    local i = index_of(group, t.Key)
    group.Tags[i or (#group.Tags + 1)] = tag
  end)
  return {}
end

---DeleteTags: Tags (ResourceId, ResourceType, Key) -> {}. A key the group
---does not have is no error.
function A.DeleteTags(p, env)
  each_tag(p.Tags, function(group, t)
    group.Tags = C.list(group.Tags)
    local i = index_of(group, t.Key)
    if i then table.remove(group.Tags, i) end
  end)
  return {}
end

local FILTERS = {
  ["auto-scaling-group"] = function(t) return t.ResourceId end,
  key = function(t) return t.Key end,
  value = function(t) return t.Value end,
  ["propagate-at-launch"] = function(t) return tostring(t.PropagateAtLaunch) end,
}

---DescribeTags: Filters (auto-scaling-group, key, value,
---propagate-at-launch) -> { Tags }. The groups are read by name from an
---auto-scaling-group filter; without one, every group's tags.
function A.DescribeTags(p, env)
  local filters = {}
  for _, f in ipairs(C.list(p.Filters)) do
    local get = FILTERS[f.Name]
    -- (wording not verified against AWS)
    if not get then C.fail("Filter type " .. tostring(f.Name) .. " is not correct. Allowed Filter types are: auto-scaling-group key value propagate-at-launch", "ValidationError") end
    local set = {}
    for _, v in ipairs(C.list(f.Values)) do set[tostring(v)] = true end
    filters[#filters + 1] = { get = get, set = set, name = f.Name }
  end
  local names = nil
  for _, f in ipairs(filters) do
    if f.name == "auto-scaling-group" then
      names = {}
      for v in pairs(f.set) do names[#names + 1] = v end
      table.sort(names)
    end
  end
  names = names or require("sim.world").ids(C.GROUP, true)
  local out = {}
  for _, name in ipairs(names) do
    local group = C.group(name)
    for _, t in ipairs(group and C.list(group.Tags) or {}) do
      local keep = true
      for _, f in ipairs(filters) do
        if not f.set[f.get(t)] then keep = false; break end
      end
      if keep then out[#out + 1] = t end
    end
  end
  return { Tags = out }
end

T.actions = A
return T
