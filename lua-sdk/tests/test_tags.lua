-- CloudFormation Tags: list <-> map, validation with AWS's messages.
local H = require("harness")
local tags = require("moonstack.tags")
local P = require("moonstack.provider")
local T = H.suite("tags")

T.case("to_map and from_map", function()
  H.same(tags.to_map({ { Key = "b", Value = "2" }, { Key = "a", Value = "1" } }), { a = "1", b = "2" })
  H.same(tags.from_map({ b = "2", a = "1" }), { { Key = "a", Value = "1" }, { Key = "b", Value = "2" } })
  H.same(tags.to_map(nil), {})
  H.same(tags.from_map(nil), {})
  local list = { { Key = "x", Value = "1" }, { Key = "y", Value = "" } }
  H.same(tags.from_map(tags.to_map(list)), list, "round trip")
end)

T.case("diff: what to set and what to remove", function()
  local set, remove = tags.diff(
    { { Key = "Name", Value = "a" }, { Key = "Old", Value = "x" }, { Key = "Same", Value = "s" } },
    { { Key = "Name", Value = "b" }, { Key = "New", Value = "n" }, { Key = "Same", Value = "s" } })
  H.same(set, { Name = "b", New = "n" })
  H.same(remove, { "Old" })
  set, remove = tags.diff(nil, { A = "1" })
  H.same(set, { A = "1" }); H.same(remove, {})
end)

T.case("check normalizes numbers and booleans to strings", function()
  H.same(tags.check({ { Key = "Port", Value = 80 }, { Key = 1, Value = true } }),
    { { Key = "Port", Value = "80" }, { Key = "1", Value = "true" } })
  H.same(tags.check({}), {})
end)

local function bad(list, expected, opts)
  local out, why = tags.check(list, opts)
  H.eq(out, nil)
  H.eq(why, expected)
  H.raises(function() tags.validate(list, opts) end, expected)
end

T.case("shape errors", function()
  bad({ Name = "x" }, "Value of property Tags must be of type List")
  bad("Name=x", "Value of property Tags must be of type List")
  bad({ "Name" }, "Value of property Tags must be of type List of Tag")
  bad({ { Key = "a", Value = { "x" } } }, "Value of property Tags must be of type List of Tag")
end)

T.case("Key and Value are required (CloudFormation's Tag type)", function()
  bad({ { Value = "x" } }, "#/Tags/0: required key [Key] not found")
  bad({ { Key = "a", Value = "1" }, { Key = "b" } }, "#/Tags/1: required key [Value] not found")
  bad({ { Key = "a", Value = "1" }, { Key = "b" } },
    "Properties validation failed for resource Web with message: #/Tags/1: required key [Value] not found",
    { logical_id = "Web" })
  H.same(tags.check({ { Key = "b" } }, { value_optional = true }), { { Key = "b" } })
  bad({ { Key = "a", Value = "1", Extra = 1 } }, "#/Tags/0: extraneous key [Extra] is not permitted")
  -- Of several, the first in key order, whatever order pairs() gives.
  bad({ { Key = "a", Value = "1", Zed = 1, Extra = 1, Mid = 1 } },
    "#/Tags/0: extraneous key [Extra] is not permitted")
end)

T.case("lengths: key 1..128, value up to 256 characters", function()
  H.truthy(tags.check({ { Key = ("k"):rep(128), Value = ("v"):rep(256) } }))
  H.truthy(tags.check({ { Key = ("\195\169"):rep(128), Value = "" } }), "characters, not bytes")
  local long_key = ("k"):rep(129)
  bad({ { Key = "ok", Value = "1" }, { Key = long_key, Value = "v" } },
    "1 validation error detected: Value '" .. long_key
    .. "' at 'tags.2.member.key' failed to satisfy constraint: Member must have length less than or equal to 128")
  local long_value = ("v"):rep(257)
  bad({ { Key = "k", Value = long_value } },
    "1 validation error detected: Value '" .. long_value
    .. "' at 'tags.1.member.value' failed to satisfy constraint: Member must have length less than or equal to 256")
  bad({ { Key = "", Value = "v" } },
    "1 validation error detected: Value '' at 'tags.1.member.key' failed to satisfy constraint: Member must have length greater than or equal to 1")
end)

