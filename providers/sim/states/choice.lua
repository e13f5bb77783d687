-- sim.states.choice: a Choice state's rules (Amazon States Language):
-- Variable with StringEquals, StringLessThan, StringGreaterThan,
-- NumericEquals, NumericLessThan(Equals), NumericGreaterThan(Equals),
-- BooleanEquals (each also as <Op>Path), IsPresent, IsNull, and And, Or,
-- Not; the first rule that holds gives Next, else Default.
local values = require("moonstack.values")
local paths = require("sim.states.paths")

local M = {}

local COMPARE = {
  StringEquals = { "string", function(a, b) return a == b end },
  StringLessThan = { "string", function(a, b) return a < b end },
  StringGreaterThan = { "string", function(a, b) return a > b end },
  StringLessThanEquals = { "string", function(a, b) return a <= b end },
  StringGreaterThanEquals = { "string", function(a, b) return a >= b end },
  NumericEquals = { "number", function(a, b) return a == b end },
  NumericLessThan = { "number", function(a, b) return a < b end },
  NumericGreaterThan = { "number", function(a, b) return a > b end },
  NumericLessThanEquals = { "number", function(a, b) return a <= b end },
  NumericGreaterThanEquals = { "number", function(a, b) return a >= b end },
  BooleanEquals = { "boolean", function(a, b) return a == b end },
}

local function lookup(doc, path, ctx)
  local ok, v = pcall(paths.get, doc, path, ctx)
  if ok then return true, v end
  return false, nil
end

local function holds(rule, input, ctx)
  if type(rule.And) == "table" then
    for _, r in ipairs(rule.And) do if not holds(r, input, ctx) then return false end end
    return true
  end
  if type(rule.Or) == "table" then
    for _, r in ipairs(rule.Or) do if holds(r, input, ctx) then return true end end
    return false
  end
  if type(rule.Not) == "table" then return not holds(rule.Not, input, ctx) end
  local present, v = lookup(input, rule.Variable or "$", ctx)
  if rule.IsPresent ~= nil then return present == rule.IsPresent end
  if rule.IsNull ~= nil then return (present and values.is_null(v)) == rule.IsNull end
  for op, spec in pairs(COMPARE) do
    local want = rule[op]
    if rule[op .. "Path"] ~= nil then
      local found
      found, want = lookup(input, rule[op .. "Path"], ctx)
      if not found then return false end
    end
    if want ~= nil then
      return present and type(v) == spec[1] and type(want) == spec[1] and spec[2](v, want)
    end
  end
  return false
end

---The name of the state a Choice goes to for `input`, or nil.
function M.next(s, input, ctx)
  for _, rule in ipairs(type(s.Choices) == "table" and s.Choices or {}) do
    if holds(rule, input, ctx) then return rule.Next end
  end
  return s.Default
end

return M
