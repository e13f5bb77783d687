-- The in-memory world double keeps the store's contract.
local H = require("harness")
local T = H.suite("world store contract")

T.case("memory double", function()
  local W = require("moonstack.world_memory").new()
  H.eq(require("world_contract")(W), true)
end)

return T
