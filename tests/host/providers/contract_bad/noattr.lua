-- A deliberately broken provider for the contract kit's tests: create
-- returns only one of its two declared attributes, and update fails.
local P = require("moonstack.provider")
local world = require("moonstack.world")

return P.define({
  type = "Test::Contract::NoAttr",
  properties = {
    P.string "Name" { required = true, update = "replace" },
    P.integer "Size" { update = "none" },
  },
  attributes = { "Name", "Arn" },
  create = function(ctx, props)
    local id = "noattr-" .. props.Name
    world.put("test.noattr", id, { Name = props.Name, Size = props.Size })
    return { id = id, attributes = { Name = props.Name } }  -- the bug: no Arn
  end,
  update = function(ctx, id, new, old, changed)
    P.fail("Size cannot be " .. tostring(new.Size), "InvalidRequest")
  end,
  delete = function(ctx, id, props) world.remove("test.noattr", id) end,
})
