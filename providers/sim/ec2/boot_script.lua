-- What a simulated instance's boot script does that CloudFormation can see,
-- once the instance is running, as the real script would:
--  - cfn-signal against a wait-condition handle URL signals the handle (the
--    ec2_with_waitcondition templates of the corpus rely on it);
--  - cfn-signal --stack S --resource R (the CreationPolicy form, e.g.
--    `/opt/aws/bin/cfn-signal -e $? --stack ${AWS::StackName} --resource
--    WebServer --region ${AWS::Region}`) signals resource R of stack S
--    (sim.cloudformation.SignalResource) with the instance ID as UniqueId,
--    cfn-signal's default, so templates with a CreationPolicy deploy without
--    a person signalling.
-- The script is taken to succeed: only SUCCESS signals are sent. World
-- config ec2.run_user_data = false turns it all off.

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

local function unquote(v) return v and (v:gsub("^[\"']", ""):gsub("[\"';]$", "")) end

-- The value of option `name` (--name V or --name=V) in a command line.
local function option(line, name)
  return unquote(line:match("%-%-" .. name .. "[%s=]+(%S+)"))
end

---The resources a boot script signals with `cfn-signal --stack S --resource R`.
---@param user_data string? the instance's UserData (base64, or raw)
---@return { stack: string, resource: string }[]
function B.signalled_resources(user_data)
  if type(user_data) ~= "string" or user_data == "" then return {} end
  local script = B.decode_base64(user_data) or user_data
  if not script:find("cfn%-signal") then return {} end
  script = script:gsub("\\\r?\n", " ")  -- continued lines are one command
  local out, seen = {}, {}
  for line in (script .. "\n"):gmatch("([^\n]*)\n") do
    if line:find("cfn%-signal") and not line:find("^%s*#") then
      local stack, resource = option(line, "stack"), option(line, "resource")
      if stack and resource and not seen[stack .. "/" .. resource] then
        seen[stack .. "/" .. resource] = true
        out[#out + 1] = { stack = stack, resource = resource }
      end
    end
  end
  return out
end

---Runs what the boot script of a running instance does that CloudFormation
---sees: its cfn-signal calls.
---@param user_data string?
---@param instance_id string
---@param env table { region, now_ms, account }
function B.run(user_data, instance_id, env)
  local handles = B.signalled_handles(user_data)
  local resources = B.signalled_resources(user_data)
  if #handles == 0 and #resources == 0 then return end
  local cfn = require("sim.cloudformation")
  for _, url in ipairs(handles) do
    -- A handle that does not exist (deleted, another region) is S3's
    -- AccessDenied for the real script too: nothing happens.
    pcall(cfn.SignalWaitCondition,
      { Handle = url, Status = "SUCCESS", UniqueId = instance_id, Data = "Application has completed configuration." },
      env)
  end
  for _, r in ipairs(resources) do
    -- A signal the real cfn-signal would have had refused (a stack that is
    -- not waiting) only fails the script: nothing happens here either.
    pcall(cfn.SignalResource,
      { StackName = r.stack, LogicalResourceId = r.resource, UniqueId = instance_id, Status = "SUCCESS" }, env)
  end
end

return B
