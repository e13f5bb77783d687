-- An example provider: a server that boots for a while, whose instance type
-- can change in place on EBS-backed images only.
--
-- It shows the two things a provider of a new type touches:
--   * the simulated cloud's services, through ctx.world (here EC2's image
--     catalog: `ctx.world.ec2.DescribeImages{...}`, AWS's request and
--     response shapes and error messages);
--   * the world store, for the type's own state (`moonstack.world`: records
--     of kind "example.server", shared by every worker and persisted).
-- Its contract-test fixture is tests/server.lua:
--   moonstack provider test examples/providers/server.lua

local P = require("moonstack.provider")
local sim = require("sim")
local tags = require("moonstack.tags")
local world = require("moonstack.world")

local KIND = "example.server"
local BOOT_SECONDS = 30

-- The image's root device type; EC2's own errors for a malformed or missing ID.
local function root_device(ctx, image_id)
  local images = ctx.world.ec2.DescribeImages { ImageIds = { image_id } }.Images
  return images[1].RootDeviceType
end

local function server(id)
  local s = world.get(KIND, id)
  if not s then P.fail("The instance ID '" .. id .. "' does not exist", "NotFound") end
  return s
end

return P.define({
  type = "Example::Compute::Server",
  properties = {
    P.string "ImageId" { required = true, update = "replace" },
    P.string "InstanceType" { default = "t3.micro",
      -- Resizing stops and starts an EBS-backed server; an instance-store one
      -- loses its disk, so it is replaced.
      update = function(old, new, ctx, old_props, new_props)
        return root_device(ctx, new_props.ImageId) == "ebs" and "some" or "replace"
      end },
    P.list(P.string) "SecurityGroupIds" { update = "none" },
    P.string "UserData" { update = "some" },
    P.string "Tenancy" { allowed = { "default", "dedicated" }, default = "default", update = "unsupported" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "InstanceId", "PrivateIp" },
  primary_identifier = "InstanceId",

  create = function(ctx, props)
    if ctx.progress then
      -- Second look: booted once the world's clock has moved on.
      local s = server(ctx.progress.id)
      if world.now_ms() < s.boots_at_ms then return P.in_progress { after = 5, context = ctx.progress, id = s.id } end
      s.state = "running"
      world.put(KIND, s.id, s)
      return { id = s.id, attributes = { InstanceId = s.id, PrivateIp = s.ip } }
    end
    root_device(ctx, props.ImageId)  -- fails as EC2 does for a bad image
    local id = world.atomic(function()
      local id = sim.new_id("instance")
      world.put(KIND, id, {
        id = id, state = "pending", ip = "10.0.0." .. (sim.new_id("int", 250) + 4),
        boots_at_ms = world.now_ms() + BOOT_SECONDS * 1000,
        props = props, tags = tags.to_map(props.Tags), restarts = 0,
      })
      return id
    end)
    P.log(ctx).info("launched " .. id)
    return P.in_progress { after = BOOT_SECONDS, context = { id = id }, id = id }
  end,

  update = function(ctx, id, new, old, changed)
    local s = server(id)
    for _, name in ipairs(changed) do
      if name == "InstanceType" or name == "UserData" then s.restarts = s.restarts + 1 end
    end
    local set, remove = tags.diff(old.Tags, new.Tags)
    for k, v in pairs(set) do s.tags[k] = v end
    for _, k in ipairs(remove) do s.tags[k] = nil end
    s.props = new
    world.put(KIND, id, s)
    -- Nothing returned: attributes unchanged.
  end,

  delete = function(ctx, id, props)
    local s = world.get(KIND, id)
    if not s then return end -- already gone: deleting is idempotent
    if not ctx.progress then
      s.state = "shutting-down"
      world.put(KIND, id, s)
      return P.in_progress { after = 20, context = {} }
    end
    world.remove(KIND, id)
  end,

  read = function(ctx, id)
    local s = world.get(KIND, id)
    if not s then return nil end
    return { properties = s.props, attributes = { InstanceId = s.id, PrivateIp = s.ip } }
  end,
})
