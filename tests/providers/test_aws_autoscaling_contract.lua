-- The contract test kit (what `moonstack provider test` runs) on the Auto
-- Scaling providers and AWS::EC2::LaunchTemplate, with their fixtures.
local H = require("harness")
local T = H.suite("aws autoscaling contract")

local ROOT = _G.MOONSTACK_ROOT or "."

for _, path in ipairs({ "autoscaling/auto_scaling_group", "autoscaling/launch_configuration",
                        "autoscaling/scheduled_action", "autoscaling/lifecycle_hook", "ec2/launch_template" }) do
  T.case(path .. ".lua passes the contract kit", function()
    local _, sim = fresh()
    sim.seed("contract")
    local report = require("moonstack.contract").run(ROOT .. "/providers/aws/" .. path .. ".lua")
    require("contract_gaps").check(report, "aws/" .. path .. ".lua")
    H.truthy(report.passed >= 10, path .. ": " .. report.passed .. " checks passed")
  end)
end

return T
