-- Declaration errors: each names the provider file and the problem.
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("declare")

local SRC = "providers/test/thing.lua"
local function noop() end

-- A valid declaration with `over` applied (a field set to false is removed).
local function decl(over)
  local d = {
    type = "AWS::Test::Thing",
    properties = { P.string "Name" { update = "none" } },
    attributes = { "Arn" },
    create = noop, update = noop, delete = noop,
  }
  for k, v in pairs(over or {}) do
    if v == false then d[k] = nil else d[k] = v end
  end
  return d
end

local function define_error(over, expected)
  H.raises(function() P.define(decl(over), SRC) end, SRC .. ": " .. expected)
end

T.case("a valid declaration is normalized", function()
  local d = P.define({
    type = "AWS::EC2::Subnet",
    properties = {
      P.string "VpcId" { required = true, update = "replace" },
      P.string "CidrBlock" { required = true },
      P.boolean "MapPublicIpOnLaunch" { update = "none", default = false },
      P.list(P.string) "Ipv6Cidrs" { update = function() return "some" end },
      P.tags "Tags" { update = "none" },
    },
    attributes = { "SubnetId", "VpcId" },
    primary_identifier = "SubnetId",
    create = noop, update = noop, delete = noop,
  }, SRC)
  H.eq(d.type, "AWS::EC2::Subnet")
  H.eq(d.source, SRC)
  local names = {}
  for i, p in ipairs(d.properties) do names[i] = p.name end
  H.same(names, { "VpcId", "CidrBlock", "MapPublicIpOnLaunch", "Ipv6Cidrs", "Tags" }, "declaration order kept")
  H.eq(d.properties[1].required, true)
  H.eq(d.properties[1].update, "replace")
  H.eq(d.properties[2].update, "replace", "default update behaviour")
  H.eq(d.properties[3].required, false)
  H.eq(d.properties[3].default, false)
  H.eq(d.properties[4].type, "list")
  H.same(d.properties[4].items, { type = "string" })
  H.eq(d.properties[4].update, "conditional")
  H.eq(type(d.properties[4].update_fn), "function")
  H.eq(d.properties[5].type, "tags")
  H.same(d.attributes, { "SubnetId", "VpcId" })
  H.eq(d.primary_identifier, "SubnetId")
  H.eq(d:property("VpcId").name, "VpcId")
  H.eq(d:property("Nope"), nil)
  H.truthy(d:has_attribute("VpcId"))
  H.truthy(P.is_declaration(d))
  H.truthy(d.rollback_is_default)
end)

T.case("P.prop and the map form", function()
  local d = P.define(decl({ properties = {
    P.prop("Ids", { type = "list", items = "integer" }, { update = "none" }),
    P.prop("Name", "string"),
    P.prop("Nested", P.list(P.list(P.number))),
  } }), SRC)
  H.same(d.properties[1].items, { type = "integer" })
  H.same(d.properties[3].items, { type = "list", items = { type = "number" } })

  local m = P.define(decl({ properties = {
    Zeta = { type = "string", required = true },
    Alpha = { type = "list", items = "string", update = "none" },
    Mid = P.integer { default = 3 },
  } }), SRC)
  H.eq(m.properties[1].name, "Alpha", "map form is alphabetical")
  H.eq(m.properties[2].name, "Mid")
  H.eq(m.properties[2].default, 3)
  H.eq(m.properties[3].name, "Zeta")
  H.eq(m.properties[3].required, true)
end)

T.case("source from the declaration, or the type when none is given", function()
  H.raises(function() P.define(decl({ source = "a/b.lua", create = false })) end, "a/b.lua: missing create hook")
  H.raises(function() P.define(decl({ create = false })) end, "provider AWS::Test::Thing: missing create hook")
end)

T.case("source set by the host around a provider file's load", function()
  local previous = P.set_source("providers/aws/ec2/vpc.lua")
  local ok, err = pcall(P.define, decl({ delete = false }))
  local d = P.define(decl())
  P.set_source(previous)
  H.falsy(ok)
  H.eq(err, "providers/aws/ec2/vpc.lua: missing delete hook")
  H.eq(d.source, "providers/aws/ec2/vpc.lua")
  H.eq(P.define(decl()).source, nil, "cleared")
  H.raises(function() P.define(decl({ delete = false }), "explicit.lua") end, "explicit.lua: missing delete hook")
end)

T.case("a property declared twice", function()
  define_error({ properties = { P.string "Name" { update = "none" }, P.number "Name" } },
    "property Name declared twice")
end)

T.case("an attribute declared twice", function()
  define_error({ attributes = { "Arn", "Id", "Arn" } }, "attribute Arn declared twice")
end)

T.case("unknown update behaviour", function()
  define_error({ properties = { P.string "Name" { update = "replce" } } },
    'property Name: unknown update behaviour "replce" (expected none, some, replace, unsupported or a function)')
end)

T.case("unknown property type", function()
  define_error({ properties = { P.prop("Name", "strng") } },
    'property Name: unknown type "strng" (expected string, number, integer, boolean, list, map, json or tags)')
  define_error({ properties = { Name = { type = "float" } } },
    'property Name: unknown type "float" (expected string, number, integer, boolean, list, map, json or tags)')
  define_error({ properties = { P.prop("Ids", { type = "list", items = "strin" }) } },
    'property Ids: unknown type "strin" (expected string, number, integer, boolean, list, map, json or tags)')
  define_error({ properties = { Name = { required = true } } }, "property Name: missing type")
end)

