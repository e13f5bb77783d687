-- A custom-resource handler that makes the write ResourceProperties.Patch
-- names (lib/isolation.lua) before answering.
local custom = require("moonstack.custom")
local isolation = require("lib.isolation")

return function(request)
  isolation.PATCHES[request.ResourceProperties.Patch](_G, {})
  return custom.success(request, { physical_id = "patched" })
end
