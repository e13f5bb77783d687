-- moonstack.contract: the contract test kit. Runs a provider through the
-- lifecycle the engine will put it through — create, every update of the
-- fixture (in place, rolled back and forward again, or replaced), delete —
-- against the simulated cloud with virtual time, and checks what every
-- provider owes the engine:
--
--   create returns an id and every declared attribute; read (if declared)
--   agrees with what was created and updated (with neither read nor the
--   fixture's verify the run fails: nothing would see a no-op); a second
--   create of the same properties answers AlreadyExists or makes another
--   resource; list (if declared) includes a resource while it exists and
--   not after its delete; an update of the deleted resource answers NotFound; an update in place can be
--   rolled back (the declared rollback, or update with old and new swapped,
--   as the engine does); a replacement gets a new id; delete leaves nothing
--   in the world, a second delete succeeds or fails with NotFound, read then
--   returns nothing; a hook re-called with the same ctx.progress creates
--   nothing more.
--
-- The fixture of a provider file DIR/name.lua is DIR/tests/name.lua and
-- returns a table (see lua-sdk/README.md, "Contract tests"):
--   setup   = function(aws) -> values         optional; aws = sim.client()
--   create  = table | function(values) -> table
--   updates = { change, ... } | function(values) -> { change, ... }
--             each change a table or function(values) -> table, merged over
--             the CURRENT properties (the create properties with the earlier
--             updates applied); P.null removes a property
--   verify  = function(aws, id, props, attributes)   optional; raise on mismatch
--   ctx     = table | function(values) -> table      optional; extra fields for
--             every hook's ctx (a stand-in world for a provider that does not
--             use the simulated cloud)
--   invalid = { { properties = table, message = string? }, ... }   optional;
--             inputs validation must refuse (with exactly `message`, the
--             whole status reason, when given)
--
-- Used by `moonstack provider test FILE` and from Lua tests:
--   local report = contract.run("path/to/provider.lua")       -- fixture from tests/
--   local report = contract.run(decl_or_path, fixture_table, opts)
--   print(table.concat(contract.lines(report), "\n"))
--
-- The world is `require("moonstack.world")` (or opts.world), used as it is:
-- run the kit on a fresh world (the CLI does; Lua tests call fresh()).
-- Virtual time: each P.in_progress{after=N} advances the world clock by N
-- seconds (world.set_now_ms, where the world has it) before the re-call.

local P = require("moonstack.provider")
local host = require("moonstack.host")
local values = require("moonstack.values")
local schema = require("moonstack.schema")

local C = {}

---Re-calls of one hook after which it counts as never finishing.
C.MAX_CALLS = 1000
C.STACK_NAME = "contract"
C.LOGICAL_ID = "Resource"

-- Kinds looked at when the world cannot list its kinds (world.kinds()).
C.KNOWN_KINDS = {
  "ec2.instance", "ec2.image", "ec2.vpc", "ec2.subnet", "ec2.security_group", "ec2.key_pair",
  "iam.role", "iam.instance_profile", "iam.policy", "ssm.parameter",
  "cloudformation.wait_condition_handle", "config",
}
-- Kinds whose records change as a matter of course: the sim's ID generator.
local IGNORED_KINDS = { sim = true }

local FIXTURE_FIELDS = { setup = true, create = true, updates = true, verify = true, ctx = true, invalid = true }

-- Helpers -------------------------------------------------------------------------

-- A short, deterministic rendering of a value for messages.
local function show(v, depth)
  depth = depth or 0
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "number" then return values.number_to_string(v) end
  if values.is_null(v) then return "null" end
  if type(v) ~= "table" then return tostring(v) end
  if depth > 3 then return "{...}" end
  local parts = {}
  if values.is_array(v) and #v > 0 then
    for i = 1, #v do parts[i] = show(v[i], depth + 1) end
    return "[" .. table.concat(parts, ", ") .. "]"
  end
  for _, k in ipairs(values.sorted_keys(v)) do parts[#parts + 1] = tostring(k) .. "=" .. show(v[k], depth + 1) end
  return "{" .. table.concat(parts, ", ") .. "}"
end
C.show = show

local function message_of(e)
  local m = P.error_message(e)
  return m
end

-- P.null is the SDK's function returning the host's sentinel; a fixture may
-- write either it or the sentinel itself.
local function removes(v) return v == P.null or values.is_null(v) end

local function merge(base, change)
  local out = values.deep_copy(base)
  for k, v in pairs(change) do
    if removes(v) then out[k] = nil else out[k] = values.deep_copy(v) end
  end
  return out
end

local function resolve(x, vals)
  if type(x) == "function" then return x(vals) end
  return x
end

-- The io library under plain luajit; nil in the host's sandbox (the CLI
-- reads files itself and passes their text).
local function io_lib()
  local ok, lib = pcall(function() return io end) -- luacheck: ignore
  return ok and type(lib) == "table" and lib or nil
