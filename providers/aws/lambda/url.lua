-- AWS::Lambda::Url on the simulated Lambda: a function URL
-- (CreateFunctionUrlConfig, sim/lambda_urls.lua).
--
-- Update behaviours (registry schema): TargetFunctionArn and Qualifier
-- Replacement (create-only); AuthType, Cors and InvokeMode No interruption
-- (UpdateFunctionUrlConfig; a Cors removed from the template is removed
-- from the URL). Ref is the function's ARN, qualified by the alias when
-- one is given (primaryIdentifier FunctionArn); Fn::GetAtt FunctionArn and
-- FunctionUrl ("https://<32 characters>.lambda-url.<region>.on.aws/").
-- The function (and its alias) must exist: Lambda's "Function not found:
-- <arn>"; a second URL for the same function and qualifier fails with
-- Lambda's "FunctionUrlConfig exists for this Lambda function".
local P = require("moonstack.provider")
local props_lib = require("lib.service_props")

local function not_found(err) return props_lib.error_code(err) == "ResourceNotFoundException" end

-- The request naming the URL a physical ID (the qualified function ARN) is.
local function target_of(id)
  local name, qualifier = id:match(":function:([^:]+):([^:]+)$")
  if name then return { FunctionName = name, Qualifier = qualifier } end
  return { FunctionName = id:match(":function:([^:]+)$") or id }
end

return P.define {
  type = "AWS::Lambda::Url",
  properties = {
    P.string "TargetFunctionArn" { required = true, update = "replace" },
    P.string "Qualifier" { update = "replace" },
    P.string "AuthType" { required = true, update = "none" },
    P.json "Cors" { update = "none" },
    P.string "InvokeMode" { update = "none" },
  },
  attributes = { "FunctionArn", "FunctionUrl" },

  create = function(ctx, props)
    local r, err = props_lib.call(ctx.world.lambda.CreateFunctionUrlConfig, {
      FunctionName = props.TargetFunctionArn, Qualifier = props.Qualifier, AuthType = props.AuthType,
      Cors = props.Cors, InvokeMode = props.InvokeMode,
    }, { "ResourceNotFoundException", "ResourceConflictException" })
    if err then P.fail(err.message, not_found(err) and "NotFound" or "AlreadyExists") end
    return { id = r.FunctionArn, attributes = { FunctionArn = r.FunctionArn, FunctionUrl = r.FunctionUrl } }
  end,

  update = function(ctx, id, new)
    local req = target_of(id)
    req.AuthType, req.Cors, req.InvokeMode = new.AuthType, new.Cors or {}, new.InvokeMode or "BUFFERED"
    local _, err = props_lib.call(ctx.world.lambda.UpdateFunctionUrlConfig, req, { "ResourceNotFoundException" })
    if err then P.fail(err.message, "NotFound") end
  end,

  -- DeleteFunctionUrlConfig; a URL (or function) already gone is deleted.
  delete = function(ctx, id)
    props_lib.call(ctx.world.lambda.DeleteFunctionUrlConfig, target_of(id), { "ResourceNotFoundException" })
  end,

  read = function(ctx, id, props)
    local r = props_lib.call(ctx.world.lambda.GetFunctionUrlConfig, target_of(id), { "ResourceNotFoundException" })
    if not r then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.AuthType, properties.Cors, properties.InvokeMode = r.AuthType, r.Cors, r.InvokeMode
    if properties.InvokeMode == "BUFFERED" and (props or {}).InvokeMode == nil then properties.InvokeMode = nil end
    return { properties = properties, attributes = { FunctionArn = r.FunctionArn, FunctionUrl = r.FunctionUrl } }
  end,
}
