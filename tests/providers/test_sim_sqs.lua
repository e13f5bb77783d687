-- The simulated SQS: queue names (FIFO rule), attributes, messages with
-- visibility on the world clock.
local H = require("harness")
local T = H.suite("sim sqs")

local function sqs()
  local world, sim = fresh()
  return sim.client().sqs, world
end

local STANDARD = "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length"
local FIFO = "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end "
  .. "with .fifo suffix and be 1 to 80 in length."

T.case("queue names: .fifo exactly for FIFO queues, 1 to 80 characters", function()
  local c = sqs()
  H.eq(H.raises(function() c.CreateQueue({ QueueName = "jobs.fifo" }) end, STANDARD).code, "InvalidParameterValue")
  H.raises(function() c.CreateQueue({ QueueName = string.rep("q", 81) }) end, STANDARD)
  H.raises(function() c.CreateQueue({ QueueName = "has space" }) end, STANDARD)
  H.raises(function() c.CreateQueue({ QueueName = "jobs", Attributes = { FifoQueue = "true" } }) end, FIFO)
  H.raises(function() c.CreateQueue({ QueueName = string.rep("q", 76) .. ".fifo", Attributes = { FifoQueue = "true" } }) end, FIFO)
  local url = c.CreateQueue({ QueueName = "jobs.fifo", Attributes = { FifoQueue = "true" } }).QueueUrl
  H.eq(url, "https://sqs.us-east-1.amazonaws.com/123456789012/jobs.fifo")
  local a = c.GetQueueAttributes({ QueueUrl = url }).Attributes
  H.eq(a.FifoQueue, "true")
  H.eq(a.QueueArn, "arn:aws:sqs:us-east-1:123456789012:jobs.fifo")
  H.eq(c.GetQueueUrl({ QueueName = "jobs.fifo" }).QueueUrl, url)
end)

T.case("CreateQueue is idempotent for the same attributes, refused for others", function()
  local c = sqs()
  local url = c.CreateQueue({ QueueName = "q", Attributes = { VisibilityTimeout = "60" } }).QueueUrl
  H.eq(c.CreateQueue({ QueueName = "q", Attributes = { VisibilityTimeout = "60" } }).QueueUrl, url)
  local e = H.raises(function() c.CreateQueue({ QueueName = "q", Attributes = { VisibilityTimeout = "61" } }) end,
    "A queue already exists with the same name and a different value for attribute VisibilityTimeout")
  H.eq(e.code, "QueueAlreadyExists")
  H.raises(function() c.SetQueueAttributes({ QueueUrl = url, Attributes = { DelaySeconds = "901" } }) end,
    "Invalid value for the parameter DelaySeconds.")
  local redrive = '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:dlq","maxReceiveCount":"3"}'
  H.raises(function() c.SetQueueAttributes({ QueueUrl = url, Attributes = { RedrivePolicy = redrive } }) end,
    "Value " .. redrive .. " for parameter RedrivePolicy is invalid. Reason: Dead letter target does not exist.")
  c.CreateQueue({ QueueName = "dlq" })
  c.SetQueueAttributes({ QueueUrl = url, Attributes = { RedrivePolicy = redrive, DelaySeconds = 5 } })
  local a = c.GetQueueAttributes({ QueueUrl = url, AttributeNames = { "RedrivePolicy", "DelaySeconds" } }).Attributes
  H.same(a, { RedrivePolicy = redrive, DelaySeconds = "5" })
end)

T.case("messages: send, receive (then invisible), visible again after the timeout, delete", function()
  local c, world = sqs()
  local url = c.CreateQueue({ QueueName = "work", Attributes = { VisibilityTimeout = "30" } }).QueueUrl
  c.SendMessage({ QueueUrl = url, MessageBody = "one" })
  c.SendMessage({ QueueUrl = url, MessageBody = "two" })
  H.eq(#world.ids("sqs.message"), 2)
  local got = c.ReceiveMessage({ QueueUrl = url }).Messages
  H.eq(#got, 1)
  H.eq(got[1].Body, "one")
  H.eq(c.ReceiveMessage({ QueueUrl = url, MaxNumberOfMessages = 10 }).Messages[1].Body, "two")
  H.eq(#c.ReceiveMessage({ QueueUrl = url }).Messages, 0)
  local a = c.GetQueueAttributes({ QueueUrl = url }).Attributes
  H.eq(a.ApproximateNumberOfMessagesNotVisible, "2")
  world.set_now_ms(31000)
  local again = c.ReceiveMessage({ QueueUrl = url }).Messages[1]
  H.eq(again.Body, "one")
  H.eq(again.Attributes.ApproximateReceiveCount, "2")
  c.DeleteMessage({ QueueUrl = url, ReceiptHandle = again.ReceiptHandle })
  H.eq(#world.ids("sqs.message"), 1)
  H.raises(function() c.DeleteMessage({ QueueUrl = url, ReceiptHandle = "junk" }) end,
    "The input receipt handle \"junk\" is not a valid receipt handle.")
  c.DeleteQueue({ QueueUrl = url })
  H.same(world.ids("sqs.message"), {})
  local e = H.raises(function() c.SendMessage({ QueueUrl = url, MessageBody = "x" }) end, "The specified queue does not exist.")
  H.eq(e.code, "QueueDoesNotExist")
end)

return T
