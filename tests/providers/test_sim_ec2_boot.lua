-- A booting instance's script signals its wait-condition handle (cfn-signal).
local H = require("harness")
local T = H.suite("sim ec2 boot script")
local boot = require("sim.ec2.boot_script")

T.case("base64 UserData is decoded; handle URLs after cfn-signal are found", function()
  H.eq(boot.decode_base64("aGVsbG8gd29ybGQ="), "hello world")
  H.eq(boot.decode_base64("not base64!"), nil)
  local script = "#!/bin/bash\n/opt/aws/bin/cfn-signal -e 0 'https://cloudformation-waitcondition-us-east-1.s3.amazonaws.com/arn%3Ax?sig=1'\n"
  H.same(boot.signalled_handles(script), { "https://cloudformation-waitcondition-us-east-1.s3.amazonaws.com/arn%3Ax?sig=1" })
  H.same(boot.signalled_handles("echo no signal https://cloudformation-waitcondition-x"), {})
end)

T.case("an instance whose script runs cfn-signal signals the handle once running", function()
  local world, sim = fresh()
  world.set_now_ms(1000)
  local url = sim.call("cloudformation", "CreateWaitConditionHandle",
    { StackId = "arn:aws:cloudformation:us-east-1:123456789012:stack/s/u", LogicalResourceId = "Handle" }).Url
  H.truthy(url, "handle url")
  local script = "#!/bin/bash\ncfn-signal -e 0 '" .. url .. "'\n"
  local b64 = H.base64(script)
  local id = sim.call("ec2", "RunInstances", { ImageId = "ami-12345678", MinCount = 1, MaxCount = 1,
    UserData = b64 }).Instances[1].InstanceId
  H.eq(#sim.call("cloudformation", "GetWaitConditionSignals", { Handle = url }).Signals, 0, "not before boot")
  world.set_now_ms(1000 + 31000)
  sim.call("ec2", "DescribeInstances", { InstanceIds = { id } })
  local signals = sim.call("cloudformation", "GetWaitConditionSignals", { Handle = url }).Signals
  H.eq(#signals, 1)
  H.eq(signals[1].Status, "SUCCESS")
  H.eq(signals[1].UniqueId, id)
end)

return T
