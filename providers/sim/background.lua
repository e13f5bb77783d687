-- sim.background: the simulated cloud's work that goes on by itself — today
-- Step Functions executions (sim/states.lua) — run up to the world clock.
-- Nothing runs in a background thread: whoever waits on such work runs
-- this at each of its polls (a custom resource waiting for a response that
-- a later Lambda invocation sends: providers/aws/cloudformation/custom_resource.lua),
-- and each service also advances its own work when it is read.
--
--   Run {} -> { NextDueMs }   the moment the next piece of work is due, or nil
local A = {}

-- The services with background work: each module's `background()` runs
-- what is due and returns when its next work is due (or nil).
local SERVICES = { "states" }

function A.Run()
  local next_ms
  for _, name in ipairs(SERVICES) do
    local due = require("sim." .. name).background()
    if due and (next_ms == nil or due < next_ms) then next_ms = due end
  end
  return { NextDueMs = next_ms }
end

-- Runs Lambda functions: takes the world's lock itself.
A.UNLOCKED = { Run = true }

return A
