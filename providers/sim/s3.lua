-- sim.s3: simulated S3 buckets and their objects.
--
-- Bucket names are global (one namespace for every account and region): the
-- record "s3.bucket" is keyed by the bare name and holds the owner, region,
-- versioning, encryption, tags and policy; "s3.bucket_of_owner"
-- "<account>:<name>" (no data) makes an account's buckets a range of ids. Each object is its own record
-- "s3.object" "<bucket>/<key>" whose refs name the bucket's ARN, so the
-- world's referrers index lists a bucket's objects (in key order) without a
-- walk of every object, and a bucket knows it is non-empty in O(1) from its
-- ObjectCount. `moonstack world call s3 PutObject '{"Bucket":..,"Key":..,"Body":..}'`
-- adds one out of band.
--
-- Messages (S3's):
--   The specified bucket is not valid. (InvalidBucketName)          boto/botocore reports
--   The requested bucket name is not available. The bucket namespace is shared by all users of
--   the system. Please select a different name and try again. (BucketAlreadyExists)
--   Your previous request to create the named bucket succeeded and you already own it.
--                                                                    (BucketAlreadyOwnedByYou;
--   in us-east-1, S3 answers 200 OK to the owner instead, for legacy compatibility)
--   The bucket you tried to delete is not empty (BucketNotEmpty)     CloudFormation events quote it
--   The specified bucket does not exist (NoSuchBucket), The specified key does not exist.
--   (NoSuchKey), The bucket policy does not exist (NoSuchBucketPolicy), The TagSet does not
--   exist (NoSuchTagSet), The server side encryption configuration was not found
--   (ServerSideEncryptionConfigurationNotFoundError)                 S3 API reference, Error codes
-- Another account's request on a bucket is decided by the bucket policy
-- (sim/s3_access.lua): Access Denied (AccessDenied, 403) unless it grants it.
-- Since 2023 S3 encrypts every bucket with SSE-S3 by default: GetBucketEncryption of a bucket
-- nobody configured answers AES256 (S3 user guide, "default encryption").

local world = require("sim.world")
local util = require("sim.cloudformation_util")
local bodies = require("sim.s3_body")
local md5 = require("sim.md5")
local access = require("sim.s3_access")

local A = {}

local BUCKET, OBJECT = "s3.bucket", "s3.object"
-- Each bucket's place among its owner's, "<account>:<name>" (no data): an
-- account's buckets are a range of ids, not a walk of every account's.
local BUCKET_OF_OWNER = "s3.bucket_of_owner"
A.BACKFILL = { { base = BUCKET, index = BUCKET_OF_OWNER, id = function(name, b)
  return type(b.Owner) == "string" and (b.Owner .. ":" .. name) or nil
end } }
local UPLOAD, PART = "s3.upload", "s3.part"  -- multipart uploads in progress, and their parts

local function fail(message, code) require("sim").fail(message, code) end

---The ARN of bucket `name` (no region, no account: bucket names are global).
function A.bucket_arn(name) return "arn:aws:s3:::" .. name end

---Why `name` is not a bucket name S3 accepts (nil when it is one): the
---general-purpose bucket naming rules of the S3 user guide — 3 to 63
---characters of lowercase letters, digits, "." and "-", starting and ending
---with a letter or digit, no "..", not an IP address, not starting with
---"xn--" / "sthree-" nor ending with "-s3alias" / "--ol-s3".
---@return string? rule  "length", "uppercase", "underscore" or "invalid"
function A.name_problem(name)
  if type(name) ~= "string" or #name < 3 or #name > 63 then return "length" end
  if name:find("%u") then return "uppercase" end
  if name:find("_", 1, true) then return "underscore" end
  if not name:match("^[a-z0-9][a-z0-9%.%-]*[a-z0-9]$") or name:find("..", 1, true)
      or name:match("^%d+%.%d+%.%d+%.%d+$") or name:sub(1, 4) == "xn--" or name:sub(1, 7) == "sthree-"
      or name:sub(-8) == "-s3alias" or name:sub(-7) == "--ol-s3" then
    return "invalid"
  end
  return nil
end

local function load_bucket(name)
  if type(name) ~= "string" or name == "" then fail("The specified bucket does not exist", "NoSuchBucket") end
  local b = world.get(BUCKET, name)
  if not b then fail("The specified bucket does not exist", "NoSuchBucket") end
  return b
end

-- Bucket `name` as `env`'s account may use it for `action` (on object `key`).
local function bucket_for(name, env, action, key)
  local b = load_bucket(name)
  access.check(b, env.account, action, key)
  return b
end

local function save_bucket(b) world.put(BUCKET, b.Name, b) end

function A.CreateBucket(p, env)
  local name = p.Bucket
  if A.name_problem(name) then fail("The specified bucket is not valid.", "InvalidBucketName") end
  local existing = world.get(BUCKET, name)
  if existing then
    -- S3 (CreateBucket, BucketAlreadyOwnedByYou): "For legacy compatibility, if you
    -- re-create an existing bucket that you already own in the North Virginia
    -- Region, Amazon S3 returns 200 OK" — the bucket as it was.
    if existing.Owner == env.account and env.region == "us-east-1" and existing.Region == "us-east-1" then
      return { Location = "/" .. name }
    end
    if existing.Owner == env.account then
      fail("Your previous request to create the named bucket succeeded and you already own it.",
        "BucketAlreadyOwnedByYou")
    end
    fail("The requested bucket name is not available. The bucket namespace is shared by all users of the system. "
      .. "Please select a different name and try again.", "BucketAlreadyExists")
  end
  local region = (p.CreateBucketConfiguration or {}).LocationConstraint or env.region
  save_bucket({ Name = name, Owner = env.account, Region = region, CreationDate = util.iso8601(env.now_ms),
                ObjectCount = 0 })
  world.put(BUCKET_OF_OWNER, env.account .. ":" .. name, {}, { live = false })
  return { Location = "/" .. name }
end

function A.HeadBucket(p, env)
  local b = bucket_for(p.Bucket, env, "s3:ListBucket")
  return { BucketRegion = b.Region }
end

function A.GetBucketLocation(p, env)
  local b = bucket_for(p.Bucket, env, "s3:GetBucketLocation")
  -- us-east-1 is the one region S3 answers as no constraint at all.
  return { LocationConstraint = b.Region ~= "us-east-1" and b.Region or nil }
end

-- Every bucket of the caller, in name order: its range of BUCKET_OF_OWNER.
function A.ListBuckets(_, env)
  local out = {}
  local prefix = env.account .. ":"
  for _, k in ipairs(world.ids(BUCKET_OF_OWNER, false, prefix)) do
    local name = k:sub(#prefix + 1)
    local b = world.get(BUCKET, name)
    if b and b.Owner == env.account then out[#out + 1] = { Name = name, CreationDate = b.CreationDate } end
  end
  return { Buckets = out, Owner = { ID = env.account } }
end

local forget_upload

-- Multipart uploads in progress do not keep a bucket (S3 deletes it and
-- them); their parts are forgotten with it.
function A.DeleteBucket(p, env)
  local b = bucket_for(p.Bucket, env, "s3:DeleteBucket")
  if (b.ObjectCount or 0) > 0 then fail("The bucket you tried to delete is not empty", "BucketNotEmpty") end
  for _, r in ipairs(world.referrers(A.bucket_arn(b.Name))) do
    if r.kind == UPLOAD then forget_upload(r.id, world.get(UPLOAD, r.id)) end
  end
  world.remove(BUCKET, b.Name)
  if b.Owner then world.remove(BUCKET_OF_OWNER, b.Owner .. ":" .. b.Name) end
  return {}
end

-- Bucket settings: versioning, encryption, tags, policy ---------------------------------

-- An action (policy action `action`) that sets one field of the bucket
-- record to what `value_of(p)` returns (nil clears it; value_of raises S3's
-- error for a bad request).
local function set_field(field, action, value_of)
  return function(p, env)
    local b = bucket_for(p.Bucket, env, action)
    b[field] = value_of(p)
    save_bucket(b)
    return {}
  end
end
local function clear() return nil end

local function malformed()
  fail("The XML you provided was not well-formed or did not validate against our published schema", "MalformedXML")
end

A.PutBucketVersioning = set_field("Versioning", "s3:PutBucketVersioning", function(p)
  local status = (p.VersioningConfiguration or {}).Status
  if status ~= "Enabled" and status ~= "Suspended" then malformed() end
  return status
end)

function A.GetBucketVersioning(p, env)
  return { Status = bucket_for(p.Bucket, env, "s3:GetBucketVersioning").Versioning }
end

A.PutBucketEncryption = set_field("Encryption", "s3:PutEncryptionConfiguration", function(p)
  local c = p.ServerSideEncryptionConfiguration
  if type(c) ~= "table" or type(c.Rules) ~= "table" or #c.Rules == 0 then malformed() end
  return c
end)
A.DeleteBucketEncryption = set_field("Encryption", "s3:PutEncryptionConfiguration", clear)

function A.GetBucketEncryption(p, env)
  local b = bucket_for(p.Bucket, env, "s3:GetEncryptionConfiguration")
  return { ServerSideEncryptionConfiguration = b.Encryption or {
    Rules = { { ApplyServerSideEncryptionByDefault = { SSEAlgorithm = "AES256" }, BucketKeyEnabled = false } },
  } }
end

A.PutBucketTagging = set_field("Tags", "s3:PutBucketTagging", function(p)
  local set = {}
  for i, t in ipairs((p.Tagging or {}).TagSet or {}) do set[i] = { Key = t.Key, Value = t.Value } end
  return set
end)
A.DeleteBucketTagging = set_field("Tags", "s3:PutBucketTagging", clear)

function A.GetBucketTagging(p, env)
  local b = bucket_for(p.Bucket, env, "s3:GetBucketTagging")
  if not b.Tags or #b.Tags == 0 then fail("The TagSet does not exist", "NoSuchTagSet") end
  return { TagSet = util.as_list(b.Tags) }
end

-- A JSON text as S3 takes it, or the document itself (from a provider);
-- its form checked as S3 checks it (sim/s3_policy.lua).
A.PutBucketPolicy = set_field("Policy", "s3:PutBucketPolicy", function(p)
  require("sim.s3_policy").check(p.Policy, p.Bucket)
  return p.Policy
end)
A.DeleteBucketPolicy = set_field("Policy", "s3:DeleteBucketPolicy", clear)

function A.GetBucketPolicy(p, env)
  local b = bucket_for(p.Bucket, env, "s3:GetBucketPolicy")
  if not b.Policy then fail("The bucket policy does not exist", "NoSuchBucketPolicy") end
  return { Policy = b.Policy }
end

-- Objects -------------------------------------------------------------------------------

local function object_key(bucket, key) return bucket .. "/" .. key end

-- The request's object key, when it names one.
local function key_of(p) return type(p.Key) == "string" and p.Key or nil end

local function check_key(key)
  if type(key) ~= "string" or key == "" or #key > 1024 then
    fail("Your key is too long", "KeyTooLongError")
  end
end

-- Stores `body` as object `key` of bucket `b` (counted once), binary-safe (s3_body.lua).
-- An object's ETag: 32 hex digits from one pass over its body (hash_hex
-- reads its text once per six digits: a body of some MiB would take
-- seconds), then its digest and size.
local function etag_of(body)
  return '"' .. util.hash_hex(util.hash_hex(body, 6) .. ":" .. #body, 32) .. '"'
end

-- Stores object `key` of bucket `b` (counted once): `fields` hold its body
-- (s3_body.lua: Blobs/Sizes, or Body/BodyBase64), `size` its bytes.
local function store_object(b, key, fields, size, etag, p, env)
  local k = object_key(b.Name, key)
  if not world.get(OBJECT, k) then
    b.ObjectCount = (b.ObjectCount or 0) + 1
    save_bucket(b)
  end
  world.put(OBJECT, k, { Key = key, Body = fields.Body, BodyBase64 = fields.BodyBase64, Blobs = fields.Blobs,
                         Sizes = fields.Sizes, Size = size, ETag = etag,
                         ContentType = p.ContentType or "binary/octet-stream",
                         LastModified = util.iso8601(env.now_ms), Metadata = p.Metadata },
    { refs = { A.bucket_arn(b.Name) } })
end

-- A request's body as record fields, its size and ETag: a blob the host
-- stored (BodyBlob, its ETag the MD5 of its bytes, as S3's), or the Body string.
local function body_of(p)
  if type(p.BodyBlob) == "table" then
    return bodies.blob_fields(p.BodyBlob), p.BodyBlob.Size, '"' .. p.BodyBlob.MD5 .. '"'
  end
  local body = p.Body == nil and "" or tostring(p.Body)
  local text, base64 = bodies.fields(body)
  return { Body = text, BodyBase64 = base64 }, #body, etag_of(body)
end

function A.PutObject(p, env)
  local b = bucket_for(p.Bucket, env, "s3:PutObject", key_of(p))
  check_key(p.Key)
  local fields, size, etag = body_of(p)
  store_object(b, p.Key, fields, size, etag, p, env)
  return { ETag = etag }
end

local function load_object(p, env)
  local b = bucket_for(p.Bucket, env, "s3:GetObject", key_of(p))
  local o = type(p.Key) == "string" and world.get(OBJECT, object_key(b.Name, p.Key))
  if not o then fail("The specified key does not exist.", "NoSuchKey") end
  return o
end

local function head(o)
  return { ContentLength = o.Size or #bodies.read(o), ETag = o.ETag, ContentType = o.ContentType, LastModified = o.LastModified,
           Metadata = o.Metadata }
end

function A.HeadObject(p, env) return head(load_object(p, env)) end

-- A blob-backed body is answered as BodyBlob, the blobs to stream
-- (`serve` does, applying a Range header); a Lua caller reads it with
-- s3_body.result_bytes.
function A.GetObject(p, env)
  local o = load_object(p, env)
  if p.IfMatch and p.IfMatch ~= "*" and p.IfMatch:gsub('"', "") ~= o.ETag:gsub('"', "") then
    fail("At least one of the pre-conditions you specified did not hold", "PreconditionFailed")
  end
  local r = head(o)
  if o.Blobs then
    r.BodyBlob = { Blobs = o.Blobs, Sizes = o.Sizes }
  else
    r.Body = bodies.read(o)
  end
  return r
end

-- Removes one object if it is there (DeleteObject succeeds for a missing key, as S3 does).
local function remove_object(b, key)
  if world.remove(OBJECT, object_key(b.Name, key)) then
    b.ObjectCount = math.max(0, (b.ObjectCount or 1) - 1)
    return true
  end
  return false
end

function A.DeleteObject(p, env)
  local b = bucket_for(p.Bucket, env, "s3:DeleteObject", key_of(p))
  check_key(p.Key)
  if remove_object(b, p.Key) then save_bucket(b) end
  return {}
end

-- Each key is its own DeleteObject: one another account may not delete is
-- an error of the answer (S3's per-key Errors), not the request's.
function A.DeleteObjects(p, env)
  local b = load_bucket(p.Bucket)
  local deleted, errors = {}, {}
  for _, o in ipairs((p.Delete or {}).Objects or {}) do
    if pcall(access.check, b, env.account, "s3:DeleteObject", o.Key) then
      remove_object(b, o.Key)
      deleted[#deleted + 1] = { Key = o.Key }
    else
      errors[#errors + 1] = { Key = o.Key, Code = "AccessDenied", Message = "Access Denied" }
    end
  end
  save_bucket(b)
  return { Deleted = deleted, Errors = errors }
end

-- ListObjectsV2: the bucket's objects in key order, from StartAfter /
-- ContinuationToken (the last key returned), Prefix-filtered, at most
-- MaxKeys (default 1,000). A page is a range of the world's ordered object
-- ids ("<bucket>/<key>"): O(log n + MaxKeys), however big the bucket.
function A.ListObjectsV2(p, env)
  local b = bucket_for(p.Bucket, env, "s3:ListBucket")
  local prefix = p.Prefix or ""
  local after = p.ContinuationToken or p.StartAfter
  local max = math.floor(tonumber(p.MaxKeys) or 1000)  -- an integer, as S3 models it
  local base = object_key(b.Name, "")
  local contents, truncated, last = {}, false, nil
  for _, id in ipairs(world.ids(OBJECT, true, base .. prefix, after and base .. after or nil, math.max(max, 0) + 1)) do
    if #contents >= max then truncated = true; break end
    local key = id:sub(#base + 1)
    local o = world.get(OBJECT, id)
    contents[#contents + 1] = { Key = key, Size = o.Size or #bodies.read(o), ETag = o.ETag, LastModified = o.LastModified,
                                StorageClass = "STANDARD" }
    last = key
  end
  return { Name = b.Name, Prefix = prefix, KeyCount = #contents, MaxKeys = max, IsTruncated = truncated,
           Contents = contents, NextContinuationToken = truncated and last or nil }
end

-- Multipart uploads ----------------------------------------------------------------------
-- An upload is the record "s3.upload" <UploadId> (bucket, key, content type,
-- metadata); each part its own record "s3.part" "<UploadId>/<PartNumber>", so
-- a part is written once, not the whole upload again. Complete joins the
-- parts named, in order, into the object and forgets the upload.

local function no_upload()
  fail("The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or "
    .. "completed.", "NoSuchUpload")
end

local function load_upload(p, env, action)
  bucket_for(p.Bucket, env, action, key_of(p))
  local u = type(p.UploadId) == "string" and world.get(UPLOAD, p.UploadId)
  if not u or u.Bucket ~= p.Bucket or u.Key ~= p.Key then no_upload() end
  return u
end

function A.CreateMultipartUpload(p, env)
  bucket_for(p.Bucket, env, "s3:PutObject", key_of(p))
  check_key(p.Key)
  local id = env.new_id("hex", 32)
  world.put(UPLOAD, id, { Bucket = p.Bucket, Key = p.Key, ContentType = p.ContentType, Metadata = p.Metadata,
                          Initiated = util.iso8601(env.now_ms), Parts = {} }, { refs = { A.bucket_arn(p.Bucket) } })
  return { Bucket = p.Bucket, Key = p.Key, UploadId = id }
end

function A.UploadPart(p, env)
  local u = load_upload(p, env, "s3:PutObject")
  local n = tonumber(p.PartNumber)
  if not n or n < 1 or n > 10000 or n % 1 ~= 0 then
    fail("Part number must be an integer between 1 and 10000, inclusive", "InvalidArgument")
  end
  local fields, size, etag = body_of(p)
  fields.Size, fields.ETag = size, etag
  world.put(PART, p.UploadId .. "/" .. n, fields)
  u.Parts = util.as_list(u.Parts)
  local known = false
  for _, m in ipairs(u.Parts) do known = known or m == n end
  if not known then
    u.Parts[#u.Parts + 1] = n
    world.put(UPLOAD, p.UploadId, u, { refs = { A.bucket_arn(p.Bucket) } })
  end
  return { ETag = etag }
end

function forget_upload(id, u)
  for _, n in ipairs(util.as_list(u.Parts)) do world.remove(PART, id .. "/" .. n) end
  world.remove(UPLOAD, id)
end

-- The 16 bytes an ETag's 32 hex digits stand for.
local function etag_bytes(etag)
  return (etag:gsub('"', ""):gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end))
end

local MIN_PART = 5 * 1024 * 1024  -- every part but the last (S3's multipart limits)

-- The object is its parts in order: their blobs named by the object's
-- record (nothing copied: the blobs change owner), or their bytes joined
-- when a part was given as a string. Its ETag is S3's: the MD5 of the
-- parts' binary MD5s, "-" and the number of parts.
function A.CompleteMultipartUpload(p, env)
  local u = load_upload(p, env, "s3:PutObject")
  local parts = util.as_list((p.MultipartUpload or {}).Parts)
  if #parts == 0 then
    fail("You must specify at least one part", "InvalidRequest")
  end
  local stored, last = {}, 0
  for i, part in ipairs(parts) do
    local n = tonumber(part.PartNumber) or 0
    if n <= last then
      fail("The list of parts was not in ascending order. The parts list must be specified in order by part number.",
        "InvalidPartOrder")
    end
    last = n
    local s = world.get(PART, p.UploadId .. "/" .. n)
    if not s or (part.ETag and part.ETag:gsub('"', "") ~= s.ETag:gsub('"', "")) then
      fail("One or more of the specified parts could not be found.  The part may not have been uploaded, or the "
        .. "specified entity tag may not have matched the part's entity tag.", "InvalidPart")
    end
    stored[i] = s
  end
  local size, digests, all_blobs = 0, {}, true
  for i, s in ipairs(stored) do
    local part_size = s.Size or #bodies.read(s)
    if i < #stored and part_size < MIN_PART then
      fail("Your proposed upload is smaller than the minimum allowed size", "EntityTooSmall")
    end
    size = size + part_size
    digests[i] = etag_bytes(s.ETag)
    all_blobs = all_blobs and s.Blobs ~= nil
  end
  local fields
  if all_blobs then
    fields = { Blobs = {}, Sizes = {} }
    for _, s in ipairs(stored) do
      for j, id in ipairs(s.Blobs) do
        fields.Blobs[#fields.Blobs + 1], fields.Sizes[#fields.Sizes + 1] = id, s.Sizes[j]
      end
    end
  else
    local chunks = {}
    for i, s in ipairs(stored) do chunks[i] = bodies.read(s) end
    local text, base64 = bodies.fields(table.concat(chunks))
    fields = { Body = text, BodyBase64 = base64 }
  end
  local etag = '"' .. md5(table.concat(digests)) .. "-" .. #parts .. '"'
  store_object(load_bucket(p.Bucket), p.Key, fields, size, etag, u, env)
  forget_upload(p.UploadId, u)
  return { Location = "/" .. p.Bucket .. "/" .. p.Key, Bucket = p.Bucket, Key = p.Key, ETag = etag }
end

function A.AbortMultipartUpload(p, env)
  forget_upload(p.UploadId, load_upload(p, env, "s3:AbortMultipartUpload"))
  return {}
end

return A
