-- The contract-kit checks each built-in provider still fails
-- (contract_known_gaps.tsv beside this file, read by the CLI's built-in
-- provider test too): a provider's failures must be exactly its listed
-- ones, so a new failure fails the test and so does a gap that was closed
-- without its line removed.
local H = require("harness")

local M = {}

local gaps

local function load()
  if gaps then return gaps end
  gaps = {}
  local here = package.searchpath("contract_gaps", package.path):match("^(.*)[/\\]")
  local f = assert(io.open(here .. "/contract_known_gaps.tsv"))
  for line in f:lines() do
    if line ~= "" and line:sub(1, 1) ~= "#" then
      local file, check = line:match("^([^\t]+)\t(.+)$")
      if file then
        gaps[file] = gaps[file] or {}
        gaps[file][#gaps[file] + 1] = check
      end
    end
  end
  f:close()
  return gaps
end

---Checks a contract report of providers/`rel` (e.g. "aws/sqs/queue.lua").
function M.check(report, rel)
  local failed, unexpected = {}, {}
  local known = {}
  for _, check in ipairs(load()[rel] or {}) do known[check] = true end
  for _, c in ipairs(report.checks) do
    if c.status == "FAIL" then
      failed[#failed + 1] = c.name
      if not known[c.name] then unexpected[#unexpected + 1] = c.name .. ": " .. tostring(c.reason) end
    end
  end
  H.same(unexpected, {}, rel .. ": failures not listed in contract_known_gaps.tsv")
  local listed = load()[rel] or {}
  table.sort(failed)
  local sorted = {}
  for i, v in ipairs(listed) do sorted[i] = v end
  table.sort(sorted)
  H.same(failed, sorted, rel .. ": listed gaps (contract_known_gaps.tsv) that no longer fail: remove them")
end

return M
