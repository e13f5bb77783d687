-- sim.states.paths: the input and output processing of the Amazon States
-- Language — InputPath, Parameters, ResultSelector, ResultPath, OutputPath —
-- with reference paths of the form "$", "$.a.b", "$.list[0]" (what the
-- states' fields take; no filters or wildcards) and "<key>.$" payload
-- templates, plus "$$" (the context object: Execution, State, StateMachine).
local values = require("moonstack.values")

local M = {}

local function copy(v) return type(v) == "table" and values.deep_copy(v) or v end

-- "$.a.b[0]" -> { "a", "b", 1 }, or nil and why.
local function steps(path)
  if type(path) ~= "string" or path:sub(1, 1) ~= "$" then return nil, "not a reference path" end
  local out, rest = {}, path:sub(2)
  while rest ~= "" do
    local key, tail = rest:match("^%.([^%.%[]+)(.*)$")
    if key then
      out[#out + 1] = key
    else
      local index
      index, tail = rest:match("^%[(%d+)%](.*)$")
      if not index then
        key, tail = rest:match("^%['([^']*)'%](.*)$")
        if not key then return nil, "unsupported path " .. path end
        out[#out + 1] = key
      else
        out[#out + 1] = tonumber(index) + 1
      end
    end
    rest = tail
  end
  return out
end

---The value at `path` in `doc`; raises States.Runtime's message when the
---path matches nothing.
function M.get(doc, path, context)
  if path:sub(1, 2) == "$$" then doc, path = context or {}, path:sub(2) end
  local s, why = steps(path)
  if not s then error({ states_error = "States.Runtime", cause = why }, 0) end
  local v = doc
  for _, k in ipairs(s) do
    if type(v) ~= "table" or v[k] == nil then
      error({ states_error = "States.Runtime", cause = "The JSONPath '" .. path
        .. "' could not be found in the input '" .. require("sim.cloudformation_util").json(doc) .. "'" }, 0)
    end
    v = v[k]
  end
  return copy(v)
end

---InputPath / OutputPath: "$" (default) keeps the document, null gives {}.
function M.select(doc, path, context)
  if path == nil then return doc end
  if values.is_null(path) then return {} end
  return M.get(doc, path, context)
end

---A payload template (Parameters, ResultSelector): "<key>.$" fields take
---the value at their path, nested objects are templates too.
function M.template(t, doc, context)
  if type(t) ~= "table" then return t end
  local out = {}
  local meta = getmetatable(t)
  if meta then setmetatable(out, meta) end
  for k, v in pairs(t) do
    if type(k) == "string" and k:sub(-2) == ".$" then
      out[k:sub(1, -3)] = M.get(doc, v, context)
    else
      out[k] = M.template(v, doc, context)
    end
  end
  return out
end

---ResultPath: "$" (default) replaces the input with the result, null
---discards the result, "$.a.b" puts it there in a copy of the input.
function M.merge(input, result, path)
  if path == nil or path == "$" then return result end
  if values.is_null(path) then return input end
  local s, why = steps(path)
  if not s then error({ states_error = "States.Runtime", cause = why }, 0) end
  local doc = type(input) == "table" and values.deep_copy(input) or {}
  local at = doc
  for i = 1, #s - 1 do
    if type(at[s[i]]) ~= "table" then at[s[i]] = {} end
    at = at[s[i]]
  end
  at[s[#s]] = result
  return doc
end

return M
