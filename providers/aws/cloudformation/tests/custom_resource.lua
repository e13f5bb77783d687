-- Contract-test fixture of the custom-resource provider. Its handler,
-- custom/contract-echo (../custom/contract-echo.lua), keeps the
-- ResourceProperties it was sent as a world record of kind "custom.echo"
-- named by its physical ID ("echo-<Name>": a new Name answers an Update with
-- a new physical ID, so the resource is replaced and the old one gets a
-- Delete in cleanup).
local world = require("moonstack.world")

local KIND = "custom.echo"

return {
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
