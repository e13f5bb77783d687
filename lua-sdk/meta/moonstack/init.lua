---@meta
-- moonstack: the global table the host installs in every provider's state
-- (host/lua/marshal.cc, readonly.cc); also `require("moonstack")`.
-- Definitions for lua-language-server only: `moonstack provider new` copies
-- this file into the provider's .moonstack/stubs/.

---@class moonstack.host
moonstack = {}

---JSON null as the engine sees it (a light userdata; `tostring` gives "null").
---A property set to it is absent.
---@type lightuserdata
moonstack.null = nil

---Marks `t` (a new table when absent) as a JSON array and returns it: an
---empty table is otherwise an object.
---@param t table?
---@return table
function moonstack.array(t) end

---Marks `t` (a new table when absent) as a JSON object and returns it.
---@param t table?
---@return table
function moonstack.object(t) end

---What `v` becomes in the engine: "null", "boolean", "number", "string",
---"array", "object"; nil when it cannot cross (a function, mixed keys).
---@param v any
---@return "null"|"boolean"|"number"|"string"|"array"|"object"|nil
function moonstack.kind(v) end

---A read-only view of `t`: reads go through, writes raise "attempt to modify
---read-only table <name> ...".
---@generic T: table
---@param t T
---@param name string?
---@return T
function moonstack.freeze(t, name) end

return moonstack
