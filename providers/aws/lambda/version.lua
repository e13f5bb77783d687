-- AWS::Lambda::Version on the simulated Lambda: PublishVersion of the
-- function as it is now ("1", "2", ...; an unchanged function gives its
-- latest version back, as Lambda does). Every property but
-- FunctionScalingConfig is create-only (Replacement: a new version is
-- published; on an unchanged function CloudFormation's "A version for this
-- Lambda function exists ( 1 ). Modify the function to create a new
-- version."). Ref is the version's ARN (arn:…:function:<name>:<n>);
-- Fn::GetAtt Version ("3") and FunctionArn. Delete removes the version
-- (Lambda refuses while an alias points at it).
local P = require("moonstack.provider")

local function gone(err) return type(err) == "table" and err.code == "ResourceNotFoundException" end

local function split(arn) return arn:match("^(.*):([^:]+)$") end

return P.define {
  type = "AWS::Lambda::Version",
  properties = {
    P.string "CodeSha256" { update = "replace" },
    P.string "Description" { update = "replace" },
    P.string "FunctionName" { required = true, update = "replace" },
    P.json "FunctionScalingConfig" { update = "none" },
    P.json "ProvisionedConcurrencyConfig" { update = "replace" },
    P.json "RuntimePolicy" { update = "replace" },
  },
  attributes = { "FunctionArn", "Version" },

  -- Lambda gives the latest version back for an unchanged function;
  -- CloudFormation refuses to call that a new version.
  create = function(ctx, props)
    local existing = {}
    for _, v in ipairs(ctx.world.lambda.ListVersionsByFunction { FunctionName = props.FunctionName }.Versions) do
      existing[v.Version] = true
    end
    local c = ctx.world.lambda.PublishVersion { FunctionName = props.FunctionName, Description = props.Description,
                                                CodeSha256 = props.CodeSha256 }
    if existing[c.Version] then
      P.fail("A version for this Lambda function exists ( " .. c.Version .. " ). Modify the function to create a new "
        .. "version.", "AlreadyExists")
    end
    local fn_arn = split(c.FunctionArn)
    return { id = c.FunctionArn, attributes = { Version = c.Version, FunctionArn = fn_arn } }
  end,

  update = function() end, -- FunctionScalingConfig: nothing to apply in the sim

  delete = function(ctx, id)
    local fn_arn, version = split(id)
    local ok, err = pcall(ctx.world.lambda.DeleteFunction, { FunctionName = fn_arn, Qualifier = version })
    if not ok and not gone(err) then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local fn_arn, version = split(id)
    local ok, c = pcall(ctx.world.lambda.GetFunctionConfiguration, { FunctionName = fn_arn, Qualifier = version })
    if not ok then
      if gone(c) then return nil end
      error(c, 0)
    end
    return { properties = props, attributes = { Version = c.Version, FunctionArn = fn_arn } }
  end,
}
