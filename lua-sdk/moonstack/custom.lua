-- moonstack.custom: CloudFormation's custom-resource protocol, for the
-- AWS::CloudFormation::CustomResource / Custom::* provider
-- (providers/aws/cloudformation/custom_resource.lua) and for handler authors.
--
-- A handler is a Lua module `custom/<name>.lua` on the provider path that
-- returns `function(request) -> response`. The request and response are
-- CloudFormation's (AWS CloudFormation User Guide, "Custom resource request
-- objects" / "Custom resource response objects"):
--
--   request  RequestType ("Create"|"Update"|"Delete"), ResponseURL, StackId,
--            RequestId, ResourceType, LogicalResourceId, PhysicalResourceId
--            (Update, Delete), ResourceProperties (ServiceToken included),
--            OldResourceProperties (Update). Every scalar in the properties is
--            a STRING, as CloudFormation sends them: true -> "true", 10 -> "10"
--            (seed 001: "Boolean properties are stringified").
--   response Status ("SUCCESS"|"FAILED"), Reason (required for FAILED),
--            PhysicalResourceId, Data (name -> value, read by Fn::GetAtt),
--            NoEcho. StackId, RequestId and LogicalResourceId may be echoed;
--            they are not needed here.
--
--   local custom = require("moonstack.custom")
--   return function(request)
--     if request.RequestType == "Delete" then return custom.success(request) end
--     return custom.success(request, { data = { Greeting = "hello " .. request.ResourceProperties.Name } })
--   end

local values = require("moonstack.values")
local ids = require("moonstack.ids")

local M = {}

-- AWS's texts -----------------------------------------------------------------------

