-- AWS::IAM::InstanceProfile against the simulated IAM.
--
-- Update behaviours (aws-resource-iam-instanceprofile.md in
-- awsdocs/aws-cloudformation-user-guide; createOnlyProperties
-- InstanceProfileName and Path in the registry schema):
--   InstanceProfileName, Path: Replacement; Roles: No interruption.
-- Ref is the profile's name; Fn::GetAtt gives Arn. An instance profile holds
-- one role: a second one fails with IAM's quota message. Without
-- InstanceProfileName the name is "<stack>-<logical>-<12 random>" within
-- IAM's 128 characters.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local iam_client = require("aws.iam.lib.client")

local MAX_NAME = 128

local function gone(err) return type(err) == "table" and err.code == "NoSuchEntity" end

local function remove_role(iam, profile, role)
  local ok, err = pcall(iam.RemoveRoleFromInstanceProfile, { InstanceProfileName = profile, RoleName = role })
  if not ok and not gone(err) then error(err, 0) end
end

-- Take the roles out, then delete the profile.
local function delete_profile(iam, name)
  local ok, err = pcall(function()
    for _, r in ipairs(iam.GetInstanceProfile { InstanceProfileName = name }.InstanceProfile.Roles) do
      remove_role(iam, name, r.RoleName)
    end
    iam.DeleteInstanceProfile { InstanceProfileName = name }
  end)
  if not ok and not gone(err) then error(err, 0) end
end

return P.define {
  type = "AWS::IAM::InstanceProfile",
  properties = {
    P.string "InstanceProfileName" { update = "replace" },
    P.string "Path" { update = "replace" },
    P.list(P.string) "Roles" { required = true, update = "none" },
  },
  attributes = { "Arn" },

  create = function(ctx, props)
    local iam = iam_client(ctx)
    local name = props.InstanceProfileName or names.physical(ctx.stack_name, ctx.logical_id, MAX_NAME)
    local profile = iam.CreateInstanceProfile { InstanceProfileName = name, Path = props.Path }.InstanceProfile
    local ok, err = pcall(function()
      for _, role in ipairs(props.Roles) do
        iam.AddRoleToInstanceProfile { InstanceProfileName = name, RoleName = role }
      end
    end)
    if not ok then
      delete_profile(iam, name)
      error(err, 0)
    end
    return { id = name, attributes = { Arn = profile.Arn } }
  end,

  update = function(ctx, id, new, old)
    local iam = ctx.world.iam
    local want, had = {}, {}
    for _, r in ipairs(new.Roles) do want[r:lower()] = true end
    for _, r in ipairs(old.Roles or {}) do had[r:lower()] = true end
    -- Out first: the profile has room for one role only.
    for _, r in ipairs(old.Roles or {}) do
      if not want[r:lower()] then remove_role(iam, id, r) end
    end
    for _, r in ipairs(new.Roles) do
      if not had[r:lower()] then iam.AddRoleToInstanceProfile { InstanceProfileName = id, RoleName = r } end
    end
  end,

  delete = function(ctx, id)
    delete_profile(ctx.world.iam, id)
  end,

  read = function(ctx, id)
    local ok, r = pcall(ctx.world.iam.GetInstanceProfile, { InstanceProfileName = id })
    if not ok then
      if gone(r) then return nil end
      error(r, 0)
    end
    local ip = r.InstanceProfile
    local roles = {}
    for _, role in ipairs(ip.Roles) do roles[#roles + 1] = role.RoleName end
    return {
      properties = { InstanceProfileName = ip.InstanceProfileName, Path = ip.Path, Roles = roles },
      attributes = { Arn = ip.Arn },
    }
  end,
}
