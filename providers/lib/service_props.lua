-- lib.service_props: what the hand-written service providers (S3, SQS, SNS,
-- Logs, Events, Lambda extras) share.
--
--   props.json_list(P, names, replace, typed)  a property list: each name a
--     P.json property (updated in place), those in `replace` Replacement, and
--     `typed[name]` (a full declaration) used instead where given. The
--     registry schema's createOnlyProperties are the `replace` names.
--   props.own_tags(tags)       a service's tags (a [{Key,Value}] list or a {k=v} map) without
--                              the aws:* ones, as the template's Tags list (nil if none)
--   props.name(ctx, max, suffix) a generated name "<stack>-<logical>-<12>" within `max`
--                              characters, `suffix` (".fifo") included
--   props.error_code(err)      the AWS error code of a failed sim call, or nil
--   props.call(fn, req, codes) fn(req), or nil + err when it failed with one of `codes`
--   props.already_exists(type, id) / props.not_found(type, id)  fail the hook with
--                              cloudformation-cli's AlreadyExists / NotFound wording and code
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

function M.own_tags(given)
  local map = {}
  if given and given[1] ~= nil then
    for _, t in ipairs(given) do map[t.Key] = t.Value end
  else
    for k, v in pairs(given or {}) do map[k] = v end
  end
  for k in pairs(map) do
    if k:sub(1, 4) == "aws:" then map[k] = nil end
  end
  return next(map) ~= nil and require("moonstack.tags").from_map(map) or nil
end

function M.name(ctx, max, suffix)
  suffix = suffix or ""
  return require("sim.cloudformation_names").physical(ctx.stack_name, ctx.logical_id, max - #suffix) .. suffix
end

function M.error_code(err) return type(err) == "table" and err.code or nil end

function M.call(fn, req, codes)
  local r, err = require("sim").attempt(fn, req)
  if err == nil then return r end
  for _, c in ipairs(codes) do
    if M.error_code(err) == c then return nil, err end
  end
  error(err, 0)
end

-- The handler errors every registry handler raises (cloudformation-cli's
-- BaseHandlerException texts): a create that finds its resource there, an
-- update, read or delete that does not.
function M.already_exists(type_name, id)
  require("moonstack.provider").fail("Resource of type '" .. type_name .. "' with identifier '" .. tostring(id)
    .. "' already exists.", "AlreadyExists")
end

function M.not_found(type_name, id)
  require("moonstack.provider").fail("Resource of type '" .. type_name .. "' with identifier '" .. tostring(id)
    .. "' was not found.", "NotFound")
end

-- The encoder lives with the sims (sim.cloudformation_util), which need it too.
M.json = require("sim.cloudformation_util").json

return M
