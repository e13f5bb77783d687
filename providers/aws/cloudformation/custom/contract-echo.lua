-- custom/contract-echo: the handler of the custom-resource provider's
-- contract-test fixture (../tests/custom_resource.lua). It keeps the
-- ResourceProperties it was sent as a world record of kind "custom.echo"
-- named by its physical ID ("echo-<Name>"). `moonstack provider test` puts
-- this directory on the module path; the engine's does not have it.
local world = require("moonstack.world")
local custom = require("moonstack.custom")

local KIND = "custom.echo"

return function(request)
  local props = request.ResourceProperties
  if request.RequestType == "Delete" then
    world.remove(KIND, request.PhysicalResourceId)
    return custom.success(request)
  end
  local id = "echo-" .. props.Name
  world.put(KIND, id, props)
  return custom.success(request, { physical_id = id, data = { Greeting = "hello " .. props.Name } })
end
