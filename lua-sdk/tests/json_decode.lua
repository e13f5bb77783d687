-- A small JSON decoder for tests that read JSON fixtures under plain luajit
-- (the host parses JSON in C++; the SDK itself never needs this). Arrays
-- and objects become plain tables; null becomes nil.
local M = {}

local ESC = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", ['"'] = '"', ["\\"] = "\\", ["/"] = "/" }

function M.decode(text)
  local i = 1
  local function ws() i = text:find("[^ \t\r\n]", i) or #text + 1 end
  local function fail(what) error(string.format("JSON: %s at offset %d", what, i), 0) end
  local value
  local function str()
    local out = {}
    i = i + 1
    while true do
      local c = text:sub(i, i)
      if c == "" then fail("unterminated string") end
      if c == '"' then i = i + 1 break end
      if c == "\\" then
        local e = text:sub(i + 1, i + 1)
        if e == "u" then
          local code = tonumber(text:sub(i + 2, i + 5), 16)
          if code < 0x80 then out[#out + 1] = string.char(code)
          elseif code < 0x800 then out[#out + 1] = string.char(0xC0 + math.floor(code / 64), 0x80 + code % 64)
          else out[#out + 1] = string.char(0xE0 + math.floor(code / 4096), 0x80 + math.floor(code / 64) % 64, 0x80 + code % 64) end
          i = i + 6
        else
          out[#out + 1] = ESC[e] or fail("bad escape")
          i = i + 2
        end
      else
        out[#out + 1] = c
        i = i + 1
      end
    end
    return table.concat(out)
  end
  value = function()
    ws()
    local c = text:sub(i, i)
    if c == "{" then
      local t = {}
      i = i + 1
      ws()
      if text:sub(i, i) == "}" then i = i + 1 return t end
      while true do
        ws()
        if text:sub(i, i) ~= '"' then fail("expected a key") end
        local k = str()
        ws()
        if text:sub(i, i) ~= ":" then fail("expected :") end
        i = i + 1
        t[k] = value()
        ws()
        local d = text:sub(i, i)
        i = i + 1
        if d == "}" then return t end
        if d ~= "," then fail("expected , or }") end
      end
    elseif c == "[" then
      local t = {}
      i = i + 1
      ws()
      if text:sub(i, i) == "]" then i = i + 1 return t end
      while true do
        t[#t + 1] = value()
        ws()
        local d = text:sub(i, i)
        i = i + 1
        if d == "]" then return t end
        if d ~= "," then fail("expected , or ]") end
      end
    elseif c == '"' then return str()
    elseif text:sub(i, i + 3) == "true" then i = i + 4 return true
    elseif text:sub(i, i + 4) == "false" then i = i + 5 return false
    elseif text:sub(i, i + 3) == "null" then i = i + 4 return nil
    end
    local num = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", i)
    if not num or num == "" then fail("unexpected character") end
    i = i + #num
    return tonumber(num)
  end
  local v = value()
  return v
end

function M.read_file(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return M.decode(text)
end

return M
