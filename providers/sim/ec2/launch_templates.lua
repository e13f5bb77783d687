-- sim.ec2.launch_templates: launch templates (kind "ec2.launch_template",
-- keyed by lt-… ID) and their numbered versions.
--
-- A template keeps every version in its record (`_sim.versions`, keyed by
-- the version number as a string), its DefaultVersionNumber and
-- LatestVersionNumber. Names are unique per region: a non-live index record
-- ("ec2.launch_template_name", keyed by name) maps a name to its ID, so a
-- lookup by name is one read, never a walk of every template.
--
-- A version is named by a number, "$Latest" or "$Default" (as
-- RunInstances' and Auto Scaling's LaunchTemplate.Version take it);
-- `resolve` turns any of them into the version's LaunchTemplateData, which
-- Auto Scaling launches instances from.

local world = require("sim.world")
local C = require("sim.ec2.common")
local instances = require("sim.ec2.instances")

local L = {}

local KIND, NAME_KIND = "ec2.launch_template", "ec2.launch_template_name"

-- Messages ----------------------------------------------------------------------

-- InvalidLaunchTemplateId.NotFound / InvalidLaunchTemplateName.NotFoundException:
-- "The specified launch template, with template ID lt-…, does not exist."
-- and "…, with template name X, does not exist." (EC2's answers, quoted in
-- public issue threads of terraform-provider-aws and the AWS CLI).
local function not_found_id(id)
  C.fail("The specified launch template, with template ID " .. tostring(id) .. ", does not exist.",
    "InvalidLaunchTemplateId.NotFound")
end
local function not_found_name(name)
  C.fail("The specified launch template, with template name " .. tostring(name) .. ", does not exist.",
    "InvalidLaunchTemplateName.NotFoundException")
end

-- InvalidLaunchTemplateName.AlreadyExistsException: "Launch template name
-- already in use." (EC2's answer to a second CreateLaunchTemplate).
local function name_taken()
  C.fail("Launch template name already in use.", "InvalidLaunchTemplateName.AlreadyExistsException")
end

-- InvalidLaunchTemplateId.VersionNotFound (extrapolated wording).
local function version_not_found(id, version)
  C.fail("Could not find launch template version " .. tostring(version) .. " for template " .. id .. ".",
    "InvalidLaunchTemplateId.VersionNotFound")
end

-- Records -----------------------------------------------------------------------

local function save(rec) world.put(KIND, rec.LaunchTemplateId, rec) end

---The template named by ID or name (either may be given), or a failure
---with EC2's message.
---@param id string?
---@param name string?
---@return table
function L.require(id, name)
  if id ~= nil then
    local rec = type(id) == "string" and world.get(KIND, id)
    if not rec then not_found_id(id) end
    return rec
  end
  local idx = type(name) == "string" and world.get(NAME_KIND, name)
  local rec = idx and world.get(KIND, idx.LaunchTemplateId)
  if not rec then
    if name == nil then C.fail("The request must contain the parameter LaunchTemplateName or LaunchTemplateId", "MissingParameter") end
    not_found_name(name)
  end
  return rec
end

-- The version number a Version value names ("$Latest", "$Default", "3", 3).
local function number_of(rec, version)
  if version == nil or version == "$Default" then return rec.DefaultVersionNumber end
  if version == "$Latest" then return rec.LatestVersionNumber end
  local n = tonumber(version)
  if not n or n ~= math.floor(n) then version_not_found(rec.LaunchTemplateId, version) end
  return n
end

local function version_of(rec, version)
  local n = number_of(rec, version)
  local v = rec._sim.versions[tostring(n)]
  if not v then version_not_found(rec.LaunchTemplateId, version) end
  return v
end

---A launch template version's data: `spec` is { LaunchTemplateId | LaunchTemplateName, Version }
---(Version default "$Default"). Returns the data, the template record and
---the version number.
---@param spec table
---@return table data, table template, integer number
function L.resolve(spec)
  local rec = L.require(spec.LaunchTemplateId, spec.LaunchTemplateId == nil and spec.LaunchTemplateName or nil)
  local v = version_of(rec, spec.Version)
  return v.LaunchTemplateData, rec, v.VersionNumber
end

local function template_view(rec)
  local out = C.public(rec)
  return out
end

local function version_view(rec, v)
  return {
    LaunchTemplateId = rec.LaunchTemplateId, LaunchTemplateName = rec.LaunchTemplateName,
    VersionNumber = v.VersionNumber, VersionDescription = v.VersionDescription,
    CreateTime = v.CreateTime, CreatedBy = rec.CreatedBy,
    DefaultVersion = v.VersionNumber == rec.DefaultVersionNumber,
    LaunchTemplateData = v.LaunchTemplateData,
  }
end

local function new_version(rec, data, description, env)
  local n = rec.LatestVersionNumber + 1
  local v = { VersionNumber = n, VersionDescription = description, LaunchTemplateData = data or {},
              CreateTime = instances.iso8601(env.now_ms) }
  rec._sim.versions[tostring(n)] = v
  rec.LatestVersionNumber = n
  return v
end

