-- Contract-test fixture of AWS::DynamoDB::Table (../table.lua): billing,
-- stream view and tags in place, then another key schema (replacement).
return {
  create = { TableName = "contract-orders", BillingMode = "PAY_PER_REQUEST",
             AttributeDefinitions = { { AttributeName = "id", AttributeType = "S" } },
             KeySchema = { { AttributeName = "id", KeyType = "HASH" } }, Tags = { { Key = "team", Value = "a" } },
             StreamSpecification = { StreamViewType = "KEYS_ONLY" } },
  updates = {
    { TableName = "contract-orders", BillingMode = "PROVISIONED",
      ProvisionedThroughput = { ReadCapacityUnits = 5, WriteCapacityUnits = 5 },
      AttributeDefinitions = { { AttributeName = "id", AttributeType = "S" } },
      KeySchema = { { AttributeName = "id", KeyType = "HASH" } },
      StreamSpecification = { StreamViewType = "NEW_IMAGE" }, Tags = { { Key = "team", Value = "b" } } },  -- none
    { TableName = "contract-orders-2", BillingMode = "PROVISIONED",
      ProvisionedThroughput = { ReadCapacityUnits = 5, WriteCapacityUnits = 5 },
      AttributeDefinitions = { { AttributeName = "pk", AttributeType = "S" } },
      KeySchema = { { AttributeName = "pk", KeyType = "HASH" } } },                                          -- replace
  },
  verify = function(aws, id, props, attributes)
    local t = aws.dynamodb.DescribeTable({ TableName = id }).Table
    assert(t.TableName == props.TableName, "TableName is " .. tostring(t.TableName))
    assert(t.TableStatus == "ACTIVE", "TableStatus is " .. tostring(t.TableStatus))
    assert(attributes.Arn == "arn:aws:dynamodb:us-east-1:123456789012:table/" .. id, "Arn is " .. tostring(attributes.Arn))
    assert(t.BillingModeSummary.BillingMode == (props.BillingMode or "PROVISIONED"), "BillingMode")
  end,
}
