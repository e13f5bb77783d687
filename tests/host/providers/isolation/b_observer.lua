-- Provider B: reports what it sees of every shared table
-- (lib/isolation.lua).
local P = require("moonstack.provider")
local isolation = require("lib.isolation")

return P.define {
  type = "Test::Isolation::Observer",
  attributes = { "Seen" },
  create = function(ctx)
    return { id = ctx.stack_name .. "-b", attributes = { Seen = isolation.observe(_G, ctx) } }
  end,
  delete = function() end,
}
