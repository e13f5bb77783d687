-- The schema DSL's registry constraints: minimum/maximum, min_length/
-- max_length, regex, P.object sub-properties (any depth, in lists),
-- write_only and compound primary identifiers, with the registry
-- validator's exact messages.
local H = require("harness")
local P = require("moonstack.provider")
local R = require("moonstack.regex")
local T = H.suite("constraints")

local function noop() end
local CTX = { logical_id = "Thing" }
local PREFIX = "Properties validation failed for resource Thing with message: "

local function define(props, extra)
  local d = { type = "AWS::Test::Thing", properties = props, create = noop, update = noop, delete = noop }
  for k, v in pairs(extra or {}) do d[k] = v end
  return P.define(d, "t.lua")
end

local function invalid(d, props, inner)
  local e = H.raises(function() d:validate(props, CTX) end, PREFIX .. inner)
  H.eq(e.code, "InvalidRequest")
end

local thing = define({
  P.string "Name" { required = true, min_length = 3, max_length = 5, regex = "^[a-z]+$" },
  P.integer "Size" { minimum = 1, maximum = 10, update = "none" },
  P.number "Ratio" { minimum = 0.5, update = "none" },
  P.list(P.string) "Items" { min_length = 1, max_length = 2, update = "none" },
  P.string "Prefix" { regex = "^(?!aws:)", update = "none" },
  P.object {
    P.string "Key" { required = true },
    P.integer "Count" { minimum = 0, default = 1 },
    P.object { P.string "Deep" { required = true, max_length = 2 } } "Inner",
  } "Config" { update = "none" },
  P.list(P.object { P.string "K" { required = true } }) "Rules" { update = "none", max_length = 3 },
})

T.case("string lengths and regex", function()
  invalid(thing, { Name = "ab" }, "#/Name: expected minLength: 3, actual: 2")
  invalid(thing, { Name = "abcdef" }, "#/Name: expected maxLength: 5, actual: 6")
  invalid(thing, { Name = "abC" }, "#/Name: failed validation constraint for keyword [pattern]")
  invalid(thing, { Name = "abc", Prefix = "aws:x" }, "#/Prefix: failed validation constraint for keyword [pattern]")
  H.eq(thing:validate({ Name = "abc", Prefix = "awsx" }, CTX).Prefix, "awsx")
  -- lengths count characters, not bytes
  H.eq(define({ P.string "N" { max_length = 2 } }):validate({ N = "\195\169\195\169" }, CTX).N, "\195\169\195\169")
end)

T.case("numeric bounds, after coercion", function()
  invalid(thing, { Name = "abc", Size = 0 }, "#/Size: 0 is not greater or equal to 1")
  invalid(thing, { Name = "abc", Size = "11" }, "#/Size: 11 is not less or equal to 10")
  invalid(thing, { Name = "abc", Ratio = 0.25 }, "#/Ratio: 0.25 is not greater or equal to 0.5")
  H.eq(thing:validate({ Name = "abc", Size = "10" }, CTX).Size, 10)
end)

T.case("list item counts", function()
  invalid(thing, { Name = "abc", Items = {} }, "#/Items: expected minimum item count: 1, found: 0")
  invalid(thing, { Name = "abc", Items = { "a", "b", "c" } }, "#/Items: expected maximum item count: 2, found: 3")
end)

T.case("nested objects: required, extraneous, types, constraints, defaults, any depth", function()
  invalid(thing, { Name = "abc", Config = {} }, "#/Config: required key [Key] not found")
  invalid(thing, { Name = "abc", Config = { Key = "k", X = 1 } }, "#/Config: extraneous key [X] is not permitted")
  invalid(thing, { Name = "abc", Config = { Key = "k", Count = "x" } }, "#/Config/Count: expected type: Integer, found: String")
  invalid(thing, { Name = "abc", Config = { Key = "k", Count = -1 } }, "#/Config/Count: -1 is not greater or equal to 0")
  invalid(thing, { Name = "abc", Config = { Key = "k", Inner = {} } }, "#/Config/Inner: required key [Deep] not found")
  invalid(thing, { Name = "abc", Config = { Key = "k", Inner = { Deep = "abc" } } },
    "#/Config/Inner/Deep: expected maxLength: 2, actual: 3")
  H.raises(function() thing:validate({ Name = "abc", Config = "x" }, CTX) end, "Value of property Config must be an object")
  local ok = thing:validate({ Name = "abc", Config = { Key = 5, Inner = { Deep = "d" } } }, CTX)
  H.same(ok.Config, { Key = "5", Count = 1, Inner = { Deep = "d" } })
end)

