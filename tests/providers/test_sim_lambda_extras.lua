-- The simulated Lambda's permissions, layer versions and event source mappings.
local H = require("harness")
local T = H.suite("sim lambda extras")
-- Each case's world holds role r, which Lambda may assume (it refuses a
-- role that is missing or does not trust it).
local fresh = require("lambda_role").fresh("r")

local function setup()
  local world, sim = fresh()
  local aws = sim.client()
  aws.lambda.CreateFunction({ FunctionName = "f", Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.13",
    Handler = "index.handler", Code = { ZipFile = "x" } })
  return aws, world
end

T.case("permissions: statements of the function's policy; a duplicate id refused; gone with the function", function()
  local aws, world = setup()
  local e = H.raises(function() aws.lambda.GetPolicy({ FunctionName = "f" }) end, "The resource you requested does not exist.")
  H.eq(e.code, "ResourceNotFoundException")
  aws.lambda.AddPermission({ FunctionName = "f", StatementId = "s3", Action = "lambda:InvokeFunction",
                             Principal = "s3.amazonaws.com", SourceArn = "arn:aws:s3:::b" })
  e = H.raises(function()
    aws.lambda.AddPermission({ FunctionName = "f", StatementId = "s3", Action = "lambda:InvokeFunction", Principal = "x" })
  end, "The statement id (s3) provided already exists. Please provide a new statement id, or remove the existing statement.")
  H.eq(e.code, "ResourceConflictException")
  H.eq(aws.lambda.GetPolicy({ FunctionName = "f" }).Policy,
    '{"Id":"default","Statement":[{"Action":"lambda:InvokeFunction","Condition":{"ArnLike":{"AWS:SourceArn":'
    .. '"arn:aws:s3:::b"}},"Effect":"Allow","Principal":{"Service":"s3.amazonaws.com"},"Resource":'
    .. '"arn:aws:lambda:us-east-1:123456789012:function:f","Sid":"s3"}],"Version":"2012-10-17"}')
  H.raises(function() aws.lambda.AddPermission({ FunctionName = "nope", StatementId = "a", Action = "lambda:InvokeFunction",
    Principal = "p" }) end,
    "Function not found: arn:aws:lambda:us-east-1:123456789012:function:nope")
  aws.lambda.DeleteFunction({ FunctionName = "f" })
  H.same(world.ids("lambda.permission"), {})
end)

