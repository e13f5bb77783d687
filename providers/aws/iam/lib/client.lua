-- The simulated IAM as CloudFormation's IAM handlers see it: the same
-- actions, but an error IAM answers for a policy document reaches the
-- resource's status reason as those handlers report it, IAM's message then
-- the SDK's details (an AWS::IAM::Role's event, aws-samples/aws-health-aware#1):
--   Policy statement must contain resources. (Service: AmazonIdentityManagement;
--   Status Code: 400; Error Code: MalformedPolicyDocument; Request ID: <uuid>; Proxy: null)
-- A managed policy that does not exist (or a permissions boundary) is
-- reported the same way, with its 404 (AWS::IAM::Role events in
-- aws/aws-cdk#19830 and #14988):
--   Policy arn:aws:iam::aws:policy/AWSLambdaBasicExecutionRole does not exist or is not
--   attachable. (Service: AmazonIdentityManagement; Status Code: 404; Error Code:
--   NoSuchEntity; Request ID: <uuid>; Proxy: null)
-- The request ID is drawn from the world's ID sequence (deterministic).
-- A name that is taken (EntityAlreadyExists) is the registry handlers'
-- AlreadyExists, as an AWS::IAM::Role's event reads today: "Resource of type
-- 'AWS::IAM::Role' with identifier 'LambdaExecutionRole' already exists."
-- (the role's, user's, group's and instance profile's primary identifier is
-- that name; IAM's own "Role with name X already exists." is not shown).
local P = require("moonstack.provider")
local world = require("moonstack.world")
local props_lib = require("lib.service_props")

-- The creating actions whose taken name is reported, with the type and the field naming it.
local CREATES = {
  CreateRole = { "AWS::IAM::Role", "RoleName" },
  CreateUser = { "AWS::IAM::User", "UserName" },
  CreateGroup = { "AWS::IAM::Group", "GroupName" },
  CreateInstanceProfile = { "AWS::IAM::InstanceProfile", "InstanceProfileName" },
}

-- The actions that name a managed policy to attach: IAM's NoSuchEntity from
-- them is a policy (or boundary) that does not exist.
local ATTACHES = {
  AttachRolePolicy = true, AttachUserPolicy = true, AttachGroupPolicy = true,
  PutRolePermissionsBoundary = true, PutUserPermissionsBoundary = true, CreateRole = true, CreateUser = true,
}

local function reported(err, status)
  local sim = require("sim")
  local request = world.atomic(function() return sim.new_id("uuid") end)
  return P.error_message(err) .. " (Service: AmazonIdentityManagement; Status Code: " .. status .. "; Error Code: "
    .. err.code .. "; Request ID: " .. request .. "; Proxy: null)"
end

---`ctx.world.iam`, its MalformedPolicyDocument, missing-policy and taken-name errors reported as the handlers do.
return function(ctx)
  local iam = ctx.world.iam
  return setmetatable({}, { __index = function(_, action)
    local fn = iam[action]
    return function(req)
      local ok, r = pcall(fn, req)
      if ok then return r end
      if type(r) == "table" and r.code == "MalformedPolicyDocument" then P.fail(reported(r, 400), "InvalidRequest") end
      if type(r) == "table" and r.code == "NoSuchEntity" and ATTACHES[action] then P.fail(reported(r, 404), "NotFound") end
      local create = CREATES[action]
      if create and type(r) == "table" and r.code == "EntityAlreadyExists" then
        props_lib.already_exists(create[1], req[create[2]])
      end
      error(r, 0)
    end
  end })
end
