-- lib.generic: providers made from a type's registry schema.
local H = require("harness")
local P = require("moonstack.provider")
local G = require("lib.generic")
local T = H.suite("generic provider")

local ROUTE_TABLE = {
  type = "AWS::EC2::RouteTable",
  properties = {
    { name = "Tags", required = false, create_only = false },
    { name = "VpcId", required = true, create_only = true },
  },
  attributes = { "RouteTableId" },
}

local function ctx()
  return { stack_name = "web", logical_id = "PublicRoutes", region = "us-east-1", account = "123456789012" }
end

T.case("create-only properties replace, others update in place; required is enforced", function()
  fresh()
  local d = G.define(ROUTE_TABLE)
  H.eq(d:update_behavior("VpcId", "vpc-1", "vpc-2", ctx()), "replace")
  H.eq(d:update_behavior("Tags", {}, { { Key = "a", Value = "b" } }, ctx()), "none")
  H.raises_match(function() d:validate({}, ctx()) end, "VpcId")
  H.raises(function() d:validate({ VpcId = "vpc-1", Bogus = 1 }, ctx()) end,
    "Encountered unsupported property Bogus")
end)

T.case("records are per account: another account's read of the same ID finds nothing", function()
  local world = fresh()
  local d = G.define(ROUTE_TABLE)
  local other = ctx()
  other.account = "222222222222"
  local r = d.create(other, { VpcId = "vpc-1" })
  H.same(world.ids("generic.AWS::EC2::RouteTable"), {})
  H.same(world.ids("222222222222/generic.AWS::EC2::RouteTable"), { r.id })
  H.eq(d.read(ctx(), r.id), nil)
  H.eq(d.read(other, r.id).properties.VpcId, "vpc-1")
  d.delete(ctx(), r.id)  -- the default account's delete leaves the other's record
  H.same(world.ids("222222222222/generic.AWS::EC2::RouteTable"), { r.id })
end)

