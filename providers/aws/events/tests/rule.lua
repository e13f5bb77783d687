-- Contract-test fixture of AWS::Events::Rule: a schedule with one target; a
-- new schedule, state and targets in place; a name (replacement).
local T1 = { Id = "one", Arn = "arn:aws:sqs:us-east-1:123456789012:q1" }
local T2 = { Id = "two", Arn = "arn:aws:sqs:us-east-1:123456789012:q2" }
return {
  create = { ScheduleExpression = "rate(5 minutes)", Targets = { T1 } },
  updates = {
    { ScheduleExpression = "rate(1 hour)", State = "DISABLED", Targets = { T2 } },   -- none
    { Name = "contract-renamed" },                                                    -- replace
  },
  verify = function(aws, id, props, attributes)
    local r = aws.events.DescribeRule({ Name = id })
    assert(r.ScheduleExpression == props.ScheduleExpression, "schedule")
    assert(r.State == (props.State or "ENABLED"), "state " .. r.State)
    assert(attributes.Arn == "arn:aws:events:us-east-1:123456789012:rule/" .. id, "arn " .. attributes.Arn)
    local targets = aws.events.ListTargetsByRule({ Rule = id }).Targets
    assert(#targets == 1 and targets[1].Id == props.Targets[1].Id, "targets")
  end,
}
