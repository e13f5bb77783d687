-- Hook results: in-progress, failures, result checking, default rollback,
-- the logger fallback.
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("results")

local function noop() end

T.case("P.in_progress and P.is_in_progress", function()
  local r = P.in_progress { after = 30, context = { step = "booting", n = 1 } }
  H.truthy(P.is_in_progress(r))
  H.eq(r.in_progress, true)
  H.eq(r.after, 30)
  H.same(r.context, { step = "booting", n = 1 })
  H.same(P.in_progress { after = 0 }.context, {}, "context defaults to {}")
  H.falsy(P.is_in_progress({ in_progress = true, after = 1, context = {} }), "a look-alike table is not")
  H.falsy(P.is_in_progress(nil))
  H.falsy(P.is_in_progress({ id = "x" }))
  H.same(r.reasons, {}, "no progress events unless a reason is given")
  H.same(P.in_progress { after = 1, reason = "Rolling update initiated." }.reasons, { "Rolling update initiated." })
  H.same(P.in_progress { after = 1, reason = { "a", "b" } }.reasons, { "a", "b" }, "one event per reason, in order")
end)

T.case("P.in_progress rejects bad arguments", function()
  H.raises_match(function() P.in_progress() end, "P%.in_progress: expected { after = seconds, context = {%.%.%.} }$")
  H.raises_match(function() P.in_progress { context = {} } end, "P%.in_progress: after must be a number of seconds >= 0$")
  H.raises_match(function() P.in_progress { after = -1 } end, "after must be a number of seconds >= 0$")
  H.raises_match(function() P.in_progress { after = 1, context = "x" } end, "context must be a table$")
  H.raises_match(function() P.in_progress { after = 1, context = { f = print } } end,
    "P%.in_progress: context must survive JSON persistence but holds a function$")
  H.raises_match(function() P.in_progress { after = 1, ctx = {} } end, 'unknown field "ctx"$')
  H.raises_match(function() P.in_progress { after = 1, reason = 7 } end, "reason must be a string or a list of strings$")
  H.raises_match(function() P.in_progress { after = 1, reason = { "a", 7 } } end, "reason%[2%] must be a string$")
end)

T.case("the same hook is called again with ctx.progress (contract walk-through)", function()
  -- A create that takes two looks: first call starts, second call finishes.
  local d = P.define({
    type = "AWS::T::Slow", properties = {}, attributes = { "State" },
    create = function(ctx, props)
      if not ctx.progress then return P.in_progress { after = 10, context = { started = true } } end
      return { id = "slow-1", attributes = { State = "ready" } }
    end,
    delete = noop,
  }, "slow.lua")
  local ctx = {}
  local r = d:check_result("create", d.create(ctx, {}))
  H.truthy(P.is_in_progress(r))
  ctx.progress = r.context
  r = d:check_result("create", d.create(ctx, {}))
  H.same(r, { id = "slow-1", attributes = { State = "ready" } })
end)

T.case("P.fail raises AWS's message with a code; error_message reads any error", function()
  local e = H.raises(function() P.fail("The security group 'sg-1' does not exist", "NotFound") end,
    "The security group 'sg-1' does not exist")
  H.truthy(P.is_error(e))
  H.eq(e.code, "NotFound")
  H.eq(tostring(e), "The security group 'sg-1' does not exist")
  local m, c = P.error_message(e)
  H.eq(m, "The security group 'sg-1' does not exist"); H.eq(c, "NotFound")
  local ok, err = pcall(function() local t = nil; return t.x end)
  H.falsy(ok)
  m, c = P.error_message(err)
  H.match(m, "attempt to index"); H.eq(c, nil)
  H.eq((P.error_message(42)), "42")
  local e2 = P.error("no code")
  H.eq(e2.code, nil)
  H.truthy(P.is_error(e2))
end)

local d = P.define({
  type = "AWS::T::Thing",
  properties = { P.string "Name" { update = "none" } },
  attributes = { "Arn", "Id" },
  create = noop, update = noop, delete = noop, read = noop,
}, "thing.lua")

