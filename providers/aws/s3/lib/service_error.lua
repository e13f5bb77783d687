-- How CloudFormation's S3 handlers report an S3 error in a resource's
-- status reason: S3's message, then the SDK's details, e.g. (aws/aws-cdk#21776)
--   The bucket you tried to delete is not empty (Service: Amazon S3; Status Code: 409;
--   Error Code: BucketNotEmpty; Request ID: 13B5WKE8TCT9VS8K; S3 Extended Request ID: …; Proxy: null)
-- The request IDs are drawn from the world's ID sequence (deterministic).
local world = require("moonstack.world")

local STATUS = { BucketNotEmpty = 409, NoSuchBucket = 404, InvalidBucketName = 400, MalformedPolicy = 400 }

return function(message, code)
  local sim = require("sim")
  local request, extended = world.atomic(function()
    return sim.new_id("upper_alnum", 16), sim.new_id("hex", 76)
  end)
  return message .. " (Service: Amazon S3; Status Code: " .. (STATUS[code] or 400) .. "; Error Code: " .. code
    .. "; Request ID: " .. request .. "; S3 Extended Request ID: " .. extended .. "; Proxy: null)"
end
