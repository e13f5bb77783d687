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
-- within IAM's 128 characters. Roles, Users and Groups are attached with
-- Attach{Role,User,Group}Policy; delete detaches it from every principal,
-- including ones attached outside this resource.

local P = require("moonstack.provider")
local iam_client = require("aws.iam.lib.client")
local names = require("sim.cloudformation_names")

local MAX_NAME = 128

local function gone(err) return type(err) == "table" and err.code == "NoSuchEntity" end

-- The three kinds of principal: property, IAM action stem, and the field
-- ListEntitiesForPolicy reports them in.
local TARGETS = {
  { prop = "Roles", kind = "Role", listed = "PolicyRoles" },
  { prop = "Users", kind = "User", listed = "PolicyUsers" },
  { prop = "Groups", kind = "Group", listed = "PolicyGroups" },
}

local function attributes(iam, arn)
  local p = iam.GetPolicy { PolicyArn = arn }.Policy
  return {
    PolicyArn = p.Arn, PolicyId = p.PolicyId, DefaultVersionId = p.DefaultVersionId,
    AttachmentCount = p.AttachmentCount, PermissionsBoundaryUsageCount = p.PermissionsBoundaryUsageCount,
    IsAttachable = p.IsAttachable, CreateDate = p.CreateDate, UpdateDate = p.UpdateDate,
  }
end

local function detach(iam, kind, who, arn)
  local ok, err = pcall(iam["Detach" .. kind .. "Policy"], { [kind .. "Name"] = who, PolicyArn = arn })
  if not ok and not gone(err) then error(err, 0) end
end

local function attach(iam, kind, who, arn)
  iam["Attach" .. kind .. "Policy"] { [kind .. "Name"] = who, PolicyArn = arn }
end

-- Detach from every principal, drop the non-default versions, delete.
local function delete_policy(iam, arn)
  local ok, err = pcall(function()
    local entities = iam.ListEntitiesForPolicy { PolicyArn = arn }
    for _, t in ipairs(TARGETS) do
      for _, e in ipairs(entities[t.listed]) do detach(iam, t.kind, e[t.kind .. "Name"], arn) end
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
    local iam = iam_client(ctx)
    local name = props.ManagedPolicyName or names.physical(ctx.stack_name, ctx.logical_id, MAX_NAME)
    local arn = iam.CreatePolicy {
      PolicyName = name, Path = props.Path, PolicyDocument = props.PolicyDocument, Description = props.Description,
    }.Policy.Arn
    local ok, err = pcall(function()
      for _, t in ipairs(TARGETS) do
        for _, who in ipairs(props[t.prop] or {}) do attach(iam, t.kind, who, arn) end
      end
    end)
    if not ok then
      delete_policy(iam, arn)
      error(err, 0)
    end
    return { id = arn, attributes = attributes(iam, arn) }
  end,

  update = function(ctx, id, new, old, changed)
    local iam = iam_client(ctx)
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
      else
        for _, t in ipairs(TARGETS) do
          if prop == t.prop then
            local want, had = {}, {}
            for _, w in ipairs(new[t.prop] or {}) do want[w:lower()] = true end
            for _, w in ipairs(old[t.prop] or {}) do had[w:lower()] = true end
            for _, w in ipairs(old[t.prop] or {}) do
              if not want[w:lower()] then detach(iam, t.kind, w, id) end
            end
            for _, w in ipairs(new[t.prop] or {}) do
              if not had[w:lower()] then attach(iam, t.kind, w, id) end
            end
          end
        end
      end
    end
    return { attributes = attributes(iam, id) }
  end,

  delete = function(ctx, id)
    delete_policy(ctx.world.iam, id)
  end,

  read = function(ctx, id, props)
    local iam = iam_client(ctx)
    local ok, r = pcall(iam.GetPolicy, { PolicyArn = id })
    if not ok then
      if gone(r) then return nil end
      error(r, 0)
    end
    local p = r.Policy
    local doc = iam.GetPolicyVersion { PolicyArn = id, VersionId = p.DefaultVersionId }.PolicyVersion.Document
    -- The principals as the template lists them, then any attached elsewhere.
    local entities = iam.ListEntitiesForPolicy { PolicyArn = id }
    local found = {}
    for _, t in ipairs(TARGETS) do
      local attached, out = {}, {}
      for _, e in ipairs(entities[t.listed]) do
        local n = e[t.kind .. "Name"]
        attached[n:lower()] = n
      end
      for _, w in ipairs(props and props[t.prop] or {}) do
        if attached[w:lower()] then out[#out + 1] = w; attached[w:lower()] = nil end
      end
      for _, e in ipairs(entities[t.listed]) do
        local n = e[t.kind .. "Name"]
        if attached[n:lower()] then out[#out + 1] = n end
      end
      found[t.prop] = #out > 0 and out or nil
    end
    return {
      properties = {
        ManagedPolicyName = p.PolicyName, Path = p.Path, Description = p.Description,
        PolicyDocument = doc, Roles = found.Roles, Users = found.Users, Groups = found.Groups,
      },
      attributes = attributes(iam, id),
    }
  end,
}
