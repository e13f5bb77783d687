-- AWS::SQS::Queue and AWS::SQS::QueuePolicy driven as the engine drives them.
local H = require("harness")
local D = require("provider_driver")
local T = H.suite("aws sqs providers")

local QUEUE = D.load("sqs/queue")
local POLICY = D.load("sqs/queue_policy")

local create = D.create

T.case("update behaviours: FifoQueue and QueueName replace, the rest in place", function()
  for _, p in ipairs(QUEUE.properties) do
    H.eq(p.update, (p.name == "FifoQueue" or p.name == "QueueName") and "replace" or "none", p.name)
  end
  local old = QUEUE:validate({ VisibilityTimeout = 30 }, {})
  H.eq((QUEUE:change(old, QUEUE:validate({ VisibilityTimeout = 60 }, {}))), "none")
  H.eq((QUEUE:change(old, QUEUE:validate({ VisibilityTimeout = 30, FifoQueue = true }, {}))), "replace")
end)

T.case("Ref is the queue URL; generated names within 80, a FIFO one ending .fifo", function()
  local world, sim = fresh()
  local long = "AVeryLongLogicalIdForAQueueThatKeepsGoingAndGoingAndGoingOnAndOnForever"
  local r = create(world, sim, QUEUE, {}, long)
  H.eq(#r.attributes.QueueName, 80)
  H.eq(r.id, "https://sqs.us-east-1.amazonaws.com/123456789012/" .. r.attributes.QueueName)
  H.same(r.attributes, { Arn = "arn:aws:sqs:us-east-1:123456789012:" .. r.attributes.QueueName,
                         QueueName = r.attributes.QueueName, QueueUrl = r.id })
  r = create(world, sim, QUEUE, { FifoQueue = true }, long)
  H.eq(#r.attributes.QueueName, 80)
  H.match(r.attributes.QueueName, "^s%-AVeryLong.*%-%w+%.fifo$")
  r = create(world, sim, QUEUE, { QueueName = "named" })
  H.eq(r.id, "https://sqs.us-east-1.amazonaws.com/123456789012/named")
end)

T.case("the FIFO name rule and a taken name fail with AWS's texts", function()
  local world, sim = fresh()
  H.eq(D.failure(function() create(world, sim, QUEUE, { QueueName = "jobs", FifoQueue = true }) end),
    "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with "
    .. ".fifo suffix and be 1 to 80 in length.")
  H.eq(D.failure(function() create(world, sim, QUEUE, { QueueName = "jobs.fifo" }) end),
    "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length")
  create(world, sim, QUEUE, { QueueName = "taken" })
  H.eq(D.failure(function() create(world, sim, QUEUE, { QueueName = "taken" }, "Other") end),
    "Resource of type 'AWS::SQS::Queue' with identifier "
    .. "'https://sqs.us-east-1.amazonaws.com/123456789012/taken' already exists.")
end)

T.case("a redrive policy names an existing queue; read sees out-of-band changes", function()
  local world, sim = fresh()
  local redrive = { deadLetterTargetArn = "arn:aws:sqs:us-east-1:123456789012:dlq", maxReceiveCount = 3 }
  H.eq(D.failure(function() create(world, sim, QUEUE, { QueueName = "main", RedrivePolicy = redrive }) end),
    'Value {"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:dlq","maxReceiveCount":3} for parameter '
    .. "RedrivePolicy is invalid. Reason: Dead letter target does not exist.")
  create(world, sim, QUEUE, { QueueName = "dlq" })
  local props = QUEUE:validate({ QueueName = "main", RedrivePolicy = redrive, VisibilityTimeout = 45 }, {})
  local r, ctx = create(world, sim, QUEUE, props)
  local sqs = sim.client().sqs
  sqs.SetQueueAttributes({ QueueUrl = r.id, Attributes = { VisibilityTimeout = "90", DelaySeconds = "7" } })
  local read = QUEUE:check_result("read", QUEUE.read(ctx, r.id, props))
  H.eq(read.properties.VisibilityTimeout, 90)
  H.eq(read.properties.DelaySeconds, 7)
  H.same(read.properties.RedrivePolicy, redrive)
  sqs.DeleteQueue({ QueueUrl = r.id })
  H.eq(QUEUE.read(ctx, r.id, props), nil)
end)

T.case("a queue policy needs its queues", function()
  local world, sim = fresh()
  local doc = { Statement = { { Effect = "Allow", Principal = "*", Action = "sqs:SendMessage", Resource = "*" } } }
  local url = "https://sqs.us-east-1.amazonaws.com/123456789012/absent"
  H.eq(D.failure(function() create(world, sim, POLICY, { Queues = { url }, PolicyDocument = doc }) end),
    "The specified queue does not exist.")
  sim.client().sqs.CreateQueue({ QueueName = "absent" })
  local r = create(world, sim, POLICY, { Queues = { url }, PolicyDocument = doc }, "QueuePolicy")
  H.match(r.id, "^s%-QueuePolicy%-%w+$")
  H.eq(sim.client().sqs.GetQueueAttributes({ QueueUrl = url, AttributeNames = { "Policy" } }).Attributes.Policy,
    '{"Statement":[{"Action":"sqs:SendMessage","Effect":"Allow","Principal":"*","Resource":"*"}]}')
end)

return T
