-- AWS::SecretsManager::Secret on the simulated Secrets Manager
-- (sim/secretsmanager.lua).
--
-- Update behaviours (AWS::SecretsManager::Secret reference): Name
-- Replacement; Description, KmsKeyId, SecretString, GenerateSecretString,
-- ReplicaRegions, Tags No interruption (a new SecretString or
-- GenerateSecretString puts a new AWSCURRENT version). Ref and GetAtt Id are
-- the secret's ARN (with Secrets Manager's 6-character suffix). Without Name
-- the name is "<logical>-<12>", as CloudFormation names secrets.
-- GenerateSecretString draws a password (GetRandomPassword's rules) and,
-- with SecretStringTemplate + GenerateStringKey, puts it under that key of
-- the template's JSON object. Delete removes the secret without a recovery
-- window (ForceDeleteWithoutRecovery), as CloudFormation's handler does.
local P = require("moonstack.provider")
local tags = require("moonstack.tags")
local props_lib = require("lib.service_props")

local MAX_NAME = 512

local function tag_list(ctx, own)
  return tags.from_map(tags.for_resource(ctx, own))
end

-- The SecretString of GenerateSecretString `g`.
local function generated(ctx, g)
  local template, key = g.SecretStringTemplate, g.GenerateStringKey
  if (template == nil) ~= (key == nil) then
    P.fail("Properties validation failed for resource " .. ctx.logical_id .. " with message: "
      .. "[#/GenerateSecretString: SecretStringTemplate and GenerateStringKey must both be specified]",
      "InvalidRequest")
  end
  local password = ctx.world.secretsmanager.GetRandomPassword {
    PasswordLength = g.PasswordLength, ExcludeCharacters = g.ExcludeCharacters, ExcludeLowercase = g.ExcludeLowercase,
    ExcludeNumbers = g.ExcludeNumbers, ExcludePunctuation = g.ExcludePunctuation, ExcludeUppercase = g.ExcludeUppercase,
    IncludeSpace = g.IncludeSpace, RequireEachIncludedType = g.RequireEachIncludedType,
  }.RandomPassword
  if not template then return password end
  local body = template:match("^%s*{(.-)}%s*$")
  if not body then
    P.fail("Secrets Manager can't generate the secret: SecretStringTemplate must be a JSON object.",
      "InvalidRequestException")
  end
  local entry = props_lib.json(key) .. ":" .. props_lib.json(password)
  return "{" .. (body:match("%S") and (body:gsub("%s+$", "") .. ",") or "") .. entry .. "}"
end

local function secret_value(ctx, props)
  if props.SecretString ~= nil and props.GenerateSecretString ~= nil then
    P.fail("You can't specify both SecretString and GenerateSecretString.", "InvalidRequest")
  end
  if props.GenerateSecretString ~= nil then return generated(ctx, props.GenerateSecretString) end
  return props.SecretString
end

return P.define {
  type = "AWS::SecretsManager::Secret",
  properties = {
    P.string "Description" { update = "none" },
    P.map "GenerateSecretString" { update = "none" },
    P.string "KmsKeyId" { update = "none" },
    P.string "Name" { update = "replace" },
    P.list(P.map) "ReplicaRegions" { update = "none" },
    P.string "SecretString" { update = "none" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "Id" },
  primary_identifier = "Id",

  create = function(ctx, props)
    local name = props.Name or require("sim.cloudformation_names").prefixed(ctx.logical_id, MAX_NAME)
    local r, exists = props_lib.call(ctx.world.secretsmanager.CreateSecret, {
      Name = name, Description = props.Description, KmsKeyId = props.KmsKeyId,
      SecretString = secret_value(ctx, props), Tags = tag_list(ctx, props.Tags),
    }, { "ResourceExistsException" })
    if exists then props_lib.already_exists("AWS::SecretsManager::Secret", name) end
    return { id = r.ARN, attributes = { Id = r.ARN } }
  end,

  update = function(ctx, id, new, old, changed)
    local sm = ctx.world.secretsmanager
    local d = props_lib.call(sm.DescribeSecret, { SecretId = id }, { "ResourceNotFoundException" })
    if not d or d.DeletedDate then props_lib.not_found("AWS::SecretsManager::Secret", id) end
    local meta, value = {}, false
    for _, name in ipairs(changed) do
      if name == "Tags" then
        local set, remove = tags.update_diff(ctx, old.Tags, new.Tags)
        if #remove > 0 then sm.UntagResource { SecretId = id, TagKeys = remove } end
        if next(set) then sm.TagResource { SecretId = id, Tags = tags.from_map(set) } end
      elseif name == "SecretString" or name == "GenerateSecretString" then
        value = true
      elseif name == "Description" or name == "KmsKeyId" then
        meta[name] = new[name] or ""
      end
    end
    if value then meta.SecretString = secret_value(ctx, new) end
    if next(meta) then
      meta.SecretId = id
      sm.UpdateSecret(meta)
    end
    return { attributes = { Id = id } }
  end,

  delete = function(ctx, id)
    props_lib.call(ctx.world.secretsmanager.DeleteSecret, { SecretId = id, ForceDeleteWithoutRecovery = true },
      { "ResourceNotFoundException" })
  end,

  read = function(ctx, id, props)
    local d = props_lib.call(ctx.world.secretsmanager.DescribeSecret, { SecretId = id }, { "ResourceNotFoundException" })
    if not d or d.DeletedDate then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    properties.Name = d.Name
    properties.Description = d.Description
    properties.Tags = props_lib.own_tags(d.Tags)
    return { properties = properties, attributes = { Id = d.ARN } }
  end,
}
