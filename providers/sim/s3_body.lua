-- sim.s3_body: object bodies kept binary-safe in world records.
--
-- World records persist as JSON, whose strings are UTF-8 text: a body that
-- is valid UTF-8 is stored as it is ({Body = ...}), any other (a zip, an
-- image) as base64 ({BodyBase64 = ...}). `read` gives the bytes back either way.

local M = {}

local ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

---True when `s` is valid UTF-8 without NUL (JSON text as the store writes it).
function M.is_text(s)
  local i, n = 1, #s
  while i <= n do
    local c = s:byte(i)
    local len
    if c == 0 then return false
    elseif c < 0x80 then len = 1
    elseif c >= 0xC2 and c <= 0xDF then len = 2
    elseif c >= 0xE0 and c <= 0xEF then len = 3
    elseif c >= 0xF0 and c <= 0xF4 then len = 4
    else return false end
    for j = i + 1, i + len - 1 do
      local b = s:byte(j)
      if not b or b < 0x80 or b > 0xBF then return false end
    end
    i = i + len
  end
  return true
end

function M.encode_base64(s)
  local out = {}
  for i = 1, #s, 3 do
    local a, b, c = s:byte(i, i + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    local c1, c2 = math.floor(n / 262144) % 64, math.floor(n / 4096) % 64
    local c3, c4 = math.floor(n / 64) % 64, n % 64
    out[#out + 1] = ALPHABET:sub(c1 + 1, c1 + 1) .. ALPHABET:sub(c2 + 1, c2 + 1)
      .. (b and ALPHABET:sub(c3 + 1, c3 + 1) or "=") .. (c and ALPHABET:sub(c4 + 1, c4 + 1) or "=")
  end
  return table.concat(out)
end

function M.decode_base64(s)
  return require("sim.ec2.boot_script").decode_base64(s) or ""
end

---The record fields that hold `body`.
function M.fields(body)
  if M.is_text(body) then return body, nil end
  return nil, M.encode_base64(body)
end

---The bytes of a stored object.
function M.read(o)
  if o.BodyBase64 then return M.decode_base64(o.BodyBase64) end
  return o.Body or ""
end

return M
