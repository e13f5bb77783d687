-- The simulated CloudWatch Logs: log groups, retention values, tags by ARN,
-- streams and their events.
local H = require("harness")
local T = H.suite("sim logs")

T.case("log groups: names, duplicates, retention values, tags", function()
  local _, sim = fresh()
  local logs = sim.client().logs
  logs.CreateLogGroup({ logGroupName = "/app/web", tags = { team = "a" } })
  local e = H.raises(function() logs.CreateLogGroup({ logGroupName = "/app/web" }) end,
    "The specified log group already exists")
  H.eq(e.code, "ResourceAlreadyExistsException")
  H.raises(function() logs.CreateLogGroup({ logGroupName = "bad name" }) end,
    "1 validation error detected: Value 'bad name' at 'logGroupName' failed to satisfy constraint: Member must "
    .. "satisfy regular expression pattern: [\\.\\-_/#A-Za-z0-9]+")
  e = H.raises(function() logs.PutRetentionPolicy({ logGroupName = "/app/web", retentionInDays = 2 }) end,
    "Invalid retention value. Valid values are: [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, "
    .. "1096, 1827, 2192, 2557, 2922, 3288, 3653]")
  H.eq(e.code, "InvalidParameterException")
  logs.PutRetentionPolicy({ logGroupName = "/app/web", retentionInDays = 14 })
  local g = logs.DescribeLogGroups({ logGroupNamePrefix = "/app/" }).logGroups[1]
  H.eq(g.retentionInDays, 14)
  H.eq(g.arn, "arn:aws:logs:us-east-1:123456789012:log-group:/app/web:*")
  logs.TagResource({ resourceArn = g.logGroupArn, tags = { env = "dev" } })
  H.same(logs.ListTagsForResource({ resourceArn = g.logGroupArn }).tags, { team = "a", env = "dev" })
  logs.DeleteLogGroup({ logGroupName = "/app/web" })
  H.eq(H.raises(function() logs.DeleteLogGroup({ logGroupName = "/app/web" }) end,
    "The specified log group does not exist.").code, "ResourceNotFoundException")
end)

T.case("log streams: events in order, filtered, gone with their group", function()
  local _, sim = fresh()
  local logs = sim.client().logs
  H.eq(H.raises(function() logs.CreateLogStream({ logGroupName = "/g", logStreamName = "s" }) end,
    "The specified log group does not exist.").code, "ResourceNotFoundException")
  logs.CreateLogGroup({ logGroupName = "/g" })
  logs.CreateLogStream({ logGroupName = "/g", logStreamName = "2024/01/31/[$LATEST]ab" })
  logs.CreateLogStream({ logGroupName = "/g", logStreamName = "b" })
  H.eq(H.raises(function() logs.CreateLogStream({ logGroupName = "/g", logStreamName = "b" }) end,
    "The specified log stream already exists").code, "ResourceAlreadyExistsException")
  H.eq(H.raises(function() logs.PutLogEvents({ logGroupName = "/g", logStreamName = "zz", logEvents = {} }) end,
    "The specified log stream does not exist.").code, "ResourceNotFoundException")
  logs.PutLogEvents({ logGroupName = "/g", logStreamName = "2024/01/31/[$LATEST]ab",
                      logEvents = { { timestamp = 5, message = "START one" }, { timestamp = 5, message = "two" } } })
  logs.PutLogEvents({ logGroupName = "/g", logStreamName = "b", logEvents = { { timestamp = 3, message = "START b" } } })
  local got = logs.GetLogEvents({ logGroupName = "/g", logStreamName = "2024/01/31/[$LATEST]ab" }).events
  H.eq(#got, 2)
  H.eq(got[1].message, "START one")
  H.eq(got[2].message, "two")
  local messages = {}
  for _, e in ipairs(logs.FilterLogEvents({ logGroupName = "/g" }).events) do messages[#messages + 1] = e.message end
  H.same(messages, { "START b", "START one", "two" })
  messages = {}
  for _, e in ipairs(logs.FilterLogEvents({ logGroupName = "/g", filterPattern = "START" }).events) do
    messages[#messages + 1] = e.message
  end
  H.same(messages, { "START b", "START one" })
  H.eq(#logs.DescribeLogStreams({ logGroupName = "/g" }).logStreams, 2)
  logs.DeleteLogGroup({ logGroupName = "/g" })
  logs.CreateLogGroup({ logGroupName = "/g" })
  H.eq(#logs.DescribeLogStreams({ logGroupName = "/g" }).logStreams, 0)
end)

T.case("a group's streams are its own: not a group's whose name it begins", function()
  local _, sim = fresh()
  local logs = sim.client().logs
  for _, g in ipairs({ "/g", "/g2", "/g/sub" }) do
    logs.CreateLogGroup({ logGroupName = g })
    logs.CreateLogStream({ logGroupName = g, logStreamName = "s-" .. g })
  end
  logs.CreateLogStream({ logGroupName = "/g", logStreamName = "a" })
  local function streams(g)
    local out = {}
    for _, s in ipairs(logs.DescribeLogStreams({ logGroupName = g }).logStreams) do out[#out + 1] = s.logStreamName end
    return out
  end
  H.same(streams("/g"), { "a", "s-/g" })
  H.same(streams("/g2"), { "s-/g2" })
  logs.DeleteLogGroup({ logGroupName = "/g" })
  H.same(streams("/g2"), { "s-/g2" })
  H.same(streams("/g/sub"), { "s-/g/sub" })
  local names = {}
  for _, g in ipairs(logs.DescribeLogGroups({ logGroupNamePrefix = "/g" }).logGroups) do names[#names + 1] = g.logGroupName end
  H.same(names, { "/g/sub", "/g2" })
end)

return T
