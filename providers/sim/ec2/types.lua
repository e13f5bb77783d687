-- sim.ec2.types: the instance-type catalog.
--
-- Common current and previous generations (the families of the
-- AWS::EC2::Instance InstanceType allowed values in the CloudFormation
-- reference, plus later ones templates use). world config
-- { instance_types = { "x9.huge" } } adds more.

local C = require("sim.ec2.common")

local T = {}

local STD = { "large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge", "metal" }
local BURST = { "nano", "micro", "small", "medium", "large", "xlarge", "2xlarge" }

-- family -> sizes; arm64 families are marked so a mismatch with a registered
-- image's architecture can be reported.
local FAMILIES = {
  t1 = { "micro" }, t2 = BURST, t3 = BURST, t3a = BURST, t4g = BURST,
  m1 = { "small", "medium", "large", "xlarge" },
  m3 = { "medium", "large", "xlarge", "2xlarge" },
  m4 = { "large", "xlarge", "2xlarge", "4xlarge", "10xlarge", "16xlarge" },
  m5 = STD, m5a = STD, m5d = STD, m5n = STD, m6i = STD, m6a = STD, m7i = STD, m7a = STD,
  m6g = STD, m6gd = STD, m7g = STD,
  c1 = { "medium", "xlarge" },
  c3 = { "large", "xlarge", "2xlarge", "4xlarge", "8xlarge" },
  c4 = { "large", "xlarge", "2xlarge", "4xlarge", "8xlarge" },
  c5 = { "large", "xlarge", "2xlarge", "4xlarge", "9xlarge", "12xlarge", "18xlarge", "24xlarge", "metal" },
  c5a = STD, c5d = STD, c5n = { "large", "xlarge", "2xlarge", "4xlarge", "9xlarge", "18xlarge", "metal" },
  c6i = STD, c6a = STD, c7i = STD, c6g = STD, c6gn = STD, c7g = STD,
  r3 = { "large", "xlarge", "2xlarge", "4xlarge", "8xlarge" },
  r4 = { "large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge" },
  r5 = STD, r5a = STD, r5d = STD, r6i = STD, r6a = STD, r7i = STD, r6g = STD, r7g = STD,
  i3 = { "large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge", "metal" },
  i3en = { "large", "xlarge", "2xlarge", "3xlarge", "6xlarge", "12xlarge", "24xlarge", "metal" },
  d2 = { "xlarge", "2xlarge", "4xlarge", "8xlarge" },
  x1 = { "16xlarge", "32xlarge" }, x1e = { "xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge", "32xlarge" },
  z1d = { "large", "xlarge", "2xlarge", "3xlarge", "6xlarge", "12xlarge", "metal" },
  p2 = { "xlarge", "8xlarge", "16xlarge" }, p3 = { "2xlarge", "8xlarge", "16xlarge" },
  g3 = { "4xlarge", "8xlarge", "16xlarge" }, g4dn = { "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "metal" },
  g5 = { "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge", "48xlarge" },
  a1 = { "medium", "large", "xlarge", "2xlarge", "4xlarge", "metal" },
}
local ARM = { t4g = true, m6g = true, m6gd = true, m7g = true, c6g = true, c6gn = true,
              c7g = true, r6g = true, r7g = true, a1 = true }
-- Graviton families also come in "medium".
for fam in pairs(ARM) do
  if FAMILIES[fam] == STD then
    local sizes = { "medium" }
    for _, s in ipairs(STD) do sizes[#sizes + 1] = s end
    FAMILIES[fam] = sizes
  end
end

local CATALOG = {}
for fam, sizes in pairs(FAMILIES) do
  for _, s in ipairs(sizes) do CATALOG[fam .. "." .. s] = ARM[fam] and "arm64" or "x86_64" end
end

---The architecture of an instance type ("x86_64" | "arm64"), or nil when
---the type is not in the catalog.
---@param name any
---@return string?
function T.architecture(name)
  if type(name) ~= "string" then return nil end
  if CATALOG[name] then return CATALOG[name] end
  for _, extra in ipairs(C.config().instance_types or {}) do
    if extra == name then return "x86_64" end
  end
  return nil
end

---Raises AWS's error for a type not in the catalog. Message verbatim from
---EC2 (getmoto/moto#1695, CloudSlang/cs-actions#308:
---"Invalid value 'm1_small' for InstanceType.").
function T.check(name, code)
  if not T.architecture(name) then
    C.fail("Invalid value '" .. tostring(name) .. "' for InstanceType.", code or "InvalidParameterValue")
  end
end

return T