end

local function read_file(path)
  local lib = io_lib()
  if not lib then return nil, path .. ": cannot read files here (pass the text instead)" end
  local f = lib.open(path, "rb")
  if not f then return nil, path .. ": no such file" end
  local text = f:read("*a")
  f:close()
  return text
end

---Where the fixture of provider file `path` is: DIR/tests/name.lua.
---@param path string
---@return string
function C.fixture_path(path)
  local dir, name = path:match("^(.*)[/\\]([^/\\]+)$")
  if not dir then dir, name = ".", path end
  return dir .. "/tests/" .. name
end

---Runs a fixture file's text (in its own global table, as provider files
---are) and returns the fixture table. Raises "<path>: ..." when it is wrong.
---@param code string
---@param path string
---@return table
function C.load_fixture(code, path)
  local env = {}
  for k, v in pairs(_G) do env[k] = v end
  env._G = env
  local chunk, err = load(code, "@" .. path, "t", env)
  if not chunk then error(err, 0) end
  local ok, fixture = pcall(chunk)
  if not ok then error(fixture, 0) end
  if type(fixture) ~= "table" then error(path .. ": a fixture must return a table", 0) end
  for k in pairs(fixture) do
    if not FIXTURE_FIELDS[k] then
      error(string.format('%s: unknown field "%s" (expected setup, create, updates, verify, ctx, invalid)', path, tostring(k)), 0)
    end
  end
  if fixture.create == nil then error(path .. ": missing create (the properties to create with)", 0) end
  return fixture
end

-- Report --------------------------------------------------------------------------

local function new_report()
  return { checks = {}, passed = 0, failed = 0, skipped = 0 }
end

local function line_of(c)
  local head = c.status == "ok" and "ok  " or c.status
  return head .. " " .. c.name .. (c.reason and (": " .. c.reason) or "")
end

local function summary_of(report)
  local summary = string.format("%d passed, %d failed", report.passed, report.failed)
  if report.skipped > 0 then summary = summary .. string.format(", %d skipped", report.skipped) end
  return summary
end

