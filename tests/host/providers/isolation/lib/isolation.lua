-- Shared code of the isolation fixtures (tests/host/lua_isolation_test.cc):
-- what a provider can try to change for the others (PATCHES), and what a
-- provider sees of each shared table (observe). Both take the calling
-- provider's own globals (its _G), so they act and look as that provider's
-- code does.
local I = {}

local function patched() return "patched" end

-- name -> function(env, ctx): one write into something the state shares.
I.PATCHES = {
  string = function(env) env.string.format = patched end,
  -- Every string function raising: what a broken monkey patch does.
  string_all = function(env)
    for name in env.pairs(env.string) do
      env.string[name] = function() env.error("patched string." .. name) end
    end
  end,
  string_metatable = function(env) env.getmetatable("").__index.upper = patched end,
  string_metatable_index = function(env) env.getmetatable("").__index = { upper = patched } end,
  table = function(env) env.table.insert = patched end,
  table_rawset = function(env) env.rawset(env.table, "concat", patched) end,
  math = function(env) env.math.floor = patched end,
  os = function(env) env.os.time = patched end,
  bit = function(env) env.bit.band = patched end,
  coroutine = function(env) env.coroutine.wrap = patched end,
  moonstack = function(env) env.moonstack.kind = patched end,
  package_loaded = function(env) env.package.loaded["moonstack.provider"] = { define = "patched" } end,
  package_preload = function(env) env.package.preload["lib.absent"] = patched end,
  sdk_module = function(env) env.require("moonstack.provider").deep_copy = patched end,
  sdk_nested = function(env) env.require("moonstack.provider").SEVERITY.replace = 0 end,
  sdk_insert = function(env) env.table.insert(env.require("sim").SERVICES, "patched") end,
  sim_module = function(env) env.require("sim.ssm").GetParameter = "patched" end,
  world_module = function(env) env.require("moonstack.world").now_ms = patched end,
  ctx_world = function(_, ctx) ctx.world.ssm.GetParameter = "patched" end,
  ctx_log = function(_, ctx) ctx.log.info = error end,
  -- Writes a provider may make: into its own globals only.
  globals = function(env) env.tostring = patched; env.Leaked = "patched" end,
  load = function(env) env.load("tostring = function() return 'patched' end; Leaked = 'patched'")() end,
}

-- One line naming what `env`'s code sees of every shared table.
function I.observe(env, ctx)
  local P = env.require("moonstack.provider")
  local t = {}
  env.table.insert(t, "x")
  local services = 0
  for _ in env.ipairs(env.require("sim").SERVICES) do services = services + 1 end
  local names = {}
  for name in env.pairs({ a = 1 }) do names[#names + 1] = name end
  ctx.log.info("observed")
  local seen = {
    "format=" .. env.string.format("%s-%d", "a", 1),
    "upper=" .. ("abc"):upper(),
    "meta=" .. env.tostring(env.getmetatable("").__index == env.string),
    "insert=" .. #t,
    "concat=" .. env.table.concat({ "a", "b" }, ","),
    "floor=" .. math.floor(2.5),
    "time=" .. env.os.time(),
    "band=" .. env.bit.band(6, 3),
    "wrap=" .. env.coroutine.wrap(function() return "co" end)(),
    "kind=" .. env.moonstack.kind({}),
    "define=" .. type(env.package.loaded["moonstack.provider"].define),
    "absent=" .. env.tostring((env.pcall(env.require, "lib.absent"))),
    "copy=" .. P.deep_copy({ 1 })[1],
    "severity=" .. P.SEVERITY.replace,
    "services=" .. services,
    "ssm=" .. type(env.require("sim.ssm").GetParameter),
    "now=" .. env.require("moonstack.world").now_ms(),
    "world=" .. type(ctx.world.ssm.GetParameter),
    "pairs=" .. env.table.concat(names, ","),
    "leaked=" .. env.tostring(env.Leaked),  -- the caller's own global
    "module_leaked=" .. tostring(Leaked),   -- this module's
  }
  return env.table.concat(seen, ";")
end

return I
