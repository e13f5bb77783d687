-- The provider tooling: the contract test kit (moonstack.contract) on good
-- and broken providers, the scaffold it must pass, custom-resource requests
-- and responses (moonstack.custom), stub declarations (moonstack.stub), and
-- the declaration flags they rely on. Runs on the in-memory world store.
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("contract")

-- The kit runs providers against the simulated cloud: providers/ on the path,
-- the in-memory world as moonstack.world.
local world = H.simulated_cloud()
local C = require("moonstack.contract")
local custom = require("moonstack.custom")
local stub = require("moonstack.stub")
local scaffold = require("moonstack.scaffold")

local function fresh()
  world.reset()
  require("sim").seed("contract")
end

local function statuses(report)
  local out = {}
  for _, c in ipairs(report.checks) do
    out[#out + 1] = c.status .. " " .. c.name .. (c.reason and (": " .. c.reason) or "")
  end
  return out
end

local function find(report, name)
  for _, c in ipairs(report.checks) do
    if c.name == name then return c end
  end
  error("no check named " .. name .. " in:\n" .. table.concat(statuses(report), "\n"), 0)
end

-- A small, correct provider keeping its state in the world; `bug` breaks one thing.
local function widget(bug)
  bug = bug or {}
  local KIND = "test.widget"
  return P.define({
    type = "Test::Contract::Widget",
    properties = {
      P.string "Name" { required = true, update = "replace" },
      P.integer "Size" { default = 1, update = "none" },
      P.string "Color" { update = "some" },
      P.string "Zone" { update = "unsupported" },
    },
    attributes = { "Arn", "Size" },
    create = function(ctx, props)
      if bug.never_done then return P.in_progress({ after = 1 }) end
      if ctx.progress then
        if bug.duplicate_on_recall then world.put(KIND, "dup-" .. world.now_ms() .. "-" .. #world.ids(KIND), {}) end
        local id = ctx.progress.id
        local r = world.get(KIND, id)
        r.ReadyAt = world.now_ms()
        world.put(KIND, id, r)
        local attrs = { Arn = "arn:test:" .. id, Size = props.Size }
        if bug.no_arn then attrs.Arn = nil end
        return { id = id, attributes = attrs }
      end
      local id = "w-" .. props.Name
      if world.get(KIND, id) and not bug.no_already_exists then
        P.fail("Widget " .. id .. " already exists", "AlreadyExists")
      end
      world.put(KIND, id, { Name = props.Name, Size = props.Size, Color = props.Color, StartedAt = world.now_ms() })
      return P.in_progress({ after = 30, context = { id = id } })
    end,
    update = function(ctx, id, new, old, changed)
      local r = world.get(KIND, id)
      if not r and bug.update_missing_ok then return end
      if not r then P.fail("Widget " .. id .. " not found", "NotFound") end
      r.Size, r.Color = new.Size, new.Color
      world.put(KIND, id, r)
      return { attributes = { Size = new.Size } }
    end,
    rollback = bug.lazy_rollback and function() end or nil,
    delete = function(ctx, id, props)
      if bug.leak then return end
      if not world.get(KIND, id) then
        if bug.bad_second_delete then P.fail("Widget " .. id .. " is gone", "InvalidRequest") end
        if bug.notfound_second_delete then P.fail("Widget " .. id .. " not found", "NotFound") end
        return
      end
      world.remove(KIND, id)
    end,
    read = function(ctx, id, props)
      local r = world.get(KIND, id)
      if not r then return nil end
      local size = r.Size
      if bug.read_wrong_size then size = size + 1 end
      return { properties = { Name = r.Name, Size = size, Color = r.Color } }
    end,
  }, "widget.lua")
end

-- The widget without its read hook.
local function widget_without_read(bug)
  local d = widget(bug)
  d.read = nil
  return d
end

-- assert() adds a position under LuaJIT; the kit reports what verify raised.
local function expect(ok, message) if not ok then error(message, 0) end end

local function fixture(extra)
  local f = {
    create = { Name = "a", Size = "2", Color = "red" },   -- "2": coerced to 2, as from a template
    updates = { { Size = 3 }, { Color = "blue" }, { Name = "b" }, { Zone = "z1" } },
    verify = function(aws, id, props, attributes)
      local r = world.get("test.widget", id)
      expect(r, "no record " .. id)
      expect(r.Size == props.Size, "Size is " .. tostring(r.Size) .. ", expected " .. tostring(props.Size))
      expect(r.Color == props.Color, "Color is " .. tostring(r.Color) .. ", expected " .. tostring(props.Color))
      expect(attributes.Size == props.Size, "attribute Size is " .. tostring(attributes.Size))
    end,
  }
  for k, v in pairs(extra or {}) do f[k] = v end
  if f.verify == false then f.verify = nil end  -- a fixture without verify
  return f
end

T.case("a correct provider passes every check, one line each", function()
  fresh()
  local report = C.run(widget(), fixture())
  H.same(statuses(report), {
    "ok create properties validate",
    "ok create returns an id",
    "ok create returns every declared attribute",
    "ok verify after create",
    "ok read returns what was created",
    "skip list: skipped: the provider has no list hook",
    "ok a second create with the same properties fails with AlreadyExists or makes another resource",
    "ok update 1 (Size: none) updates in place",
    "ok update 1 (Size: none) rolls back (update with old and new swapped)",
    "ok update 1 (Size: none) updates again after the rollback",
    "ok update 2 (Color: some) updates in place",
    "ok update 2 (Color: some) rolls back (update with old and new swapped)",
    "ok update 2 (Color: some) updates again after the rollback",
    "ok update 3 (Name: replace) replaces the resource",
    "skip update 4 (Zone: unsupported): skipped: the engine fails an unsupported update without calling a hook",
    "ok updates cover every declared update kind (none: Size; some: Color; replace: Name; unsupported: Zone)",
    "ok delete succeeds",
    "ok read after delete returns nothing",
    "ok an update of the deleted resource fails with NotFound",
    "ok a second delete succeeds or fails with NotFound",
    "ok delete leaves nothing in the world",
    "ok create re-called with the same progress creates nothing more",
  })
  H.eq(report.passed, 20)
  H.eq(report.failed, 0)
  H.eq(report.skipped, 2)
  local lines = C.lines(report)
  H.eq(lines[1], "ok   create properties validate")
  H.eq(lines[15], "skip update 4 (Zone: unsupported): skipped: the engine fails an unsupported update without calling a hook")
  H.eq(lines[#lines], "20 passed, 0 failed, 2 skipped")
end)

T.case("mutants: no AlreadyExists, an update of nothing that succeeds, no read and no verify", function()
  fresh()
  local report = C.run(widget({ no_already_exists = true }), fixture({ updates = {} }))
  local c = find(report, "a second create with the same properties fails with AlreadyExists or makes another resource")
  H.eq(c.status, "FAIL")
  H.eq(c.reason, "it returned the same id w-a: answer AlreadyExists (HandlerErrorCode) when the resource exists")

  fresh()
  report = C.run(widget({ update_missing_ok = true }), fixture({ updates = { { Size = 3 } } }))
  c = find(report, "an update of the deleted resource fails with NotFound")
  H.eq(c.status, "FAIL")
  H.eq(c.reason, "the update succeeded")

  fresh()
  report = C.run(widget_without_read(), fixture({ updates = { { Size = 3 } }, verify = false }))
  c = find(report, "the kit can see what the hooks did (a read hook, or the fixture's verify)")
  H.eq(c.status, "FAIL")
  H.eq(c.reason, "the provider has no read hook and the fixture no verify: a create or update that does nothing would pass")
  H.truthy(report.failed > 0)

  fresh()
  report = C.run(widget_without_read(), fixture({ updates = {} }))
  c = find(report, "read")
  H.eq(c.status, "skip")
  H.eq(c.reason, "skipped: the provider has no read hook (drift detection and import need one)")
end)

-- The widget with a list hook; `bug`: "misses" (never lists), "keeps" (lists deleted ones too).
local function widget_with_list(bug)
  local d = widget()
  d.list = function(ctx)
    if bug == "misses" then return {} end
    local ids = world.ids("test.widget")
    if bug == "keeps" then ids[#ids + 1] = "w-a" end
    return ids
  end
  return d
end

T.case("list (contract_list): the created resource listed, the deleted one not; mutants fail saying why", function()
  fresh()
  local report = C.run(widget_with_list(), fixture())
  H.eq(find(report, "list includes the created resource").status, "ok")
  H.eq(find(report, "list leaves the deleted resource out").status, "ok")
  H.eq(report.failed, 0, table.concat(statuses(report), "\n"))

  fresh()
  report = C.run(widget_with_list("misses"), fixture({ updates = {} }))
  local c = find(report, "list includes the created resource")
  H.eq(c.status, "FAIL")
  H.eq(c.reason, "list returned {}, without w-a")

  fresh()
  report = C.run(widget_with_list("keeps"), fixture({ updates = {} }))
  c = find(report, "list leaves the deleted resource out")
  H.eq(c.status, "FAIL")
  H.eq(c.reason, 'list returned ["w-a"], still with w-a')
end)

T.case("virtual time: each in-progress `after` moves the world clock", function()
  fresh()
  world.set_now_ms(1000)
  C.run(widget(), fixture({ updates = {}, verify = function(aws, id)
    local r = world.get("test.widget", id)
    expect(r.ReadyAt - r.StartedAt == 30000, "ready after " .. tostring(r.ReadyAt - r.StartedAt) .. " ms")
  end }))
  H.eq(world.now_ms(), 1000 + 2 * 30000, "two creates (the re-call phase too), 30 s each")
end)

T.case("delete that leaves a record: the record is named", function()
  fresh()
  local report = C.run(widget({ leak = true }), fixture())
  H.eq(find(report, "delete leaves nothing in the world").reason, "left test.widget/w-a, test.widget/w-b")
  H.eq(find(report, "delete leaves nothing in the world").status, "FAIL")
  -- The idempotency phase's create finds the leaked w-a in its way.
  H.eq(find(report, "create re-called with the same progress creates nothing more").reason,
    "Widget w-a already exists")
  -- read and the replacement's cleanup see the record still there too.
  H.eq(find(report, "update 3 (Name: replace) replaces the resource").reason,
    "read still finds the old resource w-a after its delete")
  H.eq(C.lines(report)[#C.lines(report)], "15 passed, 5 failed, 2 skipped", table.concat(statuses(report), "\n"))
end)

T.case("a missing attribute, a wrong read, a rollback that does nothing", function()
  fresh()
  local report = C.run(widget({ no_arn = true }), fixture({ updates = {} }))
  H.eq(find(report, "create returns every declared attribute").reason, "missing Arn")
  H.eq(find(report, "updates cover every declared update kind").reason,
    "no update exercises none (Size), some (Color), replace (Name), unsupported (Zone)")

  fresh()
  report = C.run(widget({ read_wrong_size = true }), fixture({ updates = {} }))
  H.eq(find(report, "read returns what was created").reason, "Size: expected 2, read 3")

  fresh()
  report = C.run(widget({ lazy_rollback = true }), fixture({ updates = { { Size = 3 } } }))
  H.eq(find(report, "update 1 (Size: none) rolls back (the declared rollback)").reason,
    "verify: Size is 3, expected 2")
  H.eq(find(report, "update 1 (Size: none) updates again after the rollback").status, "ok")
end)

T.case("a hook that never finishes, a bad second delete, a duplicate on re-call", function()
  fresh()
  local report = C.run(widget({ never_done = true }), fixture(), { max_calls = 20 })
  H.same(statuses(report), {
    "ok create properties validate",
    "FAIL create returns an id: create never finished (still in progress after 20 calls)",
  })

  fresh()
  report = C.run(widget({ bad_second_delete = true }), fixture({ updates = {} }))
  H.eq(find(report, "a second delete succeeds or fails with NotFound").reason,
    "failed with code InvalidRequest: Widget w-a is gone")
  fresh()
  report = C.run(widget({ notfound_second_delete = true }), fixture({ updates = {} }))
  H.eq(find(report, "a second delete succeeds or fails with NotFound").status, "ok")

  fresh()
  report = C.run(widget({ duplicate_on_recall = true }), fixture({ updates = {} }))
  H.eq(find(report, "create re-called with the same progress creates nothing more").reason,
    "the re-call made 1 more live record(s) in the world")
end)

T.case("updates merge over the current properties; P.null removes one", function()
  fresh()
  local seen = {}
  local f = fixture({
    updates = { { Size = 3 }, { Color = P.null } },
    verify = function(aws, id, props) seen[#seen + 1] = (props.Size or "-") .. "/" .. (props.Color or "-") end,
  })
  local report = C.run(widget(), f)
  H.eq(report.failed, 1, "only coverage fails: " .. table.concat(statuses(report), "\n"))
  -- create, then per update: in place, rolled back, forward again.
  H.same(seen, { "2/red", "3/red", "2/red", "3/red", "3/-", "3/red", "3/-" })
end)

T.case("a replacement that keeps its id, an update that changes nothing", function()
  fresh()
  local d = widget()
  local create = d.create
  d.create = function(ctx, props)
    local r = create(ctx, props)
    if not P.is_in_progress(r) and r.id == "w-b" then r.id = "w-a" end
    return r
  end
  local report = C.run(d, fixture({ updates = { { Name = "b" }, { Size = 2 } } }))
  H.eq(find(report, "update 1 (Name: replace) replaces the resource").reason, "the replacement has the old id w-a")
  H.eq(find(report, "update 2 changes something").reason, "the new properties equal the current ones")
end)

T.case("fixtures: loading, their path, their mistakes", function()
  H.eq(C.fixture_path("providers/aws/ec2/subnet.lua"), "providers/aws/ec2/tests/subnet.lua")
  H.eq(C.fixture_path("subnet.lua"), "./tests/subnet.lua")
  local f = C.load_fixture("return { create = { A = 1 }, updates = {} }", "t.lua")
  H.same(f.create, { A = 1 })
  H.raises(function() C.load_fixture("return { create = {}, update = {} }", "t.lua") end,
    't.lua: unknown field "update" (expected setup, create, updates, verify, ctx, invalid)')
  H.raises(function() C.load_fixture("return { }", "t.lua") end, "t.lua: missing create (the properties to create with)")
  H.raises(function() C.load_fixture("return 1", "t.lua") end, "t.lua: a fixture must return a table")
  local report = C.run("nope/missing.lua", nil, {})
  H.same(statuses(report), { "FAIL provider loads: nope/missing.lua: no such file" })

  fresh()
  report = C.run(widget(), fixture({ setup = function() error("no VPC", 0) end }))
  H.same(statuses(report), { "FAIL setup: no VPC" })
end)

T.case("the scaffold passes the kit as it is", function()
  fresh()
  local files = scaffold.files("Acme::Thing::Widget")
  H.eq(files.provider_path, "acme/thing/widget.lua")
  H.eq(files.fixture_path, "acme/thing/tests/widget.lua")
  local report = C.run("/x/" .. files.provider_path, "/x/" .. files.fixture_path,
    { provider_code = files.provider, fixture_code = files.fixture })
  H.eq(report.failed, 0, table.concat(statuses(report), "\n"))
  H.eq(report.passed, 23)
  H.eq(find(report, "updates cover every declared update kind (none: Size; some: Mode; replace: Name)").status, "ok")
  -- Type names follow AWS's rule.
  H.truthy(scaffold.type_parts("Ab::Cd::Ef"))
  for _, bad in ipairs({ "A::Bc::De", "Ab::Cd", "Ab::C-d::Ef", ("A"):rep(65) .. "::Cd::Ef", "Ab::Cd::Ef::Gh" }) do
    H.falsy(scaffold.type_parts(bad), bad)
  end
  H.raises(function() scaffold.files("Custom::Thing") end,
    'invalid type name "Custom::Thing": expected Organization::Service::Resource, three parts of 2 to 64 '
    .. "letters or digits (AWS's rule for resource type names)")
end)

-- moonstack.custom -------------------------------------------------------------

T.case("custom: properties reach the handler stringified", function()
  H.same(custom.stringify({ A = true, B = false, C = 10, D = 1.5, E = "x", F = { 1, { G = true } } }),
    { A = "true", B = "false", C = "10", D = "1.5", E = "x", F = { "1", { G = "true" } } })
  -- A number keeps the text the template wrote (the host records it in __numtext).
  local t = setmetatable({ N = 1.5, M = 2 }, { __numtext = { N = "1.50", M = "3" } })
  H.same(custom.stringify(t), { N = "1.50", M = "2" }, "stale text is ignored")
  H.eq(custom.stringify(7), "7")
end)

T.case("custom: ServiceToken names a handler", function()
  H.eq(custom.handler_name("arn:aws:lambda:us-east-1:123456789012:function:my-fn_1"), "my-fn_1")
  H.eq(custom.handler_name("arn:aws:lambda:us-east-1:123456789012:function:my-fn:prod"), "my-fn")
  H.eq(custom.handler_name("arn:aws:lambda:us-east-1:123456789012:function:my-fn:$LATEST"), "my-fn")
  H.eq(custom.handler_name("arn:aws:sns:us-east-1:123456789012:topic"), "topic")
  H.eq(custom.handler_name("plain-name"), "plain-name")
  H.eq(custom.handler_name("arn:aws:s3:::bucket"), nil)
  H.eq(custom.handler_name("../etc"), nil)
end)

T.case("custom: the request, and responses checked", function()
  local req = custom.request({
    request_type = "Update", request_id = "r-1", region = "eu-west-1", resource_type = "Custom::X",
    stack_id = "arn:aws:cloudformation:eu-west-1:1:stack/s/u", logical_id = "L", physical_id = "p-1",
    properties = { ServiceToken = "t", N = 1 }, old_properties = { ServiceToken = "t", N = 2 },
  })
  H.same(req, {
    RequestType = "Update",
    ResponseURL = "https://cloudformation-custom-resource-response-euwest1.s3.amazonaws.com/"
        .. "arn%3Aaws%3Acloudformation%3Aeu-west-1%3A1%3Astack%2Fs%2Fu%7CL%7Cr-1",
    StackId = "arn:aws:cloudformation:eu-west-1:1:stack/s/u", RequestId = "r-1", ResourceType = "Custom::X",
    LogicalResourceId = "L", PhysicalResourceId = "p-1",
    ResourceProperties = { ServiceToken = "t", N = "1" }, OldResourceProperties = { ServiceToken = "t", N = "2" },
  })
  local create = custom.request({ request_type = "Create", request_id = "r", physical_id = "ignored", properties = {} })
  H.eq(create.PhysicalResourceId, nil)
  H.eq(create.OldResourceProperties, nil)

  H.truthy(custom.check_response(custom.success(req, { data = { A = "1" } })))
  H.eq(custom.success(req).PhysicalResourceId, "p-1")
  local _, why = custom.check_response({ Status = "OK" })
  H.eq(why, "Status must be SUCCESS or FAILED, got OK")
  _, why = custom.check_response({ Status = "SUCCESS", Extra = 1 })
  H.eq(why, 'unknown response field "Extra"')
  _, why = custom.check_response({ Status = "SUCCESS", PhysicalResourceId = "" })
  H.eq(why, "PhysicalResourceId must be a non-empty string")
  _, why = custom.check_response({ Status = "SUCCESS", Data = { "list" } })
  H.eq(why, "Data must be an object")
  H.eq(custom.failed_message("boom", "r-1"),
    "Received response status [FAILED] from custom resource. Message returned: boom (RequestId: r-1)")
  H.eq(custom.uuid_of({ "a", 1 }), custom.uuid_of({ "a", 1 }))
  H.truthy(custom.uuid_of({ "a", 1 }) ~= custom.uuid_of({ "a", 2 }))
  H.match(custom.uuid_of({}), "^%x+%-%x+%-4%x+%-[89ab]%x+%-%x+$")
end)

-- moonstack.stub and the declaration flags --------------------------------------------

T.case("stub: any property, updates in place, placeholder attributes", function()
  local d = stub.define("Acme::Queue::Thing", { attributes = { "Arn" } })
  H.eq(d.additional_properties, "none")
  H.truthy(d.any_attributes)
  local props = d:validate({ Whatever = { 1, 2 }, Flag = true })
  H.same(props, { Whatever = { 1, 2 }, Flag = true })
  local ctx = { stack_name = "s", logical_id = "Q", now_ms = 5 }
  local r = d:check_result("create", d.create(ctx, props))
  H.match(r.id, "^s%-Q%-[A-Z0-9]+$")
  H.eq(#r.id, #"s-Q-" + 13)
  H.eq(r.attributes.Arn, r.id .. ".Arn")
  H.eq(d.create(ctx, props).id, r.id, "deterministic")
  H.truthy(d.create(ctx, { Whatever = 1 }).id ~= r.id, "other properties, another id")
  H.eq((d:change(props, { Whatever = 3 })), "none")
  H.eq(stub.attribute("id-1", "Endpoint.Address"), "id-1.Endpoint.Address")
  -- Any attribute may come back (any_attributes).
  H.same(d:check_result("update", { attributes = { Anything = "x" } }), { attributes = { Anything = "x" } })
end)

T.case("replaces_in_update lets update return an id; others may not", function()
  local base = {
    type = "Test::Flags::Thing",
    properties = { P.string "A" { update = "none" } },
    create = function() return { id = "x" } end,
    update = function() end,
    delete = function() end,
  }
  local plain = P.define(base, "plain.lua")
  H.raises(function() plain:check_result("update", { id = "y" }) end,
    'plain.lua: update must not return an id: replacement is the engine\'s decision (declare update = "replace")')
  H.raises(function() plain:check_result("create", { id = "x", attributes = { Z = 1 } }) end,
    'plain.lua: create returned undeclared attribute "Z"')
  base.replaces_in_update = true
  local replacing = P.define(base, "replacing.lua")
  H.same(replacing:check_result("update", { id = "y" }), { id = "y" })
  H.same(replacing:check_result("rollback", { id = "y", attributes = {} }), { id = "y", attributes = {} })
  H.same(replacing:check_result("update", {}), {})
  H.raises(function() replacing:check_result("update", { id = 5 }) end,
    "replacing.lua: update returned an id that is not a non-empty string")
  H.raises(function() replacing:check_result("read", { id = "y", properties = {} }) end,
    'replacing.lua: read must not return an id: replacement is the engine\'s decision (declare update = "replace")')
  base.replaces_in_update = "yes"
  H.raises(function() P.define(base, "bad.lua") end, "bad.lua: replaces_in_update must be true or false")
  base.replaces_in_update = nil
  base.any_attributes = 1
  H.raises(function() P.define(base, "bad.lua") end, "bad.lua: any_attributes must be true or false")
end)

return T
