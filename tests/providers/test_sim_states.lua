-- The simulated Step Functions: state machines, and executions that run the
-- Amazon States Language on the world clock (Task → a Lambda function,
-- Retry with backoff in simulated time, Catch, Pass, Wait, Choice, Succeed,
-- Fail, paths). Lambda functions run here through a stand-in runner whose
-- handlers are Lua functions (the real one is the host's: host/lambda/).
local H = require("harness")
local T = H.suite("sim states")
-- Each case's world holds role sfn, which Lambda may assume (it refuses a
-- role that is missing or does not trust it).
local fresh = require("lambda_role").fresh("sfn")
local util = require("sim.cloudformation_util")
local decode = require("sim.json_decode")

-- Handlers by function name: function(event) -> result, or raises {errorType, errorMessage}.
local handlers, calls = {}, {}
package.loaded["moonstack.lambda"] = {
  enabled = function() return true end,
  runner = function()
    return {
      decode_json = decode,
      timeout_message = function(s) return "Task timed out after " .. s .. " seconds" end,
      run = function(spec)
        local event = decode(spec.event)
        calls[#calls + 1] = { name = spec.function_name, event = event, at = require("moonstack.world").now_ms() }
        local ok, r = pcall(handlers[spec.function_name], event)
        local out = { ran = true, log = "", handler_ms = 1, duration_ms = 1, max_memory_mb = 30, cold_start = false,
                      responses = {}, log_stream_name = "" }
        if ok then
          out.payload = util.json(r)
          if type(r) == "table" and r.respond then out.responses = { util.json(r.respond) } end
        else
          out.function_error, out.payload = true, util.json({ errorType = r.errorType, errorMessage = r.errorMessage })
        end
        return out
      end,
    }
  end,
}

local ROLE = "arn:aws:iam::123456789012:role/sfn"

local function setup(definition)
  local world, sim = fresh()
  handlers, calls = {}, {}
  world.set_now_ms(1000000)
  local aws = sim.client()
  for _, name in ipairs({ "check", "timeout", "double" }) do
    aws.lambda.CreateFunction { FunctionName = name, Runtime = "nodejs20.x", Handler = "index.handler", Role = ROLE,
                                Code = { ZipFile = "x" } }
  end
  local arn = aws.states.CreateStateMachine { name = "m", roleArn = ROLE, definition = util.json(definition) }
    .stateMachineArn
  return aws, world, arn
end

local FN = "arn:aws:lambda:us-east-1:123456789012:function:"

-- The Provider framework's waiter, as CDK synthesizes it.
local WAITER = {
  StartAt = "framework-isComplete-task",
  States = {
    ["framework-isComplete-task"] = {
      End = true, Type = "Task", Resource = FN .. "check",
      Retry = { { ErrorEquals = { "States.ALL" }, IntervalSeconds = 10, MaxAttempts = 6, BackoffRate = 1 } },
      Catch = { { ErrorEquals = { "States.ALL" }, Next = "framework-onTimeout-task" } },
    },
    ["framework-onTimeout-task"] = { End = true, Type = "Task", Resource = FN .. "timeout" },
  },
}

local function times(name)
  local out = {}
  for _, c in ipairs(calls) do if c.name == name then out[#out + 1] = (c.at - 1000000) / 1000 end end
  return out
end

T.case("the waiter: a Task retried every IntervalSeconds of simulated time until it succeeds", function()
  local aws, world, arn = setup(WAITER)
  local n = 0
  handlers.check = function(e)
    n = n + 1
    if n < 3 then error({ errorType = "Error", errorMessage = "not yet" }, 0) end
    return { done = e.RequestId, respond = { Status = "SUCCESS", RequestId = e.RequestId, Data = { M = "hi" } } }
  end
  local ex = aws.states.StartExecution { stateMachineArn = arn, input = '{"RequestId":"r1"}' }.executionArn
  H.eq(ex:match(":execution:m:") ~= nil, true)
  H.eq(#calls, 0)  -- nothing runs on the thread of StartExecution
  H.eq(aws.background.Run {}.NextDueMs, 1010000)  -- the first attempt ran at once, the next is due in 10 s
  H.eq(aws.states.DescribeExecution { executionArn = ex }.status, "RUNNING")
  world.set_now_ms(1009999)
  aws.background.Run {}
  H.same(times("check"), { 0 })
  world.set_now_ms(1030000)  -- two intervals passed: one attempt per poll that finds it due
  aws.background.Run {}
  world.set_now_ms(1030000)
  H.same(times("check"), { 0, 30 })
  world.set_now_ms(1040000)
  local d = aws.states.DescribeExecution { executionArn = ex }
  H.same(times("check"), { 0, 30, 40 })
  H.eq(d.status, "SUCCEEDED")
  H.eq(d.output, '{"done":"r1","respond":{"Data":{"M":"hi"},"RequestId":"r1","Status":"SUCCESS"}}')
  H.eq(d.stopDate, 1040)
  H.eq(aws.background.Run {}.NextDueMs, nil)
  -- the response the function PUT reached the request it answers
  H.same(aws.custom_resources.GetResponse { RequestId = "r1" }.Response,
    { Status = "SUCCESS", RequestId = "r1", Data = { M = "hi" } })
end)

T.case("an execution claimed by a worker that died is taken over once its lease ends", function()
  local aws, world, arn = setup(WAITER)
  handlers.check = function(e) return { done = e.RequestId } end
  local ex = aws.states.StartExecution { stateMachineArn = arn, input = '{"RequestId":"r3"}' }.executionArn
  -- A process killed while advancing it left its claim in the world record.
  world.atomic(function()
    local e = world.get("states.execution", ex)
    e.busy_until_ms = 1000000 + 960000
    world.put("states.execution", ex, e, { refs = { arn } })
  end)
  aws.background.Run {}
  world.set_now_ms(1000000 + 959999)
  aws.background.Run {}
  H.same(times("check"), {})  -- still claimed
  world.set_now_ms(1000000 + 960000)
  H.eq(aws.states.DescribeExecution { executionArn = ex }.status, "SUCCEEDED")
  H.same(times("check"), { 960 })
end)

T.case("the waiter: retries exhausted, the Catch runs onTimeout with {Error, Cause}", function()
  local aws, world, arn = setup(WAITER)
  handlers.check = function() error({ errorType = "Retry", errorMessage = '{"RequestId":"r2"}' }, 0) end
  local got
  handlers.timeout = function(e) got = e; return "timed out" end
  local ex = aws.states.StartExecution { stateMachineArn = arn, name = "x", input = '{"RequestId":"r2"}' }.executionArn
  for t = 0, 70, 10 do
    world.set_now_ms(1000000 + t * 1000)
    aws.background.Run {}
  end
  H.same(times("check"), { 0, 10, 20, 30, 40, 50, 60 })  -- the first attempt and MaxAttempts 6 retries
  H.same(times("timeout"), { 60 })
  H.eq(got.Error, "Retry")
  H.same(decode(got.Cause), { errorType = "Retry", errorMessage = '{"RequestId":"r2"}' })
  local d = aws.states.DescribeExecution { executionArn = ex }
  H.eq(d.status, "SUCCEEDED")
  H.eq(d.output, '"timed out"')
  H.same(aws.states.ListExecutions { stateMachineArn = arn }.executions[1].status, "SUCCEEDED")
end)

T.case("Retry's BackoffRate and MaxAttempts defaults, an uncaught error fails the execution", function()
  local aws, world, arn = setup({ StartAt = "T", States = { T = { Type = "Task", Resource = FN .. "check", End = true,
    Retry = { { ErrorEquals = { "Boom" } } } } } })
  handlers.check = function() error({ errorType = "Boom", errorMessage = "no" }, 0) end
  local ex = aws.states.StartExecution { stateMachineArn = arn }.executionArn
  for _, t in ipairs({ 0, 1, 3, 7 }) do
    world.set_now_ms(1000000 + t * 1000)
    aws.background.Run {}
  end
  H.same(times("check"), { 0, 1, 3, 7 })  -- IntervalSeconds 1, BackoffRate 2, MaxAttempts 3
  local d = aws.states.DescribeExecution { executionArn = ex }
  H.eq(d.status, "FAILED")
  H.eq(d.error, "Boom")
  H.eq(d.cause, '{"errorMessage":"no","errorType":"Boom"}')
end)

T.case("Pass, Choice, Wait, lambda:invoke with Parameters and ResultPath, Succeed and Fail", function()
  local aws, world, arn = setup({
    StartAt = "Init",
    States = {
      Init = { Type = "Pass", Result = { n = 2 }, ResultPath = "$.counter", Next = "Double" },
      Double = { Type = "Task", Resource = "arn:aws:states:::lambda:invoke", ResultPath = "$.doubled",
                 ResultSelector = { ["value.$"] = "$.Payload" },
                 Parameters = { FunctionName = FN .. "double", ["Payload.$"] = "$.counter" }, Next = "Pause" },
      Pause = { Type = "Wait", SecondsPath = "$.pause", Next = "Big?" },
      ["Big?"] = { Type = "Choice", Default = "Small",
                   Choices = { { Variable = "$.doubled.value", NumericGreaterThan = 3, Next = "Done" } } },
      Done = { Type = "Succeed", OutputPath = "$.doubled" },
      Small = { Type = "Fail", Error = "TooSmall", Cause = "under 4" },
    },
  })
  handlers.double = function(e) return e.n * 2 end
  local ex = aws.states.StartExecution { stateMachineArn = arn, input = '{"pause":30}' }.executionArn
  H.eq(aws.states.DescribeExecution { executionArn = ex }.status, "RUNNING")  -- waiting 30 s
  H.same(calls[1].event, { n = 2 })
  world.set_now_ms(1030000)
  local d = aws.states.DescribeExecution { executionArn = ex }
  H.eq(d.status, "SUCCEEDED")
  H.eq(d.output, '{"value":4}')
  H.eq(d.stopDate, 1030)
end)

T.case("ListStateMachines: the region's machines only, in ARN order", function()
  local _, sim = fresh()
  local def = util.json({ StartAt = "p", States = { p = { Type = "Pass", End = true } } })
  local west = { region = "eu-west-1" }
  sim.call("states", "CreateStateMachine", { name = "m", roleArn = ROLE, definition = def })
  sim.call("states", "CreateStateMachine", { name = "m2", roleArn = ROLE, definition = def })
  sim.call("states", "CreateStateMachine", { name = "m", roleArn = ROLE, definition = def }, west)
  local function names(env)
    local out = {}
    for _, m in ipairs(sim.call("states", "ListStateMachines", {}, env).stateMachines) do
      out[#out + 1] = m.stateMachineArn
    end
    return out
  end
  H.same(names(), { "arn:aws:states:us-east-1:123456789012:stateMachine:m",
                    "arn:aws:states:us-east-1:123456789012:stateMachine:m2" })
  H.same(names(west), { "arn:aws:states:eu-west-1:123456789012:stateMachine:m" })
  H.same(names({ region = "ap-south-1" }), {})
end)

T.case("errors: bad definitions, unknown machines and executions, duplicate names, StopExecution", function()
  local aws, world, arn = setup(WAITER)
  H.eq(H.raises(function() aws.states.CreateStateMachine { name = "bad", roleArn = ROLE, definition = "{" } end,
    "Invalid State Machine Definition: 'INVALID_JSON_DESCRIPTION: expected a string key at character 2'").code,
    "InvalidDefinition")
  H.raises(function()
    aws.states.CreateStateMachine { name = "bad", roleArn = ROLE, definition = '{"StartAt":"A","States":{"A":{"Type":"Map","End":true}}}' }
  end, "Invalid State Machine Definition: 'SCHEMA_VALIDATION_FAILED: moonstack runs Pass, Task, Choice, Wait, "
    .. "Succeed and Fail states, not Map at /States/A'")
  H.eq(H.raises(function() aws.states.StartExecution { stateMachineArn = arn .. "x" } end,
    "State Machine Does Not Exist: '" .. arn .. "x'").code, "StateMachineDoesNotExist")
  H.eq(H.raises(function() aws.states.DescribeExecution { executionArn = "arn:aws:states:us-east-1:123456789012:execution:m:n" } end,
    "Execution Does Not Exist: 'arn:aws:states:us-east-1:123456789012:execution:m:n'").code, "ExecutionDoesNotExist")
  local ex = aws.states.StartExecution { stateMachineArn = arn, name = "once" }.executionArn
  H.eq(H.raises(function() aws.states.StartExecution { stateMachineArn = arn, name = "once" } end,
    "Execution Already Exists: '" .. ex .. "'").code, "ExecutionAlreadyExists")
  aws.states.StopExecution { executionArn = ex, error = "E", cause = "stopped" }
  aws.background.Run {}
  H.eq(#calls, 0)
  local d = aws.states.DescribeExecution { executionArn = ex }
  H.same({ d.status, d.error, d.cause }, { "ABORTED", "E", "stopped" })
  aws.states.DeleteStateMachine { stateMachineArn = arn }
  H.raises(function() aws.states.DescribeStateMachine { stateMachineArn = arn } end,
    "State Machine Does Not Exist: '" .. arn .. "'")
end)

T.case("a state machine's tags: CreateStateMachine's, TagResource, UntagResource; the provider's stack and aws: tags", function()
  local world, sim = fresh()
  local sfn = sim.client().states
  local def = '{"StartAt": "P", "States": {"P": {"Type": "Pass", "End": true}}}'
  local arn = sfn.CreateStateMachine({ name = "m", definition = def, roleArn = ROLE,
                                       tags = { { key = "team", value = "web" } } }).stateMachineArn
  sfn.TagResource({ resourceArn = arn, tags = { { key = "env", value = "dev" } } })
  sfn.UntagResource({ resourceArn = arn, tagKeys = { "team" } })
  H.same(sfn.ListTagsForResource({ resourceArn = arn }).tags, { { key = "env", value = "dev" } })
  -- A machine that is not there: the tag actions' own ResourceNotFound.
  local gone = arn .. "-gone"
  for _, call in ipairs({
    function() sfn.TagResource({ resourceArn = gone, tags = { { key = "env", value = "dev" } } }) end,
    function() sfn.UntagResource({ resourceArn = gone, tagKeys = { "env" } }) end,
    function() sfn.ListTagsForResource({ resourceArn = gone }) end,
  }) do
    H.eq(H.raises(call, "Resource not found: '" .. gone .. "'").code, "ResourceNotFound")
  end
  -- Through AWS::StepFunctions::StateMachine.
  local D = require("provider_driver")
  local SM = D.load("stepfunctions/state_machine")
  local ctx = D.context(sim, "Flow")
  ctx.stack_tags = { { Key = "owner", Value = "ops" } }
  local props = SM:validate({ RoleArn = ROLE, DefinitionString = def, Tags = { { Key = "app", Value = "shop" } } }, ctx)
  local r = D.run(world, SM, "create", ctx, props)
  local got = {}
  for _, t in ipairs(sfn.ListTagsForResource({ resourceArn = r.id }).tags) do got[t.key] = t.value end
  H.same(got, { app = "shop", owner = "ops", ["aws:cloudformation:stack-name"] = "s",
                ["aws:cloudformation:logical-id"] = "Flow", ["aws:cloudformation:stack-id"] = ctx.stack_id })
  local new = SM:validate({ RoleArn = ROLE, DefinitionString = def, Tags = { { Key = "app", Value = "cart" } } }, ctx)
  SM:check_result("update", SM.update(ctx, r.id, new, props, { "Tags" }))
  H.same(SM:check_result("read", SM.read(ctx, r.id, new)).properties.Tags,
    { { Key = "app", Value = "cart" }, { Key = "owner", Value = "ops" } })
end)

return T
