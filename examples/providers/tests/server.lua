-- Contract-test fixture of the example provider (../server.lua):
--   moonstack provider test examples/providers/server.lua
local world = require("moonstack.world")

return {
  -- An instance-store image to replace onto (any well-formed AMI ID is an
  -- EBS-backed image in the default world).
  setup = function(aws)
    return { store = aws.ec2.RegisterImage { Name = "store", RootDeviceType = "instance-store" }.ImageId }
  end,
  create = { ImageId = "ami-0123456789abcdef0", UserData = "v1", Tags = { { Key = "Name", Value = "web" } } },
  updates = {
    { SecurityGroupIds = { "sg-1" }, Tags = { { Key = "Name", Value = "web2" } } },  -- No interruption
    { UserData = "v2" },                         -- Some interruption
    { InstanceType = "t3.large" },               -- a function decides: EBS-backed, so some interruption
    function(v) return { ImageId = v.store } end,  -- Replacement
    { Tenancy = "dedicated" },                   -- not updatable: the engine fails the update
  },
  verify = function(aws, id, props, attributes)
    local s = world.get("example.server", id)
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