T.case("function URLs: one for $LATEST and one per alias; Lambda's conflict and not-found texts; gone with the alias or the function", function()
  local aws, world = setup()
  local arn = "arn:aws:lambda:us-east-1:123456789012:function:f"
  local u = aws.lambda.CreateFunctionUrlConfig({ FunctionName = "f", AuthType = "NONE" })
  H.match(u.FunctionUrl, "^https://[a-z0-9]+%.lambda%-url%.us%-east%-1%.on%.aws/$")
  H.eq(#u.FunctionUrl, #"https://" + 32 + #".lambda-url.us-east-1.on.aws/")
  H.eq(u.FunctionArn, arn)
  H.eq(u.InvokeMode, "BUFFERED")
  H.eq(u.LastModifiedTime, nil)  -- not in CreateFunctionUrlConfig's answer
  local e = H.raises(function() aws.lambda.CreateFunctionUrlConfig({ FunctionName = arn, AuthType = "AWS_IAM" }) end,
    "Failed to create function url config for [functionArn = " .. arn .. "]. Error message:  "
    .. "FunctionUrlConfig exists for this Lambda function")
  H.eq(e.code, "ResourceConflictException")
  e = H.raises(function() aws.lambda.CreateFunctionUrlConfig({ FunctionName = "f", AuthType = "OPEN", Qualifier = "x" }) end,
    "1 validation error detected: Value 'OPEN' at 'authType' failed to satisfy constraint: Member must satisfy enum "
    .. "value set: [NONE, AWS_IAM]")
  H.eq(e.code, "ValidationException")
  H.raises(function() aws.lambda.CreateFunctionUrlConfig({ FunctionName = "f", AuthType = "NONE", Qualifier = "1" }) end,
    "1 validation error detected: Value '1' at 'qualifier' failed to satisfy constraint: Member must satisfy regular "
    .. "expression pattern: ((?!^\\d+$)^[0-9a-zA-Z-_]+$)")
  H.raises(function() aws.lambda.CreateFunctionUrlConfig({ FunctionName = "f", AuthType = "NONE", Qualifier = "live" }) end,
    "Function not found: " .. arn .. ":live")
  aws.lambda.PublishVersion({ FunctionName = "f" })
  aws.lambda.CreateAlias({ FunctionName = "f", Name = "live", FunctionVersion = "1" })
  local live = aws.lambda.CreateFunctionUrlConfig({ FunctionName = "f", Qualifier = "live", AuthType = "AWS_IAM",
    Cors = { AllowOrigins = { "*" } } })
  H.eq(live.FunctionArn, arn .. ":live")
  H.eq(live.FunctionUrl ~= u.FunctionUrl, true)
  local updated = aws.lambda.UpdateFunctionUrlConfig({ FunctionName = "f", Qualifier = "live", Cors = {} })
  H.eq(updated.Cors, nil)  -- an empty Cors removes it
  H.eq(updated.AuthType, "AWS_IAM")
  local list = aws.lambda.ListFunctionUrlConfigs({ FunctionName = "f" }).FunctionUrlConfigs
  H.same({ list[1].FunctionArn, list[2].FunctionArn }, { arn, arn .. ":live" })
  aws.lambda.DeleteAlias({ FunctionName = "f", Name = "live" })
  H.eq(#world.ids("lambda.url"), 1)
  e = H.raises(function() aws.lambda.GetFunctionUrlConfig({ FunctionName = "g" }) end, "Function not found: "
    .. "arn:aws:lambda:us-east-1:123456789012:function:g")
  aws.lambda.DeleteFunctionUrlConfig({ FunctionName = "f" })
  e = H.raises(function() aws.lambda.GetFunctionUrlConfig({ FunctionName = "f" }) end,
    "The resource you requested does not exist.")
  H.eq(e.code, "ResourceNotFoundException")
  aws.lambda.CreateFunctionUrlConfig({ FunctionName = "f", AuthType = "NONE" })
  aws.lambda.DeleteFunction({ FunctionName = "f" })
  H.same(world.ids("lambda.url"), {})
  H.same(world.ids("lambda.url_id"), {})  -- nor their ids
end)

T.case("Invoke of an alias runs the version it points at; a missing qualifier is Lambda's not found", function()
  local aws = setup()
  aws.lambda.PublishVersion({ FunctionName = "f" })
  aws.lambda.CreateAlias({ FunctionName = "f", Name = "live", FunctionVersion = "1" })
  H.eq(aws.lambda.Invoke({ FunctionName = "f", Qualifier = "live", InvocationType = "DryRun" }).StatusCode, 204)
  H.eq(aws.lambda.Invoke({ FunctionName = "f:live", InvocationType = "DryRun" }).StatusCode, 204)
  local e = H.raises(function() aws.lambda.Invoke({ FunctionName = "f", Qualifier = "gone", InvocationType = "DryRun" }) end,
    "Function not found: arn:aws:lambda:us-east-1:123456789012:function:f:gone")
  H.eq(e.code, "ResourceNotFoundException")
end)

T.case("permissions: the request is validated as Lambda's model says; a public URL statement as Lambda writes it", function()
  local aws = setup()
  local e = H.raises(function()
    aws.lambda.AddPermission({ FunctionName = "f", StatementId = "has space", Action = "lambda:InvokeFunction",
      Principal = "s3.amazonaws.com", SourceAccount = "123", SourceArn = "arn:aws:s3:::b" })
  end, "2 validation errors detected: Value 'has space' at 'statementId' failed to satisfy constraint: Member must "
    .. "satisfy regular expression pattern: ([a-zA-Z0-9-_]+); Value '123' at 'sourceAccount' failed to satisfy "
    .. "constraint: Member must satisfy regular expression pattern: \\d{12}")
  H.eq(e.code, "ValidationException")
  H.raises(function()
    aws.lambda.AddPermission({ FunctionName = "f", StatementId = "x", Action = "invoke", Principal = "*" })
  end, "1 validation error detected: Value 'invoke' at 'action' failed to satisfy constraint: Member must satisfy "
    .. "regular expression pattern: (lambda:[*]|lambda:[a-zA-Z]+|[*])")
  H.raises(function()
    aws.lambda.AddPermission({ FunctionName = "f", StatementId = "x", Action = "lambda:InvokeFunctionUrl", Principal = "*",
      FunctionUrlAuthType = "OPEN" })
  end, "1 validation error detected: Value 'OPEN' at 'functionUrlAuthType' failed to satisfy constraint: Member must "
    .. "satisfy enum value set: [NONE, AWS_IAM]")
  aws.lambda.AddPermission({ FunctionName = "f", StatementId = "url", Action = "lambda:InvokeFunctionUrl", Principal = "*",
    FunctionUrlAuthType = "NONE" })
  aws.lambda.AddPermission({ FunctionName = "f", StatementId = "via", Action = "lambda:InvokeFunction", Principal = "*",
    InvokedViaFunctionUrl = true })
  H.eq(aws.lambda.GetPolicy({ FunctionName = "f" }).Policy,
    '{"Id":"default","Statement":[{"Action":"lambda:InvokeFunctionUrl","Condition":{"StringEquals":'
    .. '{"lambda:FunctionUrlAuthType":"NONE"}},"Effect":"Allow","Principal":"*","Resource":'
    .. '"arn:aws:lambda:us-east-1:123456789012:function:f","Sid":"url"},{"Action":"lambda:InvokeFunction","Condition":'
    .. '{"Bool":{"lambda:InvokedViaFunctionUrl":"true"}},"Effect":"Allow","Principal":"*","Resource":'
    .. '"arn:aws:lambda:us-east-1:123456789012:function:f","Sid":"via"}],"Version":"2012-10-17"}')
end)

T.case("layer versions count up, never reused", function()
  local aws = setup()
  local v1 = aws.lambda.PublishLayerVersion({ LayerName = "deps", Content = { ZipFile = "a" } })
  H.eq(v1.LayerVersionArn, "arn:aws:lambda:us-east-1:123456789012:layer:deps:1")
  H.eq(v1.LayerArn, "arn:aws:lambda:us-east-1:123456789012:layer:deps")
  aws.lambda.DeleteLayerVersion({ LayerName = "deps", VersionNumber = 1 })
  H.eq(aws.lambda.PublishLayerVersion({ LayerName = "deps", Content = { ZipFile = "b" } }).Version, 2)
  H.raises(function() aws.lambda.GetLayerVersion({ LayerName = "deps", VersionNumber = 1 }) end,
    "The resource you requested does not exist.")
end)

T.case("event source mappings need the function and the queue; one per pair", function()
  local aws, world = setup()
  local q = "arn:aws:sqs:us-east-1:123456789012:jobs"
  local e = H.raises(function() aws.lambda.CreateEventSourceMapping({ FunctionName = "f", EventSourceArn = q }) end,
    "Invalid request provided: Error occurred while ReceiveMessage. SQS Error Code: "
    .. "AWS.SimpleQueueService.NonExistentQueue. SQS Error Message: The specified queue does not exist for this wsdl version.")
  H.eq(e.code, "InvalidParameterValueException")
  aws.sqs.CreateQueue({ QueueName = "jobs" })
  H.raises(function() aws.lambda.CreateEventSourceMapping({ FunctionName = "g", EventSourceArn = q }) end,
    "Function not found: arn:aws:lambda:us-east-1:123456789012:function:g")
  H.raises(function()
    aws.lambda.CreateEventSourceMapping({ FunctionName = "f", EventSourceArn = q, StartingPosition = "LATEST" })
  end, "StartingPosition is not valid for SQS event sources.")
  local m = aws.lambda.CreateEventSourceMapping({ FunctionName = "f", EventSourceArn = q })
  H.eq(m.State, "Creating")
  H.eq(aws.lambda.GetEventSourceMapping({ UUID = m.UUID }).State, "Enabled")
  H.eq(aws.lambda.GetEventSourceMapping({ UUID = m.UUID }).BatchSize, 10)
  e = H.raises(function() aws.lambda.CreateEventSourceMapping({ FunctionName = "f", EventSourceArn = q }) end,
    "The event source arn (" .. q .. ") and function (f) provided mapping already exists. Please update or delete the "
    .. "existing mapping with UUID " .. m.UUID)
  H.eq(e.code, "ResourceConflictException")
  H.eq(#aws.lambda.ListEventSourceMappings({ FunctionName = "f" }).EventSourceMappings, 1)
  aws.lambda.UpdateEventSourceMapping({ UUID = m.UUID, Enabled = false, BatchSize = 3 })
  H.eq(aws.lambda.GetEventSourceMapping({ UUID = m.UUID }).State, "Disabled")
  aws.lambda.DeleteEventSourceMapping({ UUID = m.UUID })
  H.same(world.ids("lambda.event_source_mapping"), {})
  aws.lambda.CreateEventSourceMapping({ FunctionName = "f", EventSourceArn = q })  -- the pair is free again
end)

T.case("event source mappings listed by source: that queue's only, not one whose name it begins", function()
  local aws = setup()
  aws.lambda.CreateFunction({ FunctionName = "g", Role = "arn:aws:iam::123456789012:role/r", Runtime = "python3.13", Handler = "index.handler", Code = { ZipFile = "a" } })
  local q, q2 = "arn:aws:sqs:us-east-1:123456789012:jobs", "arn:aws:sqs:us-east-1:123456789012:jobs2"
  aws.sqs.CreateQueue({ QueueName = "jobs" })
  aws.sqs.CreateQueue({ QueueName = "jobs2" })
  local f_q = aws.lambda.CreateEventSourceMapping({ FunctionName = "f", EventSourceArn = q }).UUID
  local g_q = aws.lambda.CreateEventSourceMapping({ FunctionName = "g", EventSourceArn = q }).UUID
  local f_q2 = aws.lambda.CreateEventSourceMapping({ FunctionName = "f", EventSourceArn = q2 }).UUID
  local function uuids(p)
    local out = {}
    for _, m in ipairs(aws.lambda.ListEventSourceMappings(p).EventSourceMappings) do out[#out + 1] = m.UUID end
    table.sort(out)
    return out
  end
  local function sorted(t) table.sort(t); return t end
  H.same(uuids({ EventSourceArn = q }), sorted({ f_q, g_q }))
  H.same(uuids({ EventSourceArn = q2 }), { f_q2 })
  H.same(uuids({ EventSourceArn = q, FunctionName = "g" }), { g_q })
  H.same(uuids({}), sorted({ f_q, g_q, f_q2 }))
  aws.lambda.DeleteEventSourceMapping({ UUID = g_q })
  H.same(uuids({ EventSourceArn = q }), { f_q })
end)

-- Installs a runner that records the zip each invocation was given, in
-- the list it returns (the host's runs it: host/lambda/); a case sets
-- package.loaded["moonstack.lambda"] back to nil when done.
local function record_runs()
  local ran = {}
  package.loaded["moonstack.lambda"] = { runner = function()
    return {
      decode_json = function(text) return text end,
      run = function(spec)
        ran[#ran + 1] = spec.zip
        return { ran = true, payload = "null", log = "", responses = {}, handler_ms = 1, duration_ms = 1,
                 max_memory_mb = 30, cold_start = false, log_stream_name = "" }
      end,
    }
  end }
  return ran
end

T.case("Code in S3 is taken when the function is created: a missing or unreadable object fails CreateFunction with Lambda's text", function()
  local _, sim = fresh()
  local ran = record_runs()
  local other = sim.client({ account = "222222222222" })
  other.s3.CreateBucket({ Bucket = "their-code" })
  other.s3.PutObject({ Bucket = "their-code", Key = "fn.zip", Body = "PK\3\4zip" })
  local own = sim.client()
  local function create(name, bucket, key)
    return pcall(own.lambda.CreateFunction, { FunctionName = name, Role = "arn:aws:iam::123456789012:role/r",
      Runtime = "python3.12", Handler = "index.handler", Code = { S3Bucket = bucket, S3Key = key } })
  end
  local function refused(ok, e, message, code)
    H.eq(ok, false, message)
    H.eq(e.message, message)
    H.eq(e.code, code)
  end
  local function absent(name)
    local ok, e = pcall(own.lambda.GetFunction, { FunctionName = name })
    H.eq(ok, false, name)
    H.eq(e.code, "ResourceNotFoundException")
  end
  local ok, e = create("theirs", "their-code", "fn.zip")
  refused(ok, e, "Your access has been denied by S3, please make sure your request credentials have permission to "
    .. "GetObject for their-code/fn.zip. S3 Error Code: AccessDenied. S3 Error Message: Access Denied",
    "AccessDeniedException")
  absent("theirs")
  -- Granted by the bucket policy, it is created and runs.
  other.s3.PutBucketPolicy({ Bucket = "their-code", Policy = [[{"Statement": [{"Effect": "Allow",
    "Principal": {"AWS": "123456789012"}, "Action": "s3:GetObject", "Resource": "arn:aws:s3:::their-code/*"}]}]] })
  ok, e = create("missing", "their-code", "nope.zip")
  refused(ok, e, "Error occurred while GetObject. S3 Error Code: NoSuchKey. S3 Error Message: The specified key does not exist.",
    "InvalidParameterValueException")
  absent("missing")
  ok, e = create("nobucket", "no-such-code-bucket", "fn.zip")
  refused(ok, e, "Error occurred while GetObject. S3 Error Code: NoSuchBucket. S3 Error Message: The specified bucket does not exist",
    "InvalidParameterValueException")
  absent("nobucket")
  H.eq(create("theirs", "their-code", "fn.zip"), true)
  own.lambda.Invoke({ FunctionName = "theirs" })
  package.loaded["moonstack.lambda"] = nil
  H.same(ran, { "PK\3\4zip" })
  -- UpdateFunctionCode takes the new object the same way; a refused one leaves the code as it was.
  local sha = own.lambda.GetFunction({ FunctionName = "theirs" }).Configuration.CodeSha256
  ok, e = pcall(own.lambda.UpdateFunctionCode, { FunctionName = "theirs", S3Bucket = "their-code", S3Key = "v2.zip" })
  refused(ok, e, "Error occurred while GetObject. S3 Error Code: NoSuchKey. S3 Error Message: The specified key does not exist.",
    "InvalidParameterValueException")
  H.eq(own.lambda.GetFunction({ FunctionName = "theirs" }).Configuration.CodeSha256, sha)
  -- So does PublishLayerVersion; no version is made.
  ok, e = pcall(own.lambda.PublishLayerVersion, { LayerName = "deps", Content = { S3Bucket = "their-code", S3Key = "layer.zip" } })
  refused(ok, e, "Error occurred while GetObject. S3 Error Code: NoSuchKey. S3 Error Message: The specified key does not exist.",
    "InvalidParameterValueException")
  other.s3.PutObject({ Bucket = "their-code", Key = "layer.zip", Body = "PK\3\4layer" })
  H.eq(own.lambda.PublishLayerVersion({ LayerName = "deps", Content = { S3Bucket = "their-code", S3Key = "layer.zip" } }).Version, 1)
end)

T.case("Code in S3 is Lambda's own once taken: the object overwritten or deleted, $LATEST and its versions run what they took", function()
  local world, sim = fresh()
  local ran = record_runs()
  local aws = sim.client()
  aws.s3.CreateBucket({ Bucket = "code" })
  -- Not valid UTF-8: kept in the object's record as base64, and so in the function's.
  local v1, v2 = "PK\3\4\255\0one", "PK\3\4two"
  aws.s3.PutObject({ Bucket = "code", Key = "fn.zip", Body = v1 })
  local created = aws.lambda.CreateFunction({ FunctionName = "f", Role = "arn:aws:iam::123456789012:role/r",
    Runtime = "python3.13", Handler = "index.handler", Code = { S3Bucket = "code", S3Key = "fn.zip" } })
  -- Lambda's CodeSha256 and CodeSize: the base64 SHA-256 of the package's bytes, and their count.
  H.eq(created.CodeSha256, "EFNOobxlVT8u8HQe1xJAo2OhgzlWhjQi3jqeuJ7xv68=")
  H.eq(created.CodeSize, 9)
  aws.s3.PutObject({ Bucket = "code", Key = "fn.zip", Body = v2 })
  aws.lambda.Invoke({ FunctionName = "f" })
  H.eq(aws.lambda.PublishVersion({ FunctionName = "f" }).Version, "1")
  -- The same key, a new upload: new code, a new CodeSha256.
  local updated = aws.lambda.UpdateFunctionCode({ FunctionName = "f", S3Bucket = "code", S3Key = "fn.zip" })
  H.eq(updated.CodeSha256, "MonCx0DkvZGHQm66FDBmOvsgxn8/idBBPoU7KxroIe8=")
  H.eq(updated.CodeSize, 7)
  H.eq(aws.lambda.GetFunctionConfiguration({ FunctionName = "f", Qualifier = "1" }).CodeSha256, created.CodeSha256)
  aws.s3.DeleteObject({ Bucket = "code", Key = "fn.zip" })
  aws.lambda.Invoke({ FunctionName = "f" })
  aws.lambda.Invoke({ FunctionName = "f", Qualifier = "1" })
  package.loaded["moonstack.lambda"] = nil
  H.same(ran, { v1, v2, v1 })
  H.eq(world.get("lambda.function", "us-east-1:f").Package.BodyBase64 ~= nil, false)  -- v2 is text
  H.eq(world.get("lambda.version", "us-east-1:f:1").Package.BodyBase64 ~= nil, true)
  -- A body `serve` stored as blobs (here two, as a multipart upload leaves them): the function names
  -- them, and its digest is the host's, of their bytes in order.
  local first = "PK\3\4" .. string.rep("x", 5 * 1024 * 1024 - 4)  -- S3's smallest part but the last
  local b1, b2 = world.add_blob(first), world.add_blob("tail")
  local id = aws.s3.CreateMultipartUpload({ Bucket = "code", Key = "big.zip" }).UploadId
  local parts = {}
  for i, b in ipairs({ { b1, #first }, { b2, 4 } }) do
    parts[i] = { PartNumber = i, ETag = aws.s3.UploadPart({ Bucket = "code", Key = "big.zip", UploadId = id, PartNumber = i,
      BodyBlob = { Id = b[1], Size = b[2], MD5 = string.rep(tostring(i), 32) } }).ETag }
  end
  aws.s3.CompleteMultipartUpload({ Bucket = "code", Key = "big.zip", UploadId = id, MultipartUpload = { Parts = parts } })
  local big = aws.lambda.UpdateFunctionCode({ FunctionName = "f", S3Bucket = "code", S3Key = "big.zip" })
  H.eq(big.CodeSha256, "FNPjITQDipHJIltzE9dRJoSoKw15G1LXpC+fJqbX+Lc=")
  H.eq(big.CodeSize, 5 * 1024 * 1024 + 4)
  H.same(world.get("lambda.function", "us-east-1:f").Blobs, { b1, b2 })
end)

-- Milliseconds since the epoch at 00:00 UTC of a day (days_from_civil).
local function day_ms(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local mp = (m + 9) % 12
  local doy = math.floor((153 * mp + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return (era * 146097 + doe - 719468) * 86400000
end

T.case("a runtime past Lambda's block dates is refused on the world clock's day: create first, updates a month later", function()
  local world, sim = fresh()
  local aws = sim.client()
  local function create(name, runtime)
    return pcall(aws.lambda.CreateFunction, { FunctionName = name, Role = "arn:aws:iam::123456789012:role/r",
      Runtime = runtime, Handler = "index.handler", Code = { ZipFile = "x" } })
  end
  local function refused(result, runtime, successor)
    local ok, e = result[1], result[2]
    H.eq(ok, false, runtime)
    H.eq(e.message, "The runtime parameter of " .. runtime .. " is no longer supported for creating or updating AWS "
      .. "Lambda functions. We recommend you use the new runtime (" .. successor .. ") while creating or updating functions.")
    H.eq(e.code, "InvalidParameterValueException")
  end
  -- Virtual time: the day Lambda still created python3.6 functions, and the day it stopped.
  world.set_now_ms(day_ms(2022, 7, 17) + 86399999)
  H.eq(create("old", "python3.6"), true)
  world.set_now_ms(day_ms(2022, 7, 18))
  refused({ create("old2", "python3.6") }, "python3.6", "python3.14")
  -- Creation stopped on 2022-07-18, updates on 2022-08-29.
  H.eq(aws.lambda.UpdateFunctionCode({ FunctionName = "old", ZipFile = "y" }).Runtime, "python3.6")
  world.set_now_ms(day_ms(2022, 8, 29))
  refused({ pcall(aws.lambda.UpdateFunctionCode, { FunctionName = "old", ZipFile = "z" }) }, "python3.6", "python3.14")
  refused({ pcall(aws.lambda.UpdateFunctionConfiguration, { FunctionName = "old", Timeout = 9 }) }, "python3.6", "python3.14")
  H.eq(aws.lambda.GetFunctionConfiguration({ FunctionName = "old" }).Timeout, 3)
  -- Moving it to a runtime Lambda supports is an update it takes.
  H.eq(aws.lambda.UpdateFunctionConfiguration({ FunctionName = "old", Runtime = "python3.9" }).Runtime, "python3.9")
  -- Today's tables: nodejs20.x stopped on 2026-06-01, nodejs22.x goes on 2027-06-01; an unlisted runtime never stops.
  world.set_now_ms(day_ms(2026, 11, 28))
  refused({ create("n20", "nodejs20.x") }, "nodejs20.x", "nodejs24.x")
  H.eq(create("n22", "nodejs22.x"), true)
  H.eq(create("custom", "provided.al2023"), true)
  world.set_now_ms(day_ms(2027, 6, 1))
  refused({ create("n22b", "nodejs22.x") }, "nodejs22.x", "nodejs24.x")
  H.eq(aws.lambda.UpdateFunctionConfiguration({ FunctionName = "n22", MemorySize = 256 }).MemorySize, 256)
  H.eq(create("future", "python3.99"), true)
end)

T.case("the execution role must be an IAM role ARN of a role of the account that trusts Lambda", function()
  local _, sim = fresh()  -- holds role r, trusting Lambda
  local aws = sim.client()
  local function create(name, role)
    return { pcall(aws.lambda.CreateFunction, { FunctionName = name, Role = role, Runtime = "python3.12",
      Handler = "index.handler", Code = { ZipFile = "x" } }) }
  end
  local function refused(result, message, code)
    H.eq(result[1], false, message)
    H.eq(result[2].message, message)
    H.eq(result[2].code, code)
  end
  local CANNOT = "The role defined for the function cannot be assumed by Lambda."
  refused(create("a", "lambdarole"), "1 validation error detected: Value 'lambdarole' at 'role' failed to satisfy "
    .. "constraint: Member must satisfy regular expression pattern: arn:(aws[a-zA-Z-]*)?:iam::\\d{12}:role/?"
    .. "[a-zA-Z_0-9+=,.@\\-_/]+", "ValidationException")
  refused(create("b", "arn:aws:iam::123456789012:role/missing"), CANNOT, "InvalidParameterValueException")
  refused(create("c", "arn:aws:iam::222222222222:role/r"), CANNOT, "InvalidParameterValueException")  -- another account's
  aws.iam.CreateRole({ RoleName = "ec2-only", AssumeRolePolicyDocument = { Statement = { { Effect = "Allow",
    Principal = { Service = "ec2.amazonaws.com" }, Action = "sts:AssumeRole" } } } })
  refused(create("d", "arn:aws:iam::123456789012:role/ec2-only"), CANNOT, "InvalidParameterValueException")
  -- A trust policy given as JSON text (the API's form), with a path in the ARN and a list of services.
  aws.iam.CreateRole({ RoleName = "text", Path = "/svc/", AssumeRolePolicyDocument = [[{"Statement": [{"Effect": "Allow",
    "Principal": {"Service": ["edgelambda.amazonaws.com", "lambda.amazonaws.com"]}, "Action": ["sts:AssumeRole"]}]}]] })
  H.eq(create("e", "arn:aws:iam::123456789012:role/svc/text")[1], true)
  H.eq(create("f", "arn:aws:iam::123456789012:role/r")[1], true)
  -- UpdateFunctionConfiguration checks a new role the same way; a refused one leaves the function as it was.
  refused({ pcall(aws.lambda.UpdateFunctionConfiguration, { FunctionName = "f",
    Role = "arn:aws:iam::123456789012:role/ec2-only" }) }, CANNOT, "InvalidParameterValueException")
  H.eq(aws.lambda.GetFunctionConfiguration({ FunctionName = "f" }).Role, "arn:aws:iam::123456789012:role/r")
  for _, name in ipairs({ "a", "b", "c", "d" }) do
    H.eq(pcall(aws.lambda.GetFunction, { FunctionName = name }), false, name)
  end
end)

T.case("a .zip package needs its runtime, its handler and a source: Lambda's texts; an image needs its image", function()
  local world, sim = fresh()
  local aws = sim.client()
  local role = "arn:aws:iam::123456789012:role/r"
  local function create(fields)
    local p = { FunctionName = "f", Role = role }
    for k, v in pairs(fields) do p[k] = v end
    return { pcall(aws.lambda.CreateFunction, p) }
  end
  local function refused(result, message)
    H.eq(result[1], false, message)
    H.eq(result[2].message, message)
    H.eq(result[2].code, "InvalidParameterValueException")
  end
  local MANDATORY = "Runtime and Handler are mandatory parameters for functions created with deployment packages."
  local NO_SOURCE = "Please provide a source for function code."
  refused(create({ Handler = "index.handler", Code = { ZipFile = "x" } }), MANDATORY)
  refused(create({ Runtime = "python3.13", Code = { ZipFile = "x" } }), MANDATORY)
  -- An image URI without PackageType Image (boto3#2705's two steps).
  refused(create({ Code = { ImageUri = "123456789012.dkr.ecr.us-east-1.amazonaws.com/app:latest" } }), MANDATORY)
  refused(create({ Runtime = "python3.13", Handler = "index.handler",
    Code = { ImageUri = "123456789012.dkr.ecr.us-east-1.amazonaws.com/app:latest" } }), NO_SOURCE)
  refused(create({ Runtime = "python3.13", Handler = "index.handler", Code = { S3Bucket = "code" } }), NO_SOURCE)
  refused(create({ Runtime = "python3.13", Handler = "index.handler" }), NO_SOURCE)
  refused(create({ PackageType = "Image", Code = {} }), NO_SOURCE)
  H.eq(pcall(aws.lambda.GetFunction, { FunctionName = "f" }), false, "nothing created")
  -- An image needs neither a runtime nor a handler.
  local ok = create({ PackageType = "Image", Code = { ImageUri = "123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1" } })
  H.eq(ok[1], true, ok[2])
  H.eq(aws.lambda.GetFunctionConfiguration({ FunctionName = "f" }).PackageType, "Image")
end)

return T
