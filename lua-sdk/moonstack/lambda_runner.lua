-- The old name of the Lambda runner, kept so that requiring it explains
-- itself: a provider cannot run interpreter code on the host. Functions run
-- through the simulated Lambda service (sim.lambda's Invoke), the only code
-- the runner is given to (host/lua/lambda_binding.h).
error("moonstack.lambda_runner is reserved to the simulated Lambda service: run a function through "
  .. "sim.lambda's Invoke (ctx.world.lambda.Invoke)", 0)
