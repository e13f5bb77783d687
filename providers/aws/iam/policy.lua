-- AWS::IAM::Policy: an inline policy put on roles, users and groups,
-- against the simulated IAM.
--
-- Every property updates with No interruption (aws-resource-iam-policy.md in
-- awsdocs/aws-cloudformation-user-guide). PolicyDocument and PolicyName are
-- required; at least one of Groups, Roles, Users must be given.
-- Not AWS's verified wording: "At least one of [Groups, Roles, Users] must
-- be specified." (no Groups, Roles or Users).
-- Ref is a generated ID (the registry's Id): CloudFormation's physical-name
-- rule with a 24-character budget, "<stack5>-<logic5>-<12 random>" — the
-- shape of the IDs this type shows in stack events (not found verbatim in a
-- public source; the rule itself is sim.cloudformation_names').

local P = require("moonstack.provider")
local iam_client = require("aws.iam.lib.client")
local names = require("sim.cloudformation_names")

local ID_LENGTH = 24

local function gone(err) return type(err) == "table" and err.code == "NoSuchEntity" end

-- The three kinds of principal: template property and IAM action stem.
local TARGETS = {
  { prop = "Roles", kind = "Role" },
  { prop = "Users", kind = "User" },
  { prop = "Groups", kind = "Group" },
}

local function check_targets(props)
  if #(props.Roles or {}) + #(props.Users or {}) + #(props.Groups or {}) == 0 then
    P.fail("At least one of [Groups, Roles, Users] must be specified.", "InvalidRequest")
  end
end

-- Remove the inline policy `name` from the principals of kind `kind`; one
-- already gone (or without it) is fine.
local function remove_from(iam, kind, list, name)
  for _, who in ipairs(list or {}) do
    local ok, err = pcall(iam["Delete" .. kind .. "Policy"], { [kind .. "Name"] = who, PolicyName = name })
    if not ok and not gone(err) then error(err, 0) end
  end
end

local function put_on(iam, kind, who, name, doc)
  iam["Put" .. kind .. "Policy"] { [kind .. "Name"] = who, PolicyName = name, PolicyDocument = doc }
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
    check_targets(props)
    local iam = iam_client(ctx)
    local done = {}
    local ok, err = pcall(function()
      for _, t in ipairs(TARGETS) do
        done[t.kind] = {}
        for _, who in ipairs(props[t.prop] or {}) do
          put_on(iam, t.kind, who, props.PolicyName, props.PolicyDocument)
          table.insert(done[t.kind], who)
        end
      end
    end)
    if not ok then
      for kind, list in pairs(done) do remove_from(iam, kind, list, props.PolicyName) end
      error(err, 0)
    end
    local id = names.physical(ctx.stack_name, ctx.logical_id, ID_LENGTH)
    return { id = id, attributes = { Id = id } }
  end,

  update = function(ctx, id, new, old)
    check_targets(new)
    local iam = iam_client(ctx)
    for _, t in ipairs(TARGETS) do
      local keep = {}
      if new.PolicyName == old.PolicyName then
        for _, who in ipairs(new[t.prop] or {}) do keep[who:lower()] = true end
      end
      local drop = {}
      for _, who in ipairs(old[t.prop] or {}) do
        if not keep[who:lower()] then drop[#drop + 1] = who end
      end
      remove_from(iam, t.kind, drop, old.PolicyName)
    end
    -- Put<kind>Policy replaces a document of the same name.
    for _, t in ipairs(TARGETS) do
      for _, who in ipairs(new[t.prop] or {}) do put_on(iam, t.kind, who, new.PolicyName, new.PolicyDocument) end
    end
  end,

  delete = function(ctx, id, props)
    for _, t in ipairs(TARGETS) do remove_from(ctx.world.iam, t.kind, props[t.prop], props.PolicyName) end
  end,

  read = function(ctx, id, props)
    props = props or {}
    local iam = iam_client(ctx)
    local out, doc, found = { PolicyName = props.PolicyName }, nil, false
    for _, t in ipairs(TARGETS) do
      local have = {}
      for _, who in ipairs(props[t.prop] or {}) do
        local ok, r = pcall(iam["Get" .. t.kind .. "Policy"], { [t.kind .. "Name"] = who, PolicyName = props.PolicyName })
        if ok then
          have[#have + 1] = who
          doc = doc or r.PolicyDocument
        elseif not gone(r) then
          error(r, 0)
        end
      end
      if #have > 0 then out[t.prop], found = have, true end
    end
    if not found then return nil end
    out.PolicyDocument = doc
    return { properties = out, attributes = { Id = id } }
  end,
}
