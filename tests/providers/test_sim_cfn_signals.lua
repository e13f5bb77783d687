-- Resource signals (CreationPolicy): sim.cloudformation.SignalResource, and a
-- booting instance whose script runs `cfn-signal --stack S --resource R`.
local H = require("harness")
local T = H.suite("sim cloudformation resource signals")
local boot = require("sim.ec2.boot_script")

local STACK = "arn:aws:cloudformation:us-east-1:123456789012:stack/web/6a1f0b60-0000-4000-8000-000000000001"

T.case("SignalResource records one signal per UniqueId, keyed by stack name and logical ID", function()
  local world, sim = fresh()
  world.set_now_ms(5000)
  local c = sim.client().cloudformation
  c.SignalResource { StackName = "web", LogicalResourceId = "WebServer", UniqueId = "i-1", Status = "SUCCESS" }
  world.set_now_ms(6000)
  c.SignalResource { StackName = STACK, LogicalResourceId = "WebServer", UniqueId = "i-2", Status = "SUCCESS" }
  c.SignalResource { StackName = "web", LogicalResourceId = "WebServer", UniqueId = "i-1", Status = "FAILURE" }
  -- One record per signal; i-1's second signal replaced its first and counts as arriving last.
  H.same(world.get("cloudformation.signal", "web/WebServer/i-1"), { StackName = "web", LogicalResourceId = "WebServer",
    UniqueId = "i-1", Status = "FAILURE", StackId = "", Timestamp = 6000, Seq = 3 })
  local signals = c.GetResourceSignals({ StackName = "web", LogicalResourceId = "WebServer" }).Signals
  H.eq(#signals, 2)
  H.same(signals[1], { UniqueId = "i-2", Status = "SUCCESS", StackId = STACK, Timestamp = 6000 })
  H.same(signals[2], { UniqueId = "i-1", Status = "FAILURE", StackId = "", Timestamp = 6000 })
  H.eq(#c.GetResourceSignals({ StackName = STACK, LogicalResourceId = "WebServer" }).Signals, 2)
  -- UniqueIds: only those, in arrival order; an ID that never signalled is left out.
  H.same(c.GetResourceSignals({ StackName = "web", LogicalResourceId = "WebServer", UniqueIds = { "i-1", "i-9", "i-2" } }).Signals,
    { { UniqueId = "i-2", Status = "SUCCESS", StackId = STACK, Timestamp = 6000 },
      { UniqueId = "i-1", Status = "FAILURE", StackId = "", Timestamp = 6000 } })
  H.eq(#c.GetResourceSignals({ StackName = "web", LogicalResourceId = "Other" }).Signals, 0)
end)

T.case("SignalResource: AWS's request validation", function()
  local _, sim = fresh()
  local c = sim.client().cloudformation
  H.raises(function() c.SignalResource { StackName = "web", LogicalResourceId = "W", UniqueId = "1", Status = "MAYBE" } end,
    "1 validation error detected: Value 'MAYBE' at 'status' failed to satisfy constraint: "
      .. "Member must satisfy enum value set: [SUCCESS, FAILURE]")
  H.raises(function() c.SignalResource { StackName = "web", LogicalResourceId = "W", Status = "SUCCESS" } end,
    "1 validation error detected: Value null at 'uniqueId' failed to satisfy constraint: Member must not be null")
  H.raises(function() c.SignalResource { LogicalResourceId = "W", UniqueId = "1", Status = "SUCCESS" } end,
    "1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null")
  H.raises(function()
    c.SignalResource { StackName = "web", LogicalResourceId = "W", UniqueId = string.rep("x", 65), Status = "SUCCESS" }
  end, "1 validation error detected: Value '" .. string.rep("x", 65) .. "' at 'uniqueId' failed to satisfy constraint: "
    .. "Member must have length less than or equal to 64")
end)

T.case("cfn-signal --stack S --resource R lines are found in a boot script", function()
  local script = table.concat({
    "#!/bin/bash -xe",
    "# /opt/aws/bin/cfn-signal --stack commented --resource Out",
    "/opt/aws/bin/cfn-init -v --stack web --resource WebServer --region us-east-1",
    "/opt/aws/bin/cfn-signal -e $? --stack web --resource WebServer --region us-east-1",
    "cfn-signal -s true --stack=" .. STACK .. " \\",
    "   --resource 'Group' --region us-east-1",
    "/opt/aws/bin/cfn-signal -e $? --stack web --resource WebServer --region us-east-1",
  }, "\n")
  H.same(boot.signalled_resources(script), {
    { stack = "web", resource = "WebServer" }, { stack = STACK, resource = "Group" },
  })
  H.same(boot.signalled_resources(H.base64(script)), boot.signalled_resources(script))
  H.same(boot.signalled_resources("echo no signal --stack a --resource b"), {})
end)

T.case("an instance whose script runs cfn-signal --resource signals SUCCESS once running", function()
  local world, sim = fresh()
  world.set_now_ms(1000)
  local script = "#!/bin/bash\n/opt/aws/bin/cfn-signal -e $? --stack web --resource WebServer --region us-east-1\n"
  local id = sim.call("ec2", "RunInstances", { ImageId = "ami-12345678", MinCount = 1, MaxCount = 1,
    UserData = H.base64(script) }).Instances[1].InstanceId
  local c = sim.client().cloudformation
  H.eq(#c.GetResourceSignals({ StackName = "web", LogicalResourceId = "WebServer" }).Signals, 0, "not before boot")
  world.set_now_ms(100000)  -- looked at long after it booted
  sim.call("ec2", "DescribeInstances", { InstanceIds = { id } })
  local signals = c.GetResourceSignals({ StackName = "web", LogicalResourceId = "WebServer" }).Signals
  H.eq(#signals, 1)
  H.eq(signals[1].UniqueId, id)
  H.eq(signals[1].Status, "SUCCESS")
  -- Stamped when the boot ended (launched at 1 s, pending for the sim's
  -- boot_seconds, 30), not when looked at.
  H.eq(signals[1].Timestamp, 31000, "at the end of the boot")
end)

T.case("world config ec2.run_user_data = false: no signal", function()
  local world, sim = fresh()
  world.put("config", "ec2", { run_user_data = false })
  world.set_now_ms(1000)
  local script = "cfn-signal -e 0 --stack web --resource WebServer\n"
  local id = sim.call("ec2", "RunInstances", { ImageId = "ami-12345678", MinCount = 1, MaxCount = 1,
    UserData = H.base64(script) }).Instances[1].InstanceId
  world.set_now_ms(100000)
  sim.call("ec2", "DescribeInstances", { InstanceIds = { id } })
  H.eq(#sim.client().cloudformation.GetResourceSignals({ StackName = "web", LogicalResourceId = "WebServer" }).Signals, 0)
end)

return T
