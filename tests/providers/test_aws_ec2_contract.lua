-- The contract test kit (moonstack.contract, what `moonstack provider test`
-- runs) on the built-in EC2 providers with their fixtures in
-- providers/aws/ec2/tests/: create, every fixture update (in place, rolled
-- back and forward again, or replaced), delete, and a clean world after.
local H = require("harness")
local T = H.suite("aws ec2 contract")

local ROOT = _G.MOONSTACK_ROOT or "."

-- Checks a fixture exercises at least; a type whose every property replaces
-- has no in-place update (and so no rollback) checks.
local MIN_CHECKS = { subnet_route_table_association = 12 }

for _, name in ipairs({ "instance", "vpc", "subnet", "security_group", "security_group_ingress",
                        "security_group_egress", "internet_gateway", "vpc_gateway_attachment", "route_table",
                        "route", "subnet_route_table_association", "eip", "nat_gateway", "vpc_endpoint",
                        "network_acl" }) do
  T.case(name .. ".lua passes the contract kit", function()
    local _, sim = fresh()
    sim.seed("contract")
    local contract = require("moonstack.contract")
    local report = contract.run(ROOT .. "/providers/aws/ec2/" .. name .. ".lua")
    require("contract_gaps").check(report, "aws/ec2/" .. name .. ".lua")
    H.truthy(report.passed >= (MIN_CHECKS[name] or 15), name .. ": " .. report.passed .. " checks passed")
  end)
end

return T
