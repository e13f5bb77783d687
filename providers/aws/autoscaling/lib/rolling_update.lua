-- The AutoScalingRollingUpdate of an Auto Scaling group (seed 004), as a
-- state machine the group's update (and rollback) hook steps through; its
-- state is ctx.progress (plain data, journaled), every step returns either
-- P.in_progress{reason = <AWS's event texts>} or nothing when done.
--
-- How a batch goes (the order of AWS's events in public deployment logs,
-- e.g. the CloudFormation-Workshop "Exercise 1b" log and the Guardian's
-- testing-asg-rolling-update notes):
--   start       instances the update itself launched (a raised
--               DesiredCapacity) are a first batch: settle/signals below,
--               then initiate;
--   initiate    the instances not launched from the group's current
--               configuration (or outside its subnets) are "obsolete";
--               none: nothing to do. Otherwise:
--                 "Rolling update initiated. Terminating N obsolete
--                 instance(s) in batches of B[, while keeping at least M
--                 instance(s) in service]. [Waiting on resource signals with
--                 a timeout of PT… | Pausing for PT…] when new instances are
--                 added to the autoscaling group."
--               SuspendProcesses are suspended; when MinInstancesInService
--               + B exceeds DesiredCapacity, MinSize and DesiredCapacity
--               are raised to it:
--                 "Temporarily setting autoscaling group MinSize and
--                 DesiredCapacity to T."
--               (T = MinInstancesInService + B, at most MaxSize: the
--               Guardian notes' 6 + 3 -> 9 and 5 + 5 -> 10, and no such
--               event when 8 + 1 = 9 was the desired capacity already; the
--               older Workshop log shows one even then.)
--   settle      instances the group launched since the last look are the
--               batch: "New instance(s) added to autoscaling group -
--               Waiting on K resource signal(s) with a timeout of PT…."
--               (or "- Pausing for PT…." without signals); none: terminate.
--   signals     each signal of a batch instance (SignalResource of this
--               logical ID, at/after the batch started) is an event
--               "Received SUCCESS signal with UniqueId i-…"; when PauseTime
--               passes first: "Failed to receive N resource signal(s) for
--               the current batch. Each resource signal timeout is counted
--               as a FAILURE." Too many failures for
--               MinSuccessfulInstancesPercent fail the update with "Received
--               S SUCCESS signal(s) out of T. Unable to satisfy P%
--               MinSuccessfulInstancesPercent requirement" (T: the update's
--               obsolete instances).
--   pause       PauseTime without signals; then MinActiveInstancesPercent
--               (if set) counts the batch's instances not InService.
--   terminate   the next B obsolete instances: "Terminating instance(s)
--               [i-a,i-b]; replacing with R new instance(s)." (the last
--               round restores MinSize and DesiredCapacity first, so R is
--               what the original capacity still needs);
--   terminating until they are gone: "Successfully terminated instance(s)
--               [i-a,i-b] (Progress P%)." -> settle.
--   finish      suspended processes are resumed (also when the update
--               fails; MinSize is then restored too, DesiredCapacity stays
--               as AWS leaves it, so the rollback — run with the OLD
--               template's policy by the engine — puts it back).
-- Where each text was checked (public logs of AWS's events):
--   "Rolling update initiated. …", "Temporarily setting …", "Terminating
--   instance(s) […]; replacing with N new instance(s).", "Successfully
--   terminated instance(s) […] (Progress P%).", "New instance(s) added to
--   autoscaling group - Waiting on N resource signal(s) with a timeout of
--   PT….", "Received SUCCESS signal with UniqueId …": the
--   CloudFormation-Workshop exercise 1b log (ids without spaces after the
--   commas, as there); "…, while keeping at least M instance(s) in service."
--   and the form without it ("…in batches of 1.") in the Guardian's
--   testing-asg-rolling-update notes and a CDK deploy log;
--   "Failed to receive N resource signal(s) for the current batch. Each
--   resource signal timeout is counted as a FAILURE." (an "Auto Scaling
--   group update progress" event) and "Received 0 SUCCESS signal(s) out of
--   1. Unable to satisfy 100% MinSuccessfulInstancesPercent requirement"
--   (the UPDATE_FAILED reason) in a public write-up of a failed update;
--   "Received 1 FAILURE signal(s) out of 1. …" in AWS Launch Wizard's
--   troubleshooting guide. T in "out of T" is the update's count of
--   instances to replace (the Guardian notes: "out of 6", "out of 9").
--   Only "Pausing for PT…" comes from Eucalyptus' reimplementation of this
--   policy, not from an AWS log; the MinActiveInstancesPercent failure
--   text is extrapolated from the MinSuccessfulInstancesPercent one.

local P = require("moonstack.provider")
local U = require("aws.autoscaling.lib.update_policy")
local world = require("moonstack.world")
local cfn = require("sim.ec2.cfn")
local not_found = require("aws.autoscaling.lib.not_found")

local R = {}

local POLL = 5

local function now_ms()
  local ok, t = pcall(world.now_ms)
  return ok and t or 0
end

local function describe(aws, name)
  return aws.autoscaling.DescribeAutoScalingGroups { AutoScalingGroupNames = { name } }.AutoScalingGroups[1]
end

-- The group as DescribeAutoScalingGroups shows it, read once per call (steps
-- run back to back at one instant) until something changes it.
local function group_of(env)
  env.group = env.group or describe(env.aws, env.name)
  return env.group
end

-- Calls an Auto Scaling action that changes the group.
local function change(env, action, request)
  env.group = nil
  return env.aws.autoscaling[action](request)
end

-- The current configuration of a group as instances record it: the launch
-- configuration's name, or the template ID with its version NUMBER.
local function current_configuration(aws, group)
  if group.LaunchConfigurationName then return { lc = group.LaunchConfigurationName } end
  local spec = group.LaunchTemplate or (group.MixedInstancesPolicy and group.MixedInstancesPolicy.LaunchTemplate
    and group.MixedInstancesPolicy.LaunchTemplate.LaunchTemplateSpecification)
  local v = aws.ec2.DescribeLaunchTemplateVersions { LaunchTemplateId = spec.LaunchTemplateId,
    LaunchTemplateName = spec.LaunchTemplateId == nil and spec.LaunchTemplateName or nil,
    Versions = { spec.Version or "$Default" } }.LaunchTemplateVersions[1]
  return { lt = v.LaunchTemplateId, version = tostring(v.VersionNumber) }
end

local function subnet_set(group)
  if type(group.VPCZoneIdentifier) ~= "string" or group.VPCZoneIdentifier == "" then return nil end
  local set = {}
  for id in group.VPCZoneIdentifier:gmatch("[^,%s]+") do set[id] = true end
  return set
end

-- Terminating, or held by a termination hook (Terminating:Wait).
local function leaving(e) return e.LifecycleState:sub(1, 11) == "Terminating" end

-- The obsolete instances of a group, in the group's order.
local function obsolete(aws, group)
  local cur = current_configuration(aws, group)
  local subnets = subnet_set(group)
  local where = {}
  if subnets and #group.Instances > 0 then
    local ids = {}
    for i, e in ipairs(group.Instances) do ids[i] = e.InstanceId end
    for _, r in ipairs(aws.ec2.DescribeInstances { InstanceIds = ids }.Reservations) do
      for _, inst in ipairs(r.Instances) do where[inst.InstanceId] = inst.SubnetId end
    end
  end
  local out = {}
  for _, e in ipairs(group.Instances) do
    if not leaving(e) then
      local same
      if cur.lc then same = e.LaunchConfigurationName == cur.lc
      else same = e.LaunchTemplate ~= nil and e.LaunchTemplate.LaunchTemplateId == cur.lt
        and e.LaunchTemplate.Version == cur.version end
      if subnets and where[e.InstanceId] and not subnets[where[e.InstanceId]] then same = false end
      if not same then out[#out + 1] = e.InstanceId end
    end
  end
  return out
end

local function list_text(ids) return "[" .. table.concat(ids, ",") .. "]" end

local function as_set(list)
  local s = {}
  for _, v in ipairs(list or {}) do s[v] = true end
  return s
end

-- Steps ---------------------------------------------------------------------------
-- Each takes (s, env) where s is the state (ctx.progress) and env
-- { aws, name, policy, ctx, reasons }; it returns the next step's name, or
-- "wait" with a delay in seconds.

local steps = {}

-- Instances the group launched with the new configuration when the update
-- raised its capacity (Pending, not obsolete) are waited for first, like a
-- batch (Eucalyptus' reimplementation does the same: FIRST_WAIT_FOR_SIGNALS).
function steps.start(s, env)
  local group = group_of(env)
  local old = obsolete(env.aws, group)
  local is_old = as_set(old)
  local fresh, known = {}, {}
  for _, e in ipairs(group.Instances) do
    if e.LifecycleState:sub(1, 7) == "Pending" and not is_old[e.InstanceId] then fresh[#fresh + 1] = e.InstanceId
    else known[#known + 1] = e.InstanceId end
  end
  s.total = #old + #fresh
  if #fresh > 0 and (env.policy.wait_signals or env.policy.pause_seconds > 0) then
    s.known, s.next = known, "initiate"
    return "settle"
  end
  return "initiate"
end

function steps.initiate(s, env)
  s.next = nil
  local group = group_of(env)
  local old = obsolete(env.aws, group)
  if #old == 0 then return "done" end
  local pol = env.policy
  local batch = math.min(pol.max_batch, #old)
  local temp = math.max(group.DesiredCapacity, pol.min_in_service + batch)
  if temp > group.MaxSize then
    temp = group.MaxSize
    batch = math.max(1, math.min(batch, temp - pol.min_in_service))
  end
  s.obsolete, s.batch, s.done_count = old, batch, 0
  s.total = math.max(s.total or 0, #old)
  s.orig_min, s.orig_desired, s.temp = group.MinSize, group.DesiredCapacity, temp
  local text = "Rolling update initiated. Terminating " .. #old .. " obsolete instance(s) in batches of " .. batch
  if pol.min_in_service > 0 then
    text = text .. ", while keeping at least " .. pol.min_in_service .. " instance(s) in service."
  else
    text = text .. "."
  end
  if pol.wait_signals then
    text = text .. " Waiting on resource signals with a timeout of " .. pol.pause
      .. " when new instances are added to the autoscaling group."
  elseif pol.pause_seconds > 0 then
    text = text .. " Pausing for " .. pol.pause .. " when new instances are added to the autoscaling group."
  end
  env.reasons[#env.reasons + 1] = text
  -- Processes to suspend, minus those already suspended (they stay so).
  local already = {}
  for _, p in ipairs(group.SuspendedProcesses or {}) do already[p.ProcessName] = true end
  local mine = {}
  for _, p in ipairs(pol.suspend) do if not already[p] then mine[#mine + 1] = p end end
  if #mine > 0 then
    change(env, "SuspendProcesses", { AutoScalingGroupName = env.name, ScalingProcesses = mine })
  end
  s.suspended = mine
  if temp > group.DesiredCapacity then
    change(env, "UpdateAutoScalingGroup", { AutoScalingGroupName = env.name, MinSize = temp, DesiredCapacity = temp })
    env.reasons[#env.reasons + 1] = "Temporarily setting autoscaling group MinSize and DesiredCapacity to " .. temp .. "."
    s.raised = true
  end
  local known = {}
  for _, e in ipairs(group.Instances) do known[#known + 1] = e.InstanceId end
  s.known = known
  return "settle"
end

function steps.settle(s, env)
  local group = group_of(env)
  local known = as_set(s.known)
  local new = {}
  for _, e in ipairs(group.Instances) do
    if not known[e.InstanceId] and not leaving(e) then new[#new + 1] = e.InstanceId end
  end
  if #new == 0 then
    -- Not settled yet (the group has not launched what its capacity asks
    -- for, e.g. Launch suspended): wait, as CloudFormation waits for the
    -- group to settle, rather than terminate the next batch too.
    local active = 0
    for _, e in ipairs(group.Instances) do if not leaving(e) then active = active + 1 end end
    if active < group.DesiredCapacity then return "wait", POLL end
    return s.next or "terminate"
  end
  for _, id in ipairs(new) do s.known[#s.known + 1] = id end
  local pol = env.policy
  s.current = new
  s.batch_start = now_ms()
  s.deadline = s.batch_start + pol.pause_seconds * 1000
  s.reported = {}
  if pol.wait_signals then
    env.reasons[#env.reasons + 1] = "New instance(s) added to autoscaling group - Waiting on " .. #new
      .. " resource signal(s) with a timeout of " .. pol.pause .. "."
    return "signals"
  end
  if pol.pause_seconds > 0 then
    env.reasons[#env.reasons + 1] = "New instance(s) added to autoscaling group - Pausing for " .. pol.pause .. "."
    return "pause"
  end
  return s.next or "terminate"
end

-- Fails the update: processes resumed, MinSize restored (see the top); the
-- hook fails on the next call, once this call's events are reported.
local function fail(s, env, reason)
  R.cleanup(s, env, false)
  s.fail_reason = reason
  return "failed"
end

function steps.failed(s) P.fail(s.fail_reason) end

local function check_successes(s, env)
  local pol = env.policy
  local allowed = s.total - U.required(s.total, pol.min_success_pct)
  if (s.failures or 0) > allowed then
    if (s.failure_signals or 0) > 0 then
      return fail(s, env, "Received " .. s.failure_signals .. " FAILURE signal(s) out of " .. s.total .. ". Unable to satisfy "
        .. pol.min_success_pct .. "% MinSuccessfulInstancesPercent requirement")
    end
    return fail(s, env, "Received " .. (s.successes or 0) .. " SUCCESS signal(s) out of " .. s.total .. ". Unable to satisfy "
      .. pol.min_success_pct .. "% MinSuccessfulInstancesPercent requirement")
  end
  return s.next or "terminate"
end

function steps.signals(s, env)
  -- No instance signals before it has booted: the first look is then.
  local booted = s.batch_start + cfn.seconds("boot") * 1000
  if now_ms() < booted and #s.reported == 0 then
    return "wait", math.max(1, math.ceil((math.min(booted, s.deadline) - now_ms()) / 1000))
  end
  group_of(env)  -- settles the instances: booted ones run their cfn-signal
  local reported = as_set(s.reported)
  local batch = as_set(s.current)
  local pending = {}
  for _, id in ipairs(s.current) do
    if not reported[id] then pending[#pending + 1] = id end
  end
  local signals = env.aws.cloudformation.GetResourceSignals { StackName = env.ctx.stack_name,
    LogicalResourceId = env.ctx.logical_id, UniqueIds = pending }.Signals
  for _, sig in ipairs(signals) do
    if batch[sig.UniqueId] and not reported[sig.UniqueId] and (tonumber(sig.Timestamp) or 0) >= s.batch_start then
      reported[sig.UniqueId] = true
      s.reported[#s.reported + 1] = sig.UniqueId
      env.reasons[#env.reasons + 1] = "Received " .. sig.Status .. " signal with UniqueId " .. sig.UniqueId
      if sig.Status == "SUCCESS" then s.successes = (s.successes or 0) + 1
      else
        s.failures = (s.failures or 0) + 1
        s.failure_signals = (s.failure_signals or 0) + 1
      end
    end
  end
  if #s.reported == #s.current then return check_successes(s, env) end
  local t = now_ms()
  if t < s.deadline then return "wait", math.max(1, math.min(POLL, math.ceil((s.deadline - t) / 1000))) end
  local missing = #s.current - #s.reported
  env.reasons[#env.reasons + 1] = "Failed to receive " .. missing
    .. " resource signal(s) for the current batch. Each resource signal timeout is counted as a FAILURE."
  s.failures = (s.failures or 0) + missing
  return check_successes(s, env)
end

function steps.pause(s, env)
  local t = now_ms()
  if t < s.deadline then return "wait", math.max(1, math.ceil((s.deadline - t) / 1000)) end
  local pct = env.policy.min_active_pct
  if pct then
    local group = group_of(env)
    local batch = as_set(s.current)
    for _, e in ipairs(group.Instances) do
      if batch[e.InstanceId] and e.LifecycleState ~= "InService" then s.failures = (s.failures or 0) + 1 end
    end
    local allowed = s.total - U.required(s.total, pct)
    if (s.failures or 0) > allowed then
      -- Extrapolated from the MinSuccessfulInstancesPercent wording.
      return fail(s, env, "Received " .. (s.total - s.failures) .. " InService instance(s) out of " .. s.total
        .. ". Unable to satisfy " .. pct .. "% MinActiveInstancesPercent requirement")
    end
  end
  return s.next or "terminate"
end

function steps.terminate(s, env)
  local group = group_of(env)
  local present = {}
  for _, e in ipairs(group.Instances) do
    if not leaving(e) then present[e.InstanceId] = true end
  end
  local remaining = {}
  for _, id in ipairs(s.obsolete) do if present[id] then remaining[#remaining + 1] = id end end
  if #remaining == 0 then return "finish" end
  local pick = {}
  for i = 1, math.min(s.batch, #remaining) do pick[i] = remaining[i] end
  local last = #remaining <= s.batch
  local replacing = #pick
  if last then
    local active = 0
    for _ in pairs(present) do active = active + 1 end
    replacing = math.max(0, s.orig_desired - (active - #pick))
  end
  env.reasons[#env.reasons + 1] = "Terminating instance(s) " .. list_text(pick) .. "; replacing with " .. replacing
    .. " new instance(s)."
  if last and s.raised then
    change(env, "UpdateAutoScalingGroup", { AutoScalingGroupName = env.name, MinSize = s.orig_min,
      DesiredCapacity = s.orig_desired })
    s.raised = false
  end
  for _, id in ipairs(pick) do
    local ok, err = pcall(change, env, "TerminateInstanceInAutoScalingGroup",
      { InstanceId = id, ShouldDecrementDesiredCapacity = false })
    if not ok and not not_found.matches(err, not_found.INSTANCE) then error(err, 0) end
  end
  s.terminating = pick
  s.terminated_by = now_ms() + cfn.seconds("terminate") * 1000
  return "terminating"
end

function steps.terminating(s, env)
  local t = now_ms()
  if t < (s.terminated_by or 0) then return "wait", math.max(1, math.ceil((s.terminated_by - t) / 1000)) end
  local group = group_of(env)
  local waiting = as_set(s.terminating)
  for _, e in ipairs(group.Instances) do
    if waiting[e.InstanceId] then return "wait", POLL end
  end
  s.done_count = s.done_count + #s.terminating
  env.reasons[#env.reasons + 1] = "Successfully terminated instance(s) " .. list_text(s.terminating) .. " (Progress "
    .. math.floor(100 * s.done_count / #s.obsolete) .. "%)."
  s.terminating = nil
  return "settle"
end

function steps.finish(s, env)
  R.cleanup(s, env, true)
  return "done"
end

---Puts back what the update changed for its duration: the processes it
---suspended, and the MinSize (and on success the DesiredCapacity) it raised.
function R.cleanup(s, env, success)
  if s.raised then
    local req = { AutoScalingGroupName = env.name, MinSize = s.orig_min }
    if success then req.DesiredCapacity = s.orig_desired end
    pcall(change, env, "UpdateAutoScalingGroup", req)
    s.raised = false
  end
  if s.suspended and #s.suspended > 0 then
    pcall(change, env, "ResumeProcesses", { AutoScalingGroupName = env.name, ScalingProcesses = s.suspended })
    s.suspended = {}
  end
end

---Runs the rolling update of group `name` one call further. Returns
---P.in_progress (carrying this call's events as its reasons) or nil when
---the update is over; fails the hook with AWS's reason.
---@param ctx table the hook's ctx (progress, stack_name, logical_id)
---@param aws table the client (ctx.world)
---@param name string the group
---@param policy table U.rolling(...)
---@param state table? the state so far (nil: start)
function R.step(ctx, aws, name, policy, state)
  local s = state or { step = "start" }
  if s.step == "done" then return nil end
  -- The state comes back from the engine's journal, where an empty list is
  -- an empty object: the lists it grows are made plain lists again.
  for _, k in ipairs({ "obsolete", "known", "current", "reported", "suspended", "terminating" }) do
    if s[k] ~= nil then
      local l = {}
      for i, v in ipairs(s[k]) do l[i] = v end
      s[k] = l
    end
  end
  local env = { aws = aws, name = name, policy = policy, ctx = ctx, reasons = {} }
  local function reasons() return #env.reasons > 0 and env.reasons or nil end
  -- Steps run back to back until one has to wait for the clock; the end
  -- (done or failed) waits one more call when this one has events to
  -- report, since a hook's events go out with its in-progress answer.
  for _ = 1, 100 do
    if (s.step == "done" or s.step == "failed") and #env.reasons > 0 then
      return P.in_progress { after = 1, context = s, reason = env.reasons }
    end
    if s.step == "done" then return nil end
    local nxt, delay = steps[s.step](s, env)
    if nxt == "wait" then return P.in_progress { after = delay, context = s, reason = reasons() } end
    s.step = nxt
  end
  return P.in_progress { after = 1, context = s, reason = reasons() }
end

return R
