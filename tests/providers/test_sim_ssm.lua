-- The simulated Parameter Store: put / overwrite / versions, lookups, the
-- public /aws/service/ parameters, the engine's resolve and exists helpers.
local H = require("harness")
local T = H.suite("sim ssm")

local function ssm(opts)
  local world, sim = fresh()
  return sim.client(opts).ssm, world, sim
end

-- Every /aws/service/ name in the template corpus (/work/shared/corpus,
-- `grep -rhoE "/aws/service/[A-Za-z0-9_./-]+"`), and ones the brief names.
local CORPUS = {
  "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-arm64",
  "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64",
  "/aws/service/ami-amazon-linux-latest/amzn-ami-hvm-x86_64-gp2",
  "/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2",
  "/aws/service/ami-windows-latest/Windows_Server-2016-English-Full-Base",
  "/aws/service/ecs/optimized-ami/amazon-linux-2/recommended/image_id",
}
local COMMON = {
  "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64",
  "/aws/service/ami-amazon-linux-latest/amzn2-ami-kernel-5.10-hvm-x86_64-gp2",
  "/aws/service/canonical/ubuntu/server/22.04/stable/current/amd64/hvm/ebs-gp2/ami-id",
  "/aws/service/canonical/ubuntu/server/jammy/stable/current/amd64/hvm/ebs-gp2/ami-id",
  "/aws/service/ami-windows-latest/Windows_Server-2019-English-Full-Base",
  "/aws/service/bottlerocket/aws-ecs-1/x86_64/latest/image_id",
  "/aws/service/eks/optimized-ami/1.29/amazon-linux-2/recommended/image_id",
}

T.case("PutParameter creates version 1; GetParameter returns AWS's shape", function()
  local c, world = ssm()
  world.set_now_ms(5000)
  H.same(c.PutParameter({ Name = "/app/db", Value = "x", Type = "String", Description = "d" }),
    { Version = 1, Tier = "Standard" })
  H.same(c.GetParameter({ Name = "/app/db" }).Parameter, {
    Name = "/app/db", Type = "String", Value = "x", Version = 1, LastModifiedDate = 5,
    ARN = "arn:aws:ssm:us-east-1:123456789012:parameter/app/db", DataType = "text",
  })
  c.PutParameter({ Name = "plain", Value = "a,b", Type = "StringList" })
  H.eq(c.GetParameter({ Name = "plain" }).Parameter.ARN, "arn:aws:ssm:us-east-1:123456789012:parameter/plain")
end)

