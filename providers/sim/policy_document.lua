-- sim.policy_document: reading AWS policy documents (IAM, bucket, key
-- policies), shared by the sims that check or evaluate them.

local M = {}

---A policy element that may be one value or a list of them, as a list
---(nil: an empty one).
function M.list(v)
  if v == nil then return {} end
  if type(v) == "table" and (v[1] ~= nil or next(v) == nil) then return v end
  return { v }
end

---A policy wildcard ("s3:Get*", "arn:aws:s3:::b/*"; "?" one character) as
---an anchored Lua pattern.
function M.glob(text)
  return "^" .. text:gsub("[%^%$%(%)%%%.%[%]%+%-]", "%%%0"):gsub("%*", ".*"):gsub("%?", ".") .. "$"
end

return M
