-- The simulated DynamoDB: tables CREATING -> ACTIVE in simulated time,
-- DynamoDB's validation texts, tags, TTL and items.
local H = require("harness")
local T = H.suite("sim dynamodb")

local function create(sim, extra)
  local p = { TableName = "orders", BillingMode = "PAY_PER_REQUEST",
              AttributeDefinitions = { { AttributeName = "id", AttributeType = "S" } },
              KeySchema = { { AttributeName = "id", KeyType = "HASH" } } }
  for k, v in pairs(extra or {}) do p[k] = v end
  return sim.call("dynamodb", "CreateTable", p).TableDescription
end

T.case("CreateTable: CREATING then ACTIVE in simulated time; ARN; unique names per region", function()
  local world, sim = fresh()
  local t = create(sim)
  H.eq(t.TableStatus, "CREATING")
  H.eq(t.TableArn, "arn:aws:dynamodb:us-east-1:123456789012:table/orders")
  local e = H.raises(function() create(sim) end, "Table already exists: orders")
  H.eq(e.code, "ResourceInUseException")
  world.set_now_ms(5000)
  H.eq(sim.call("dynamodb", "DescribeTable", { TableName = "orders" }).Table.TableStatus, "ACTIVE")
  H.same(sim.call("dynamodb", "ListTables", {}).TableNames, { "orders" })
  H.eq(sim.call("dynamodb", "ListTables", {}, { region = "eu-west-1" }).TableNames[1], nil)
  e = H.raises(function() sim.call("dynamodb", "DescribeTable", { TableName = "nope" }) end,
    "Requested resource not found: Table: nope not found")
  H.eq(e.code, "ResourceNotFoundException")
end)

T.case("CreateTable: DynamoDB's validation texts", function()
  local _, sim = fresh()
  H.raises(function() create(sim, { KeySchema = { { AttributeName = "pk", KeyType = "HASH" } } }) end,
    "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. "
    .. "Keys: [pk], AttributeDefinitions: [id]")
  H.raises(function() create(sim, { ProvisionedThroughput = { ReadCapacityUnits = 1, WriteCapacityUnits = 1 } }) end,
    "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified "
    .. "when BillingMode is PAY_PER_REQUEST")
  H.raises(function() create(sim, { BillingMode = "PROVISIONED" }) end,
    "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified "
    .. "when BillingMode is PROVISIONED")
  H.raises(function()
    create(sim, { AttributeDefinitions = { { AttributeName = "id", AttributeType = "S" }, { AttributeName = "x", AttributeType = "S" } } })
  end, "One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number "
    .. "of attributes defined in AttributeDefinitions")
  H.same(sim.call("dynamodb", "ListTables", {}).TableNames, {})
end)

T.case("UpdateTable, tags, TTL, streams; items through PutItem/GetItem/Scan/DeleteItem", function()
  local world, sim = fresh()
  local t = create(sim, { Tags = { { Key = "a", Value = "1" } } })
  H.raises(function() sim.call("dynamodb", "UpdateTable", { TableName = "orders", BillingMode = "PROVISIONED",
    ProvisionedThroughput = { ReadCapacityUnits = 5, WriteCapacityUnits = 5 } }) end,
    "Attempt to change a resource which is still in use: Table is being created: orders")
  world.set_now_ms(5000)
  local u = sim.call("dynamodb", "UpdateTable", { TableName = "orders", BillingMode = "PROVISIONED",
    ProvisionedThroughput = { ReadCapacityUnits = 5, WriteCapacityUnits = 5 },
    StreamSpecification = { StreamEnabled = true, StreamViewType = "NEW_IMAGE" } }).TableDescription
  H.eq(u.TableStatus, "UPDATING")
  H.eq(u.ProvisionedThroughput.ReadCapacityUnits, 5)
  H.match(u.LatestStreamArn, "^arn:aws:dynamodb:us%-east%-1:123456789012:table/orders/stream/")
  sim.call("dynamodb", "TagResource", { ResourceArn = t.TableArn, Tags = { { Key = "b", Value = "2" } } })
  sim.call("dynamodb", "UntagResource", { ResourceArn = t.TableArn, TagKeys = { "a" } })
  H.same(sim.call("dynamodb", "ListTagsOfResource", { ResourceArn = t.TableArn }).Tags, { { Key = "b", Value = "2" } })
  world.set_now_ms(10000)
  sim.call("dynamodb", "UpdateTimeToLive", { TableName = "orders",
    TimeToLiveSpecification = { Enabled = true, AttributeName = "exp" } })
  H.same(sim.call("dynamodb", "DescribeTimeToLive", { TableName = "orders" }).TimeToLiveDescription,
    { TimeToLiveStatus = "ENABLED", AttributeName = "exp" })
  sim.call("dynamodb", "PutItem", { TableName = "orders", Item = { id = { S = "1" }, total = { N = "10" } } })
  sim.call("dynamodb", "PutItem", { TableName = "orders", Item = { id = { S = "2" } } })
  H.same(sim.call("dynamodb", "GetItem", { TableName = "orders", Key = { id = { S = "1" } } }).Item,
    { id = { S = "1" }, total = { N = "10" } })
  H.eq(sim.call("dynamodb", "Scan", { TableName = "orders" }).Count, 2)
  sim.call("dynamodb", "DeleteItem", { TableName = "orders", Key = { id = { S = "1" } } })
  H.eq(sim.call("dynamodb", "DescribeTable", { TableName = "orders" }).Table.ItemCount, 1)
  H.raises(function() sim.call("dynamodb", "PutItem", { TableName = "orders", Item = { x = { S = "1" } } }) end,
    "One or more parameter values were invalid: Missing the key id in the item")
  sim.call("dynamodb", "DeleteTable", { TableName = "orders" })
  H.same(world.ids("dynamodb.item"), {})
  H.same(world.ids("dynamodb.table"), {})
end)

return T
