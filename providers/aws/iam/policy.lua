-- AWS::IAM::Policy: an inline policy put on roles (and, on AWS, users and
-- groups), against the simulated IAM.
--
-- Every property updates with No interruption (aws-resource-iam-policy.md in
-- awsdocs/aws-cloudformation-user-guide). PolicyDocument and PolicyName are
-- required; at least one of Groups, Roles, Users must be given. The
-- simulated IAM has no users or groups: a policy naming some fails with a
-- message saying so.
-- Not AWS's verified wording: "At least one of [Groups, Roles, Users] must
-- be specified." (no Groups, Roles or Users).
-- Ref is a generated ID (the registry's Id): CloudFormation's physical-name
-- rule with a 24-character budget, "<stack5>-<logic5>-<12 random>" — the
-- shape of the IDs this type shows in stack events (not found verbatim in a
-- public source; the rule itself is sim.cloudformation_names').

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

local ID_LENGTH = 24

local function gone(err) return type(err) == "table" and err.code == "NoSuchEntity" end

local function check_targets(ctx, props)
  local users, groups = props.Users or {}, props.Groups or {}
  if #users > 0 or #groups > 0 then
    P.fail("IAM users and groups are not simulated by moonstack: AWS::IAM::Policy can only be put on Roles here"
      .. " (resource " .. tostring(ctx.logical_id) .. ")", "InvalidRequest")
  end
  if #(props.Roles or {}) == 0 then
    P.fail("At least one of [Groups, Roles, Users] must be specified.", "InvalidRequest")
  end
end

-- Remove the inline policy `name` from `roles`; a role or policy already
-- gone is fine.
local function remove_from(iam, roles, name)
  for _, role in ipairs(roles or {}) do
    local ok, err = pcall(iam.DeleteRolePolicy, { RoleName = role, PolicyName = name })
    if not ok and not gone(err) then error(err, 0) end
  end
end

local function put_on(iam, roles, name, doc)
  for _, role in ipairs(roles or {}) do
    iam.PutRolePolicy { RoleName = role, PolicyName = name, PolicyDocument = doc }
  end
end

return P.define {
  type = "AWS::IAM::Policy",
  properties = {
    P.list(P.string) "Groups" { update = "none" },
    P.json "PolicyDocument" { required = true, update = "none" },
    P.string "PolicyName" { required = true, update = "none" },
    P.list(P.string) "Roles" { update = "none" },
    P.list(P.string) "Users" { update = "none" },
  },
  attributes = { "Id" },

  create = function(ctx, props)
    check_targets(ctx, props)
    local iam = ctx.world.iam
    local done = {}
    local ok, err = pcall(function()
      for _, role in ipairs(props.Roles) do
        iam.PutRolePolicy { RoleName = role, PolicyName = props.PolicyName, PolicyDocument = props.PolicyDocument }
        done[#done + 1] = role
      end
    end)
    if not ok then
      remove_from(iam, done, props.PolicyName)
      error(err, 0)
    end
    local id = names.physical(ctx.stack_name, ctx.logical_id, ID_LENGTH)
    return { id = id, attributes = { Id = id } }
  end,

  update = function(ctx, id, new, old)
    check_targets(ctx, new)
    local iam = ctx.world.iam
    local keep = {}
    if new.PolicyName == old.PolicyName then
      for _, r in ipairs(new.Roles) do keep[r:lower()] = true end
    end
    local drop = {}
    for _, r in ipairs(old.Roles or {}) do
      if not keep[r:lower()] then drop[#drop + 1] = r end
    end
    remove_from(iam, drop, old.PolicyName)
    -- PutRolePolicy replaces a document of the same name.
    put_on(iam, new.Roles, new.PolicyName, new.PolicyDocument)
  end,

  delete = function(ctx, id, props)
    remove_from(ctx.world.iam, props.Roles, props.PolicyName)
  end,

  read = function(ctx, id, props)
    props = props or {}
    local iam = ctx.world.iam
    local roles, doc = {}, nil
    for _, role in ipairs(props.Roles or {}) do
      local ok, r = pcall(iam.GetRolePolicy, { RoleName = role, PolicyName = props.PolicyName })
      if ok then
        roles[#roles + 1] = role
        doc = doc or r.PolicyDocument
      elseif not gone(r) then
        error(r, 0)
      end
    end
    if #roles == 0 then return nil end
    return {
      properties = { PolicyName = props.PolicyName, PolicyDocument = doc, Roles = roles },
      attributes = { Id = id },
    }
  end,
}
