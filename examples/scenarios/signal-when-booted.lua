-- The instance's boot script runs cfn-signal against the wait condition's
-- handle (see examples/templates/web-app.yaml). Here the "boot script" is
-- this scenario: 40 s after the instance reaches CREATE_COMPLETE (simulated
-- time), it signals SUCCESS, as cfn-signal would.
--
--   moonstack deploy --template-file examples/templates/web-app.yaml \
--     --stack-name web --capabilities CAPABILITY_IAM \
--     --scenario examples/scenarios/signal-when-booted.lua

local handle

on({ logical_id = "BootHandle", status = "CREATE_COMPLETE" }, function(event)
  handle = event.PhysicalResourceId  -- the handle's Ref: its presigned URL
end)

-- nginx takes a while to install: the signal comes 40 s after boot.
latency({ logical_id = "Booted", action = "create" }, 40)

on({ logical_id = "WebServer", status = "CREATE_COMPLETE" }, function(event, aws)
  aws.cloudformation.SignalWaitCondition {
    Handle = handle, Status = "SUCCESS", UniqueId = event.PhysicalResourceId, Data = "nginx is up",
  }
end)
