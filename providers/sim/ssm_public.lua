-- sim.ssm_public: the public SSM parameters AWS publishes under
-- /aws/service/ (latest AMI aliases) as the simulated SSM serves them.
--
-- They exist in every region without anyone creating them. Their values are
-- AMI IDs made up deterministically from the region and the parameter's name
-- (a rule, not a table): the same name in the same region always gives the
-- same ID, and another region gives another one, as on AWS.
--
-- Which names exist is a rule per family (an alias under
-- /aws/service/ami-amazon-linux-latest/ is any single name segment; an
-- Ubuntu image is any path under /aws/service/canonical/ubuntu/ ending in
-- /ami-id; ...). KNOWN lists the aliases real templates use (every one in
-- the project's template corpus, plus common ones), for listing by path.
--
-- An AMI ID made here carries a check: "ami-0" + 12 hex digits from the name
-- + 4 hex digits from those, so `is_public_image(id, region)` can tell the
-- simulated EC2 that such an image exists without a table of every name.

local util = require("sim.cloudformation_util")

local M = {}

M.PREFIX = "/aws/service/"

-- Families of public AMI parameters: a name is one of them when it starts
-- with `prefix` and the rest is one segment (`leaf`) or ends with `suffix`.
M.FAMILIES = {
  { prefix = "/aws/service/ami-amazon-linux-latest/", leaf = true },
  { prefix = "/aws/service/ami-windows-latest/", leaf = true },
  { prefix = "/aws/service/ami-macos-latest/", leaf = true },
  { prefix = "/aws/service/canonical/ubuntu/", suffix = "/ami-id" },
  { prefix = "/aws/service/suse/sles/", suffix = "/latest" },
  { prefix = "/aws/service/ecs/optimized-ami/", suffix = "/image_id" },
  { prefix = "/aws/service/eks/optimized-ami/", suffix = "/image_id" },
  { prefix = "/aws/service/bottlerocket/", suffix = "/image_id" },
  { prefix = "/aws/service/deeplearning/ami/", suffix = "/ami-id" },
}

-- Names templates reference, listed by GetParametersByPath and
-- DescribeParameters. The first six are every /aws/service/ name in the
-- corpus (/work/shared/corpus, grep "/aws/service/").
M.KNOWN = {
  "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-arm64",
  "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64",
  "/aws/service/ami-amazon-linux-latest/amzn-ami-hvm-x86_64-gp2",
  "/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2",
  "/aws/service/ami-windows-latest/Windows_Server-2016-English-Full-Base",
  "/aws/service/ecs/optimized-ami/amazon-linux-2/recommended/image_id",
  "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64",
  "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-arm64",
  "/aws/service/ami-amazon-linux-latest/al2023-ami-minimal-kernel-default-x86_64",
  "/aws/service/ami-amazon-linux-latest/amzn2-ami-kernel-5.10-hvm-x86_64-gp2",
  "/aws/service/ami-amazon-linux-latest/amzn2-ami-kernel-5.10-hvm-arm64-gp2",
  "/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-arm64-gp2",
  "/aws/service/ami-windows-latest/Windows_Server-2019-English-Full-Base",
  "/aws/service/ami-windows-latest/Windows_Server-2022-English-Full-Base",
  "/aws/service/canonical/ubuntu/server/20.04/stable/current/amd64/hvm/ebs-gp2/ami-id",
  "/aws/service/canonical/ubuntu/server/22.04/stable/current/amd64/hvm/ebs-gp2/ami-id",
  "/aws/service/canonical/ubuntu/server/24.04/stable/current/amd64/hvm/ebs-gp3/ami-id",
  "/aws/service/ecs/optimized-ami/amazon-linux-2023/recommended/image_id",
  "/aws/service/ecs/optimized-ami/amazon-linux-2/arm64/recommended/image_id",
  "/aws/service/eks/optimized-ami/1.29/amazon-linux-2/recommended/image_id",
  "/aws/service/bottlerocket/aws-ecs-2/x86_64/latest/image_id",
  "/aws/service/bottlerocket/aws-k8s-1.29/x86_64/latest/image_id",
}

local function starts(s, p) return s:sub(1, #p) == p end
local function ends(s, p) return #s >= #p and s:sub(-#p) == p end

---True when `name` is a public AMI parameter (in every region).
---@param name string
---@return boolean
function M.is_public_name(name)
  if type(name) ~= "string" then return false end
  for _, f in ipairs(M.FAMILIES) do
    if starts(name, f.prefix) then
      local rest = name:sub(#f.prefix + 1)
      if f.leaf then
        if rest:match("^[%w%._%-]+$") then return true end
      elseif ends(rest, f.suffix) and #rest > #f.suffix
          and not rest:find("//", 1, true) and rest:match("^[%w%._%-/]+$") then
        return true
      end
    end
  end
  return false
end

local function check_digits(region, body)
  return util.hash_hex(region .. "|" .. body, 4, 7)
end

---The AMI ID the public parameter `name` holds in `region`, or nil when
---`name` is not one.
---@param name string
---@param region string
---@return string?
function M.image_id(name, region)
  if not M.is_public_name(name) then return nil end
  local body = util.hash_hex(region .. "|" .. name, 12, 3)
  return "ami-0" .. body .. check_digits(region, body)
end

---True when `id` is an AMI ID `image_id` hands out in `region`: the
---simulated EC2 can treat those images as existing.
---@param id string
---@param region string
---@return boolean
function M.is_public_image(id, region)
  local body, check = tostring(id):match("^ami%-0(%x%x%x%x%x%x%x%x%x%x%x%x)(%x%x%x%x)$")
  return body ~= nil and check == check_digits(region, body)
end

return M
