-- AWS::IAM::UserToGroupAddition: puts users into a group, against the
-- simulated IAM.
--
-- Update behaviours are AWS's ("Update requires" in the resource reference,
-- aws-resource-iam-usertogroupaddition): GroupName and Users: No
-- interruption. Ref is a generated ID, "<stack>-<logical>-<12 random>" (the
-- reference only says "the resource name"; the shape is
-- sim.cloudformation_names' rule, not checked against AWS).
-- Deleting takes exactly the listed users out again; a user or group gone
-- already is fine.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")
local pol = require("lib.iam_policies")

local MAX_ID = 128

local function remove(iam, group, users)
  for _, u in ipairs(users or {}) do
    pol.quietly(iam, "RemoveUserFromGroup", { GroupName = group, UserName = u })
  end
end

return P.define {
  type = "AWS::IAM::UserToGroupAddition",
  properties = {
    P.string "GroupName" { required = true, update = "none" },
    P.list(P.string) "Users" { required = true, update = "none" },
  },

  create = function(ctx, props)
    local iam = ctx.world.iam
    local done = {}
    local ok, err = pcall(function()
      for _, u in ipairs(props.Users) do
        iam.AddUserToGroup { GroupName = props.GroupName, UserName = u }
        done[#done + 1] = u
      end
    end)
    if not ok then
      remove(iam, props.GroupName, done)
      error(err, 0)
    end
    return { id = names.physical(ctx.stack_name, ctx.logical_id, MAX_ID) }
  end,

  update = function(ctx, id, new, old)
    local iam = ctx.world.iam
    local keep = {}
    if new.GroupName:lower() == old.GroupName:lower() then
      for _, u in ipairs(new.Users) do keep[u:lower()] = true end
    end
    local drop = {}
    for _, u in ipairs(old.Users or {}) do
      if not keep[u:lower()] then drop[#drop + 1] = u end
    end
    remove(iam, old.GroupName, drop)
    -- Adding a member again changes nothing.
    for _, u in ipairs(new.Users) do iam.AddUserToGroup { GroupName = new.GroupName, UserName = u } end
  end,

  delete = function(ctx, id, props)
    remove(ctx.world.iam, props.GroupName, props.Users)
  end,

  read = function(ctx, id, props)
    if not props then return nil end
    local ok, r = pcall(ctx.world.iam.GetGroup, { GroupName = props.GroupName })
    if not ok then
      if pol.gone(r) then return nil end
      error(r, 0)
    end
    local members, users = {}, {}
    for _, u in ipairs(r.Users) do members[u.UserName:lower()] = true end
    for _, u in ipairs(props.Users or {}) do
      if members[u:lower()] then users[#users + 1] = u end
    end
    if #users == 0 then return nil end
    return { properties = { GroupName = props.GroupName, Users = users } }
  end,
}
