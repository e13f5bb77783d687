-- Validation and coercion of template properties, with AWS's messages.
local H = require("harness")
local P = require("moonstack.provider")
local V = require("moonstack.values")
local T = H.suite("validate")

local function noop() end
local CTX = { logical_id = "MySubnet" }

local function define(props, extra)
  local d = { type = "AWS::Test::Thing", properties = props, create = noop, update = noop, delete = noop }
  for k, v in pairs(extra or {}) do d[k] = v end
  return P.define(d, "t.lua")
end

local function invalid(d, props, expected)
  local e = H.raises(function() d:validate(props, CTX) end, expected)
  H.truthy(P.is_error(e), "raised an SDK error")
  H.eq(e.code, "InvalidRequest")
end

local subnet = define({
  P.string "VpcId" { required = true },
  P.string "CidrBlock" { required = true },
  P.boolean "MapPublicIpOnLaunch" { update = "none", default = false },
  P.tags "Tags" { update = "none" },
})

T.case("valid properties come back as a copy with defaults", function()
  local tags = { { Key = "Name", Value = "a" } }
  local out = subnet:validate({ VpcId = "vpc-1", CidrBlock = "10.0.0.0/24", Tags = tags }, CTX)
  H.same(out, { VpcId = "vpc-1", CidrBlock = "10.0.0.0/24", MapPublicIpOnLaunch = false, Tags = tags })
  H.truthy(out.Tags ~= tags, "tables are copied")
end)

T.case("undeclared property", function()
  invalid(subnet, { VpcId = "v", CidrBlock = "c", Foo = 1 }, "Encountered unsupported property Foo")
  invalid(subnet, { VpcId = "v", CidrBlock = "c", Zed = 1, Bar = 2 }, "Encountered unsupported property Bar")
end)

T.case("missing required properties", function()
  invalid(subnet, { CidrBlock = "c" },
    "Properties validation failed for resource MySubnet with message: #: required key [VpcId] not found")
  invalid(subnet, {},
    "Properties validation failed for resource MySubnet with message: #: required key [VpcId] not found\n#: required key [CidrBlock] not found")
  H.raises(function() subnet:validate({}) end,
    "#: required key [VpcId] not found\n#: required key [CidrBlock] not found", "no logical ID: inner message")
end)

T.case("JSON null counts as absent", function()
  local null = {}
  V.set_null(null)
  local ok, err = pcall(function()
    invalid(subnet, { VpcId = null, CidrBlock = "c" },
      "Properties validation failed for resource MySubnet with message: #: required key [VpcId] not found")
    local out = subnet:validate({ VpcId = "v", CidrBlock = "c", MapPublicIpOnLaunch = null }, CTX)
    H.eq(out.MapPublicIpOnLaunch, false, "default replaces null")
    H.same(define({ P.string "A" }):validate(null), {}, "null Properties")
  end)
  V.set_null(nil)
  if not ok then error(err, 0) end
end)

local typed = define({
  P.string "S", P.number "N", P.integer "I", P.boolean "B",
  P.list "L", P.list(P.string) "LS", P.list(P.integer) "LI", P.list(P.list(P.number)) "LL",
  P.map "M", P.map(P.string) "MS", P.json "J",
})

T.case("string: numbers and booleans become strings", function()
  H.eq(typed:validate({ S = "x" }).S, "x")
  H.eq(typed:validate({ S = 8080 }).S, "8080")
  H.eq(typed:validate({ S = 1.5 }).S, "1.5")
  H.eq(typed:validate({ S = true }).S, "true")
  invalid(typed, { S = { "a" } }, "Value of property S must be of type String")
end)

T.case("number: numeric strings become numbers", function()
  H.eq(typed:validate({ N = 3.5 }).N, 3.5)
  H.eq(typed:validate({ N = "42" }).N, 42)
  H.eq(typed:validate({ N = " -0.5 " }).N, -0.5)
  invalid(typed, { N = "abc" }, "Encountered non numeric value for property N")
  invalid(typed, { N = "0x10" }, "Encountered non numeric value for property N")
  invalid(typed, { N = true }, "Encountered non numeric value for property N")
end)

T.case("integer: must be integral", function()
  H.eq(typed:validate({ I = 7 }).I, 7)
  H.eq(typed:validate({ I = "7" }).I, 7)
  H.eq(typed:validate({ I = "1e2" }).I, 100)
  invalid(typed, { I = 2.5 }, "Value of property I must be of type Integer")
  invalid(typed, { I = "2.5" }, "Value of property I must be of type Integer")
  invalid(typed, { I = "two" }, "Encountered non numeric value for property I")
end)

T.case("boolean: \"true\"/\"false\" strings become booleans", function()
  H.eq(typed:validate({ B = true }).B, true)
  H.eq(typed:validate({ B = "false" }).B, false)
  H.eq(typed:validate({ B = "True" }).B, true)
  invalid(typed, { B = "yes" }, "Value of property B must be of type Boolean")
  invalid(typed, { B = 1 }, "Value of property B must be of type Boolean")
end)

