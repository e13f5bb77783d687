-- AWS::S3::Bucket on the simulated S3 (sim/s3.lua).
--
-- Update behaviours (registry schema, createOnlyProperties): BucketName,
-- BucketNamePrefix and BucketNamespace are Replacement; every other property
-- No interruption. Versioning, encryption and tags are applied to the
-- simulated bucket (and read back); the other configurations are kept by
-- CloudFormation's template only.
-- Ref is the bucket name; Fn::GetAtt (AWS::S3::Bucket "Return values"):
--   Arn                  arn:aws:s3:::NAME
--   DomainName           NAME.s3.amazonaws.com
--   RegionalDomainName   NAME.s3.REGION.amazonaws.com
--   DualStackDomainName  NAME.s3.dualstack.REGION.amazonaws.com
--   WebsiteURL           http://NAME.s3-website-REGION.amazonaws.com, or
--                        s3-website.REGION for the regions S3's website
--                        endpoint table lists with a dot.
-- Without BucketName the name is "<stack>-<logical>-<12>" within 63
-- characters, lowercased (real ones: "cdkbucketstack-logbucketcc3b17e8-g0crsksv9497").
-- Errors as CloudFormation reports them: "Bucket name should be between 3
-- and 63 characters long", "Bucket name should not contain uppercase
-- characters" (both seen in stack events), "<name> already exists" (a
-- name taken by anyone, this account included); a delete of a bucket with
-- objects fails with S3's BucketNotEmpty (lib/service_error.lua).
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local tags = require("moonstack.tags")
local props_lib = require("lib.service_props")
local s3_error = require("aws.s3.lib.service_error")
local s3_sim = require("sim.s3")

-- Regions whose website endpoint is "s3-website-<region>" (the older, dashed form).
local DASHED_WEBSITE = {
  ["us-east-1"] = true, ["us-west-1"] = true, ["us-west-2"] = true, ["ap-southeast-1"] = true,
  ["ap-southeast-2"] = true, ["ap-northeast-1"] = true, ["eu-west-1"] = true, ["sa-east-1"] = true,
  ["us-gov-west-1"] = true,
}

local NAME_PROBLEMS = {
  length = "Bucket name should be between 3 and 63 characters long",
  uppercase = "Bucket name should not contain uppercase characters",
  underscore = "Bucket name should not contain '_'",
}

local function attributes(name, region)
  local website = DASHED_WEBSITE[region] and ("s3-website-" .. region) or ("s3-website." .. region)
  return {
    Arn = s3_sim.bucket_arn(name),
    DomainName = name .. ".s3.amazonaws.com",
    RegionalDomainName = name .. ".s3." .. region .. ".amazonaws.com",
    DualStackDomainName = name .. ".s3.dualstack." .. region .. ".amazonaws.com",
    WebsiteURL = "http://" .. name .. "." .. website .. ".amazonaws.com",
  }
end

local function region(ctx) return (ctx.region and ctx.region ~= "") and ctx.region or "us-east-1" end

-- CloudFormation's BucketEncryption -> S3's ServerSideEncryptionConfiguration, and back.
local function to_s3_encryption(e)
  local rules = {}
  for i, r in ipairs(e.ServerSideEncryptionConfiguration or {}) do
    rules[i] = { ApplyServerSideEncryptionByDefault = r.ServerSideEncryptionByDefault, BucketKeyEnabled = r.BucketKeyEnabled }
  end
  return { Rules = rules }
end

local function from_s3_encryption(c)
  local rules = {}
  for i, r in ipairs(c.Rules or {}) do
    rules[i] = { ServerSideEncryptionByDefault = r.ApplyServerSideEncryptionByDefault, BucketKeyEnabled = r.BucketKeyEnabled }
  end
  return { ServerSideEncryptionConfiguration = rules }
end

local function apply_versioning(s3, name, v)
  if type(v) == "table" and v.Status then
    s3.PutBucketVersioning { Bucket = name, VersioningConfiguration = { Status = v.Status } }
  end
end

local function apply_encryption(s3, name, e)
  if type(e) == "table" then
    s3.PutBucketEncryption { Bucket = name, ServerSideEncryptionConfiguration = to_s3_encryption(e) }
  else
    s3.DeleteBucketEncryption { Bucket = name }
  end
end

local function apply_tags(ctx, name, own)
  ctx.world.s3.PutBucketTagging { Bucket = name, Tagging = { TagSet = tags.from_map(tags.for_resource(ctx, own)) } }
end

