-- The contract kit (moonstack.contract) run over the IAM, SSM and
-- CloudFormation providers with their fixtures, on a world store that
-- behaves like the host's where the in-memory double is lenient: tables
-- come back from `get` marked as JSON objects or arrays (an empty table
-- unmarked, so it may be filled either way), and `put` refuses an
-- object-marked table with number keys, as host/lua/marshal.cc does. The
-- sims' and providers' own suites run here again too.
local H = require("harness")
local T = H.suite("iam/ssm/cfn on a host-like world")
local W = require("host_like_world")
local with_host_like_world = W.with_host_like_world

local PROVIDERS = {
  "iam/role", "iam/policy", "iam/managed_policy", "iam/instance_profile",
  "iam/user", "iam/group", "iam/user_to_group_addition", "iam/access_key",
  "ssm/parameter", "cloudformation/wait_condition_handle", "cloudformation/wait_condition",
}

T.case("the host-like store accepts and refuses what the host does", function()
  with_host_like_world(function(W)
    W.put("k", "a", { list = {}, map = { x = 1 } })
    local back = W.get("k", "a")
    back.list[#back.list + 1] = "x"  -- an empty table read back may become a list
    W.put("k", "a", back)
    H.same(W.get("k", "a").list, { "x" })
    back = W.get("k", "a")
    back.map[1] = "y"                -- a non-empty object with a number key may not
    H.raises(function() W.put("k", "a", back) end, "world.put: data.map: cannot convert a map with a number key")
  end)
end)

W.contract_cases(T, PROVIDERS)

-- The sims' own suites again, on the host-like store: every action that
-- grows a list it read back is exercised there.
local SIM_SUITES = { "test_sim_iam", "test_sim_ssm", "test_sim_cfn", "test_aws_iam", "test_aws_ssm", "test_aws_cfn" }

W.suite_cases(T, SIM_SUITES)

return T
