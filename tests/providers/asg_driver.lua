-- Drives the Auto Scaling providers as the engine does, for the
-- test_aws_autoscaling*.lua suites: validate, decide the change, call a
-- hook until it stops answering "in progress" (moving world time on by each
-- `after`), and record each progress reason as the event the engine would
-- emit ("UPDATE_IN_PROGRESS <reason>"), then the final status.
local P = require("moonstack.provider")

local D = {}

local ROOT = _G.MOONSTACK_ROOT or "."
D.AMI = "ami-0123456789abcdef0"

function D.load(path)
  local full = ROOT .. "/providers/" .. path .. ".lua"
  P.set_source(full)
  local ok, decl = pcall(dofile, full)
  P.set_source(nil)
  if not ok then error(decl, 0) end
  return decl
end

function D.context(sim, logical_id, policy, old_policy)
  return { stack_name = "s", logical_id = logical_id or "Web", region = "us-east-1", account = "123456789012",
           world = sim.client(nil, "cloudformation"), update_policy = policy, old_update_policy = old_policy }
end

---Calls decl[hook] until done (from ctx.progress when `continue`, else
---from the start). Returns the events (list of strings, the last one the
---final status) and the hook's result (nil when it failed).
function D.drive(world, decl, hook, ctx, args, status, continue)
  local events = {}
  if not continue then ctx.progress = nil end
  for _ = 1, 5000 do
    local ok, r = pcall(function() return decl:check_result(hook, decl[hook](ctx, unpack(args))) end)
    if not ok then
      events[#events + 1] = status .. "_FAILED " .. (P.error_message(r))
      ctx.progress = nil
      return events, nil
    end
    if not P.is_in_progress(r) then
      events[#events + 1] = status .. "_COMPLETE"
      ctx.progress = nil
      return events, r
    end
    for _, reason in ipairs(r.reasons or {}) do
      events[#events + 1] = status .. "_IN_PROGRESS " .. reason
    end
    world.set_now_ms(world.now_ms() + math.max(1, r.after) * 1000)
    ctx.progress = r.context
  end
  error("hook " .. hook .. " never finished")
end

function D.create(world, decl, ctx, props)
  local p = decl:validate(props, ctx)
  local events, r = D.drive(world, decl, "create", ctx, { p }, "CREATE")
  return r and r.id, p, events
end

---An update as the engine runs it: the change decides in place or replace.
function D.update(world, decl, ctx, id, old, new)
  local o, n = decl:validate(old, ctx), decl:validate(new, ctx)
  local behavior, changed = decl:change(o, n, ctx)
  if behavior == "replace" then return behavior end
  local events = D.drive(world, decl, "update", ctx, { id, n, o, changed }, "UPDATE")
  return behavior, events
end

---The rollback of that update (the default: update with old and new swapped).
function D.rollback(world, decl, ctx, id, restore, current)
  local r, c = decl:validate(restore, ctx), decl:validate(current, ctx)
  local _, changed = decl:change(c, r, ctx)
  local hook = decl.rollback and "rollback" or "update"
  return D.drive(world, decl, hook, ctx, { id, r, c, changed }, "UPDATE")
end

function D.group(sim, name)
  return sim.call("autoscaling", "DescribeAutoScalingGroups", { AutoScalingGroupNames = { name } }).AutoScalingGroups[1]
end

---The group's instances (not Terminating) by launch configuration name.
function D.by_configuration(sim, name)
  local out = {}
  for _, i in ipairs(D.group(sim, name).Instances) do
    if i.LifecycleState ~= "Terminating" then
      local k = i.LaunchConfigurationName or (i.LaunchTemplate and "v" .. i.LaunchTemplate.Version)
      out[k] = (out[k] or 0) + 1
    end
  end
  return out
end

function D.ids(sim, name, configuration)
  local out = {}
  for _, i in ipairs(D.group(sim, name).Instances) do
    if i.LaunchConfigurationName == configuration and i.LifecycleState ~= "Terminating" then out[#out + 1] = i.InstanceId end
  end
  return out
end

function D.signal_script(stack, resource)
  return "#!/bin/bash\n/opt/aws/bin/cfn-signal -e $? --stack " .. stack .. " --resource " .. resource .. "\n"
end

return D
