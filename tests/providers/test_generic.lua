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

T.case("other types get CloudFormation's generated name and ARN-shaped attributes", function()
  fresh()
  local d = G.define({
    type = "AWS::SQS::Queue",
    properties = { { name = "QueueName", required = false, create_only = true } },
    attributes = { "Arn", "QueueName", "QueueUrl" },
  })
  local r = d:check_result("create", d.create(ctx(), {}))
  H.match(r.id, "^web%-PublicRoutes%-%w+$")
  H.eq(#r.id, #"web-PublicRoutes-" + 12)
  H.eq(r.attributes.Arn, "arn:aws:sqs:us-east-1:123456789012:" .. r.id)  -- SQS's own ARN shape
  H.eq(r.attributes.QueueUrl, r.id .. ".QueueUrl")
end)

return T
