-- AWS::CloudFormation::WaitConditionHandle and WaitCondition driven as the
-- engine drives them, in virtual time: signals arrive while the wait
-- condition's create hook keeps answering "in progress".
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("aws cloudformation providers")

local load = require("provider_driver").load

local HANDLE, WAIT = load("cloudformation/wait_condition_handle"), load("cloudformation/wait_condition")
local STACK = "arn:aws:cloudformation:us-east-1:123456789012:stack/web/6a1f0b60-0000-4000-8000-000000000001"

local function context(sim, logical)
  return { stack_name = "web", stack_id = STACK, logical_id = logical, region = "us-east-1",
           account = "123456789012", world = sim.client() }
end

-- Call a hook until it finishes. `events` maps a virtual second to a
-- function run once the clock has reached it (a signal arriving then).
local function run(world, decl, hook, ctx, events, ...)
  ctx.progress = nil
  local start = world.now_ms()
  local calls = 0
  for _ = 1, 100000 do
    for at, fn in pairs(events or {}) do
      if world.now_ms() >= start + at * 1000 then fn(); events[at] = nil end
    end
    calls = calls + 1
    local r = decl:check_result(hook, decl[hook](ctx, ...))
    if not P.is_in_progress(r) then return r, calls end
    H.truthy(r.after > 0, "a look later, not a busy loop")
    ctx.progress = r.context
    world.set_now_ms(world.now_ms() + r.after * 1000)
  end
  error("hook never finished")
end

local function handle(world, sim)
  local ctx = context(sim, "WaitHandle")
  return run(world, HANDLE, "create", ctx, nil, HANDLE:validate({}, ctx)).id
end

local function signal(sim, url, status, id, data, reason)
  return function()
    sim.client().cloudformation.SignalWaitCondition({
      Handle = url, Status = status, UniqueId = id, Data = data, Reason = reason or "",
    })
  end
end

