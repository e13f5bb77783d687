-- sim.transitions: how the managed-service sims (elasticache, opensearch,
-- appstream, codedeploy) move a record through a timed status ("creating"
-- for 8 minutes, then "available") in simulated time.
--
-- A record in transition carries `Transition = { at = ms, to = status,
-- set = { field = value, ... } }`: once the world clock reaches `at`, the
-- record's status field becomes `to` and the fields in `set` are applied.
-- Nothing runs in the background: a record settles when it is read
-- (`settle`), so a world that nobody looks at costs nothing.
--
-- Durations come from the world config record ("config", <service>), key
-- "<what>_seconds", so a test or a user can make them longer or shorter:
--   moonstack world call ... / world load with {"config": {"opensearch": {"upgrade_seconds": 60}}}

local world = require("sim.world")

local M = {}

---Seconds `service` takes for `what` ("create", "upgrade", ...): the world
---config's "<what>_seconds" for that service, else `default`.
---@param service string
---@param what string
---@param default number
---@return number
function M.seconds(service, what, default)
  local cfg = world.get("config", service)
  local v = type(cfg) == "table" and tonumber(cfg[what .. "_seconds"]) or nil
  return v or default
end

---Starts a transition: `rec[field]` becomes `now_status` at once and
---`to` after `seconds`, when the fields in `set` are applied too.
---@param rec table
---@param field string the status field ("Status", "DomainStatus"...)
---@param now_status string
---@param to string
---@param now_ms number
---@param seconds number
---@param set table? fields applied on arrival
function M.start(rec, field, now_status, to, now_ms, seconds, set)
  rec[field] = now_status
  rec.Transition = { at = now_ms + seconds * 1000, to = to, set = set, field = field }
end

---Applies a transition whose time has come; true when the record changed.
---@param rec table
---@param now_ms number
---@return boolean
function M.settle(rec, now_ms)
  local t = rec.Transition
  if type(t) ~= "table" or now_ms < t.at then return false end
  rec[t.field] = t.to
  for k, v in pairs(t.set or {}) do rec[k] = v end
  rec.Transition = nil
  return true
end

---True while the record is in a transition that has not arrived.
function M.busy(rec)
  return type(rec.Transition) == "table"
end

---The record `kind`/`key`, settled to the clock of `env` (and written back
---when it changed); nil when absent. A record whose status settled to
---`gone` is removed and nil returned (deletions).
---@param kind string
---@param key string
---@param env table { now_ms }
---@param gone string? the status meaning "deleted"
function M.load(kind, key, env, gone)
  local rec = world.get(kind, key)
  if not rec then return nil end
  local field = type(rec.Transition) == "table" and rec.Transition.field
  if M.settle(rec, env.now_ms) then
    if gone and rec[field] == gone then
      world.remove(kind, key)
      return nil
    end
    world.put(kind, key, rec)
  end
  return rec
end

return M
