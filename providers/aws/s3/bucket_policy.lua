-- AWS::S3::BucketPolicy on the simulated S3: the policy document is the
-- bucket's policy (PutBucketPolicy). Update behaviours (registry schema):
-- Bucket is Replacement, PolicyDocument No interruption. Ref is the bucket
-- name (the registry's primary identifier). The bucket must exist (S3's
-- NoSuchBucket) and the policy be one S3 takes (MalformedPolicy:
-- "Policy has invalid resource", ...), reported with the SDK's details
-- (lib/service_error.lua).
-- Delete removes the policy; a bucket already gone is fine.
local P = require("moonstack.provider")
local props_lib = require("lib.service_props")
local s3_error = require("aws.s3.lib.service_error")

local function put(ctx, props)
  local _, err = props_lib.call(ctx.world.s3.PutBucketPolicy, { Bucket = props.Bucket, Policy = props.PolicyDocument },
    { "NoSuchBucket", "MalformedPolicy" })
  if not err then return end
  if props_lib.error_code(err) == "MalformedPolicy" then
    P.fail(s3_error(P.error_message(err), "MalformedPolicy"), "InvalidRequest")
  end
  P.fail(s3_error("The specified bucket does not exist", "NoSuchBucket"), "NotFound")
end

return P.define {
  type = "AWS::S3::BucketPolicy",
  properties = {
    P.string "Bucket" { required = true, update = "replace" },
    P.json "PolicyDocument" { required = true, update = "none" },
  },
  attributes = {},

  create = function(ctx, props)
    put(ctx, props)
    return { id = props.Bucket }
  end,

  update = function(ctx, _, new) put(ctx, new) end,

  delete = function(ctx, id)
    props_lib.call(ctx.world.s3.DeleteBucketPolicy, { Bucket = id }, { "NoSuchBucket" })
  end,

  read = function(ctx, id, props)
    local r = props_lib.call(ctx.world.s3.GetBucketPolicy, { Bucket = id }, { "NoSuchBucket", "NoSuchBucketPolicy" })
    if not r then return nil end
    return { properties = { Bucket = id, PolicyDocument = r.Policy }, attributes = {} }
  end,
}
