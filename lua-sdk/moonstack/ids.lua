-- moonstack.ids: physical IDs and ARNs in AWS's formats, deterministic under
-- a seed, so a scenario replays with the same IDs every time.
--
--   local ids = require("moonstack.ids").new("stack-seed")
--   ids:instance()      --> "i-0b22a22ee7a1b9c2f"   ("i-0" + 16 lowercase hex)
--   ids:role_id()       --> "AROA" + 17 of [A-Z0-9]  (21 characters)
--   ids:role_arn("123456789012", "web")  --> "arn:aws:iam::123456789012:role/web"
--
-- The generator is L'Ecuyer's combined linear congruential generator (CACM
-- 31(6), 1988), period ~2.3e18. Every product stays below 2^47, so plain
-- double arithmetic is exact: no `bit` library, no FFI, the same sequence
-- under LuaJIT and PUC Lua 5.1.

local M = {}

local floor = math.floor
local M1, A1 = 2147483563, 40014
local M2, A2 = 2147483399, 40692

---@class moonstack.Ids
---@field private s1 number
---@field private s2 number
---@field instance fun(self: moonstack.Ids): string            "i-" + 17 hex
---@field security_group fun(self: moonstack.Ids): string      "sg-" + 17 hex
---@field vpc fun(self: moonstack.Ids): string                 "vpc-" + 17 hex
---@field subnet fun(self: moonstack.Ids): string              "subnet-" + 17 hex
---@field image fun(self: moonstack.Ids): string               "ami-" + 17 hex
---@field internet_gateway fun(self: moonstack.Ids): string    "igw-" + 17 hex
---@field route_table fun(self: moonstack.Ids): string         "rtb-" + 17 hex
---@field network_interface fun(self: moonstack.Ids): string   "eni-" + 17 hex
---@field volume fun(self: moonstack.Ids): string              "vol-" + 17 hex
---@field snapshot fun(self: moonstack.Ids): string            "snap-" + 17 hex
---@field network_acl fun(self: moonstack.Ids): string         "acl-" + 17 hex
---@field key_pair fun(self: moonstack.Ids): string            "key-" + 17 hex
---@field launch_template fun(self: moonstack.Ids): string     "lt-" + 17 hex
---@field security_group_rule fun(self: moonstack.Ids): string "sgr-" + 17 hex
---@field eip_allocation fun(self: moonstack.Ids): string      "eipalloc-" + 17 hex
---@field role_id fun(self: moonstack.Ids): string             "AROA" + 17 [A-Z0-9]
---@field instance_profile_id fun(self: moonstack.Ids): string "AIPA" + 17 [A-Z0-9]
---@field user_id fun(self: moonstack.Ids): string             "AIDA" + 17 [A-Z0-9]
---@field group_id fun(self: moonstack.Ids): string            "AGPA" + 17 [A-Z0-9]
---@field policy_id fun(self: moonstack.Ids): string           "ANPA" + 17 [A-Z0-9]
local Ids = {}
Ids.__index = Ids

-- Seed text -> two non-zero states. Different moduli and multipliers keep the
-- two halves independent; the warm-up spreads nearby seeds ("1", "2") apart.
local function seed_states(seed)
  local text
  if seed == nil then text = "moonstack"
  elseif type(seed) == "number" then text = string.format("%.17g", seed)
  else text = tostring(seed) end
  local h1, h2 = #text % M1, (#text * 7) % M2
  for i = 1, #text do
    local b = text:byte(i)
    h1 = (h1 * 31 + b + 1) % M1
    h2 = (h2 * 37 + b + 1) % M2
  end
  if h1 == 0 then h1 = 1 end
  if h2 == 0 then h2 = 1 end
  return h1, h2
end

---A new generator. Same seed, same sequence. `seed` is any string or number
---(nil means the fixed seed "moonstack").
---@param seed string|number|nil
---@return moonstack.Ids
function M.new(seed)
  local s1, s2 = seed_states(seed)
  local g = setmetatable({ s1 = s1, s2 = s2 }, Ids)
  for _ = 1, 8 do g:next() end
  return g
end

---The generator's state, to persist with the world and `restore` later.
---@return { s1: number, s2: number }
function Ids:state() return { s1 = self.s1, s2 = self.s2 } end

---A generator continuing from a saved `state()`.
---@param state { s1: number, s2: number }
---@return moonstack.Ids
function M.restore(state)
  assert(type(state) == "table" and type(state.s1) == "number" and type(state.s2) == "number",
         "ids.restore: expected the table returned by state()")
  return setmetatable({ s1 = state.s1, s2 = state.s2 }, Ids)
end

