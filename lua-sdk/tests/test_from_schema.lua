-- Providers made from CloudFormation registry schemas (moonstack.scaffold_schema)
-- pass the contract kit; declarations export back to equivalent registry
-- schemas and to Markdown (moonstack.registry_schema).
local H = require("harness")
local J = require("json_decode")
local T = H.suite("from schema")

local world, root = H.simulated_cloud()
local C = require("moonstack.contract")
local host = require("moonstack.host")
local S = require("moonstack.scaffold_schema")
local R = require("moonstack.registry_schema")

local SCHEMAS = root .. "/tests/providers/fixtures/schemas/"

local function generate(file)
  local schema = J.read_file(SCHEMAS .. file)
  local files = S.files(schema)
  local decl = host.load(files.provider, files.provider_path)
  local fixture = C.load_fixture(files.fixture, files.fixture_path)
  return schema, files, decl, fixture
end

local function run_kit(decl, fixture)
  world.reset()
  require("sim").seed("contract")
  return C.run(decl, fixture)
end

local function failures(report)
  local out = {}
  for _, c in ipairs(report.checks) do
    if c.status == "FAIL" then out[#out + 1] = c.name .. ": " .. tostring(c.reason) end
  end
  return out
end

T.case("the AWS::SQS::Queue registry schema makes a provider that passes the kit", function()
  local _, files, decl, fixture = generate("aws-sqs-queue.json")
  H.eq(files.provider_path, "aws/sqs/queue.lua")
  H.eq(files.fixture_path, "aws/sqs/tests/queue.lua")
  H.eq(decl:property("QueueName").update, "replace")
  H.eq(decl:property("FifoQueue").update, "replace")
  H.eq(decl:property("DelaySeconds").update, "none")
  H.eq(decl:property("RedrivePolicy").type, "json")  -- "type": ["object", "string"]
  H.eq(decl:property("Tags").type, "tags")
  H.same(decl.attributes, { "Arn", "QueueUrl" })
  H.same(decl.primary_identifiers, { "QueueUrl" })
  H.truthy(decl.list, "a list hook")
  H.truthy(files.provider:find("-- Registry handler permissions: sqs:CreateQueue, sqs:GetQueueUrl", 1, true))
  local report = run_kit(decl, fixture)
  H.same(failures(report), {})
  H.truthy(report.passed >= 19, "ran the whole kit")
end)

T.case("nested definitions, constraints, write-only and a compound identifier", function()
  local _, files, decl, fixture = generate("acme-storage-shelf.json")
  H.same(decl.primary_identifiers, { "RoomName", "ShelfId" })
  H.eq(decl:property("AccessCode").write_only, true)
  local slots = decl:property("Slots")
  H.eq(slots.min_length, 1)
  H.eq(slots.items.by_name.Label.regex, "^[A-Za-z][A-Za-z0-9-]*$")
  H.eq(slots.items.by_name.Size.by_name.Width.maximum, 500)  -- a $ref inside a $ref
  H.eq(#fixture.invalid, 11)
  local report = run_kit(decl, fixture)
  H.same(failures(report), {})
  -- The physical ID joins the identifiers.
  world.reset()
  local created = host.call(decl, "create", { region = "us-east-1", account = "123456789012", logical_id = "S" }, nil,
    decl:validate(fixture.create, { logical_id = "S" }))
  H.match(created.id, "^example|shelf%-%x+$")
  H.truthy(files.fixture:find('{ properties = with({ Levels = 13 }),\n      message = "Properties validation failed for resource Resource with message: #/Levels: 13 is not less or equal to 12" },', 1, true))
end)

T.case("the kit fails an invalid input that validation accepts", function()
  local _, _, decl, fixture = generate("acme-storage-shelf.json")
  fixture.invalid = { { properties = fixture.create },
                      { properties = { RoomName = "ab", Dimensions = { Width = 1, Height = 1 } }, message = "wrong" } }
  local report = run_kit(decl, fixture)
  local f = failures(report)
  H.eq(#f, 2)
  H.match(f[1], "^invalid input 1 fails validation: validation accepted {")
  H.eq(f[2], 'invalid input 2 fails validation: expected "wrong", got "Properties validation failed for resource '
    .. 'Resource with message: #/RoomName: expected minLength: 3, actual: 2"')
end)

-- A schema with $refs inlined and the keywords a declaration cannot keep
-- (handler permissions, list ordering flags, sourceUrl) left out.
local function normalized(schema)
  local function inline(s)
    if type(s) ~= "table" then return s end
    if s["$ref"] then
      local d = inline(schema.definitions[s["$ref"]:match("^#/definitions/(.+)$")])
      if s.description then d.description = s.description end
      return d
    end
    local out = {}
    for k, v in pairs(s) do
      if k ~= "insertionOrder" and k ~= "uniqueItems" then out[k] = inline(v) end
    end
    if out.required then table.sort(out.required) end
    return out
  end
  local function sorted(list)
    local out = {}
    for i, v in ipairs(list or {}) do out[i] = v end
    table.sort(out)
    return out
  end
  local handlers = {}
  for k in pairs(schema.handlers or {}) do handlers[#handlers + 1] = k end
  table.sort(handlers)
  return {
    typeName = schema.typeName, description = schema.description,
    additionalProperties = schema.additionalProperties, properties = inline(schema.properties),
    required = sorted(schema.required), createOnlyProperties = sorted(schema.createOnlyProperties),
    readOnlyProperties = sorted(schema.readOnlyProperties), writeOnlyProperties = sorted(schema.writeOnlyProperties),
    primaryIdentifier = schema.primaryIdentifier, tagging = schema.tagging, handlers = handlers,
  }
end

T.case("round trip: from a schema to a provider and back to an equivalent schema", function()
  local schema, _, decl = generate("acme-storage-shelf.json")
  local exported = R.export(decl)
  H.same(normalized(exported), normalized(schema))
  H.eq(exported.properties.Slots.items.properties.Size.properties.Width.description, "Width in centimetres.")
end)

T.case("markdown documents properties, constraints, update behaviours and attributes", function()
  local _, _, decl = generate("acme-storage-shelf.json")
  local md = R.markdown(decl)
  for _, want in ipairs({
    "# Acme::Storage::Shelf\n\nA shelf in a storage room, identified by its room and its own id.\n",
    "### RoomName\n\nThe room the shelf stands in.\n\n- Required: Yes\n- Type: String\n- Minimum length: 3 characters\n"
      .. "- Maximum length: 32 characters\n- Pattern: `^[a-z][a-z0-9-]*$`\n- Update requires: Replacement\n",
    "### Material\n\n- Required: No\n- Type: String\n- Default: `wood`\n- Allowed values: `wood` | `steel`\n"
      .. "- Update requires: No interruption\n",
    "#### Slots.Label\n\n- Required: Yes\n",
    "##### Slots.Size.Width\n\nWidth in centimetres.\n",
    "- Write-only: never returned by read, not compared for drift\n",
    "### Ref\n\nReturns the primary identifier: RoomName|ShelfId (the values joined with `|`).\n",
    "### Fn::GetAtt\n\n- `Arn`\n- `ShelfId`\n",
  }) do
    H.truthy(md:find(want, 1, true), "markdown has:\n" .. want .. "\n--- in:\n" .. md)
  end
end)

T.case("schemas it cannot use are refused with a reason", function()
  H.raises(function() S.files({ typeName = "AWS::X::Y", properties = {} }) end, "the schema has no primaryIdentifier")
  H.raises(function() S.files({ properties = {} }) end, "the schema has no typeName")
  H.raises(function() S.files({ typeName = "Bad", properties = { A = { type = "string" } },
    primaryIdentifier = { "/properties/A" } }) end,
    'invalid type name "Bad": expected Organization::Service::Resource, three parts of 2 to 64 letters or digits (AWS\'s rule for resource type names)')
  H.raises(function() S.files({ typeName = "A1::B1::C1", properties = { A = { ["$ref"] = "#/definitions/Nope" } },
    primaryIdentifier = { "/properties/A" } }) end, "unresolved $ref #/definitions/Nope")
end)

return T