T.case("a resource is a world record with an ID in the type's format", function()
  local world = fresh()
  local d = G.define(ROUTE_TABLE)
  local r = d:check_result("create", d.create(ctx(), { VpcId = "vpc-1" }))
  H.match(r.id, "^rtb%-0%x+$")
  H.eq(#r.id, 21)
  H.eq(r.attributes.RouteTableId, r.id)
  H.same(world.ids("generic.AWS::EC2::RouteTable"), { r.id })
  d.update(ctx(), r.id, { VpcId = "vpc-1", Tags = { { Key = "k", Value = "v" } } }, { VpcId = "vpc-1" }, { "Tags" })
  H.same(d.read(ctx(), r.id).properties.Tags, { { Key = "k", Value = "v" } })
  d.delete(ctx(), r.id)
  H.eq(d.read(ctx(), r.id), nil)
  d.delete(ctx(), r.id)  -- idempotent
  H.same(world.ids("generic.AWS::EC2::RouteTable"), {})
end)

-- Fragments of the real schema lines (engine/catalog/aws_resource_schemas.jsonl).
local QUEUE = {
  type = "AWS::SQS::Queue",
  properties = { { name = "DelaySeconds" }, { name = "QueueName", create_only = true },
                 { name = "RedrivePolicy" }, { name = "Tags" } },
  attributes = { "Arn", "QueueName", "QueueUrl" },
  schema = {
    type = "AWS::SQS::Queue", nameProperty = "QueueName", taggable = true,
    primaryIdentifier = { "/properties/QueueUrl" },
    additionalProperties = false,
    properties = {
      DelaySeconds = { type = "integer", minimum = 0, maximum = 900 },
      QueueName = { type = "string" }, QueueUrl = { type = "string" }, Arn = { type = "string" },
      RedrivePolicy = { type = { "object", "string" }, additionalProperties = false,
                        properties = { deadLetterTargetArn = { type = "string" }, maxReceiveCount = { type = "integer" } } },
      Tags = { type = "array", items = { ["$ref"] = "#/definitions/Tag" } },
    },
    definitions = { Tag = { type = "object", additionalProperties = false, required = { "Key", "Value" },
                            properties = { Key = { type = "string" }, Value = { type = "string" } } } },
  },
}

local BUCKET = {
  type = "AWS::S3::Bucket",
  properties = { { name = "BucketName", create_only = true }, { name = "ObjectLockConfiguration" },
                 { name = "Secret" } },
  attributes = { "Arn", "DomainName", "RegionalDomainName", "WebsiteURL" },
  schema = {
    type = "AWS::S3::Bucket", nameProperty = "BucketName", taggable = true,
    primaryIdentifier = { "/properties/BucketName" },
    createOnly = { "/properties/BucketName", "/properties/ObjectLockConfiguration/ObjectLockEnabled" },
    writeOnly = { "/properties/Secret" },
    properties = {
      BucketName = { type = "string", maxLength = 63, pattern = "^([a-z0-9][a-z0-9.-]*[a-z0-9])?$" },
      ObjectLockConfiguration = { type = "object", properties = {
        ObjectLockEnabled = { type = "string" }, Rule = { type = "object" } } },
      Secret = { type = "string" },
    },
  },
}

T.case("Ref, name and ARN from data: an SQS queue's Ref is its URL", function()
  fresh()
  local d = G.define(QUEUE)
  local r = d:check_result("create", d.create(ctx(), {}))
  local name = r.attributes.QueueName
  H.match(name, "^web%-PublicRoutes%-%w+$")
  H.eq(#name, #"web-PublicRoutes-" + 12)
  H.eq(r.id, "https://sqs.us-east-1.amazonaws.com/123456789012/" .. name)
  H.eq(r.attributes.QueueUrl, r.id)
  H.eq(r.attributes.Arn, "arn:aws:sqs:us-east-1:123456789012:" .. name)  -- SQS's own ARN shape
  local named = d:check_result("create", d.create(ctx(), { QueueName = "jobs" }))
  H.eq(named.id, "https://sqs.us-east-1.amazonaws.com/123456789012/jobs")
  H.eq(named.attributes.Arn, "arn:aws:sqs:us-east-1:123456789012:jobs")
end)

T.case("a generated S3 bucket name is lowercase and at most 63 characters", function()
  fresh()
  local d = G.define(BUCKET)
  local c = ctx()
  c.stack_name = "MyVeryLongStackNameThatGoesOnAndOnForeverAndEver"
  c.logical_id = "TheBucketWithAnEvenLongerLogicalIdentifier"
  local r = d:check_result("create", d.create(c, {}))
  H.eq(#r.id, 63)
  H.eq(r.id, r.id:lower())
  H.match(r.id, "^myverylongstack")
  H.eq(r.attributes.Arn, "arn:aws:s3:::" .. r.id)
  H.eq(r.attributes.DomainName, r.id .. ".s3.amazonaws.com")
  H.eq(r.attributes.RegionalDomainName, r.id .. ".s3.us-east-1.amazonaws.com")
  local named = d:check_result("create", d.create(ctx(), { BucketName = "my-bucket" }))
  H.eq(named.id, "my-bucket")
end)

T.case("invalid properties fail with the registry's message and nothing is created", function()
  local world = fresh()
  local d = G.define(QUEUE)
  H.raises(function() d.create(ctx(), { DelaySeconds = 901, RedrivePolicy = { maxReceiveCount = "x", Bogus = 1 } }) end,
    "Properties validation failed for resource PublicRoutes with message: [#/DelaySeconds: 901 is not less or equal to 900, "
      .. "#/RedrivePolicy: extraneous key [Bogus] is not permitted, "
      .. "#/RedrivePolicy/maxReceiveCount: expected type: Integer, found: String]")
  H.same(world.ids("generic.AWS::SQS::Queue"), {})
  local r = d:check_result("create", d.create(ctx(), { DelaySeconds = 5 }))
  H.raises(function() d.update(ctx(), r.id, { DelaySeconds = -1 }, { DelaySeconds = 5 }, { "DelaySeconds" }) end,
    "Properties validation failed for resource PublicRoutes with message: [#/DelaySeconds: -1 is not greater or equal to 0]")
  H.eq(d.read(ctx(), r.id).properties.DelaySeconds, 5)
end)

T.case("a change below a nested create-only path replaces; write-only properties are not read back", function()
  fresh()
  local d = G.define(BUCKET)
  local old = { ObjectLockConfiguration = { ObjectLockEnabled = "Enabled", Rule = { a = 1 } } }
  H.eq(d:update_behavior("ObjectLockConfiguration", old.ObjectLockConfiguration,
    { ObjectLockEnabled = "Enabled", Rule = { a = 2 } }, ctx()), "none")
  H.eq(d:update_behavior("ObjectLockConfiguration", old.ObjectLockConfiguration,
    { ObjectLockEnabled = "Disabled", Rule = { a = 1 } }, ctx()), "replace")
  local r = d:check_result("create", d.create(ctx(), { BucketName = "b1", Secret = "s3cr3t" }))
  H.same(d.read(ctx(), r.id).properties, { BucketName = "b1" })
end)

T.case("a taggable type's record holds the tags CloudFormation puts on it, stack tags included", function()
  local world = fresh()
  local d = G.define(QUEUE)
  local c = ctx()
  c.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/web/1"
  c.stack_tags = { { Key = "team", Value = "blue" }, { Key = "env", Value = "dev" } }
  local r = d:check_result("create", d.create(c, { Tags = { { Key = "env", Value = "prod" } } }))
  H.same(world.get("generic.AWS::SQS::Queue", r.id).Tags, {
    team = "blue", env = "prod",
    ["aws:cloudformation:stack-name"] = "web", ["aws:cloudformation:logical-id"] = "PublicRoutes",
    ["aws:cloudformation:stack-id"] = "arn:aws:cloudformation:us-east-1:123456789012:stack/web/1",
  })
end)

T.case("a status takes its enum's steady state and a timestamp the world's time; other enums their first value", function()
  local world = fresh()
  world.set_now_ms(1764432000000)  -- 2025-11-29T16:00:00Z
  local d = G.define({
    type = "AWS::Demo::Thing",
    properties = { { name = "Name" } },
    attributes = { "Status", "CreatedAt", "LastModifiedTime", "Mode", "Label" },
    schema = {
      type = "AWS::Demo::Thing",
      properties = {
        Name = { type = "string" },
        Status = { type = "string", enum = { "CREATING", "ACTIVE", "DELETING" } },
        CreatedAt = { type = "string" }, LastModifiedTime = { type = "string" },
        Mode = { type = "string", enum = { "Pipe", "File" } }, Label = { type = "string" },
      },
    },
  })
  local r = d:check_result("create", d.create(ctx(), {}))
  H.eq(r.attributes.Status, "ACTIVE")
  H.eq(r.attributes.CreatedAt, "2025-11-29T16:00:00Z")
  H.eq(r.attributes.LastModifiedTime, "2025-11-29T16:00:00Z")
  H.eq(r.attributes.Mode, "Pipe")
  H.eq(r.attributes.Label, r.id .. ".Label")  -- nothing says what it is
end)

return T
