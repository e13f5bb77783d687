-- sim.s3_policy: what PutBucketPolicy refuses of a bucket policy, in S3's
-- words (MalformedPolicy, 400). S3 checks a policy's form when it is put;
-- whom it grants what is sim/s3_access.lua's business.
--
-- Messages (S3's; each seen verbatim in public reports of PutBucketPolicy
-- and AWS::S3::BucketPolicy failures: versity/versitygw#645-#650 and #1176,
-- which quote AWS's answers; humanmade/S3-Uploads#191; cn-terraform/
-- terraform-aws-s3-static-website#38):
--   Policies must be valid JSON and the first byte must be '{'
--   Missing required field Statement / Principal
--   Missing required field Principal cannot be empty!   a principal naming no one
--   Invalid effect: <effect>
--   Invalid principal in policy        an AWS principal that is not "*", an
--                                      account ID or an IAM/STS ARN
--   Policy has invalid action          an action not of S3 ("s3:...") or "*",
--                                      or an "s3:" name S3 does not have
--                                      (s3:ListObjects: minio/minio#5875
--                                      quotes AWS's answer)
--   Policy has invalid resource        a resource not of this bucket or its
--                                      objects ("*" included)
--   Action does not apply to any resource(s) in statement
--                                      an object action with bucket resources
--                                      only, or the other way round
-- "Missing required field Effect / Action / Resource" follow the Principal
-- one (unverified). Not checked: that a principal's role or user exists
-- (S3 asks IAM; the sim has no order of creation across accounts to ask
-- in). S3's actions and the resource each applies to are
-- sim/s3_actions.lua (generated from the Service Authorization Reference).

local decode = require("sim.json_decode")

local M = {}

-- Every S3 action ("getobject" for s3:GetObject) -> "object", "bucket" or
-- "other" (a resource no bucket policy names: an access point, a job, the account).
local ACTIONS = require("sim.s3_actions")

local function malformed(message) require("sim").fail(message, "MalformedPolicy") end

local list, glob = require("sim.policy_document").list, require("sim.policy_document").glob

local function check_principal(principal)
  if principal == "*" then return end
  if type(principal) ~= "table" or next(principal) == nil then malformed("Invalid principal in policy") end
  local named = false
  for kind, v in pairs(principal) do
    if kind ~= "AWS" and kind ~= "Service" and kind ~= "Federated" and kind ~= "CanonicalUser" then
      malformed("Invalid principal in policy")
    end
    for _, p in ipairs(list(v)) do
      if type(p) ~= "string" or p == "" then malformed("Invalid principal in policy") end
      if kind == "AWS" and p ~= "*" and not p:match("^%d%d%d%d%d%d%d%d%d%d%d%d$")
          and not p:match("^arn:aws[%w%-]*:iam::%d%d%d%d%d%d%d%d%d%d%d%d:.")
          and not p:match("^arn:aws[%w%-]*:sts::%d+:.") and not p:match("^arn:aws[%w%-]*:iam::cloudfront:user/.") then
        malformed("Invalid principal in policy")
      end
      named = true
    end
  end
  if not named then malformed("Missing required field Principal cannot be empty!") end
end

-- The kinds of resource ("bucket", "object") the statement's Resource names,
-- each of bucket `bucket` (S3 refuses any other resource).
local function resource_kinds(resources, bucket)
  local kinds = {}
  for _, r in ipairs(list(resources)) do
    local name, key
    if type(r) == "string" then name, key = r:match("^arn:aws[%w%-]*:s3:::([^/]+)(.*)$") end
    if not name or not bucket:match(glob(name)) then malformed("Policy has invalid resource") end
    kinds[key == "" and "bucket" or "object"] = true
  end
  return kinds
end

-- Whether `action` ("s3:getobject", or a wildcard: any action it matches)
-- applies to a resource of `kinds`. An action S3 does not have, or a
-- wildcard matching none, is "Policy has invalid action".
local function applies(action, kinds)
  local name = action:sub(4)
  if ACTIONS[name] then return kinds[ACTIONS[name]] == true end
  local pattern, known = glob(name), false
  for candidate, kind in pairs(ACTIONS) do
    if candidate:match(pattern) then
      known = true
      if kinds[kind] then return true end
    end
  end
  if not known then malformed("Policy has invalid action") end
  return false
end

local function check_statement(s, bucket)
  if type(s) ~= "table" then malformed("Missing required field Statement") end
  if s.Effect == nil then malformed("Missing required field Effect") end
  if s.Effect ~= "Allow" and s.Effect ~= "Deny" then malformed("Invalid effect: " .. tostring(s.Effect)) end
  if s.Principal == nil and s.NotPrincipal == nil then malformed("Missing required field Principal") end
  check_principal(s.Principal or s.NotPrincipal)
  if s.Action == nil and s.NotAction == nil then malformed("Missing required field Action") end
  local actions = {}
  for _, a in ipairs(list(s.Action or s.NotAction)) do
    local lower = type(a) == "string" and a:lower() or ""
    if lower ~= "*" and not lower:match("^s3:[%w%*%?]+$") then malformed("Policy has invalid action") end
    actions[#actions + 1] = lower
  end
  if s.Resource == nil and s.NotResource == nil then malformed("Missing required field Resource") end
  local kinds = resource_kinds(s.Resource or s.NotResource, bucket)
  for _, a in ipairs(actions) do
    if a ~= "*" and a ~= "s3:*" and not applies(a, kinds) and s.Action and s.Resource then
      malformed("Action does not apply to any resource(s) in statement")
    end
  end
end

---Raises S3's MalformedPolicy unless `policy` (its JSON text, or the
---document from a provider) is a bucket policy S3 takes for bucket `bucket`.
function M.check(policy, bucket)
  local doc = policy
  if type(policy) == "string" then doc = policy:match("^%s*{") and decode(policy) or nil end
  if type(doc) ~= "table" then malformed("Policies must be valid JSON and the first byte must be '{'") end
  if doc.Statement == nil then malformed("Missing required field Statement") end
  for _, s in ipairs(list(doc.Statement)) do check_statement(s, bucket) end
end

return M
