-- sim.iam_policy: what IAM refuses of a policy document's form, in IAM's
-- words (MalformedPolicyDocument). Two kinds of document:
--   identity  a role's, user's or group's inline policy, a managed policy
--             (PutRolePolicy, CreatePolicy, CreatePolicyVersion, ...): it
--             names actions and resources, never a principal;
--   trust     a role's AssumeRolePolicyDocument (CreateRole,
--             UpdateAssumeRolePolicy): it names principals, never resources.
--
-- Messages (IAM's, each seen verbatim in public reports of IAM calls and of
-- AWS::IAM::Role / AWS::IAM::Policy failures):
--   Syntax errors in policy.                          not JSON, a statement not an object
--   Policy document should not specify a principal.   hashicorp/terraform#13449
--   Policy statement must contain actions.            aws/aws-cdk#7615
--   Policy statement must contain resources.          trussworks/terraform-aws-s3-anti-virus#22
--   Resource X must be in ARN format or "*".          felipefrizzo/terraform-aws-transfer-server#6
--   Actions/Condition can contain only one colon.     garnaat/kappa#111
--   Has prohibited field Resource                     kubernetes-sigs/external-dns#3085 (trust)
--   Invalid principal in policy: "AWS":"<arn>"        opstrace/opstrace#88: a role or user of
--                                                     the caller's account that does not exist
-- "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2,
-- etc." (an action without "service:") is IAM's too, as tools quote it.

local decode = require("sim.json_decode")

local M = {}

local function malformed(message) require("sim").fail(message, "MalformedPolicyDocument") end

local list = require("sim.policy_document").list

-- The document as a table: decoded when given as JSON text.
local function document(policy)
  local doc = policy
  if type(policy) == "string" then doc = decode(policy) end
  if type(doc) ~= "table" or doc[1] ~= nil then malformed("Syntax errors in policy.") end
  -- No statement at all is taken here: whether IAM takes one we have not seen.
  local statements = list(doc.Statement)
  for _, s in ipairs(statements) do
    if type(s) ~= "table" or s[1] ~= nil then malformed("Syntax errors in policy.") end
  end
  return statements
end

local function check_actions(s)
  if s.Action == nil and s.NotAction == nil then malformed("Policy statement must contain actions.") end
  for _, a in ipairs(list(s.Action or s.NotAction)) do
    if type(a) ~= "string" then malformed("Syntax errors in policy.") end
    if a ~= "*" then
      local colons = select(2, a:gsub(":", ""))
      if colons == 0 then malformed("Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc.") end
      if colons > 1 then malformed("Actions/Condition can contain only one colon.") end
    end
  end
end

---Raises IAM's MalformedPolicyDocument unless `policy` (JSON text or the
---document) is an identity policy IAM takes.
function M.check_identity(policy)
  for _, s in ipairs(document(policy)) do
    if s.Principal ~= nil or s.NotPrincipal ~= nil then malformed("Policy document should not specify a principal.") end
    check_actions(s)
    if s.Resource == nil and s.NotResource == nil then malformed("Policy statement must contain resources.") end
    for _, r in ipairs(list(s.Resource or s.NotResource)) do
      if type(r) ~= "string" then malformed("Syntax errors in policy.") end
      if r ~= "*" and not r:match("^arn:") then malformed("Resource " .. r .. ' must be in ARN format or "*".') end
    end
  end
end

---Raises IAM's MalformedPolicyDocument unless `policy` is a trust policy
---IAM takes. `known(arn)` answers whether a role or user ARN names one
---that exists: true, false, or nil when it cannot tell (another account's).
function M.check_trust(policy, known)
  for _, s in ipairs(document(policy)) do
    if s.Resource ~= nil or s.NotResource ~= nil then malformed("Has prohibited field Resource") end
    check_actions(s)
    local principal = s.Principal or s.NotPrincipal
    if type(principal) == "table" then
      for _, p in ipairs(list(principal.AWS)) do
        local identity = type(p) == "string"
          and (p:match("^arn:[^:]+:iam::%d+:role/") or p:match("^arn:[^:]+:iam::%d+:user/"))
        if identity and known(p) == false then
          malformed('Invalid principal in policy: "AWS":"' .. p .. '"')
        end
      end
    end
  end
end

return M