T.case("WaitConditionHandle: Ref is the presigned URL; delete forgets it; read follows", function()
  local world, sim = fresh()
  H.same(HANDLE.properties, {})
  local ctx = context(sim, "WaitHandle")
  local url = handle(world, sim)
  local host = "https://cloudformation-waitcondition-us-east-1.s3.amazonaws.com/"
  H.eq(url:sub(1, #host), host)
  H.truthy(url:find("%3Astack/web/6a1f0b60-0000-4000-8000-000000000001/WaitHandle?", 1, true), url)
  H.same(HANDLE.read(ctx, url, {}), { properties = {} })
  H.raises(function() HANDLE:validate({ Foo = 1 }, ctx) end, "Encountered unsupported property Foo")
  run(world, HANDLE, "delete", ctx, nil, url, {})
  H.eq(HANDLE.read(ctx, url, {}), nil)
  run(world, HANDLE, "delete", ctx, nil, url, {}) -- again: fine
end)

T.case("WaitCondition: every update is unsupported (UPDATE_FAILED at run time, seed 000 test 32)", function()
  for _, p in ipairs(WAIT.properties) do H.eq(p.update, "unsupported", p.name) end
  H.eq(WAIT.update, nil)
  local ctx = { logical_id = "myWaitCondition" }
  local old = WAIT:validate({ Handle = "h", Timeout = "300" }, ctx)
  local new = WAIT:validate({ Handle = "h", Timeout = "450" }, ctx)
  local behavior, changed = WAIT:change(old, new, ctx)
  H.eq(behavior, "unsupported")
  H.same(changed, { "Timeout" })
  H.eq((WAIT:change(old, WAIT:validate({ Handle = "h", Timeout = 300 }, ctx), ctx)), nil,
    "a number and its string are the same Timeout")
  H.same(WAIT.attributes, { "Data" })
end)

T.case("WaitCondition: Count SUCCESS signals complete it; Data lists them", function()
  local world, sim = fresh()
  local url = handle(world, sim)
  local ctx = context(sim, "WaitCondition")
  local props = WAIT:validate({ Handle = url, Timeout = "300", Count = "2" }, ctx)
  H.eq(props.Count, 2)
  local first = WAIT.create(ctx, props)
  H.truthy(P.is_in_progress(first), "waits for signals")
  local r, calls = run(world, WAIT, "create", ctx, {
    [40] = signal(sim, url, "SUCCESS", "i-1", "Step 1 complete."),
    [120] = signal(sim, url, "SUCCESS", "i-2", "Step 2 complete."),
  }, props)
  H.eq(r.id, STACK .. "/WaitHandle")
  H.eq(r.attributes.Data, '{"i-1":"Step 1 complete.","i-2":"Step 2 complete."}')
  H.truthy(calls > 2, "looked several times")
  H.truthy(world.now_ms() >= 120000 and world.now_ms() < 300000, "done after the second signal, before the timeout")
  local read = WAIT.read(ctx, r.id, props)
  H.eq(read.attributes.Data, r.attributes.Data)
  H.same(world.ids("cloudformation.wait_condition"), { r.id })
  H.eq(world.get("cloudformation.wait_condition", r.id).Data, r.attributes.Data)
  -- Delete removes the wait condition and leaves the template's handle alone.
  run(world, WAIT, "delete", ctx, nil, r.id, props)
  H.same(world.ids("cloudformation.wait_condition"), {})
  H.eq(WAIT.read(ctx, r.id, props), nil)
  H.eq(#world.ids("cloudformation.wait_condition_handle"), 1)
  run(world, WAIT, "delete", ctx, nil, r.id, props) -- again: fine
end)

T.case("WaitCondition: a signal sent with the same UniqueId counts once", function()
  local world, sim = fresh()
  local url = handle(world, sim)
  local ctx = context(sim, "WaitCondition")
  local props = WAIT:validate({ Handle = url, Timeout = "100", Count = 2 }, ctx)
  H.raises(function()
    run(world, WAIT, "create", ctx, {
      [10] = signal(sim, url, "SUCCESS", "i-1", "a"),
      [20] = signal(sim, url, "SUCCESS", "i-1", "b"),
    }, props)
  end, "WaitCondition timed out. Received 1 conditions when expecting 2")
end)

T.case("WaitCondition: a look repeated with the same progress changes nothing", function()
  local world, sim = fresh()
  local url = handle(world, sim)
  local ctx = context(sim, "WaitCondition")
  local props = WAIT:validate({ Handle = url, Timeout = "300" }, ctx)
  local first = WAIT.create(ctx, props)
  world.set_now_ms(200000)
  ctx.progress = first.context
  local a, b = WAIT.create(ctx, props), WAIT.create(ctx, props)
  H.same(a.context, first.context, "the start time is kept")
  H.eq(a.after, b.after)
  H.eq(a.after, 30)
  world.set_now_ms(290000)
  H.eq(WAIT.create(ctx, props).after, 10, "the last look is at the timeout")
end)

T.case("WaitCondition: a FAILURE signal fails it with AWS's reason", function()
  local world, sim = fresh()
  local url = handle(world, sim)
  local ctx = context(sim, "WaitCondition")
  local props = WAIT:validate({ Handle = url, Timeout = "1800" }, ctx)
  local e = H.raises(function()
    run(world, WAIT, "create", ctx, {
      [30] = signal(sim, url, "FAILURE", "i-029b76651bfb6bd0d", "", "DSM Node configuration complete"),
    }, props)
  end, "WaitCondition received failed message: 'DSM Node configuration complete' for uniqueId: i-029b76651bfb6bd0d")
  H.truthy(world.now_ms() < 60000, "fails as soon as it looks, not at the timeout")
  H.eq(P.error_message(e), "WaitCondition received failed message: 'DSM Node configuration complete' for uniqueId: i-029b76651bfb6bd0d")
end)

T.case("WaitCondition: no signal within Timeout seconds of world time", function()
  local world, sim = fresh()
  local url = handle(world, sim)
  local ctx = context(sim, "WaitCondition")
  world.set_now_ms(1000000)
  local props = WAIT:validate({ Handle = url, Timeout = "300" }, ctx)
  H.raises(function() run(world, WAIT, "create", ctx, nil, props) end,
    "WaitCondition timed out. Received 0 conditions when expecting 1")
  H.eq(world.now_ms(), 1000000 + 300000, "times out exactly at the timeout, not later")
end)

T.case("WaitCondition: signals sent before it starts count; a bad status is unparsable", function()
  local world, sim = fresh()
  local url = handle(world, sim)
  signal(sim, url, "SUCCESS", "early", "ok")()
  local ctx = context(sim, "WaitCondition")
  local r, calls = run(world, WAIT, "create", ctx, nil, WAIT:validate({ Handle = url, Timeout = "60" }, ctx))
  H.eq(calls, 1)
  H.eq(r.attributes.Data, '{"early":"ok"}')

  local url2 = (function()
    local c = context(sim, "OtherHandle")
    return run(world, HANDLE, "create", c, nil, {}).id
  end)()
  signal(sim, url2, "MAYBE", "x", "")()
  H.raises(function() run(world, WAIT, "create", ctx, nil, WAIT:validate({ Handle = url2, Timeout = "60" }, ctx)) end,
    "Unparsable WaitCondition data")
end)

T.case("WaitCondition: property problems", function()
  local world, sim = fresh()
  local url = handle(world, sim)
  local ctx = context(sim, "WaitCondition")
  H.raises(function() run(world, WAIT, "create", ctx, nil, WAIT:validate({ Handle = url, Timeout = "50000" }, ctx)) end,
    "Timeout must be a whole number of seconds from 0 to 43200, got 50000")
  H.raises(function() run(world, WAIT, "create", ctx, nil, WAIT:validate({ Handle = url }, ctx)) end,
    "Properties validation failed for resource WaitCondition with message: #: required key [Timeout] not found")
  H.raises(function() run(world, WAIT, "create", ctx, nil, WAIT:validate({ Handle = url, Timeout = "5", Count = 0 }, ctx)) end,
    "Count must be at least 1, got 0")
  H.raises(function() WAIT:validate({ Handle = url, Timeout = "5", Count = "two" }, ctx) end,
    "Encountered non numeric value for property Count")
  H.raises(function()
    run(world, WAIT, "create", ctx, nil, WAIT:validate({ Handle = "https://example.com/x", Timeout = "5" }, ctx))
  end, "Handle https://example.com/x is not a wait condition handle that exists")
end)

T.case("WaitCondition: the CreationPolicy form is created at once with its own handle", function()
  local world, sim = fresh()
  local ctx = context(sim, "WaitCondition")
  local r, calls = run(world, WAIT, "create", ctx, nil, WAIT:validate({}, ctx))
  H.eq(calls, 1)
  H.eq(r.id, STACK .. "/WaitCondition")
  H.eq(r.attributes.Data, "{}")
  H.eq(#world.ids("cloudformation.wait_condition_handle"), 1)
  H.eq(WAIT.read(ctx, r.id, {}).attributes.Data, "{}")
  run(world, WAIT, "delete", ctx, nil, r.id, {})
  H.eq(#world.ids("cloudformation.wait_condition_handle"), 0)
  H.eq(WAIT.read(ctx, r.id, {}), nil)
end)

return T
