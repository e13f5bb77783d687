-- An example provider: a server that boots for a while, whose instance type
-- can change in place on EBS-backed images only.
--
-- `ctx.world` here is a stand-in (a table with `servers`, `images` and an
-- `ids` generator) so the example runs without a host; the built-in
-- providers use the simulated cloud's API instead. tests/test_example.lua
-- drives it through create, update, replace decisions and delete.

local P = require("moonstack.provider")
local tags = require("moonstack.tags")

local function image(ctx, image_id)
  local img = ctx.world.images[image_id]
  -- EC2's wording for a missing AMI.
  if not img then P.fail("The image id '[" .. image_id .. "]' does not exist", "NotFound") end
  return img
end

return P.define({
  type = "Example::Compute::Server",
  properties = {
    P.string "ImageId" { required = true, update = "replace" },
    P.string "InstanceType" { default = "t3.micro",
      -- Resizing stops and starts an EBS-backed server; an instance-store one
      -- loses its disk, so it is replaced.
      update = function(old, new, ctx, old_props, new_props)
        return image(ctx, new_props.ImageId).root_device == "ebs" and "some" or "replace"
      end },
    P.list(P.string) "SecurityGroupIds" { update = "none" },
    P.string "UserData" { update = "some" },
    P.string "Tenancy" { allowed = { "default", "dedicated" }, default = "default", update = "unsupported" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "InstanceId", "PrivateIp" },
  primary_identifier = "InstanceId",

  create = function(ctx, props)
    local world = ctx.world
    if ctx.progress then
      -- Second look: the server has booted.
      local s = world.servers[ctx.progress.id]
      s.state = "running"
      return { id = s.id, attributes = { InstanceId = s.id, PrivateIp = s.ip } }
    end
    image(ctx, props.ImageId)
    local id = world.ids:instance()
    world.servers[id] = {
      id = id, state = "pending", ip = "10.0.0." .. (world.ids:int(250) + 4),
      props = props, tags = tags.to_map(props.Tags),
    }
    P.log(ctx).info("launched " .. id)
    return P.in_progress { after = 30, context = { id = id } }
  end,

  update = function(ctx, id, new, old, changed)
    local s = ctx.world.servers[id]
    if not s then P.fail("The instance ID '" .. id .. "' does not exist", "NotFound") end
    for _, name in ipairs(changed) do
      if name == "InstanceType" or name == "UserData" then s.restarts = (s.restarts or 0) + 1 end
    end
    local set, remove = tags.diff(old.Tags, new.Tags)
    for k, v in pairs(set) do s.tags[k] = v end
    for _, k in ipairs(remove) do s.tags[k] = nil end
    s.props = new
    -- Nothing returned: attributes unchanged.
  end,

  delete = function(ctx, id, props)
    local s = ctx.world.servers[id]
    if not s then return end -- already gone: deleting is idempotent
    if not ctx.progress then
      s.state = "shutting-down"
      return P.in_progress { after = 20, context = {} }
    end
    ctx.world.servers[id] = nil
  end,
})
