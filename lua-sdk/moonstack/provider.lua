-- moonstack.provider: what a provider file uses to declare a resource type,
-- and what the host uses to drive it.
--
--   local P = require("moonstack.provider")
--   return P.define({
--     type = "AWS::EC2::Subnet",
--     properties = {
--       P.string "VpcId"     { required = true, update = "replace" },
--       P.string "CidrBlock" { required = true, update = "replace" },
--       P.boolean "MapPublicIpOnLaunch" { update = "none", default = false },
--       P.tags "Tags" { update = "none" },
--     },
--     attributes = { "SubnetId", "VpcId", "CidrBlock" },
--     primary_identifier = "SubnetId",
--     create = function(ctx, props) ... return { id = id, attributes = {...} } end,
--     update = function(ctx, id, new, old, changed) ... end,
--     delete = function(ctx, id, props) ... end,
--   }, "providers/aws/ec2/subnet.lua")
--
-- Properties are a LIST so that order is kept and a property declared twice
-- is an error; a Lua table constructor with a repeated key keeps the last
-- one silently. The map form `properties = { VpcId = { type = "string" } }`
-- is accepted too, but there a duplicate cannot be detected and the order is
-- alphabetical.
--
-- Host-facing API (LuaLS types below): P.define returns a
-- moonstack.Declaration with :validate, :update_behavior, :change,
-- :check_result, and P.is_in_progress / P.error_message for hook results.

local values = require("moonstack.values")
local errors = require("moonstack.errors")
local msg = require("moonstack.messages")
local schema = require("moonstack.schema")
local constraints = require("moonstack.constraints")
local log = require("moonstack.log")

local P = {}

---@alias moonstack.UpdateBehavior "none"|"some"|"replace"|"unsupported"

---What the host passes to every hook.
---@class moonstack.Context
---@field stack_name string
---@field stack_id string?
---@field logical_id string
---@field region string
---@field account string
---@field stack_tags moonstack.Tag[]? the stack's tags (create-stack --tags), nil when none; see moonstack.tags.for_resource
---@field log moonstack.Logger
---@field world sim.Client     the simulated cloud's client: ctx.world.ec2.RunInstances{...} (sim.client(ctx))
---@field clock any            current (possibly virtual) time; hooks never sleep
---@field update_policy table? the resource's UpdatePolicy (during rollback: the one of the template rolled back to)
---@field old_update_policy table? update and rollback hooks: the other template's UpdatePolicy (update: the previous one; rollback: the failed update's)
---@field progress table?      nil on a hook's first call; the `context` of the P.in_progress the hook returned last time on a re-call

---@class moonstack.CreateResult
---@field id string                 the physical ID (what Ref returns)
---@field attributes table<string, any>?  values for Fn::GetAtt

---@class moonstack.UpdateResult
---@field attributes table<string, any>?  attributes that changed (others are kept)

---@class moonstack.ReadResult
---@field properties table<string, any>   the resource as it is now (drift, out-of-band changes)
---@field attributes table<string, any>?

---@class moonstack.InProgress
---@field in_progress true
---@field after number     seconds until the engine calls the hook again
---@field context table    handed back as ctx.progress on that call

