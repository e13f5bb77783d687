-- sim.ec2.images: the AMI catalog (kind "ec2.image") and key pairs (kind
-- "ec2.key_pair", keyed by name).
--
-- Default world: any well-formed AMI ID (ami- + 8 or 17 lowercase hex) is an
-- available EBS-backed x86_64 image, so real templates with literal AMI IDs
-- deploy; any key name exists. A deregistered image / deleted key pair is
-- kept as a non-live tombstone so it stays gone. world config
-- { implicit_images = false } / { implicit_key_pairs = false } turns the
-- implicit ones off.

local world = require("sim.world")
local C = require("sim.ec2.common")

local I = {}

-- InvalidAMIID.Malformed, verbatim from seed 000 tests 33/36/38
-- ('Invalid id: "i-d8d4a266" (expecting "ami-...")') and
-- hashicorp/terraform#22172.
local function malformed(id)
  C.fail('Invalid id: "' .. tostring(id) .. '" (expecting "ami-...")', "InvalidAMIID.Malformed")
end

-- InvalidAMIID.NotFound: "The image id '[ami-fake123]' does not exist",
-- verbatim in aws/aws-sdk#97 (the brackets are EC2's).
local function not_found(ids)
  C.fail("The image id '[" .. table.concat(ids, ", ") .. "]' does not exist", "InvalidAMIID.NotFound")
end

local function implicit_image(id, env)
  return {
    ImageId = id, Name = id, State = "available", ImageType = "machine", Public = true,
    OwnerId = "137112412989", -- the owner of Amazon's public images
    Architecture = "x86_64", RootDeviceType = "ebs", RootDeviceName = "/dev/xvda",
    VirtualizationType = "hvm", Hypervisor = "xen", EnaSupport = true,
    BlockDeviceMappings = { { DeviceName = "/dev/xvda",
      Ebs = { DeleteOnTermination = true, VolumeSize = 8, VolumeType = "gp2", Encrypted = false } } },
    Tags = {},
  }
end

---The image record for `id`, or nil when it does not exist (deregistered,
---never registered with implicit images off). Raises Malformed for an ID
---that is not an AMI ID.
---@param id any
---@return table?
function I.image(id, env)
  if not C.well_formed(id, "ami") then malformed(id) end
  if world.live("ec2.image", id) then return world.get("ec2.image", id) end
  if world.get("ec2.image", id) ~= nil then return nil end -- tombstone
  if C.config().implicit_images then return implicit_image(id, env) end
  return nil
end

---The image or AWS's NotFound error.
function I.require_image(id, env)
  local img = I.image(id, env)
  if not img then not_found({ id }) end
  return img
end

-- Actions -----------------------------------------------------------------------

local A = {}

---RegisterImage: Name, RootDeviceType ("ebs" | "instance-store"),
---Architecture, VirtualizationType, Description -> { ImageId }.
function A.RegisterImage(p, env)
  if type(p.Name) ~= "string" or p.Name == "" then
    C.fail("The request must contain the parameter name", "MissingParameter")
  end
  local root = p.RootDeviceType or "ebs"
  if root ~= "ebs" and root ~= "instance-store" then
    C.fail("Value (" .. tostring(root) .. ") for parameter rootDeviceType is invalid.", "InvalidParameterValue")
  end
  local id = env.new_id("image")
  local tags = C.spec_tags(p.TagSpecifications, "image", env)
  world.put("ec2.image", id, {
    ImageId = id, Name = p.Name, Description = p.Description, State = "available",
    ImageType = "machine", Public = false, OwnerId = env.account,
    Architecture = p.Architecture or "x86_64", RootDeviceType = root,
    RootDeviceName = p.RootDeviceName or (root == "ebs" and "/dev/xvda" or "/dev/sda1"),
    VirtualizationType = p.VirtualizationType or "hvm", Hypervisor = "xen",
    BlockDeviceMappings = p.BlockDeviceMappings or {}, Tags = C.tag_list(tags),
  })
  return { ImageId = id }
end

---DeregisterImage: ImageId.
function A.DeregisterImage(p, env)
  local img = I.require_image(p.ImageId, env)
  world.put("ec2.image", img.ImageId, { ImageId = img.ImageId, State = "deregistered" }, { live = false })
  return { Return = true }
end

