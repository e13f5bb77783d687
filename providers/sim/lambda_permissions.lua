-- sim.lambda_permissions: a function's resource-based policy (AddPermission,
-- RemovePermission, GetPolicy), installed into sim.lambda's actions.
--
-- Each statement is its own record "lambda.permission"
-- "<region>:<function>:<statement id>" whose refs name the function's ARN,
-- so GetPolicy and DeleteFunction find a function's statements through the
-- referrers index (no walk).
-- Messages (Lambda's):
--   The statement id (<sid>) provided already exists. Please provide a new statement id, or
--   remove the existing statement. (ResourceConflictException)
--   The resource you requested does not exist. (ResourceNotFoundException)
--   Statement <sid> is not found in resource policy. (ResourceNotFoundException)
local world = require("sim.world")
local util = require("sim.cloudformation_util")

local PERMISSION = "lambda.permission"

return function(A, L)
  local function fail(message, code) require("sim").fail(message, code) end

  local function statement(env, rec, p)
    local s = { Sid = p.StatementId, Effect = "Allow", Action = p.Action, Resource = L.fn_arn(env, rec.FunctionName) }
    if p.Principal:match("^%d+$") or p.Principal:match("^arn:") then
      s.Principal = { AWS = p.Principal:match("^%d+$") and ("arn:aws:iam::" .. p.Principal .. ":root") or p.Principal }
    else
      s.Principal = { Service = p.Principal }
    end
    local cond = {}
    if p.SourceArn then cond.ArnLike = { ["AWS:SourceArn"] = p.SourceArn } end
    if p.SourceAccount then cond.StringEquals = { ["AWS:SourceAccount"] = p.SourceAccount } end
    if p.PrincipalOrgID then cond.StringEquals = cond.StringEquals or {}; cond.StringEquals["aws:PrincipalOrgID"] = p.PrincipalOrgID end
    if next(cond) then s.Condition = cond end
    return s
  end

  function A.AddPermission(p, env)
    local rec = L.load_fn(env, p.FunctionName)
    for _, f in ipairs({ "StatementId", "Action", "Principal" }) do
      if type(p[f]) ~= "string" or p[f] == "" then
        fail("1 validation error detected: Value null at '" .. f:sub(1, 1):lower() .. f:sub(2)
          .. "' failed to satisfy constraint: Member must not be null", "ValidationException")
      end
    end
    local k = L.fkey(env, rec.FunctionName) .. ":" .. p.StatementId
    if world.get(PERMISSION, k) then
      fail("The statement id (" .. p.StatementId .. ") provided already exists. Please provide a new statement id, "
        .. "or remove the existing statement.", "ResourceConflictException")
    end
    local s = statement(env, rec, p)
    world.put(PERMISSION, k, s, { refs = { L.fn_arn(env, rec.FunctionName) } })
    return { Statement = L.json(s) }
  end

  -- The statements of a function, { key =, record = } in statement-id order.
  function L.statements(env, name) return L.records_naming(env, name, PERMISSION) end

  function A.RemovePermission(p, env)
    local rec = L.load_fn(env, p.FunctionName)
    if not world.remove(PERMISSION, L.fkey(env, rec.FunctionName) .. ":" .. tostring(p.StatementId)) then
      fail("Statement " .. tostring(p.StatementId) .. " is not found in resource policy.", "ResourceNotFoundException")
    end
    return {}
  end

  function A.GetPolicy(p, env)
    local rec = L.load_fn(env, p.FunctionName)
    local list = {}
    for _, s in ipairs(L.statements(env, rec.FunctionName)) do list[#list + 1] = s.record end
    if #list == 0 then fail("The resource you requested does not exist.", "ResourceNotFoundException") end
    local policy = { Version = "2012-10-17", Id = "default", Statement = list }
    return { Policy = L.json(policy), RevisionId = util.hash_hex(L.json(policy), 8) }
  end
end
