-- A test provider: every hook kind, an in-progress create, a failing update.
local P = require("moonstack.provider")
local util = require("lib.util")

return P.define {
  type = "Test::Demo::Widget",
  properties = {
    P.string "Name" { required = true, update = "replace" },
    P.integer "Size" { update = "none", default = 1 },
    P.boolean "Fast" { update = "some" },
    P.string "Mode" {
      update = function(old, new) return new == "big" and "replace" or "none" end,
    },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "Arn", "Size" },
  primary_identifier = "Arn",
  create = function(ctx, props)
    if props.Name == "slow" and ctx.progress == nil then
      return P.in_progress { after = 30, context = { step = 1 } }
    end
    local id = util.id(ctx, props.Name)
    return { id = id, attributes = { Arn = "arn:test:" .. id, Size = props.Size } }
  end,
  update = function(ctx, id, new, old, changed)
    if new.Size == 13 then P.fail("Size 13 is unlucky", "InvalidRequest") end
    return { attributes = { Size = new.Size } }
  end,
  delete = function(ctx, id, props) end,
}
