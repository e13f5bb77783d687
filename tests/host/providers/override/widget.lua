local P = require("moonstack.provider")
return P.define {
  type = "Test::Demo::Widget",
  properties = { P.string "Name" { required = true, update = "none" } },
  create = function(ctx, props) return { id = "override-" .. props.Name } end,
  update = function() end,
  delete = function() end,
}