T.case("lists with element types", function()
  H.same(typed:validate({ L = { 1, "a", { x = 1 } } }).L, { 1, "a", { x = 1 } }, "untyped list passes through")
  H.same(typed:validate({ LS = { "a", 2, true } }).LS, { "a", "2", "true" })
  H.same(typed:validate({ LI = { "1", 2 } }).LI, { 1, 2 })
  H.same(typed:validate({ LL = { { 1, "2" }, {} } }).LL, { { 1, 2 }, {} })
  H.same(typed:validate({ LS = {} }).LS, {})
  invalid(typed, { L = "a,b" }, "Value of property L must be of type List")
  invalid(typed, { LS = { x = "a" } }, "Value of property LS must be of type List")
  invalid(typed, { LS = { "a", { "b" } } }, "Value of property LS must be of type List of String")
  invalid(typed, { LI = { 1, 1.5 } }, "Value of property LI must be of type List of Integer")
  invalid(typed, { LL = { { "x" } } }, "Value of property LL must be of type List of List of Number")
end)

T.case("list copies keep the host's array marker", function()
  local marker = {}
  local out = typed:validate({ LS = setmetatable({ "a", 1 }, marker) })
  H.eq(getmetatable(out.LS), marker)
  H.same(out.LS, { "a", "1" })
end)

T.case("maps", function()
  H.same(typed:validate({ M = { a = { 1 } } }).M, { a = { 1 } })
  H.same(typed:validate({ MS = { a = "x", b = 2 } }).MS, { a = "x", b = "2" })
  invalid(typed, { M = { 1, 2 } }, "Value of property M must be an object")
  invalid(typed, { M = "x" }, "Value of property M must be an object")
  invalid(typed, { MS = { a = { "x" } } },
    "Value of property MS must be an object with String (or simple type) properties")
end)

T.case("json passes through untouched", function()
  local doc = { Version = "2012-10-17", Statement = { { Effect = "Allow", Action = { "s3:*" } } } }
  local out = typed:validate({ J = doc })
  H.same(out.J, doc)
  H.truthy(out.J ~= doc, "copied")
  H.eq(typed:validate({ J = "text" }).J, "text")
  H.eq(typed:validate({ J = 5 }).J, 5)
end)

T.case("tags", function()
  local out = subnet:validate({ VpcId = "v", CidrBlock = "c",
    Tags = { { Key = "Name", Value = "web" }, { Key = "Port", Value = 80 } } }, CTX)
  H.same(out.Tags, { { Key = "Name", Value = "web" }, { Key = "Port", Value = "80" } })
  invalid(subnet, { VpcId = "v", CidrBlock = "c", Tags = { Name = "web" } },
    "Value of property Tags must be of type List")
  invalid(subnet, { VpcId = "v", CidrBlock = "c", Tags = { { Value = "x" } } },
    "Properties validation failed for resource MySubnet with message: #/Tags/0: required key [Key] not found")
  invalid(subnet, { VpcId = "v", CidrBlock = "c", Tags = { { Key = "a", Value = "1" }, { Key = "aws:x", Value = "y" } } },
    "Value ( aws:x ) for parameter key is invalid. Tag keys starting with 'aws:' are reserved for internal use")
end)

T.case("allowed values and patterns", function()
  local d = define({
    P.string "Tenancy" { allowed = { "default", "dedicated" } },
    P.integer "Port" { allowed = { 80, 443 } },
    P.string "VpcId" { pattern = "vpc%-%x+" },
    P.string "Anchored" { pattern = "^ab" },
  })
  H.eq(d:validate({ Tenancy = "dedicated" }).Tenancy, "dedicated")
  H.eq(d:validate({ Port = "443" }).Port, 443, "coerced before the check")
  H.eq(d:validate({ VpcId = "vpc-0a1b" }).VpcId, "vpc-0a1b")
  H.eq(d:validate({ Anchored = "abc" }).Anchored, "abc", "author's anchor kept")
  invalid(d, { Tenancy = "host" },
    "Properties validation failed for resource MySubnet with message: #/Tenancy: failed validation constraint for keyword [enum]")
  invalid(d, { Port = 8080 },
    "Properties validation failed for resource MySubnet with message: #/Port: failed validation constraint for keyword [enum]")
  invalid(d, { VpcId = "xvpc-0a1b" },
    "Properties validation failed for resource MySubnet with message: #/VpcId: failed validation constraint for keyword [pattern]")
  invalid(d, { VpcId = "vpc-0a1bz" },
    "Properties validation failed for resource MySubnet with message: #/VpcId: failed validation constraint for keyword [pattern]")
end)

T.case("additional properties (custom resources) pass through", function()
  local d = define({ P.string "ServiceToken" { required = true } }, { additional_properties = "none" })
  local out = d:validate({ ServiceToken = "arn:x", Anything = { 1, 2 }, Other = "y" })
  H.same(out, { ServiceToken = "arn:x", Anything = { 1, 2 }, Other = "y" })
end)

T.case("defaults are copied, never shared", function()
  local d = define({ P.list(P.string) "L" { default = { "a" }, update = "none" } })
  local a, b = d:validate({}), d:validate({})
  H.same(a.L, { "a" })
  H.truthy(a.L ~= b.L)
  a.L[1] = "changed"
  H.same(d:validate({}).L, { "a" })
end)

T.case("properties must be an object", function()
  invalid(subnet, { 1, 2 }, "Value of property Properties must be an object")
  H.same(define({ P.string "A" }):validate(nil), {}, "no Properties at all")
end)

return T
