-- sim.cloudformation_util: small helpers the IAM, SSM and CloudFormation sims
-- share: dates in AWS's formats from the world clock, a deterministic string
-- hash (for values that must be stable without drawing IDs), URL encoding
-- and a JSON encoder for flat values.
--
-- Plain Lua 5.1: no os.date (the sandbox has no `os`), no bit library; the
-- hash keeps every product below 2^53 so doubles stay exact.

local M = {}

local floor = math.floor

-- Days since 1970-01-01 -> year, month, day (proleptic Gregorian). The
-- era-based conversion (H. Hinnant, "chrono-compatible low-level date
-- algorithms") is exact for every day a double can count.
local function civil_from_days(z)
  z = z + 719468
  local era = floor(z / 146097)
  local doe = z - era * 146097
  local yoe = floor((doe - floor(doe / 1460) + floor(doe / 36524) - floor(doe / 146096)) / 365)
  local y = yoe + era * 400
  local doy = doe - (365 * yoe + floor(yoe / 4) - floor(yoe / 100))
  local mp = floor((5 * doy + 2) / 153)
  local d = doy - floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  if m <= 2 then y = y + 1 end
  return y, m, d
end

local function parts(ms)
  local s = floor((ms or 0) / 1000)
  local days = floor(s / 86400)
  local rem = s - days * 86400
  local y, mo, d = civil_from_days(days)
  return y, mo, d, floor(rem / 3600), floor(rem % 3600 / 60), rem % 60
end

---ISO 8601 in UTC, as IAM returns CreateDate: "2024-05-01T12:00:00Z".
---@param ms number milliseconds since the epoch (the world clock)
---@return string
function M.iso8601(ms)
  return string.format("%04d-%02d-%02dT%02d:%02d:%02dZ", parts(ms))
end

local MONTHS = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" }

---The Common Log Format's time, as API Gateway and Lambda function URLs put
---it in an event's requestContext.time: "12/Mar/2020:19:03:58 +0000".
---@param ms number
---@return string
function M.clf_time(ms)
  local y, mo, d, h, mi, sec = parts(ms)
  return string.format("%02d/%s/%04d:%02d:%02d:%02d +0000", d, MONTHS[mo], y, h, mi, sec)
end

---SigV4's X-Amz-Date: "20240501T120000Z".
---@param ms number
---@return string
function M.amz_date(ms)
  return string.format("%04d%02d%02dT%02d%02d%02dZ", parts(ms))
end

---The date part of an X-Amz-Credential scope: "20240501".
---@param ms number
---@return string
function M.amz_day(ms)
  local y, mo, d = parts(ms)
  return string.format("%04d%02d%02d", y, mo, d)
end

-- A 31-bit polynomial string hash; `seed` picks an independent function.
local P31 = 2147483647
local function hash31(text, seed)
  local h = (seed * 7919 + 17) % P31
  for i = 1, #text do
    h = (h * 131 + text:byte(i) + seed) % P31
  end
  return h
end

---`n` lowercase hex digits determined by `text` (not random: the same text
---always gives the same digits). For values AWS derives from content
---(signatures) or that must be stable without a world (public AMI IDs).
---@param text string
---@param n integer
---@param salt integer? picks another sequence for the same text
---@return string
function M.hash_hex(text, n, salt)
  local out, i = {}, 0
  salt = salt or 0
  while #table.concat(out) < n do
    i = i + 1
    -- 24 bits per round, so each round gives six hex digits.
    out[#out + 1] = string.format("%06x", hash31(text, salt * 1000 + i) % 16777216)
  end
  return table.concat(out):sub(1, n)
end

---A plain list copy of `t` (nil gives an empty one). A record read back from
---the host's world store carries JSON markers on its tables, and an empty
---list was stored as an empty object: appending to it as it came would make
---an "object" with number keys, which the store refuses. Lists a sim grows
---go through this first.
---@param t table?
---@return table
function M.as_list(t)
  local out = {}
  for i, v in ipairs(t or {}) do out[i] = v end
  return out
end

---Percent-encodes every byte outside `keep` (a Lua character class body,
---default RFC 3986 unreserved characters).
---@param s string
---@param keep string?
---@return string
function M.url_encode(s, keep)
  local class = "[^" .. (keep or "%w%-%._~") .. "]"
  return (s:gsub(class, function(c) return string.format("%%%02X", c:byte()) end))
end

---Decodes %XX escapes (and nothing else: "+" stays "+").
---@param s string
---@return string
function M.url_decode(s)
  return (s:gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end

local ESCAPES = {
  ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f",
  ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t",
}

---A JSON string literal.
---@param s string
---@return string
function M.json_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return ESCAPES[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

---A JSON object from an ordered list of { key, value } string pairs (the
---order is kept: a wait condition's Data lists signals as they arrived).
---@param pairs_list { [1]: string, [2]: string }[]
---@return string
function M.json_object(pairs_list)
  local items = {}
  for i, kv in ipairs(pairs_list) do
    items[i] = M.json_string(kv[1]) .. ":" .. M.json_string(kv[2])
  end
  return "{" .. table.concat(items, ",") .. "}"
end

local function is_list(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n == #t and (n > 0 or (getmetatable(t) or {}).__moonstack_json == "array")
end

---`v` as compact JSON text, object keys sorted (a deterministic text for
---policies the APIs take as strings).
---@param v any
---@return string
function M.json(v)
  local t = type(v)
  if t == "string" then return M.json_string(v) end
  if t == "number" then return require("moonstack.values").number_to_string(v) end
  if t == "boolean" then return tostring(v) end
  if t ~= "table" or require("moonstack.values").is_null(v) then return "null" end
  local parts = {}
  if is_list(v) then
    for i, x in ipairs(v) do parts[i] = M.json(x) end
    return "[" .. table.concat(parts, ",") .. "]"
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for i, k in ipairs(keys) do parts[i] = M.json(k) .. ":" .. M.json(v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

return M
