-- AWS::Lambda::Permission, LayerVersion and EventSourceMapping driven as the engine drives them.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws lambda extras")
-- Each case's world holds role r, which Lambda may assume (it refuses a
-- role that is missing or does not trust it).
local fresh = require("lambda_role").fresh("r")

local PERMISSION = D.load("lambda/permission")
local LAYER = D.load("lambda/layer_version")
local MAPPING = D.load("lambda/event_source_mapping")

local create = D.create

local function with_function()
  local world, sim = fresh()
  sim.client().lambda.CreateFunction({ FunctionName = "f", Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.13",
    Handler = "index.handler", Code = { ZipFile = "x" } })
  return world, sim
end

T.case("update behaviours from the registry schemas", function()
  for _, p in ipairs(PERMISSION.properties) do H.eq(p.update, "replace", p.name) end
  for _, p in ipairs(LAYER.properties) do H.eq(p.update, "replace", p.name) end
  local replace = { EventSourceArn = true, SelfManagedEventSource = true, StartingPosition = true,
                    StartingPositionTimestamp = true }
  for _, p in ipairs(MAPPING.properties) do H.eq(p.update, replace[p.name] and "replace" or "none", p.name) end
end)

T.case("Ref formats: statement id, layer version ARN, mapping UUID", function()
  local world, sim = with_function()
  local p = create(world, sim, PERMISSION, { FunctionName = "f", Action = "lambda:InvokeFunction",
                                             Principal = "events.amazonaws.com" }, "InvokePermission")
  H.match(p.id, "^s%-InvokePermission%-%w+$")
  sim.client().s3.CreateBucket({ Bucket = "layer-code" })
  sim.client().s3.PutObject({ Bucket = "layer-code", Key = "k", Body = "PK\3\4layer" })
  local l = create(world, sim, LAYER, { Content = { S3Bucket = "layer-code", S3Key = "k" } }, "Deps")
  H.match(l.id, "^arn:aws:lambda:us%-east%-1:123456789012:layer:s%-Deps%-%w+:1$")
  H.eq(l.attributes.LayerVersionArn, l.id)
  sim.client().sqs.CreateQueue({ QueueName = "jobs" })
  local m = create(world, sim, MAPPING, { FunctionName = "f", EventSourceArn = "arn:aws:sqs:us-east-1:123456789012:jobs" })
  H.match(m.id, "^%x+%-%x+%-4%x+%-%x+%-%x+$")
  H.same(m.attributes, { Id = m.id, EventSourceMappingArn = "arn:aws:lambda:us-east-1:123456789012:event-source-mapping:" .. m.id })
end)

T.case("a mapping's missing queue or function fails with Lambda's text; nothing is created", function()
  local world, sim = with_function()
  local q = "arn:aws:sqs:us-east-1:123456789012:missing"
  H.eq(D.failure(function() create(world, sim, MAPPING, { FunctionName = "f", EventSourceArn = q }) end),
    "Invalid request provided: Error occurred while ReceiveMessage. SQS Error Code: "
    .. "AWS.SimpleQueueService.NonExistentQueue. SQS Error Message: The specified queue does not exist for this wsdl version.")
  sim.client().sqs.CreateQueue({ QueueName = "missing" })
  H.eq(D.failure(function() create(world, sim, MAPPING, { FunctionName = "nope", EventSourceArn = q }) end),
    "Function not found: arn:aws:lambda:us-east-1:123456789012:function:nope")
  H.same(world.ids("lambda.event_source_mapping"), {})
  H.eq(D.failure(function()
    create(world, sim, PERMISSION, { FunctionName = "nope", Action = "lambda:InvokeFunction", Principal = "s3.amazonaws.com" })
  end), "Function not found: arn:aws:lambda:us-east-1:123456789012:function:nope")
end)

T.case("read sees an out-of-band mapping change and a removed permission", function()
  local world, sim = with_function()
  sim.client().sqs.CreateQueue({ QueueName = "jobs" })
  local props = MAPPING:validate({ FunctionName = "f", EventSourceArn = "arn:aws:sqs:us-east-1:123456789012:jobs" }, {})
  local m, ctx = create(world, sim, MAPPING, props)
  sim.client().lambda.UpdateEventSourceMapping({ UUID = m.id, Enabled = false, BatchSize = 2 })
  local read = MAPPING.read(ctx, m.id, props).properties
  H.eq(read.Enabled, false)
  H.eq(read.BatchSize, 2)
  local pprops = PERMISSION:validate({ FunctionName = "f", Action = "lambda:InvokeFunction", Principal = "s3.amazonaws.com" }, {})
  local p = create(world, sim, PERMISSION, pprops)
  H.truthy(PERMISSION.read(ctx, p.id, pprops), "the statement is there")
  sim.client().lambda.RemovePermission({ FunctionName = "f", StatementId = p.id })
  H.eq(PERMISSION.read(ctx, p.id, pprops), nil)
end)

