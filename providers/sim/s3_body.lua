-- sim.s3_body: object bodies, kept outside the record or binary-safe in it.
--
-- A body `moonstack serve` received over HTTP is never a Lua string: the
-- host streams it into blobs of the state file (engine/store/blob_store.h)
-- and the sim is handed {Id, Size, MD5}; the record names the blobs
-- ({Blobs = {id...}, Sizes = {bytes...}}: a multipart object is its parts'
-- blobs in order), so the record owns them and its removal frees them.
-- A body given as a string (a provider, `moonstack world call`) is stored
-- in the record: as it is when valid UTF-8 ({Body = ...}, world records
-- persist as JSON), else as base64 ({BodyBase64 = ...}). `read` gives the
-- bytes back in every case, for the sim's own small readers (a TemplateURL's
-- template, a Lambda zip); `serve` streams blob bodies from the store.

local world = require("sim.world")

local M = {}

local ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

---True when `s` is valid UTF-8 without NUL (JSON text as the store writes it).
function M.is_text(s)
  if not s:find("[%z\128-\255]") then return true end  -- ASCII without NUL: text, at C speed
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

local bit = require("bit")
local band, bor, lshift, rshift = bit.band, bit.bor, bit.lshift, bit.rshift
local unpack = unpack or table.unpack

-- Base64 of object bodies of some MiB within a provider call's time and
-- memory: characters are gathered as byte values and turned into a string
-- every CHUNK of them (one string.char per chunk, not one string per 3
-- bytes), and the chunks joined once.
local CHUNK = 4096
local ENC, DEC = {}, {}
for i = 0, 63 do
  ENC[i] = ALPHABET:byte(i + 1)
  DEC[ALPHABET:byte(i + 1)] = i
end

-- The first k byte values of buf appended to parts as one string; 0 (the
-- new count).
local function flush(parts, buf, k)
  if k > 0 then parts[#parts + 1] = string.char(unpack(buf, 1, k)) end
  return 0
end

function M.encode_base64(s)
  local parts, buf, k = {}, {}, 0
  local n = #s
  local full = n - n % 3
  for i = 1, full, 3 do
    local a, b, c = s:byte(i, i + 2)
    local v = bor(lshift(a, 16), lshift(b, 8), c)
    buf[k + 1], buf[k + 2] = ENC[rshift(v, 18)], ENC[band(rshift(v, 12), 63)]
    buf[k + 3], buf[k + 4] = ENC[band(rshift(v, 6), 63)], ENC[band(v, 63)]
    k = k + 4
    if k >= CHUNK then k = flush(parts, buf, k) end
  end
  flush(parts, buf, k)
  if n > full then  -- one or two bytes left: padded
    local a, b = s:byte(full + 1, n)
    local v = bor(lshift(a, 16), lshift(b or 0, 8))
    parts[#parts + 1] = string.char(ENC[rshift(v, 18)], ENC[band(rshift(v, 12), 63)])
      .. (b and string.char(ENC[band(rshift(v, 6), 63)]) or "=") .. "="
  end
  return table.concat(parts)
end

-- The bodies this module stored (encode_base64's output); "" for anything
-- that is not base64.
function M.decode_base64(s)
  if #s % 4 ~= 0 or s:find("[^%w%+/=]") then return "" end
  local parts, buf, k = {}, {}, 0
  for i = 1, #s, 4 do
    local a, b, c, d = s:byte(i, i + 3)
    local v = bor(lshift(DEC[a] or 0, 18), lshift(DEC[b] or 0, 12), lshift(DEC[c] or 0, 6), DEC[d] or 0)
    buf[k + 1] = rshift(v, 16)
    k = k + 1
    if c ~= 61 then buf[k + 1] = band(rshift(v, 8), 255); k = k + 1 end
    if d ~= 61 then buf[k + 1] = band(v, 255); k = k + 1 end
    if k >= CHUNK then k = flush(parts, buf, k) end
  end
  flush(parts, buf, k)
  return table.concat(parts)
end

---The record fields that hold `body`.
function M.fields(body)
  if M.is_text(body) then return body, nil end
  return nil, M.encode_base64(body)
end

---The record fields of a body the host stored as a blob ({Id, Size, MD5}).
function M.blob_fields(blob)
  return { Blobs = { blob.Id }, Sizes = { blob.Size } }
end

---The bytes of a stored object (or of a GetObject answer's BodyBlob).
function M.read(o)
  if o.Blobs then
    local parts = {}
    for i, id in ipairs(o.Blobs) do parts[i] = world.read_blob(id, 0, o.Sizes[i]) end
    return table.concat(parts)
  end
  if o.BodyBase64 then return M.decode_base64(o.BodyBase64) end
  return o.Body or ""
end

---The bytes of a GetObject answer: its Body, or its blobs read.
function M.result_bytes(r)
  if r.BodyBlob then return M.read(r.BodyBlob) end
  return r.Body
end

return M
