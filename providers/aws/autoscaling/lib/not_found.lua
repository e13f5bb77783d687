-- Auto Scaling answers "no such thing" with a ValidationError whose message
-- says what is missing ("AutoScalingGroup name not found - …", "Launch
-- configuration name not found - …", "Scheduled Update Group Action name not
-- found - …", "No Lifecycle Hook found …", "Instance Id not found - …"): the providers tell a resource
-- already gone (a delete's success) from a real failure by that message.

local errors = require("moonstack.errors")

local N = {}

N.GROUP = "^AutoScalingGroup name not found"
N.LAUNCH_CONFIGURATION = "^Launch configuration name not found"
N.SCHEDULED_ACTION = "^Scheduled Update Group Action name not found"
N.LIFECYCLE_HOOK = "^No Lifecycle Hook found"
N.INSTANCE = "^Instance Id not found"

---True when `err` is Auto Scaling's answer for a missing thing of one of
---the given kinds (N.GROUP, ...).
function N.matches(err, ...)
  local message = errors.message(err)
  message = tostring(message)
  for _, pattern in ipairs({ ... }) do
    if message:find(pattern) then return true end
  end
  return false
end

---Calls fn(request); nil when it failed because one of the given kinds is
---missing, its result otherwise (other errors propagate unchanged).
function N.unless_gone(fn, request, ...)
  local ok, res = pcall(fn, request)
  if ok then return res end
  if N.matches(res, ...) then return nil end
  error(res, 0)
end

return N
