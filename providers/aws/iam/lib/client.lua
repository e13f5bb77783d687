-- The simulated IAM as CloudFormation's IAM handlers see it: the same
-- actions, but an error IAM answers for a policy document reaches the
-- resource's status reason as those handlers report it, IAM's message then
-- the SDK's details (an AWS::IAM::Role's event, aws-samples/aws-health-aware#1):
--   Policy statement must contain resources. (Service: AmazonIdentityManagement;
--   Status Code: 400; Error Code: MalformedPolicyDocument; Request ID: <uuid>; Proxy: null)
-- The request ID is drawn from the world's ID sequence (deterministic).
local P = require("moonstack.provider")
local world = require("moonstack.world")

local function reported(err)
  local sim = require("sim")
  local request = world.atomic(function() return sim.new_id("uuid") end)
  return P.error_message(err) .. " (Service: AmazonIdentityManagement; Status Code: 400; Error Code: "
    .. err.code .. "; Request ID: " .. request .. "; Proxy: null)"
end

---`ctx.world.iam`, its MalformedPolicyDocument errors reported as the handlers do.
return function(ctx)
  local iam = ctx.world.iam
  return setmetatable({}, { __index = function(_, action)
    local fn = iam[action]
    return function(req)
      local ok, r = pcall(fn, req)
      if ok then return r end
      if type(r) == "table" and r.code == "MalformedPolicyDocument" then P.fail(reported(r), "InvalidRequest") end
      error(r, 0)
    end
  end })
end
