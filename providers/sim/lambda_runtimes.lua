-- sim.lambda_runtimes: when Lambda stops creating and updating functions of
-- each runtime (the "Block function create" and "Block function update"
-- dates of the deprecated and scheduled runtimes, UTC days) and the
-- runtime it recommends instead.
--
-- Source: the AWS Lambda Developer Guide, "Lambda runtimes" (its supported
-- and deprecated runtime tables), as cfn-lint 1.51.0 transcribes it
-- (cfnlint/data/AdditionalSpecs/LmbdRuntimeLifecycle.json). A runtime not
-- listed (a newer one, a custom one) is never blocked. Keep the table in
-- step with the guide: a date here is a date a template starts failing.
--
-- Lambda's refusal (InvalidParameterValueException), verbatim from public
-- CloudFormation events and CloudTrail records:
--   The runtime parameter of python3.6 is no longer supported for creating
--   or updating AWS Lambda functions. We recommend you use the new runtime
--   (python3.9) while creating or updating functions.
-- (the runtime recommended was the newest of its language then; here it is
-- the table's successor).

local util = require("sim.cloudformation_util")

local M = {}

local LIFECYCLE = {
  ["dotnet6"] = { create = "2026-06-01", update = "2026-07-01", successor = "dotnet9" },
  ["dotnet8"] = { create = "2026-12-10", update = "2027-01-11", successor = "dotnet9" },
  ["dotnetcore1.0"] = { create = "2019-06-30", update = "2019-07-30", successor = "dotnet9" },
  ["dotnetcore2.0"] = { create = "2019-04-30", update = "2019-05-30", successor = "dotnet9" },
  ["dotnetcore2.1"] = { create = "2022-01-05", update = "2022-04-13", successor = "dotnet9" },
  ["dotnetcore3.1"] = { create = "2023-04-03", update = "2023-05-03", successor = "dotnet9" },
  ["go1.x"] = { create = "2024-02-08", update = "2026-07-01", successor = "provided.al2023" },
  ["java11"] = { create = "2026-07-31", update = "2026-08-31", successor = "java25" },
  ["java17"] = { create = "2026-07-31", update = "2026-08-31", successor = "java25" },
  ["java21"] = { create = "2029-07-31", update = "2029-08-31", successor = "java25" },
  ["java25"] = { create = "2029-07-31", update = "2029-08-31" },
  ["java8"] = { create = "2024-02-08", update = "2026-07-01", successor = "java25" },
  ["java8.al2"] = { create = "2026-07-31", update = "2026-08-31", successor = "java25" },
  ["nodejs"] = { create = "2016-09-30", update = "2016-10-31", successor = "nodejs24.x" },
  ["nodejs10.x"] = { create = "2021-07-30", update = "2022-02-14", successor = "nodejs24.x" },
  ["nodejs12.x"] = { create = "2023-03-31", update = "2023-04-30", successor = "nodejs24.x" },
  ["nodejs14.x"] = { create = "2024-01-09", update = "2026-07-01", successor = "nodejs24.x" },
  ["nodejs16.x"] = { create = "2026-06-01", update = "2026-07-01", successor = "nodejs24.x" },
  ["nodejs18.x"] = { create = "2026-06-01", update = "2026-07-01", successor = "nodejs24.x" },
  ["nodejs20.x"] = { create = "2026-06-01", update = "2026-07-01", successor = "nodejs24.x" },
  ["nodejs22.x"] = { create = "2027-06-01", update = "2027-07-01", successor = "nodejs24.x" },
  ["nodejs24.x"] = { create = "2028-06-01", update = "2028-07-01" },
  ["nodejs4.3"] = { create = "2020-02-03", update = "2020-03-05", successor = "nodejs24.x" },
  ["nodejs4.3-edge"] = { create = "2019-03-31", update = "2019-04-30", successor = "nodejs24.x" },
  ["nodejs6.10"] = { create = "2019-07-12", update = "2019-08-12", successor = "nodejs24.x" },
  ["nodejs8.10"] = { create = "2020-02-04", update = "2020-03-06", successor = "nodejs24.x" },
  ["provided"] = { create = "2024-02-08", update = "2026-07-01", successor = "provided.al2023" },
  ["provided.al2"] = { create = "2026-07-31", update = "2026-08-31", successor = "provided.al2023" },
  ["provided.al2023"] = { create = "2029-07-31", update = "2029-08-31" },
  ["python2.7"] = { create = "2021-07-15", update = "2022-05-30", successor = "python3.14" },
  ["python3.10"] = { create = "2026-07-31", update = "2026-08-31", successor = "python3.14" },
  ["python3.11"] = { create = "2026-07-31", update = "2026-08-31", successor = "python3.14" },
  ["python3.12"] = { create = "2028-11-30", update = "2029-01-10", successor = "python3.14" },
  ["python3.13"] = { create = "2029-07-31", update = "2029-08-31", successor = "python3.14" },
  ["python3.14"] = { create = "2029-07-31", update = "2029-08-31" },
  ["python3.6"] = { create = "2022-07-18", update = "2022-08-29", successor = "python3.14" },
  ["python3.7"] = { create = "2024-01-09", update = "2026-03-09", successor = "python3.14" },
  ["python3.8"] = { create = "2026-06-01", update = "2026-07-01", successor = "python3.14" },
  ["python3.9"] = { create = "2026-06-01", update = "2026-07-01", successor = "python3.14" },
  ["ruby2.5"] = { create = "2021-07-30", update = "2022-03-31", successor = "ruby3.4" },
  ["ruby2.7"] = { create = "2024-01-09", update = "2026-07-01", successor = "ruby3.4" },
  ["ruby3.2"] = { create = "2026-06-01", update = "2026-07-01", successor = "ruby3.4" },
  ["ruby3.3"] = { create = "2027-04-30", update = "2027-05-31", successor = "ruby3.4" },
  ["ruby3.4"] = { create = "2028-04-30", update = "2028-05-31" },
}

-- Raises Lambda's refusal when `runtime` is blocked for `what` ("create"
-- or "update") on the world clock's day `now_ms`.
local function check(runtime, what, now_ms)
  local life = type(runtime) == "string" and LIFECYCLE[runtime]
  if not life or util.iso8601(now_ms):sub(1, 10) < life[what] then return end
  local advice = life.successor
      and " We recommend you use the new runtime (" .. life.successor .. ") while creating or updating functions."
      or ""
  require("sim").fail("The runtime parameter of " .. runtime .. " is no longer supported for creating or updating "
    .. "AWS Lambda functions." .. advice, "InvalidParameterValueException")
end

---CreateFunction's check: Lambda no longer creates functions of `runtime`.
function M.check_create(runtime, now_ms) check(runtime, "create", now_ms) end

---UpdateFunctionCode's and UpdateFunctionConfiguration's check, on the
---runtime the function has after the update.
function M.check_update(runtime, now_ms) check(runtime, "update", now_ms) end

return M