---The table a provider file passes to P.define.
---@class moonstack.DeclarationInput
---@field type string  "AWS::EC2::Subnet", "Custom::Thing"
---@field source string? the provider file (or pass it as P.define's 2nd argument)
---@field description string?
---@field properties (moonstack.PropertyBuilder[])|table<string, table|moonstack.PropertyBuilder>?
---@field attributes string[]?  names Fn::GetAtt may ask for
---@field primary_identifier string|string[]? the attribute or property equal to the physical ID; a list for a compound identifier (the physical ID is their values joined with "|", as CloudFormation's)
---@field additional_properties moonstack.UpdateBehavior|fun(old: any, new: any, ctx: moonstack.Context, old_props: table, new_props: table): moonstack.UpdateBehavior|nil  accept undeclared properties (Custom:: resources), with this update behaviour; nil rejects them
---@field leaves_partial_updates boolean? a failed update may have applied part of the change, so update rollback must roll this resource back too (default false: a failed update changed nothing)
---@field replaces_in_update boolean? update and rollback may return { id = ... }: a physical ID other than the current one means the update replaced the resource and the engine deletes the old one in cleanup (custom resources, whose handler decides; default false: replacement is the engine's decision)
---@field any_attributes boolean? hooks may return attributes that are not declared, and Fn::GetAtt may ask for any name (custom resources' Data, stub types; default false)
---@field timeout_minutes integer? how long one create, update, delete or rollback may take, in-progress answers included, before the engine fails it with "Resource timed out waiting for completion" (the registry schema's handlers' timeoutInMinutes: 1-2160; default 120)
---@field create fun(ctx: moonstack.Context, props: table): moonstack.CreateResult|moonstack.InProgress
---@field update (fun(ctx: moonstack.Context, id: string, new: table, old: table, changed: string[]): moonstack.UpdateResult|moonstack.InProgress|nil)?
---@field delete fun(ctx: moonstack.Context, id: string, props: table): moonstack.InProgress|nil
---@field rollback (fun(ctx: moonstack.Context, id: string, restore: table, current: table, changed: string[]): moonstack.UpdateResult|moonstack.InProgress|nil)?  default: update(ctx, id, restore, current, changed)
---@field read (fun(ctx: moonstack.Context, id: string, props: table): moonstack.ReadResult|nil)?  nil result: the resource is gone
---@field list (fun(ctx: moonstack.Context): string[])?  the physical IDs of every resource of the type (the registry's list handler)

---One declared property, normalized.
---@class moonstack.Property
---@field name string
---@field type "string"|"number"|"integer"|"boolean"|"list"|"map"|"json"|"tags"
---@field items moonstack.Spec?  element type (list) / value type (map)
---@field required boolean
---@field default any
---@field allowed any[]?
---@field pattern string?        as declared
---@field regex string?          as declared (ECMAScript, moonstack.regex)
---@field minimum number?
---@field maximum number?
---@field min_length integer?    characters (strings) or items (lists)
---@field max_length integer?
---@field write_only boolean     never returned by read, never compared for drift
---@field properties moonstack.Property[]?  object types: the sub-properties
---@field update moonstack.UpdateBehavior|"conditional"  "conditional" when a function decides at run time
---@field update_fn function?    that function
---@field description string?

-- Update behaviours -----------------------------------------------------------

---Severity of each behaviour: a resource's change is its most severe one.
P.SEVERITY = { none = 1, some = 2, replace = 3, unsupported = 4 }

---The behaviour of a property declared without `update`. "replace" is the
---safe choice: a property nobody said can change in place is never handed to
---an update hook that may silently ignore it; the worst case is an
---unnecessary (and visible) replacement.
P.DEFAULT_UPDATE = "replace"

---The more severe of two behaviours (nil counts as "no change").
---@param a moonstack.UpdateBehavior?
---@param b moonstack.UpdateBehavior?
---@return moonstack.UpdateBehavior?
function P.most_severe(a, b)
  if a == nil then return b end
  if b == nil then return a end
  return P.SEVERITY[a] >= P.SEVERITY[b] and a or b
end

-- Types (see moonstack.schema) --------------------------------------------------

---@type moonstack.Type
P.string = schema.string
---@type moonstack.Type
P.number = schema.number
---@type moonstack.Type
P.integer = schema.integer
---@type moonstack.Type
P.boolean = schema.boolean
---A list; `P.list(P.string)` for typed elements.
---@type moonstack.Type
P.list = schema.list
---An object; `P.map(P.string)` for typed values.
---@type moonstack.Type
P.map = schema.map
---Any JSON value, passed through unchanged (policy documents, user data).
---@type moonstack.Type
P.json = schema.json
---CloudFormation's Tags: [{ Key = ..., Value = ... }] (see moonstack.tags).
---@type moonstack.Type
P.tags = schema.tags
P.prop = schema.prop

-- Results and errors ------------------------------------------------------------

local InProgressMT = {}
InProgressMT.__index = InProgressMT

---"Not done yet: call me again in `after` seconds." The engine calls the SAME
---hook again, with the same arguments and `ctx.progress` set to `context`.
---`context` must survive JSON persistence (no functions), since the engine
---journals it and may resume after a restart. `id` (create only) is the
---physical ID once the resource exists but is not ready yet (an instance
---still booting): the engine shows it in "Resource creation Initiated".
---`reason` reports progress: a string, or a list of strings, each recorded as
---an event of the resource with that status reason while its status stays
---`…_IN_PROGRESS` (how AWS shows a rolling update's steps).
---@param opts { after: number, context: table?, id: string?, reason: string|string[]? }
---@return moonstack.InProgress
function P.in_progress(opts)
  if type(opts) ~= "table" then
    error("P.in_progress: expected { after = seconds, context = {...} }", 2)
  end
  for k in pairs(opts) do
    if k ~= "after" and k ~= "context" and k ~= "id" and k ~= "reason" then
      error(string.format('P.in_progress: unknown field "%s"', tostring(k)), 2)
    end
  end
  local after = opts.after
  if type(after) ~= "number" or after ~= after or after < 0 or after == math.huge then
    error("P.in_progress: after must be a number of seconds >= 0", 2)
  end
  local context = opts.context
  if context == nil then context = {} end
  if type(context) ~= "table" then error("P.in_progress: context must be a table", 2) end
  local ok, why = values.is_plain(context)
  if not ok then
    error("P.in_progress: context must survive JSON persistence but holds " .. why, 2)
  end
  if opts.id ~= nil and (type(opts.id) ~= "string" or opts.id == "") then
    error("P.in_progress: id must be a non-empty string", 2)
  end
  local reasons = {}
  if type(opts.reason) == "string" then
    reasons[1] = opts.reason
  elseif type(opts.reason) == "table" then
    for i, r in ipairs(opts.reason) do
      if type(r) ~= "string" then error("P.in_progress: reason[" .. i .. "] must be a string", 2) end
      reasons[i] = r
    end
  elseif opts.reason ~= nil then
    error("P.in_progress: reason must be a string or a list of strings", 2)
  end
  return setmetatable({ in_progress = true, after = after, context = context, id = opts.id, reasons = reasons },
    InProgressMT)
end

---True for a value returned by P.in_progress.
---@param r any
---@return boolean
function P.is_in_progress(r)
  return type(r) == "table" and getmetatable(r) == InProgressMT
end

---Fail the hook with AWS's message; the engine records it as the resource's
---status reason. `code` is an optional handler error code ("NotFound",
---"AlreadyExists", "InvalidRequest", "ResourceConflict", ...).
---@param message string
---@param code string?
P.fail = errors.fail
---An error value, not raised (to return from a helper, or raise later).
P.error = errors.new
P.is_error = errors.is_error
---Message and code of anything a hook raised (SDK error, string, other).
P.error_message = errors.message

---The context's logger, or one that drops everything.
P.log = log.of

---An object with typed sub-properties; P.list(P.object {...}) for a list of them.
P.object = schema.object

---JSON null as the host represents it (nil outside a host).
P.null = values.null
P.deep_equal = values.deep_equal
P.deep_copy = values.deep_copy

-- Declaration -------------------------------------------------------------------

---@class moonstack.Declaration
---@field type string
---@field source string?
---@field description string?
---@field properties moonstack.Property[]   in declaration order
---@field attributes string[]               in declaration order
---@field primary_identifier string?       the first (or only) primary identifier
---@field primary_identifiers string[]     every primary identifier, in order (compound identifiers)
---@field additional_properties moonstack.UpdateBehavior|"conditional"|nil
---@field leaves_partial_updates boolean
---@field replaces_in_update boolean       update/rollback may return a new id (see DeclarationInput)
---@field any_attributes boolean           attributes need not be declared
---@field timeout_minutes integer?         see DeclarationInput
---@field create function
---@field update function?
---@field delete function
---@field rollback function?
---@field rollback_is_default boolean       rollback is update with old and new swapped
---@field read function?
---@field list function?
local Declaration = {}
Declaration.__index = Declaration

local KNOWN_FIELDS = {
  type = true, source = true, description = true, properties = true, attributes = true,
  primary_identifier = true, additional_properties = true, leaves_partial_updates = true,
  replaces_in_update = true, any_attributes = true, timeout_minutes = true, create = true, update = true, delete = true, rollback = true, read = true,
  list = true,
}
local KNOWN_OPTIONS = {
  required = true, default = true, allowed = true, pattern = true, update = true, description = true,
  regex = true, minimum = true, maximum = true, min_length = true, max_length = true, write_only = true,
}
-- What a sub-property of P.object cannot say: its changes are changes of
-- the top-level property, and write-only is a top-level matter.
local TOP_LEVEL_ONLY = { update = true, write_only = true }
local SCALAR = { string = true, number = true, integer = true, boolean = true }

local function is_behavior(x) return type(x) == "string" and P.SEVERITY[x] ~= nil end

local function repr(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "table" then return "a table" end
  return tostring(v)
end

-- Resource type names: three "::"-separated alphanumeric parts, or Custom::
-- and a name of letters, digits and _@- (CloudFormation's custom type rule).
local function valid_type_name(t)
  if t:match("^Custom::[%w_@%-]+$") then return #t <= 68 end
  return t:match("^%w+::%w+::%w+$") ~= nil
end

local anchored = constraints.anchored

-- `value` holds exactly the declared type (a default or allowed value): it
-- coerces to itself. Authors get no coercion; templates do.
local function strictly_typed(value, spec)
  local c = schema.coerce(value, spec, "x")
  return c ~= nil and values.deep_equal(c, value)
end

local normalize_property  -- forward: object types hold properties

-- A spec with its object types' sub-properties normalized (a new table:
-- the same P.object may be used by several properties).
local function normalize_spec(bad, where, spec)
  if spec.type == "object" then
    if spec.problem then bad(where .. spec.problem) end
    local props, by_name = {}, {}
    for i, e in ipairs(spec.fields) do
      if not schema.is_prop(e) or e.name == nil then
        bad(where .. string.format('P.object entry %d: expected a property such as P.string "Name"', i))
      end
      local sp = normalize_property(bad, e.name, e.spec, e.opts, e.problems, where)
      if by_name[sp.name] then bad(where .. "sub-property " .. sp.name .. " declared twice") end
      by_name[sp.name] = sp
      props[i] = sp
    end
    return { type = "object", properties = props, by_name = by_name }
  end
  if spec.items then return { type = spec.type, items = normalize_spec(bad, where, spec.items) } end
  return spec
end

local function check_number_option(bad, where, opts, k, whole)
  local v = opts[k]
  if v == nil then return nil end
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge or (whole and (v < 0 or v ~= math.floor(v))) then
    bad(where .. k .. (whole and " must be a whole number >= 0" or " must be a number"))
  end
  return v
end

-- The constraint options (bounds, lengths, regex), checked against the type.
local function normalize_constraints(bad, where, spec, opts, p)
  p.minimum = check_number_option(bad, where, opts, "minimum")
  p.maximum = check_number_option(bad, where, opts, "maximum")
  if (p.minimum or p.maximum) and spec.type ~= "number" and spec.type ~= "integer" then
    bad(where .. "minimum and maximum apply to number and integer properties")
  end
  if p.minimum and p.maximum and p.minimum > p.maximum then bad(where .. "minimum is greater than maximum") end
  p.min_length = check_number_option(bad, where, opts, "min_length", true)
  p.max_length = check_number_option(bad, where, opts, "max_length", true)
  if (p.min_length or p.max_length) and spec.type ~= "string" and spec.type ~= "list" and spec.type ~= "tags" then
    bad(where .. "min_length and max_length apply to string and list properties")
  end
  if p.min_length and p.max_length and p.min_length > p.max_length then
    bad(where .. "min_length is greater than max_length")
  end
  if opts.regex ~= nil then
    if spec.type ~= "string" then bad(where .. "regex applies to string properties only") end
    if type(opts.regex) ~= "string" then bad(where .. "regex must be a string (an ECMAScript regular expression)") end
    local ok, why = constraints.compile_regex(opts.regex)
    if not ok then
      bad(where .. string.format("regex \"%s\" uses %s, which moonstack.regex does not support", opts.regex, tostring(why)))
    end
    p.regex = opts.regex
  end
end

-- One property entry -> normalized moonstack.Property, or raise via `bad`.
-- `parent` is set for a sub-property of P.object ("property Config: ").
normalize_property = function(bad, name, spec, opts, problems, parent)
  if type(name) ~= "string" or name == "" then bad((parent or "") .. "property with no name") end
  local where = (parent or "") .. (parent and "sub-property " or "property ") .. name .. ": "
  if problems and problems[1] then bad(where .. problems[1]) end
  for _, k in ipairs(values.sorted_keys(opts)) do
    if not KNOWN_OPTIONS[k] then bad(where .. string.format('unknown option "%s"', tostring(k))) end
    if parent and TOP_LEVEL_ONLY[k] then bad(where .. k .. " applies to top-level properties only") end
  end
  spec = normalize_spec(bad, where, spec)
  if spec.type == "tags" and spec.items then bad(where .. "tags does not take an element type") end
  if spec.items then
    local s = spec.items
    while s do
      if s.type == "tags" then bad(where .. "tags cannot be an element type") end
      s = s.items
    end
  end

  local p = {
    name = name, type = spec.type, items = spec.items, description = opts.description,
    properties = spec.properties, by_name = spec.by_name,
  }
  if opts.write_only ~= nil and type(opts.write_only) ~= "boolean" then
    bad(where .. "write_only must be true or false")
  end
  p.write_only = opts.write_only == true
  normalize_constraints(bad, where, spec, opts, p)

  if opts.required ~= nil and type(opts.required) ~= "boolean" then
    bad(where .. "required must be true or false")
  end
  p.required = opts.required == true

  local u = opts.update
  if u == nil then
    p.update = P.DEFAULT_UPDATE
  elseif type(u) == "function" then
    p.update, p.update_fn = "conditional", u
  elseif is_behavior(u) then
    p.update = u
  else
    bad(where .. string.format("unknown update behaviour %s (expected none, some, replace, unsupported or a function)", repr(u)))
  end

  if opts.allowed ~= nil then
    if not SCALAR[spec.type] then
      bad(where .. "allowed values apply to string, number, integer and boolean properties")
    end
    if not values.is_array(opts.allowed) or #opts.allowed == 0 then
      bad(where .. "allowed must be a non-empty list")
    end
    for _, a in ipairs(opts.allowed) do
      if not strictly_typed(a, spec) then
        bad(where .. string.format("allowed value %s is not a %s", repr(a), spec.type))
      end
    end
    p.allowed = values.deep_copy(opts.allowed)
  end

  if opts.pattern ~= nil then
    if spec.type ~= "string" then bad(where .. "pattern applies to string properties only") end
    if type(opts.pattern) ~= "string" then bad(where .. "pattern must be a string (a Lua pattern)") end
    local ok, err = pcall(string.find, "", anchored(opts.pattern))
    if not ok then bad(where .. string.format("invalid pattern %q: %s", opts.pattern, tostring(err))) end
    p.pattern = opts.pattern
  end

  if opts.default ~= nil then
    if p.required then bad(where .. "a required property cannot have a default") end
    if not strictly_typed(opts.default, spec) then
      bad(where .. string.format("default %s is not a %s", repr(opts.default), schema.describe_spec(spec)))
    end
    if p.allowed then
      local found = false
      for _, a in ipairs(p.allowed) do if a == opts.default then found = true end end
      if not found then bad(where .. string.format("default %s is not one of the allowed values", repr(opts.default))) end
    end
    if p.pattern and not opts.default:find(anchored(p.pattern)) then
      bad(where .. string.format("default %s does not match the pattern", repr(opts.default)))
    end
    local _, why = constraints.check(p, opts.default, "#/" .. name)
    if why then bad(where .. string.format("default %s fails its own constraints (%s)", repr(opts.default), why)) end
    p.default = values.deep_copy(opts.default)
  end
  return p
end

-- The declaration's property entries, whichever form was used, as
-- { name, spec, opts, problems } in order.
local function property_entries(bad, props)
  if props == nil then return {} end
  if type(props) ~= "table" or schema.is_type(props) or schema.is_prop(props) then
    bad("properties must be a list of properties (or a map of name -> options)")
  end
  local n, has_string_keys = #props, false
  for k in pairs(props) do
    if type(k) == "string" then has_string_keys = true
    elseif not (values.is_integral(k) and k >= 1 and k <= n) then
      bad("properties: unexpected key " .. repr(k))
    end
  end
  if n > 0 and has_string_keys then
    bad("properties: mix of the list form and the map form")
  end
  local out = {}
  if n > 0 or not has_string_keys then
    for i = 1, n do
      local e = props[i]
      if not schema.is_prop(e) then
        if schema.is_type(e) then
          bad(string.format("properties[%d]: a type without a name (write P.string \"Name\")", i))
        end
        bad(string.format('properties[%d]: expected a property such as P.string "Name", got %s', i, repr(e)))
      end
      if e.name == nil then bad(string.format("properties[%d]: property with no name", i)) end
      out[i] = { name = e.name, spec = e.spec, opts = e.opts, problems = e.problems }
    end
    return out
  end
  -- Map form: name -> options table (with type/items) or an unnamed property.
  for _, name in ipairs(values.sorted_keys(props)) do
    local e = props[name]
    if schema.is_prop(e) then
      if e.name ~= nil and e.name ~= name then
        bad(string.format("property %s: declared under the key %s", e.name, name))
      end
      out[#out + 1] = { name = name, spec = e.spec, opts = e.opts, problems = e.problems }
    elseif schema.is_type(e) then
      out[#out + 1] = { name = name, spec = e.spec, opts = {}, problems = {} }
    elseif type(e) == "table" then
      local spec, why = schema.normalize_spec({ type = e.type, items = e.items })
      if not spec then bad("property " .. name .. ": " .. why) end
      local opts = {}
      for k, v in pairs(e) do if k ~= "type" and k ~= "items" then opts[k] = v end end
      out[#out + 1] = { name = name, spec = spec, opts = opts, problems = {} }
    else
      bad(string.format("property %s: expected an options table, got %s", name, repr(e)))
    end
  end
  return out
end

-- The file the host is loading. A provider file calls P.define itself, so
-- the host cannot pass its path as an argument; it sets it here around the
-- load instead (no debug library needed to find it).
local loading_source = nil

---Host: name the provider file about to be loaded (nil when done). P.define
---uses it when the declaration names no source. Returns the previous value.
---@param path string?
---@return string?
function P.set_source(path)
  local previous = loading_source
  loading_source = path
  return previous
end

---Declare a resource type. Raises "<source>: <problem>" on a mistake in the
---declaration, so the host can report which provider file is wrong. The
---source is, in order: the 2nd argument, `input.source`, the path the host
---set with P.set_source, or "provider <type>".
---@param input moonstack.DeclarationInput
---@param source string? the provider file
---@return moonstack.Declaration
function P.define(input, source)
  if source == nil and type(input) == "table" and type(input.source) == "string" then source = input.source end
  if source == nil then source = loading_source end
  local where = source
  if where == nil then
    local t = type(input) == "table" and input.type
    where = type(t) == "string" and ("provider " .. t) or "provider"
  end
  local function bad(problem) error(where .. ": " .. problem, 0) end

  if type(input) ~= "table" or schema.is_type(input) or schema.is_prop(input) then
    bad("P.define expects a table")
  end
  for _, k in ipairs(values.sorted_keys(input)) do
    if not KNOWN_FIELDS[k] then bad(string.format('unknown field "%s"', tostring(k))) end
  end
  if input.type == nil then bad('missing type (the resource type name, e.g. "AWS::EC2::Subnet")') end
  if type(input.type) ~= "string" or not valid_type_name(input.type) then
    bad(string.format('type %s is not a resource type name (expected "Service::Category::Resource" or "Custom::Name")', repr(input.type)))
  end
  if input.description ~= nil and type(input.description) ~= "string" then bad("description must be a string") end
  local timeout = input.timeout_minutes
  if timeout ~= nil and (type(timeout) ~= "number" or timeout ~= math.floor(timeout) or timeout < 1 or timeout > 2160) then
    bad("timeout_minutes must be a whole number of minutes from 1 to 2160")
  end

  local decl = setmetatable({
    type = input.type, source = source, description = input.description,
    properties = {}, attributes = {},
    leaves_partial_updates = input.leaves_partial_updates == true,
    replaces_in_update = input.replaces_in_update == true,
    any_attributes = input.any_attributes == true,
    timeout_minutes = timeout,
    rollback_is_default = false,
  }, Declaration)
  local by_name, attr_set = {}, {}
  rawset(decl, "_by_name", by_name)
  rawset(decl, "_attr_set", attr_set)

  for _, e in ipairs(property_entries(bad, input.properties)) do
    local p = normalize_property(bad, e.name, e.spec, e.opts, e.problems)
    if by_name[p.name] then bad("property " .. p.name .. " declared twice") end
    by_name[p.name] = p
    decl.properties[#decl.properties + 1] = p
  end

  local attrs = input.attributes
  if attrs ~= nil then
    if not values.is_array(attrs) then bad("attributes must be a list of names") end
    for i, a in ipairs(attrs) do
      if type(a) ~= "string" or a == "" then bad(string.format("attributes[%d] must be a non-empty string", i)) end
      if attr_set[a] then bad("attribute " .. a .. " declared twice") end
      attr_set[a] = true
      decl.attributes[#decl.attributes + 1] = a
    end
  end

  local pid = input.primary_identifier
  decl.primary_identifiers = {}
  if pid ~= nil then
    local list = type(pid) == "table" and pid or { pid }
    if type(pid) == "table" and (not values.is_array(pid) or #pid == 0) then
      bad("primary_identifier must be a name or a non-empty list of names")
    end
    for _, one in ipairs(list) do
      if type(one) ~= "string" or not (attr_set[one] or by_name[one]) then
        bad(string.format("primary_identifier %s is not a declared attribute or property", repr(one)))
      end
      decl.primary_identifiers[#decl.primary_identifiers + 1] = one
    end
    decl.primary_identifier = decl.primary_identifiers[1]
  end

  local ap = input.additional_properties
  if ap ~= nil then
    if type(ap) == "function" then
      decl.additional_properties = "conditional"
      rawset(decl, "_additional_fn", ap)
    elseif is_behavior(ap) then
      decl.additional_properties = ap
    else
      bad(string.format("additional_properties must be an update behaviour (none, some, replace, unsupported) or a function, got %s", repr(ap)))
    end
  end

  for _, flag in ipairs({ "leaves_partial_updates", "replaces_in_update", "any_attributes" }) do
    if input[flag] ~= nil and type(input[flag]) ~= "boolean" then bad(flag .. " must be true or false") end
  end

  for _, hook in ipairs({ "create", "update", "delete", "rollback", "read", "list" }) do
    local f = input[hook]
    if f ~= nil and type(f) ~= "function" then bad(hook .. " must be a function") end
  end
  if input.create == nil then bad("missing create hook") end
  if input.delete == nil then bad("missing delete hook") end
  if input.update == nil then
    -- Only a resource whose every change is a replacement (or refused) can
    -- live without an update hook.
    for _, p in ipairs(decl.properties) do
      if p.update ~= "replace" and p.update ~= "unsupported" then
        local how = p.update == "conditional" and "a function" or string.format('"%s"', p.update)
        bad(string.format("missing update hook (property %s has update = %s)", p.name, how))
      end
    end
    if decl.additional_properties and decl.additional_properties ~= "replace"
        and decl.additional_properties ~= "unsupported" then
      bad("missing update hook (additional_properties can be updated in place)")
    end
    if input.rollback ~= nil then bad("rollback without an update hook") end
  end
  decl.create, decl.update, decl.delete, decl.read = input.create, input.update, input.delete, input.read
  decl.list = input.list
  if input.rollback then
    decl.rollback = input.rollback
  elseif input.update then
    local update = input.update
    -- Rolling an in-place update back is updating again, towards the old
    -- properties.
    decl.rollback = function(ctx, id, restore, current, changed)
      return update(ctx, id, restore, current, changed)
    end
    decl.rollback_is_default = true
  end
  return decl
end

---True for a value returned by P.define.
---@param x any
---@return boolean
function P.is_declaration(x) return getmetatable(x) == Declaration end

---The declared property `name`, or nil.
---@param name string
---@return moonstack.Property?
function Declaration:property(name) return rawget(self, "_by_name")[name] end

---True when `name` is a declared attribute.
---@param name string
---@return boolean
function Declaration:has_attribute(name) return rawget(self, "_attr_set")[name] == true end

local function logical_id(ctx)
  return type(ctx) == "table" and type(ctx.logical_id) == "string" and ctx.logical_id or nil
end

-- A registry schema's bound: a number, or nil.
local function schema_number(v) return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge and v or nil end
local function schema_count(v)
  v = schema_number(v)
  return v and v >= 0 and v == math.floor(v) and v or nil
end

-- A registry enum the SDK can hold as `allowed` values of a property whose
-- values are Lua `kind`s ("string", "number"): all of that kind, or nil.
local function schema_enum(list, kind)
  if type(list) ~= "table" or #list == 0 then return nil end
  for _, v in ipairs(list) do if type(v) ~= kind then return nil end end
  return values.deep_copy(list)
end

-- The property types whose values have inside them what the registry's
-- nested checks look at (tags are the SDK's own: P.tags).
local STRUCTURED = { json = true, list = true, object = true, map = true }

---Adds to the declared top-level properties the registry schema's
---constraints of the kinds they declare none of: CloudFormation checks a
---template's properties against the registry schema before any handler
---runs, whatever the handler checks itself. The host calls it for an AWS
---type, with the "properties" of its schema (engine/catalog). Taken is what
---validate checks the same way: minimum/maximum and an enum of numbers of
---number and integer properties; minLength/maxLength, a pattern
---moonstack.regex can read and an enum of strings of string properties;
---minItems/maxItems of lists.
---`nested(name, value)`, when given, returns the registry's messages for
---the value of property `name` (its nested properties, types, enums,
---patterns...; an empty list when it passes): validate fails with them,
---once the property's own checks pass. It is taken for the structured
---properties — json, list, object and map — but not tags.
---@param schema_properties table<string, table>?
---@param nested (fun(name: string, value: any): string[])?
function Declaration:adopt_registry_constraints(schema_properties, nested)
  if type(schema_properties) ~= "table" then return end
  for _, p in ipairs(self.properties) do
    local s = schema_properties[p.name]
    if type(s) == "table" then
      if nested and p.registry_check == nil and STRUCTURED[p.type] then
        local name = p.name
        p.registry_check = function(v) return nested(name, v) end
      end
      if p.type == "number" or p.type == "integer" then
        if p.minimum == nil and p.maximum == nil then
          p.minimum, p.maximum = schema_number(s.minimum), schema_number(s.maximum)
        end
        if p.allowed == nil then p.allowed = schema_enum(s.enum, "number") end
      elseif p.type == "string" then
        if p.min_length == nil and p.max_length == nil then
          p.min_length, p.max_length = schema_count(s.minLength), schema_count(s.maxLength)
        end
        if p.regex == nil and p.pattern == nil and type(s.pattern) == "string"
            and constraints.compile_regex(s.pattern) ~= nil then
          p.regex = s.pattern
        end
        if p.allowed == nil then p.allowed = schema_enum(s.enum, "string") end
      elseif p.type == "list" and p.min_length == nil and p.max_length == nil then
        p.min_length, p.max_length = schema_count(s.minItems), schema_count(s.maxItems)
      end
    end
  end
end

local function invalid(message) errors.fail(message, "InvalidRequest") end

---Validate a resource's (fully evaluated) template properties and return a
---coerced copy with defaults filled in. Raises a moonstack.Error with AWS's
---message (code "InvalidRequest"):
---  undeclared property      Encountered unsupported property X
---  missing required ones    Properties validation failed for resource L with message: #: required key [X] not found
---  wrong type               Value of property X must be of type String / List / List of String / Boolean / Integer,
---                           Encountered non numeric value for property X, Value of property X must be an object
---  not an allowed value     ... with message: #/X: failed validation constraint for keyword [enum]
---  pattern or regex mismatch ... with message: #/X: failed validation constraint for keyword [pattern]
---  bounds and lengths       ... #/X: 11 is not less or equal to 10, #/X: expected maxLength: 3, actual: 4,
---                           #/X: expected minimum item count: 1, found: 0
---  P.object sub-properties  ... #/X: required key [K] not found, #/X: extraneous key [K] is not permitted,
---                           #/X/K: expected type: Integer, found: String (and the above, at #/X/K)
---A JSON null counts as absent. `ctx.logical_id` names the resource in the
---registry-style messages.
---@param props table?
---@param ctx moonstack.Context|{ logical_id: string }?
---@return table
function Declaration:validate(props, ctx)
  local lid = logical_id(ctx)
  if values.is_absent(props) then props = {} end
  if not values.is_object(props) then invalid(msg.must_be_object("Properties")) end
  local by_name = rawget(self, "_by_name")

  if self.additional_properties == nil then
    -- The first undeclared one in key order (all keys are strings here),
    -- without sorting them all: this runs for every resource.
    local unsupported
    for k in pairs(props) do
      if not by_name[k] and (unsupported == nil or k < unsupported) then unsupported = k end
    end
    if unsupported ~= nil then invalid(msg.unsupported_property(unsupported)) end
  end

  local missing  -- made only when one is missing
  for _, p in ipairs(self.properties) do
    if p.required and values.is_absent(props[p.name]) then
      missing = missing or {}
      missing[#missing + 1] = msg.required_key("#", p.name)
    end
  end
  if missing then invalid(msg.schema(lid, table.concat(missing, "\n"))) end

  local out = {}
  local nested  -- the registry's nested messages, all properties' together (made only when one fails)
  for _, p in ipairs(self.properties) do
    local v = props[p.name]
    if values.is_absent(v) then
      if p.default ~= nil then out[p.name] = values.deep_copy(p.default) end
    else
      local c, why = schema.coerce(v, p, p.name, lid)
      if c == nil then invalid(why) end
      local checked, fails = constraints.check(p, c, "#/" .. p.name, lid)
      if fails then invalid(msg.schema(lid, fails)) end
      if p.registry_check then
        for _, e in ipairs(p.registry_check(checked)) do
          nested = nested or {}
          nested[#nested + 1] = e
        end
      end
      out[p.name] = checked
    end
  end
  if nested then invalid(msg.schema(lid, table.concat(nested, "\n"))) end
  if self.additional_properties ~= nil then
    for k, v in pairs(props) do
      if not by_name[k] and not values.is_absent(v) then out[k] = values.deep_copy(v) end
    end
  end
  return out
end

local function checked_behavior(self, name, b)
  if not is_behavior(b) then
    error(string.format('%s: property %s: update function returned %s (expected "none", "some", "replace" or "unsupported")',
      self.source or ("provider " .. self.type), name, repr(b)), 0)
  end
  return b
end

---How a change of property `name` from `old` to `new` is carried out. Calls
---the property's function when it has one (with the whole old and new
---property tables as 4th and 5th arguments).
---@param name string
---@param old any
---@param new any
---@param ctx moonstack.Context?
---@param old_props table?
---@param new_props table?
---@return moonstack.UpdateBehavior
function Declaration:update_behavior(name, old, new, ctx, old_props, new_props)
  local p = rawget(self, "_by_name")[name]
  local fn, static
  if p then
    fn, static = p.update_fn, p.update
  elseif self.additional_properties ~= nil then
    fn, static = rawget(self, "_additional_fn"), self.additional_properties
  else
    error(string.format("%s: property %s is not declared", self.source or ("provider " .. self.type), tostring(name)), 0)
  end
  if fn then return checked_behavior(self, name, fn(old, new, ctx, old_props or {}, new_props or {})) end
  return static
end

---@class moonstack.PropertyChange
---@field name string
---@field behavior moonstack.UpdateBehavior

---Compare two validated property tables. Returns the resource's behaviour
---(the most severe over changed properties: none < some < replace <
---unsupported), the changed names (declaration order, then undeclared ones
---alphabetically) and each one's behaviour. Nothing changed: nil, {}, {}.
---Values are compared structurally; JSON null equals absent.
---@param old_props table?
---@param new_props table?
---@param ctx moonstack.Context?
---@return moonstack.UpdateBehavior? behavior
---@return string[] changed
---@return moonstack.PropertyChange[] details
function Declaration:change(old_props, new_props, ctx)
  old_props = values.is_absent(old_props) and {} or old_props
  new_props = values.is_absent(new_props) and {} or new_props
  local names = {}
  for _, p in ipairs(self.properties) do names[#names + 1] = p.name end
  local by_name, extra = rawget(self, "_by_name"), {}
  for _, t in ipairs({ old_props, new_props }) do
    for k in pairs(t) do if not by_name[k] then extra[k] = true end end
  end
  for _, k in ipairs(values.sorted_keys(extra)) do names[#names + 1] = k end

  local worst, changed, details = nil, {}, {}
  for _, name in ipairs(names) do
    local o, n = old_props[name], new_props[name]
    if values.is_null(o) then o = nil end
    if values.is_null(n) then n = nil end
    if not values.deep_equal(o, n) then
      local b = self:update_behavior(name, o, n, ctx, old_props, new_props)
      changed[#changed + 1] = name
      details[#details + 1] = { name = name, behavior = b }
      worst = P.most_severe(worst, b)
    end
  end
  return worst, changed, details
end

local RESULT_FIELDS = {
  create = { id = true, attributes = true },
  update = { attributes = true },
  rollback = { attributes = true },
  read = { properties = true, attributes = true },
}
-- update and rollback of a declaration with replaces_in_update = true.
local REPLACING_FIELDS = { id = true, attributes = true }

---Check what a hook returned and normalize it; raises "<source>: <problem>"
---for a provider bug (an id from update, an undeclared attribute, a function
---in a result). In-progress values are returned as they are.
---  create   -> { id = string, attributes = table }
---  update, rollback -> { attributes = table? } (nil: attributes unchanged); with
---                      replaces_in_update also { id = string? }
---  delete   -> nil
---  read     -> { properties = table, attributes = table? } or nil (gone)
---@param hook "create"|"update"|"rollback"|"delete"|"read"
---@param r any
---@return table|nil
-- The smallest key of `t` that is not a key of `allowed`, or nil. Results
-- are checked on every hook call, so this scans once (no sort, no closure);
-- taking the smallest keeps the error deterministic.
local function first_key_outside(t, allowed)
  local found
  for k in pairs(t) do
    if allowed[k] == nil and (found == nil or tostring(k) < tostring(found)) then found = k end
  end
  return found
end

-- The smallest key whose value is not plain data, and why; nil when all are.
local function first_unplain(t)
  local found, why
  for k, v in pairs(t) do
    local tv = type(v)
    if tv ~= "string" and tv ~= "boolean" then  -- the common cases, cheaply
      local ok, reason = values.is_plain(v)
      if not ok and (found == nil or tostring(k) < tostring(found)) then found, why = k, reason end
    end
  end
  return found, why
end

-- Raises a provider bug found in a hook's result (no closure per call: results
-- are checked on every hook call).
local function bad_result(self, hook, problem)
  error((self.source or ("provider " .. self.type)) .. ": " .. hook .. " " .. problem, 0)
end

function Declaration:check_result(hook, r)
  if P.is_in_progress(r) then
    if hook == "read" then bad_result(self, hook, "cannot return P.in_progress") end
    return r
  end
  if hook == "delete" then
    if r ~= nil then bad_result(self, hook, "must return nothing or P.in_progress{...}, got " .. repr(r)) end
    return nil
  end
  if r == nil then
    if hook == "create" then bad_result(self, hook, "returned nothing (expected { id = ..., attributes = ... })") end
    if hook == "read" then return nil end
    return {}
  end
  if type(r) ~= "table" then bad_result(self, hook, "must return a table or P.in_progress{...}, got " .. repr(r)) end
  local fields = RESULT_FIELDS[hook]
  local replacing = self.replaces_in_update and (hook == "update" or hook == "rollback")
  if replacing then fields = REPLACING_FIELDS end
  if hook ~= "create" and r.id ~= nil and not replacing then
    bad_result(self, hook, 'must not return an id: replacement is the engine\'s decision (declare update = "replace")')
  end
  local unknown = first_key_outside(r, fields)
  if unknown ~= nil then bad_result(self, hook, string.format('returned unknown field "%s"', tostring(unknown))) end
  local out = {}
  if hook == "create" then
    if type(r.id) ~= "string" or r.id == "" then bad_result(self, hook, "returned no id (a non-empty string)") end
    out.id = r.id
  elseif r.id ~= nil then
    -- replaces_in_update: a new physical ID (the engine compares it with the current one).
    if type(r.id) ~= "string" or r.id == "" then bad_result(self, hook, "returned an id that is not a non-empty string") end
    out.id = r.id
  end
  if hook == "read" then
    if not values.is_object(r.properties) then bad_result(self, hook, "must return { properties = {...} } or nil") end
    out.properties = r.properties
    -- Write-only properties (passwords) are never read back, whatever the
    -- hook returned: nothing may show them or compare them for drift.
    for _, p in ipairs(self.properties) do
      if p.write_only and out.properties[p.name] ~= nil then
        out.properties = values.deep_copy(out.properties)
        for _, q in ipairs(self.properties) do if q.write_only then out.properties[q.name] = nil end end
        break
      end
    end
  end
  if r.attributes ~= nil then
    if not values.is_object(r.attributes) then bad_result(self, hook, "returned attributes that are not a table of name -> value") end
    local undeclared = not self.any_attributes and first_key_outside(r.attributes, rawget(self, "_attr_set")) or nil
    if undeclared ~= nil then bad_result(self, hook, string.format('returned undeclared attribute "%s"', undeclared)) end
    local unplain, why = first_unplain(r.attributes)
    if unplain ~= nil then bad_result(self, hook, string.format("returned attribute %s holding %s", unplain, why)) end
    out.attributes = r.attributes
  elseif hook == "create" then
    out.attributes = {}
  end
  return out
end

return P
