-- AWS::IAM::ManagedPolicy against the simulated IAM.
--
-- Update behaviours (aws-resource-iam-managedpolicy.md in
-- awsdocs/aws-cloudformation-user-guide; the registry schema's
-- createOnlyProperties are ManagedPolicyName, Description and Path):
--   ManagedPolicyName, Description, Path: Replacement;
--   PolicyDocument, Roles, Groups, Users: No interruption.
-- Ref is the policy's ARN. Attributes are the registry's read-only ones.
-- A new document becomes a new default policy version (CreatePolicyVersion);
-- at IAM's limit of five versions the oldest non-default one goes first.
-- Without ManagedPolicyName the name is "<stack>-<logical>-<12 random>"
-- within IAM's 128 characters. Users and Groups are not simulated.

local P = require("moonstack.provider")
local names = require("sim.cloudformation_names")

local MAX_NAME = 128

local function gone(err) return type(err) == "table" and err.code == "NoSuchEntity" end

local function check_targets(ctx, props)
  if #(props.Users or {}) > 0 or #(props.Groups or {}) > 0 then
    P.fail("IAM users and groups are not simulated by moonstack: AWS::IAM::ManagedPolicy can only be attached to Roles here"
      .. " (resource " .. tostring(ctx.logical_id) .. ")", "InvalidRequest")
  end
end

local function attributes(iam, arn)
  local p = iam.GetPolicy { PolicyArn = arn }.Policy
  return {
    PolicyArn = p.Arn, PolicyId = p.PolicyId, DefaultVersionId = p.DefaultVersionId,
    AttachmentCount = p.AttachmentCount, PermissionsBoundaryUsageCount = p.PermissionsBoundaryUsageCount,
    IsAttachable = p.IsAttachable, CreateDate = p.CreateDate, UpdateDate = p.UpdateDate,
  }
end

local function detach(iam, role, arn)
  local ok, err = pcall(iam.DetachRolePolicy, { RoleName = role, PolicyArn = arn })
  if not ok and not gone(err) then error(err, 0) end
end

-- Detach from every role, drop the non-default versions, delete.
local function delete_policy(iam, arn)
  local ok, err = pcall(function()
    for _, r in ipairs(iam.ListEntitiesForPolicy { PolicyArn = arn }.PolicyRoles) do
      detach(iam, r.RoleName, arn)
    end
    for _, v in ipairs(iam.ListPolicyVersions { PolicyArn = arn }.Versions) do
      if not v.IsDefaultVersion then iam.DeletePolicyVersion { PolicyArn = arn, VersionId = v.VersionId } end
    end
    iam.DeletePolicy { PolicyArn = arn }
  end)
  if not ok and not gone(err) then error(err, 0) end
end

return P.define {
  type = "AWS::IAM::ManagedPolicy",
  properties = {
    P.string "Description" { update = "replace" },
    P.list(P.string) "Groups" { update = "none" },
    P.string "ManagedPolicyName" { update = "replace" },
    P.string "Path" { update = "replace" },
    P.json "PolicyDocument" { required = true, update = "none" },
    P.list(P.string) "Roles" { update = "none" },
    P.list(P.string) "Users" { update = "none" },
  },
  attributes = {
    "PolicyArn", "AttachmentCount", "CreateDate", "DefaultVersionId", "IsAttachable",
    "PermissionsBoundaryUsageCount", "PolicyId", "UpdateDate",
  },

  create = function(ctx, props)
    check_targets(ctx, props)
    local iam = ctx.world.iam
    local name = props.ManagedPolicyName or names.physical(ctx.stack_name, ctx.logical_id, MAX_NAME)
    local arn = iam.CreatePolicy {
      PolicyName = name, Path = props.Path, PolicyDocument = props.PolicyDocument, Description = props.Description,
    }.Policy.Arn
    local ok, err = pcall(function()
      for _, role in ipairs(props.Roles or {}) do iam.AttachRolePolicy { RoleName = role, PolicyArn = arn } end
    end)
    if not ok then
      delete_policy(iam, arn)
      error(err, 0)
    end
    return { id = arn, attributes = attributes(iam, arn) }
  end,

  update = function(ctx, id, new, old, changed)
    check_targets(ctx, new)
    local iam = ctx.world.iam
    for _, prop in ipairs(changed) do
      if prop == "PolicyDocument" then
        local versions = iam.ListPolicyVersions { PolicyArn = id }.Versions
        if #versions >= 5 then
          -- Listed newest first: the last non-default one is the oldest.
          for i = #versions, 1, -1 do
            if not versions[i].IsDefaultVersion then
              iam.DeletePolicyVersion { PolicyArn = id, VersionId = versions[i].VersionId }
              break
            end
          end
        end
        iam.CreatePolicyVersion { PolicyArn = id, PolicyDocument = new.PolicyDocument, SetAsDefault = true }
      elseif prop == "Roles" then
        local want, had = {}, {}
        for _, r in ipairs(new.Roles or {}) do want[r:lower()] = true end
        for _, r in ipairs(old.Roles or {}) do had[r:lower()] = true end
        for _, r in ipairs(old.Roles or {}) do
          if not want[r:lower()] then detach(iam, r, id) end
        end
        for _, r in ipairs(new.Roles or {}) do
          if not had[r:lower()] then iam.AttachRolePolicy { RoleName = r, PolicyArn = id } end
        end
      end
    end
    return { attributes = attributes(iam, id) }
  end,

  delete = function(ctx, id)
    delete_policy(ctx.world.iam, id)
  end,

  read = function(ctx, id, props)
    local iam = ctx.world.iam
    local ok, r = pcall(iam.GetPolicy, { PolicyArn = id })
    if not ok then
      if gone(r) then return nil end
      error(r, 0)
    end
    local p = r.Policy
    local doc = iam.GetPolicyVersion { PolicyArn = id, VersionId = p.DefaultVersionId }.PolicyVersion.Document
    -- The roles as the template lists them, then any attached elsewhere.
    local attached, roles = {}, {}
    for _, e in ipairs(iam.ListEntitiesForPolicy { PolicyArn = id }.PolicyRoles) do
      attached[e.RoleName:lower()] = e.RoleName
    end
    for _, r in ipairs(props and props.Roles or {}) do
      if attached[r:lower()] then roles[#roles + 1] = r; attached[r:lower()] = nil end
    end
    for _, e in ipairs(iam.ListEntitiesForPolicy { PolicyArn = id }.PolicyRoles) do
      if attached[e.RoleName:lower()] then roles[#roles + 1] = e.RoleName end
    end
    return {
      properties = {
        ManagedPolicyName = p.PolicyName, Path = p.Path, Description = p.Description,
        PolicyDocument = doc, Roles = #roles > 0 and roles or nil,
      },
      attributes = attributes(iam, id),
    }
  end,
}
