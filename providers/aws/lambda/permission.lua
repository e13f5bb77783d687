-- AWS::Lambda::Permission on the simulated Lambda: one statement of the
-- function's resource-based policy (AddPermission). Every property is
-- Replacement (registry schema: all createOnly). Ref is the statement id,
-- generated "<stack>-<logical>-<12>" as CloudFormation names it. The
-- function must exist (Lambda's "Function not found: <arn>").
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local props_lib = require("lib.service_props")

local FIELDS = { "Action", "EventSourceToken", "FunctionName", "FunctionUrlAuthType", "InvokedViaFunctionUrl",
                 "Principal", "PrincipalOrgID", "SourceAccount", "SourceArn" }

local properties = {}
for _, name in ipairs(FIELDS) do
  local required = name == "Action" or name == "FunctionName" or name == "Principal"
  properties[#properties + 1] = name == "InvokedViaFunctionUrl" and P.boolean(name) { update = "replace" }
    or P.string(name) { required = required or nil, update = "replace" }
end

return P.define {
  type = "AWS::Lambda::Permission",
  properties = properties,
  attributes = { "Id" },

  create = function(ctx, props)
    local sid = names.physical(ctx.stack_name, ctx.logical_id, 100)
    local req = { StatementId = sid }
    for _, k in ipairs(FIELDS) do req[k] = props[k] end
    local _, err = props_lib.call(ctx.world.lambda.AddPermission, req, { "ResourceNotFoundException" })
    if err then P.fail(err.message, "NotFound") end
    return { id = sid, attributes = { Id = sid } }
  end,

  delete = function(ctx, id, props)
    props_lib.call(ctx.world.lambda.RemovePermission, { FunctionName = props.FunctionName, StatementId = id },
      { "ResourceNotFoundException" })
  end,

  read = function(ctx, id, props)
    local r = props_lib.call(ctx.world.lambda.GetPolicy, { FunctionName = props.FunctionName },
      { "ResourceNotFoundException" })
    if not r or not r.Policy:find('"Sid":' .. require("sim.cloudformation_util").json_string(id), 1, true) then return nil end
    return { properties = props, attributes = { Id = id } }
  end,
}