---A FAILED response. The " (RequestId: ...)" suffix is CloudFormation's: it
---follows reasons that cfn-response sends without it (e.g. "See the details in
---CloudWatch Log Stream: ..." in aws-samples/amazon-connect-contact-surveys#4).
---@param reason string
---@param request_id string
---@return string
function M.failed_message(reason, request_id)
  return "Received response status [FAILED] from custom resource. Message returned: " .. (reason or "")
      .. " (RequestId: " .. request_id .. ")"
end

---The handler answered nothing (raised, returned no response): CloudFormation
---waits for the timeout, then fails with this (seen verbatim in
---aws-samples/aws-ai-intelligent-document-processing#51 and others).
---@param request_id string
---@return string
function M.no_response_message(request_id)
  return "CloudFormation did not receive a response from your Custom Resource. Please check your logs for requestId ["
      .. request_id .. "]. If you are using the Python cfn-response module, you may need to update your Lambda "
      .. "function code so that CloudFormation can attach the updated version."
end

---The ServiceToken's function does not exist (aws/aws-cli#4488: "Template
---error: Function <name> doesn't exist" for a Custom:: resource whose Lambda
---was deleted).
---@param name string
---@return string
function M.missing_function_message(name)
  return "Template error: Function " .. name .. " doesn't exist"
end

---A ServiceToken changed by an update (as CloudFormation words it).
M.SERVICE_TOKEN_CHANGED = "Modifying service token is not allowed."

---How long CloudFormation waits for a response when ServiceTimeout is not
---set: 3600 seconds (the AWS::CloudFormation::CustomResource reference).
M.DEFAULT_TIMEOUT = 3600

-- Deterministic IDs -------------------------------------------------------------------

-- Canonical text of plain data, keys sorted: equal values, equal text.
local function canonical(v, out)
  local t = type(v)
  if t == "table" and not values.is_null(v) then
    out[#out + 1] = "{"
    for _, k in ipairs(values.sorted_keys(v)) do
      out[#out + 1] = tostring(k)
      out[#out + 1] = "="
      canonical(v[k], out)
      out[#out + 1] = ","
    end
    out[#out + 1] = "}"
  elseif t == "number" then
    out[#out + 1] = values.number_to_string(v)
  elseif values.is_null(v) then
    out[#out + 1] = "null"
  else
    out[#out + 1] = t:sub(1, 1) .. ":" .. tostring(v)
  end
  return out
end

---Canonical text of a plain value (sorted keys): a seed for moonstack.ids,
---so IDs derived from the same inputs are the same on every run.
---@param v any
---@return string
function M.canonical(v) return table.concat(canonical(v, {})) end

---A version-4-shaped UUID that is a function of `parts` (any plain data):
---RequestIds replay identically, and differ whenever a request differs
---(type, properties, clock, physical ID).
---@param parts table
---@return string
function M.uuid_of(parts) return ids.new(M.canonical(parts)):uuid() end

-- Requests --------------------------------------------------------------------------

local function number_text(t, k, v)
  -- The host remembers a number's text as written in the template ("1.50")
  -- in the table's metatable; CloudFormation passes that text.
  local mt = getmetatable(t)
  local texts = type(mt) == "table" and rawget(mt, "__numtext") or nil
  local text = type(texts) == "table" and texts[k] or nil
  if type(text) == "string" and tonumber(text) == v then return text end
  return values.number_to_string(v)
end

-- Stringified copy of a table's entries.
local function stringify_table(t)
  local out = {}
  for k, v in pairs(t) do
    if type(v) == "number" then out[k] = number_text(t, k, v)
    elseif type(v) == "boolean" then out[k] = v and "true" or "false"
    elseif type(v) == "table" and not values.is_null(v) then out[k] = stringify_table(v)
    else out[k] = v end
  end
  -- Keep the host's array/object marker (an empty list stays a list).
  local mt = getmetatable(t)
  if type(mt) == "table" and rawget(mt, "__jsontype") ~= nil then
    pcall(setmetatable, out, { __jsontype = rawget(mt, "__jsontype") })
  end
  return out
end

---A copy of `v` with every boolean and number turned into a string, as
---CloudFormation hands properties to a custom resource. JSON null stays.
---@param v any
---@return any
function M.stringify(v)
  if type(v) == "number" then return values.number_to_string(v) end
  if type(v) == "boolean" then return v and "true" or "false" end
  if type(v) == "table" and not values.is_null(v) then return stringify_table(v) end
  return v
end

---The handler a ServiceToken names: a Lambda function ARN
---(arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]), an SNS
---topic ARN (arn:aws:sns:<region>:<account>:<topic>) or a plain name. Returns
---the name, or nil when the token is none of those.
---@param token string
---@return string?
function M.handler_name(token)
  if type(token) ~= "string" then return nil end
  local name = token:match("^arn:[%w%-]+:lambda:[%w%-]*:%d*:function:([%w_%-]+)$")
      or token:match("^arn:[%w%-]+:lambda:[%w%-]*:%d*:function:([%w_%-]+):[%w_%$%-]+$")
      or token:match("^arn:[%w%-]+:sns:[%w%-]*:%d*:([%w_%-]+)$")
      or token:match("^([%w_%-]+)$")
  return name
end

-- "us-east-1" -> "useast1", as in CloudFormation's response bucket names.
local function compact_region(region) return (region:gsub("%-", "")) end

local function url_encode(s)
  return (s:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", c:byte()) end))
end

---The request CloudFormation would send. `opts`: request_type, request_id,
---stack_id, region, resource_type, logical_id, physical_id (Update, Delete),
---properties, old_properties (Update). Properties are stringified here.
---ResponseURL is a placeholder in the shape of CloudFormation's presigned S3
---URL; nothing listens there: the handler's return value is the response.
---@param opts table
---@return table
function M.request(opts)
  local req = {
    RequestType = opts.request_type,
    ResponseURL = "https://cloudformation-custom-resource-response-" .. compact_region(opts.region or "us-east-1")
        .. ".s3.amazonaws.com/" .. url_encode((opts.stack_id or "") .. "|" .. (opts.logical_id or "") .. "|"
        .. (opts.request_id or "")),
    StackId = opts.stack_id,
    RequestId = opts.request_id,
    ResourceType = opts.resource_type,
    LogicalResourceId = opts.logical_id,
    ResourceProperties = M.stringify(opts.properties or {}),
  }
  if opts.request_type ~= "Create" then req.PhysicalResourceId = opts.physical_id end
  if opts.request_type == "Update" then req.OldResourceProperties = M.stringify(opts.old_properties or {}) end
  return req
end

-- Responses -------------------------------------------------------------------------

---A SUCCESS response to `request`. opts: physical_id (default: the request's,
---on Create none: the provider then makes one up), data, no_echo.
---@param request table
---@param opts { physical_id: string?, data: table?, no_echo: boolean? }?
---@return table
function M.success(request, opts)
  opts = opts or {}
  return {
    Status = "SUCCESS",
    PhysicalResourceId = opts.physical_id or request.PhysicalResourceId,
    StackId = request.StackId, RequestId = request.RequestId, LogicalResourceId = request.LogicalResourceId,
    Data = opts.data, NoEcho = opts.no_echo,
  }
end

---A FAILED response to `request` with `reason`.
---@param request table
---@param reason string
---@return table
function M.failed(request, reason)
  return {
    Status = "FAILED", Reason = reason, PhysicalResourceId = request.PhysicalResourceId,
    StackId = request.StackId, RequestId = request.RequestId, LogicalResourceId = request.LogicalResourceId,
  }
end

local RESPONSE_FIELDS = {
  Status = true, Reason = true, PhysicalResourceId = true, Data = true, NoEcho = true,
  StackId = true, RequestId = true, LogicalResourceId = true,
}

---Checks a handler's response; returns nil and why when it is not one.
---@param r any
---@return table? response
---@return string? why
function M.check_response(r)
  if type(r) ~= "table" then return nil, "the response must be a table, got " .. type(r) end
  for k in pairs(r) do
    if not RESPONSE_FIELDS[k] then return nil, string.format('unknown response field "%s"', tostring(k)) end
  end
  if r.Status ~= "SUCCESS" and r.Status ~= "FAILED" then
    return nil, "Status must be SUCCESS or FAILED, got " .. tostring(r.Status)
  end
  if r.PhysicalResourceId ~= nil and (type(r.PhysicalResourceId) ~= "string" or r.PhysicalResourceId == "") then
    return nil, "PhysicalResourceId must be a non-empty string"
  end
  -- "can be up to 1 KB in size" (Custom resource response objects).
  if type(r.PhysicalResourceId) == "string" and #r.PhysicalResourceId > 1024 then
    return nil, "PhysicalResourceId is longer than 1 KB"
  end
  if r.Data ~= nil and not values.is_object(r.Data) then return nil, "Data must be an object" end
  if r.Reason ~= nil and type(r.Reason) ~= "string" then return nil, "Reason must be a string" end
  return r
end

return M
