-- moonstack.stub: a declaration for a resource type that no provider
-- implements, used with `--stub-unknown-types` so a template whose types
-- moonstack does not simulate (yet) still deploys.
--
-- A stub accepts every property and changes nothing anywhere: create makes up
-- a physical ID, every update is "No interruption" (the hook does nothing),
-- delete does nothing. Fn::GetAtt on a stub gives a placeholder string,
-- `<physical id>.<attribute>`, for any attribute name (`any_attributes`).
--
--   local stub = require("moonstack.stub")
--   local decl = stub.define("Acme::Queue::Thing", { attributes = { "Arn" } })
--
-- The host serves stubs itself (host/lua/provider_host.cc); nothing in a
-- provider file uses this module.

local P = require("moonstack.provider")
local ids = require("moonstack.ids")
local custom = require("moonstack.custom")  -- canonical text of plain data

local S = {}

---The physical ID of a stub resource: `<stack>-<logical id>-<13 [A-Z0-9]>`,
---the shape of the names CloudFormation generates. The suffix is a hash of
---the type, stack, logical ID, clock and properties, so a run replays with
---the same IDs, and a replacement (different properties) gets a new one.
---@param type_name string
---@param ctx moonstack.Context|table
---@param props table?
---@return string
function S.physical_id(type_name, ctx, props)
  local stack = ctx.stack_name ~= nil and ctx.stack_name ~= "" and ctx.stack_name or "stack"
  local logical = ctx.logical_id ~= nil and ctx.logical_id ~= "" and ctx.logical_id or "Resource"
  local seed = custom.canonical({ type_name, stack, logical, ctx.now_ms or 0, props or {} })
  return stack .. "-" .. logical .. "-" .. ids.new(seed):upper_alnum(13)
end

---The placeholder Fn::GetAtt gives for attribute `name` of stub `id`.
---@param id string
---@param name string
---@return string
function S.attribute(id, name) return id .. "." .. name end

---A declaration for `type_name` that accepts everything (see the top of this file).
---@param type_name string a resource type name ("Service::Category::Resource")
---@param opts { attributes: string[]? }? attributes known for the type (AWS's, from the catalog): create returns a placeholder for each
---@return moonstack.Declaration
function S.define(type_name, opts)
  opts = opts or {}
  local attributes = opts.attributes or {}
  return P.define({
    type = type_name,
    description = "stub for a type no provider implements (--stub-unknown-types)",
    additional_properties = "none",
    attributes = attributes,
    any_attributes = true,
    create = function(ctx, props)
      local id = S.physical_id(type_name, ctx, props)
      local attrs = {}
      for _, name in ipairs(attributes) do attrs[name] = S.attribute(id, name) end
      return { id = id, attributes = attrs }
    end,
    update = function() end,  -- nothing to change: attributes stay as they are
    delete = function() end,
  }, "moonstack.stub (" .. type_name .. ")")
end

return S
