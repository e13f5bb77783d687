-- sim.indexes: a service's index records, written once into a state saved
-- before the service kept them.
--
-- A service that starts keeping an index (records of their own, found as a
-- range of ids: a region's KMS keys, an application's deployments) reads
-- only that index afterwards; a state written by an earlier moonstack has
-- the base records without it, and its listings would miss them. Such a
-- service lists the index in its module's BACKFILL:
--
--   A.BACKFILL = { { base = "kms.key", index = "kms.key_of_region",
--                    id = function(id, record) return "<index id>" or nil end } }
--
-- The first time a Lua state loads the service (sim/init.lua), each entry
-- whose mark — the record ("sim", "backfilled:<index>") — is absent walks
-- its base kind, every account's (sim/world.lua's "<account>/<kind>"), once,
-- and writes the index records missing (no data, not live, as the services
-- write them); then it marks the entry done. A world holding no base record
-- is left unmarked, so a fresh state stays as it was.

local world = require("moonstack.world")  -- the store itself: every account's kinds

local M = {}

-- The store kinds holding `base` records: "<base>" and "<account>/<base>",
-- each with the prefix its index kind takes.
local function kinds_of(base)
  local out = {}
  for _, kind in ipairs(world.kinds()) do
    if kind == base then
      out[#out + 1] = { kind = kind, prefix = "" }
    elseif kind:sub(-(#base + 1)) == "/" .. base then
      out[#out + 1] = { kind = kind, prefix = kind:sub(1, #kind - #base) }
    end
  end
  return out
end

-- Fills one entry's index; true when any base record was there.
local function fill(entry)
  local any = false
  for _, k in ipairs(kinds_of(entry.base)) do
    local index_kind = k.prefix .. entry.index
    for _, id in ipairs(world.ids(k.kind)) do
      any = true
      local record = world.get(k.kind, id)
      local index_id = record and entry.id(id, record)
      if index_id and world.get(index_kind, index_id) == nil then
        world.put(index_kind, index_id, {}, { live = false })
      end
    end
  end
  return any
end

---Backfills the indexes service module `mod` lists in BACKFILL and has not
---filled in this world yet.
function M.backfill(mod)
  local entries = rawget(mod, "BACKFILL")
  if type(entries) ~= "table" then return end
  world.atomic(function()
    for _, entry in ipairs(entries) do
      local mark = "backfilled:" .. entry.index
      if world.get("sim", mark) == nil and fill(entry) then world.put("sim", mark, { done = true }) end
    end
  end)
end

return M
