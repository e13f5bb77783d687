-- Latency, and a failure that only shows during stabilization:
--  - every instance create starts 90 seconds late (virtual time: no waiting,
--    the events' timestamps show it);
--  - Instance1's first follow-up check fails, as an instance that never
--    reaches "running" does; its physical ID is known by then, so the
--    rollback terminates it;
--  - once the rollback starts, the security group's delete is slowed too.
--
--   moonstack create-stack --stack-name demo --template-file two-instances.yaml \
--     --scenario slow-network.lua

latency({ type = "AWS::EC2::Instance", action = "create" }, 90)

fail({ logical_id = "Instance1", action = "create", phase = "poll" }, {
  code = "NotStabilized",
})

-- The stack's own events: its type is AWS::CloudFormation::Stack.
on({ type = "AWS::CloudFormation::Stack", status = "ROLLBACK_IN_PROGRESS" }, function()
  latency({ logical_id = "WebGroup", action = "delete" }, 30)
end)
