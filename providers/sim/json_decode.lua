-- sim.json_decode: JSON text to Lua values, for the sim services that take
-- JSON documents as strings (Step Functions' definitions and execution
-- inputs). Objects and arrays become tables (an empty array stays a list
-- when encoded again: it carries the SDK's array marker), null becomes the
-- host's JSON-null sentinel (moonstack.values.null()), numbers doubles.
--
--   local decode = require("sim.json_decode")
--   local v, why = decode('{"a": [1, 2]}')   -- nil and why for bad text

local values = require("moonstack.values")

local ESCAPES = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
local ARRAY = { __moonstack_json = "array" }

local function utf8_char(code)
  if code < 0x80 then return string.char(code) end
  if code < 0x800 then return string.char(0xC0 + math.floor(code / 64), 0x80 + code % 64) end
  if code < 0x10000 then
    return string.char(0xE0 + math.floor(code / 4096), 0x80 + math.floor(code / 64) % 64, 0x80 + code % 64)
  end
  return string.char(0xF0 + math.floor(code / 262144), 0x80 + math.floor(code / 4096) % 64,
    0x80 + math.floor(code / 64) % 64, 0x80 + code % 64)
end

local function decode(text)
  if type(text) ~= "string" then return nil, "not a string" end
  local pos = 1
  local function err(what) error({ json_error = what .. " at character " .. pos }, 0) end
  local function skip() pos = text:find("[^ \t\r\n]", pos) or #text + 1 end
  local value

  local function str()
    pos = pos + 1
    local out = {}
    while true do
      local s, e = text:find('[%z\1-\31"\\]', pos)
      if not s then err("unterminated string") end
      out[#out + 1] = text:sub(pos, s - 1)
      local c = text:sub(s, s)
      if c == '"' then pos = s + 1; return table.concat(out) end
      if c ~= "\\" then pos = s; err("control character in string") end
      local x = text:sub(s + 1, s + 1)
      if x == "u" then
        local hex = text:sub(s + 2, s + 5)
        if not hex:match("^%x%x%x%x$") then pos = s; err("bad \\u escape") end
        local code = tonumber(hex, 16)
        local nexthex = text:sub(s + 6, s + 7) == "\\u" and text:sub(s + 8, s + 11) or nil
        if code >= 0xD800 and code < 0xDC00 and nexthex and nexthex:match("^%x%x%x%x$") then
          code = 0x10000 + (code - 0xD800) * 1024 + (tonumber(nexthex, 16) - 0xDC00)
          pos = s + 12
        else
          pos = s + 6
        end
        out[#out + 1] = utf8_char(code)
      elseif ESCAPES[x] then
        out[#out + 1] = ESCAPES[x]
        pos = s + 2
      else
        pos = s; err("bad escape")
      end
    end
  end

  function value()
    skip()
    local c = text:sub(pos, pos)
    if c == "{" then
      pos = pos + 1
      local obj = {}
      skip()
      if text:sub(pos, pos) == "}" then pos = pos + 1; return obj end
      while true do
        skip()
        if text:sub(pos, pos) ~= '"' then err("expected a string key") end
        local k = str()
        skip()
        if text:sub(pos, pos) ~= ":" then err("expected ':'") end
        pos = pos + 1
        obj[k] = value()
        skip()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == "}" then return obj end
        if d ~= "," then pos = pos - 1; err("expected ',' or '}'") end
      end
    elseif c == "[" then
      pos = pos + 1
      local arr = setmetatable({}, ARRAY)
      skip()
      if text:sub(pos, pos) == "]" then pos = pos + 1; return arr end
      while true do
        arr[#arr + 1] = value()
        skip()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == "]" then return arr end
        if d ~= "," then pos = pos - 1; err("expected ',' or ']'") end
      end
    elseif c == '"' then
      return str()
    elseif text:sub(pos, pos + 3) == "true" then pos = pos + 4; return true
    elseif text:sub(pos, pos + 4) == "false" then pos = pos + 5; return false
    elseif text:sub(pos, pos + 3) == "null" then pos = pos + 4; return values.null()
    end
    local num = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
    if not num or num == "" or num == "-" then err("unexpected character") end
    pos = pos + #num
    local n = tonumber(num)
    if not n then err("bad number") end
    return n
  end

  local ok, r = pcall(function()
    local v = value()
    skip()
    if pos <= #text then err("trailing characters") end
    return v
  end)
  if ok then return r end
  if type(r) == "table" and r.json_error then return nil, r.json_error end
  error(r, 0)
end

return decode