local NAMES = {
  "AbacStatus", "AccelerateConfiguration", "AccessControl", "AnalyticsConfigurations", "BucketEncryption",
  "BucketName", "BucketNamePrefix", "BucketNamespace", "CorsConfiguration", "IntelligentTieringConfigurations",
  "InventoryConfigurations", "LifecycleConfiguration", "LoggingConfiguration", "MetadataConfiguration",
  "MetadataTableConfiguration", "MetricsConfigurations", "NotificationConfiguration", "ObjectLockConfiguration",
  "ObjectLockEnabled", "OwnershipControls", "PublicAccessBlockConfiguration", "ReplicationConfiguration", "Tags",
  "VersioningConfiguration", "WebsiteConfiguration",
}

return P.define {
  type = "AWS::S3::Bucket",
  properties = props_lib.json_list(P, NAMES, { "BucketName", "BucketNamePrefix", "BucketNamespace" }, {
    BucketName = P.string "BucketName" { update = "replace" },
    BucketNamePrefix = P.string "BucketNamePrefix" { update = "replace" },
    Tags = P.tags "Tags" { update = "none" },
  }),
  attributes = { "Arn", "DomainName", "DualStackDomainName", "RegionalDomainName", "WebsiteURL" },
  primary_identifier = "BucketName",

  create = function(ctx, props)
    local name = props.BucketName
    if not name then
      local generated = names.physical(ctx.stack_name, ctx.logical_id, 63):lower()
      name = props.BucketNamePrefix and (props.BucketNamePrefix .. "-" .. generated:sub(-12)) or generated
    end
    local problem = s3_sim.name_problem(name)
    if NAME_PROBLEMS[problem] then P.fail(NAME_PROBLEMS[problem], "InvalidRequest") end
    if problem then P.fail(s3_error("The specified bucket is not valid.", "InvalidBucketName"), "InvalidRequest") end
    local s3 = ctx.world.s3
    -- A bucket of that name anywhere (any account) is CloudFormation's "already
    -- exists": asked first, as S3's CreateBucket answers 200 for the caller's own
    -- us-east-1 bucket; another account's answers HeadBucket with Access Denied.
    -- A generated name ends in a random suffix: no bucket has it, and the check
    -- (a NoSuchBucket error raised and caught) is skipped.
    local exists = false
    if props.BucketName then
      local head, head_err = props_lib.call(s3.HeadBucket, { Bucket = name }, { "NoSuchBucket", "AccessDenied" })
      exists = head ~= nil or props_lib.error_code(head_err) == "AccessDenied"
    end
    local _, err
    if not exists then
      _, err = props_lib.call(s3.CreateBucket, { Bucket = name }, { "BucketAlreadyExists", "BucketAlreadyOwnedByYou" })
    end
    if exists or err then P.fail(name .. " already exists", "AlreadyExists") end
    apply_versioning(s3, name, props.VersioningConfiguration)
    if props.BucketEncryption then apply_encryption(s3, name, props.BucketEncryption) end
    apply_tags(ctx, name, props.Tags)
    return { id = name, attributes = attributes(name, region(ctx)) }
  end,

  update = function(ctx, id, new, old, changed)
    local s3 = ctx.world.s3
    for _, prop in ipairs(changed) do
      if prop == "VersioningConfiguration" then
        -- S3 cannot switch versioning off once on: a removed configuration suspends it.
        apply_versioning(s3, id, new.VersioningConfiguration or (old.VersioningConfiguration and { Status = "Suspended" }))
      elseif prop == "BucketEncryption" then
        apply_encryption(s3, id, new.BucketEncryption)
      elseif prop == "Tags" then
        apply_tags(ctx, id, new.Tags)
      end
    end
  end,

  delete = function(ctx, id)
    local _, err = props_lib.call(ctx.world.s3.DeleteBucket, { Bucket = id }, { "NoSuchBucket", "BucketNotEmpty" })
    if err and err.code == "BucketNotEmpty" then
      P.fail(s3_error("The bucket you tried to delete is not empty", "BucketNotEmpty"), "GeneralServiceException")
    end
  end,

  read = function(ctx, id, props)
    local s3 = ctx.world.s3
    local head = props_lib.call(s3.HeadBucket, { Bucket = id }, { "NoSuchBucket" })
    if not head then return nil end
    local properties = {}
    for k, v in pairs(props or {}) do properties[k] = v end
    if properties.BucketName then properties.BucketName = id end
    local status = s3.GetBucketVersioning({ Bucket = id }).Status
    properties.VersioningConfiguration = status and { Status = status } or nil
    if properties.BucketEncryption then
      properties.BucketEncryption = from_s3_encryption(s3.GetBucketEncryption({ Bucket = id }).ServerSideEncryptionConfiguration)
    end
    local tagging = props_lib.call(s3.GetBucketTagging, { Bucket = id }, { "NoSuchTagSet" })
    properties.Tags = props_lib.own_tags(tagging and tagging.TagSet)
    return { properties = properties, attributes = attributes(id, head.BucketRegion or region(ctx)) }
  end,
}
