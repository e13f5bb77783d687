-- sim.ec2.tagging: CreateTags / DeleteTags on any EC2 resource ID, and
-- DescribeTags.
--
-- Each kind is written back through its own module, which knows the
-- record's refs and liveness (world.put replaces both).

local world = require("sim.world")
local C = require("sim.ec2.common")

local T = {}

-- kind -> { load(id, env) -> record or nil, save(record), not_found(id),
-- type (EC2's resource type, as DescribeTags names it) }
local function handlers()
  local instances = require("sim.ec2.instances")
  local network = require("sim.ec2.network")
  local groups = require("sim.ec2.groups")
  local images = require("sim.ec2.images")
  local out = {
    ["ec2.instance"] = {
      type = "instance",
      load = function(id, env) return instances.load(id, env) end,
      save = instances.save,
      missing = function(id) C.fail("The instance ID '" .. id .. "' does not exist", "InvalidInstanceID.NotFound") end,
    },
    ["ec2.security_group"] = {
      type = "security-group",
      load = function(id) return groups.group(id) end,
      save = groups.save,
      missing = function(id) C.fail("The security group '" .. id .. "' does not exist", "InvalidGroup.NotFound") end,
    },
    ["ec2.vpc"] = {
      type = "vpc",
      load = function(id) return network.vpc(id) end,
      save = function(rec) world.put("ec2.vpc", rec.VpcId, rec) end,
      missing = function(id) C.fail("The vpc ID '" .. id .. "' does not exist", "InvalidVpcID.NotFound") end,
    },
    ["ec2.subnet"] = {
      type = "subnet",
      load = function(id) return network.subnet(id) end,
      save = function(rec) world.put("ec2.subnet", rec.SubnetId, rec, { refs = { rec.VpcId } }) end,
      missing = function(id) C.fail("The subnet ID '" .. id .. "' does not exist", "InvalidSubnetID.NotFound") end,
    },
    ["ec2.image"] = {
      type = "image",
      -- tagging an implicit image makes it a real record
      load = function(id, env) return images.image(id, env) end,
      save = function(rec) world.put("ec2.image", rec.ImageId, rec) end,
      missing = function(id) C.fail("The image id '[" .. id .. "]' does not exist", "InvalidAMIID.NotFound") end,
    },
  }
  -- gateways, route tables, addresses, NAT gateways, endpoints, ACLs (kinds.lua)
  for _, k in ipairs(require("sim.ec2.kinds").ALL) do
    out[k.kind] = {
      type = k.resource_type,
      load = function(id) return k:get(id) end,
      save = function(rec) k:put(rec) end,
      missing = function(id) C.fail(k.missing(id), k.code) end,
    }
  end
  return out
end

local function each_resource(p, env, fn)
  local h = handlers()
  local resources = C.list(p.Resources)
  if #resources == 0 then C.fail("The request must contain the parameter resourceIdSet", "MissingParameter") end
  local loaded = {}
  for _, id in ipairs(resources) do
    local kind = C.kind_of(id)
    if not kind then C.fail("The ID '" .. tostring(id) .. "' is not valid", "InvalidID") end
    local rec = h[kind].load(id, env)
    if not rec then h[kind].missing(id) end
    loaded[#loaded + 1] = { rec = rec, h = h[kind] }
  end
  for _, item in ipairs(loaded) do
    local map = {}
    for _, t in ipairs(item.rec.Tags or {}) do map[t.Key] = t.Value end
    fn(map)
    item.rec.Tags = C.tag_list(map)
    item.h.save(item.rec)
  end
end

local A = {}

---CreateTags: Resources (IDs), Tags [{ Key, Value }]; adds or overwrites.
function A.CreateTags(p, env)
  local set = C.tag_map(p.Tags, env)
  each_resource(p, env, function(map) for k, v in pairs(set) do map[k] = v end end)
  return {}
end

---DeleteTags: Resources, Tags [{ Key[, Value] }] (no Tags: all). A tag
---given with a Value is deleted only when the value matches, as on AWS.
function A.DeleteTags(p, env)
  local tags = p.Tags
  each_resource(p, env, function(map)
    if tags == nil then
      for k in pairs(map) do map[k] = nil end
      return
    end
    for _, t in ipairs(C.list(tags)) do
      if t.Value == nil or map[t.Key] == t.Value then map[t.Key] = nil end
    end
  end)
  return {}
end

-- DescribeTags' filters on one tag of one resource.
local TAG_FIELDS = {
  ["resource-id"] = function(t) return t.ResourceId end,
  ["resource-type"] = function(t) return t.ResourceType end,
  key = function(t) return t.Key end,
  value = function(t) return t.Value end,
}

---DescribeTags: Filters (resource-id, resource-type, key, value) ->
---{ Tags = [{ Key, ResourceId, ResourceType, Value }] }, by resource ID then
---key. A resource-id filter reads just those resources; without one every
---live tagged resource of a taggable kind is listed, as AWS lists them.
function A.DescribeTags(p, env)
  local h = handlers()
  local ids = {}
  for _, f in ipairs(C.list(p.Filters)) do
    if f.Name == "resource-id" then
      for _, id in ipairs(C.list(f.Values)) do ids[#ids + 1] = id end
    end
  end
  local filtered = #ids > 0
  if not filtered then
    for kind in pairs(h) do
      for _, id in ipairs(world.ids(kind, true)) do ids[#ids + 1] = id end
    end
  end
  table.sort(ids)
  local out, seen = {}, {}
  for _, id in ipairs(ids) do
    local kind = C.kind_of(id)
    local rec = not seen[id] and kind and h[kind].load(id, env)
    seen[id] = true
    for _, t in ipairs(rec and rec.Tags or {}) do
      local tag = { Key = t.Key, Value = t.Value, ResourceId = id, ResourceType = h[kind].type }
      if C.matches(tag, p.Filters, TAG_FIELDS) then out[#out + 1] = tag end
    end
  end
  return { Tags = out }
end

T.actions = A
return T