---DescribeImages: ImageIds (each must exist), or the registered images.
function A.DescribeImages(p, env)
  local out = {}
  local ids = C.list(p.ImageIds)
  if #ids > 0 then
    local missing = {}
    for _, id in ipairs(ids) do
      local img = I.image(id, env)
      if img then out[#out + 1] = img else missing[#missing + 1] = id end
    end
    if #missing > 0 then not_found(missing) end
  else
    for _, id in ipairs(world.ids("ec2.image", true)) do out[#out + 1] = world.get("ec2.image", id) end
  end
  local images = {}
  for _, img in ipairs(out) do
    if C.matches(img, p.Filters, {
      ["image-id"] = function(r) return r.ImageId end,
      ["name"] = function(r) return r.Name end,
      ["root-device-type"] = function(r) return r.RootDeviceType end,
      ["architecture"] = function(r) return r.Architecture end,
      ["state"] = function(r) return r.State end,
    }) then images[#images + 1] = C.public(img) end
  end
  return { Images = images }
end

-- Key pairs ---------------------------------------------------------------------

---The key pair record for `name`, or nil.
function I.key_pair(name)
  if type(name) ~= "string" then return nil end
  if world.live("ec2.key_pair", name) then return world.get("ec2.key_pair", name) end
  if world.get("ec2.key_pair", name) ~= nil then return nil end -- deleted
  if C.config().implicit_key_pairs then
    return { KeyName = name, KeyType = "rsa", Tags = {},
             KeyFingerprint = "1f:51:ae:28:bf:89:e9:d8:1f:25:5d:37:2d:7d:b8:ca:9f:f5:f1:6f" }
  end
  return nil
end

-- InvalidKeyPair.NotFound (wording as in the task brief; EC2's own).
function I.require_key_pair(name)
  local kp = I.key_pair(name)
  if not kp then C.fail("The key pair '" .. tostring(name) .. "' does not exist", "InvalidKeyPair.NotFound") end
  return kp
end

-- A fingerprint-shaped string derived from the key pair ID (deterministic).
local function fingerprint(key_id)
  local hex = key_id:match("%-(%x+)$") .. "0123"
  local parts = {}
  for i = 1, 40, 2 do parts[#parts + 1] = hex:sub((i - 1) % #hex + 1, (i - 1) % #hex + 2) end
  return table.concat(parts, ":")
end

---CreateKeyPair: KeyName -> { KeyName, KeyPairId, KeyFingerprint, KeyMaterial }.
function A.CreateKeyPair(p, env)
  local name = p.KeyName
  if type(name) ~= "string" or name == "" then
    C.fail("The request must contain the parameter KeyName", "MissingParameter")
  end
  if world.live("ec2.key_pair", name) then
    C.fail("The keypair '" .. name .. "' already exists.", "InvalidKeyPair.Duplicate")
  end
  local id = env.new_id("key_pair")
  local rec = { KeyName = name, KeyPairId = id, KeyFingerprint = fingerprint(id),
                KeyType = p.KeyType or "rsa", Tags = C.tag_list(C.spec_tags(p.TagSpecifications, "key-pair", env)) }
  world.put("ec2.key_pair", name, rec)
  local out = C.public(rec)
  out.KeyMaterial = "-----BEGIN RSA PRIVATE KEY-----\n(simulated " .. id .. ")\n-----END RSA PRIVATE KEY-----"
  return out
end

---DeleteKeyPair: KeyName. Deleting a missing key pair succeeds (as on AWS).
function A.DeleteKeyPair(p, env)
  if type(p.KeyName) == "string" then
    world.put("ec2.key_pair", p.KeyName, { KeyName = p.KeyName, Deleted = true }, { live = false })
  end
  return { Return = true }
end

---DescribeKeyPairs: KeyNames (each must exist), or the created ones.
function A.DescribeKeyPairs(p, env)
  local out = {}
  local names = C.list(p.KeyNames)
  if #names > 0 then
    for _, n in ipairs(names) do out[#out + 1] = C.public(I.require_key_pair(n)) end
  else
    for _, n in ipairs(world.ids("ec2.key_pair", true)) do out[#out + 1] = C.public(world.get("ec2.key_pair", n)) end
  end
  return { KeyPairs = out }
end

I.actions = A
return I
