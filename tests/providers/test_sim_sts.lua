-- The simulated STS: the caller, roles of the simulated IAM assumed, AWS's
-- AccessDenied for a role that does not exist, session credentials.
local H = require("harness")
local T = H.suite("sim sts")

T.case("GetCallerIdentity: the account's root", function()
  local _, sim = fresh()
  local me = sim.client().sts.GetCallerIdentity({})
  H.eq(me.Account, "123456789012")
  H.eq(me.Arn, "arn:aws:iam::123456789012:root")
end)

T.case("AssumeRole: a role of the simulated IAM; a missing role is AccessDenied", function()
  local _, sim = fresh()
  local aws = sim.client()
  local role = aws.iam.CreateRole({ RoleName = "Deployer", AssumeRolePolicyDocument = "{}" }).Role
  local r = aws.sts.AssumeRole({ RoleArn = role.Arn, RoleSessionName = "ci-run" })
  H.eq(r.AssumedRoleUser.Arn, "arn:aws:sts::123456789012:assumed-role/Deployer/ci-run")
  H.eq(r.AssumedRoleUser.AssumedRoleId, role.RoleId .. ":ci-run")
  H.eq(r.Credentials.AccessKeyId:sub(1, 4), "ASIA")
  H.eq(r.Credentials.Expiration ~= nil, true)
  local e = H.raises(function()
    aws.sts.AssumeRole({ RoleArn = "arn:aws:iam::123456789012:role/Nobody", RoleSessionName = "ci" })
  end, "User: arn:aws:iam::123456789012:root is not authorized to perform: sts:AssumeRole on resource: "
    .. "arn:aws:iam::123456789012:role/Nobody")
  H.eq(e.code, "AccessDenied")
  e = H.raises(function() aws.sts.AssumeRole({ RoleArn = role.Arn, RoleSessionName = "ci", DurationSeconds = 60 }) end,
    "1 validation error detected: Value '60' at 'durationSeconds' failed to satisfy constraint: Member must have "
    .. "value greater than or equal to 900")
  H.eq(e.code, "ValidationError")
end)

T.case("GetSessionToken: credentials that expire after DurationSeconds", function()
  local _, sim = fresh()
  local c = sim.client().sts.GetSessionToken({ DurationSeconds = 900 }).Credentials
  H.eq(c.AccessKeyId:sub(1, 4), "ASIA")
  H.eq(#c.SecretAccessKey, 40)
end)

return T
