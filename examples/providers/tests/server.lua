-- Contract-test fixture of the example provider (../server.lua):
--   moonstack provider test examples/providers/server.lua
--
-- server.lua predates the simulated cloud: its ctx.world is a stand-in table
-- (servers, images, an ID generator), so this fixture hands it one through
-- `ctx`, and `verify` looks there. A provider written against the world
-- store (see `moonstack provider new`) needs neither.
local ids = require("moonstack.ids")

local standin

return {
  ctx = function()
    standin = {
      servers = {},
      ids = ids.new("example"),
      images = { ["ami-ebs"] = { root_device = "ebs" }, ["ami-store"] = { root_device = "instance-store" } },
    }
    return { world = standin }
  end,
  create = { ImageId = "ami-ebs", UserData = "v1", Tags = { { Key = "Name", Value = "web" } } },
  updates = {
    { SecurityGroupIds = { "sg-1" }, Tags = { { Key = "Name", Value = "web2" } } },  -- No interruption
    { UserData = "v2" },              -- Some interruption
    { InstanceType = "t3.large" },    -- a function decides: EBS-backed, so some interruption
    { ImageId = "ami-store" },        -- Replacement
    { Tenancy = "dedicated" },        -- not updatable: the engine fails the update
  },
  verify = function(aws, id, props, attributes)
    local s = standin.servers[id]
    assert(s, "no server " .. id)
    assert(s.state == "running", "server " .. id .. " is " .. tostring(s.state))
    for _, name in ipairs({ "ImageId", "InstanceType", "UserData" }) do
      assert(s.props[name] == props[name], name .. " is " .. tostring(s.props[name]) .. ", expected " .. tostring(props[name]))
    end
    local want = {}
    for _, t in ipairs(props.Tags or {}) do want[t.Key] = t.Value end
    for k, v in pairs(want) do assert(s.tags[k] == v, "tag " .. k .. " is " .. tostring(s.tags[k])) end
    for k in pairs(s.tags) do assert(want[k] ~= nil, "tag " .. k .. " should be gone") end
    assert(attributes.InstanceId == id, "InstanceId is not the physical id")
  end,
}
