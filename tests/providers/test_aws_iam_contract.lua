-- The contract kit (moonstack.contract) run over the IAM, SSM and
-- CloudFormation providers with their fixtures, on a world store that
-- behaves like the host's where the in-memory double is lenient: tables
-- come back from `get` marked as JSON objects or arrays (an empty table
-- unmarked, so it may be filled either way), and `put` refuses an
-- object-marked table with number keys, as host/lua/marshal.cc does. The
-- sims' and providers' own suites run here again too.
local H = require("harness")
local T = H.suite("iam/ssm/cfn on a host-like world")

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

local function host_like(inner)
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
local function with_host_like_world(fn)
  local saved = {}
  local function swap(name, value) saved[name] = package.loaded[name]; package.loaded[name] = value end
  local inner = require("moonstack.world_memory").new()
  local W = host_like(inner)
  swap("moonstack.world", W)
  for name in pairs(package.loaded) do
    if name == "sim" or name:match("^sim%.") or name == "moonstack.contract" then swap(name, nil) end
  end
  local ok, err = pcall(fn, W, inner)
  for name, v in pairs(saved) do package.loaded[name] = v end
  if not ok then error(err, 0) end
end

local PROVIDERS = {
  "iam/role", "iam/policy", "iam/managed_policy", "iam/instance_profile",
  "iam/user", "iam/group", "iam/user_to_group_addition", "iam/access_key",
  "ssm/parameter", "cloudformation/wait_condition_handle", "cloudformation/wait_condition",
}

T.case("the host-like store accepts and refuses what the host does", function()
  with_host_like_world(function(W)
    W.put("k", "a", { list = {}, map = { x = 1 } })
    local back = W.get("k", "a")
    back.list[#back.list + 1] = "x"  -- an empty table read back may become a list
    W.put("k", "a", back)
    H.same(W.get("k", "a").list, { "x" })
    back = W.get("k", "a")
    back.map[1] = "y"                -- a non-empty object with a number key may not
    H.raises(function() W.put("k", "a", back) end, "world.put: data.map: cannot convert a map with a number key")
  end)
end)

for _, rel in ipairs(PROVIDERS) do
  T.case("contract: " .. rel, function()
    with_host_like_world(function(W, inner)
      inner.reset()
      require("sim").seed("contract")
      local C = require("moonstack.contract")
      local report = C.run(MOONSTACK_ROOT .. "/providers/aws/" .. rel .. ".lua", nil, { world = W })
      local failures = {}
      for _, c in ipairs(report.checks) do
        if c.status == "FAIL" then failures[#failures + 1] = c.name .. ": " .. tostring(c.reason) end
      end
      H.same(failures, {}, rel)
      H.truthy(report.passed >= 10, rel .. " ran the whole lifecycle (" .. report.passed .. " checks passed)")
    end)
  end)
end

-- The sims' own suites again, on the host-like store: every action that
-- grows a list it read back is exercised there.
local SIM_SUITES = { "test_sim_iam", "test_sim_ssm", "test_sim_cfn", "test_aws_iam", "test_aws_ssm", "test_aws_cfn" }

for _, suite_name in ipairs(SIM_SUITES) do
  T.case("suite on the host-like store: " .. suite_name, function()
    with_host_like_world(function(W, inner)
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

return T
