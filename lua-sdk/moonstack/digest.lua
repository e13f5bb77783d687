-- moonstack.digest: SHA-256 (FIPS 180-4), for the simulated services (a
-- Lambda function's CodeSha256 is the base64 of its package's digest).
--
-- The host installs a C++ `moonstack.digest` with the same function
-- (host/lua/digest_binding.h), which `require` finds first: this file is
-- what plain luajit (the provider tests) uses, at ~3 MB/s with the JIT off.

local bit = require("bit")
local band, bor, bxor, bnot, rshift, lshift, ror, tobit =
  bit.band, bit.bor, bit.bxor, bit.bnot, bit.rshift, bit.lshift, bit.ror, bit.tobit
local byte, char, rep = string.byte, string.char, string.rep

local M = {}

local K = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}
for i = 1, 64 do K[i] = tobit(K[i]) end

-- A 32-bit word as 4 big-endian bytes.
local function word_bytes(v)
  return char(band(rshift(v, 24), 255), band(rshift(v, 16), 255), band(rshift(v, 8), 255), band(v, 255))
end

---The 32 raw bytes of the SHA-256 of `bytes`.
---@param bytes string
---@return string
function M.sha256(bytes)
  assert(type(bytes) == "string", "digest.sha256: expected a string")
  local n = #bytes
  local bits = n * 8
  local msg = bytes .. "\128" .. rep("\0", (55 - n) % 64)
    .. word_bytes(math.floor(bits / 2 ^ 32)) .. word_bytes(bits % 2 ^ 32)
  local h0, h1, h2, h3 = tobit(0x6a09e667), tobit(0xbb67ae85), tobit(0x3c6ef372), tobit(0xa54ff53a)
  local h4, h5, h6, h7 = tobit(0x510e527f), tobit(0x9b05688c), tobit(0x1f83d9ab), tobit(0x5be0cd19)
  local w = {}
  for at = 1, #msg, 64 do
    for j = 0, 15 do
      local a, b, c, d = byte(msg, at + j * 4, at + j * 4 + 3)
      w[j] = bor(lshift(a, 24), lshift(b, 16), lshift(c, 8), d)
    end
    for j = 16, 63 do
      local x, y = w[j - 15], w[j - 2]
      w[j] = tobit(w[j - 16] + bxor(ror(x, 7), ror(x, 18), rshift(x, 3)) + w[j - 7]
        + bxor(ror(y, 17), ror(y, 19), rshift(y, 10)))
    end
    local a, b, c, d, e, f, g, h = h0, h1, h2, h3, h4, h5, h6, h7
    for j = 0, 63 do
      local t1 = h + bxor(ror(e, 6), ror(e, 11), ror(e, 25)) + bxor(band(e, f), band(bnot(e), g)) + K[j + 1] + w[j]
      local t2 = bxor(ror(a, 2), ror(a, 13), ror(a, 22)) + bxor(band(a, b), band(a, c), band(b, c))
      h, g, f, e, d, c, b, a = g, f, e, tobit(d + t1), c, b, a, tobit(t1 + t2)
    end
    h0, h1, h2, h3 = tobit(h0 + a), tobit(h1 + b), tobit(h2 + c), tobit(h3 + d)
    h4, h5, h6, h7 = tobit(h4 + e), tobit(h5 + f), tobit(h6 + g), tobit(h7 + h)
  end
  return word_bytes(h0) .. word_bytes(h1) .. word_bytes(h2) .. word_bytes(h3)
    .. word_bytes(h4) .. word_bytes(h5) .. word_bytes(h6) .. word_bytes(h7)
end

return M
