-- moonstack.tags: CloudFormation's `Tags` property ([{Key=..., Value=...}]).
--
-- Limits are AWS's documented tag restrictions: a key is 1..128 characters
-- and may not start with "aws:" (any letter case), a value is 0..256
-- characters; keys are unique within a resource. Messages are EC2's (the
-- built-in providers are mostly EC2); see moonstack.messages for sources.

local values = require("moonstack.values")
local errors = require("moonstack.errors")
local msg = require("moonstack.messages")

local M = {}

M.MAX_KEY_LENGTH = 128
M.MAX_VALUE_LENGTH = 256

---@class moonstack.Tag
---@field Key string
---@field Value string

---@class moonstack.TagCheckOptions
---@field property string?    property name for messages (default "Tags")
---@field logical_id string?  resource logical ID, for the registry-style wrapper
---@field value_optional boolean? accept a tag without Value (default: Value is required, as in CloudFormation's Tag type)

-- A tag key/value may arrive as a number or boolean (a parameter of type
-- Number, a YAML `true`); CloudFormation turns those into strings.
local function scalar_text(v)
  local t = type(v)
  if t == "string" then return v end
  if t == "number" then return values.number_to_string(v) end
  if t == "boolean" then return tostring(v) end
  return nil
end

---Check a Tags value; return the normalized list (Key/Value as strings,
---original order) or nil and AWS's message.
---@param list any
---@param opts moonstack.TagCheckOptions?
---@return moonstack.Tag[]? tags
---@return string? message
function M.check(list, opts)
  opts = opts or {}
  local prop = opts.property or "Tags"
  local lid = opts.logical_id
  if not values.is_array(list) then
    return nil, msg.must_be_type(prop, "List")
  end
  local out, seen = {}, {}
  for i, tag in ipairs(list) do
    local path = "#/" .. prop .. "/" .. (i - 1) -- JSON-pointer paths count from 0
    if not values.is_object(tag) then
      return nil, msg.must_be_type(prop, "List of Tag")
    end
    -- The first extraneous key in sorted_keys' order, without sorting them all.
    local extra
    for k in pairs(tag) do
      if k ~= "Key" and k ~= "Value" and (extra == nil or values.key_before(k, extra)) then extra = k end
    end
    if extra ~= nil then return nil, msg.schema(lid, msg.extraneous_key(path, extra)) end
    if values.is_absent(tag.Key) then
      return nil, msg.schema(lid, msg.required_key(path, "Key"))
    end
    if values.is_absent(tag.Value) and not opts.value_optional then
      return nil, msg.schema(lid, msg.required_key(path, "Value"))
    end
    local key = scalar_text(tag.Key)
    local value = values.is_absent(tag.Value) and nil or scalar_text(tag.Value)
    if key == nil or (value == nil and not values.is_absent(tag.Value)) then
      return nil, msg.must_be_type(prop, "List of Tag")
    end
    local klen = values.utf8_len(key)
    if klen < 1 then return nil, msg.tag_too_short(i, "key", key, 1) end
    if klen > M.MAX_KEY_LENGTH then return nil, msg.tag_too_long(i, "key", key, M.MAX_KEY_LENGTH) end
    if value and values.utf8_len(value) > M.MAX_VALUE_LENGTH then
      return nil, msg.tag_too_long(i, "value", value, M.MAX_VALUE_LENGTH)
    end
    if key:sub(1, 4):lower() == "aws:" then return nil, msg.tag_reserved(key) end
    if seen[key] then return nil, msg.tag_duplicate(key) end
    seen[key] = true
    out[i] = { Key = key, Value = value }
  end
  return out
end

---Like `check`, but raises AWS's message (code "InvalidRequest").
---@param list any
---@param opts moonstack.TagCheckOptions?
---@return moonstack.Tag[]
function M.validate(list, opts)
  local out, why = M.check(list, opts)
  if not out then errors.fail(why, "InvalidRequest") end
  return out
end

---Tags list -> { [Key] = Value }. A later duplicate wins (call `check` first
---to reject duplicates). nil or JSON null gives an empty map.
---@param list moonstack.Tag[]?
---@return table<string, string>
function M.to_map(list)
  local map = {}
  if values.is_absent(list) then return map end
  for _, tag in ipairs(list) do
    if type(tag) == "table" and tag.Key ~= nil then map[tag.Key] = tag.Value end
  end
  return map
end

---{ [Key] = Value } -> Tags list, sorted by key so the result is
---deterministic.
---@param map table<string, string>?
---@return moonstack.Tag[]
function M.from_map(map)
  local list = {}
  if values.is_absent(map) then return list end
  for _, k in ipairs(values.sorted_keys(map)) do
    list[#list + 1] = { Key = k, Value = map[k] }
  end
  return list
end

---What an update must do to go from `old` to `new` tags (lists or maps):
---`set` holds added and changed keys with their new values, `remove` the
---keys to delete (sorted). Mirrors EC2's CreateTags / DeleteTags.
---@param old moonstack.Tag[]|table<string,string>|nil
---@param new moonstack.Tag[]|table<string,string>|nil
---@return table<string, string> set
---@return string[] remove
function M.diff(old, new)
  local function as_map(x)
    if values.is_absent(x) then return {} end
    if values.is_array(x) then return M.to_map(x) end
    return x
  end
  local o, n = as_map(old), as_map(new)
  local set, remove = {}, {}
  for k, v in pairs(n) do
    if o[k] ~= v then set[k] = v end
  end
  for _, k in ipairs(values.sorted_keys(o)) do
    if n[k] == nil then remove[#remove + 1] = k end
  end
  return set, remove
end

---The tags CloudFormation puts on a taggable resource it creates, as a map:
---the stack's own tags (`ctx.stack_tags`, the stack's --tags as a Tags list,
---when the host passes them), then the resource's tags (list or map; they
---win over a stack tag of the same key), then the reserved
---aws:cloudformation:stack-name / logical-id / stack-id tags, which nothing
---can override. AWS documents this in "Resource tag" (stack-level tags
---propagate to supported resources; aws: prefixed tags are added by
---CloudFormation).
---@param ctx table  hook context (stack_name, logical_id, stack_id, stack_tags)
---@param resource_tags moonstack.Tag[]|table<string,string>|nil
---@return table<string, string>
function M.for_resource(ctx, resource_tags)
  local map = M.to_map(ctx.stack_tags)
  local own = resource_tags
  if not values.is_absent(own) and values.is_array(own) then own = M.to_map(own) end
  if not values.is_absent(own) then
    for k, v in pairs(own) do map[k] = v end
  end
  map["aws:cloudformation:stack-name"] = ctx.stack_name
  map["aws:cloudformation:logical-id"] = ctx.logical_id
  if ctx.stack_id and ctx.stack_id ~= "" then map["aws:cloudformation:stack-id"] = ctx.stack_id end
  return map
end

---The tags CloudFormation puts on a resource of a service that refuses aws:
---tag keys even from CloudFormation (IAM: "System tags with aws: prefix"
---are not allowed): the resource's own tags in their order, then the
---stack's tags (`ctx.stack_tags`) they do not override, in the stack's
---order; no aws:cloudformation:* tags. nil when there are none.
---@param ctx table  hook context (stack_tags)
---@param resource_tags moonstack.Tag[]?
---@return moonstack.Tag[]?
function M.with_stack_tags(ctx, resource_tags)
  local out, own = {}, {}
  if not values.is_absent(resource_tags) then
    for _, t in ipairs(resource_tags) do
      out[#out + 1] = t
      own[t.Key] = true
    end
  end
  if not values.is_absent(ctx.stack_tags) then
    for _, t in ipairs(ctx.stack_tags) do
      if not own[t.Key] then out[#out + 1] = { Key = t.Key, Value = t.Value } end
    end
  end
  return #out > 0 and out or nil
end

---What an update (or its rollback) must do to a resource's tags when they
---are CloudFormation's (`for_resource`): from the tags it was given — its
---old own tags over the stack tags it had (`ctx.old_stack_tags`) — to the
---ones it gets now (`new_tags` over `ctx.stack_tags`). UpdateStack's Tags
---change the stack tags alone: "Tags" is then among the hook's changed
---properties although the resource's own are the same. Without
---ctx.old_stack_tags (not an update hook) the stack tags count as unchanged.
---Returns `diff`'s set and remove; the aws:cloudformation:* tags never change.
---`tags_for` is how the resource got its tags: `for_resource` (default) or
---`with_stack_tags`.
---@param ctx table  hook context (stack_tags, old_stack_tags, ...)
---@param old_tags moonstack.Tag[]|table<string,string>|nil  the old properties' Tags
---@param new_tags moonstack.Tag[]|table<string,string>|nil  the new properties' Tags
---@param tags_for (fun(ctx: table, tags: any): any)?
---@return table<string, string> set
---@return string[] remove
function M.update_diff(ctx, old_tags, new_tags, tags_for)
  tags_for = tags_for or M.for_resource
  local old_ctx = setmetatable({ stack_tags = ctx.old_stack_tags or ctx.stack_tags }, { __index = ctx })
  return M.diff(tags_for(old_ctx, old_tags), tags_for(ctx, new_tags))
end

return M
