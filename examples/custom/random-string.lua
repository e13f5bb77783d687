-- A custom-resource handler: a random-looking string, deterministic for a
-- given stack, resource and properties (so a deployment replays exactly).
-- examples/templates/custom-resource.yaml uses it as Custom::RandomString
-- with ServiceToken arn:aws:lambda:<region>:<account>:function:random-string;
-- deploy that template with `--providers examples` so custom/random-string.lua
-- is found.
--
-- Properties (CloudFormation sends every one as a string):
--   Length     "1".."128", default "16"
--   Lowercase  "true" for lower-case letters and digits only
-- Data (Fn::GetAtt): Value, Length.
-- A different Length or Lowercase makes a different string, answered with a
-- new PhysicalResourceId: CloudFormation then deletes the old one in cleanup.
local custom = require("moonstack.custom")
local ids = require("moonstack.ids")

local LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

return function(request)
  if request.RequestType == "Delete" then
    return custom.success(request)  -- nothing was created anywhere: nothing to clean up
  end
  local props = request.ResourceProperties
  local text = props.Length or "16"
  local length = tonumber(text)
  if not length or length < 1 or length > 128 or length % 1 ~= 0 then
    return custom.failed(request, "Length must be a whole number from 1 to 128, got " .. text)
  end
  local lower = props.Lowercase == "true"
  local g = ids.new(table.concat({ request.StackId, request.LogicalResourceId, text, tostring(lower) }, "|"))
  local chars = {}
  for i = 1, length do
    local k = g:int(#LETTERS) + 1
    chars[i] = LETTERS:sub(k, k)
  end
  local value = table.concat(chars)
  if lower then value = value:lower() end
  return custom.success(request, {
    physical_id = "random-" .. ids.new(value):hex(12),
    data = { Value = value, Length = text },
  })
end
