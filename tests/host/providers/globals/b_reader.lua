local P = require("moonstack.provider")
return P.define {
  type = "Test::Globals::Reader",
  attributes = { "Seen" },
  create = function()
    return { id = "b", attributes = { Seen = tostring(Shared) .. "/" .. tostring(Leaked) } }
  end,
  delete = function() end,
}
