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
--   Policy has invalid action          an action not of S3 ("s3:...") or "*"
--   Policy has invalid resource        a resource not of this bucket or its
--                                      objects ("*" included)
--   Action does not apply to any resource(s) in statement
--                                      an object action with bucket resources
--                                      only, or the other way round
-- "Missing required field Effect / Action / Resource" follow the Principal
-- one (unverified). Not checked: that a principal's role or user exists
-- (S3 asks IAM; the sim has no order of creation across accounts to ask
-- in), and an "s3:" action S3 does not have (the table below names the
-- ones whose resource is known; any other "s3:" name is taken).

local decode = require("sim.json_decode")

local M = {}

-- Actions whose resource is an object ("arn:aws:s3:::bucket/key").
local OBJECT_ACTIONS = {}
for name in ([[AbortMultipartUpload BypassGovernanceRetention DeleteObject DeleteObjectTagging DeleteObjectVersion
  DeleteObjectVersionTagging GetObject GetObjectAcl GetObjectAttributes GetObjectLegalHold GetObjectRetention
  GetObjectTagging GetObjectTorrent GetObjectVersion GetObjectVersionAcl GetObjectVersionAttributes
  GetObjectVersionForReplication GetObjectVersionTagging GetObjectVersionTorrent InitiateReplication
  ListMultipartUploadParts ObjectOwnerOverrideToBucketOwner PutObject PutObjectAcl PutObjectLegalHold
  PutObjectRetention PutObjectTagging PutObjectVersionAcl PutObjectVersionTagging ReplicateDelete ReplicateObject
  ReplicateTags RestoreObject]]):gmatch("%S+") do
  OBJECT_ACTIONS["s3:" .. name:lower()] = true
end

-- Actions whose resource is the bucket ("arn:aws:s3:::bucket").
local BUCKET_ACTIONS = {}
for name in ([[CreateBucket DeleteBucket DeleteBucketOwnershipControls DeleteBucketPolicy DeleteBucketWebsite
  GetAccelerateConfiguration GetAnalyticsConfiguration GetBucketAcl GetBucketCORS GetBucketLocation GetBucketLogging
  GetBucketNotification GetBucketObjectLockConfiguration GetBucketOwnershipControls GetBucketPolicy
  GetBucketPolicyStatus GetBucketPublicAccessBlock GetBucketRequestPayment GetBucketTagging GetBucketVersioning
  GetBucketWebsite GetEncryptionConfiguration GetIntelligentTieringConfiguration GetInventoryConfiguration
  GetLifecycleConfiguration GetMetricsConfiguration GetReplicationConfiguration ListBucket ListBucketMultipartUploads
  ListBucketVersions PutAccelerateConfiguration PutAnalyticsConfiguration PutBucketAcl PutBucketCORS PutBucketLogging
  PutBucketNotification PutBucketObjectLockConfiguration PutBucketOwnershipControls PutBucketPolicy
  PutBucketPublicAccessBlock PutBucketRequestPayment PutBucketTagging PutBucketVersioning PutBucketWebsite
  PutEncryptionConfiguration PutIntelligentTieringConfiguration PutInventoryConfiguration PutLifecycleConfiguration
  PutMetricsConfiguration PutReplicationConfiguration]]):gmatch("%S+") do
  BUCKET_ACTIONS["s3:" .. name:lower()] = true
end

-- Actions of the account, not of a bucket: they apply to no resource of a bucket policy.
local ACCOUNT_ACTIONS = {}
for name in ([[CreateJob GetAccountPublicAccessBlock ListAccessPoints ListAllMyBuckets ListJobs
  ListStorageLensConfigurations PutAccountPublicAccessBlock]]):gmatch("%S+") do
  ACCOUNT_ACTIONS["s3:" .. name:lower()] = true
end

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

-- Whether `action` (or, a wildcard, any action it matches) applies to a resource of `kinds`.
local function applies(action, kinds)
  local pattern = glob(action)
  local known = false
  for _, table_kind in ipairs({ { OBJECT_ACTIONS, "object" }, { BUCKET_ACTIONS, "bucket" }, { ACCOUNT_ACTIONS } }) do
    for name in pairs(table_kind[1]) do
      if name:match(pattern) then
        known = true
        if table_kind[2] and kinds[table_kind[2]] then return true end
      end
    end
  end
  return not known  -- an action of no known resource is taken
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
  if s.Action and s.Resource then
    for _, a in ipairs(actions) do
      if a ~= "*" and a ~= "s3:*" and not applies(a, kinds) then
        malformed("Action does not apply to any resource(s) in statement")
      end
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
