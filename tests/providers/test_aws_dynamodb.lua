-- AWS::DynamoDB::Table driven as the engine drives it, and its contract fixture.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws dynamodb")

local KEYS = { AttributeDefinitions = { { AttributeName = "id", AttributeType = "S" } },
               KeySchema = { { AttributeName = "id", KeyType = "HASH" } } }

local function props(extra)
  local p = { BillingMode = "PAY_PER_REQUEST" }
  for k, v in pairs(KEYS) do p[k] = v end
  for k, v in pairs(extra or {}) do p[k] = v end
  return p
end

T.case("Table: Ref is the name, waits for ACTIVE, Arn/StreamArn, generated name, CloudFormation's tags", function()
  local world, sim = fresh()
  local decl = D.load("dynamodb/table")
  local ctx = D.context(sim, "Orders")
  local p = decl:validate(props({ StreamSpecification = { StreamViewType = "NEW_AND_OLD_IMAGES" },
    TimeToLiveSpecification = { Enabled = true, AttributeName = "exp" } }), ctx)
  local r, trace = D.run(world, decl, "create", ctx, p)
  H.match(r.id, "^s%-Orders%-%w+$")
  H.eq(trace.seconds, 5, "CREATING for 5 simulated seconds")
  H.eq(r.attributes.Arn, "arn:aws:dynamodb:us-east-1:123456789012:table/" .. r.id)
  H.match(r.attributes.StreamArn, "^arn:aws:dynamodb:us%-east%-1:123456789012:table/" .. r.id:gsub("%-", "%%-") .. "/stream/")
  H.eq(sim.call("dynamodb", "DescribeTimeToLive", { TableName = r.id }).TimeToLiveDescription.AttributeName, "exp")
  local tags = {}
  for _, t in ipairs(sim.call("dynamodb", "ListTagsOfResource", { ResourceArn = r.attributes.Arn }).Tags) do
    tags[t.Key] = t.Value
  end
  H.eq(tags["aws:cloudformation:logical-id"], "Orders")
  H.eq(decl:change({ KeySchema = p.KeySchema }, { KeySchema = { { AttributeName = "pk", KeyType = "HASH" } } }, ctx),
    "replace")
  H.eq(decl:change({ TableName = "a" }, { TableName = "b" }, ctx), "replace")
  H.eq(decl:change({ BillingMode = "PAY_PER_REQUEST" }, { BillingMode = "PROVISIONED" }, ctx), "none")
  D.run(world, decl, "delete", ctx, r.id, p)
  H.same(world.ids("dynamodb.table"), {})
end)

T.case("Table: an update of billing waits for ACTIVE again; DynamoDB's validation fails the create", function()
  local world, sim = fresh()
  local decl = D.load("dynamodb/table")
  local ctx = D.context(sim, "Orders")
  local old = decl:validate(props({ TableName = "orders" }), ctx)
  D.run(world, decl, "create", ctx, old)
  local new = decl:validate(props({ TableName = "orders", BillingMode = "PROVISIONED",
    ProvisionedThroughput = { ReadCapacityUnits = 3, WriteCapacityUnits = 4 } }), ctx)
  local _, trace = D.run(world, decl, "update", ctx, "orders", new, old, { "BillingMode", "ProvisionedThroughput" })
  H.eq(trace.seconds, 5)
  local t = sim.call("dynamodb", "DescribeTable", { TableName = "orders" }).Table
  H.eq(t.TableStatus, "ACTIVE")
  H.eq(t.ProvisionedThroughput.WriteCapacityUnits, 4)
  H.eq(D.failure(function()
    D.run(world, decl, "create", ctx, decl:validate(props({ TableName = "bad",
      ProvisionedThroughput = { ReadCapacityUnits = 1, WriteCapacityUnits = 1 } }), ctx))
  end), "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be "
    .. "specified when BillingMode is PAY_PER_REQUEST")
  H.eq(D.failure(function()
    D.run(world, decl, "create", ctx, decl:validate(props({ TableName = "orders" }), ctx))
  end), "Resource of type 'AWS::DynamoDB::Table' with identifier 'orders' already exists.")
end)

T.case("table.lua passes the contract kit", function()
  local _, sim = fresh()
  sim.seed("contract")
  H.same(D.contract_failures(MOONSTACK_ROOT .. "/providers/aws/dynamodb/table.lua"), {})
end)

return T
