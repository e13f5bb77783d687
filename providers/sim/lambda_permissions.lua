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

  -- AddPermission's request validation, as Lambda's model has it (botocore's
  -- lambda model: each member's pattern, lengths and enum), every violation
  -- in one message (L.fail_validation).
  local function all(s, pattern) return type(s) == "string" and s:match(pattern) ~= nil end
  local function source_arn(s)  -- arn:(aws[a-zA-Z0-9-]*):([a-zA-Z0-9\-])+:([a-z]{2}(-gov)?-[a-z]+-\d{1})?:(\d{12})?:(.*)
    local partition, service, region, account = s:match("^arn:([^:]*):([^:]*):([^:]*):([^:]*):")
    return partition ~= nil and all(partition, "^aws[%w%-]*$") and all(service, "^[%w%-]+$")
        and (region == "" or all(region, "^%l%l%-%l+%-%d$") or all(region, "^%l%l%-gov%-%l+%-%d$"))
        and (account == "" or all(account, "^" .. ("%d"):rep(12) .. "$"))
  end
  local CHECKS = {
    { "StatementId", "statementId", 100, "([a-zA-Z0-9-_]+)", function(v) return all(v, "^[%w%-_]+$") end },
    { "Action", "action", nil, "(lambda:[*]|lambda:[a-zA-Z]+|[*])",
      function(v) return v == "*" or v == "lambda:*" or all(v, "^lambda:%a+$") end },
    { "Principal", "principal", nil, "[^\\s]+", function(v) return all(v, "^%S+$") end },
    { "SourceArn", "sourceArn", nil,
      "arn:(aws[a-zA-Z0-9-]*):([a-zA-Z0-9\\-])+:([a-z]{2}(-gov)?-[a-z]+-\\d{1})?:(\\d{12})?:(.*)", source_arn },
    { "SourceAccount", "sourceAccount", 12, "\\d{12}", function(v) return all(v, "^" .. ("%d"):rep(12) .. "$") end },
    { "EventSourceToken", "eventSourceToken", 256, "[a-zA-Z0-9._\\-]+", function(v) return all(v, "^[%w%._%-]+$") end },
    { "PrincipalOrgID", "principalOrgID", 34, "o-[a-z0-9]{10,32}",
      function(v) return all(v, "^o%-[%l%d]+$") and #v >= 12 end },
  }

  local function check_request(p)
    local errors = {}
    local function add(value, field, constraint) errors[#errors + 1] = L.violation(value, field, constraint) end
    for _, c in ipairs(CHECKS) do
      local name, field, max, pattern, ok = c[1], c[2], c[3], c[4], c[5]
      local v = p[name]
      if v == nil or v == "" then
        if name == "StatementId" or name == "Action" or name == "Principal" then add(nil, field, "Member must not be null") end
      elseif max and #tostring(v) > max then
        add(v, field, "Member must have length less than or equal to " .. max)
      elseif not ok(tostring(v)) then
        add(v, field, "Member must satisfy regular expression pattern: " .. pattern)
      end
    end
    if p.FunctionUrlAuthType ~= nil and p.FunctionUrlAuthType ~= "NONE" and p.FunctionUrlAuthType ~= "AWS_IAM" then
      add(p.FunctionUrlAuthType, "functionUrlAuthType", "Member must satisfy enum value set: [NONE, AWS_IAM]")
    end
    if #errors > 0 then L.fail_validation(errors) end
  end

  -- The statement as Lambda writes it in the function's policy: Principal
  -- "*" as is, an account as its root ARN, a service as Service; the
  -- conditions its parameters add (the Developer Guide's function URL
  -- statements: lambda:FunctionUrlAuthType, lambda:InvokedViaFunctionUrl).
  local function statement(env, rec, p)
    local s = { Sid = p.StatementId, Effect = "Allow", Action = p.Action, Resource = L.fn_arn(env, rec.FunctionName) }
    if p.Principal == "*" then
      s.Principal = "*"
    elseif p.Principal:match("^%d+$") or p.Principal:match("^arn:") then
      s.Principal = { AWS = p.Principal:match("^%d+$") and ("arn:aws:iam::" .. p.Principal .. ":root") or p.Principal }
    else
      s.Principal = { Service = p.Principal }
    end
    local cond = {}
    if p.SourceArn then cond.ArnLike = { ["AWS:SourceArn"] = p.SourceArn } end
    if p.SourceAccount then cond.StringEquals = { ["AWS:SourceAccount"] = p.SourceAccount } end
    if p.PrincipalOrgID then cond.StringEquals = cond.StringEquals or {}; cond.StringEquals["aws:PrincipalOrgID"] = p.PrincipalOrgID end
    if p.FunctionUrlAuthType then
      cond.StringEquals = cond.StringEquals or {}
      cond.StringEquals["lambda:FunctionUrlAuthType"] = p.FunctionUrlAuthType
    end
    if p.InvokedViaFunctionUrl == true then cond.Bool = { ["lambda:InvokedViaFunctionUrl"] = "true" } end
    if next(cond) then s.Condition = cond end
    return s
  end

  function A.AddPermission(p, env)
    check_request(p)
    local rec = L.load_fn(env, p.FunctionName)
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
