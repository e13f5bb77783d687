-- A role Lambda may assume, for the suites that create functions: Lambda
-- refuses an execution role that is missing or does not trust
-- lambda.amazonaws.com (sim/lambda.lua).
--   local role = require("lambda_role")
--   local arn = role.make(sim.client())            -- role "r"
--   local arn = role.make(sim.client(), "lambda")
--   local fresh = role.fresh("r")                  -- each case's world holds role r
local M = {}

M.TRUST = { Version = "2012-10-17", Statement = { { Effect = "Allow",
  Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" } } }

---Creates role `name` (default "r") trusting Lambda; returns its ARN.
function M.make(client, name)
  return client.iam.CreateRole({ RoleName = name or "r", AssumeRolePolicyDocument = M.TRUST }).Role.Arn
end

---A `fresh()` (run.lua's) for a suite whose cases create functions: each
---world it resets holds role `name`, which Lambda may assume.
---  local fresh = require("lambda_role").fresh("r")
function M.fresh(name)
  return function()
    local world, sim = _G.fresh()  -- looked up at each call: host_like_world swaps it
    M.make(sim.client(), name)
    return world, sim
  end
end

return M
