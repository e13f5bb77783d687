-- AWS::IAM::Group against the simulated IAM.
--
-- Update behaviours are AWS's ("Update requires" in the resource reference,
-- aws-resource-iam-group): GroupName: Replacement; ManagedPolicyArns, Path,
-- Policies: No interruption (Path through UpdateGroup's NewPath).
-- Ref is the group name; Fn::GetAtt gives Arn. Without GroupName the name is
-- "<stack>-<logical>-<12 random>" within IAM's 128 characters.
-- Deleting the group removes its inline and attached policies first; members
-- still in it (added outside this resource) stop the delete with IAM's
-- message.

local P = require("moonstack.provider")
local iam_client = require("aws.iam.lib.client")
local names = require("sim.cloudformation_names")
local pol = require("lib.iam_policies")

local MAX_NAME = 128

local function delete_group(iam, name)
  local ok, err = pcall(function()
    pol.strip(iam, "Group", name)
    iam.DeleteGroup { GroupName = name }
  end)
  if not ok and not pol.gone(err) then error(err, 0) end
end

return P.define {
  type = "AWS::IAM::Group",
  properties = {
    P.string "GroupName" { update = "replace" },
    P.list(P.string) "ManagedPolicyArns" { update = "none" },
    P.string "Path" { update = "none" },
    P.list(P.map) "Policies" { update = "none" },
  },
  attributes = { "Arn" },

  create = function(ctx, props)
    local iam = iam_client(ctx)
    pol.check(ctx, props.Policies, "group")
    local name = props.GroupName or names.physical(ctx.stack_name, ctx.logical_id, MAX_NAME)
    local group = iam.CreateGroup { GroupName = name, Path = props.Path }.Group
    local ok, err = pcall(function()
      pol.sync_inline(iam, "Group", name, nil, props.Policies)
      pol.sync_managed(iam, "Group", name, nil, props.ManagedPolicyArns)
    end)
    if not ok then
      delete_group(iam, name)
      error(err, 0)
    end
    return { id = name, attributes = { Arn = group.Arn } }
  end,

  update = function(ctx, id, new, old, changed)
    local iam = iam_client(ctx)
    for _, prop in ipairs(changed) do
      if prop == "Policies" then
        pol.check(ctx, new.Policies, "group")
        pol.sync_inline(iam, "Group", id, old.Policies, new.Policies)
      elseif prop == "ManagedPolicyArns" then
        pol.sync_managed(iam, "Group", id, old.ManagedPolicyArns, new.ManagedPolicyArns)
      elseif prop == "Path" then
        iam.UpdateGroup { GroupName = id, NewPath = new.Path or "/" }
      end
    end
    return { attributes = { Arn = iam.GetGroup { GroupName = id }.Group.Arn } }
  end,

  delete = function(ctx, id)
    delete_group(ctx.world.iam, id)
  end,

  read = function(ctx, id, props)
    props = props or {}
    local iam = iam_client(ctx)
    local ok, r = pcall(iam.GetGroup, { GroupName = id })
    if not ok then
      if pol.gone(r) then return nil end
      error(r, 0)
    end
    local policies, arns = pol.read(iam, "Group", id, props)
    return {
      properties = { GroupName = r.Group.GroupName, Path = r.Group.Path, Policies = policies, ManagedPolicyArns = arns },
      attributes = { Arn = r.Group.Arn },
    }
  end,
}
