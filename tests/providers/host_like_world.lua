-- A world store that behaves like the host's where the in-memory double is
-- lenient (tables come back from `get` marked as JSON objects or arrays, an
-- empty table unmarked; `put` refuses an object-marked table with number
-- keys, as host/lua/marshal.cc does), and the two kinds of case the
-- provider suites run on it: the contract kit over a provider with its
-- fixture, and a whole Lua suite again.
--   local W = require("host_like_world")
--   W.contract_cases(T, { "iam/role", ... })
--   W.suite_cases(T, { "test_sim_iam", ... })
local H = require("harness")

local M = {}

local OBJECT = { __moonstack_json = "object" }
local ARRAY = { __moonstack_json = "array" }

local function is_array(t)
  local n = 0
  for k in pairs(t) do
    if type(k) ~= "number" then return false end
    n = n + 1
  end
  return n > 0 and n == #t
end

-- A copy marked the way the host's store hands tables back.
local function marked(v)
  if type(v) ~= "table" then return v end
  if next(v) == nil then return {} end  -- the host leaves an empty map unmarked
  local out = {}
  for k, x in pairs(v) do out[k] = marked(x) end
  return setmetatable(out, is_array(v) and ARRAY or OBJECT)
end

local function refuse_bad(v, path)
  if type(v) ~= "table" then return end
  if getmetatable(v) == OBJECT then
    for k in pairs(v) do
      if type(k) == "number" then error("world.put: " .. path .. ": cannot convert a map with a number key", 0) end
    end
  end
  for k, x in pairs(v) do refuse_bad(x, path .. "." .. tostring(k)) end
end

function M.host_like(inner)
  local W = setmetatable({}, { __index = inner })
  function W.get(kind, id) return marked(inner.get(kind, id)) end
  function W.put(kind, id, data, opts)
    refuse_bad(data, "data")
    return inner.put(kind, id, data, opts)
  end
  return W
end

-- Runs fn with `moonstack.world` = the host-like store, with the sim and
-- everything that captured the world loaded afresh; restores afterwards.
function M.with_host_like_world(fn)
  local saved = {}
  local function swap(name, value) saved[name] = package.loaded[name]; package.loaded[name] = value end
  local inner = require("moonstack.world_memory").new()
  local W = M.host_like(inner)
  swap("moonstack.world", W)
  for name in pairs(package.loaded) do
    if name == "sim" or name:match("^sim%.") or name == "moonstack.contract" then swap(name, nil) end
  end
  local ok, err = pcall(fn, W, inner)
  for name, v in pairs(saved) do package.loaded[name] = v end
  if not ok then error(err, 0) end
end


---One case per provider (path under providers/aws/, no ".lua"): the
---contract kit runs it with its fixture on the host-like store.
function M.contract_cases(T, providers)
for _, rel in ipairs(providers) do
  T.case("contract: " .. rel, function()
    M.with_host_like_world(function(W, inner)
      inner.reset()
      require("sim").seed("contract")
      local C = require("moonstack.contract")
      local report = C.run(MOONSTACK_ROOT .. "/providers/aws/" .. rel .. ".lua", nil, { world = W })
      require("contract_gaps").check(report, "aws/" .. rel .. ".lua")
      H.truthy(report.passed >= 10, rel .. " ran the whole lifecycle (" .. report.passed .. " checks passed)")
    end)
  end)
end
end

---One case per Lua suite name: the suite runs again on the host-like store.
function M.suite_cases(T, suites)
for _, suite_name in ipairs(suites) do
  T.case("suite on the host-like store: " .. suite_name, function()
    M.with_host_like_world(function(W, inner)
      local saved_fresh, saved_suite = _G.fresh, package.loaded[suite_name]
      _G.fresh = function()
        inner.reset()
        local sim = require("sim")
        sim.seed("test")
        return W, sim
      end
      package.loaded[suite_name] = nil
      local ok, err = pcall(function()
        local suite = require(suite_name)
        local failures = {}
        for _, c in ipairs(suite.cases) do
          local okc, e = pcall(c.fn)
          if not okc then
            local m = type(e) == "table" and (e.harness_failure or e.message) or tostring(e)
            failures[#failures + 1] = c.name .. ": " .. tostring(m)
          end
        end
        H.same(failures, {}, suite_name)
      end)
      _G.fresh, package.loaded[suite_name] = saved_fresh, saved_suite
      if not ok then error(err, 0) end
    end)
  end)
end
end

return M
