-- A minimal test harness: suites of named cases and a few assertions whose
-- failures say what was expected and what came instead.

local H = {}

local function show(v, depth)
  depth = depth or 0
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" then return tostring(v) end
  if depth > 4 then return "{...}" end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    return a < b
  end)
  local parts = {}
  for _, k in ipairs(keys) do
    local ks = type(k) == "string" and k or "[" .. tostring(k) .. "]"
    parts[#parts + 1] = ks .. "=" .. show(v[k], depth + 1)
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end
H.show = show

local function deep_equal(a, b)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  for k, x in pairs(a) do if not deep_equal(x, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

local function fail(text) error({ harness_failure = text }, 0) end

function H.eq(actual, expected, label)
  if actual ~= expected then
    fail((label and label .. ": " or "") .. "expected " .. show(expected) .. ", got " .. show(actual))
  end
end

function H.same(actual, expected, label)
  if not deep_equal(actual, expected) then
    fail((label and label .. ": " or "") .. "expected " .. show(expected) .. ", got " .. show(actual))
  end
end

function H.truthy(v, label) if not v then fail((label or "value") .. " is not truthy: " .. show(v)) end end
function H.falsy(v, label) if v then fail((label or "value") .. " is not falsy: " .. show(v)) end end

-- Standard base64 of `s` (an instance's UserData, say), with padding.
function H.base64(s)
  local a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  return ((s:gsub(".", function(x)
    local r, byte = "", x:byte()
    for i = 8, 1, -1 do r = r .. (byte % 2 ^ i - byte % 2 ^ (i - 1) > 0 and "1" or "0") end
    return r
  end) .. "0000"):gsub("%d%d%d?%d?%d?%d?", function(x)
    if #x < 6 then return "" end
    local c = 0
    for i = 1, 6 do c = c + (x:sub(i, i) == "1" and 2 ^ (6 - i) or 0) end
    return a:sub(c + 1, c + 1)
  end) .. ({ "", "==", "=" })[#s % 3 + 1])
end

function H.match(s, pattern, label)
  if type(s) ~= "string" or not s:match(pattern) then
    fail((label and label .. ": " or "") .. show(s) .. " does not match " .. show(pattern))
  end
end

-- Message of an error value: SDK error tables carry .message.
local function message_of(e)
  if type(e) == "table" and type(e.message) == "string" then return e.message end
  return tostring(e)
end

---Call fn; it must raise an error whose message is exactly `expected`.
---Returns the raised value.
function H.raises(fn, expected, label)
  local ok, err = pcall(fn)
  if ok then fail((label and label .. ": " or "") .. "expected an error " .. show(expected) .. ", none raised") end
  if expected ~= nil and message_of(err) ~= expected then
    fail((label and label .. ": " or "") .. "expected error " .. show(expected) .. ", got " .. show(message_of(err)))
  end
  return err
end

---Call fn; it must raise an error whose message matches `pattern`.
function H.raises_match(fn, pattern, label)
  local ok, err = pcall(fn)
  if ok then fail((label and label .. ": " or "") .. "expected an error matching " .. show(pattern)) end
  H.match(message_of(err), pattern, label)
  return err
end

---For suites that run providers against the simulated cloud: providers/ on
---the module path and the in-memory world as moonstack.world (installed
---once). Returns the world.
function H.simulated_cloud()
  local here = package.searchpath("harness", package.path):match("^(.*)[/\\]")
  local root = here .. "/../.."
  if not package.path:find(root .. "/providers/?.lua", 1, true) then
    package.path = package.path .. ";" .. root .. "/providers/?.lua;" .. root .. "/providers/?/init.lua"
  end
  if package.loaded["moonstack.world"] == nil then
    package.loaded["moonstack.world"] = require("moonstack.world_memory").new()
  end
  return require("moonstack.world"), root
end

---A suite: T.case(name, fn) registers a case; the runner runs them in order.
function H.suite(name)
  local s = { name = name, cases = {} }
  function s.case(case_name, fn) s.cases[#s.cases + 1] = { name = case_name, fn = fn } end
  return s
end

---Run suites; print one line per case and the summary. Returns failures.
function H.run(suites)
  local passed, failed = 0, 0
  for _, s in ipairs(suites) do
    for _, c in ipairs(s.cases) do
      local ok, err = xpcall(c.fn, function(e)
        if type(e) == "table" and e.harness_failure then return e.harness_failure end
        return debug.traceback(message_of(e), 2)
      end)
      if ok then
        passed = passed + 1
        print("ok   " .. s.name .. ": " .. c.name)
      else
        failed = failed + 1
        print("FAIL " .. s.name .. ": " .. c.name .. "\n     " .. tostring(err):gsub("\n", "\n     "))
      end
    end
  end
  print(string.format("%d passed, %d failed", passed, failed))
  return failed
end

return H
