-- Index records written once into a state saved before a service kept them
-- (sim/indexes.lua): a region's KMS keys, an application's CodeDeploy
-- deployments, the unanswered custom-resource requests, an account's S3 buckets.
local H = require("harness")
local T = H.suite("sim indexes")
local indexes = require("sim.indexes")

-- Records as an earlier moonstack wrote them: the base records, no index.
local function old_state(world)
  world.atomic(function()
    world.put("kms.key", "k-east", { KeyId = "k-east", Arn = "arn:aws:kms:us-east-1:123456789012:key/k-east",
                                     KeyState = "Enabled" })
    world.put("222222222222/kms.key", "k-b", { KeyId = "k-b", KeyState = "Enabled",
                                               Arn = "arn:aws:kms:eu-west-1:222222222222:key/k-b" })
    world.put("codedeploy.deployment", "us-east-1:d-OLD000001", { deploymentId = "d-OLD000001", applicationName = "app",
      deploymentGroupName = "g", status = "Succeeded" }, { live = false })
    world.put("cloudformation.custom_request", "r-waiting", { Request = { RequestId = "r-waiting" }, PostedMs = 5 })
    world.put("s3.bucket", "old-bucket", { Name = "old-bucket", Owner = "222222222222", Region = "us-east-1",
                                           CreationDate = "2026-01-01T00:00:00.000Z", ObjectCount = 0 })
    world.put("cloudformation.custom_request", "r-answered", { Request = { RequestId = "r-answered" }, PostedMs = 1,
                                                              Response = { Status = "SUCCESS" } })
  end)
end

-- `fn(sim)` with a sim module of its own, which has loaded no service yet
-- (as in a new Lua state), whatever this process's suites loaded before.
local function with_new_sim(fn)
  local previous = package.loaded["sim"]
  package.loaded["sim"] = nil
  local ok, err = pcall(fn, require("sim"))
  package.loaded["sim"] = previous
  if not ok then error(err, 0) end
end

T.case("a state saved before the indexes gets them when its service loads: every account's, once", function()
  local world = fresh()
  old_state(world)
  -- The first action of each service in a Lua state loads it, and the load fills its indexes.
  with_new_sim(function(sim)
    H.same(sim.call("kms", "ListKeys", {}).Keys,
      { { KeyId = "k-east", KeyArn = "arn:aws:kms:us-east-1:123456789012:key/k-east" } })
    local requests = sim.call("custom_resources", "ListRequests", {}).Requests
    H.eq(#requests, 1)
    H.eq(requests[1].RequestId, "r-waiting")
    H.same(sim.call("s3", "ListBuckets", {}, { account = "222222222222" }).Buckets,
      { { Name = "old-bucket", CreationDate = "2026-01-01T00:00:00.000Z" } })
    H.same(sim.call("kms", "ListKeys", {}, { region = "eu-west-1", account = "222222222222" }).Keys,
      { { KeyId = "k-b", KeyArn = "arn:aws:kms:eu-west-1:222222222222:key/k-b" } })
  end)
  indexes.backfill(require("sim.codedeploy"))
  H.same(world.ids("kms.key_of_region"), { "us-east-1:k-east" })
  H.same(world.ids("222222222222/kms.key_of_region"), { "eu-west-1:k-b" })
  H.same(world.ids("codedeploy.deployment_of_group"), { "us-east-1:app:g:d-OLD000001" })
  H.same(world.ids("cloudformation.custom_request_pending"), { "000000000000005:r-waiting" })
  -- Marked done: a record without its index written later is not looked for again.
  H.eq(world.get("sim", "backfilled:kms.key_of_region").done, true)
  world.atomic(function()
    world.put("kms.key", "k-late", { KeyId = "k-late", Arn = "arn:aws:kms:us-east-1:123456789012:key/k-late" })
  end)
  indexes.backfill(require("sim.kms"))
  H.same(world.ids("kms.key_of_region"), { "us-east-1:k-east" })
end)

T.case("a fresh state is left as it was: nothing to fill, no mark", function()
  local world = fresh()
  local before = world.kinds()
  for _, name in ipairs({ "kms", "codedeploy", "custom_resources", "s3" }) do indexes.backfill(require("sim." .. name)) end
  H.same(world.kinds(), before)
  H.eq(world.get("sim", "backfilled:kms.key_of_region"), nil)
end)

return T
