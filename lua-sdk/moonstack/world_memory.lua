-- moonstack.world_memory: an in-memory implementation of the world store API,
-- for tests that run under plain luajit (no host). Inside moonstack the host
-- provides `moonstack.world` itself (host/lua/world_binding.cc), backed by
-- the engine's shared, persisted World; this file mirrors its contract:
--
--   W.get(kind, id)               -> a copy of the record's data, or nil
--   W.put(kind, id, data [, opts]) opts: { refs = {ids...}, live = bool (default true) }
--                                  replaces the record; refs say which other
--                                  records it depends on (its referrers index)
--   W.remove(kind, id)            -> true if it existed
--   W.ids(kind [, live_only [, prefix [, after [, limit]]]]) -> sorted ids of a kind (starting with
--                                    prefix, sorting after `after`, at most limit; 0: all)
--   W.kinds()                     -> sorted kinds that hold at least one record
--                                    (live or not): how tools such as the
--                                    contract kit enumerate the whole world
--   W.live(kind, id)              -> true if the record exists and is live
--   W.referrers(id)               -> { {kind=, id=}, ... } of LIVE records whose
--                                    refs name id, sorted by kind then id
--   W.atomic(fn, ...)             -> fn(...)'s results; other workers cannot
--                                    touch the world meanwhile (re-entrant)
--   W.now_ms()                    -> the clock of the current call
--   W.read_blob(id, offset, length) -> bytes of a blob a record's "Blobs" list names
--   W.blob_sha256(id1, size1, ...) -> the raw SHA-256 of those blobs' bytes, in order
--   W.draw(alphabet, n)           -> n characters from the world's ID generator
--   W.uniform()                   -> its next value in (0, 1): the generator is
--                                    moonstack.ids's, its state the record
--                                    ("sim", "ids") = ids:state() (default seed
--                                    "moonstack" without one); the host's is
--                                    C++ (host/lua/world_ids.h), the same sequence
--   W.set_now_ms(ms)              (tests only: the host sets the clock per call)
--   W.add_blob(bytes)             -> id (tests only: `serve` writes blobs from HTTP bodies)
--   W.reset()                     (tests only: forget everything)
--
-- A record that is not live (a terminated instance, still describable) does
-- not count as a dependent and is not "left in the world".

local ids = require("moonstack.ids")
local values = require("moonstack.values")

local M = {}

---A fresh, empty world store.
function M.new()
  local W = {}
  local kinds = {}       -- kind -> id -> { data=, refs=, live= }
  local now = 0

  local function copy(v) return values.deep_copy(v) end

  function W.get(kind, id)
    local k = kinds[kind]
    local r = k and k[id]
    return r and copy(r.data) or nil
  end

  function W.put(kind, id, data, opts)
    assert(type(kind) == "string" and type(id) == "string", "world.put(kind, id, data): kind and id are strings")
    assert(type(data) == "table", "world.put: data is a table")
    opts = opts or {}
    kinds[kind] = kinds[kind] or {}
    local refs = {}
    for i, r in ipairs(opts.refs or {}) do refs[i] = r end
    kinds[kind][id] = { data = copy(data), refs = refs, live = opts.live ~= false }
  end

  function W.remove(kind, id)
    local k = kinds[kind]
    if not (k and k[id]) then return false end
    k[id] = nil
    return true
  end

  function W.ids(kind, live_only, prefix, after, limit)
    local out = {}
    for id, r in pairs(kinds[kind] or {}) do
      if (r.live or not live_only) and (prefix == nil or id:sub(1, #prefix) == prefix)
          and (after == nil or id > after) then
        out[#out + 1] = id
      end
    end
    table.sort(out)
    if limit ~= nil and limit > 0 then
      for i = #out, limit + 1, -1 do out[i] = nil end
    end
    return out
  end

  function W.kinds()
    local out = {}
    for kind, recs in pairs(kinds) do
      if next(recs) ~= nil then out[#out + 1] = kind end
    end
    table.sort(out)
    return out
  end

  function W.live(kind, id)
    local k = kinds[kind]
    return k ~= nil and k[id] ~= nil and k[id].live
  end

  function W.referrers(id)
    local out = {}
    for kind, recs in pairs(kinds) do
      for rid, r in pairs(recs) do
        if r.live then
          for _, ref in ipairs(r.refs) do
            if ref == id then out[#out + 1] = { kind = kind, id = rid }; break end
          end
        end
      end
    end
    table.sort(out, function(a, b)
      if a.kind ~= b.kind then return a.kind < b.kind end
      return a.id < b.id
    end)
    return out
  end

  local blobs = {}
  function W.read_blob(id, offset, length)
    local b = assert(blobs[id], "world.read_blob: no blob " .. tostring(id))
    return b:sub((offset or 0) + 1, (offset or 0) + length)
  end
  function W.blob_sha256(...)
    local args, parts = { ... }, {}
    for i = 1, #args, 2 do parts[#parts + 1] = W.read_blob(args[i], 0, args[i + 1]) end
    return require("moonstack.digest").sha256(table.concat(parts))
  end
  function W.add_blob(bytes)
    blobs[#blobs + 1] = bytes
    return #blobs
  end

  -- The ID generator: restored from its record, advanced, written back.
  local function with_generator(fn)
    local state = W.get("sim", "ids")
    local g = state and ids.restore(state) or ids.new()
    local result = fn(g)
    W.put("sim", "ids", g:state())
    return result
  end
  function W.draw(alphabet, n) return with_generator(function(g) return g:chars(alphabet, n) end) end
  function W.uniform() return with_generator(function(g) return g:next() end) end

  function W.atomic(fn, ...) return fn(...) end
  function W.now_ms() return now end
  function W.set_now_ms(ms) now = ms end
  function W.reset() kinds, now, blobs = {}, 0, {} end

  return W
end

return M