T.case("element types only on list and map", function()
  define_error({ properties = { P.string(P.number) } }, "properties[1]: property with no name")
  define_error({ properties = { P.prop("X", { type = "string", items = "number" }) } },
    "property X: string does not take an element type")
  define_error({ properties = { P.list(P.tags) "X" } }, "property X: tags cannot be an element type")
end)

T.case("missing hooks", function()
  define_error({ create = false }, "missing create hook")
  define_error({ delete = false }, "missing delete hook")
  define_error({ update = false }, 'missing update hook (property Name has update = "none")')
  define_error({ update = false, properties = { P.string "Name" { update = function() return "none" end } } },
    "missing update hook (property Name has update = a function)")
  define_error({ create = "yes" }, "create must be a function")
  define_error({ update = false, rollback = noop, properties = { P.string "Name" } },
    "rollback without an update hook")
end)

T.case("no update hook needed when every change replaces or is refused", function()
  local d = P.define(decl({ update = false, properties = {
    P.string "A" { update = "replace" }, P.string "B" { update = "unsupported" }, P.string "C",
  } }), SRC)
  H.eq(d.update, nil)
  H.eq(d.rollback, nil)
end)

T.case("defaults must match the type exactly", function()
  define_error({ properties = { P.integer "Count" { default = "3" } } },
    'property Count: default "3" is not a integer')
  define_error({ properties = { P.integer "Count" { default = 2.5 } } },
    "property Count: default 2.5 is not a integer")
  define_error({ properties = { P.boolean "On" { default = "true" } } },
    'property On: default "true" is not a boolean')
  define_error({ properties = { P.list(P.string) "L" { default = { 1 } } } },
    "property L: default a table is not a list of string")
  define_error({ properties = { P.string "Name" { required = true, default = "x" } } },
    "property Name: a required property cannot have a default")
  define_error({ properties = { P.string "Mode" { allowed = { "a", "b" }, default = "c" } } },
    'property Mode: default "c" is not one of the allowed values')
  define_error({ properties = { P.string "Id" { pattern = "vpc%-%x+", default = "x" } } },
    'property Id: default "x" does not match the pattern')
end)

T.case("allowed and pattern are checked", function()
  define_error({ properties = { P.string "Mode" { allowed = { "a", 1 } } } },
    "property Mode: allowed value 1 is not a string")
  define_error({ properties = { P.string "Mode" { allowed = {} } } },
    "property Mode: allowed must be a non-empty list")
  define_error({ properties = { P.list(P.string) "L" { allowed = { "a" } } } },
    "property L: allowed values apply to string, number, integer and boolean properties")
  define_error({ properties = { P.number "N" { pattern = "%d+" } } },
    "property N: pattern applies to string properties only")
  define_error({ properties = { P.string "S" { pattern = "[a-" } } },
    'property S: invalid pattern "[a-": malformed pattern (missing \']\')')
end)

T.case("typos are caught: unknown fields and options", function()
  define_error({ udpate = noop }, 'unknown field "udpate"')
  define_error({ properties = { P.string "Name" { requried = true } } }, 'property Name: unknown option "requried"')
  define_error({ properties = { Name = { type = "string", requried = true } } }, 'property Name: unknown option "requried"')
  define_error({ properties = { P.string "Name" { required = "yes" } } }, "property Name: required must be true or false")
end)

T.case("malformed property lists", function()
  define_error({ properties = { P.string } }, 'properties[1]: a type without a name (write P.string "Name")')
  define_error({ properties = { "Name" } }, 'properties[1]: expected a property such as P.string "Name", got "Name"')
  define_error({ properties = { P.string { required = true } } }, "properties[1]: property with no name")
  define_error({ properties = { P.string "A", B = { type = "string" } } }, "properties: mix of the list form and the map form")
  define_error({ properties = { P.string "A" "oops" } }, 'property A: options must be a table, got "oops"')
  define_error({ properties = { B = P.string "A" } }, "property A: declared under the key B")
end)

T.case("type name, attributes and primary identifier", function()
  define_error({ type = false }, 'missing type (the resource type name, e.g. "AWS::EC2::Subnet")')
  define_error({ type = "AWS::EC2" },
    'type "AWS::EC2" is not a resource type name (expected "Service::Category::Resource" or "Custom::Name")')
  H.eq(P.define(decl({ type = "Custom::My_Thing" }), SRC).type, "Custom::My_Thing")
  define_error({ attributes = { "Arn", 3 } }, "attributes[2] must be a non-empty string")
  define_error({ attributes = { Arn = true } }, "attributes must be a list of names")
  define_error({ primary_identifier = "Id" }, 'primary_identifier "Id" is not a declared attribute or property')
  define_error({ additional_properties = true },
    "additional_properties must be an update behaviour (none, some, replace, unsupported) or a function, got true")
end)

T.case("P.define needs a table", function()
  H.raises(function() P.define("AWS::X::Y", SRC) end, SRC .. ": P.define expects a table")
end)

return T
