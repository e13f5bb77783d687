-- moonstack.regex: the regular expressions of registry schemas' "pattern"
-- (ECMAScript, as the CloudFormation registry reads them) and of SSM's
-- AllowedPattern (Java): the part both dialects share, e.g. "^\d+$",
-- "^[a-zA-Z0-9-_]{1,80}$" or "^(?!aws:).*$".
--
-- Why a matcher in Lua rather than std::regex on the C++ side: property
-- validation runs in Lua (Declaration:validate), under plain luajit in the
-- SDK's tests as in the host; and Lua code is stopped by the host's
-- deadline hook, where std::regex backtracks without bound in C++ (and
-- recurses per character, so a long value can overflow the stack).
--
-- Supported: literals and escapes (\d \w \s \D \W \S, \t \n \r, escaped
-- punctuation), ".", classes [a-z0-9_] / [^...] with escapes inside, groups
-- (...) and (?:...), lookahead (?=...) and (?!...), alternation |, anchors
-- ^ $, quantifiers * + ? {n} {n,} {n,m} (a lazy or possessive mark after one
-- is accepted and matched greedily: for a yes/no match the result is the
-- same).
-- Anything else (lookbehind, backreferences, \b, \p{...}) makes `compile`
-- return nil and a reason; callers then skip the check rather than reject a
-- value AWS would accept.
--
-- Matching is backtracking over bytes; the value must match as a whole
-- (Java's Matcher.matches), so "\d+" rejects "12a" just as "^\d+$" does.

local M = {}

local function class_of(set, negate) return { kind = "class", set = set, negate = negate } end

-- Predicates for the shorthand classes.
local SHORT = {
  d = function(c) return c:match("%d") ~= nil end,
  w = function(c) return c:match("[%w_]") ~= nil end,
  s = function(c) return c:match("[ \t\n\r\f\v]") ~= nil end,
}

local CONTROL = { t = "\t", n = "\n", r = "\r", f = "\f", v = "\v", e = "\27", a = "\7" }

-- Parser ---------------------------------------------------------------------

local Parser = {}
Parser.__index = Parser

local function unsupported(why) error({ unsupported = why }, 0) end

function Parser:peek() return self.s:sub(self.i, self.i) end
function Parser:take() local c = self.s:sub(self.i, self.i); self.i = self.i + 1; return c end
function Parser:eof() return self.i > #self.s end

-- An escape after "\": a class item { test = fn } or a literal character.
function Parser:escape()
  if self:eof() then unsupported("trailing backslash") end
  local c = self:take()
  local low = c:lower()
  if SHORT[low] then
    local f = SHORT[low]
    if c == low then return { test = f } end
    return { test = function(x) return not f(x) end }
  end
  if CONTROL[c] then return { char = CONTROL[c] } end
  if c:match("%w") then unsupported("\\" .. c) end
  return { char = c }
end

function Parser:class()
  local negate = false
  if self:peek() == "^" then self:take(); negate = true end
  local set, first = {}, true
  while true do
    if self:eof() then unsupported("unclosed [") end
    local c = self:take()
    if c == "]" and not first then break end
    first = false
    local item
    if c == "\\" then item = self:escape()
    elseif c == "[" then unsupported("nested class")
    else item = { char = c } end
    -- A range a-z (a "-" before "]" is a literal).
    if item.char and self:peek() == "-" and self.s:sub(self.i + 1, self.i + 1) ~= "]"
        and self.i + 1 <= #self.s then
      self:take()
      local hi = self:take()
      if hi == "\\" then
        local e = self:escape()
        if not e.char then unsupported("range to a class") end
        hi = e.char
      end
      if hi:byte() < item.char:byte() then unsupported("bad range") end
      set[#set + 1] = { lo = item.char:byte(), hi = hi:byte() }
    else
      set[#set + 1] = item
    end
  end
  return class_of(set, negate)
end

function Parser:atom()
  local c = self:take()
  if c == "." then return { kind = "any" } end
  if c == "^" then return { kind = "bol" } end
  if c == "$" then return { kind = "eol" } end
  if c == "[" then return self:class() end
  if c == "(" then
    local look
    if self:peek() == "?" then
      self:take()
      local c2 = self:take()
      if c2 == "=" or c2 == "!" then look = c2 elseif c2 ~= ":" then unsupported("(?" .. c2 .. " group") end
    end
    local alt = self:alternation()
    if self:take() ~= ")" then unsupported("unclosed (") end
    if look then return { kind = "look", alt = alt, negate = look == "!" } end
    return { kind = "group", alt = alt }
  end
  if c == "\\" then
    local e = self:escape()
    if e.char then return { kind = "char", char = e.char } end
    return class_of({ e }, false)
  end
  if c == "*" or c == "+" or c == "?" or c == "{" then unsupported("nothing to repeat") end
  return { kind = "char", char = c }
end

-- A quantifier after an atom, or 1..1.
function Parser:quantifier()
  local c = self:peek()
  local min, max
  if c == "*" then min, max = 0, math.huge
  elseif c == "+" then min, max = 1, math.huge
  elseif c == "?" then min, max = 0, 1
  elseif c == "{" then
    local a, b, close = self.s:match("^{(%d*)(,?%d*)(})", self.i)
    if not close or a == "" then return 1, 1 end -- a literal "{", as Java would reject: keep it simple
    min = tonumber(a)
    if b == "" then max = min
    elseif b == "," then max = math.huge
    else max = tonumber(b:sub(2)) end
    if max < min then unsupported("bad {n,m}") end
    self.i = self.i + #a + #b + 1
  else
    return 1, 1
  end
  self:take()
  local mark = self:peek()
  if mark == "?" or mark == "+" then self:take() end
  return min, max
end

function Parser:sequence()
  local seq = {}
  while not self:eof() do
    local c = self:peek()
    if c == "|" or c == ")" then break end
    local atom = self:atom()
    local min, max = self:quantifier()
    seq[#seq + 1] = { atom = atom, min = min, max = max }
  end
  return seq
end

function Parser:alternation()
  local branches = { self:sequence() }
  while self:peek() == "|" do
    self:take()
    branches[#branches + 1] = self:sequence()
  end
  return branches
end

-- Matcher ----------------------------------------------------------------------

local match_alt

local function in_class(atom, c)
  local b = c:byte()
  local hit = false
  for _, item in ipairs(atom.set) do
    if item.char then hit = item.char == c
    elseif item.lo then hit = b >= item.lo and b <= item.hi
    else hit = item.test(c) end
    if hit then break end
  end
  if atom.negate then return not hit end
  return hit
end

-- Match one atom at `pos`, then continue with `k(new_pos)`.
local function match_atom(atom, s, pos, k)
  local kind = atom.kind
  if kind == "bol" then return pos == 1 and k(pos) end
  if kind == "eol" then return pos == #s + 1 and k(pos) end
  if kind == "group" then return match_alt(atom.alt, s, pos, k) end
  if kind == "look" then
    -- Zero-width: does the lookahead match here? Then go on from `pos`.
    local hit = match_alt(atom.alt, s, pos, function() return true end) == true
    return hit ~= atom.negate and k(pos)
  end
  if pos > #s then return false end
  local c = s:sub(pos, pos)
  if kind == "char" then return c == atom.char and k(pos + 1) end
  if kind == "any" then return c ~= "\n" and k(pos + 1) end
  if kind == "class" then return in_class(atom, c) and k(pos + 1) end
  return false
end

local function match_seq(seq, i, s, pos, k)
  local item = seq[i]
  if not item then return k(pos) end
  -- Greedy: take as many repetitions as possible, then back off. A
  -- repetition that consumed nothing ends the loop (no infinite "(a*)*").
  local function rep(count, p)
    if count < item.max then
      local ok = match_atom(item.atom, s, p, function(np)
        if np == p and count >= item.min then return false end
        return rep(count + 1, np)
      end)
      if ok then return true end
    end
    if count >= item.min then return match_seq(seq, i + 1, s, p, k) end
    return false
  end
  return rep(0, pos)
end

match_alt = function(branches, s, pos, k)
  for _, seq in ipairs(branches) do
    if match_seq(seq, 1, s, pos, k) then return true end
  end
  return false
end

-- API ------------------------------------------------------------------------------

---Compile `pattern`; nil and a reason when it uses what this module does not
---support.
---@param pattern string
---@return table? compiled
---@return string? why
function M.compile(pattern)
  local p = setmetatable({ s = pattern, i = 1 }, Parser)
  local ok, alt = pcall(function()
    local a = p:alternation()
    if not p:eof() then unsupported("unbalanced )") end
    return a
  end)
  if not ok then
    if type(alt) == "table" and alt.unsupported then return nil, alt.unsupported end
    error(alt, 0)
  end
  return { alt = alt }
end

---True when `value` matches the compiled pattern as a whole.
---@param compiled table
---@param value string
---@return boolean
function M.matches(compiled, value)
  return match_alt(compiled.alt, value, 1, function(p) return p == #value + 1 end) == true
end

---True when some part of `value` matches (JSON Schema's "pattern", which is
---not anchored unless the pattern says ^ / $).
---@param compiled table
---@param value string
---@return boolean
function M.search(compiled, value)
  for start = 1, #value + 1 do
    if match_alt(compiled.alt, value, start, function() return true end) == true then return true end
  end
  return false
end

---`value` against `pattern`: true / false, or nil and a reason when the
---pattern is not supported.
---@param pattern string
---@param value string
---@return boolean?
---@return string?
function M.test(pattern, value)
  local c, why = M.compile(pattern)
  if not c then return nil, why end
  return M.matches(c, value)
end

return M
