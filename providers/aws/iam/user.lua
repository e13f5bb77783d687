-- AWS::IAM::User against the simulated IAM.
--
-- Update behaviours are AWS's ("Update requires" in the resource reference,
-- aws-resource-iam-user): UserName: Replacement; Groups, LoginProfile,
-- ManagedPolicyArns, Path, PermissionsBoundary, Policies, Tags: No
-- interruption (Path through UpdateUser's NewPath).
-- Ref is the user name; Fn::GetAtt gives Arn. Without UserName the name is
-- "<stack>-<logical>-<12 random>" within IAM's 64 characters, as for roles.
-- LoginProfile is { Password, PasswordResetRequired }.
-- Deleting the user first removes what CloudFormation's handler removes: its
-- login profile, group memberships, inline and attached policies; an access
-- key made outside the stack still stops the delete, with IAM's message.
-- Tags: the template's, then the stack's tags, as for roles (role.lua).

local P = require("moonstack.provider")
local iam_client = require("aws.iam.lib.client")
local tags = require("moonstack.tags")
local names = require("sim.cloudformation_names")
local pol = require("lib.iam_policies")

local MAX_NAME = 64

local function check_profile(ctx, lp)
  if lp ~= nil and lp.Password == nil then
    P.fail("Properties validation failed for resource " .. tostring(ctx.logical_id)
      .. " with message: #/LoginProfile: required key [Password] not found", "InvalidRequest")
  end
end

local function delete_user(iam, name)
  local ok, err = pcall(function()
    pol.quietly(iam, "DeleteLoginProfile", { UserName = name })
    for _, g in ipairs(iam.ListGroupsForUser { UserName = name }.Groups) do
      pol.quietly(iam, "RemoveUserFromGroup", { GroupName = g.GroupName, UserName = name })
    end
    pol.strip(iam, "User", name)
    iam.DeleteUser { UserName = name }
  end)
  if not ok and not pol.gone(err) then error(err, 0) end
end

local function set_of(list)
  local out = {}
  for _, v in ipairs(list or {}) do out[v:lower()] = true end
  return out
end

local function sync_groups(iam, name, old, new)
  local want, had = set_of(new), set_of(old)
  for _, g in ipairs(old or {}) do
    if not want[g:lower()] then pol.quietly(iam, "RemoveUserFromGroup", { GroupName = g, UserName = name }) end
  end
  for _, g in ipairs(new or {}) do
    if not had[g:lower()] then iam.AddUserToGroup { GroupName = g, UserName = name } end
  end
end

return P.define {
  type = "AWS::IAM::User",
  properties = {
    P.list(P.string) "Groups" { update = "none" },
    P.map "LoginProfile" { update = "none" },
    P.list(P.string) "ManagedPolicyArns" { update = "none" },
    P.string "Path" { update = "none" },
    P.string "PermissionsBoundary" { update = "none" },
    P.list(P.map) "Policies" { update = "none" },
    P.tags "Tags" { update = "none" },
    P.string "UserName" { update = "replace" },
  },
  attributes = { "Arn" },

  create = function(ctx, props)
    local iam = iam_client(ctx)
    pol.check(ctx, props.Policies, "user")
    check_profile(ctx, props.LoginProfile)
    local name = props.UserName or names.physical(ctx.stack_name, ctx.logical_id, MAX_NAME)
    local user = iam.CreateUser {
      UserName = name, Path = props.Path, PermissionsBoundary = props.PermissionsBoundary, Tags = tags.with_stack_tags(ctx, props.Tags),
    }.User
    -- Anything that cannot be done fails the create: take the half-made
    -- user away again so nothing is left behind.
    local ok, err = pcall(function()
      pol.sync_inline(iam, "User", name, nil, props.Policies)
      pol.sync_managed(iam, "User", name, nil, props.ManagedPolicyArns)
      sync_groups(iam, name, nil, props.Groups)
      local lp = props.LoginProfile
      if lp then
        iam.CreateLoginProfile { UserName = name, Password = lp.Password, PasswordResetRequired = lp.PasswordResetRequired }
      end
    end)
    if not ok then
      delete_user(iam, name)
      error(err, 0)
    end
    return { id = name, attributes = { Arn = user.Arn } }
  end,

  update = function(ctx, id, new, old, changed)
    local iam = iam_client(ctx)
    for _, prop in ipairs(changed) do
      if prop == "Policies" then
        pol.check(ctx, new.Policies, "user")
        pol.sync_inline(iam, "User", id, old.Policies, new.Policies)
      elseif prop == "ManagedPolicyArns" then
        pol.sync_managed(iam, "User", id, old.ManagedPolicyArns, new.ManagedPolicyArns)
      elseif prop == "Groups" then
        sync_groups(iam, id, old.Groups, new.Groups)
      elseif prop == "Path" then
        iam.UpdateUser { UserName = id, NewPath = new.Path or "/" }
      elseif prop == "PermissionsBoundary" then
        if new.PermissionsBoundary then
          iam.PutUserPermissionsBoundary { UserName = id, PermissionsBoundary = new.PermissionsBoundary }
        else
          iam.DeleteUserPermissionsBoundary { UserName = id }
        end
      elseif prop == "LoginProfile" then
        check_profile(ctx, new.LoginProfile)
        local lp = new.LoginProfile
        if not lp then
          pol.quietly(iam, "DeleteLoginProfile", { UserName = id })
        elseif not old.LoginProfile then
          iam.CreateLoginProfile { UserName = id, Password = lp.Password, PasswordResetRequired = lp.PasswordResetRequired }
        else
          iam.UpdateLoginProfile { UserName = id, Password = lp.Password, PasswordResetRequired = lp.PasswordResetRequired or false }
        end
      elseif prop == "Tags" then
        local set, remove = tags.update_diff(ctx, old.Tags, new.Tags, tags.with_stack_tags)
        if #remove > 0 then iam.UntagUser { UserName = id, TagKeys = remove } end
        if next(set) ~= nil then iam.TagUser { UserName = id, Tags = tags.from_map(set) } end
      end
    end
    return { attributes = { Arn = iam.GetUser { UserName = id }.User.Arn } }
  end,

  delete = function(ctx, id)
    delete_user(ctx.world.iam, id)
  end,

  read = function(ctx, id, props)
    props = props or {}
    local iam = iam_client(ctx)
    local ok, r = pcall(iam.GetUser, { UserName = id })
    if not ok then
      if pol.gone(r) then return nil end
      error(r, 0)
    end
    local user = r.User
    local policies, arns = pol.read(iam, "User", id, props)
    local groups = {}
    for i, g in ipairs(iam.ListGroupsForUser { UserName = id }.Groups) do groups[i] = g.GroupName end
    -- The password cannot be read back: the template's stands for it.
    local lp
    local okp, p = pcall(iam.GetLoginProfile, { UserName = id })
    if okp then
      local given = props.LoginProfile or {}
      local reset = p.LoginProfile.PasswordResetRequired
      -- false is the default: reported only when the template says it.
      if reset == false and given.PasswordResetRequired == nil then reset = nil end
      lp = { Password = given.Password, PasswordResetRequired = reset }
    elseif not pol.gone(p) then
      error(p, 0)
    end
    return {
      properties = {
        UserName = user.UserName, Path = user.Path,
        PermissionsBoundary = user.PermissionsBoundary and user.PermissionsBoundary.PermissionsBoundaryArn,
        Policies = policies, ManagedPolicyArns = arns,
        Groups = #groups > 0 and pol.order_like(groups, props.Groups) or nil,
        LoginProfile = lp,
        Tags = user.Tags and pol.order_like(user.Tags, (function()
          local keys = {}
          for i, t in ipairs(props.Tags or {}) do keys[i] = t.Key end
          return keys
        end)(), "Key"),
      },
      attributes = { Arn = user.Arn },
    }
  end,
}
