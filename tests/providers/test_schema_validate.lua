-- lib.schema_validate: properties against a registry schema, with the
-- registry validator's messages, keyword by keyword, nested.
local H = require("harness")
local V = require("lib.schema_validate")
local T = H.suite("schema validator")

local function errs(schema, props) return V.errors(schema, props) end
local ARRAY = { __jsontype = "array" }

T.case("required and extraneous keys, at the top and below it", function()
  local s = {
    properties = { Name = { type = "string" }, Config = { ["$ref"] = "#/definitions/Config" } },
    required = { "Name" },
    additionalProperties = false,
    definitions = {
      Config = { type = "object", additionalProperties = false, required = { "Mode", "Level" },
                 properties = { Mode = { type = "string" }, Level = { type = "integer" } } },
    },
  }
  H.same(errs(s, { Name = "a", Config = { Mode = "x", Level = 1 } }), {})
  H.same(errs(s, {}), { "#: required key [Name] not found" })
  H.same(errs(s, { Name = "a", Foo = 1 }), { "#: extraneous key [Foo] is not permitted" })
  H.same(errs(s, { Name = "a", Config = { Bogus = true } }), {
    "#/Config: required key [Level] not found",
    "#/Config: required key [Mode] not found",
    "#/Config: extraneous key [Bogus] is not permitted",
  })
end)

T.case("types, with CloudFormation's scalar conversion", function()
  local s = { properties = {
    S = { type = "string" }, I = { type = "integer" }, N = { type = "number" }, B = { type = "boolean" },
    L = { type = "array" }, O = { type = "object" }, Either = { type = { "object", "string" } },
  } }
  H.same(errs(s, { S = 5, I = "12", N = "1.5", B = "True", L = setmetatable({}, ARRAY), O = {}, Either = "x" }), {})
  H.same(errs(s, { S = { a = 1 } }), { "#/S: expected type: String, found: JSONObject" })
  H.same(errs(s, { I = "1.5" }), { "#/I: expected type: Integer, found: String" })
  H.same(errs(s, { I = 1.5 }), { "#/I: expected type: Integer, found: BigDecimal" })
  H.same(errs(s, { N = "abc" }), { "#/N: expected type: Number, found: String" })
  H.same(errs(s, { B = "yes" }), { "#/B: expected type: Boolean, found: String" })
  H.same(errs(s, { L = { a = 1 } }), { "#/L: expected type: JSONArray, found: JSONObject" })
  H.same(errs(s, { O = { 1, 2 } }), { "#/O: expected type: JSONObject, found: JSONArray" })
  H.same(errs(s, { O = setmetatable({}, ARRAY) }), { "#/O: expected type: JSONObject, found: JSONArray" })
  H.same(errs(s, { Either = { 1 } }), { "#/Either: expected type is one of JSONObject, String, found: JSONArray" })
end)

T.case("string keywords: lengths, pattern, enum", function()
  local s = { properties = {
    Name = { type = "string", minLength = 3, maxLength = 5, pattern = "^[a-z]+$" },
    Mode = { type = "string", enum = { "fast", "slow" } },
    Free = { type = "string", pattern = "b" },      -- not anchored: a search
    Odd = { type = "string", pattern = "^(?<=a)b" },  -- lookbehind: not checked
  } }
  H.same(errs(s, { Name = "abcd", Mode = "fast", Free = "abc", Odd = "zz" }), {})
  H.same(errs(s, { Name = "ab" }), { "#/Name: expected minLength: 3, actual: 2" })
  H.same(errs(s, { Name = "ABCDEFG" }), {
    "#/Name: expected maxLength: 5, actual: 7",
    "#/Name: failed validation constraint for keyword [pattern]",
  })
  H.same(errs(s, { Mode = "medium" }), { "#/Mode: failed validation constraint for keyword [enum]" })
  H.same(errs(s, { Free = "xyz" }), { "#/Free: failed validation constraint for keyword [pattern]" })
  H.same(errs(s, { Name = "\u{e9}\u{e9}\u{e9}" }), { "#/Name: failed validation constraint for keyword [pattern]" })
end)

T.case("numbers: minimum and maximum; enums of numbers", function()
  local s = { properties = {
    Delay = { type = "integer", minimum = 0, maximum = 900 },
    Size = { type = "integer", enum = { 1, 2 } },
  } }
  H.same(errs(s, { Delay = 900, Size = "2" }), {})
  H.same(errs(s, { Delay = 901 }), { "#/Delay: 901 is not less or equal to 900" })
  H.same(errs(s, { Delay = "-1" }), { "#/Delay: -1 is not greater or equal to 0" })
  H.same(errs(s, { Size = 3 }), { "#/Size: failed validation constraint for keyword [enum]" })
end)

T.case("arrays: item counts and each item, paths counting from 0", function()
  local s = {
    properties = { Tags = { type = "array", minItems = 1, maxItems = 2, items = { ["$ref"] = "#/definitions/Tag" } } },
    definitions = { Tag = { type = "object", additionalProperties = false, required = { "Key", "Value" },
                            properties = { Key = { type = "string", maxLength = 3 }, Value = { type = "string" } } } },
  }
  H.same(errs(s, { Tags = { { Key = "a", Value = "b" } } }), {})
  H.same(errs(s, { Tags = setmetatable({}, ARRAY) }), { "#/Tags: expected minimum item count: 1, found: 0" })
  H.same(errs(s, { Tags = { { Key = "a", Value = "1" }, { Key = "b", Value = "2" }, { Key = "c", Value = "3" } } }),
    { "#/Tags: expected maximum item count: 2, found: 3" })
  H.same(errs(s, { Tags = { { Key = "a", Value = "b" }, { Key = "long", Extra = 1 } } }), {
    "#/Tags/1: required key [Value] not found",
    "#/Tags/1: extraneous key [Extra] is not permitted",
    "#/Tags/1/Key: expected maxLength: 3, actual: 4",
  })
end)

T.case("recursive definitions and patternProperties", function()
  local s = {
    properties = { Statement = { ["$ref"] = "#/definitions/Statement" },
                   Labels = { type = "object", patternProperties = { ["^[a-z]+$"] = { type = "string", maxLength = 2 } } } },
    definitions = { Statement = { type = "object", additionalProperties = false, properties = {
      Not = { ["$ref"] = "#/definitions/Statement" }, Match = { type = "string" } } } },
  }
  H.same(errs(s, { Statement = { Not = { Not = { Match = "x" } } }, Labels = { ab = "12", ["A1"] = "anything" } }), {})
  H.same(errs(s, { Statement = { Not = { Not = { Nope = "x" } } } }),
    { "#/Statement/Not/Not: extraneous key [Nope] is not permitted" })
  H.same(errs(s, { Labels = { ab = "123" } }), { "#/Labels/ab: expected maxLength: 2, actual: 3" })
end)

T.case("the event text joins every error as CloudFormation does", function()
  H.eq(V.message("MyBucket", { "#/BucketName: failed validation constraint for keyword [pattern]" }),
    "Properties validation failed for resource MyBucket with message: [#/BucketName: failed validation constraint for keyword [pattern]]")
  H.eq(V.message("Q", { "#: required key [A] not found", "#/B: expected type: String, found: JSONObject" }),
    "Properties validation failed for resource Q with message: [#: required key [A] not found, #/B: expected type: String, found: JSONObject]")
end)

return T
