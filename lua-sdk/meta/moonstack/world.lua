---@meta
-- moonstack.world: the simulated cloud's store, shared by every worker
-- (host/lua/world_binding.cc; in pure Lua for tests:
-- lua-sdk/moonstack/world_memory.lua). Providers normally use the sim's
-- client (`ctx.world.ec2.RunInstances{...}`); the store is what sim/ keeps
-- its records in. Definitions for lua-language-server only.

---@class moonstack.world
local world = {}

---@class moonstack.world.PutOptions
---@field refs string[]? ids this record refers to (what `referrers` finds)
---@field live boolean?  false: kept, but not a live resource (ids(kind, true), contract leftovers)

---@class moonstack.world.Referrer
---@field kind string
---@field id string

---A copy of the record's data, or nil.
---@param kind string  "ec2.instance", "ssm.parameter", ...
---@param id string
---@return table?
function world.get(kind, id) end

---Stores (replaces) a record.
---@param kind string
---@param id string
---@param data table
---@param opts moonstack.world.PutOptions?
function world.put(kind, id, data, opts) end

---Removes a record; true when it existed.
---@param kind string
---@param id string
---@return boolean
function world.remove(kind, id) end

---The ids of a kind's records, sorted (live ones only with `live_only`).
---@param kind string
---@param live_only boolean?
---@return string[]
function world.ids(kind, live_only) end

---Whether the record exists and is live.
---@param kind string
---@param id string
---@return boolean
function world.live(kind, id) end

---The live records whose refs name `id`.
---@param id string
---@return moonstack.world.Referrer[]
function world.referrers(id) end

---The kinds that hold records, sorted.
---@return string[]
function world.kinds() end

---Runs fn(...) with the world locked (no other worker interleaves) and
---returns its results; the lock is released before an error propagates.
---@generic R
---@param fn fun(...): R
---@return R
function world.atomic(fn, ...) end

---The clock of the current call, in milliseconds (virtual time in tests).
---@return integer
function world.now_ms() end

---Sets the clock of the current call (tests, the contract kit).
---@param ms integer
function world.set_now_ms(ms) end

return world