T.case("lists of objects: each item checked, paths count from 0", function()
  invalid(thing, { Name = "abc", Rules = { { K = "a" }, {} } }, "#/Rules/1: required key [K] not found")
  invalid(thing, { Name = "abc", Rules = { { K = "a", Z = "b" } } }, "#/Rules/0: extraneous key [Z] is not permitted")
  invalid(thing, { Name = "abc", Rules = { {}, {}, {}, {} } }, "#/Rules: expected maximum item count: 3, found: 4")
  H.same(thing:validate({ Name = "abc", Rules = { { K = 1 } } }, CTX).Rules, { { K = "1" } })
end)

T.case("declaration mistakes are reported with the file", function()
  H.raises(function() define({ P.string "A" { minimum = 1 } }) end,
    "t.lua: property A: minimum and maximum apply to number and integer properties")
  H.raises(function() define({ P.integer "A" { max_length = 1 } }) end,
    "t.lua: property A: min_length and max_length apply to string and list properties")
  H.raises(function() define({ P.string "A" { min_length = 1.5 } }) end,
    "t.lua: property A: min_length must be a whole number >= 0")
  H.raises(function() define({ P.integer "A" { minimum = 5, maximum = 1 } }) end,
    "t.lua: property A: minimum is greater than maximum")
  H.raises(function() define({ P.string "A" { regex = "\\bword" } }) end,
    't.lua: property A: regex "\\bword" uses \\b, which moonstack.regex does not support')
  H.raises(function() define({ P.object { P.string "B" { update = "none" } } "A" }) end,
    "t.lua: property A: sub-property B: update applies to top-level properties only")
  H.raises(function() define({ P.integer "A" { maximum = 3, default = 4, update = "none" } }) end,
    "t.lua: property A: default 4 fails its own constraints (#/A: 4 is not less or equal to 3)")
  H.raises(function() define({ P.object "x" "A" }) end,
    't.lua: property A: P.object expects a list of properties, got "x"')
end)

T.case("write_only: read never returns it", function()
  local d = define({ P.string "Name" { required = true }, P.string "Password" { write_only = true, update = "none" } },
    { read = function() return { properties = { Name = "n", Password = "secret" } } end })
  H.eq(d:property("Password").write_only, true)
  H.eq(d:property("Name").write_only, false)
  local r = d:check_result("read", { properties = { Name = "n", Password = "secret" } })
  H.same(r.properties, { Name = "n" })
end)

T.case("compound primary identifiers", function()
  local d = define({ P.string "Bucket" { required = true }, P.string "Key" { required = true } },
    { attributes = { "Arn" }, primary_identifier = { "Bucket", "Key" } })
  H.same(d.primary_identifiers, { "Bucket", "Key" })
  H.eq(d.primary_identifier, "Bucket")
  H.raises(function() define({ P.string "A" }, { primary_identifier = { "A", "Nope" } }) end,
    't.lua: primary_identifier "Nope" is not a declared attribute or property')
  H.raises(function() define({ P.string "A" }, { primary_identifier = {} }) end,
    "t.lua: primary_identifier must be a name or a non-empty list of names")
end)

T.case("regex: ECMAScript lookahead, search semantics", function()
  local function search(p, s) return R.search(assert(R.compile(p)), s) end
  H.eq(search("^(?!aws:).*$", "aws:x"), false)
  H.eq(search("^(?!aws:).*$", "awsx"), true)
  H.eq(search("a(?=b)", "xab"), true)
  H.eq(search("a(?=b)", "xac"), false)
  H.eq(search("[0-9]", "ab1"), true)  -- not anchored: some part matches
  H.eq(search("^[0-9]$", "ab1"), false)
end)

