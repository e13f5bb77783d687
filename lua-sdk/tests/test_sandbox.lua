-- The SDK must run in the provider sandbox: no io, os, debug, ffi, bit or
-- loaders, `require` of SDK modules only, and no global reads or writes
-- beyond the safe standard library. Load every module that way and use it.
local H = require("harness")
local T = H.suite("sandbox")

local MODULES = {
  "moonstack.values", "moonstack.errors", "moonstack.messages", "moonstack.tags",
  "moonstack.schema", "moonstack.log", "moonstack.ids", "moonstack.provider",
  "moonstack.contract", "moonstack.custom", "moonstack.stub", "moonstack.scaffold", "moonstack.world_memory",
  "moonstack.regex", "moonstack.constraints", "moonstack.registry_schema", "moonstack.scaffold_schema",
}

local function copy(t) local o = {} for k, v in pairs(t) do o[k] = v end return o end

-- A strict environment: reading an undefined global or writing any global
-- raises, like a sandbox that forbids them.
local function sandbox(extra_globals)
  local loaded = {}
  local env = {
    assert = assert, error = error, ipairs = ipairs, next = next, pairs = pairs,
    pcall = pcall, xpcall = xpcall, select = select, tonumber = tonumber,
    tostring = tostring, type = type, unpack = unpack, rawequal = rawequal,
    rawget = rawget, rawset = rawset, setmetatable = setmetatable,
    getmetatable = getmetatable,
    string = copy(string), table = copy(table), math = copy(math),
  }
  for k, v in pairs(extra_globals or {}) do env[k] = v end
  env.require = function(name)
    if loaded[name] ~= nil then return loaded[name] end
    assert(name:match("^moonstack%.[%w_]+$"), "sandbox: require of " .. name .. " refused")
    local path = assert(package.searchpath(name, package.path))
    local chunk = assert(loadfile(path))
    setfenv(chunk, env)
    local m = chunk(name)
    loaded[name] = m == nil and true or m
    return loaded[name]
  end
  setmetatable(env, {
    __index = function(_, k) error("sandbox: read of undefined global " .. tostring(k), 2) end,
    __newindex = function(_, k) error("sandbox: write of global " .. tostring(k), 2) end,
  })
  return env
end

T.case("every module loads without io, os, debug, ffi, bit or globals", function()
  local env = sandbox()
  for _, m in ipairs(MODULES) do
    local ok, err = pcall(env.require, m)
    H.truthy(ok, m .. ": " .. tostring(err))
  end
end)

T.case("a provider defined and driven inside the sandbox", function()
  local env = sandbox()
  local P = env.require("moonstack.provider")
  local ids = env.require("moonstack.ids").new("sandbox")
  local d = P.define({
    type = "AWS::EC2::VPC",
    properties = {
      P.string "CidrBlock" { required = true },
      P.boolean "EnableDnsSupport" { update = "none", default = true },
      P.tags "Tags" { update = "none" },
    },
    attributes = { "VpcId" },
    create = function(ctx, props) return { id = ids:vpc(), attributes = {} } end,
    update = function() end,
    delete = function() end,
  }, "vpc.lua")
  local props = d:validate({ CidrBlock = "10.0.0.0/16", Tags = { { Key = "Name", Value = "v" } } },
    { logical_id = "Vpc" })
  H.eq(props.EnableDnsSupport, true)
  local r = d:check_result("create", d.create({}, props))
  H.match(r.id, "^vpc%-0%x+$")
  local new = d:validate({ CidrBlock = "10.0.0.0/16", EnableDnsSupport = "false" })
  H.eq((d:change(props, new)), "none")
  H.truthy(P.is_in_progress(P.in_progress { after = 1 }))
  H.raises(function() d:validate({ Foo = 1, CidrBlock = "x" }) end, "Encountered unsupported property Foo")
end)

T.case("the host's moonstack.null is found lazily, through a strict global table", function()
  local sentinel = setmetatable({}, { __tostring = function() return "null" end })
  local env = sandbox({ moonstack = { null = sentinel } })
  local V = env.require("moonstack.values")
  H.eq(V.null(), sentinel)
  H.truthy(V.is_null(sentinel))
  local P = env.require("moonstack.provider")
  H.eq(P.null(), sentinel)
end)

return T
