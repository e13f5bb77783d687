-- moonstack.values: the value helpers every other SDK module shares.
--
-- Property values arrive from the host already converted from JSON: strings,
-- numbers (always doubles under LuaJIT), booleans, tables, and the host's
-- `moonstack.null` sentinel for a JSON null. The host may also tag tables with
-- metatables that mark "array" or "object" (so an empty [] survives the round
-- trip); we never depend on those markers, but copies keep them.

local M = {}

local type, pairs, next, getmetatable, setmetatable, pcall =
      type, pairs, next, getmetatable, setmetatable, pcall
local floor, huge = math.floor, math.huge

-- Field `name` of the host runtime's `moonstack` table (null, freeze,
-- utf8_len), or nil without a host (plain luajit). Looked up when first
-- needed (the host may install it after the SDK is loaded) and through
-- pcall, because a strict sandbox may raise on reading an undefined global.
local function host_field(name)
  local ok, m = pcall(function() return moonstack end) -- luacheck: ignore
  if ok and type(m) == "table" and m[name] ~= nil then return m[name] end
  ok, m = pcall(function() return package.loaded.moonstack end)
  if ok and type(m) == "table" and m[name] ~= nil then return m[name] end
  return nil
end

local null_cache

---The host's JSON-null sentinel, or nil when no host runtime is present
---(plain `luajit`, as in the SDK's own tests).
---@return any
function M.null()
  if null_cache == nil then null_cache = host_field("null") end
  return null_cache
end

---Tell the SDK which value is JSON null (tests; or a host that keeps the
---sentinel somewhere other than `moonstack.null`).
---@param sentinel any
function M.set_null(sentinel) null_cache = sentinel end

---A read-only view of `t` (the host's `moonstack.freeze`: a write raises
---"attempt to modify read-only table <name>"), for a table the SDK hands to
---every provider of a state; `t` itself without a host runtime.
---@generic T: table
---@param t T
---@param name string what an error names
---@return T
function M.freeze(t, name)
  local freeze = host_field("freeze")
  if type(freeze) == "function" then return freeze(t, name) end
  return t
end

---True for the host's JSON-null sentinel.
---@param v any
---@return boolean
function M.is_null(v)
  if v == nil then return false end
  local n = M.null()
  return n ~= nil and rawequal(v, n)
end

---True for nil or JSON null: "no value" as CloudFormation sees it.
---@param v any
---@return boolean
function M.is_absent(v) return v == nil or M.is_null(v) end

---True when `t` is a table whose keys are exactly 1..#t (an empty table is
---both an empty array and an empty object).
---@param t any
---@return boolean
function M.is_array(t)
  if type(t) ~= "table" or M.is_null(t) then return false end
  local n, count = #t, 0
  for k in pairs(t) do
    if type(k) ~= "number" or k < 1 or k > n or floor(k) ~= k then return false end
    count = count + 1
  end
  return count == n
end

---True when `t` is a table with only string keys (or empty).
---@param t any
---@return boolean
function M.is_object(t)
  if type(t) ~= "table" or M.is_null(t) then return false end
  for k in pairs(t) do
    if type(k) ~= "string" then return false end
  end
  return true
end

---True for a finite number with no fractional part.
---@param v any
---@return boolean
function M.is_integral(v)
  return type(v) == "number" and v == v and v ~= huge and v ~= -huge and floor(v) == v
end

-- Copies keep the source's metatable so host array/object markers survive;
-- a protected metatable (getmetatable returns a non-table) is not copied.
-- (setmetatable cannot fail here: `out` is new and `mt` a table, so no
-- pcall: copies of big records are on the sims' hot paths.)
local function copy(v)
  if type(v) ~= "table" or M.is_null(v) then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = copy(x) end
  local mt = getmetatable(v)
  if type(mt) == "table" then setmetatable(out, mt) end
  return out
end

---Deep copy of a JSON-like value (metatables are shared, not copied).
---@generic T
---@param v T
---@return T
M.deep_copy = copy

-- Structural equality: table identity and metatables are ignored, so an
-- evaluated template value equals the stored one it was decoded from.
local function equal(a, b)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  if M.is_null(a) or M.is_null(b) then return false end
  for k, x in pairs(a) do
    local y = b[k]
    if y == nil or not equal(x, y) then return false end
  end
  for k in pairs(b) do
    if a[k] == nil then return false end
  end
  return true
end

---Deep structural equality of two JSON-like values.
---@param a any
---@param b any
---@return boolean
M.deep_equal = equal

---True when `v` only holds what survives JSON persistence: strings, finite
---numbers, booleans, JSON null, and tables keyed by strings or array indexes.
---Functions, userdata, coroutines and cycles are rejected: an in-progress
---context must outlive the Lua state that produced it.
---@param v any
---@return boolean ok
---@return string? why
function M.is_plain(v, seen)
  local t = type(v)
  if t == "string" or t == "boolean" then return true end
  if t == "number" then
    if v ~= v or v == huge or v == -huge then return false, "a non-finite number" end
    return true
  end
  if M.is_null(v) then return true end
  if t ~= "table" then return false, "a " .. t end
  seen = seen or {}
  if seen[v] then return false, "a cycle" end
  seen[v] = true
  for k, x in pairs(v) do
    if type(k) ~= "string" and not M.is_integral(k) then
      return false, "a " .. type(k) .. " key"
    end
    local ok, why = M.is_plain(x, seen)
    if not ok then return false, why end
  end
  seen[v] = nil
  return true
end

---sorted_keys' order: whether key `a` comes before key `b` (strings before
---numbers, then by value). One function for every sort, not a closure each.
---@param a any
---@param b any
---@return boolean
local function key_before(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta > tb end -- "string" > "number"
  return a < b
end
M.key_before = key_before

---Keys of a table, sorted (strings before numbers), for deterministic output.
---@param t table
---@return any[]
function M.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, key_before)
  return keys
end

---Number to string as CloudFormation prints it: integral values without a
---decimal point, others in the shortest form that reads back exactly.
---@param v number
---@return string
function M.number_to_string(v)
  if M.is_integral(v) and v > -2^53 and v < 2^53 then
    return string.format("%d", v)
  end
  for digits = 14, 17 do
    local s = string.format("%." .. digits .. "g", v)
    if tonumber(s) == v then return s end
  end
  return tostring(v)
end

---Strict decimal number parsing (what a template's numeric string may hold):
---optional sign, digits with an optional fraction, optional exponent;
---surrounding blanks allowed. Rejects hex, "inf", "nan" and empty strings,
---which Lua's tonumber would accept or mis-handle.
---@param s string
---@return number?
function M.parse_number(s)
  local body = s:match("^%s*(.-)%s*$")
  local mant, exp = body:match("^([+-]?[%d.]+)([eE][+-]?%d+)$")
  if not mant then mant, exp = body, "" end
  local sign, digits = mant:match("^([+-]?)(.*)$")
  if not (digits:match("^%d+$") or digits:match("^%d+%.%d*$") or digits:match("^%.%d+$")) then
    return nil
  end
  return tonumber(sign .. digits .. exp)
end

-- The host's counter (host/lua/string_lib.h), looked up once; false when
-- there is none (plain luajit): gsub counts then.
local host_utf8_len

---Number of characters in a UTF-8 string (AWS length limits count
---characters, not bytes).
---@param s string
---@return integer
function M.utf8_len(s)
  if host_utf8_len == nil then host_utf8_len = host_field("utf8_len") or false end
  if host_utf8_len then return host_utf8_len(s) end
  local _, n = s:gsub("[^\128-\191]", "")
  return n
end

return M