---A generator whose state lives elsewhere: `chars(alphabet, n)` and
---`next()` draw from it (the host's world keeps the simulated cloud's
---generator: moonstack.world's draw and uniform). It has every ID method of
---a generator made by new(); state() has no meaning for it.
---@param chars fun(alphabet: string, n: integer): string
---@param next fun(): number
---@return moonstack.Ids
function M.backed(chars, next)
  return setmetatable({
    chars = function(_, alphabet, n) return chars(alphabet, n) end,
    next = function() return next() end,
  }, Ids)
end

---Next value, uniform in (0, 1).
---@return number
function Ids:next()
  self.s1 = (A1 * self.s1) % M1
  self.s2 = (A2 * self.s2) % M2
  local z = self.s1 - self.s2
  if z < 1 then z = z + (M1 - 1) end
  return z / M1
end

---Uniform integer in [0, n).
---@param n integer
---@return integer
function Ids:int(n) return floor(self:next() * n) end

local HEX = "0123456789abcdef"
local UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
local DIGITS = "0123456789"

-- alphabet -> its characters as a list of one-character strings.
local chars_of = {}

-- `n` characters of `alphabet`, each `alphabet[g:int(#alphabet) + 1]`: the
-- steps of next() and int() inlined, the same arithmetic in the same order
-- (the same IDs), without a method call and a sub() per character (an EC2
-- ID took 4 us, drawn several times per simulated action).
local function draw(g, alphabet, n)
  local chars = chars_of[alphabet]
  if not chars then
    chars = {}
    for i = 1, #alphabet do chars[i] = alphabet:sub(i, i) end
    chars_of[alphabet] = chars
  end
  local k = #chars
  local s1, s2 = g.s1, g.s2
  local out = {}
  for i = 1, n do
    s1 = (A1 * s1) % M1
    s2 = (A2 * s2) % M2
    local z = s1 - s2
    if z < 1 then z = z + (M1 - 1) end
    out[i] = chars[floor(z / M1 * k) + 1]
  end
  g.s1, g.s2 = s1, s2
  return table.concat(out)
end

---`n` characters of `alphabet`, each alphabet[floor(next() * #alphabet) + 1]:
---what every ID below is made of.
---@param alphabet string
---@param n integer
---@return string
function Ids:chars(alphabet, n) return draw(self, alphabet, n) end

---`n` lowercase hex digits.
---@param n integer
---@return string
function Ids:hex(n) return self:chars(HEX, n) end

---`n` characters of [A-Z0-9] (IAM unique IDs).
---@param n integer
---@return string
function Ids:upper_alnum(n) return self:chars(UPPER_ALNUM, n) end

---`n` decimal digits.
---@param n integer
---@return string
function Ids:digits(n) return self:chars(DIGITS, n) end

---An EC2-style ID: prefix, "-", 17 lowercase hex digits. The first digit is
---"0", as in every 17-digit ID AWS hands out today (i-0abc..., vpc-0abc...):
---the long format left its top digit for growth.
---@param prefix string
---@return string
function Ids:resource(prefix) return prefix .. "-0" .. self:hex(16) end

-- EC2 ID prefixes (all "<prefix>-" + 17 hex).
local EC2 = {
  instance = "i", security_group = "sg", vpc = "vpc", subnet = "subnet",
  image = "ami", internet_gateway = "igw", route_table = "rtb",
  network_interface = "eni", volume = "vol", snapshot = "snap",
  network_acl = "acl", key_pair = "key", launch_template = "lt",
  security_group_rule = "sgr", eip_allocation = "eipalloc",
}
for name, prefix in pairs(EC2) do
  Ids[name] = function(self) return self:resource(prefix) end
end

-- IAM unique IDs: a 4-letter type prefix + 17 characters = 21.
local IAM = {
  role_id = "AROA", instance_profile_id = "AIPA", user_id = "AIDA",
  group_id = "AGPA", policy_id = "ANPA",
}
for name, prefix in pairs(IAM) do
  Ids[name] = function(self) return prefix .. self:upper_alnum(17) end
end

---A random (version 4) UUID, lowercase: request IDs, stack ID suffixes.
---@return string
function Ids:uuid()
  local v = self:int(4) + 1 -- RFC 4122 variant: the 17th hex digit is 8, 9, a or b
  local variant = ("89ab"):sub(v, v)
  -- The digits of 8-4-3 and 3-12 drawn as two runs of 15: the same
  -- sequence as one draw per group, in two calls (a backed generator's
  -- draws cross into the host).
  local a, b = self:hex(15), self:hex(15)
  return a:sub(1, 8) .. "-" .. a:sub(9, 12) .. "-4" .. a:sub(13, 15) .. "-" .. variant .. b:sub(1, 3)
      .. "-" .. b:sub(4, 15)
end

---A 12-digit AWS account ID.
---@return string
function Ids:account() return self:digits(12) end

---An ARN: arn:<partition>:<service>:<region>:<account>:<resource>.
---Region and account may be "" (IAM, S3). Works as `ids.arn(...)` and
---`g:arn(...)`.
---@param service string
---@param region string?
---@param account string?
---@param resource string
---@param partition string? default "aws"
---@return string
function M.arn(service, region, account, resource, partition)
  return "arn:" .. (partition or "aws") .. ":" .. service .. ":" .. (region or "") .. ":"
      .. (account or "") .. ":" .. resource
end

-- IAM paths start and end with "/"; "/" is the default.
local function iam_path(path)
  if path == nil or path == "" then return "/" end
  if path:sub(1, 1) ~= "/" then path = "/" .. path end
  if path:sub(-1) ~= "/" then path = path .. "/" end
  return path
end

---arn:aws:iam::<account>:role<path><name>
---@param account string
---@param name string
---@param path string? default "/"
---@param partition string?
---@return string
function M.role_arn(account, name, path, partition)
  return M.arn("iam", "", account, "role" .. iam_path(path) .. name, partition)
end

---arn:aws:iam::<account>:instance-profile<path><name>
---@param account string
---@param name string
---@param path string? default "/"
---@param partition string?
---@return string
function M.instance_profile_arn(account, name, path, partition)
  return M.arn("iam", "", account, "instance-profile" .. iam_path(path) .. name, partition)
end

-- The ARN helpers need no randomness; methods just forward (ignoring self)
-- so `ids:arn(...)` reads the same as the other generators.
function Ids:arn(...) return M.arn(...) end
function Ids:role_arn(...) return M.role_arn(...) end
function Ids:instance_profile_arn(...) return M.instance_profile_arn(...) end

return M
