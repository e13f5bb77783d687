-- AWS::Lambda::Function on the simulated Lambda (sim/lambda.lua): the
-- function's configuration and a hash of its code; no code runs.
-- Update behaviours: FunctionName, PackageType and TenancyConfig are
-- Replacement (the registry schema's create-only properties); everything
-- else No interruption (UpdateFunctionCode for Code, UpdateFunctionConfiguration
-- for the rest). Ref is the function name (generated "<stack>-<logical>-<12>"
-- within 64 characters); Fn::GetAtt Arn.
-- Tags: the stack's, the template's over them, and CloudFormation's
-- aws:cloudformation:* ones, as Lambda's Tags map (tags.for_resource); an
-- update tags and untags the difference; read gives the template's own back.
-- Inline code (Code.ZipFile) is CloudFormation's own: its handler zips the
-- text as index.js or index.py, so it refuses ZipFile for a runtime other
-- than Node.js or Python, or none (check_zip_file below).
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local tags = require("moonstack.tags")
local props_lib = require("lib.service_props")

local CONFIG = { "Architectures", "DeadLetterConfig", "Description", "Environment", "EphemeralStorage", "Handler",
                 "ImageConfig", "KmsKeyArn", "Layers", "LoggingConfig", "MemorySize", "Role", "Runtime", "Timeout",
                 "TracingConfig", "VpcConfig" }

-- What a property left out of the template means to Lambda.
local DEFAULTS = { MemorySize = 128, Timeout = 3 }

local function lambda(ctx) return ctx.world.lambda end

-- Fn::GetAtt: the ARN, and SnapStart as the template asked for it
-- (ApplyOn "None" or "PublishedVersions"; the optimization is "On" then).
local function attributes(arn, props)
  local apply = type(props.SnapStart) == "table" and props.SnapStart.ApplyOn or "None"
  return { Arn = arn, ["SnapStartResponse.ApplyOn"] = apply,
           ["SnapStartResponse.OptimizationStatus"] = apply == "PublishedVersions" and "On" or "Off" }
end

-- The handler's refusals of inline code, before Lambda is called, as
-- CloudFormation words them ("Invalid request provided: The ZipFile
-- attribute is not supported for the runtime 'nodejs14.x'" while that
-- runtime was new, aws-samples/amazon-deequ-glue#7; "... Using the ZipFile
-- attribute requires a runtime to be specified", cfn-lint#1439).
local function check_zip_file(props)
  if type(props.Code) ~= "table" or props.Code.ZipFile == nil then return end
  local runtime = props.Runtime
  if runtime == nil then
    P.fail("Invalid request provided: Using the ZipFile attribute requires a runtime to be specified", "InvalidRequest")
  end
  if not (runtime:match("^nodejs") or runtime:match("^python")) then
    P.fail("Invalid request provided: The ZipFile attribute is not supported for the runtime '" .. runtime .. "'",
      "InvalidRequest")
  end
end

local function gone(err) return type(err) == "table" and err.code == "ResourceNotFoundException" end

local properties = {
  P.json "Code" { required = true, update = "none" },
  P.string "FunctionName" { update = "replace" },
  P.string "PackageType" { allowed = { "Zip", "Image" }, update = "replace" },
  P.json "TenancyConfig" { update = "replace" },
  P.tags "Tags" { update = "none" },
}
for _, name in ipairs({ "CapacityProviderConfig", "CodeSigningConfigArn", "DurableConfig", "FunctionScalingConfig",
                        "PublishToLatestPublished", "RecursiveLoop", "ReservedConcurrentExecutions",
                        "RuntimeManagementConfig", "SnapStart" }) do
  properties[#properties + 1] = P.json(name) { update = "none" }
end
for _, name in ipairs(CONFIG) do
  local required = name == "Role"
  if name == "MemorySize" or name == "Timeout" then
    properties[#properties + 1] = P.integer(name) { update = "none" }
  elseif name == "Architectures" or name == "Layers" then
    properties[#properties + 1] = P.list(P.string)(name) { update = "none" }
  elseif name == "Role" or name == "Runtime" or name == "Handler" or name == "Description" or name == "KmsKeyArn" then
    properties[#properties + 1] = P.string(name) { required = required or nil, update = "none" }
  else
    properties[#properties + 1] = P.json(name) { update = "none" }
  end
end
table.sort(properties, function(a, b) return a.name < b.name end)

return P.define {
  type = "AWS::Lambda::Function",
  properties = properties,
  attributes = { "Arn", "SnapStartResponse.ApplyOn", "SnapStartResponse.OptimizationStatus" },
  primary_identifier = "FunctionName",

  create = function(ctx, props)
    check_zip_file(props)
    local req = {}
    for k, v in pairs(props) do req[k] = v end
    req.FunctionName = props.FunctionName or names.physical(ctx.stack_name, ctx.logical_id, 64)
    req.Tags = tags.for_resource(ctx, props.Tags)
    local c = lambda(ctx).CreateFunction(req)
    return { id = c.FunctionName, attributes = attributes(c.FunctionArn, props) }
  end,

  update = function(ctx, id, new, old, changed)
    check_zip_file(new)
    local config, any = { FunctionName = id }, false
    for _, name in ipairs(changed) do
      if name == "Code" then
        local code = {}
        for k, v in pairs(new.Code) do code[k] = v end
        code.FunctionName = id
        lambda(ctx).UpdateFunctionCode(code)
      elseif name == "Tags" then
        local set, remove = tags.update_diff(ctx, old.Tags, new.Tags)
        local arn = lambda(ctx).GetFunctionConfiguration({ FunctionName = id }).FunctionArn
        if #remove > 0 then lambda(ctx).UntagResource { Resource = arn, TagKeys = remove } end
        if next(set) then lambda(ctx).TagResource { Resource = arn, Tags = set } end
      else
        if new[name] ~= nil then config[name] = new[name] else config[name] = DEFAULTS[name] or "" end
        any = true
      end
    end
    if any then lambda(ctx).UpdateFunctionConfiguration(config) end
    return { attributes = attributes(lambda(ctx).GetFunctionConfiguration({ FunctionName = id }).FunctionArn, new) }
  end,

  delete = function(ctx, id)
    local ok, err = pcall(lambda(ctx).DeleteFunction, { FunctionName = id })
    if not ok and not gone(err) then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local ok, c = pcall(lambda(ctx).GetFunctionConfiguration, { FunctionName = id })
    if not ok then
      if gone(c) then return nil end
      error(c, 0)
    end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    for _, k in ipairs(CONFIG) do if props and props[k] ~= nil then properties[k] = c[k] end end
    properties.Tags = props_lib.own_tags(lambda(ctx).ListTags({ Resource = c.FunctionArn }).Tags)
    if properties.Layers ~= nil then  -- Lambda shows { Arn, CodeSize } each; the template lists ARNs
      local arns = {}
      for i, l in ipairs(c.Layers or {}) do arns[i] = l.Arn end
      properties.Layers = arns
    end
    return { properties = properties, attributes = attributes(c.FunctionArn, props or {}) }
  end,
}
