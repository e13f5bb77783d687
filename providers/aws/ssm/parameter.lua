-- AWS::SSM::Parameter against the simulated Parameter Store.
--
-- Update behaviours: Name is Replacement, every other property No
-- interruption (aws-resource-ssm-parameter.md in
-- awsdocs/aws-cloudformation-user-guide; the registry schema's only
-- createOnlyProperty is Name). Tags are a map (Json), not a list.
-- Ref is the name; Fn::GetAtt gives Type and Value.
-- Without Name, the name is "CFN-<logical>-<12 random>" within 40
-- characters, as the resource's handler makes it
-- (aws-cloudformation-resource-providers-ssm, CreateHandler:
-- generateResourceIdentifier("CFN-" + logical ID, token)); real names look
-- like "CFN-ADPassword-RaW3KZCsUoag".
-- CloudFormation cannot create SecureString parameters; the handler's
-- message is used. Like CloudFormation, the provider adds the
-- aws:cloudformation:stack-name / logical-id / stack-id tags.
-- An update overwrites the parameter (a new version) when anything but Tags
-- changed, and adds / removes tags with the tag actions.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local tags = require("moonstack.tags")

local MAX_GENERATED = 40

local function gone(err) return type(err) == "table" and err.code == "ParameterNotFound" end

local function tag_list(map)
  local keys = {}
  for k in pairs(map or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for i, k in ipairs(keys) do out[i] = { Key = k, Value = map[k] } end
  return out
end

local function put(ssm, name, props, overwrite, tags)
  return ssm.PutParameter {
    Name = name, Value = props.Value, Type = props.Type, Description = props.Description,
    AllowedPattern = props.AllowedPattern, Tier = props.Tier, DataType = props.DataType,
    Policies = props.Policies, Overwrite = overwrite, Tags = tags,
  }
end

return P.define {
  type = "AWS::SSM::Parameter",
  properties = {
    P.string "AllowedPattern" { update = "none" },
    P.string "DataType" { allowed = { "text", "aws:ec2:image" }, update = "none" },
    P.string "Description" { update = "none" },
    P.string "Name" { update = "replace" },
    P.string "Policies" { update = "none" },
    P.map(P.string) "Tags" { update = "none" },
    P.string "Tier" { allowed = { "Standard", "Advanced", "Intelligent-Tiering" }, update = "none" },
    P.string "Type" { required = true, allowed = { "String", "StringList", "SecureString" }, update = "none" },
    P.string "Value" { required = true, update = "none" },
  },
  attributes = { "Type", "Value" },

  create = function(ctx, props)
    if props.Type == "SecureString" then
      P.fail("SSM Parameters of type SecureString cannot be created using CloudFormation", "InvalidRequest")
    end
    local name = props.Name or names.prefixed("CFN-" .. tostring(ctx.logical_id), MAX_GENERATED)
    put(ctx.world.ssm, name, props, false, tag_list(tags.for_resource(ctx, props.Tags)))
    return { id = name, attributes = { Type = props.Type, Value = props.Value } }
  end,

  update = function(ctx, id, new, old, changed)
    if new.Type == "SecureString" then
      P.fail("SSM Parameters of type SecureString cannot be created using CloudFormation", "InvalidRequest")
    end
    local ssm = ctx.world.ssm
    local rewrite = false
    for _, prop in ipairs(changed) do
      if prop ~= "Tags" then rewrite = true end
    end
    if rewrite then
      -- "" clears what the template no longer sets (left out, the
      -- parameter would keep its old description and pattern).
      local props = {}
      for k, v in pairs(new) do props[k] = v end
      props.Description = new.Description or ""
      props.AllowedPattern = new.AllowedPattern or ""
      put(ssm, id, props, true, nil)
    end
    -- Its own tags over the stack's (both may have changed: UpdateStack's Tags).
    local add, remove = tags.update_diff(ctx, old.Tags, new.Tags)
    if #remove > 0 then
      ssm.RemoveTagsFromResource { ResourceType = "Parameter", ResourceId = id, TagKeys = remove }
    end
    if next(add) ~= nil then
      ssm.AddTagsToResource { ResourceType = "Parameter", ResourceId = id, Tags = tag_list(add) }
    end
    return { attributes = { Type = new.Type, Value = new.Value } }
  end,

  delete = function(ctx, id)
    local ok, err = pcall(ctx.world.ssm.DeleteParameter, { Name = id })
    if not ok and not gone(err) then error(err, 0) end
  end,

  read = function(ctx, id)
    local ssm = ctx.world.ssm
    local r, err = require("sim").attempt(ssm.GetParameter, { Name = id })
    if err ~= nil then
      if gone(err) then return nil end
      error(err, 0)
    end
    local p = r.Parameter
    local meta = ssm.DescribeParameters {
      ParameterFilters = { { Key = "Name", Option = "Equals", Values = { id } } },
    }.Parameters[1] or {}
    local tags = {}
    for _, t in ipairs(ssm.ListTagsForResource { ResourceType = "Parameter", ResourceId = id }.TagList) do
      if t.Key:sub(1, 19) ~= "aws:cloudformation:" then tags[t.Key] = t.Value end
    end
    return {
      properties = {
        Name = p.Name, Type = p.Type, Value = p.Value, DataType = p.DataType,
        Description = meta.Description, AllowedPattern = meta.AllowedPattern, Tier = meta.Tier,
        Tags = next(tags) ~= nil and tags or nil,
      },
      attributes = { Type = p.Type, Value = p.Value },
    }
  end,
}
