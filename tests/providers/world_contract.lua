-- The world store's contract (lua-sdk/moonstack/world_memory.lua documents
-- it), as one function run against both implementations: the in-memory
-- double (tests/providers/test_world_contract.lua) and the host's binding
-- over the C++ World (tests/host/world_binding_test.cc). Raises on the first
-- difference. `W` must be empty.
return function(W)
  local function check(cond, what) if not cond then error("world contract: " .. what, 2) end end
  local function same_list(a, b)
    if #a ~= #b then return false end
    for i = 1, #a do if a[i] ~= b[i] then return false end end
    return true
  end

  check(W.get("ec2.vpc", "vpc-1") == nil, "get of a missing record is nil")
  W.put("ec2.vpc", "vpc-1", { CidrBlock = "10.0.0.0/16", Tags = { { Key = "a", Value = "b" } } })
  local v = W.get("ec2.vpc", "vpc-1")
  check(v.CidrBlock == "10.0.0.0/16" and v.Tags[1].Value == "b", "get returns what put stored")
  v.CidrBlock = "changed"
  check(W.get("ec2.vpc", "vpc-1").CidrBlock == "10.0.0.0/16", "get returns a copy")

  W.put("ec2.subnet", "subnet-b", { VpcId = "vpc-1" }, { refs = { "vpc-1" } })
  W.put("ec2.subnet", "subnet-a", { VpcId = "vpc-1" }, { refs = { "vpc-1" } })
  W.put("ec2.instance", "i-1", { SubnetId = "subnet-a" }, { refs = { "subnet-a", "vpc-1" } })
  check(same_list(W.ids("ec2.subnet"), { "subnet-a", "subnet-b" }), "ids are sorted")
  local refs = W.referrers("vpc-1")
  check(#refs == 3, "three records name vpc-1")
  check(refs[1].kind == "ec2.instance" and refs[1].id == "i-1", "referrers sorted by kind")
  check(refs[2].kind == "ec2.subnet" and refs[2].id == "subnet-a", "then by id")
  check(refs[3].id == "subnet-b", "then by id (2)")

  -- A terminated instance: describable, not live, not a dependent.
  W.put("ec2.instance", "i-1", { State = "terminated" }, { live = false, refs = { "subnet-a" } })
  check(W.live("ec2.instance", "i-1") == false, "not live")
  check(W.get("ec2.instance", "i-1").State == "terminated", "still describable")
  check(#W.referrers("subnet-a") == 0, "a record that is not live is no referrer")
  check(#W.referrers("vpc-1") == 2, "re-putting a record replaces its refs")
  check(same_list(W.ids("ec2.instance", true), {}), "live_only ids")
  check(same_list(W.ids("ec2.instance"), { "i-1" }), "all ids")

  -- A prefix: the ids that start with it (a log group's streams), sorted.
  W.put("logs.stream", "g:b", {})
  W.put("logs.stream", "g:a", {})
  W.put("logs.stream", "g2:a", {})
  W.put("logs.stream", "f:z", {})
  W.put("logs.stream", "g:c", {}, { live = false })
  check(same_list(W.ids("logs.stream", false, "g:"), { "g:a", "g:b", "g:c" }), "ids with a prefix")
  check(same_list(W.ids("logs.stream", true, "g:"), { "g:a", "g:b" }), "live ids with a prefix")
  check(same_list(W.ids("logs.stream", false, "g"), { "g2:a", "g:a", "g:b", "g:c" }), "a prefix of several")
  check(same_list(W.ids("logs.stream", false, "h:"), {}), "a prefix no id has")
  check(same_list(W.ids("logs.stream", false, ""), { "f:z", "g2:a", "g:a", "g:b", "g:c" }), "the empty prefix")
  check(same_list(W.ids("logs.stream", false, "g:", "g:a"), { "g:b", "g:c" }), "after an id (strictly)")
  check(same_list(W.ids("logs.stream", false, "g:", "g:ab"), { "g:b", "g:c" }), "after a key between ids")
  check(same_list(W.ids("logs.stream", false, "g:", "f"), { "g:a", "g:b", "g:c" }), "after a key before the prefix")
  check(same_list(W.ids("logs.stream", false, "g:", "h"), {}), "after a key past the prefix")
  check(same_list(W.ids("logs.stream", false, "", "g2:a", 2), { "g:a", "g:b" }), "after, at most a limit")
  check(same_list(W.ids("logs.stream", true, "g:", nil, 1), { "g:a" }), "a limit of live ids")
  check(same_list(W.ids("logs.stream", false, "g:", nil, 0), { "g:a", "g:b", "g:c" }), "limit 0: all")
  for _, id in ipairs(W.ids("logs.stream")) do W.remove("logs.stream", id) end

  check(W.remove("ec2.subnet", "subnet-b") == true, "remove says it existed")
  check(W.remove("ec2.subnet", "subnet-b") == false, "remove of a missing record")
  check(#W.referrers("vpc-1") == 1, "a removed record is no referrer")
  check(same_list(W.kinds(), { "ec2.instance", "ec2.subnet", "ec2.vpc" }), "kinds")

  -- atomic passes arguments and results through and re-raises errors.
  local a, b = W.atomic(function(x, y) return x + 1, y .. "!" end, 1, "hi")
  check(a == 2 and b == "hi!", "atomic returns fn's results")
  local ok, err = pcall(W.atomic, function() error({ message = "boom", code = "X" }) end)
  check(not ok and type(err) == "table" and err.code == "X", "atomic re-raises the same error value")
  check(W.atomic(function() return W.atomic(function() return 7 end) end) == 7, "atomic is re-entrant")

  local ok2 = pcall(W.put, "k", "id", "not a table")
  check(not ok2, "put refuses data that is not a table")

  -- The ID generator: moonstack.ids's sequence, its state the record
  -- ("sim", "ids"); the default seed without one.
  local ids = require("moonstack.ids")
  local HEX, ALNUM = "0123456789abcdef", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
  local expect = ids.new()
  check(W.draw(HEX, 16) == expect:hex(16), "a world without a generator draws from the default seed")
  W.put("sim", "ids", ids.new("replay"):state())
  expect = ids.new("replay")
  check(W.draw(HEX, 16) == expect:hex(16), "draw continues the record's sequence")
  check(W.draw(ALNUM, 17) == expect:upper_alnum(17), "in any alphabet")
  check(W.uniform() == expect:next(), "uniform is the sequence's next value")
  local state = W.get("sim", "ids")
  check(state.s1 == expect:state().s1 and state.s2 == expect:state().s2, "the record holds the state after the draws")
  check(W.draw(HEX, 0) == "", "no characters")
  check(W.draw("x", 3) == "xxx", "a one-letter alphabet")
  W.remove("sim", "ids")

  W.set_now_ms(1234)
  check(W.now_ms() == 1234, "the clock")
  return true
end
