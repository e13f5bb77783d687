-- sim.s3_access: whether an account may act on a bucket of the simulated S3.
--
-- Bucket names are global, so a request can name another account's bucket.
-- S3 decides a request by the bucket policy (S3 user guide, "How Amazon S3
-- authorizes a request for a bucket operation / an object operation"); this
-- sim simulates no identity policies, so the bucket's own account is
-- allowed what its bucket policy does not deny:
--   - an explicit Deny naming the caller's account (or "*") wins, for the
--     owner's account too;
--   - another account: else an Allow naming it for the action on the
--     resource grants; else Access Denied (403);
--   - the bucket policy's own actions (Get/Put/DeleteBucketPolicy) are the
--     owner's account's alone and always its (S3 API reference: the caller
--     "must ... belong to the bucket owner's account"; the owner's root
--     "can perform" them "even if the policy explicitly denies").
--
-- A caller is known here by its account only (its access key's), so a
-- principal naming a role or user ("arn:aws:iam::222222222222:role/x")
-- stands for its account. Wildcards: "*" and "?" in Action (case-blind) and
-- Resource. A statement with a Condition, NotPrincipal, NotAction or
-- NotResource is not evaluated — it neither grants nor denies — since this
-- sim has no request context (TLS, source IP, organization) to test it on.

local decode = require("sim.json_decode")

local M = {}

local list, glob = require("sim.policy_document").list, require("sim.policy_document").glob

local function any_matches(patterns, value, fold)
  if fold then value = value:lower() end
  for _, p in ipairs(list(patterns)) do
    if type(p) == "string" and value:match(glob(fold and p:lower() or p)) then return true end
  end
  return false
end

-- Whether `principal` names account `account` (or everyone).
local function names_account(principal, account)
  if principal == "*" then return true end
  if type(principal) ~= "table" then return false end
  for _, p in ipairs(list(principal.AWS)) do
    if p == "*" or p == account then return true end
    if type(p) == "string" and p:match("^arn:[^:]+:iam::(%d+):") == account then return true end
  end
  return false
end

---The effect the policy has on `account` doing `action` ("s3:GetObject")
---on `resource` (an S3 ARN): "Deny", "Allow" or nil (the policy says
---nothing: an implicit deny). `policy`: its JSON text or the document.
function M.effect(policy, account, action, resource)
  if type(policy) == "string" then policy = decode(policy) end
  if type(policy) ~= "table" then return nil end
  local allowed = false
  for _, s in ipairs(list(policy.Statement)) do
    if type(s) == "table" and s.Condition == nil and s.NotPrincipal == nil and s.NotAction == nil
        and s.NotResource == nil and names_account(s.Principal, account)
        and any_matches(s.Action, action, true) and any_matches(s.Resource, resource, false) then
      if s.Effect == "Deny" then return "Deny" end
      if s.Effect == "Allow" then allowed = true end
    end
  end
  return allowed and "Allow" or nil
end

local POLICY_ACTIONS = { ["s3:GetBucketPolicy"] = true, ["s3:PutBucketPolicy"] = true,
                         ["s3:DeleteBucketPolicy"] = true }

---Raises S3's Access Denied unless account `account` may do `action` on
---bucket `b` (its record) — on object `key` of it when given.
function M.check(b, account, action, key)
  if account == nil or b.Owner == nil then return end
  local own = account == b.Owner
  if own and (POLICY_ACTIONS[action] or b.Policy == nil) then return end
  if not POLICY_ACTIONS[action] then
    local effect = M.effect(b.Policy, account, action, "arn:aws:s3:::" .. b.Name .. (key and ("/" .. key) or ""))
    if effect == "Allow" or (own and effect == nil) then return end
  end
  require("sim").fail("Access Denied", "AccessDenied")
end

return M
