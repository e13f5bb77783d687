-- The simulated cloud per account (sim/world.lua): the same names in two
-- accounts are two resources and each account lists only its own; IAM is
-- per account in every region; S3 bucket names are global; the default
-- account's records keep the kinds they had before accounts.
local H = require("harness")
local T = H.suite("sim accounts")

local A, B = "111111111111", "222222222222"

local function clients()
  local world, sim = fresh()
  return sim.client({ account = A }), sim.client({ account = B }), world, sim
end

T.case("SQS: one queue name in two accounts is two queues, each listed and used by its own account only", function()
  local a, b, world, sim = clients()
  local url_a = a.sqs.CreateQueue({ QueueName = "jobs" }).QueueUrl
  local url_b = b.sqs.CreateQueue({ QueueName = "jobs", Attributes = { VisibilityTimeout = "45" } }).QueueUrl
  H.eq(url_a, "https://sqs.us-east-1.amazonaws.com/111111111111/jobs")
  H.eq(url_b, "https://sqs.us-east-1.amazonaws.com/222222222222/jobs")
  H.same(a.sqs.ListQueues({}).QueueUrls, { url_a })
  H.same(b.sqs.ListQueues({}).QueueUrls, { url_b })
  H.same(sim.client().sqs.ListQueues({}).QueueUrls, {})  -- the default account has none
  H.eq(a.sqs.GetQueueAttributes({ QueueUrl = url_a }).Attributes.VisibilityTimeout, "30")
  H.eq(b.sqs.GetQueueAttributes({ QueueUrl = url_b }).Attributes.VisibilityTimeout, "45")
  H.eq(b.sqs.GetQueueAttributes({ QueueUrl = url_b }).Attributes.QueueArn, "arn:aws:sqs:us-east-1:222222222222:jobs")
  a.sqs.SendMessage({ QueueUrl = url_a, MessageBody = "for a" })
  b.sqs.SendMessage({ QueueUrl = url_b, MessageBody = "for b" })
  H.eq(a.sqs.ReceiveMessage({ QueueUrl = url_a }).Messages[1].Body, "for a")
  H.eq(b.sqs.ReceiveMessage({ QueueUrl = url_b }).Messages[1].Body, "for b")
  -- Another account's URL names that account's queue: not the caller's namesake.
  local e = H.raises(function() b.sqs.SendMessage({ QueueUrl = url_a, MessageBody = "x" }) end,
    "The specified queue does not exist.")
  H.eq(e.code, "QueueDoesNotExist")
  a.sqs.DeleteQueue({ QueueUrl = url_a })
  H.same(a.sqs.ListQueues({}).QueueUrls, {})
  H.same(b.sqs.ListQueues({}).QueueUrls, { url_b })
  -- Where the records are: the other accounts' kinds carry the account.
  H.same(world.ids("sqs.queue"), {})
  H.same(world.ids("111111111111/sqs.queue"), {})
  H.same(world.ids("222222222222/sqs.queue"), { "us-east-1:jobs" })
end)

T.case("the default account keeps the kinds and keys it had before accounts", function()
  local world, sim = fresh()
  sim.client().sqs.CreateQueue({ QueueName = "q" })
  sim.client({ account = "123456789012" }).ssm.PutParameter({ Name = "/p", Value = "v", Type = "String" })
  sim.client().s3.CreateBucket({ Bucket = "data-bucket" })
  H.same(world.ids("sqs.queue"), { "us-east-1:q" })
  H.same(world.ids("ssm.parameter"), { "us-east-1:/p" })
  -- Another account may not write it (no bucket policy grants it: sim/s3_access.lua).
  local e = H.raises(function() sim.client({ account = B }).s3.PutObject({ Bucket = "data-bucket", Key = "k", Body = "b" }) end,
    "Access Denied")
  H.eq(e.code, "AccessDenied")
  sim.client().s3.PutObject({ Bucket = "data-bucket", Key = "k", Body = "b" })
  H.same(world.ids("s3.bucket"), { "data-bucket" })  -- S3 is one namespace for every account
  H.same(world.ids("s3.object"), { "data-bucket/k" })
  for _, kind in ipairs(world.kinds()) do H.falsy(kind:match("^%d+/"), kind) end
end)

