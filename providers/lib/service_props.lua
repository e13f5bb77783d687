-- lib.service_props: what the hand-written service providers (S3, SQS, SNS,
-- Logs, Events, Lambda extras) share.
--
--   props.json_list(P, names, replace, typed)  a property list: each name a
--     P.json property (updated in place), those in `replace` Replacement, and
--     `typed[name]` (a full declaration) used instead where given. The
--     registry schema's createOnlyProperties are the `replace` names.
--   props.tag_list(map)        {k=v} -> [{Key,Value}] sorted by key
--   props.own_tags(list)       a service's tag list without aws:* keys, as a map (nil if empty)
--   props.error_code(err)      the AWS error code of a failed sim call, or nil
--   props.call(fn, req, codes) fn(req), or nil + err when it failed with one of `codes`
--   props.json(v)              v as compact JSON text, object keys sorted (policies and
--                              redrive policies: the APIs take them as text)

local M = {}

function M.json_list(P, names, replace, typed)
  local skip = {}
  for _, n in ipairs(replace or {}) do skip[n] = true end
  local out = {}
  for i, name in ipairs(names) do
    out[i] = (typed or {})[name] or P.json(name) { update = skip[name] and "replace" or "none" }
  end
  return out
end

function M.tag_list(map)
  local keys = {}
  for k in pairs(map or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for i, k in ipairs(keys) do out[i] = { Key = k, Value = map[k] } end
  return out
end

function M.own_tags(list)
  local out = {}
  for _, t in ipairs(list or {}) do
    if t.Key:sub(1, 4) ~= "aws:" then out[#out + 1] = { Key = t.Key, Value = t.Value } end
  end
  return #out > 0 and out or nil
end

function M.error_code(err) return type(err) == "table" and err.code or nil end

function M.call(fn, req, codes)
  local ok, r = pcall(fn, req)
  if ok then return r end
  for _, c in ipairs(codes) do
    if M.error_code(r) == c then return nil, r end
  end
  error(r, 0)
end

-- The encoder lives with the sims (sim.cloudformation_util), which need it too.
M.json = require("sim.cloudformation_util").json

return M
