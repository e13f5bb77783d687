-- moonstack.editor: the LuaLS stubs `moonstack provider new` writes.
local H = require("harness")
local E = require("moonstack.editor")
local T = H.suite("editor")

local here = (arg and arg[0] or ""):match("^(.*)[/\\][^/\\]*$") or "."

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local function has(text, part, label)
  H.truthy(text:find(part, 1, true), (label or "stub") .. " has " .. part .. "\n" .. text)
end
local function lacks(text, part, label)
  H.falsy(text:find(part, 1, true), (label or "stub") .. " lacks " .. part .. "\n" .. text)
end

T.case("a stub keeps the annotations, requires, tables and function signatures, and drops bodies", function()
  local stub = E.stub("acme.util", table.concat({
    "-- acme.util: helpers.",
    "local values = require(\"moonstack.values\")",
    "local M = {}",
    "local cache = setmetatable({}, { __mode = \"k\" })",
    "",
    "---@class acme.Thing",
    "---@field name string",
    "",
    "---Doubles n.",
    "---@param n number",
    "---@return number",
    "function M.double(n)",
    "  return 2 * n",
    "end",
    "function M.one_line(a) return a end",
    "---@param a string",
    "function M.multi(a,",
    "                 b)",
    "  error('x')",
    "end",
    "local function helper(x, y) return x end",
    "M.helper = helper",
    "M.LIMIT = 10",
    "M.copy = values.deep_copy",
    "M.hidden = some_local_table.field",
    "M.lambda = function(v, w)",
    "  return v",
    "end",
    "M.TABLE = { a = 1,",
    "  b = 2 }",
    "return M",
  }, "\n"))
  H.match(stub, "^%-%-%-@meta\n")
  has(stub, "local values = require(\"moonstack.values\")")
  has(stub, "local M = {}")
  has(stub, "---@class acme.Thing\n---@field name string")
  has(stub, "---Doubles n.\n---@param n number\n---@return number\nfunction M.double(n) end")
  has(stub, "function M.one_line(a) end")
  has(stub, "---@param a string\nfunction M.multi(a, b) end")
  has(stub, "M.helper = function(x, y) end")
  has(stub, "M.LIMIT = 10")
  has(stub, "M.copy = values.deep_copy")
  has(stub, "M.hidden = nil")
  has(stub, "M.lambda = function(v, w) end")
  has(stub, "M.TABLE = { a = 1,\n  b = 2 }")
  has(stub, "\nreturn M\n")
  lacks(stub, "2 * n")
  lacks(stub, "error('x')")
  lacks(stub, "local function helper")
  H.truthy(loadstring(stub), "the stub is Lua")
end)

T.case("every SDK module's stub is valid Lua and keeps its functions", function()
  for _, name in ipairs({ "provider", "tags", "ids", "log", "custom", "scenario", "values", "errors", "schema" }) do
    local stub = E.stub("moonstack." .. name, read(here .. "/../moonstack/" .. name .. ".lua"))
    local chunk, err = loadstring(stub, name)
    H.truthy(chunk, "stub of moonstack." .. name .. " parses: " .. tostring(err))
  end
  local provider = E.stub("moonstack.provider", read(here .. "/../moonstack/provider.lua"))
  has(provider, "function P.define(input, source) end")
  has(provider, "---@class moonstack.Context")
  has(provider, "---@field log moonstack.Logger")
  has(provider, "function P.in_progress(opts) end")
  has(provider, "P.fail = errors.fail")
  has(provider, "P.log = log.of")
  has(provider, "function Declaration:validate(props, ctx) end")
end)

T.case("the sim client stub lists each service's actions, as the loaded modules define them", function()
  local fake = {
    SERVICES = { "zeta", "alpha" },
  }
  package.loaded["sim.alpha"] = { CreateThing = function() end, DeleteThing = function() end, helper = function() end,
    CONSTANT = "x" }
  package.loaded["sim.zeta"] = { Ping = function() end }
  local stub = E.sim_client(fake)
  package.loaded["sim.alpha"], package.loaded["sim.zeta"] = nil, nil
  has(stub, "---@class sim.Client\n---@field alpha sim.client.alpha\n---@field zeta sim.client.zeta\n")
  has(stub, "---@class sim.client.alpha\n---@field CreateThing fun(request: table?): table\n"
    .. "---@field DeleteThing fun(request: table?): table\n")
  has(stub, "---@class sim.client.zeta\n---@field Ping fun(request: table?): table")
  lacks(stub, "helper")
  lacks(stub, "CONSTANT")
end)

return T
