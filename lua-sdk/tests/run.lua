-- Runs the lua-sdk tests:  luajit lua-sdk/tests/run.lua
-- Module paths are set relative to this file, so it runs from any directory.
-- Prints one line per case, then "N passed, M failed"; exits 1 on a failure.
-- Arguments name suites to run instead of all: run.lua test_ids test_tags

local here = (arg and arg[0] or ""):match("^(.*)[/\\][^/\\]*$") or "."
local sdk = here .. "/.."
package.path = sdk .. "/?.lua;" .. sdk .. "/?/init.lua;" .. here .. "/?.lua;" .. package.path

-- Test files, in the order they run. Each returns a harness suite.
local SUITES = {
  "test_values",
  "test_declare",
  "test_validate",
  "test_update",
  "test_results",
  "test_ids",
  "test_tags",
  "test_sandbox",
  "test_contract",
  "test_constraints",
  "test_from_schema",
}

if arg and arg[1] then SUITES = { unpack(arg) } end

local H = require("harness")
local suites = {}
for _, name in ipairs(SUITES) do
  local ok, suite = pcall(require, name)
  if not ok then
    print("FAIL " .. name .. ": could not load\n     " .. tostring(suite))
    print("0 passed, 1 failed")
    os.exit(1)
  end
  suites[#suites + 1] = suite
end

local failed = H.run(suites)
os.exit(failed == 0 and 0 or 1)
