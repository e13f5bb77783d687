---@meta
-- moonstack.lambda: whether Lambda functions' code runs locally
-- (host/lua/lambda_binding.h). Functions run through the simulated Lambda
-- service, `ctx.world.lambda.Invoke{...}`, never from a provider directly.
-- Definitions for lua-language-server only.

---@class moonstack.lambda
local lambda = {}

---False under --no-lambda: functions are stored but their code never runs.
---@return boolean
function lambda.enabled() end

---The runner, for providers/sim/lambda_invoke.lua only: called from anywhere
---else it raises.
---@return table
function lambda.runner() end

return lambda