local function check_name(name)
  if type(name) ~= "string" or name == "" then
    C.fail("The request must contain the parameter LaunchTemplateName", "MissingParameter")
  end
  -- EC2's constraint: 3-128 characters of [a-zA-Z0-9().\-/_].
  if #name < 3 or #name > 128 or name:find("[^%w%(%)%.%-/_]") then
    C.fail("1 validation error detected: Value '" .. name .. "' at 'launchTemplateName' failed to satisfy constraint: "
      .. "Member must satisfy regular expression pattern: [a-zA-Z0-9\\(\\)\\.\\-/_]+", "ValidationError")
  end
end

-- Actions -----------------------------------------------------------------------

local A = {}

---CreateLaunchTemplate: LaunchTemplateName, LaunchTemplateData, VersionDescription,
---TagSpecifications -> { LaunchTemplate }.
function A.CreateLaunchTemplate(p, env)
  check_name(p.LaunchTemplateName)
  if world.get(NAME_KIND, p.LaunchTemplateName) then name_taken() end
  if type(p.LaunchTemplateData) ~= "table" then
    C.fail("The request must contain the parameter LaunchTemplateData", "MissingParameter")
  end
  local id = C.derived_id(env, "instance", "lt")
  local rec = {
    LaunchTemplateId = id, LaunchTemplateName = p.LaunchTemplateName,
    CreateTime = instances.iso8601(env.now_ms), CreatedBy = "arn:aws:iam::" .. env.account .. ":root",
    DefaultVersionNumber = 1, LatestVersionNumber = 0,
    Tags = C.tag_list(C.spec_tags(p.TagSpecifications, "launch-template", env)),
    _sim = { versions = {}, region = env.region },
  }
  new_version(rec, p.LaunchTemplateData, p.VersionDescription, env)
  save(rec)
  world.put(NAME_KIND, rec.LaunchTemplateName, { LaunchTemplateId = id }, { live = false })
  return { LaunchTemplate = template_view(rec) }
end

---CreateLaunchTemplateVersion: LaunchTemplateId | LaunchTemplateName,
---LaunchTemplateData, SourceVersion, VersionDescription -> { LaunchTemplateVersion }.
---With SourceVersion the new data is the source's with LaunchTemplateData's
---top-level fields laid over it.
function A.CreateLaunchTemplateVersion(p, env)
  local rec = L.require(p.LaunchTemplateId, p.LaunchTemplateName)
  if type(p.LaunchTemplateData) ~= "table" then
    C.fail("The request must contain the parameter LaunchTemplateData", "MissingParameter")
  end
  local data = p.LaunchTemplateData
  if p.SourceVersion ~= nil then
    local base = version_of(rec, p.SourceVersion).LaunchTemplateData
    local merged = {}
    for k, v in pairs(base) do merged[k] = v end
    for k, v in pairs(data) do merged[k] = v end
    data = merged
  end
  local v = new_version(rec, data, p.VersionDescription, env)
  save(rec)
  return { LaunchTemplateVersion = version_view(rec, v) }
end

---ModifyLaunchTemplate: LaunchTemplateId | LaunchTemplateName, DefaultVersion
---(SetDefaultVersion) -> { LaunchTemplate }.
function A.ModifyLaunchTemplate(p, env)
  local rec = L.require(p.LaunchTemplateId, p.LaunchTemplateName)
  local default = p.DefaultVersion or p.SetDefaultVersion
  if default ~= nil then
    rec.DefaultVersionNumber = version_of(rec, default).VersionNumber
    save(rec)
  end
  return { LaunchTemplate = template_view(rec) }
end

---DeleteLaunchTemplate: LaunchTemplateId | LaunchTemplateName -> { LaunchTemplate }.
function A.DeleteLaunchTemplate(p, env)
  local rec = L.require(p.LaunchTemplateId, p.LaunchTemplateName)
  world.remove(KIND, rec.LaunchTemplateId)
  world.remove(NAME_KIND, rec.LaunchTemplateName)
  return { LaunchTemplate = template_view(rec) }
end

---DescribeLaunchTemplates: LaunchTemplateIds, LaunchTemplateNames ->
---{ LaunchTemplates }. Without either, every template of the world.
function A.DescribeLaunchTemplates(p, env)
  local out = {}
  for _, id in ipairs(C.list(p.LaunchTemplateIds)) do out[#out + 1] = template_view(L.require(id)) end
  for _, name in ipairs(C.list(p.LaunchTemplateNames)) do out[#out + 1] = template_view(L.require(nil, name)) end
  if #C.list(p.LaunchTemplateIds) == 0 and #C.list(p.LaunchTemplateNames) == 0 then
    for _, id in ipairs(world.ids(KIND, true)) do out[#out + 1] = template_view(world.get(KIND, id)) end
  end
  return { LaunchTemplates = out }
end

---DescribeLaunchTemplateVersions: LaunchTemplateId | LaunchTemplateName,
---Versions ("1", "$Latest", "$Default"; none: every version, newest first)
----> { LaunchTemplateVersions }.
function A.DescribeLaunchTemplateVersions(p, env)
  local rec = L.require(p.LaunchTemplateId, p.LaunchTemplateName)
  local out = {}
  local wanted = C.list(p.Versions)
  if #wanted == 0 then
    for n = rec.LatestVersionNumber, 1, -1 do
      local v = rec._sim.versions[tostring(n)]
      if v then out[#out + 1] = version_view(rec, v) end
    end
  else
    for _, w in ipairs(wanted) do out[#out + 1] = version_view(rec, version_of(rec, w)) end
  end
  return { LaunchTemplateVersions = out }
end

L.actions = A
return L
