-- sim.ec2.cidr: IPv4 addresses and CIDR blocks as plain numbers.
--
-- Lua numbers are doubles: every 32-bit value and every power of two up to
-- 2^32 is exact, so addresses are integers in [0, 2^32) and a block is the
-- range [first, last]. No `bit` library (providers run sandboxed).
--
--   local cidr = require("sim.ec2.cidr")
--   local b = cidr.parse("10.0.1.0/24")   --> { first=167772416, last=167772671, prefix=24, size=256, text="10.0.1.0/24" }
--   cidr.contains(cidr.parse("10.0.0.0/16"), b)  --> true
--   cidr.overlaps(b, cidr.parse("10.0.1.128/25")) --> true
--   cidr.ip_text(b.first + 4)              --> "10.0.1.4"

local M = {}

local floor = math.floor
local TWO32 = 4294967296

---Parses a dotted-quad IPv4 address ("10.0.1.4") to a number, or nil.
---Each part is 1-3 decimal digits in 0..255 (no signs, spaces or hex).
---@param text any
---@return number?
function M.parse_ip(text)
  if type(text) ~= "string" then return nil end
  local a, b, c, d = text:match("^(%d%d?%d?)%.(%d%d?%d?)%.(%d%d?%d?)%.(%d%d?%d?)$")
  if not a then return nil end
  local n = 0
  for _, part in ipairs({ a, b, c, d }) do
    local v = tonumber(part)
    if v > 255 then return nil end
    n = n * 256 + v
  end
  return n
end

---The dotted-quad text of an address number.
---@param n number
---@return string
function M.ip_text(n)
  local d = n % 256; n = floor(n / 256)
  local c = n % 256; n = floor(n / 256)
  local b = n % 256; n = floor(n / 256)
  return string.format("%d.%d.%d.%d", n % 256, b, c, d)
end

---@class sim.Cidr
---@field first number  network address
---@field last number   broadcast address
---@field prefix integer
---@field size number   number of addresses
---@field text string   canonical "a.b.c.d/n"

---Parses "a.b.c.d/n" (n in 0..32). Returns the block, or nil and why:
---"syntax" (not an IPv4 CIDR at all) or "host bits" (the address is not the
---block's network address, e.g. "10.0.0.1/16").
---@param text any
---@return sim.Cidr?
---@return string? why
function M.parse(text)
  if type(text) ~= "string" then return nil, "syntax" end
  local ip, len = text:match("^([%d%.]+)/(%d%d?)$")
  if not ip then return nil, "syntax" end
  local base = M.parse_ip(ip)
  local prefix = tonumber(len)
  if not base or prefix > 32 then return nil, "syntax" end
  local size = 2 ^ (32 - prefix)
  if base % size ~= 0 then return nil, "host bits" end
  return { first = base, last = base + size - 1, prefix = prefix, size = size,
           text = M.ip_text(base) .. "/" .. prefix }
end

---True when block `inner` lies entirely within block `outer`.
---@param outer sim.Cidr
---@param inner sim.Cidr
---@return boolean
function M.contains(outer, inner)
  return inner.first >= outer.first and inner.last <= outer.last
end

---True when the address number `n` is inside the block.
---@param block sim.Cidr
---@param n number
---@return boolean
function M.contains_ip(block, n)
  return n >= block.first and n <= block.last
end

---True when the two blocks share at least one address.
---@param a sim.Cidr
---@param b sim.Cidr
---@return boolean
function M.overlaps(a, b)
  return a.first <= b.last and b.first <= a.last
end

M.TWO32 = TWO32

return M