-- The "properties" of a type's registry schema in the engine's catalog.
local function registry_properties(aws_type)
  local prefix = '{"type":"' .. aws_type .. '"'
  for line in io.lines(MOONSTACK_ROOT .. "/engine/catalog/aws_resource_schemas.jsonl") do
    if line:sub(1, #prefix) == prefix then return require("sim.json_decode")(line).properties end
  end
  error("no registry schema of " .. aws_type)
end

T.case("a function's settings are checked against the registry schema the host adds before Lambda is called", function()
  local FN = D.load("lambda/function")
  FN:adopt_registry_constraints(registry_properties("AWS::Lambda::Function"))  -- what the host does on loading it
  local base = { Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.12", Handler = "index.handler",
                 Code = { ZipFile = "x" } }
  local function with(fields)
    local out = {}
    for k, v in pairs(base) do out[k] = v end
    for k, v in pairs(fields) do out[k] = v end
    return out
  end
  local function refused(fields, message)
    local ok, e = pcall(FN.validate, FN, with(fields), { logical_id = "Fn" })
    H.eq(ok, false, message)
    H.eq(e.message, "Properties validation failed for resource Fn with message: " .. message)
  end
  refused({ MemorySize = 64 }, "#/MemorySize: 64 is not greater or equal to 128")
  refused({ MemorySize = 32769 }, "#/MemorySize: 32769 is not less or equal to 32768")
  refused({ Timeout = 901 }, "#/Timeout: 901 is not less or equal to 900")
  refused({ Timeout = 0 }, "#/Timeout: 0 is not greater or equal to 1")
  refused({ Role = "lambdarole" }, "#/Role: failed validation constraint for keyword [pattern]")
  refused({ Handler = "index handler" }, "#/Handler: failed validation constraint for keyword [pattern]")
  refused({ Description = string.rep("d", 257) }, "#/Description: expected maxLength: 256, actual: 257")
  refused({ FunctionName = string.rep("f", 65) }, "#/FunctionName: expected maxLength: 64, actual: 65")
  local v = FN:validate(with({ MemorySize = 32768, Timeout = 900, Role = "arn:aws:iam::123456789012:role/svc/r" }),
    { logical_id = "Fn" })
  H.eq(v.MemorySize, 32768)
  H.eq(v.Timeout, 900)
end)

T.case("inline code (ZipFile) needs a Node.js or Python runtime: the handler refuses it before Lambda is called", function()
  local FN = D.load("lambda/function")
  local world, sim = fresh()
  local ROLE = "arn:aws:iam::123456789012:role/r"
  local function refused(props, message)
    H.eq(D.failure(function() D.create(world, sim, FN, props, "Fn") end), message)
  end
  refused({ Role = ROLE, Handler = "index.handler", Code = { ZipFile = "x" } },
    "Invalid request provided: Using the ZipFile attribute requires a runtime to be specified")
  refused({ Role = ROLE, Runtime = "java21", Handler = "a.B::handle", Code = { ZipFile = "x" } },
    "Invalid request provided: The ZipFile attribute is not supported for the runtime 'java21'")
  H.same(world.ids("lambda.function"), {})
  -- Other runtimes take code from S3; Node.js and Python take it inline.
  sim.client().s3.CreateBucket({ Bucket = "code" })
  sim.client().s3.PutObject({ Bucket = "code", Key = "app.jar", Body = "PK\3\4jar" })
  H.eq(D.create(world, sim, FN, { FunctionName = "java", Role = ROLE, Runtime = "java21", Handler = "a.B::handle",
    Code = { S3Bucket = "code", S3Key = "app.jar" } }, "Java").id, "java")
  local node = D.create(world, sim, FN, { FunctionName = "node", Role = ROLE, Runtime = "nodejs24.x",
    Handler = "index.handler", Code = { ZipFile = "exports.handler = async () => 1" } }, "Node")
  H.eq(node.id, "node")
  H.same(world.ids("lambda.function"), { "us-east-1:java", "us-east-1:node" })
  -- An update to a runtime inline code cannot have fails; the function keeps its runtime.
  local ctx = D.context(sim, "Node")
  local old = { FunctionName = "node", Role = ROLE, Runtime = "nodejs24.x", Handler = "index.handler",
                Code = { ZipFile = "exports.handler = async () => 1" } }
  local new = {}
  for k, v in pairs(old) do new[k] = v end
  new.Runtime = "ruby3.4"
  H.eq(D.failure(function() D.run(world, FN, "update", ctx, "node", new, old, { "Runtime" }) end),
    "Invalid request provided: The ZipFile attribute is not supported for the runtime 'ruby3.4'")
  H.eq(sim.client().lambda.GetFunctionConfiguration({ FunctionName = "node" }).Runtime, "nodejs24.x")
end)

T.case("a function's Layers: one of the stack's account must exist; read gives the template's ARNs back", function()
  local FN = D.load("lambda/function")
  local world, sim = fresh()
  local ROLE = "arn:aws:iam::123456789012:role/r"
  sim.client().s3.CreateBucket({ Bucket = "layer-code" })
  sim.client().s3.PutObject({ Bucket = "layer-code", Key = "k", Body = "PK\3\4layer" })
  local l = create(world, sim, LAYER, { Content = { S3Bucket = "layer-code", S3Key = "k" } }, "Deps")
  local public = "arn:aws:lambda:us-east-1:017000801446:layer:AWSLambdaPowertoolsPythonV2:40"
  local props = { FunctionName = "fn", Role = ROLE, Runtime = "python3.13", Handler = "index.handler",
                  Code = { ZipFile = "x" }, Layers = { l.id, public } }
  local f, ctx = D.create(world, sim, FN, props, "Fn")
  local c = sim.client().lambda.GetFunctionConfiguration({ FunctionName = "fn" })
  H.same(c.Layers, { { Arn = l.id, CodeSize = 9 }, { Arn = public, CodeSize = 0 } })
  H.same(FN:check_result("read", FN.read(ctx, f.id, props)).properties.Layers, { l.id, public })
  local missing = l.id:gsub(":1$", ":2")
  H.eq(D.failure(function()
    D.create(world, sim, FN, { FunctionName = "other", Role = ROLE, Runtime = "python3.13", Handler = "index.handler",
                               Code = { ZipFile = "x" }, Layers = { missing } }, "Other")
  end), "Layer version " .. missing .. " does not exist.")
  H.same(world.ids("lambda.function"), { "us-east-1:fn" })
end)

T.case("a function's Tags: the stack's, the template's and CloudFormation's on create; an update's difference; read's own", function()
  local FN = D.load("lambda/function")
  local world, sim = fresh()
  local ROLE = "arn:aws:iam::123456789012:role/r"
  local props = { FunctionName = "tagged", Role = ROLE, Runtime = "python3.13", Handler = "index.handler",
                  Code = { ZipFile = "x" }, Tags = { { Key = "team", Value = "web" }, { Key = "env", Value = "dev" } } }
  local ctx = D.context(sim, "Fn")
  ctx.stack_tags = { { Key = "owner", Value = "ops" } }
  local f = D.run(world, FN, "create", ctx, FN:validate(props, ctx))
  local lam = sim.client().lambda
  local arn = lam.GetFunctionConfiguration({ FunctionName = "tagged" }).FunctionArn
  H.same(lam.ListTags({ Resource = arn }).Tags, {
    team = "web", env = "dev", owner = "ops", ["aws:cloudformation:stack-name"] = "s",
    ["aws:cloudformation:logical-id"] = "Fn", ["aws:cloudformation:stack-id"] = ctx.stack_id })
  H.same(lam.GetFunction({ FunctionName = "tagged" }).Tags, lam.ListTags({ Resource = arn }).Tags)
  local new = {}
  for k, v in pairs(props) do new[k] = v end
  new.Tags = { { Key = "team", Value = "api" } }
  FN:check_result("update", FN.update(ctx, f.id, new, props, { "Tags" }))
  local now = lam.ListTags({ Resource = arn }).Tags
  H.eq(now.team, "api")
  H.eq(now.env, nil)
  H.eq(now.owner, "ops")
  H.eq(now["aws:cloudformation:logical-id"], "Fn")
  H.same(FN:check_result("read", FN.read(ctx, f.id, new)).properties.Tags,
    { { Key = "owner", Value = "ops" }, { Key = "team", Value = "api" } })
  lam.UntagResource({ Resource = arn, TagKeys = { "team", "owner" } })
  H.eq(lam.ListTags({ Resource = arn }).Tags.team, nil)
  H.raises(function() lam.ListTags({ Resource = arn .. "x" }) end, "Function not found: " .. arn .. "x")
end)

return T
