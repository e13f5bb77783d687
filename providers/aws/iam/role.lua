-- AWS::IAM::Role against the simulated IAM.
--
-- Update behaviours are AWS's ("Update requires" in the resource reference,
-- awsdocs/aws-cloudformation-user-guide doc_source/aws-resource-iam-role.md;
-- the registry schema's createOnlyProperties are Path and RoleName):
--   RoleName, Path: Replacement; every other property: No interruption.
-- Ref is the role name; Fn::GetAtt gives Arn and RoleId.
-- Without RoleName, CloudFormation names the role "<stack>-<logical>-<12
-- random>" within IAM's 64 characters (sim.cloudformation_names).
-- Two Policies entries with one PolicyName fail the create / update (the
-- message is moonstack's; IAM would silently keep the last).
-- Deleting the role removes its inline policies and detaches its managed
-- policies first (as CloudFormation's handler does), so only an instance
-- profile still holding the role stops the delete, with IAM's message.
-- Tags: the template's, then the stack's tags (tags.with_stack_tags; an
-- UpdateStack that changes them re-tags the role). No aws:cloudformation:*
-- tags: IAM refuses the aws: prefix, CloudFormation's own tags included.

local P = require("moonstack.provider")
local iam_client = require("aws.iam.lib.client")
local tags = require("moonstack.tags")
local names = require("sim.cloudformation_names")

local MAX_NAME = 64

-- Policies entries: { PolicyName, PolicyDocument } each.
local function check_policies(ctx, list)
  local seen = {}
  for i, pol in ipairs(list or {}) do
    for _, k in ipairs({ "PolicyDocument", "PolicyName" }) do
      if pol[k] == nil then
        P.fail("Properties validation failed for resource " .. tostring(ctx.logical_id)
          .. " with message: #/Policies/" .. (i - 1) .. ": required key [" .. k .. "] not found", "InvalidRequest")
      end
    end
    if seen[pol.PolicyName] then
      P.fail("Policy names must be unique within a role: " .. tostring(pol.PolicyName) .. " is given twice", "InvalidRequest")
    end
    seen[pol.PolicyName] = true
  end
end

local function by_name(list)
  local out = {}
  for _, pol in ipairs(list or {}) do out[pol.PolicyName] = pol.PolicyDocument end
  return out
end

local function set_of(list)
  local out = {}
  for _, v in ipairs(list or {}) do out[v] = true end
  return out
end

-- `list` (items with a `field`) in the order `given` names them, then the
-- rest as they come: what read reports lines up with the template.
local function order_like(list, given, field)
  local rank = {}
  for i, g in ipairs(given or {}) do rank[g[field]] = rank[g[field]] or i end
  local out = {}
  for i, item in ipairs(list or {}) do out[i] = { item = item, i = i } end
  table.sort(out, function(a, b)
    local ra, rb = rank[a.item[field]] or math.huge, rank[b.item[field]] or math.huge
    if ra ~= rb then return ra < rb end
    return a.i < b.i
  end)
  for i, x in ipairs(out) do out[i] = x.item end
  return out
end

-- NoSuchEntity from the sim: the thing is gone already.
local function gone(err) return type(err) == "table" and err.code == "NoSuchEntity" end

-- Removes the role's inline and attached policies, then the role.
local function delete_role(iam, name)
  local ok, err = pcall(function()
    for _, pname in ipairs(iam.ListRolePolicies { RoleName = name }.PolicyNames) do
      iam.DeleteRolePolicy { RoleName = name, PolicyName = pname }
    end
    for _, a in ipairs(iam.ListAttachedRolePolicies { RoleName = name }.AttachedPolicies) do
      iam.DetachRolePolicy { RoleName = name, PolicyArn = a.PolicyArn }
    end
    iam.DeleteRole { RoleName = name }
  end)
  if not ok and not gone(err) then error(err, 0) end
end

return P.define {
  type = "AWS::IAM::Role",
  properties = {
    P.json "AssumeRolePolicyDocument" { required = true, update = "none" },
    P.string "Description" { update = "none" },
    P.list(P.string) "ManagedPolicyArns" { update = "none" },
    P.integer "MaxSessionDuration" { update = "none" },
    P.string "Path" { update = "replace" },
    P.string "PermissionsBoundary" { update = "none" },
    P.list(P.map) "Policies" { update = "none" },
    P.string "RoleName" { update = "replace" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "Arn", "RoleId" },

  create = function(ctx, props)
    local iam = iam_client(ctx)
    check_policies(ctx, props.Policies)
    local name = props.RoleName or names.physical(ctx.stack_name, ctx.logical_id, MAX_NAME)
    local role = iam.CreateRole {
      RoleName = name, Path = props.Path, AssumeRolePolicyDocument = props.AssumeRolePolicyDocument,
      Description = props.Description, MaxSessionDuration = props.MaxSessionDuration,
      PermissionsBoundary = props.PermissionsBoundary, Tags = tags.with_stack_tags(ctx, props.Tags),
    }.Role
    -- A policy that cannot be put or attached fails the create: take the
    -- half-made role away again so nothing is left behind.
    local ok, err = pcall(function()
      for _, pol in ipairs(props.Policies or {}) do
        iam.PutRolePolicy { RoleName = name, PolicyName = pol.PolicyName, PolicyDocument = pol.PolicyDocument }
      end
      for _, arn in ipairs(props.ManagedPolicyArns or {}) do
        iam.AttachRolePolicy { RoleName = name, PolicyArn = arn }
      end
    end)
    if not ok then
      delete_role(iam, name)
      error(err, 0)
    end
    return { id = name, attributes = { Arn = role.Arn, RoleId = role.RoleId } }
  end,

  update = function(ctx, id, new, old, changed)
    local iam = iam_client(ctx)
    for _, prop in ipairs(changed) do
      if prop == "AssumeRolePolicyDocument" then
        iam.UpdateAssumeRolePolicy { RoleName = id, PolicyDocument = new.AssumeRolePolicyDocument }
      elseif prop == "Description" then
        iam.UpdateRole { RoleName = id, Description = new.Description or "" }
      elseif prop == "MaxSessionDuration" then
        iam.UpdateRole { RoleName = id, MaxSessionDuration = new.MaxSessionDuration or 3600 }
      elseif prop == "PermissionsBoundary" then
        if new.PermissionsBoundary then
          iam.PutRolePermissionsBoundary { RoleName = id, PermissionsBoundary = new.PermissionsBoundary }
        else
          iam.DeleteRolePermissionsBoundary { RoleName = id }
        end
      elseif prop == "Policies" then
        check_policies(ctx, new.Policies)
        local keep = by_name(new.Policies)
        for pname in pairs(by_name(old.Policies)) do
          if keep[pname] == nil then
            local ok, err = pcall(iam.DeleteRolePolicy, { RoleName = id, PolicyName = pname })
            if not ok and not gone(err) then error(err, 0) end
          end
        end
        local before = by_name(old.Policies)
        for _, pol in ipairs(new.Policies or {}) do
          if not P.deep_equal(before[pol.PolicyName], pol.PolicyDocument) then
            iam.PutRolePolicy { RoleName = id, PolicyName = pol.PolicyName, PolicyDocument = pol.PolicyDocument }
          end
        end
      elseif prop == "ManagedPolicyArns" then
        local want, had = set_of(new.ManagedPolicyArns), set_of(old.ManagedPolicyArns)
        for _, arn in ipairs(old.ManagedPolicyArns or {}) do
          if not want[arn] then
            local ok, err = pcall(iam.DetachRolePolicy, { RoleName = id, PolicyArn = arn })
            if not ok and not gone(err) then error(err, 0) end
          end
        end
        for _, arn in ipairs(new.ManagedPolicyArns or {}) do
          if not had[arn] then iam.AttachRolePolicy { RoleName = id, PolicyArn = arn } end
        end
      elseif prop == "Tags" then
        local set, remove = tags.update_diff(ctx, old.Tags, new.Tags, tags.with_stack_tags)
        if #remove > 0 then iam.UntagRole { RoleName = id, TagKeys = remove } end
        if next(set) ~= nil then iam.TagRole { RoleName = id, Tags = tags.from_map(set) } end
      end
    end
  end,

  delete = function(ctx, id)
    delete_role(ctx.world.iam, id)
  end,

  read = function(ctx, id, props)
    props = props or {}
    local iam = iam_client(ctx)
    local ok, r = pcall(iam.GetRole, { RoleName = id })
    if not ok then
      if gone(r) then return nil end
      error(r, 0)
    end
    local role = r.Role
    local policies = {}
    for _, pname in ipairs(iam.ListRolePolicies { RoleName = id }.PolicyNames) do
      policies[#policies + 1] = {
        PolicyName = pname,
        PolicyDocument = iam.GetRolePolicy { RoleName = id, PolicyName = pname }.PolicyDocument,
      }
    end
    local given = {}
    for i, a in ipairs(props.ManagedPolicyArns or {}) do given[i] = { PolicyArn = a } end
    local arns = {}
    for i, a in ipairs(order_like(iam.ListAttachedRolePolicies { RoleName = id }.AttachedPolicies, given, "PolicyArn")) do
      arns[i] = a.PolicyArn
    end
    return {
      properties = {
        RoleName = role.RoleName, Path = role.Path,
        AssumeRolePolicyDocument = role.AssumeRolePolicyDocument, Description = role.Description,
        MaxSessionDuration = role.MaxSessionDuration,
        PermissionsBoundary = role.PermissionsBoundary and role.PermissionsBoundary.PermissionsBoundaryArn,
        Policies = #policies > 0 and order_like(policies, props.Policies, "PolicyName") or nil,
        ManagedPolicyArns = #arns > 0 and arns or nil,
        Tags = role.Tags and order_like(role.Tags, props.Tags, "Key"),
      },
      attributes = { Arn = role.Arn, RoleId = role.RoleId },
    }
  end,
}
