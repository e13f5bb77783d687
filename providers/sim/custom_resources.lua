-- sim.custom_resources: custom-resource requests answered from outside
-- moonstack, as a Lambda handler answers them on AWS: through the request's
-- ResponseURL.
--
-- A Custom:: resource whose ServiceToken names no custom/<name>.lua handler,
-- while an endpoint is set (`moonstack serve` sets its own), posts its
-- request here with a ResponseURL on that endpoint and waits for the answer
-- (providers/aws/cloudformation/custom_resource.lua). The test suite's
-- handler reads the pending requests (GET /moonstack/custom-resource-requests
-- on the server) and PUTs its response — cfn-response's JSON {Status, Reason,
-- PhysicalResourceId, StackId, RequestId, LogicalResourceId, NoEcho, Data} —
-- to the ResponseURL (Respond).
--
--   SetEndpoint { Url } -> {}                   the server's base URL ("" unsets it)
--   GetEndpoint {} -> { Url }                   "" when none
--   PostRequest { Request } -> { ResponseURL }  records the request, with its ResponseURL
--   ListRequests {} -> { Requests }             the requests not answered yet, oldest first
--   Respond { RequestId, Response } -> {}       a second answer is refused
--   GetResponse { RequestId } -> { Response }   nil Response while none came
--   Deliver { Response } -> {}                  a response PUT to the ResponseURL a Lambda
--                                               invocation captured (sim/lambda_invoke.lua's
--                                               DeliverResponses), for the request its
--                                               RequestId names; the first answer stands
local world = require("sim.world")

local A = {}

local KIND = "cloudformation.custom_request"
local ENDPOINT_KIND, ENDPOINT_ID = "moonstack.endpoint", "server"
-- The path a ResponseURL has on the server (host/server/cfn_server.cc routes it).
A.RESPONSE_PATH = "/moonstack/custom-resource-response/"

-- The requests not answered yet, by "<PostedMs, 15 digits>:<RequestId>"
-- (no data): ListRequests reads them in order, never the answered ones,
-- which stay for GetResponse.
local PENDING = "cloudformation.custom_request_pending"

local function pending_id(rec) return string.format("%015d", rec.PostedMs) .. ":" .. rec.Request.RequestId end

-- A state saved before the pending list was kept gets it once (its unanswered requests).
A.BACKFILL = { { base = KIND, index = PENDING, id = function(_, rec)
  if rec.Response ~= nil or type(rec.PostedMs) ~= "number" or type(rec.Request) ~= "table"
      or type(rec.Request.RequestId) ~= "string" then
    return nil
  end
  return pending_id(rec)
end } }

-- Records an answer and takes the request off the pending list.
local function answer(request_id, rec, response, now_ms)
  if rec.Request and rec.PostedMs then world.remove(PENDING, pending_id(rec)) end
  rec.Response, rec.RespondedMs = response, now_ms
  world.put(KIND, request_id, rec)
end

local function fail(message, code) require("sim").fail(message, code) end

function A.SetEndpoint(p)
  if type(p.Url) ~= "string" then fail("Url must be a string", "ValidationError") end
  if p.Url == "" then
    world.remove(ENDPOINT_KIND, ENDPOINT_ID)
  else
    world.put(ENDPOINT_KIND, ENDPOINT_ID, { Url = p.Url })
  end
  return {}
end

function A.GetEndpoint()
  local rec = world.get(ENDPOINT_KIND, ENDPOINT_ID)
  return { Url = rec and rec.Url or "" }
end

function A.PostRequest(p, env)
  local req = p.Request
  if type(req) ~= "table" or type(req.RequestId) ~= "string" or req.RequestId == "" then
    fail("Request must be a custom-resource request with a RequestId", "ValidationError")
  end
  local base = A.GetEndpoint().Url
  if base == "" then fail("No endpoint answers custom-resource requests", "ValidationError") end
  req.ResponseURL = base .. A.RESPONSE_PATH .. req.RequestId
  if not world.get(KIND, req.RequestId) then
    local rec = { Request = req, PostedMs = env.now_ms }
    world.put(KIND, req.RequestId, rec)
    world.put(PENDING, pending_id(rec), {}, { live = false })
  end
  return { ResponseURL = req.ResponseURL }
end

function A.ListRequests()
  local out = {}
  for _, id in ipairs(world.ids(PENDING)) do
    local rec = world.get(KIND, id:match("^%d+:(.*)$"))
    if rec and rec.Response == nil then out[#out + 1] = rec.Request end
  end
  return { Requests = out }
end

function A.Respond(p, env)
  local rec = type(p.RequestId) == "string" and world.get(KIND, p.RequestId)
  -- What S3 answers for a presigned URL whose object cannot be written.
  if not rec then fail("Access Denied", "AccessDenied") end
  if rec.Response ~= nil then fail("This request has been answered already", "AccessDenied") end
  if type(p.Response) ~= "table" then fail("The response must be a JSON object", "MalformedResponse") end
  answer(p.RequestId, rec, p.Response, env.now_ms)
  return {}
end

function A.Deliver(p, env)
  local response = p.Response
  if type(response) ~= "table" or type(response.RequestId) ~= "string" or response.RequestId == "" then
    fail("The response must be a JSON object with a RequestId", "MalformedResponse")
  end
  local rec = world.get(KIND, response.RequestId) or {}
  if rec.Response == nil then answer(response.RequestId, rec, response, env.now_ms) end
  return {}
end

function A.GetResponse(p)
  local rec = type(p.RequestId) == "string" and world.get(KIND, p.RequestId)
  return { Response = rec and rec.Response or nil }
end

return A
