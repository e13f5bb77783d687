-- Contract-test fixture of the custom-resource provider. setup registers a
-- handler, custom/contract-echo, which keeps the ResourceProperties it was
-- sent as a world record of kind "custom.echo" named by its physical ID
-- ("echo-<Name>": a new Name answers an Update with a new physical ID, so
-- the resource is replaced and the old one gets a Delete in cleanup).
local world = require("moonstack.world")
local custom = require("moonstack.custom")

local KIND = "custom.echo"

local function echo(request)
  local props = request.ResourceProperties
  if request.RequestType == "Delete" then
    world.remove(KIND, request.PhysicalResourceId)
    return custom.success(request)
  end
  local id = "echo-" .. props.Name
  world.put(KIND, id, props)
  return custom.success(request, { physical_id = id, data = { Greeting = "hello " .. props.Name } })
end

return {
  setup = function()
    package.loaded["custom.contract-echo"] = echo
  end,
  create = {
    ServiceToken = "arn:aws:lambda:us-east-1:123456789012:function:contract-echo",
    Name = "one", Count = 3, Enabled = true,
  },
  updates = {
    { Count = 4 },      -- an Update request; the same physical ID
    { Name = "two" },   -- the handler answers with a new physical ID
  },
  verify = function(aws, id, props, attributes)
    local r = world.get(KIND, id)
    assert(r, "the handler has no record " .. id)
    -- CloudFormation hands the handler strings only.
    assert(r.Count == tostring(props.Count), "Count is " .. tostring(r.Count))
    assert(r.Enabled == "true", "Enabled is " .. tostring(r.Enabled))
    assert(attributes.Greeting == "hello " .. props.Name, "Greeting is " .. tostring(attributes.Greeting))
  end,
}
