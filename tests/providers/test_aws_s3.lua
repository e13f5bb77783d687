-- AWS::S3::Bucket and AWS::S3::BucketPolicy driven as the engine drives them.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws s3 providers")

local BUCKET = D.load("s3/bucket")
local POLICY = D.load("s3/bucket_policy")

local create = D.create

T.case("update behaviours: only the name properties replace", function()
  local replace = {}
  for _, p in ipairs(BUCKET.properties) do
    if p.update == "replace" then replace[#replace + 1] = p.name else H.eq(p.update, "none", p.name) end
  end
  H.same(replace, { "BucketName", "BucketNamePrefix", "BucketNamespace" })
  for _, p in ipairs(POLICY.properties) do H.eq(p.update, p.name == "Bucket" and "replace" or "none", p.name) end
end)

T.case("a generated name is lowercase within 63; Ref and GetAtt in AWS's formats", function()
  local world, sim = fresh()
  local long = D.context(sim, "LogBucketCC3B17E8")
  long.stack_name = "CdkBucketStack-With-A-Rather-Long-Name-For-Buckets"
  local r = D.run(world, BUCKET, "create", long, BUCKET:validate({}, long))
  H.eq(#r.id, 63)
  H.match(r.id, "^cdkbucketstack%-with%-a%-rather%-lon%-logbucketcc3b17e8%-[a-z0-9]+$")
  H.same(r.attributes, {
    Arn = "arn:aws:s3:::" .. r.id,
    DomainName = r.id .. ".s3.amazonaws.com",
    RegionalDomainName = r.id .. ".s3.us-east-1.amazonaws.com",
    DualStackDomainName = r.id .. ".s3.dualstack.us-east-1.amazonaws.com",
    WebsiteURL = "http://" .. r.id .. ".s3-website-us-east-1.amazonaws.com",
  })
  local ctx = D.context(sim, "Site")
  ctx.region = "eu-central-1"
  r = D.run(world, BUCKET, "create", ctx, BUCKET:validate({ BucketName = "site-bucket" }, ctx))
  H.eq(r.id, "site-bucket")
  H.eq(r.attributes.WebsiteURL, "http://site-bucket.s3-website.eu-central-1.amazonaws.com")
  H.eq(r.attributes.RegionalDomainName, "site-bucket.s3.eu-central-1.amazonaws.com")
end)

T.case("bucket name rules and a taken name fail as CloudFormation reports them", function()
  local world, sim = fresh()
  H.eq(D.failure(function() create(world, sim, BUCKET, { BucketName = "ab" }) end),
    "Bucket name should be between 3 and 63 characters long")
  H.eq(D.failure(function() create(world, sim, BUCKET, { BucketName = string.rep("b", 64) }) end),
    "Bucket name should be between 3 and 63 characters long")
  H.eq(D.failure(function() create(world, sim, BUCKET, { BucketName = "MyBucket" }) end),
    "Bucket name should not contain uppercase characters")
  H.match(D.failure(function() create(world, sim, BUCKET, { BucketName = "-bad-" }) end),
    "^The specified bucket is not valid%. %(Service: Amazon S3; Status Code: 400; Error Code: InvalidBucketName; ")
  create(world, sim, BUCKET, { BucketName = "taken-name" })
  H.eq(D.failure(function() create(world, sim, BUCKET, { BucketName = "taken-name" }, "Other") end),
    "taken-name already exists")
  -- Another account's bucket (whose HeadBucket answers it Access Denied) is taken too.
  sim.client({ account = "222222222222" }).s3.CreateBucket({ Bucket = "their-name" })
  H.eq(D.failure(function() create(world, sim, BUCKET, { BucketName = "their-name" }, "Theirs") end),
    "their-name already exists")
  H.same(world.ids("s3.bucket"), { "taken-name", "their-name" })
end)

T.case("a bucket with objects is not deleted: S3's BucketNotEmpty in the event text", function()
  local world, sim = fresh()
  local r, ctx = create(world, sim, BUCKET, { BucketName = "full-bucket" })
  sim.client().s3.PutObject({ Bucket = "full-bucket", Key = "k", Body = "x" })
  local why = D.failure(function() D.run(world, BUCKET, "delete", ctx, r.id, {}) end)
  H.match(why, "^The bucket you tried to delete is not empty %(Service: Amazon S3; Status Code: 409; Error Code: "
    .. "BucketNotEmpty; Request ID: %u[%u%d]+; S3 Extended Request ID: %x+; Proxy: null%)$")
  H.truthy(world.get("s3.bucket", "full-bucket"), "the bucket is still there")
  sim.client().s3.DeleteObject({ Bucket = "full-bucket", Key = "k" })
  D.run(world, BUCKET, "delete", ctx, r.id, {})
  H.eq(world.get("s3.bucket", "full-bucket"), nil)
  D.run(world, BUCKET, "delete", ctx, r.id, {})  -- already gone: done
end)

T.case("tags CloudFormation adds; read sees out-of-band versioning and tag changes", function()
  local world, sim = fresh()
  local props = { BucketName = "read-me", Tags = { { Key = "team", Value = "a" } } }
  local r, ctx = create(world, sim, BUCKET, props)
  local s3 = sim.client().s3
  local got = {}
  for _, t in ipairs(s3.GetBucketTagging({ Bucket = "read-me" }).TagSet) do got[t.Key] = t.Value end
  H.same(got, { team = "a", ["aws:cloudformation:stack-name"] = "s", ["aws:cloudformation:logical-id"] = "Res",
                ["aws:cloudformation:stack-id"] = ctx.stack_id })
  s3.PutBucketVersioning({ Bucket = "read-me", VersioningConfiguration = { Status = "Enabled" } })
  s3.PutBucketTagging({ Bucket = "read-me", Tagging = { TagSet = { { Key = "team", Value = "b" } } } })
  local read = BUCKET:check_result("read", BUCKET.read(ctx, r.id, BUCKET:validate(props, ctx)))
  H.same(read.properties.VersioningConfiguration, { Status = "Enabled" })
  H.same(read.properties.Tags, { { Key = "team", Value = "b" } })
  s3.DeleteBucket({ Bucket = "read-me" })
  H.eq(BUCKET.read(ctx, r.id, props), nil)
end)

T.case("a bucket policy needs its bucket", function()
  local world, sim = fresh()
  local doc = { Statement = { { Effect = "Allow", Principal = "*", Action = "s3:GetObject",
                                 Resource = "arn:aws:s3:::has-policy/*" } } }
  H.match(D.failure(function() create(world, sim, POLICY, { Bucket = "nowhere", PolicyDocument = doc }) end),
    "^The specified bucket does not exist %(Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket; ")
  create(world, sim, BUCKET, { BucketName = "has-policy" })
  -- A policy S3 will not take: its MalformedPolicy, with the SDK's details.
  local bad = { Statement = { { Effect = "Allow", Principal = "*", Action = "s3:GetObject", Resource = "*" } } }
  H.match(D.failure(function() create(world, sim, POLICY, { Bucket = "has-policy", PolicyDocument = bad }) end),
    "^Policy has invalid resource %(Service: Amazon S3; Status Code: 400; Error Code: MalformedPolicy; Request ID: ")
  local r = create(world, sim, POLICY, { Bucket = "has-policy", PolicyDocument = doc })
  H.eq(r.id, "has-policy")
  H.same(sim.client().s3.GetBucketPolicy({ Bucket = "has-policy" }).Policy, doc)
end)

return T