local function record(report, status, name, reason)
  local c = { status = status, name = name, reason = reason }
  report.checks[#report.checks + 1] = c
  if status == "ok" then report.passed = report.passed + 1
  elseif status == "FAIL" then report.failed = report.failed + 1
  else report.skipped = report.skipped + 1 end
  if report.on_line then report.on_line(line_of(c)) end
end

---The report as lines: "ok   name", "FAIL name: reason", "skip name: reason",
---then "N passed, M failed" (", K skipped" when some were).
---@param report table
---@return string[]
function C.lines(report)
  local out = {}
  for _, c in ipairs(report.checks) do out[#out + 1] = line_of(c) end
  out[#out + 1] = summary_of(report)
  return out
end

-- The run -------------------------------------------------------------------------

-- Everything one run needs, in one table passed around.
local function new_run(decl, fixture, opts)
  local world = opts.world or require("moonstack.world")
  local sim = opts.sim or require("sim")
  local r = {
    decl = decl, fixture = fixture, world = world, sim = sim,
    report = opts.report or new_report(),
    now = world.now_ms and world.now_ms() or 0,
    max_calls = opts.max_calls or C.MAX_CALLS,
    extra_ctx = {},
  }
  return r
end

local function advance(run, seconds)
  run.now = run.now + math.floor(seconds * 1000 + 0.5)
  if run.world.set_now_ms then run.world.set_now_ms(run.now) end
end

local function new_ctx(run)
  local ctx = {
    stack_name = C.STACK_NAME,
    stack_id = "arn:aws:cloudformation:" .. run.sim.DEFAULT_REGION .. ":" .. run.sim.DEFAULT_ACCOUNT
        .. ":stack/" .. C.STACK_NAME .. "/00000000-0000-4000-8000-000000000000",
    logical_id = C.LOGICAL_ID,
    region = run.sim.DEFAULT_REGION,
    account = run.sim.DEFAULT_ACCOUNT,
    now_ms = run.now,
    log = P.log(nil),
  }
  ctx.world = run.sim.client(ctx, "cloudformation")  -- as the host's hooks (moonstack.host)
  for k, v in pairs(run.extra_ctx) do ctx[k] = v end
  return ctx
end

-- Calls `hook` until it stops answering in progress, as the engine does,
-- advancing virtual time by each `after`. Returns host.call's result (state
-- "done", id, attributes, properties); raises what the hook raised.
local function call(run, hook, id, props, old, changed)
  local ctx = new_ctx(run)
  for _ = 1, run.max_calls do
    ctx.now_ms = run.now
    local out = host.call(run.decl, hook, ctx, id, props, old, changed)
    if out.state ~= "in_progress" then return out end
    advance(run, out.after or 0)
    -- What the engine hands back went through JSON: a copy, never the same table.
    ctx.progress = values.deep_copy(out.progress)
  end
  error(string.format("%s never finished (still in progress after %d calls)", hook, run.max_calls), 0)
end

-- Live records of the world, kind -> id -> data (the sim's own state left out).
local function snapshot(run)
  local w = run.world
  local kinds = w.kinds and w.kinds() or C.KNOWN_KINDS
  local snap = {}
  for _, kind in ipairs(kinds) do
    if not IGNORED_KINDS[kind] then
      for _, id in ipairs(w.ids(kind, true)) do
        snap[kind] = snap[kind] or {}
        snap[kind][id] = w.get(kind, id)
      end
    end
  end
  return snap
end

local function live_count(run)
  local n = 0
  for _, recs in pairs(snapshot(run)) do
    for _ in pairs(recs) do n = n + 1 end
  end
  return n
end

-- What differs between two snapshots: "left: k/id, ...; removed: ...; changed: ...".
local function snapshot_diff(before, after)
  local left, removed, changed = {}, {}, {}
  for _, kind in ipairs(values.sorted_keys(after)) do
    for _, id in ipairs(values.sorted_keys(after[kind])) do
      local was = before[kind] and before[kind][id]
      if was == nil then left[#left + 1] = kind .. "/" .. id
      elseif not values.deep_equal(was, after[kind][id]) then changed[#changed + 1] = kind .. "/" .. id end
    end
  end
  for _, kind in ipairs(values.sorted_keys(before)) do
    for _, id in ipairs(values.sorted_keys(before[kind])) do
      if not (after[kind] and after[kind][id] ~= nil) then removed[#removed + 1] = kind .. "/" .. id end
    end
  end
  local parts = {}
  if #left > 0 then parts[#parts + 1] = "left " .. table.concat(left, ", ") end
  if #removed > 0 then parts[#parts + 1] = "removed " .. table.concat(removed, ", ") end
  if #changed > 0 then parts[#parts + 1] = "changed " .. table.concat(changed, ", ") end
  if #parts == 0 then return nil end
  return table.concat(parts, "; ")
end

-- Runs fn; records "ok" or "FAIL name: message". Returns true on success.
local function check(run, name, fn)
  local ok, err = pcall(fn)
  if ok then
    record(run.report, "ok", name)
  else
    record(run.report, "FAIL", name, message_of(err))
  end
  return ok
end

local function verify(run, id, props, attributes)
  local v = run.fixture.verify
  if v == nil then return end
  local ok, err = pcall(v, run.aws, id, values.deep_copy(props), values.deep_copy(attributes or {}))
  if not ok then error("verify: " .. message_of(err), 0) end
end

-- Every declared attribute is there (not nil, not null).
local function missing_attributes(decl, attributes)
  local missing = {}
  for _, a in ipairs(decl.attributes) do
    if values.is_absent(attributes and attributes[a]) then missing[#missing + 1] = a end
  end
  return missing
end

-- read() agrees with the properties given (compared after coercion) and with
-- the attributes known; raises naming each difference.
local function check_read(run, id, given, props, attributes)
  local decl = run.decl
  local out = call(run, "read", id, props)
  if out.properties == nil then error("read returned nothing (the resource is gone)", 0) end
  local diffs = {}
  for _, p in ipairs(decl.properties) do
    if not values.is_absent(given[p.name]) then
      local got = out.properties[p.name]
      local coerced = got
      if not values.is_absent(got) then coerced = schema.coerce(got, p, p.name) end
      if p.write_only then coerced = props[p.name] end  -- never read back
      if not values.deep_equal(coerced, props[p.name]) then
        diffs[#diffs + 1] = string.format("%s: expected %s, read %s", p.name, show(props[p.name]), show(got))
      end
    end
  end
  for _, name in ipairs(values.sorted_keys(out.attributes or {})) do
    local known = attributes and attributes[name]
    if known ~= nil and not values.deep_equal(known, out.attributes[name]) then
      diffs[#diffs + 1] = string.format("attribute %s: expected %s, read %s", name, show(known), show(out.attributes[name]))
    end
  end
  if #diffs > 0 then error(table.concat(diffs, "; "), 0) end
end

local function merge_attributes(current, returned)
  local out = values.deep_copy(current or {})
  for k, v in pairs(returned or {}) do out[k] = v end
  return out
end

-- One update of the fixture. `state` holds raw (unvalidated) props, the
-- validated props, id, attributes; it moves forward unless the update is
-- unsupported.
local function run_update(run, i, change, state, exercised)
  local decl = run.decl
  local label = "update " .. i
  local new_raw = merge(state.raw, change)
  local vctx = { logical_id = C.LOGICAL_ID }
  local ok, new = pcall(decl.validate, decl, new_raw, vctx)
  if not ok then
    record(run.report, "FAIL", label .. " properties validate", message_of(new))
    return
  end
  local ctx = new_ctx(run)
  local okc, behavior, changed, details = pcall(decl.change, decl, state.props, new, ctx)
  if not okc then
    record(run.report, "FAIL", label .. " update behaviour", message_of(behavior))
    return
  end
  if behavior == nil then
    record(run.report, "FAIL", label .. " changes something", "the new properties equal the current ones")
    return
  end
  local parts = {}
  for _, d in ipairs(details) do
    parts[#parts + 1] = d.name .. ": " .. d.behavior
    exercised[d.behavior] = exercised[d.behavior] or {}
    table.insert(exercised[d.behavior], d.name)
  end
  label = label .. " (" .. table.concat(parts, ", ") .. ")"
  local old = state.props
  local id = state.id

  if behavior == "unsupported" then
    -- The engine fails the resource without calling a hook; nothing to run.
    record(run.report, "skip", label, "skipped: the engine fails an unsupported update without calling a hook")
    return
  end

  if behavior == "replace" then
    local new_id, new_attrs
    local replaced = check(run, label .. " replaces the resource", function()
      local out = call(run, "create", nil, new)
      if out.id == id then error("the replacement has the old id " .. id, 0) end
      local missing = missing_attributes(decl, out.attributes)
      if #missing > 0 then error("the replacement is missing attribute(s) " .. table.concat(missing, ", "), 0) end
      new_id, new_attrs = out.id, out.attributes
      verify(run, new_id, new, new_attrs)
      if decl.read then check_read(run, new_id, new_raw, new, new_attrs) end
      -- Cleanup deletes the old one.
      call(run, "delete", id, old)
      if decl.read then
        local gone = call(run, "read", id, old)
        if gone.properties ~= nil then error("read still finds the old resource " .. id .. " after its delete", 0) end
      end
    end)
    if replaced then
      state.raw, state.props, state.id, state.attributes = new_raw, new, new_id, new_attrs
    end
    return
  end

  -- none / some: in place, then rolled back, then forward again.
  local attrs = state.attributes
  local function apply(hook, to, from, to_raw)
    local out = call(run, hook, id, to, from, changed)
    if out.id ~= nil and out.id ~= id then
      error(hook .. " returned a new id " .. out.id .. " (a replacement) for an in-place change", 0)
    end
    attrs = merge_attributes(attrs, out.attributes)
    verify(run, id, to, attrs)
    if decl.read then check_read(run, id, to_raw, to, attrs) end
  end

  -- A provider with replaces_in_update (custom resources) may answer an
  -- update with a new physical ID: then the update replaced the resource,
  -- and cleanup deletes the old one, as the engine does.
  local ok, new_id, new_attrs = pcall(function()
    local out = call(run, "update", id, new, old, changed)
    if out.id ~= nil and out.id ~= id and decl.replaces_in_update then
      local replaced_attrs = merge_attributes(attrs, out.attributes)
      verify(run, out.id, new, replaced_attrs)
      if decl.read then check_read(run, out.id, new_raw, new, replaced_attrs) end
      call(run, "delete", id, old)
      return out.id, replaced_attrs
    end
    if out.id ~= nil and out.id ~= id then
      error("update returned a new id " .. out.id .. " (a replacement) for an in-place change", 0)
    end
    attrs = merge_attributes(attrs, out.attributes)
    verify(run, id, new, attrs)
    if decl.read then check_read(run, id, new_raw, new, attrs) end
  end)
  if not ok then
    record(run.report, "FAIL", label .. " updates in place", message_of(new_id))
    return
  end
  if new_id ~= nil then
    record(run.report, "ok", label .. " updates, returning a new physical id (the old one is deleted in cleanup)")
    state.raw, state.props, state.id, state.attributes = new_raw, new, new_id, new_attrs
    return
  end
  record(run.report, "ok", label .. " updates in place")
  if state.in_place_change == nil then
    -- For the update after delete: this change, and its reverse (for when
    -- the last properties already hold it).
    local undo = {}
    for k in pairs(change) do undo[k] = state.raw[k] == nil and P.null or state.raw[k] end
    state.in_place_change, state.in_place_undo = change, undo
  end
  local how = decl.rollback_is_default and "update with old and new swapped" or "the declared rollback"
  check(run, label .. " rolls back (" .. how .. ")", function() apply("rollback", old, new, state.raw) end)
  if check(run, label .. " updates again after the rollback", function() apply("update", new, old, new_raw) end) then
    state.raw, state.props, state.attributes = new_raw, new, attrs
  end
end

-- The update kinds a provider declares statically (functions decide at run
-- time and are covered by whatever they return).
local function declared_kinds(decl)
  local kinds = {}
  for _, p in ipairs(decl.properties) do
    if P.SEVERITY[p.update] then
      kinds[p.update] = kinds[p.update] or {}
      table.insert(kinds[p.update], p.name)
    end
  end
  if P.SEVERITY[decl.additional_properties or ""] then
    kinds[decl.additional_properties] = kinds[decl.additional_properties] or {}
    table.insert(kinds[decl.additional_properties], "(undeclared properties)")
  end
  return kinds
end

local ORDER = { "none", "some", "replace", "unsupported" }

local function coverage(run, exercised)
  local declared = declared_kinds(run.decl)
  local seen, missing = {}, {}
  for _, b in ipairs(ORDER) do
    if exercised[b] then seen[#seen + 1] = b .. ": " .. table.concat(exercised[b], ", ") end
    if declared[b] and not exercised[b] then
      missing[#missing + 1] = b .. " (" .. table.concat(declared[b], ", ") .. ")"
    end
  end
  local name = "updates cover every declared update kind"
  if #seen > 0 then name = name .. " (" .. table.concat(seen, "; ") .. ")" end
  if #missing > 0 then
    record(run.report, "FAIL", name, "no update exercises " .. table.concat(missing, ", "))
  else
    record(run.report, "ok", name)
  end
end

-- Step 5: a create re-called with the same ctx.progress (as after a crash
-- between the call and its journal entry) must not create anything more.
local function idempotency(run, props)
  local decl = run.decl
  local name = "create re-called with the same progress creates nothing more"
  local start = snapshot(run)
  local ctx = new_ctx(run)
  local repeated = false
  local ok, err = pcall(function()
    local id
    for _ = 1, run.max_calls do
      ctx.now_ms = run.now
      local first = host.call(decl, "create", ctx, nil, props)
      if ctx.progress ~= nil then
        local n1 = live_count(run)
        local again = host.call(decl, "create", ctx, nil, props)
        local n2 = live_count(run)
        repeated = true
        if n2 > n1 then
          error(string.format("the re-call made %d more live record(s) in the world", n2 - n1), 0)
        end
        if first.state == "done" and again.state == "done" and first.id ~= again.id then
          error(string.format("the re-call returned another id (%s, then %s)", first.id, again.id), 0)
        end
        first = again
      end
      if first.state ~= "in_progress" then id = first.id break end
      advance(run, first.after or 0)
      ctx.progress = values.deep_copy(first.progress)
    end
    if id == nil then error("create never finished", 0) end
    call(run, "delete", id, props)
    local diff = repeated and snapshot_diff(start, snapshot(run))
    if diff then error("after its delete: " .. diff, 0) end
  end)
  if not ok then
    record(run.report, "FAIL", name, message_of(err))
  elseif not repeated then
    record(run.report, "skip", name, "create finished without P.in_progress")
  else
    record(run.report, "ok", name)
  end
end

-- What checks the provider's effects: its read hook, the fixture's verify.
-- Neither: nothing tells a no-op from a working create or update, so the
-- run fails saying so (never a pass); read alone missing is a skip line
-- (drift detection and import use it).
local function observability(run)
  local name = "the kit can see what the hooks did (a read hook, or the fixture's verify)"
  if run.decl.read and run.fixture.verify then return end
  if not run.decl.read and not run.fixture.verify then
    record(run.report, "FAIL", name, "the provider has no read hook and the fixture no verify: "
      .. "a create or update that does nothing would pass")
  elseif not run.decl.read then
    record(run.report, "skip", "read", "skipped: the provider has no read hook (drift detection and import need one)")
  end
end

-- contract_list (cloudformation-cli): the list hook's physical IDs include
-- the resource while it exists (`present`), and leave it out once deleted.
-- Without a list hook, one skip line says so (before the delete only).
local function list_check(run, id, present)
  local name = present and "list includes the created resource" or "list leaves the deleted resource out"
  if not run.decl.list then
    if present then record(run.report, "skip", "list", "skipped: the provider has no list hook") end
    return
  end
  check(run, name, function()
    local ids = run.decl.list(new_ctx(run))
    if type(ids) ~= "table" then error("list returned " .. show(ids) .. ", not a list of physical IDs", 0) end
    local found = false
    for _, v in ipairs(ids) do found = found or v == id end
    if found ~= present then
      error("list returned " .. show(ids) .. (present and ", without " or ", still with ") .. tostring(id), 0)
    end
  end)
end

-- An expected failure with a handler error code: "" when `fn` failed with
-- `code`, else what happened instead.
local function fails_with(fn, code)
  local ok, result = pcall(fn)
  if ok then return nil, result end
  local m, got = P.error_message(result)
  if got == code then return "" end
  return (got and ("failed with code " .. got) or "failed with no code") .. ": " .. tostring(m)
end

-- cloudformation-cli's checks below are the handler contract of registry
-- types; a custom resource's handler decides what such calls mean. True
-- when `name` was skipped for that reason.
local function skipped_for_custom_resources(run, name, what)
  if not run.decl.replaces_in_update then return false end
  record(run.report, "skip", name, "skipped: a custom resource's handler decides what " .. what .. " means")
  return true
end

-- create_create (cloudformation-cli's contract): the same properties created
-- again must answer AlreadyExists, or (a generated name) make a second
-- resource, deleted here; the same physical ID twice would be two stack
-- resources owning one thing.
local function create_twice(run, state)
  local name = "a second create with the same properties fails with AlreadyExists or makes another resource"
  if skipped_for_custom_resources(run, name, "a second create") then return end
  check(run, name, function()
    local why, out = fails_with(function() return call(run, "create", nil, state.props) end, "AlreadyExists")
    if why == "" then return end
    if out == nil then error(why .. " (CloudFormation expects AlreadyExists)", 0) end
    if out.id == state.id then
      error("it returned the same id " .. tostring(state.id) .. ": answer AlreadyExists (HandlerErrorCode) "
        .. "when the resource exists", 0)
    end
    call(run, "delete", out.id, state.props)
  end)
end

-- The fixture's invalid inputs (cloudformation-cli's "inputs" that must fail
-- validation): each must be refused, with its message when it names one.
local function invalid_inputs(run, vals)
  local okr, list = pcall(resolve, run.fixture.invalid, vals)
  if not okr or not values.is_array(list) then
    record(run.report, "FAIL", "fixture invalid", okr and "invalid must be a list of { properties = ..., message = ... }"
      or message_of(list))
    return
  end
  for i, case in ipairs(list) do
    local name = "invalid input " .. i .. " fails validation"
    check(run, name, function()
      if type(case) ~= "table" or type(case.properties) ~= "table" then
        error("expected { properties = {...}, message = ... }", 0)
      end
      local ok, err = pcall(run.decl.validate, run.decl, case.properties, { logical_id = C.LOGICAL_ID })
      if ok then error("validation accepted " .. show(case.properties), 0) end
      local m = message_of(err)
      if case.message ~= nil and m ~= case.message then
        error("expected " .. show(case.message) .. ", got " .. show(m), 0)
      end
    end)
  end
end

-- delete_update: an update of the deleted resource must answer NotFound (an
-- update that "succeeds" on nothing hides a lost resource). The update is
-- the fixture's first in-place change, made over the last properties (the
-- engine never sends an update that changes nothing).
local function update_after_delete(run, state)
  local name = "an update of the deleted resource fails with NotFound"
  if skipped_for_custom_resources(run, name, "an update of it") then return end
  local change = state.in_place_change
  if not run.decl.update or change == nil then
    record(run.report, "skip", name, "skipped: " .. (run.decl.update and "no fixture update changes a property in place"
      or "the provider has no update hook"))
    return
  end
  check(run, name, function()
    local decl = run.decl
    local new = decl:validate(merge(state.raw, change), { logical_id = C.LOGICAL_ID })
    local ctx = new_ctx(run)
    local _, changed = decl:change(state.props, new, ctx)
    if changed == nil or #changed == 0 then
      new = decl:validate(merge(state.raw, state.in_place_undo), { logical_id = C.LOGICAL_ID })
      _, changed = decl:change(state.props, new, ctx)
    end
    local why = fails_with(function()
      return host.call(decl, "update", ctx, state.id, new, state.props, changed or {})
    end, "NotFound")
    if why == nil then error("the update succeeded", 0) end
    if why ~= "" then error(why, 0) end
  end)
end

---Runs the contract. `decl` is a declaration or a provider file path;
---`fixture` a fixture table, a fixture file path, or nil (the provider's
---DIR/tests/name.lua). opts: world, sim, max_calls, provider_code and
---fixture_code (the files' text, where `io` is not available), on_line
---(called with each check's line as it is decided).
---Returns the report: { checks = { {status, name, reason}... }, passed, failed, skipped }.
---@param decl moonstack.Declaration|string
---@param fixture table|string|nil
---@param opts table?
---@return table
function C.run(decl, fixture, opts)
  opts = opts or {}
  local report = new_report()
  report.on_line = opts.on_line
  opts.report = report

  local path
  if not P.is_declaration(decl) then
    path = decl
    local code, err = opts.provider_code, nil
    if code == nil then code, err = read_file(path) end
    local ok, d = pcall(function()
      if code == nil then error(err, 0) end
      return host.load(code, path)
    end)
    if not ok then record(report, "FAIL", "provider loads", message_of(d)) return report end
    decl = d
    record(report, "ok", "provider loads (" .. decl.type .. ")")
  end

  if type(fixture) ~= "table" then
    local fpath = fixture or C.fixture_path(path or decl.source or "provider.lua")
    local code, err = opts.fixture_code, nil
    if code == nil then code, err = read_file(fpath) end
    local ok, f = pcall(function()
      if code == nil then error(err, 0) end
      return C.load_fixture(code, fpath)
    end)
    if not ok then record(report, "FAIL", "fixture loads", message_of(f)) return report end
    fixture = f
  end

  local run = new_run(decl, fixture, opts)
  run.aws = run.sim.client(nil)

  -- 1. setup, then the world as it is before the resource exists.
  local vals
  if fixture.setup then
    local ok, v = pcall(fixture.setup, run.aws)
    if not ok then record(report, "FAIL", "setup", message_of(v)) return report end
    vals = v
  end
  if fixture.ctx then
    local ok, extra = pcall(resolve, fixture.ctx, vals)
    if not ok or type(extra) ~= "table" then
      record(report, "FAIL", "fixture ctx", ok and "ctx must be a table or return one" or message_of(extra))
      return report
    end
    run.extra_ctx = extra
  end
  local before = snapshot(run)

  -- 2. create.
  local state = {}
  local okp, raw = pcall(resolve, fixture.create, vals)
  if not okp or type(raw) ~= "table" then
    record(report, "FAIL", "create properties", okp and "create must be a table or return one" or message_of(raw))
    return report
  end
  local props
  if not check(run, "create properties validate", function()
    props = decl:validate(raw, { logical_id = C.LOGICAL_ID })
  end) then return report end
  if fixture.invalid ~= nil then invalid_inputs(run, vals) end
  local created
  if not check(run, "create returns an id", function()
    created = call(run, "create", nil, props)
  end) then return report end
  state.raw, state.props, state.id, state.attributes = raw, props, created.id, created.attributes or {}

  local missing = missing_attributes(decl, state.attributes)
  if #missing > 0 then
    record(report, "FAIL", "create returns every declared attribute", "missing " .. table.concat(missing, ", "))
  else
    record(report, "ok", "create returns every declared attribute")
  end
  if fixture.verify then
    check(run, "verify after create", function() verify(run, state.id, props, state.attributes) end)
  end
  if decl.read then
    check(run, "read returns what was created", function()
      check_read(run, state.id, raw, props, state.attributes)
    end)
  end
  observability(run)
  list_check(run, state.id, true)
  create_twice(run, state)

  -- 3. updates, one at a time, each over the current properties.
  local exercised = {}
  local oku, updates = pcall(resolve, fixture.updates or {}, vals)
  if not oku or type(updates) ~= "table" then
    record(report, "FAIL", "fixture updates", oku and "updates must be a list or return one" or message_of(updates))
    updates = {}
  end
  for i, u in ipairs(updates) do
    local okc, change = pcall(resolve, u, vals)
    if not okc or type(change) ~= "table" then
      record(report, "FAIL", "update " .. i, okc and "a change must be a table or return one" or message_of(change))
    else
      run_update(run, i, change, state, exercised)
    end
  end
  coverage(run, exercised)

  -- 4. delete.
  if not check(run, "delete succeeds", function() call(run, "delete", state.id, state.props) end) then
    return report
  end
  if decl.read then
    check(run, "read after delete returns nothing", function()
      local out = call(run, "read", state.id, state.props)
      if out.properties ~= nil then error("read still returns " .. show(out.properties), 0) end
    end)
  end
  list_check(run, state.id, false)
  update_after_delete(run, state)
  check(run, "a second delete succeeds or fails with NotFound", function()
    local ok, err = pcall(call, run, "delete", state.id, state.props)
    if ok then return end
    local m, code = P.error_message(err)
    if code ~= "NotFound" then
      error("failed with " .. (code and ("code " .. code) or "no code") .. ": " .. tostring(m), 0)
    end
  end)
  check(run, "delete leaves nothing in the world", function()
    local diff = snapshot_diff(before, snapshot(run))
    if diff then error(diff, 0) end
  end)

  -- 5. in-progress idempotency of create.
  idempotency(run, props)
  return report
end

---For the host (`moonstack provider test`): runs the contract on the files'
---text, printing each check's line as it is decided (so a run stopped by the
---deadline shows how far it got) and the summary, and returns plain data:
---{ passed, failed, skipped }.
---@param provider_code string
---@param provider_path string
---@param fixture_code string
---@param fixture_path string
---@return table
function C.run_source(provider_code, provider_path, fixture_code, fixture_path)
  local report = C.run(provider_path, fixture_path,
    { provider_code = provider_code, fixture_code = fixture_code, on_line = print })
  print(summary_of(report))
  return { passed = report.passed, failed = report.failed, skipped = report.skipped }
end

return C
