-- A custom-resource handler that answers with what it sees of every shared
-- table (lib/isolation.lua), as Data.Seen.
local custom = require("moonstack.custom")
local isolation = require("lib.isolation")

return function(request)
  local ctx = { log = { info = function() end }, world = { ssm = { GetParameter = true } } }
  return custom.success(request, { physical_id = "observed", data = { Seen = isolation.observe(_G, ctx) } })
end
