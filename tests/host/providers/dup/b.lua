local P = require("moonstack.provider")
return P.define { type = "Test::Demo::Twin", create = function() return { id = "a" } end, delete = function() end }
