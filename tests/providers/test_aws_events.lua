-- The simulated EventBridge rules and AWS::Events::Rule driven as the engine drives it.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("events: sim and provider")

local RULE = D.load("events/rule")

T.case("sim: a rule needs a schedule or a pattern; a rule with targets is not deleted", function()
  local _, sim = fresh()
  local ev = sim.client().events
  H.raises(function() ev.PutRule({ Name = "r" }) end, "Parameter(s) ScheduleExpression or EventPattern must be specified.")
  H.raises(function() ev.PutRule({ Name = "r", ScheduleExpression = "every day" }) end,
    "Parameter ScheduleExpression is not valid.")
  H.eq(ev.PutRule({ Name = "r", ScheduleExpression = "rate(1 day)" }).RuleArn, "arn:aws:events:us-east-1:123456789012:rule/r")
  H.eq(ev.PutRule({ Name = "r", EventBusName = "bus", EventPattern = "{}" }).RuleArn,
    "arn:aws:events:us-east-1:123456789012:rule/bus/r")
  ev.PutTargets({ Rule = "r", Targets = { { Id = "t", Arn = "arn:aws:sqs:us-east-1:123456789012:q" } } })
  H.raises(function() ev.DeleteRule({ Name = "r" }) end, "Rule can't be deleted since it has targets.")
  ev.RemoveTargets({ Rule = "r", Ids = { "t" } })
  ev.DeleteRule({ Name = "r" })
  local e = H.raises(function() ev.DescribeRule({ Name = "r" }) end, "Rule r does not exist on EventBus default.")
  H.eq(e.code, "ResourceNotFoundException")
end)

T.case("provider: Ref is the name (bus|name off the default bus), Arn; targets stored; delete removes them", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "Nightly")
  local props = RULE:validate({ ScheduleExpression = "cron(0 3 * * ? *)",
                                Targets = { { Id = "q", Arn = "arn:aws:sqs:us-east-1:123456789012:q" } } }, ctx)
  local r = D.run(world, RULE, "create", ctx, props)
  H.match(r.id, "^s%-Nightly%-%w+$")
  H.eq(r.attributes.Arn, "arn:aws:events:us-east-1:123456789012:rule/" .. r.id)
  H.eq(sim.client().events.ListTargetsByRule({ Rule = r.id }).Targets[1].Id, "q")
  sim.client().events.DisableRule({ Name = r.id })
  H.eq(RULE.read(ctx, r.id, props).properties.State, "DISABLED")
  D.run(world, RULE, "delete", ctx, r.id, props)
  H.same(world.ids("events.rule"), {})
  local bus = D.run(world, RULE, "create", ctx, RULE:validate({ Name = "n", EventBusName = "orders", EventPattern = { source = { "x" } } }, ctx))
  H.eq(bus.id, "orders|n")
  H.eq(bus.attributes.Arn, "arn:aws:events:us-east-1:123456789012:rule/orders/n")
  for _, p in ipairs(RULE.properties) do
    H.eq(p.update, (p.name == "Name" or p.name == "EventBusName") and "replace" or "none", p.name)
  end
end)

T.case("a rule's tags: the stack's, the template's and CloudFormation's on create; an update's difference; read's own", function()
  local world, sim = fresh()
  local ctx = D.context(sim, "Nightly")
  ctx.stack_tags = { { Key = "owner", Value = "ops" } }
  local props = RULE:validate({ Name = "nightly", ScheduleExpression = "rate(1 day)",
                                Tags = { { Key = "team", Value = "web" } } }, ctx)
  local r = D.run(world, RULE, "create", ctx, props)
  local ev = sim.client().events
  local arn = r.attributes.Arn
  H.same(ev.ListTagsForResource({ ResourceARN = arn }).Tags, {
    { Key = "aws:cloudformation:logical-id", Value = "Nightly" },
    { Key = "aws:cloudformation:stack-id", Value = ctx.stack_id },
    { Key = "aws:cloudformation:stack-name", Value = "s" },
    { Key = "owner", Value = "ops" }, { Key = "team", Value = "web" } })
  local new = RULE:validate({ Name = "nightly", ScheduleExpression = "rate(1 day)",
                              Tags = { { Key = "env", Value = "dev" } } }, ctx)
  RULE:check_result("update", RULE.update(ctx, r.id, new, props, { "Tags" }))
  H.same(RULE:check_result("read", RULE.read(ctx, r.id, new)).properties.Tags,
    { { Key = "env", Value = "dev" }, { Key = "owner", Value = "ops" } })
  -- PutRule on a rule that exists ignores its Tags (PutRule's API reference).
  ev.PutRule({ Name = "nightly", ScheduleExpression = "rate(2 days)", Tags = { { Key = "env", Value = "prod" } } })
  H.same(RULE:check_result("read", RULE.read(ctx, r.id, new)).properties.Tags,
    { { Key = "env", Value = "dev" }, { Key = "owner", Value = "ops" } })
  H.eq(ev.DescribeRule({ Name = "nightly" }).ScheduleExpression, "rate(2 days)")
  local e = H.raises(function() ev.ListTagsForResource({ ResourceARN = arn .. "x" }) end,
    "Rule nightlyx does not exist on EventBus default.")
  H.eq(e.code, "ResourceNotFoundException")
end)

return T
