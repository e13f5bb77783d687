-- What a simulated instance's boot script does that CloudFormation can see:
-- a script that runs cfn-signal against a wait-condition handle URL signals
-- it once the instance is running, as the real script would (the
-- ec2_with_waitcondition templates of the corpus rely on it). Only SUCCESS
-- signals are sent; world config ec2.run_user_data = false turns it off.

local B = {}

local ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local VALUE = {}
for i = 1, #ALPHABET do VALUE[ALPHABET:byte(i)] = i - 1 end

---Base64 text -> bytes; nil when it is not base64 (UserData given raw).
---@param s string
---@return string?
function B.decode_base64(s)
  s = s:gsub("%s", "")
  if #s == 0 or #s % 4 ~= 0 or s:find("[^%w%+/=]") then return nil end
  local out, n = {}, 0
  for i = 1, #s, 4 do
    local a, b, c, d = s:byte(i, i + 3)
    local va, vb = VALUE[a], VALUE[b]
    if va == nil or vb == nil then return nil end
    local vc = c ~= 61 and VALUE[c] or 0
    local vd = d ~= 61 and VALUE[d] or 0
    local triple = va * 262144 + vb * 4096 + vc * 64 + vd
    n = n + 1
    out[n] = string.char(math.floor(triple / 65536) % 256)
    if c ~= 61 then n = n + 1; out[n] = string.char(math.floor(triple / 256) % 256) end
    if d ~= 61 then n = n + 1; out[n] = string.char(triple % 256) end
  end
  return table.concat(out)
end

---The wait-condition handle URLs a boot script signals with cfn-signal.
---@param user_data string? the instance's UserData (base64, or raw)
---@return string[]
function B.signalled_handles(user_data)
  if type(user_data) ~= "string" or user_data == "" then return {} end
  local script = B.decode_base64(user_data) or user_data
  if not script:find("cfn%-signal") then return {} end
  local urls, seen = {}, {}
  for url in script:gmatch("https://cloudformation%-waitcondition%-[^%s'\"]+") do
    if not seen[url] then
      seen[url] = true
      urls[#urls + 1] = url
    end
  end
  return urls
end

return B
