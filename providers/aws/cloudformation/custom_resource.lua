-- AWS::CloudFormation::CustomResource, and every Custom::<Name> type (the
-- host maps them all to this provider): CloudFormation's custom-resource
-- protocol, with the handler written in Lua.
--
-- ServiceToken names the handler: a Lambda ARN
-- arn:aws:lambda:<region>:<account>:function:<name>, an SNS topic ARN
-- arn:aws:sns:<region>:<account>:<name>, or a plain name. The handler is the
-- module `custom/<name>.lua` on the provider path (directories named
-- `custom` are never loaded as providers), returning
-- `function(request) -> response` (see lua-sdk/moonstack/custom.lua for both
-- shapes). Without one, a function of that name in the simulated Lambda
-- (created by this stack or before) is invoked with the request and runs
-- locally (python3/node: host/lambda/); its answer is what it PUTs to the
-- ResponseURL (cfnresponse / cfn-response). Without either, under `serve`,
-- the request waits for a handler outside moonstack (sim/custom_resources.lua).
-- Every other property is free-form and reaches the handler stringified, in
-- ResourceProperties.
--
-- What CloudFormation does, and so this provider:
--   - any property change is an Update request (no interruption); changing
--     ServiceToken fails with "Modifying service token is not allowed.";
--   - an Update whose response carries another PhysicalResourceId replaced
--     the resource: the old one gets a Delete in cleanup (replaces_in_update);
--   - update rollback is an Update with ResourceProperties = the old ones and
--     OldResourceProperties = the new ones (seed 001), i.e. the default rollback;
--   - Fn::GetAtt reads the response's Data, any key (any_attributes);
--   - a FAILED response fails the resource with "Received response status
--     [FAILED] from custom resource. Message returned: <Reason> (RequestId: <id>)";
--   - a handler that raises or answers nothing is a Lambda that never sent its
--     response: after ServiceTimeout seconds (default 3600, virtual time in
--     tests) the resource fails with CloudFormation's "did not receive a
--     response" message;
--   - a ServiceToken whose function does not exist fails with "Template error:
--     Function <name> doesn't exist"; one that exists under --no-lambda fails
--     with "Function <name> was not run: Lambda execution is turned off (--no-lambda)".
-- PhysicalResourceId on Create, when the response has none: cfn-response
-- (AWS's helper for Lambda handlers) sends the Lambda log stream name, e.g.
-- "2024/01/31/[$LATEST]0123456789abcdef0123456789abcdef"; moonstack makes one
-- of that shape from the clock's date and a hash of the request. RequestIds
-- are hashes of the request too, so a run replays with the same IDs. On
-- Update and Delete a response without one keeps the current id.
-- NoEcho is accepted and not acted upon (the engine does not mask outputs yet).

local P = require("moonstack.provider")
local custom = require("moonstack.custom")
local values = require("moonstack.values")

local TYPE = "AWS::CloudFormation::CustomResource"

local function now_ms(ctx)
  return type(ctx.now_ms) == "number" and ctx.now_ms or 0
end

local function nonempty(s, default)
  if type(s) == "string" and s ~= "" then return s end
  return default
end

-- The stack's ARN; a stand-in when the hook runs outside a stack (tests).
local function stack_id(ctx)
  return nonempty(ctx.stack_id, "arn:aws:cloudformation:" .. nonempty(ctx.region, "us-east-1") .. ":"
      .. nonempty(ctx.account, "123456789012") .. ":stack/" .. nonempty(ctx.stack_name, "stack")
      .. "/00000000-0000-4000-8000-000000000000")
end

-- cfn-response's default PhysicalResourceId: the Lambda log stream name,
-- "<date>/[$LATEST]<32 hex>"; the hex is derived from the request.
local function log_stream_name(ctx, request_id)
  local date = os.date("!%Y/%m/%d", math.floor(now_ms(ctx) / 1000))
  return date .. "/[$LATEST]" .. (custom.uuid_of({ "log stream", request_id }):gsub("%-", ""))
end

local function timeout_seconds(props)
  local t = tonumber(props.ServiceTimeout)
  if t and t >= 1 and t <= 3600 then return t end
  return custom.DEFAULT_TIMEOUT
end

-- The endpoint answering custom-resource requests from outside (the
-- server's, sim/custom_resources.lua), or nil.
local function external_endpoint(ctx)
  local ok, r = pcall(function() return ctx.world.custom_resources.GetEndpoint {} end)
  if ok and type(r) == "table" and type(r.Url) == "string" and r.Url ~= "" then return r.Url end
  return nil
end

-- The simulated Lambda function a ServiceToken names, when it exists.
local function lambda_function(token, ctx)
  local ok, c = pcall(function() return ctx.world.lambda.GetFunctionConfiguration { FunctionName = token } end)
  return ok and type(c) == "table" and c or nil
end

-- Whether Lambda functions run here (not under --no-lambda, and a host that
-- has the runner: host/lua/lambda_binding.h). They run through the
-- simulated Lambda's Invoke, never the runner itself.
local function lambda_runs()
  local ok, lambda = pcall(require, "moonstack.lambda")
  return ok and lambda.enabled()
end

-- Who answers a ServiceToken's requests, in this order: a Lua handler
-- custom/<name>.lua (returns the handler function and the module name, or
-- nil, the module name and why its code fails to load); a function in the
-- simulated Lambda (nil, its name, nil, "lambda"); the server's endpoint
-- for handlers outside moonstack (nil, module, nil, "external"). Otherwise
-- the failure AWS reports for a function that does not exist, or, for one
-- that exists under --no-lambda, why it was not run.
local function handler_of(token, ctx)
  local name = custom.handler_name(token)
  if not name then P.fail(custom.missing_function_message(tostring(token)), "NotFound") end
  local module = "custom." .. name
  local ok, h = pcall(require, module)
  if not ok then
    local m = P.error_message(h)
    if m:find("module '" .. module .. "' not found", 1, true) then
      local fn = lambda_function(token, ctx)
      if fn and lambda_runs() then return nil, fn.FunctionName, nil, "lambda" end
      if external_endpoint(ctx) then return nil, module, nil, "external" end
      if fn then
        P.fail("Function " .. fn.FunctionName .. " was not run: Lambda execution is turned off (--no-lambda)",
          "NotFound")
      end
      P.fail(custom.missing_function_message(name), "NotFound")
    end
    return nil, module, m  -- the handler's code fails to load: it never answers
  end
  if type(h) == "table" and type(h.handler) == "function" then h = h.handler end
  if type(h) ~= "function" then
    return nil, module, "custom/" .. name .. ".lua must return function(request) -> response"
  end
  return h, module
end

-- How often a request answered from outside is looked at (seconds of clock time).
local EXTERNAL_POLL_SECONDS = 1

-- The checked response: a FAILED one fails the hook.
local function checked(r, module, request)
  local response, why = custom.check_response(r)
  if not response then
    -- Not AWS's wording: AWS rejects a malformed response body in its own terms.
    P.fail("Invalid response from " .. module .. " to " .. request.RequestType .. " request " .. request.RequestId
      .. ": " .. why, "InvalidRequest")
  end
  if response.Status == "FAILED" then
    P.fail(custom.failed_message(response.Reason, request.RequestId), "GeneralServiceException")
  end
  return response
end

-- A request answered from outside: its response once it came, else waiting
-- until ServiceTimeout.
local function await_external(ctx, wait)
  local got = ctx.world.custom_resources.GetResponse { RequestId = wait.request.RequestId }
  if got.Response == nil then
    if now_ms(ctx) >= wait.deadline_ms then
      P.fail(custom.no_response_message(wait.request.RequestId), "NotStabilized")
    end
    return P.in_progress({ after = EXTERNAL_POLL_SECONDS, context = wait })
  end
  return checked(got.Response, wait.request.ResponseURL, wait.request), wait.request
end

-- A response a later invocation sends (the Provider framework's isComplete
-- or onTimeout, run by a Step Functions execution: sim.custom_resources'
-- Deliver): each poll runs the simulated cloud's background work up to now
-- (sim/background.lua), then looks for the response; the next poll is when
-- that work is next due (at least a second later), and without a response
-- by ServiceTimeout the resource fails as CloudFormation's does.
local function await_late(wait, ctx)
  local due_ms = ctx.world.background.Run {}.NextDueMs
  local got = ctx.world.custom_resources.GetResponse { RequestId = wait.request.RequestId }
  if got.Response ~= nil then
    local response = got.Response
    for k, v in pairs(response) do
      if values.is_null(v) then response[k] = nil end
    end
    return checked(response, "function " .. wait.name, wait.request), wait.request
  end
  local now = now_ms(ctx)
  if now >= wait.deadline_ms then
    P.log(ctx).error("function " .. wait.name .. ": no response to " .. wait.request.RequestType .. " request "
      .. wait.request.RequestId .. " (see its log group /aws/lambda/" .. wait.name .. ")")
    P.fail(custom.no_response_message(wait.request.RequestId), "NotStabilized")
  end
  local until_ms = wait.deadline_ms
  if due_ms and due_ms < until_ms then until_ms = due_ms end
  return P.in_progress({ after = math.max(1, math.ceil((until_ms - now) / 1000)), context = wait })
end

-- The request sent to a simulated Lambda function (CloudFormation invokes it
-- asynchronously); its response is what it PUT to the ResponseURL, which
-- the invocation serves itself (sim.lambda's CaptureResponseURL). No
-- response yet (it failed, timed out, never sends one, or a later
-- invocation will: await_late) is CloudFormation's wait until
-- ServiceTimeout; a function that cannot run fails at once.
local function invoke_lambda(ctx, name, request, props)
  local ok, r = pcall(function()
    return ctx.world.lambda.Invoke { FunctionName = props.ServiceToken, InvocationType = "Event", Payload = request,
                                     CaptureResponseURL = true }
  end)
  if not ok then P.fail(P.error_message(r), "GeneralServiceException") end
  local response = r.CapturedResponses and r.CapturedResponses[1]
  if type(response) == "table" then
    for k, v in pairs(response) do
      if values.is_null(v) then response[k] = nil end  -- cfnresponse sends "Data": null
    end
    return checked(response, "function " .. name, request), request
  end
  return await_late({ late = true, name = name, request = { RequestId = request.RequestId,
                     RequestType = request.RequestType }, deadline_ms = now_ms(ctx) + timeout_seconds(props) * 1000 },
                     ctx)
end

-- Sends one request and returns the checked response, or P.in_progress while
-- CloudFormation would wait for a response that never comes (or, answered
-- from outside, has not come yet).
local function invoke(ctx, request_type, id, props, old)
  if type(ctx.progress) == "table" and ctx.progress.no_response then
    P.fail(custom.no_response_message(ctx.progress.request_id), "NotStabilized")
  end
  if type(ctx.progress) == "table" and ctx.progress.external then return await_external(ctx, ctx.progress) end
  if type(ctx.progress) == "table" and ctx.progress.late then return await_late(ctx.progress, ctx) end
  local fn, module, load_error, answered_by = handler_of(props.ServiceToken, ctx)
  -- RequestIds are deterministic: a function of everything the request says.
  local request_id = custom.uuid_of({ stack_id(ctx), ctx.logical_id, request_type, id or "", props, old or {},
                                      now_ms(ctx) })
  local request = custom.request({
    request_type = request_type, request_id = request_id, stack_id = stack_id(ctx),
    region = nonempty(ctx.region, "us-east-1"), resource_type = nonempty(ctx.resource_type, TYPE),
    logical_id = ctx.logical_id,
    physical_id = id, properties = props, old_properties = old,
  })
  if answered_by == "lambda" then return invoke_lambda(ctx, module, request, props) end
  if answered_by == "external" then
    -- No Lua handler: posted for a handler outside moonstack, which answers
    -- through the request's ResponseURL, as a Lambda function does.
    request.ResponseURL = ctx.world.custom_resources.PostRequest({ Request = request }).ResponseURL
    return P.in_progress({ after = EXTERNAL_POLL_SECONDS, context = {
      external = true, request = request, deadline_ms = now_ms(ctx) + timeout_seconds(props) * 1000 } })
  end
  local ok, response
  if fn then
    ok, response = pcall(fn, values.deep_copy(request))
  else
    ok, response = false, load_error
  end
  if not ok or response == nil then
    P.log(ctx).error(module .. ": no response to " .. request_type .. " request " .. request.RequestId
      .. (ok and "" or (": " .. P.error_message(response))))
    return P.in_progress({ after = timeout_seconds(props),
                           context = { no_response = true, request_id = request.RequestId } })
  end
  local r = checked(response, module, request)
  if r.NoEcho then P.log(ctx).info(module .. ": NoEcho is not applied to outputs yet") end
  return r, request
end

-- An Update request; another PhysicalResourceId in the response replaced
-- the resource (replaces_in_update).
local function send_update(ctx, id, new, old)
  local r = invoke(ctx, "Update", id, new, old)
  if P.is_in_progress(r) then return r end
  local out = { attributes = r.Data or {} }
  if r.PhysicalResourceId ~= nil and r.PhysicalResourceId ~= id then out.id = r.PhysicalResourceId end
  return out
end

return P.define({
  type = TYPE,
  description = "A custom resource: requests handled by a Lua module custom/<name>.lua",
  properties = {
    P.string "ServiceToken" { required = true, update = "none",
      description = "Lambda or SNS ARN, or a plain name: the handler custom/<name>.lua" },
    P.string "ServiceTimeout" { update = "none",
      description = "Seconds CloudFormation waits for a response (1-3600, default 3600)" },
  },
  additional_properties = "none",
  replaces_in_update = true,
  any_attributes = true,
  -- Seed 001: "If an Update fails, CloudFormation will trigger a second
  -- Update during rollback": a failed update is rolled back too.
  leaves_partial_updates = true,

  create = function(ctx, props)
    local r, request = invoke(ctx, "Create", nil, props, nil)
    if P.is_in_progress(r) then return r end
    return { id = r.PhysicalResourceId or log_stream_name(ctx, request.RequestId), attributes = r.Data or {} }
  end,

  update = function(ctx, id, new, old, changed)
    if new.ServiceToken ~= old.ServiceToken then P.fail(custom.SERVICE_TOKEN_CHANGED, "NotUpdatable") end
    return send_update(ctx, id, new, old)
  end,

  -- The default rollback (an Update back), except after a ServiceToken
  -- change: CloudFormation refused that update before sending anything
  -- (update above), so there is nothing to undo and no request to send
  -- (re-sending it would fail the same way: UPDATE_ROLLBACK_FAILED).
  rollback = function(ctx, id, restore, current, changed)
    if restore.ServiceToken ~= current.ServiceToken then return {} end
    return send_update(ctx, id, restore, current)
  end,

  delete = function(ctx, id, props)
    local r = invoke(ctx, "Delete", id, props, nil)
    if P.is_in_progress(r) then return r end
  end,
})
