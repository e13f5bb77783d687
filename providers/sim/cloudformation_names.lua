-- sim.cloudformation_names: the names CloudFormation makes up for resources
-- whose template leaves the name out (RoleName, InstanceProfileName, an SSM
-- parameter's Name, ...).
--
-- The rule is the one of CloudFormation's resource-provider toolkit
-- (aws-cloudformation/cloudformation-cli-java-plugin, IdentifierUtils):
--   * a random tail of 12 letters and digits (mixed case), after a "-";
--   * `physical(stack, logical, max)`: "<stack>-<logical>-<tail>", where the
--     stack name loses leading dashes and runs of dashes, and when the whole
--     is too long, the max - 14 characters left are shared fairly between
--     the stack name and the logical ID (each gets half, the stack name
--     first; a part shorter than its half leaves the rest to the other);
--   * `prefixed(prefix, max)`: "<prefix>-<tail>", the prefix cut to max - 13.
-- Real names agree: the IAM role "ChineseboostAnalyticsStac-
-- RainlyticsSummariesJobFun-UjecjFhpdr1d" (64 characters: 25 + 25, reported
-- in KensioSoftware/yulin#1113) and the SSM parameter
-- "CFN-ADPassword-RaW3KZCsUoag" (AWS::SSM::Parameter's handler calls
-- prefixed("CFN-" .. logical, 40)).
--
-- The tail is drawn from the world's shared ID sequence, so a replay with
-- the same seed names resources the same way.

local world = require("sim.world")

local M = {}

M.TAIL_LENGTH = 12
local ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
local ALNUM_CHARS = {}
for i = 1, #ALNUM do ALNUM_CHARS[i] = ALNUM:sub(i, i) end
local HEX_VALUE = {}  -- byte of a lowercase hex digit -> its value
for i = 0, 15 do HEX_VALUE[("0123456789abcdef"):byte(i + 1)] = i end
-- A version-4 UUID fixes its 13th digit ("4") and the top of its 17th; the
-- 24 digits used skip both: digits 1-12 and 18-29, at these places of the
-- UUID's text (dashes at 9, 14, 19 and 24).
local TAIL_DIGITS = { 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 21, 22, 23, 25, 26, 27, 28, 29, 30, 31, 32, 33 }

local function draw_uuid() return require("sim").new_id("uuid") end

---12 random letters and digits from the world's ID sequence: each pair of
---the UUID's digits used, read as a hex number, picks ALNUM[n % 62 + 1].
---@return string
function M.tail()
  local u = world.atomic(draw_uuid)
  local out = {}
  for i = 1, M.TAIL_LENGTH do
    local hi = HEX_VALUE[u:byte(TAIL_DIGITS[2 * i - 1])]
    local lo = HEX_VALUE[u:byte(TAIL_DIGITS[2 * i])]
    out[i] = ALNUM_CHARS[(hi * 16 + lo) % #ALNUM + 1]
  end
  return table.concat(out)
end

-- Shares `cap` characters between parts wanting `wants[i]` each: rounds of
-- equal shares, the first part served first, until all are served or the
-- characters run out.
local function fair_split(cap, wants)
  local got = {}
  for i = 1, #wants do got[i] = 0 end
  local left = cap
  while left > 0 do
    local share = left < #wants and 1 or math.floor(left / #wants)
    local satisfied = 0
    for i = 1, #wants do
      if got[i] < wants[i] then
        local add = math.min(share, wants[i] - got[i])
        got[i] = got[i] + add
        left = left - add
      else
        satisfied = satisfied + 1
      end
      if left <= 0 or satisfied == #wants then return got end
    end
  end
  return got
end
M.fair_split = fair_split

---"<prefix>-<tail>", with the prefix cut so the whole fits `max_len`.
---@param prefix string
---@param max_len integer
---@param tail string? a fixed tail (tests); default: a fresh random one
---@return string
function M.prefixed(prefix, max_len, tail)
  local keep = math.min(#prefix, max_len - (M.TAIL_LENGTH + 1))
  local head = keep > 0 and (prefix:sub(1, keep) .. "-") or ""
  return head .. (tail or M.tail())
end

---"<stack>-<logical>-<tail>" within `max_len` characters, as CloudFormation
---names a resource of stack `stack_name` with logical ID `logical_id`.
---@param stack_name string
---@param logical_id string
---@param max_len integer the service's name limit (IAM role: 64)
---@param tail string? a fixed tail (tests)
---@return string
function M.physical(stack_name, logical_id, max_len, tail)
  local stack = (stack_name or ""):gsub("^%-+", ""):gsub("%-%-+", "-")
  local logical = logical_id or ""
  local separate = max_len > 17
  local free = max_len - 13 - (separate and 1 or 0)
  local got = fair_split(free, { #stack, #logical })
  local prefix = stack:sub(1, got[1]) .. (separate and "-" or "") .. logical:sub(1, got[2])
  return M.prefixed(prefix, max_len, tail)
end

return M
