-- A custom-resource handler for tests/cli/provider_tooling_test.cc: it
-- answers with what it was sent, so the test can see the request.
--   Fail = "true"     -> a FAILED response
--   Silent = "true"   -> no response at all
--   Name              -> the physical ID is "echo-<Name>"
local custom = require("moonstack.custom")

return function(request)
  local props = request.ResourceProperties
  if props.Silent == "true" then return nil end
  if props.Fail == "true" then return custom.failed(request, "asked to fail") end
  local old = request.OldResourceProperties or {}
  local id = request.RequestType == "Delete" and request.PhysicalResourceId or ("echo-" .. tostring(props.Name))
  return custom.success(request, {
    physical_id = id,
    data = {
      RequestType = request.RequestType,
      ResourceType = request.ResourceType,
      LogicalResourceId = request.LogicalResourceId,
      RequestId = request.RequestId,
      ResponseURL = request.ResponseURL,
      PhysicalResourceId = request.PhysicalResourceId or "",
      Count = props.Count,
      Enabled = props.Enabled,
      Ratio = props.Ratio,
      Flags = props.Flags,
      OldCount = old.Count or "",
    },
  })
end
