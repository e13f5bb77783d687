-- The simulated CloudWatch Logs: log groups, retention values, tags by ARN.
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

return T
