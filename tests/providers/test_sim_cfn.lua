-- The simulated CloudFormation: wait-condition handles and signals, and the
-- generated physical names.
local H = require("harness")
local T = H.suite("sim cloudformation")

local STACK = "arn:aws:cloudformation:us-east-1:123456789012:stack/web/6a1f0b60-0000-4000-8000-000000000001"

local function cfn()
  local world, sim = fresh()
  return sim.client().cloudformation, world, sim
end

T.case("a handle is a presigned-looking S3 URL carrying the handle's ARN", function()
  local c, world = cfn()
  world.set_now_ms(1632419450000) -- 2021-09-23T17:50:50Z
  local h = c.CreateWaitConditionHandle({ StackId = STACK, LogicalResourceId = "WaitHandle" })
  H.eq(h.Id, STACK .. "/WaitHandle")
  local prefix = "https://cloudformation-waitcondition-us-east-1.s3.amazonaws.com/"
    .. "arn%3Aaws%3Acloudformation%3Aus-east-1%3A123456789012%3Astack/web/6a1f0b60-0000-4000-8000-000000000001/WaitHandle"
    .. "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20210923T175050Z&X-Amz-SignedHeaders=host"
    .. "&X-Amz-Expires=86399&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20210923%2Fus-east-1%2Fs3%2Faws4_request"
    .. "&X-Amz-Signature="
  H.eq(h.Url:sub(1, #prefix), prefix)
  H.match(h.Url:sub(#prefix + 1), "^" .. string.rep("%x", 64) .. "$")
  local mod = require("sim.cloudformation")
  H.eq(mod.handle_id(h.Url), h.Id)
  H.eq(mod.handle_id(h.Id), h.Id)
  H.eq(mod.handle_id("https://example.com/nothing"), nil)
  H.eq(mod.stack_id_of(h.Id), STACK)
  -- Creating it again (a retried create) gives the same handle.
  H.same(c.CreateWaitConditionHandle({ StackId = STACK, LogicalResourceId = "WaitHandle" }), h)
end)

T.case("without a stack ID, one is made up from the stack name", function()
  local c = cfn()
  local h = c.CreateWaitConditionHandle({ StackName = "my-stack", LogicalResourceId = "H" })
  H.match(h.Id, "^arn:aws:cloudformation:us%-east%-1:123456789012:stack/my%-stack/%x+%-%x+%-4%x+%-%x+%-%x+/H$")
  local e = H.raises(function() c.CreateWaitConditionHandle({ StackName = "1bad", LogicalResourceId = "H" }) end,
    "1 validation error detected: Value '1bad' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*")
  H.eq(e.code, "ValidationError")
  H.raises(function() c.CreateWaitConditionHandle({ StackId = STACK, LogicalResourceId = "a-b" }) end,
    "1 validation error detected: Value 'a-b' at 'logicalResourceId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9]+")
end)

T.case("signals are kept in arrival order; the same UniqueId replaces", function()
  local c, world = cfn()
  local h = c.CreateWaitConditionHandle({ StackId = STACK, LogicalResourceId = "H" })
  world.set_now_ms(10)
  c.SignalWaitCondition({ Handle = h.Url, Status = "SUCCESS", Reason = "r1", UniqueId = "i-1", Data = "one" })
  world.set_now_ms(20)
  c.SignalWaitCondition({ Handle = h.Id, Status = "SUCCESS", Reason = "r2", UniqueId = "i-2", Data = "two" })
  world.set_now_ms(30)
  c.SignalWaitCondition({ Handle = h.Url, Status = "FAILURE", Reason = "again", UniqueId = "i-1" })
  local s = c.GetWaitConditionSignals({ Handle = h.Url })
  H.eq(s.Id, h.Id)
  H.same(s.Signals, {
    { Status = "FAILURE", Reason = "again", UniqueId = "i-1", Data = "", Timestamp = 30 },
    { Status = "SUCCESS", Reason = "r2", UniqueId = "i-2", Data = "two", Timestamp = 20 },
  })
  H.eq(require("sim.cloudformation").signal_data(s.Signals), '{"i-2":"two"}')
end)

T.case("Data is a JSON object of UniqueId -> Data, escaped", function()
  local data = require("sim.cloudformation").signal_data({
    { Status = "SUCCESS", UniqueId = "Signal1", Data = "Step 1 complete." },
    { Status = "SUCCESS", UniqueId = "q", Data = 'say "hi"\n\\' },
  })
  H.eq(data, '{"Signal1":"Step 1 complete.","q":"say \\"hi\\"\\n\\\\"}')
  H.eq(require("sim.cloudformation").signal_data({}), "{}")
end)

T.case("an unknown or deleted handle answers like S3: Access Denied", function()
  local c = cfn()
  local h = c.CreateWaitConditionHandle({ StackId = STACK, LogicalResourceId = "H" })
  c.DeleteWaitConditionHandle({ Handle = h.Url })
  local e = H.raises(function() c.SignalWaitCondition({ Handle = h.Url, Status = "SUCCESS", UniqueId = "x" }) end,
    "Access Denied")
  H.eq(e.code, "AccessDenied")
  H.raises(function() c.GetWaitConditionSignals({ Handle = "nonsense" }) end, "Access Denied")
  H.same(c.DeleteWaitConditionHandle({ Handle = h.Url }), {}) -- deleting again is fine
end)

-- Generated names (sim.cloudformation_names) -------------------------------------------

local names = require("sim.cloudformation_names")

T.case("generated names: <stack>-<logical>-<12 letters and digits>", function()
  fresh()
  local n = names.physical("web", "AppRole", 64)
  H.match(n, "^web%-AppRole%-[%w][%w][%w][%w][%w][%w][%w][%w][%w][%w][%w][%w]$")
  H.truthy(n ~= names.physical("web", "AppRole", 64), "each name gets a fresh tail")
  fresh()
  H.eq(names.physical("web", "AppRole", 64), n, "the same seed gives the same names")
end)

T.case("generated names split a long stack name and logical ID as CloudFormation does", function()
  -- A real name (KensioSoftware/yulin#1113): 25 + 25 characters.
  H.eq(names.physical("ChineseboostAnalyticsStack", "RainlyticsSummariesJobFunctionServiceRole1234", 64, "UjecjFhpdr1d"),
    "ChineseboostAnalyticsStac-RainlyticsSummariesJobFun-UjecjFhpdr1d")
  -- A short stack name leaves its share to the logical ID.
  local n = names.physical("s", string.rep("L", 80), 64, "TTTTTTTTTTTT")
  H.eq(n, "s-" .. string.rep("L", 49) .. "-TTTTTTTTTTTT")
  H.eq(#n, 64)
  -- Leading dashes and runs of dashes in the stack name go.
  H.eq(names.physical("--a--b", "X", 64, "TTTTTTTTTTTT"), "a-b-X-TTTTTTTTTTTT")
  -- The 24-character budget of AWS::IAM::Policy IDs: 5 + 5.
  H.eq(names.physical("mystack", "MyPolicy", 24, "TTTTTTTTTTTT"), "mysta-MyPol-TTTTTTTTTTTT")
  -- An odd budget: the stack name gets the extra character.
  H.same(names.fair_split(51, { 40, 40 }), { 26, 25 })
end)

T.case("prefixed names cut the prefix to leave room for the tail (SSM: CFN-<logical>)", function()
  H.eq(names.prefixed("CFN-ADPassword", 40, "RaW3KZCsUoag"), "CFN-ADPassword-RaW3KZCsUoag")
  H.eq(names.prefixed("CFN-" .. string.rep("x", 40), 40, "TTTTTTTTTTTT"),
    "CFN-" .. string.rep("x", 23) .. "-TTTTTTTTTTTT")
end)

return T