T.case("an existing parameter needs Overwrite; each overwrite is a new version", function()
  local c = ssm()
  c.PutParameter({ Name = "p", Value = "1", Type = "String", Description = "keep", AllowedPattern = "^\\d*$" })
  local e = H.raises(function() c.PutParameter({ Name = "p", Value = "2", Type = "String" }) end,
    "The parameter already exists. To overwrite this value, set the overwrite option in the request to true.")
  H.eq(e.code, "ParameterAlreadyExists")
  H.eq(c.PutParameter({ Name = "p", Value = "2", Overwrite = true }).Version, 2)
  H.eq(c.PutParameter({ Name = "p", Value = "3", Type = "String", Overwrite = true }).Version, 3)
  local p = c.GetParameter({ Name = "p" }).Parameter
  H.eq(p.Value, "3")
  H.eq(p.Version, 3)
  H.eq(p.Type, "String") -- kept when an overwrite leaves Type out
  H.eq(c.GetParameter({ Name = "p:1" }).Parameter.Value, "1")
  H.eq(c.GetParameter({ Name = "p:1" }).Parameter.Selector, ":1")
  local history = c.GetParameterHistory({ Name = "p" }).Parameters
  H.eq(#history, 3)
  H.eq(history[1].Value, "1")
  H.eq(history[3].Description, "keep")
  H.eq(c.DescribeParameters({}).Parameters[1].Description, "keep")
end)

T.case("a missing parameter is ParameterNotFound with AWS's empty message", function()
  local c = ssm()
  local e = H.raises(function() c.GetParameter({ Name = "/nope" }) end, "")
  H.eq(e.code, "ParameterNotFound")
  H.raises(function() c.DeleteParameter({ Name = "/nope" }) end, "")
  c.PutParameter({ Name = "/p", Value = "v", Type = "String" })
  H.raises(function() c.GetParameter({ Name = "/p:9" }) end, "")
end)

T.case("names are checked with SSM's message; a new parameter needs a Type", function()
  local c = ssm()
  local bad = "Parameter name: can't be prefixed with \"ssm\" (case-insensitive). If formed as a path, "
    .. "it can consist of sub-paths divided by slash symbol; each sub-path can be formed as a mix of "
    .. "letters, numbers and the following 3 symbols .-_"
  for _, name in ipairs({ "has space", "/aws/mine", "ssm-thing", "/SSM/x", "a/b", "/a//b", "/a/" }) do
    local e = H.raises(function() c.PutParameter({ Name = name, Value = "v", Type = "String" }) end, bad, name)
    H.eq(e.code, "ValidationException")
  end
  local e = H.raises(function() c.PutParameter({ Name = "/t", Value = "v" }) end,
    "A parameter type is required when you create a parameter.")
  H.eq(e.code, "ValidationException")
  H.raises(function() c.PutParameter({ Name = "/t", Value = "v", Type = "Secret" }) end,
    "1 validation error detected: Value 'Secret' at 'type' failed to satisfy constraint: Member must satisfy enum value set: [SecureString, StringList, String]")
end)

T.case("AllowedPattern is enforced on create and overwrite", function()
  local c = ssm()
  c.PutParameter({ Name = "/n", Value = "42", Type = "String", AllowedPattern = "^\\d+$" })
  local e = H.raises(function() c.PutParameter({ Name = "/n", Value = "4x", Overwrite = true }) end,
    "Parameter value, cannot be validated against allowedPattern: ^\\d+$")
  H.eq(e.code, "ParameterPatternMismatchException")
  H.raises(function() c.PutParameter({ Name = "/m", Value = "abc1", Type = "String", AllowedPattern = "[a-z]+" }) end,
    "Parameter value, cannot be validated against allowedPattern: [a-z]+")
  -- "" clears the pattern.
  H.eq(c.PutParameter({ Name = "/n", Value = "4x", AllowedPattern = "", Overwrite = true }).Version, 2)
end)

T.case("limits: Value per tier, Name, Description and AllowedPattern lengths, with SSM's errors", function()
  local c = ssm()
  local standard = "Standard tier parameters support a maximum parameter value of 4096 characters. To create a "
    .. "larger parameter value, upgrade the parameter to use the advanced-parameter tier. For more information, see "
    .. "https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-advanced-parameters.html"
  -- 4 KB in the Standard tier (characters, not bytes), 8 KB in the Advanced one.
  H.eq(c.PutParameter({ Name = "/s", Value = string.rep("v", 4096), Type = "String" }).Tier, "Standard")
  H.eq(c.PutParameter({ Name = "/u", Value = string.rep("\195\169", 4096), Type = "String" }).Tier, "Standard")
  local e = H.raises(function() c.PutParameter({ Name = "/big", Value = string.rep("v", 4097), Type = "String" }) end,
    standard)
  H.eq(e.code, "ValidationException")
  H.raises(function() c.PutParameter({ Name = "/s", Value = string.rep("v", 4097), Overwrite = true }) end, standard)
  H.eq(c.PutParameter({ Name = "/adv", Value = string.rep("v", 8192), Type = "String", Tier = "Advanced" }).Tier,
    "Advanced")
  H.eq(c.PutParameter({ Name = "/it", Value = string.rep("v", 5000), Type = "String",
    Tier = "Intelligent-Tiering" }).Tier, "Advanced")
  e = H.raises(function()
    c.PutParameter({ Name = "/adv2", Value = string.rep("v", 8193), Type = "String", Tier = "Advanced" })
  end, "Advanced tier parameters support a maximum parameter value of 8192 characters.")
  H.eq(e.code, "ValidationException")
  -- 10 MB: refused by the API's own bound, the value not echoed (it is sensitive).
  e = H.raises(function()
    c.PutParameter({ Name = "/huge", Value = string.rep("v", 10 * 1024 * 1024), Type = "String", Tier = "Advanced" })
  end, "1 validation error detected: Value at 'value' failed to satisfy constraint: Member must have length less "
    .. "than or equal to 32768")
  H.eq(e.code, "ValidationException")
  H.raises(function() c.GetParameter({ Name = "/huge" }) end, "")
  H.raises(function() c.GetParameter({ Name = "/big" }) end, "")
  H.eq(c.GetParameter({ Name = "/s" }).Parameter.Version, 1)

  local long_name = "/" .. string.rep("n", 2048)
  e = H.raises(function() c.PutParameter({ Name = long_name, Value = "v", Type = "String" }) end,
    "1 validation error detected: Value '" .. long_name .. "' at 'name' failed to satisfy constraint: Member must "
    .. "have length less than or equal to 2048")
  H.eq(e.code, "ValidationException")
  local description = string.rep("d", 1025)
  e = H.raises(function() c.PutParameter({ Name = "/d", Value = "v", Type = "String", Description = description }) end,
    "1 validation error detected: Value '" .. description .. "' at 'description' failed to satisfy constraint: "
    .. "Member must have length less than or equal to 1024")
  H.eq(e.code, "ValidationException")
  H.eq(c.PutParameter({ Name = "/d", Value = "v", Type = "String", Description = string.rep("d", 1024) }).Version, 1)
  local pattern = string.rep("a", 1025)
  H.raises(function() c.PutParameter({ Name = "/p", Value = "a", Type = "String", AllowedPattern = pattern }) end,
    "1 validation error detected: Value '" .. pattern .. "' at 'allowedPattern' failed to satisfy constraint: "
    .. "Member must have length less than or equal to 1024")
end)

T.case("tags: on create, not with overwrite, tag actions", function()
  local c = ssm()
  c.PutParameter({ Name = "/t", Value = "v", Type = "String", Tags = { { Key = "a", Value = "1" } } })
  H.raises(function()
    c.PutParameter({ Name = "/t", Value = "w", Overwrite = true, Tags = { { Key = "a", Value = "2" } } })
  end, "Invalid request: tags and overwrite can't be used together. To create a parameter with tags, "
    .. "please remove overwrite flag. To update tags for an existing parameter, please use "
    .. "AddTagsToResource or RemoveTagsFromResource.")
  c.AddTagsToResource({ ResourceType = "Parameter", ResourceId = "/t", Tags = { { Key = "a", Value = "3" }, { Key = "b", Value = "4" } } })
  c.RemoveTagsFromResource({ ResourceType = "Parameter", ResourceId = "/t", TagKeys = { "a" } })
  H.same(c.ListTagsForResource({ ResourceType = "Parameter", ResourceId = "/t" }).TagList, { { Key = "b", Value = "4" } })
  local e = H.raises(function() c.ListTagsForResource({ ResourceType = "Parameter", ResourceId = "/none" }) end,
    "Parameter /none not found.")
  H.eq(e.code, "InvalidResourceId")
end)

T.case("GetParameters, DeleteParameter(s), DescribeParameters, GetParametersByPath", function()
  local c = ssm()
  for _, n in ipairs({ "/app/a", "/app/b", "/app/sub/c", "/other" }) do
    c.PutParameter({ Name = n, Value = n, Type = "String" })
  end
  local r = c.GetParameters({ Names = { "/app/a", "/missing" } })
  H.eq(#r.Parameters, 1)
  H.same(r.InvalidParameters, { "/missing" })
  local function names(list) local o = {} for i, p in ipairs(list) do o[i] = p.Name end return o end
  H.same(names(c.GetParametersByPath({ Path = "/app" }).Parameters), { "/app/a", "/app/b" })
  H.same(names(c.GetParametersByPath({ Path = "/app/", Recursive = true }).Parameters), { "/app/a", "/app/b", "/app/sub/c" })
  H.same(names(c.DescribeParameters({}).Parameters), { "/app/a", "/app/b", "/app/sub/c", "/other" })
  H.same(names(c.DescribeParameters({ ParameterFilters = { { Key = "Name", Option = "BeginsWith", Values = { "/app/s" } } } }).Parameters),
    { "/app/sub/c" })
  H.same(names(c.DescribeParameters({ ParameterFilters = { { Key = "Path", Option = "OneLevel", Values = { "/app" } } } }).Parameters),
    { "/app/a", "/app/b" })
  H.eq(c.DescribeParameters({}).Parameters[1].Value, nil) -- metadata only
  c.DeleteParameter({ Name = "/other" })
  H.same(c.DeleteParameters({ Names = { "/app/a", "/nope" } }), { DeletedParameters = { "/app/a" }, InvalidParameters = { "/nope" } })
  H.same(names(c.DescribeParameters({}).Parameters), { "/app/b", "/app/sub/c" })
end)

T.case("parameters are regional", function()
  local world, sim = fresh()
  sim.client({ region = "eu-west-1" }).ssm.PutParameter({ Name = "/p", Value = "eu", Type = "String" })
  H.raises(function() sim.client().ssm.GetParameter({ Name = "/p" }) end, "")
  H.eq(sim.client({ region = "eu-west-1" }).ssm.GetParameter({ Name = "/p" }).Parameter.ARN,
    "arn:aws:ssm:eu-west-1:123456789012:parameter/p")
  H.truthy(world.get("ssm.parameter", "eu-west-1:/p"), "keyed by region and name")
end)

T.case("every /aws/service/ name of the corpus resolves to a well-formed, stable AMI ID", function()
  local c = ssm()
  local seen = {}
  for _, list in ipairs({ CORPUS, COMMON }) do
    for _, name in ipairs(list) do
      local p = c.GetParameter({ Name = name }).Parameter
      H.match(p.Value, "^ami%-0%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x$", name)
      H.eq(p.Type, "String")
      H.eq(c.GetParameter({ Name = name }).Parameter.Value, p.Value, "same value twice")
      H.falsy(seen[p.Value], "distinct names, distinct images: " .. name)
      seen[p.Value] = true
      H.truthy(require("sim.ssm_public").is_public_image(p.Value, "us-east-1"), name)
    end
  end
end)

T.case("public AMI aliases differ by region and follow a rule, not a table", function()
  local _, _, sim = ssm()
  local name = "/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2"
  local us = sim.client().ssm.GetParameter({ Name = name }).Parameter.Value
  local eu = sim.client({ region = "eu-west-1" }).ssm.GetParameter({ Name = name }).Parameter.Value
  H.truthy(us ~= eu, "another region, another image")
  local public = require("sim.ssm_public")
  H.falsy(public.is_public_image(us, "eu-west-1"), "an image belongs to its region")
  H.falsy(public.is_public_image("ami-0123456789abcdef0", "us-east-1"), "a random ID is not a public image")
  -- Any alias in a family exists; names outside the families do not.
  H.truthy(sim.client().ssm.GetParameter({ Name = "/aws/service/ami-amazon-linux-latest/some-future-alias" }))
  H.raises(function() sim.client().ssm.GetParameter({ Name = "/aws/service/ami-amazon-linux-latest/a/b" }) end, "")
  H.raises(function() sim.client().ssm.GetParameter({ Name = "/aws/service/canonical/ubuntu/server/22.04" }) end, "")
  H.raises(function() sim.client().ssm.GetParameter({ Name = "/aws/service/global-infrastructure/regions" }) end, "")
  -- Nobody may write there.
  H.raises(function() sim.client().ssm.PutParameter({ Name = name, Value = "ami-x", Type = "String" }) end)
end)

T.case("GetParametersByPath lists the known public aliases under a path", function()
  local c = ssm()
  local list = c.GetParametersByPath({ Path = "/aws/service/ami-windows-latest" }).Parameters
  local names = {}
  for i, p in ipairs(list) do names[i] = p.Name end
  H.same(names, {
    "/aws/service/ami-windows-latest/Windows_Server-2016-English-Full-Base",
    "/aws/service/ami-windows-latest/Windows_Server-2019-English-Full-Base",
    "/aws/service/ami-windows-latest/Windows_Server-2022-English-Full-Base",
  })
end)

T.case("resolve and exists: the engine's view of SSM", function()
  local c, _, sim = ssm()
  local ssm_mod = require("sim.ssm")
  c.PutParameter({ Name = "/cfg/size", Value = "t3.micro", Type = "String" })
  c.PutParameter({ Name = "/cfg/list", Value = "a,b", Type = "StringList" })
  H.eq(ssm_mod.resolve("/cfg/size"), "t3.micro")
  H.eq(ssm_mod.resolve("/cfg/list"), "a,b")
  H.eq(ssm_mod.resolve("/cfg/size:1"), "t3.micro")
  H.eq(ssm_mod.resolve("/cfg/none"), nil)
  H.match(ssm_mod.resolve(CORPUS[4]), "^ami%-0")
  H.eq(ssm_mod.resolve(CORPUS[4], { region = "eu-west-1" }),
    sim.client({ region = "eu-west-1" }).ssm.GetParameter({ Name = CORPUS[4] }).Parameter.Value)
  H.eq(ssm_mod.exists("AWS::SSM::Parameter::Name", "/cfg/size"), true)
  H.eq(ssm_mod.exists("AWS::SSM::Parameter::Name", "/cfg/none"), false)
  H.eq(ssm_mod.exists("AWS::SSM::Parameter::Name", CORPUS[1]), true)
  H.eq(ssm_mod.exists("AWS::EC2::KeyPair::KeyName", "k"), nil)
end)

return T