T.case("a registry schema's constraints fill in what a property does not declare, and no more", function()
  local d = define({
    P.string "Name" { update = "replace" },
    P.string "Kind" { allowed = { "a" }, update = "none" },      -- its own enum stays
    P.integer "Size" { minimum = 2, update = "none" },           -- its own bound stays, the other is not added
    P.integer "Count" { update = "none" },
    P.integer "Days" { update = "none" },
    P.integer "Level" { allowed = { 5 }, update = "none" },     -- its own enum stays
    P.list(P.string) "Items" { update = "none" },
    P.string "Note" { update = "none" },
    P.json "Doc" { update = "none" },                            -- json: none taken
  })
  d:adopt_registry_constraints({
    Name = { type = "string", minLength = 1, maxLength = 4, pattern = "^[a-z]+$" },
    Kind = { type = "string", enum = { "a", "b" } },
    Size = { type = "integer", minimum = 1, maximum = 3 },
    Count = { type = "integer", minimum = 0, maximum = 9 },
    Days = { type = "integer", enum = { 1, 3, 7 } },              -- an enum of numbers (a LogGroup's RetentionInDays)
    Level = { type = "integer", enum = { 1, 5 } },
    Items = { type = "array", minItems = 1, maxItems = 2 },
    Note = { type = "string", pattern = "(?<=x)y", enum = { "n", 1 } },  -- lookbehind unread, enum not all strings
    Doc = { type = "object", minProperties = 1 },
    Other = { type = "string", maxLength = 1 },                   -- not declared: nothing to constrain
  })
  invalid(d, { Name = "abcde" }, "#/Name: expected maxLength: 4, actual: 5")
  invalid(d, { Name = "AB" }, "#/Name: failed validation constraint for keyword [pattern]")
  invalid(d, { Kind = "b" }, "#/Kind: failed validation constraint for keyword [enum]")
  invalid(d, { Count = 10 }, "#/Count: 10 is not less or equal to 9")
  invalid(d, { Items = {} }, "#/Items: expected minimum item count: 1, found: 0")
  invalid(d, { Size = 1 }, "#/Size: 1 is not greater or equal to 2")
  invalid(d, { Days = 2 }, "#/Days: failed validation constraint for keyword [enum]")
  invalid(d, { Level = 1 }, "#/Level: failed validation constraint for keyword [enum]")
  local v = d:validate({ Name = "ab", Kind = "a", Size = 99, Count = 9, Items = { "x" }, Note = "zz", Doc = {},
                         Days = "7", Level = 5 }, CTX)
  H.eq(v.Size, 99)
  H.eq(v.Days, 7)
  H.eq(v.Note, "zz")
end)

T.case("a registry checker runs on structured properties' values once their own checks pass; others are not given one", function()
  local d = define({
    P.json "Config" { update = "none" },
    P.json "Loose" { update = "none" },     -- no schema entry: no checker
    P.string "Name" { update = "none" },    -- a scalar: no checker
    P.list(P.string) "Archs" { max_length = 1, update = "none" },
    P.object { P.map "Variables" {} } "Env" { update = "none" },
    P.tags "Tags" { update = "none" },      -- tags: the SDK's own
  })
  local asked = {}
  d:adopt_registry_constraints({ Config = { type = "object" }, Name = { type = "string" }, Archs = { type = "array" },
                                 Env = { type = "object" }, Tags = { type = "array" } }, function(name, value)
    asked[#asked + 1] = name
    if name == "Archs" and value[1] ~= "arm64" then return { "#/Archs/0: failed validation constraint for keyword [enum]" } end
    if name == "Env" and value.Variables and value.Variables["1x"] then
      return { "#/Env/Variables: extraneous key [1x] is not permitted" }
    end
    if value.Mode == "bad" then return { "#/" .. name .. "/Mode: failed validation constraint for keyword [enum]",
                                         "#/" .. name .. ": extraneous key [X] is not permitted" } end
    return {}
  end)
  invalid(d, { Config = { Mode = "bad" } },
    "#/Config/Mode: failed validation constraint for keyword [enum]\n#/Config: extraneous key [X] is not permitted")
  local v = d:validate({ Config = { Mode = "good" }, Loose = { Mode = "bad" }, Name = "n" }, CTX)
  H.eq(v.Config.Mode, "good")
  H.same(asked, { "Config", "Config" })
  -- A list's items and an object's sub-properties: the registry's messages, after the declaration's own checks.
  asked = {}
  invalid(d, { Archs = { "arm32" } }, "#/Archs/0: failed validation constraint for keyword [enum]")
  invalid(d, { Archs = { "arm64" }, Env = { Variables = { ["1x"] = "v" } } },
    "#/Env/Variables: extraneous key [1x] is not permitted")
  invalid(d, { Archs = { "a", "b" } }, "#/Archs: expected maximum item count: 1, found: 2")  -- its own check first
  d:validate({ Archs = { "arm64" }, Env = { Variables = { A = "v" } }, Tags = { { Key = "k", Value = "v" } } }, CTX)
  H.same(asked, { "Archs", "Archs", "Env", "Archs", "Env" })
  -- Every property's nested messages are reported together, in declaration order.
  local two = define({ P.json "A" { update = "none" }, P.json "B" { update = "none" } })
  two:adopt_registry_constraints({ A = {}, B = {} }, function(name, value)
    return value == "bad" and { "#/" .. name .. ": expected type: JSONObject, found: String" } or {}
  end)
  invalid(two, { A = "bad", B = "bad" },
    "#/A: expected type: JSONObject, found: String\n#/B: expected type: JSONObject, found: String")
end)

return T
