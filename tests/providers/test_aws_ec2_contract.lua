-- The contract test kit (moonstack.contract, what `moonstack provider test`
-- runs) on the built-in EC2 providers with their fixtures in
-- providers/aws/ec2/tests/: create, every fixture update (in place, rolled
-- back and forward again, or replaced), delete, and a clean world after.
local H = require("harness")
local T = H.suite("aws ec2 contract")

local ROOT = _G.MOONSTACK_ROOT or "."

for _, name in ipairs({ "instance", "vpc", "subnet", "security_group", "security_group_ingress",
                        "security_group_egress" }) do
  T.case(name .. ".lua passes the contract kit", function()
    local _, sim = fresh()
    sim.seed("contract")
    local contract = require("moonstack.contract")
    local report = contract.run(ROOT .. "/providers/aws/ec2/" .. name .. ".lua")
    local failed = {}
    for _, c in ipairs(report.checks) do
      if c.status == "FAIL" then failed[#failed + 1] = c.name .. ": " .. tostring(c.reason) end
    end
    H.same(failed, {}, name)
    H.truthy(report.passed >= 15, name .. ": " .. report.passed .. " checks passed")
  end)
end

return T
