-- sim.lambda's Invoke: runs a function's code locally, in a python3 or node
-- process (host/lambda/; the runner, require("moonstack.lambda").runner(),
-- is given to this file only: host/lua/lambda_binding.h), and
-- writes what it printed to the CloudWatch Logs group /aws/lambda/<name>.
--
--   Invoke { FunctionName, Qualifier, InvocationType = "RequestResponse" |
--            "Event" | "DryRun", LogType = "None" | "Tail", Payload }
--     -> { StatusCode = 200 (202 Event, 204 DryRun), ExecutedVersion,
--          Payload (JSON text), FunctionError = "Unhandled" (an error
--          payload), LogResult (Tail: the log's last 4 KB, base64) }
--   Payload is JSON text (a table is encoded). An Event invocation runs
--   before Invoke returns, as the synchronous one does.
--   Sim-only: CaptureResponseURL = true — the event's ResponseURL is served
--   by the invocation itself and the bodies PUT to it come back as
--   CapturedResponses (decoded), how a custom resource hears from its
--   function where no server listens (providers/aws/cloudformation/custom_resource.lua).
--   Sim-only: DeliverResponses = true — the same capture, and each response
--   goes to the request it answers (sim.custom_resources' Deliver), as a PUT
--   to CloudFormation's presigned ResponseURL: how a custom resource hears
--   from a later invocation than the one it sent its request to (the
--   Provider framework's isComplete and onTimeout, run by Step Functions).
--   A ResponseURL that is not in the event's top level (onTimeout finds it
--   in the error's Cause) reaches the capture too: the node harness routes
--   an https PUT without a port to 127.0.0.1 there.
--
-- The function's Layers of its own account are extracted into the
-- environment's opt/ (Lambda's /opt), on python's sys.path and node's
-- NODE_PATH as Lambda puts /opt/python and /opt/nodejs there (runner.h).
--
-- Invoke is UNLOCKED (sim/init.lua): it holds the world's lock only for its
-- reads and writes, never while the function runs.
--
-- Execution environments are reused (host/lambda/environment_pool.h): a
-- warm invocation runs in the process a previous one of the same function,
-- code and configuration left, with its module-level state.
-- Log stream (one per execution environment, as on Lambda: a warm
-- invocation writes to its environment's): "<yyyy/mm/dd>/[$LATEST]<32 hex>"; lines:
--   START RequestId: <id> Version: $LATEST
--   <what the function printed, one event per line>
--   END RequestId: <id>
--   REPORT RequestId: <id>\tDuration: 1.23 ms\tBilled Duration: 2 ms\tMemory Size: 128 MB\tMax Memory Used: 38 MB\tInit Duration: 40.12 ms
--     (Init Duration on a cold start only)
--   <date> <id> Task timed out after 3.00 seconds        (a timeout)
-- Messages: "Could not parse request body into json: Could not parse payload
-- into json: ..." (Lambda's InvalidRequestContentException; Lambda's detail
-- is its JSON parser's, ours is moonstack's: "JSON not well-formed. (line 1,
-- column 4)"); a function moonstack cannot run (no
-- interpreter, --no-lambda, another runtime) fails the call with
-- ServiceException and the runner's reason.
local world = require("sim.world")
local util = require("sim.cloudformation_util")

return function(A, L)
  local function sim() return require("sim") end
  local function fail(message, code) sim().fail(message, code) end

  A.UNLOCKED = A.UNLOCKED or {}
  A.UNLOCKED.Invoke = true

  local function runner()
    local ok, r = pcall(function()
      local r = require("moonstack.lambda").runner()  -- not a tail call: the host checks who asks
      return r
    end)
    if not ok then fail("This moonstack runtime cannot run Lambda functions", "ServiceException") end
    return r
  end

  local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  local function base64(s)
    return (s:gsub(".?.?.?", function(chunk)
      if chunk == "" then return "" end
      local a, b, c = chunk:byte(1, 3)
      local n = a * 65536 + (b or 0) * 256 + (c or 0)
      local out = {}
      for i = 1, 4 do
        local d = math.floor(n / 64 ^ (4 - i)) % 64
        out[i] = B64:sub(d + 1, d + 1)
      end
      if not b then out[3], out[4] = "=", "=" elseif not c then out[4] = "=" end
      return table.concat(out)
    end))
  end

  -- What the runner runs: inline text, or a zip archive (ZipFile bytes, or
  -- what was taken of the S3 object S3Bucket/S3Key named when the code was
  -- set: `holder`, the function's or the version's record, owns its blobs
  -- or keeps its body, sim/lambda.lua). A function of a state written
  -- before the code was taken reads the object as it is now.
  local function code_to_run(env, holder)
    local code = holder.Code or {}
    if type(code.ZipFile) == "string" then
      if code.ZipFile:sub(1, 4) == "PK\3\4" then return { zip = code.ZipFile } end
      return { inline_code = code.ZipFile }
    end
    local bodies = require("sim.s3_body")
    -- Read by the runner: a package of tens of MB never becomes a Lua string.
    if holder.Blobs then return { zip_blobs = L.blob_extents(holder.Blobs, holder.Sizes) } end
    if holder.Package then return { zip = bodies.read(holder.Package) } end
    if code.S3Bucket and code.S3Key then
      return { zip = bodies.result_bytes(L.s3_code(env, code)) }
    end
    fail("moonstack runs code given as ZipFile or S3Bucket/S3Key, not a container image", "InvalidParameterValueException")
  end

  -- The packages of the function's layers the runner extracts into its
  -- /opt, in the function's order (a later one's files over an earlier
  -- one's, as Lambda extracts them): each version of the caller's account
  -- (sim/lambda_layers.lua). Another account's layer has no content here
  -- and is left out.
  local function layers_to_run(env, c)
    local out = {}
    for _, layer in ipairs(c.Layers or {}) do
      local v = L.layer_version(env, layer.Arn)
      if v and (v.Blobs or v.Package or (v.Code and v.Code.ZipFile)) then out[#out + 1] = code_to_run(env, v) end
    end
    return out
  end

  -- The version an alias sends this invocation to: its own, or with its
  -- RoutingConfig's weight (CodeDeploy's traffic shift) the additional one,
  -- drawn from the world's sequence. The alias is read as GetAlias reads it
  -- (a deployment shifting it moved along to the clock first).
  local function routed_version(env, name, alias_name)
    return world.atomic(function()
      local a = A.GetAlias({ FunctionName = name, Name = alias_name }, env)
      local weights = a.RoutingConfig and a.RoutingConfig.AdditionalVersionWeights or {}
      local draw = nil
      for version, weight in pairs(weights) do
        draw = draw or env.new_id("int", 1000000) / 1000000
        if draw < tonumber(weight) then return tostring(version) end
      end
      return a.FunctionVersion
    end)
  end

  -- The function's configuration at the qualifier ($LATEST, a version, or
  -- an alias: the version it routes to), and the record holding its code.
  local function target(env, p)
    local rec, qualifier = L.load_fn(env, p.FunctionName)
    qualifier = p.Qualifier or qualifier
    if qualifier and qualifier ~= "$LATEST" and not qualifier:match("^%d+$")
        and world.get("lambda.alias", L.fkey(env, rec.FunctionName) .. ":" .. qualifier) then
      qualifier = routed_version(env, rec.FunctionName, qualifier)
    end
    if qualifier and qualifier ~= "$LATEST" then
      local v = world.get(L.VERSION, L.fkey(env, rec.FunctionName) .. ":" .. qualifier)
      if not v then
        fail("Function not found: " .. L.fn_arn(env, rec.FunctionName, qualifier), "ResourceNotFoundException")
      end
      return L.configuration(env, rec, v), v
    end
    return L.configuration(env, rec), rec
  end

  -- Appends the invocation's log to /aws/lambda/<name> (the group is created
  -- on first use, as Lambda's execution role does).
  local function write_log(env, c, stream, lines, cold_start)
    local opts = { region = env.region, account = env.account }
    local group = "/aws/lambda/" .. c.FunctionName
    pcall(sim().call, "logs", "CreateLogGroup", { logGroupName = group }, opts)
    if cold_start then
      sim().call("logs", "CreateLogStream", { logGroupName = group, logStreamName = stream }, opts)
    else  -- the environment's stream exists, unless someone deleted it since
      pcall(sim().call, "logs", "CreateLogStream", { logGroupName = group, logStreamName = stream }, opts)
    end
    local events = {}
    for i, line in ipairs(lines) do events[i] = { timestamp = env.now_ms, message = line } end
    sim().call("logs", "PutLogEvents", { logGroupName = group, logStreamName = stream, logEvents = events }, opts)
  end

  local function log_lines(c, request_id, out)
    local lines = { "START RequestId: " .. request_id .. " Version: " .. c.Version }
    for line in (out.log or ""):gmatch("([^\n]*)\n?") do
      if line ~= "" then lines[#lines + 1] = line end
    end
    lines[#lines + 1] = "END RequestId: " .. request_id
    -- As Lambda reports it: Duration is the handler's; a cold start adds
    -- Init Duration (process start, harness, imports).
    local handler_ms = out.handler_ms > 0 and out.handler_ms or out.duration_ms
    local report = string.format(
      "REPORT RequestId: %s\tDuration: %.2f ms\tBilled Duration: %d ms\tMemory Size: %d MB\tMax Memory Used: %d MB",
      request_id, handler_ms, math.ceil(handler_ms), c.MemorySize, out.max_memory_mb)
    if out.cold_start then report = report .. string.format("\tInit Duration: %.2f ms", out.init_ms) end
    lines[#lines + 1] = report
    return lines
  end

  function A.Invoke(p, env)
    local itype = p.InvocationType or "RequestResponse"
    if itype ~= "RequestResponse" and itype ~= "Event" and itype ~= "DryRun" then
      L.invalid(tostring(itype), "invocationType", "Member must satisfy enum value set: [Event, RequestResponse, DryRun]")
    end
    local c, holder = target(env, p)
    if itype == "DryRun" then return { StatusCode = 204 } end
    local r = runner()
    local payload = p.Payload
    -- No payload (`aws lambda invoke` without --payload: an empty body) is the event {}.
    if payload == nil or payload == "" then payload = "{}" elseif type(payload) == "table" then payload = L.json(payload) end
    local ok_json, why = r.decode_json(tostring(payload))
    if ok_json == nil and why then
      fail("Could not parse request body into json: Could not parse payload into json: " .. tostring(why),
        "InvalidRequestContentException")
    end
    local run = code_to_run(env, holder)
    local layers = layers_to_run(env, c)
    local request_id, hex = world.atomic(function() return env.new_id("uuid"), env.new_id("hex", 32) end)
    local stream = util.iso8601(env.now_ms):sub(1, 10):gsub("%-", "/") .. "/[" .. c.Version .. "]" .. hex
    local environment = {}
    for k, v in pairs(type(c.Environment) == "table" and c.Environment.Variables or {}) do
      environment[tostring(k)] = tostring(v)
    end
    local endpoint = sim().call("custom_resources", "GetEndpoint", {}).Url
    local out = r.run {
      function_name = c.FunctionName, function_arn = c.FunctionArn, runtime = c.Runtime, handler = c.Handler,
      region = env.region, account = env.account, timeout = tonumber(c.Timeout), memory = tonumber(c.MemorySize),
      inline_code = run.inline_code, zip = run.zip, zip_blobs = run.zip_blobs, layers = layers,
      environment = environment,
      event = tostring(payload),
      request_id = request_id, log_stream_name = stream, endpoint_url = endpoint, last_modified = c.LastModified,
      capture_response_url = p.CaptureResponseURL == true or p.DeliverResponses == true,
    }
    if not out.ran then
      fail("Function " .. c.FunctionName .. " was not run: " .. tostring(out.error), "ServiceException")
    end
    local lines = log_lines(c, request_id, out)
    if out.timed_out then
      lines[#lines + 1] = util.iso8601(env.now_ms) .. " " .. request_id .. " "
          .. r.timeout_message(tonumber(c.Timeout) or 3)
    end
    write_log(env, c, out.log_stream_name ~= "" and out.log_stream_name or stream, lines, out.cold_start)
    local result = { StatusCode = itype == "Event" and 202 or 200, ExecutedVersion = c.Version }
    if itype == "RequestResponse" then
      result.Payload = out.payload
      if out.function_error then result.FunctionError = "Unhandled" end
      if p.LogType == "Tail" then
        local text = table.concat(lines, "\n") .. "\n"
        result.LogResult = base64(text:sub(-4096))
      end
    end
    if p.CaptureResponseURL == true then
      result.CapturedResponses = {}
      for i, body in ipairs(out.responses) do result.CapturedResponses[i] = r.decode_json(body) or body end
    end
    if p.DeliverResponses == true then
      for _, body in ipairs(out.responses) do
        sim().call("custom_resources", "Deliver", { Response = r.decode_json(body) or body })
      end
    end
    return result
  end
end