T.case("SSM: one parameter name in two accounts, each reading and listing its own", function()
  local a, b = clients()
  a.ssm.PutParameter({ Name = "/app/db", Value = "a-db", Type = "String" })
  b.ssm.PutParameter({ Name = "/app/db", Value = "b-db", Type = "String" })
  H.eq(a.ssm.GetParameter({ Name = "/app/db" }).Parameter.Value, "a-db")
  H.eq(b.ssm.GetParameter({ Name = "/app/db" }).Parameter.Value, "b-db")
  H.eq(b.ssm.GetParameter({ Name = "/app/db" }).Parameter.ARN, "arn:aws:ssm:us-east-1:222222222222:parameter/app/db")
  H.eq(b.ssm.GetParameter({ Name = "/app/db" }).Parameter.Version, 1)
  a.ssm.PutParameter({ Name = "/app/only-a", Value = "1", Type = "String" })
  local names = function(c)
    local out = {}
    for _, p in ipairs(c.ssm.GetParametersByPath({ Path = "/app" }).Parameters) do out[#out + 1] = p.Name end
    return out
  end
  H.same(names(a), { "/app/db", "/app/only-a" })
  H.same(names(b), { "/app/db" })
  local e = H.raises(function() b.ssm.GetParameter({ Name = "/app/only-a" }) end, "")
  H.eq(e.code, "ParameterNotFound")
end)

T.case("IAM: one role name in two accounts; an account's roles are the same in every region", function()
  local _, _, _, sim = clients()
  local trust = '{"Version":"2012-10-17","Statement":[]}'
  local a_east = sim.client({ account = A }).iam
  local a_west = sim.client({ account = A, region = "eu-west-1" }).iam
  local b = sim.client({ account = B, region = "eu-west-1" }).iam
  local ra = a_east.CreateRole({ RoleName = "app", AssumeRolePolicyDocument = trust }).Role
  local rb = b.CreateRole({ RoleName = "app", AssumeRolePolicyDocument = trust }).Role
  H.eq(ra.Arn, "arn:aws:iam::111111111111:role/app")
  H.eq(rb.Arn, "arn:aws:iam::222222222222:role/app")
  H.eq(a_west.GetRole({ RoleName = "app" }).Role.Arn, ra.Arn)  -- IAM is global: no region
  local e = H.raises(function() a_west.CreateRole({ RoleName = "app", AssumeRolePolicyDocument = trust }) end,
    "Role with name app already exists.")
  H.eq(e.code, "EntityAlreadyExists")
  a_west.CreateRole({ RoleName = "only-a", AssumeRolePolicyDocument = trust })
  local names = function(c)
    local out = {}
    for _, r in ipairs(c.ListRoles({}).Roles) do out[#out + 1] = r.Arn end
    return out
  end
  H.same(names(a_east), { "arn:aws:iam::111111111111:role/app", "arn:aws:iam::111111111111:role/only-a" })
  H.same(names(b), { "arn:aws:iam::222222222222:role/app" })
  e = H.raises(function() b.GetRole({ RoleName = "only-a" }) end, "The role with name only-a cannot be found.")
  H.eq(e.code, "NoSuchEntity")
end)

T.case("EC2: one security group name in each account's default VPC; another account's group ID is unknown", function()
  local a, b = clients()
  local ga = a.ec2.CreateSecurityGroup({ GroupName = "web", Description = "web" }).GroupId
  local gb = b.ec2.CreateSecurityGroup({ GroupName = "web", Description = "web" }).GroupId
  H.truthy(ga ~= gb, "two groups")
  local listed = function(c)
    local out = {}
    for _, g in ipairs(c.ec2.DescribeSecurityGroups({ Filters = { { Name = "group-name", Values = { "web" } } } }).SecurityGroups) do
      out[#out + 1] = g.GroupId .. " " .. g.OwnerId
    end
    return out
  end
  H.same(listed(a), { ga .. " " .. A })
  H.same(listed(b), { gb .. " " .. B })
  local vpc_a = a.ec2.DescribeSecurityGroups({ GroupIds = { ga } }).SecurityGroups[1].VpcId
  local vpc_b = b.ec2.DescribeSecurityGroups({ GroupIds = { gb } }).SecurityGroups[1].VpcId
  H.truthy(vpc_a ~= vpc_b, "each account its own default VPC")
  local e = H.raises(function() b.ec2.DescribeSecurityGroups({ GroupIds = { ga } }) end,
    "The security group '" .. ga .. "' does not exist")
  H.eq(e.code, "InvalidGroup.NotFound")
end)

T.case("S3: a bucket name another account holds is BucketAlreadyExists, and ListBuckets is per account", function()
  local a, b = clients()
  a.s3.CreateBucket({ Bucket = "taken-name" })
  local e = H.raises(function() b.s3.CreateBucket({ Bucket = "taken-name" }) end,
    "The requested bucket name is not available. The bucket namespace is shared by all users of the system. "
    .. "Please select a different name and try again.")
  H.eq(e.code, "BucketAlreadyExists")
  b.s3.CreateBucket({ Bucket = "b-bucket" })
  H.eq(#a.s3.ListBuckets({}).Buckets, 1)
  H.eq(a.s3.ListBuckets({}).Buckets[1].Name, "taken-name")
  H.eq(b.s3.ListBuckets({}).Buckets[1].Name, "b-bucket")
  H.eq(b.s3.ListBuckets({}).Owner.ID, B)
end)

T.case("ARNs of another account: SNS and KMS answer not found, not the caller's namesake", function()
  local a, b = clients()
  local topic_a = a.sns.CreateTopic({ Name = "alerts" }).TopicArn
  b.sns.CreateTopic({ Name = "alerts" })
  H.eq(topic_a, "arn:aws:sns:us-east-1:111111111111:alerts")
  local e = H.raises(function() b.sns.GetTopicAttributes({ TopicArn = topic_a }) end, "Topic does not exist")
  H.eq(e.code, "NotFound")
  local key_a = a.kms.CreateKey({}).KeyMetadata
  e = H.raises(function() b.kms.DescribeKey({ KeyId = key_a.Arn }) end)
  H.eq(e.code, "NotFoundException")
  H.raises(function() b.kms.DescribeKey({ KeyId = key_a.KeyId }) end)
  H.eq(a.kms.DescribeKey({ KeyId = key_a.Arn }).KeyMetadata.KeyId, key_a.KeyId)
end)

T.case("the world's referrers index: each account sees its own records' referrers", function()
  local a, b, world = clients()
  local ta = a.sns.CreateTopic({ Name = "t" }).TopicArn
  local qa = a.sqs.CreateQueue({ QueueName = "q" }).QueueUrl
  local qb = b.sqs.CreateQueue({ QueueName = "q" }).QueueUrl
  a.sns.Subscribe({ TopicArn = ta, Protocol = "sqs", Endpoint = "arn:aws:sqs:us-east-1:111111111111:q" })
  a.sns.Publish({ TopicArn = ta, Message = "hello" })
  H.eq(#a.sqs.ReceiveMessage({ QueueUrl = qa }).Messages, 1)
  H.same(b.sqs.ReceiveMessage({ QueueUrl = qb }).Messages or {}, {})
  H.eq(a.sns.GetTopicAttributes({ TopicArn = ta }).Attributes.SubscriptionsConfirmed, "1")
  H.same(world.ids("111111111111/sqs.message"), { "us-east-1:q#1" })
  H.same(world.ids("222222222222/sqs.message"), {})
end)

T.case("an account ID that is not the default's scopes even a nested action (SNS delivering to SQS)", function()
  local _, b, _, sim = clients()
  local t = b.sns.CreateTopic({ Name = "t" }).TopicArn
  local q = b.sqs.CreateQueue({ QueueName = "inbox" }).QueueUrl
  b.sns.Subscribe({ TopicArn = t, Protocol = "sqs", Endpoint = "arn:aws:sqs:us-east-1:222222222222:inbox",
                    Attributes = { RawMessageDelivery = "true" } })
  b.sns.Publish({ TopicArn = t, Message = "raw" })
  H.eq(b.sqs.ReceiveMessage({ QueueUrl = q }).Messages[1].Body, "raw")
  H.eq(require("sim.world").account(), "123456789012")  -- the scope is back to the default after
  H.same(sim.client().sqs.ListQueues({}).QueueUrls, {})
end)

T.case("every simulated service reaches the world through sim.world, so its records are per account", function()
  -- Only sim/world.lua itself, sim/init.lua (the ID generator, the
  -- action's lock) and sim/indexes.lua (fills an index in every account's
  -- kinds at once) may use the unscoped store.
  local allowed = { ["world.lua"] = true, ["init.lua"] = true, ["indexes.lua"] = true }
  local offenders = {}
  local files = io.popen('find "' .. MOONSTACK_ROOT .. '/providers/sim" -name "*.lua" | sort')
  for path in files:lines() do
    local rel = path:sub(#MOONSTACK_ROOT + #"/providers/sim/" + 1)
    local f = assert(io.open(path))
    local text = f:read("*a")
    f:close()
    if not allowed[rel] and text:find('require%("moonstack%.world"%)') then offenders[#offenders + 1] = rel end
  end
  files:close()
  H.same(offenders, {})
end)

return T