T.case("check_result: create", function()
  H.same(d:check_result("create", { id = "t-1" }), { id = "t-1", attributes = {} })
  H.same(d:check_result("create", { id = "t-1", attributes = { Arn = "arn:x" } }),
    { id = "t-1", attributes = { Arn = "arn:x" } })
  H.raises(function() d:check_result("create", nil) end,
    "thing.lua: create returned nothing (expected { id = ..., attributes = ... })")
  H.raises(function() d:check_result("create", {}) end, "thing.lua: create returned no id (a non-empty string)")
  H.raises(function() d:check_result("create", { id = 5 }) end, "thing.lua: create returned no id (a non-empty string)")
  H.raises(function() d:check_result("create", { id = "x", attributes = { Nope = 1 } }) end,
    'thing.lua: create returned undeclared attribute "Nope"')
  H.raises(function() d:check_result("create", { id = "x", attributes = { Arn = print } }) end,
    "thing.lua: create returned attribute Arn holding a function")
  H.raises(function() d:check_result("create", { id = "x", attribute = {} }) end,
    'thing.lua: create returned unknown field "attribute"')
  H.raises(function() d:check_result("create", "x") end,
    'thing.lua: create must return a table or P.in_progress{...}, got "x"')
end)

T.case("check_result: update, rollback, delete, read", function()
  H.same(d:check_result("update", nil), {}, "nothing: attributes unchanged")
  H.same(d:check_result("update", { attributes = { Id = "1" } }), { attributes = { Id = "1" } })
  H.raises(function() d:check_result("update", { id = "new" }) end,
    'thing.lua: update must not return an id: replacement is the engine\'s decision (declare update = "replace")')
  H.same(d:check_result("rollback", nil), {})
  H.eq(d:check_result("delete", nil), nil)
  H.raises(function() d:check_result("delete", true) end,
    "thing.lua: delete must return nothing or P.in_progress{...}, got true")
  local wait = P.in_progress { after = 5 }
  H.eq(d:check_result("delete", wait), wait)
  H.eq(d:check_result("read", nil), nil, "gone")
  H.same(d:check_result("read", { properties = { Name = "a" } }), { properties = { Name = "a" } })
  H.raises(function() d:check_result("read", { attributes = {} }) end,
    "thing.lua: read must return { properties = {...} } or nil")
  H.raises(function() d:check_result("read", wait) end, "thing.lua: read cannot return P.in_progress")
end)

T.case("default rollback is update with old and new swapped", function()
  local calls = {}
  local r = P.define({
    type = "AWS::T::Thing",
    properties = { P.string "Name" { update = "none" } },
    create = noop, delete = noop,
    update = function(ctx, id, new, old, changed)
      calls[#calls + 1] = { id = id, new = new, old = old, changed = changed }
    end,
  }, "thing.lua")
  H.truthy(r.rollback_is_default)
  -- The host: the update went a -> b and failed later; roll back to a.
  r.rollback({}, "t-1", { Name = "a" }, { Name = "b" }, { "Name" })
  H.same(calls[1], { id = "t-1", new = { Name = "a" }, old = { Name = "b" }, changed = { "Name" } })

  local own = function() return { attributes = {} } end
  local r2 = P.define({
    type = "AWS::T::Thing", properties = { P.string "Name" { update = "none" } },
    create = noop, delete = noop, update = noop, rollback = own, leaves_partial_updates = true,
  }, "thing.lua")
  H.eq(r2.rollback, own)
  H.falsy(r2.rollback_is_default)
  H.eq(r2.leaves_partial_updates, true)
  H.eq(d.leaves_partial_updates, false)
end)

T.case("P.log falls back to a logger that drops everything", function()
  local null = P.log(nil)
  null.info("x"); null:warn("y"); null.error(); null.debug("z")
  local lines = {}
  local host = { info = function(m) lines[#lines + 1] = m end }
  H.eq(P.log({ log = host }), host)
  P.log({ log = host }).info("hello")
  H.same(lines, { "hello" })
  H.eq(P.log({}), null)
end)

return T
