-- Provider A: its create makes the write props.Patch names
-- (lib/isolation.lua), then reports what it sees. A write the sandbox
-- refuses fails the create with the sandbox's error.
local P = require("moonstack.provider")
local isolation = require("lib.isolation")

return P.define {
  type = "Test::Isolation::Patcher",
  properties = { P.string "Patch" { update = "replace" } },
  attributes = { "Seen" },
  create = function(ctx, props)
    if props.Patch then isolation.PATCHES[props.Patch](_G, ctx) end
    return { id = ctx.stack_name .. "-a", attributes = { Seen = isolation.observe(_G, ctx) } }
  end,
  delete = function() end,
}
