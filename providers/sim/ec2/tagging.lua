-- sim.ec2.tagging: CreateTags / DeleteTags on any EC2 resource ID.
--
-- Each kind is written back through its own module, which knows the
-- record's refs and liveness (world.put replaces both).

local world = require("moonstack.world")
local C = require("sim.ec2.common")

local T = {}

-- kind -> { load(id, env) -> record or nil, save(record), not_found(id) }
local function handlers()
  local instances = require("sim.ec2.instances")
  local network = require("sim.ec2.network")
  local groups = require("sim.ec2.groups")
  local images = require("sim.ec2.images")
  local out = {
    ["ec2.instance"] = {
      load = function(id, env) return instances.load(id, env) end,
      save = instances.save,
      missing = function(id) C.fail("The instance ID '" .. id .. "' does not exist", "InvalidInstanceID.NotFound") end,
    },
    ["ec2.security_group"] = {
      load = function(id) return groups.group(id) end,
      save = groups.save,
      missing = function(id) C.fail("The security group '" .. id .. "' does not exist", "InvalidGroup.NotFound") end,
    },
    ["ec2.vpc"] = {
      load = function(id) return network.vpc(id) end,
      save = function(rec) world.put("ec2.vpc", rec.VpcId, rec) end,
      missing = function(id) C.fail("The vpc ID '" .. id .. "' does not exist", "InvalidVpcID.NotFound") end,
    },
    ["ec2.subnet"] = {
      load = function(id) return network.subnet(id) end,
      save = function(rec) world.put("ec2.subnet", rec.SubnetId, rec, { refs = { rec.VpcId } }) end,
      missing = function(id) C.fail("The subnet ID '" .. id .. "' does not exist", "InvalidSubnetID.NotFound") end,
    },
    ["ec2.image"] = {
      -- tagging an implicit image makes it a real record
      load = function(id, env) return images.image(id, env) end,
      save = function(rec) world.put("ec2.image", rec.ImageId, rec) end,
      missing = function(id) C.fail("The image id '[" .. id .. "]' does not exist", "InvalidAMIID.NotFound") end,
    },
  }
  -- gateways, route tables, addresses, NAT gateways, endpoints, ACLs (kinds.lua)
  for _, k in ipairs(require("sim.ec2.kinds").ALL) do
    out[k.kind] = {
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
  local set = C.tag_map(p.Tags)
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

T.actions = A
return T
