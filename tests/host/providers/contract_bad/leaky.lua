-- A deliberately broken provider for the contract kit's tests: delete
-- forgets to remove the record create put in the world.
local P = require("moonstack.provider")
local world = require("moonstack.world")

return P.define({
  type = "Test::Contract::Leaky",
  properties = { P.string "Name" { required = true, update = "replace" } },
  attributes = { "Name" },
  create = function(ctx, props)
    local id = "leaky-" .. props.Name
    world.put("test.leaky", id, { Name = props.Name })
    return { id = id, attributes = { Name = props.Name } }
  end,
  delete = function(ctx, id, props) end,  -- the bug: the record stays
})
