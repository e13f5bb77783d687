-- AWS::CodeDeploy::Application on the simulated CodeDeploy. ApplicationName
-- and ComputePlatform are Replacement (create-only), Tags No interruption.
-- Ref is the name (generated "<stack>-<logical>-<12>" within 100
-- characters); no Fn::GetAtt.
local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

local function gone(err) return type(err) == "table" and err.code == "ApplicationDoesNotExistException" end

return P.define {
  type = "AWS::CodeDeploy::Application",
  properties = {
    P.string "ApplicationName" { update = "replace" },
    P.string "ComputePlatform" { allowed = { "ECS", "Lambda", "Server" }, update = "replace" },
    P.tags "Tags" { update = "none" },
  },
  attributes = {},

  create = function(ctx, props)
    local name = props.ApplicationName or names.physical(ctx.stack_name, ctx.logical_id, 100)
    ctx.world.codedeploy.CreateApplication { applicationName = name, computePlatform = props.ComputePlatform }
    return { id = name, attributes = {} }
  end,

  update = function() end, -- Tags only: the sim keeps none

  delete = function(ctx, id)
    local ok, err = pcall(ctx.world.codedeploy.DeleteApplication, { applicationName = id })
    if not ok and not gone(err) then error(err, 0) end
  end,

  read = function(ctx, id, props)
    local ok, r = pcall(ctx.world.codedeploy.GetApplication, { applicationName = id })
    if not ok then
      if gone(r) then return nil end
      error(r, 0)
    end
    return { properties = props, attributes = {} }
  end,
}
