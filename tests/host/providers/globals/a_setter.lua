-- Sets a global at load time and in a hook: neither may reach b_reader.lua.
local P = require("moonstack.provider")
Shared = "from a"
return P.define {
  type = "Test::Globals::Setter",
  create = function() Leaked = "from a's hook"; return { id = "a" } end,
  delete = function() end,
}
