-- Runs the Lua tests of the simulated cloud and the built-in providers under
-- plain luajit, with the in-memory world store standing in for the host's:
--   luajit tests/providers/run.lua test_sim_ec2 [test_...]
-- ctest runs every tests/providers/test_*.lua through it (tests/CMakeLists.txt).
-- Each case should start with `fresh()` (below): an empty world, a fixed seed.

local here = (arg and arg[0] or ""):match("^(.*)[/\\][^/\\]*$") or "."
local root = here .. "/../.."
package.path = table.concat({
  root .. "/lua-sdk/?.lua", root .. "/lua-sdk/?/init.lua",
  root .. "/providers/?.lua", root .. "/providers/?/init.lua",
  root .. "/lua-sdk/tests/?.lua", here .. "/?.lua", package.path,
}, ";")

local world = require("moonstack.world_memory").new()
package.loaded["moonstack.world"] = world

-- Shared by the suites: reset the world and return it (and the sim).
_G.fresh = function()
  world.reset()
  local sim = require("sim")
  sim.seed("test")
  return world, sim
end
_G.MOONSTACK_ROOT = root

local H = require("harness")
local suites = {}
for _, name in ipairs(arg or {}) do
  local ok, suite = pcall(require, name)
  if not ok then
    print("FAIL " .. name .. ": could not load\n     " .. tostring(suite))
    os.exit(1)
  end
  suites[#suites + 1] = suite
end
if #suites == 0 then print("usage: run.lua test_name ..."); os.exit(2) end
os.exit(H.run(suites) == 0 and 0 or 1)