T.case("aws: prefix is reserved (any case); duplicates are refused", function()
  bad({ { Key = "aws:cloudformation:stack-name", Value = "s" } },
    "Value ( aws:cloudformation:stack-name ) for parameter key is invalid. Tag keys starting with 'aws:' are reserved for internal use")
  bad({ { Key = "AWS:x", Value = "s" } },
    "Value ( AWS:x ) for parameter key is invalid. Tag keys starting with 'aws:' are reserved for internal use")
  H.truthy(tags.check({ { Key = "awsome", Value = "s" }, { Key = "x", Value = "aws:ok" } }), "only the key prefix aws:")
  bad({ { Key = "Name", Value = "a" }, { Key = "Name", Value = "b" } }, "Duplicate tag key 'Name' specified.")
end)

T.case("validate raises an SDK error with code InvalidRequest", function()
  local ok, e = pcall(tags.validate, { { Key = "aws:x", Value = "1" } })
  H.falsy(ok)
  H.truthy(P.is_error(e))
  H.eq(e.code, "InvalidRequest")
end)

T.case("for_resource: stack tags, then the resource's own, then aws:cloudformation:* which nothing overrides", function()
  local ctx = { stack_name = "s", logical_id = "Q", stack_id = "arn:aws:cloudformation:us-east-1:1:stack/s/u",
                stack_tags = { { Key = "team", Value = "a" }, { Key = "env", Value = "dev" } } }
  local got = tags.for_resource(ctx, { { Key = "env", Value = "prod" }, { Key = "aws:cloudformation:stack-name", Value = "x" } })
  H.same(got, { team = "a", env = "prod", ["aws:cloudformation:stack-name"] = "s",
              ["aws:cloudformation:logical-id"] = "Q",
              ["aws:cloudformation:stack-id"] = "arn:aws:cloudformation:us-east-1:1:stack/s/u" })
  H.same(tags.for_resource({ stack_name = "s", logical_id = "Q" }, { k = "v" }),
       { k = "v", ["aws:cloudformation:stack-name"] = "s", ["aws:cloudformation:logical-id"] = "Q" })
end)

T.case("update_diff: from the old own tags over ctx.old_stack_tags to the new over ctx.stack_tags", function()
  local ctx = { stack_name = "s", logical_id = "Q",
                stack_tags = { { Key = "team", Value = "data" }, { Key = "cost", Value = "42" } },
                old_stack_tags = { { Key = "team", Value = "web" }, { Key = "gone", Value = "x" } } }
  -- Own tags unchanged: only the stack tags' change.
  local set, remove = tags.update_diff(ctx, { { Key = "own", Value = "q" } }, { { Key = "own", Value = "q" } })
  H.same(set, { team = "data", cost = "42" })
  H.same(remove, { "gone" })
  -- A removed own tag that a stack tag also sets is the stack tag's value, not removed.
  set, remove = tags.update_diff(ctx, { { Key = "cost", Value = "own" } }, nil)
  H.same(set, { team = "data", cost = "42" })
  H.same(remove, { "gone" })
  -- No ctx.old_stack_tags (not an update hook): the stack tags count as unchanged.
  set, remove = tags.update_diff({ stack_name = "s", logical_id = "Q", stack_tags = ctx.stack_tags },
                                 { a = "1" }, { a = "2" })
  H.same(set, { a = "2" })
  H.same(remove, {})
  -- An empty old list: the stack had no tags.
  set, remove = tags.update_diff({ stack_name = "s", logical_id = "Q", stack_tags = nil, old_stack_tags = {} }, nil, nil)
  H.same(set, {})
  H.same(remove, {})
end)

T.case("with_stack_tags: own tags in order, then the stack's they do not override; no aws: tags; nil when none", function()
  local ctx = { stack_name = "s", logical_id = "R", stack_id = "arn:x",
                stack_tags = { { Key = "team", Value = "web" }, { Key = "env", Value = "dev" } } }
  H.same(tags.with_stack_tags(ctx, { { Key = "z", Value = "1" }, { Key = "env", Value = "prod" } }),
    { { Key = "z", Value = "1" }, { Key = "env", Value = "prod" }, { Key = "team", Value = "web" } })
  H.same(tags.with_stack_tags(ctx, nil), ctx.stack_tags)
  H.eq(tags.with_stack_tags({ stack_name = "s" }, nil), nil)
  -- update_diff over it: the stack's change, no aws:cloudformation:* keys
  local set, remove = tags.update_diff({ stack_name = "s", logical_id = "R", stack_tags = { { Key = "team", Value = "data" } },
    old_stack_tags = ctx.stack_tags }, nil, nil, tags.with_stack_tags)
  H.same(set, { team = "data" })
  H.same(remove, { "env" })
end)

return T
