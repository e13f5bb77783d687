-- sim.md5: RFC 1321's MD5 of a (short) string, as 32 hex digits. S3's
-- multipart ETag is the MD5 of its parts' binary MD5s (16 bytes each, at
-- most 10,000 parts); object bodies themselves are digested by the host as
-- they arrive (engine/base/md5.h), never here.

local bit = require("bit")
local band, bor, bxor, bnot, lshift, rshift, rol, tobit =
  bit.band, bit.bor, bit.bxor, bit.bnot, bit.lshift, bit.rshift, bit.rol, bit.tobit

local K, S = {}, {
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
  5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
  6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21 }
for i = 0, 63 do K[i + 1] = tobit(math.floor(math.abs(math.sin(i + 1)) * 2 ^ 32)) end

local function le_word(s, i)
  local a, b, c, d = s:byte(i, i + 3)
  return bor(a, lshift(b, 8), lshift(c, 16), lshift(d, 24))
end

local function le_hex(w)
  local out = {}
  for i = 0, 3 do out[#out + 1] = string.format("%02x", band(rshift(w, 8 * i), 255)) end
  return table.concat(out)
end

return function(s)
  local n = #s
  local padded = s .. "\128" .. string.rep("\0", (55 - n) % 64)
  local bits = n * 8
  for i = 0, 7 do padded = padded .. string.char(math.floor(bits / 2 ^ (8 * i)) % 256) end
  local h0, h1, h2, h3 = tobit(0x67452301), tobit(0xefcdab89), tobit(0x98badcfe), tobit(0x10325476)
  local m = {}
  for block = 1, #padded, 64 do
    for j = 0, 15 do m[j] = le_word(padded, block + j * 4) end
    local a, b, c, d = h0, h1, h2, h3
    for i = 0, 63 do
      local f, g
      if i < 16 then f, g = bor(band(b, c), band(bnot(b), d)), i
      elseif i < 32 then f, g = bor(band(d, b), band(bnot(d), c)), (5 * i + 1) % 16
      elseif i < 48 then f, g = bxor(b, c, d), (3 * i + 5) % 16
      else f, g = bxor(c, bor(b, bnot(d))), (7 * i) % 16 end
      a, d, c, b = d, c, b, tobit(b + rol(tobit(a + f + K[i + 1] + m[g]), S[i + 1]))
    end
    h0, h1, h2, h3 = tobit(h0 + a), tobit(h1 + b), tobit(h2 + c), tobit(h3 + d)
  end
  return le_hex(h0) .. le_hex(h1) .. le_hex(h2) .. le_hex(h3)
end
