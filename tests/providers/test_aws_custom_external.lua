-- Custom resources answered from outside moonstack (sim/custom_resources.lua):
-- with an endpoint set, a ServiceToken naming no custom/<name>.lua handler
-- posts its request with a ResponseURL on that endpoint and waits for the
-- response, in virtual time; without one, AWS's "Function ... doesn't exist".
local H = require("harness")
local P = require("moonstack.provider")
local T = H.suite("custom resources answered from outside")

local path = MOONSTACK_ROOT .. "/providers/aws/cloudformation/custom_resource.lua"
P.set_source(path)
local CUSTOM = dofile(path)
P.set_source(nil)

local STACK = "arn:aws:cloudformation:us-east-1:123456789012:stack/web/6a1f0b60-0000-4000-8000-000000000001"
local TOKEN = "arn:aws:lambda:us-east-1:123456789012:function:outside"

local function context(sim)
  return { stack_name = "web", stack_id = STACK, logical_id = "Thing", region = "us-east-1",
           account = "123456789012", resource_type = "Custom::Thing", world = sim.client() }
end

-- Calls the hook until it finishes; `answer(request)` runs once per pending
-- request (returning nil leaves it unanswered).
local function run(world, sim, hook, ctx, answer, ...)
  ctx.progress = nil
  for _ = 1, 10000 do
    local pending = sim.client().custom_resources.ListRequests({}).Requests
    if answer and pending[1] then
      local response = answer(pending[1])
      if response then sim.client().custom_resources.Respond({ RequestId = pending[1].RequestId, Response = response }) end
    end
    ctx.now_ms = world.now_ms()  -- as the engine sets it per call
    local r = CUSTOM:check_result(hook, CUSTOM[hook](ctx, ...))
    if not P.is_in_progress(r) then return r end
    ctx.progress = r.context
    world.set_now_ms(world.now_ms() + r.after * 1000)
  end
  error("hook never finished")
end

T.case("without an endpoint a missing handler is AWS's missing function", function()
  local world, sim = fresh()
  local ctx = context(sim)
  H.raises(function() run(world, sim, "create", ctx, nil, { ServiceToken = TOKEN }) end,
    "Template error: Function outside doesn't exist")
end)

T.case("with an endpoint the request waits for its response through the ResponseURL", function()
  local world, sim = fresh()
  sim.client().custom_resources.SetEndpoint({ Url = "http://127.0.0.1:4581" })
  local ctx = context(sim)
  local seen
  local r = run(world, sim, "create", ctx, function(req)
    seen = req
    return { Status = "SUCCESS", PhysicalResourceId = "outside-1", Data = { Greeting = "hi " .. req.ResourceProperties.Name } }
  end, { ServiceToken = TOKEN, Name = "you" })
  H.eq(r.id, "outside-1")
  H.same(r.attributes, { Greeting = "hi you" })
  H.eq(seen.RequestType, "Create")
  H.eq(seen.ResponseURL, "http://127.0.0.1:4581/moonstack/custom-resource-response/" .. seen.RequestId)
  H.same(sim.client().custom_resources.ListRequests({}).Requests, {})
  -- A second answer is refused, as S3 refuses a used presigned URL here.
  local e = H.raises(function()
    sim.client().custom_resources.Respond({ RequestId = seen.RequestId, Response = { Status = "SUCCESS" } })
  end, "This request has been answered already")
  H.eq(e.code, "AccessDenied")
end)

T.case("a FAILED response fails the hook with CloudFormation's message", function()
  local world, sim = fresh()
  sim.client().custom_resources.SetEndpoint({ Url = "http://127.0.0.1:4581" })
  local ctx = context(sim)
  local id
  local ok, err = pcall(run, world, sim, "create", ctx, function(req)
    id = req.RequestId
    return { Status = "FAILED", Reason = "nope" }
  end, { ServiceToken = TOKEN })
  H.eq(ok, false)
  H.eq(P.error_message(err),
    "Received response status [FAILED] from custom resource. Message returned: nope (RequestId: " .. id .. ")")
end)

T.case("no response within ServiceTimeout: CloudFormation's no-response failure, after that much clock time", function()
  local world, sim = fresh()
  sim.client().custom_resources.SetEndpoint({ Url = "http://127.0.0.1:4581" })
  local ctx = context(sim)
  world.set_now_ms(1000000)
  local ok, err = pcall(run, world, sim, "create", ctx, function() return nil end,
    { ServiceToken = TOKEN, ServiceTimeout = "60" })
  H.eq(ok, false)
  H.match(P.error_message(err), "^CloudFormation did not receive a response from your Custom Resource")
  H.eq(world.now_ms(), 1000000 + 60 * 1000)
end)


T.case("ListRequests: the unanswered requests oldest first, read from their own list (answered ones stay for GetResponse)", function()
  local world, sim = fresh()
  local cr = sim.client().custom_resources
  cr.SetEndpoint({ Url = "http://127.0.0.1:4581" })
  local function post(id, at)
    world.set_now_ms(at)
    cr.PostRequest({ Request = { RequestId = id, RequestType = "Create" } })
  end
  post("c", 1000)
  post("a", 2000)
  post("b", 2000)
  post("d", 3000)
  post("a", 4000)  -- posted again (a retried call): still its first posting
  local function ids()
    local out = {}
    for _, r in ipairs(cr.ListRequests({}).Requests) do out[#out + 1] = r.RequestId end
    return out
  end
  H.same(ids(), { "c", "a", "b", "d" })
  cr.Respond({ RequestId = "a", Response = { Status = "SUCCESS" } })
  cr.Deliver({ Response = { RequestId = "d", Status = "FAILED", Reason = "no" } })
  H.same(ids(), { "c", "b" })
  H.same(world.ids("cloudformation.custom_request_pending"), { "000000000001000:c", "000000000002000:b" })
  H.same(cr.GetResponse({ RequestId = "a" }).Response, { Status = "SUCCESS" })
  H.same(cr.GetResponse({ RequestId = "d" }).Response, { RequestId = "d", Status = "FAILED", Reason = "no" })
  -- A response for a request never posted here is kept, and lists nothing.
  cr.Deliver({ Response = { RequestId = "z", Status = "SUCCESS" } })
  H.same(ids(), { "c", "b" })
  H.same(cr.GetResponse({ RequestId = "z" }).Response, { RequestId = "z", Status = "SUCCESS" })
end)

return T
