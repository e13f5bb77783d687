-- The sim's core: action dispatch, AWS-shaped errors, shared deterministic IDs.
local H = require("harness")
local T = H.suite("sim core")

package.loaded["sim.testsvc"] = {
  Echo = function(params, env) return { Params = params, Now = env.now_ms, Region = env.region } end,
  helper = function() end,  -- lower-case: not an action
  -- Draws n IDs (through a nested action when `nested`), then fails if asked.
  Draw = function(params, env)
    local out = {}
    for i = 1, params.n or 1 do out[i] = env.new_id("instance") end
    if params.nested then out[#out + 1] = require("sim").call("testsvc", "Draw", {}).Ids[1] end
    if params.fail then require("sim").fail("boom", "Boom") end
    return { Ids = out }
  end,
}

T.case("an action gets its params and the env", function()
  local world, sim = fresh()
  world.set_now_ms(42)
  H.same(sim.call("testsvc", "Echo", { A = 1 }, { region = "eu-west-1" }),
    { Params = { A = 1 }, Now = 42, Region = "eu-west-1" })
end)

T.case("an unknown action is AWS's InvalidAction", function()
  local _, sim = fresh()
  H.raises(function() sim.call("testsvc", "helper", {}) end,
    "The action helper is not valid for this web service.")
  local e = H.raises(function() sim.call("testsvc", "FlyToTheMoon", {}) end,
    "The action FlyToTheMoon is not valid for this web service.")
  H.eq(e.code, "InvalidAction")
end)

T.case("an unknown service is named", function()
  local _, sim = fresh()
  H.raises(function() sim.call("nosuch", "X", {}) end, "Unknown service nosuch")
end)

T.case("IDs come from one seeded sequence kept in the world", function()
  local world, sim = fresh()
  local a = world.atomic(function() return sim.new_id("instance") end)
  local b = world.atomic(function() return sim.new_id("instance") end)
  H.match(a, "^i%-0%x+$")
  H.truthy(a ~= b, "two IDs differ")
  sim.seed("test")
  H.eq(world.atomic(function() return sim.new_id("instance") end), a, "same seed, same first ID")
end)

T.case("an action draws its IDs from the world's sequence and saves it once, also when it fails", function()
  local world, sim = fresh()
  local one = sim.call("testsvc", "Draw", { n = 3, nested = true }).Ids  -- 3 here, 1 in the nested action
  sim.seed("test")
  local expected = {}
  for i = 1, 4 do expected[i] = world.atomic(function() return sim.new_id("instance") end) end
  H.same(one, expected, "the same sequence as IDs drawn one by one, the nested action's in order")
  H.raises(function() sim.call("testsvc", "Draw", { n = 2, fail = true }) end, "boom")
  local after = sim.call("testsvc", "Draw", {}).Ids[1]
  sim.seed("test")
  local seq = {}
  for i = 1, 7 do seq[i] = world.atomic(function() return sim.new_id("instance") end) end
  H.eq(after, seq[7], "the failed action's two draws were saved: the next ID is the sequence's 7th")
end)

T.case("try_call answers an action's error as a value, and call raises the same error", function()
  local _, sim = fresh()
  H.same(sim.try_call("testsvc", "Echo", { A = 1 }).Params, { A = 1 })
  local r, err = sim.try_call("testsvc", "Draw", { fail = true })
  H.eq(r, nil)
  H.eq(err.code, "Boom")
  local raised = H.raises(function() sim.call("testsvc", "Draw", { fail = true }) end, "boom")
  H.eq(raised.code, err.code)
  -- An action's failing action fails the outer one, whichever way it is called.
  package.loaded["sim.testsvc"].Outer = function()
    return require("sim").call("testsvc", "Draw", { fail = true })
  end
  r, err = sim.try_call("testsvc", "Outer", {})
  H.eq(r, nil)
  H.eq(err.code, "Boom")
  package.loaded["sim.testsvc"].Outer = nil
  -- A bad service or action is the caller's mistake: raised, not answered.
  H.raises(function() sim.try_call("testsvc", "helper", {}) end, "The action helper is not valid for this web service.")
end)

T.case("a client's action has a non-raising twin, and service_props.call takes either", function()
  local _, sim = fresh()
  local aws = sim.client(nil, "cloudformation")
  local get = aws.ssm.GetParameter
  local try = sim.try_of(get)
  H.truthy(try ~= nil, "a client action has a twin")
  H.eq(sim.try_of(function() end), nil, "any other function has none")
  local r, err = try({ Name = "/missing" })
  H.eq(r, nil)
  H.eq(err.code, "ParameterNotFound")
  aws.ssm.PutParameter { Name = "/there", Value = "v", Type = "String" }
  H.eq(try({ Name = "/there" }).Parameter.Value, "v")
  local props = require("lib.service_props")
  -- The twin (a client action) and pcall (any other function) give the same answers.
  local plain = function(req) return get(req) end
  for _, fn in ipairs({ get, plain }) do
    H.eq(props.call(fn, { Name = "/there" }, { "ParameterNotFound" }).Parameter.Value, "v")
    local none, e = props.call(fn, { Name = "/missing" }, { "ParameterNotFound" })
    H.eq(none, nil)
    H.eq(e.code, "ParameterNotFound")
    local raised = H.raises(function() props.call(fn, { Name = "/missing" }, { "Other" }) end)
    H.eq(raised.code, "ParameterNotFound", "an error not named is raised as it came")
  end
  -- sim.attempt, under both: a result, or nil and the error (an error(nil) is still one).
  H.eq(sim.attempt(plain, { Name = "/there" }).Parameter.Value, "v")
  local none, e = sim.attempt(function() error(nil) end)
  H.eq(none, nil)
  H.eq(e, false)
end)

return T
