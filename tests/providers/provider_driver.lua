-- Drives a built-in provider the way the engine does, for the provider
-- tests under plain luajit: loads the declaration, makes a hook ctx, runs a
-- hook to its end (re-calling it while in progress and moving the world's
-- clock by each `after`), and records what the engine would show.
--   local D = require("provider_driver")
--   local decl = D.load("elasticache/replication_group")
--   local r, trace = D.run(world, decl, "update", ctx, id, new, old, changed)
-- trace.reasons: the progress reasons (P.in_progress{reason=...}) in order;
-- trace.seconds: simulated seconds the hook took; trace.calls: hook calls.
local P = require("moonstack.provider")

local D = {}

---A provider file's declaration, its errors naming the file.
function D.load_file(path)
  P.set_source(path)
  local ok, decl = pcall(dofile, path)
  P.set_source(nil)
  if not ok then error(decl, 0) end
  return decl
end

---A built-in provider: D.load("ec2/subnet") is providers/aws/ec2/subnet.lua.
function D.load(rel) return D.load_file(MOONSTACK_ROOT .. "/providers/aws/" .. rel .. ".lua") end

function D.context(sim, logical, update_policy)
  return { stack_name = "s", logical_id = logical or "Res", region = "us-east-1",
           account = "123456789012", world = sim.client(nil, "cloudformation"), update_policy = update_policy,
           stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/s/0b5e3c10-0000-4000-8000-000000000001" }
end

function D.run(world, decl, hook, ctx, ...)
  ctx.progress = nil
  local trace = { reasons = {}, seconds = 0, calls = 0 }
  for _ = 1, 10000 do
    trace.calls = trace.calls + 1
    local r = decl:check_result(hook, decl[hook](ctx, ...))
    if not P.is_in_progress(r) then return r, trace end
    for _, text in ipairs(r.reasons or {}) do trace.reasons[#trace.reasons + 1] = text end
    ctx.progress = r.context
    local after = math.max(1, r.after or 0)
    trace.seconds = trace.seconds + after
    world.set_now_ms(world.now_ms() + after * 1000)
  end
  error("hook never finished")
end

---Validates `props` and creates a resource of `decl` with D.context(sim,
---logical): the create's result and the ctx.
function D.create(world, sim, decl, props, logical)
  local ctx = D.context(sim, logical)
  return D.run(world, decl, "create", ctx, decl:validate(props, ctx)), ctx
end

-- Runs `fn` and returns the message it failed with (P.fail / sim.fail).
function D.failure(fn)
  local ok, err = pcall(fn)
  if ok then error("expected a failure", 2) end
  return (P.error_message(err))
end

-- The contract kit's failed checks of the provider file `path` ("name: reason" each).
function D.contract_failures(path)
  local report = require("moonstack.contract").run(path)
  local failed = {}
  for _, c in ipairs(report.checks) do
    if c.status == "FAIL" then failed[#failed + 1] = c.name .. ": " .. tostring(c.reason) end
  end
  return failed
end

return D
