-- lib.iam_policies: what AWS::IAM::User and AWS::IAM::Group (and the
-- user/group side of AWS::IAM::Policy / ManagedPolicy) share: the Policies
-- entries' check, bringing inline and attached policies from an old list to
-- a new one, tolerant removal, and ordering what `read` reports like the
-- template.
--
-- `kind` is "User" or "Group": the IAM actions are Put<kind>Policy,
-- Delete<kind>Policy, Attach<kind>Policy, Detach<kind>Policy with
-- <kind>Name naming the principal.

local P = require("moonstack.provider")

local M = {}

---True when a sim error says the thing is gone already.
---@param err any
---@return boolean
function M.gone(err) return type(err) == "table" and err.code == "NoSuchEntity" end

---Calls iam[action](params); a NoSuchEntity error is taken as done.
---@param iam table the sim's iam client
---@param action string
---@param params table
function M.quietly(iam, action, params)
  local ok, err = pcall(iam[action], params)
  if not ok and not M.gone(err) then error(err, 0) end
end

---Checks Policies entries ({ PolicyName, PolicyDocument } each, names unique).
---@param ctx table hook ctx (logical_id for the message)
---@param list table[]?
---@param owner string "user", "group" (moonstack's message for duplicates)
function M.check(ctx, list, owner)
  local seen = {}
  for i, pol in ipairs(list or {}) do
    for _, k in ipairs({ "PolicyDocument", "PolicyName" }) do
      if pol[k] == nil then
        P.fail("Properties validation failed for resource " .. tostring(ctx.logical_id)
          .. " with message: #/Policies/" .. (i - 1) .. ": required key [" .. k .. "] not found", "InvalidRequest")
      end
    end
    if seen[pol.PolicyName] then
      P.fail("Policy names must be unique within a " .. owner .. ": " .. tostring(pol.PolicyName)
        .. " is given twice", "InvalidRequest")
    end
    seen[pol.PolicyName] = true
  end
end

local function by_name(list)
  local out = {}
  for _, pol in ipairs(list or {}) do out[pol.PolicyName] = pol.PolicyDocument end
  return out
end

---Brings the principal's inline policies from `old` to `new` (Policies lists).
---@param iam table
---@param kind "User"|"Group"
---@param name string the principal's name
---@param old table[]?
---@param new table[]?
function M.sync_inline(iam, kind, name, old, new)
  local keep, before = by_name(new), by_name(old)
  for pname in pairs(before) do
    if keep[pname] == nil then
      M.quietly(iam, "Delete" .. kind .. "Policy", { [kind .. "Name"] = name, PolicyName = pname })
    end
  end
  for _, pol in ipairs(new or {}) do
    if not P.deep_equal(before[pol.PolicyName], pol.PolicyDocument) then
      iam["Put" .. kind .. "Policy"] { [kind .. "Name"] = name, PolicyName = pol.PolicyName, PolicyDocument = pol.PolicyDocument }
    end
  end
end

---Brings the principal's attached managed policies from `old` to `new` (ARN lists).
---@param iam table
---@param kind "User"|"Group"
---@param name string
---@param old string[]?
---@param new string[]?
function M.sync_managed(iam, kind, name, old, new)
  local want, had = {}, {}
  for _, a in ipairs(new or {}) do want[a] = true end
  for _, a in ipairs(old or {}) do had[a] = true end
  for _, a in ipairs(old or {}) do
    if not want[a] then M.quietly(iam, "Detach" .. kind .. "Policy", { [kind .. "Name"] = name, PolicyArn = a }) end
  end
  for _, a in ipairs(new or {}) do
    if not had[a] then iam["Attach" .. kind .. "Policy"] { [kind .. "Name"] = name, PolicyArn = a } end
  end
end

---Removes every inline and attached policy of the principal.
---@param iam table
---@param kind "User"|"Group"
---@param name string
function M.strip(iam, kind, name)
  local who = { [kind .. "Name"] = name }
  for _, pname in ipairs(iam["List" .. kind .. "Policies"](who).PolicyNames) do
    M.quietly(iam, "Delete" .. kind .. "Policy", { [kind .. "Name"] = name, PolicyName = pname })
  end
  for _, a in ipairs(iam["ListAttached" .. kind .. "Policies"](who).AttachedPolicies) do
    M.quietly(iam, "Detach" .. kind .. "Policy", { [kind .. "Name"] = name, PolicyArn = a.PolicyArn })
  end
end

---The principal's Policies and ManagedPolicyArns as `read` reports them,
---in the order `props` lists them (then the rest).
---@param iam table
---@param kind "User"|"Group"
---@param name string
---@param props table the template's properties (may be {})
---@return table[]? policies, string[]? arns
function M.read(iam, kind, name, props)
  local who = { [kind .. "Name"] = name }
  local policies = {}
  for _, pname in ipairs(iam["List" .. kind .. "Policies"](who).PolicyNames) do
    policies[#policies + 1] = { PolicyName = pname,
      PolicyDocument = iam["Get" .. kind .. "Policy"] { [kind .. "Name"] = name, PolicyName = pname }.PolicyDocument }
  end
  local arns = {}
  for i, a in ipairs(iam["ListAttached" .. kind .. "Policies"](who).AttachedPolicies) do arns[i] = a.PolicyArn end
  local given = {}
  for i, p in ipairs(props.Policies or {}) do given[i] = p.PolicyName end
  return (#policies > 0 and M.order_like(policies, given, "PolicyName") or nil),
    (#arns > 0 and M.order_like(arns, props.ManagedPolicyArns) or nil)
end

---`list` in the order `given` names its items (by `field`, or the items
---themselves without one), then the rest as they come.
---@param list any[]
---@param given any[]?
---@param field string?
---@return any[]
function M.order_like(list, given, field)
  local rank = {}
  for i, g in ipairs(given or {}) do rank[g] = rank[g] or i end
  local out = {}
  for i, item in ipairs(list or {}) do out[i] = { item = item, i = i } end
  local function k(x) if field then return x[field] end return x end
  table.sort(out, function(a, b)
    local ra, rb = rank[k(a.item)] or math.huge, rank[k(b.item)] or math.huge
    if ra ~= rb then return ra < rb end
    return a.i < b.i
  end)
  for i, x in ipairs(out) do out[i] = x.item end
  return out
end

return M
