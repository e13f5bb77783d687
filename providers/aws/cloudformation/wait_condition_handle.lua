-- AWS::CloudFormation::WaitConditionHandle: a presigned URL that signals
-- (cfn-signal, curl -X PUT) are sent to, held by the simulated
-- CloudFormation (sim.cloudformation).
--
-- No properties, so never updated or replaced. Ref is the URL, which is also
-- the physical ID ("the presigned URL is displayed as the physical ID of the
-- wait condition handle resource", using-cfn-waitcondition.md in
-- awsdocs/aws-cloudformation-user-guide). Deleting it forgets its signals.

local P = require("moonstack.provider")

return P.define {
  type = "AWS::CloudFormation::WaitConditionHandle",
  properties = {},

  create = function(ctx)
    local h = ctx.world.cloudformation.CreateWaitConditionHandle {
      StackId = ctx.stack_id, StackName = ctx.stack_name, LogicalResourceId = ctx.logical_id,
    }
    return { id = h.Url }
  end,

  delete = function(ctx, id)
    ctx.world.cloudformation.DeleteWaitConditionHandle { Handle = id }
  end,

  read = function(ctx, id)
    local ok, err = pcall(ctx.world.cloudformation.GetWaitConditionSignals, { Handle = id })
    if ok then return { properties = {} } end
    if type(err) == "table" and err.code == "AccessDenied" then return nil end
    error(err, 0)
  end,
}
