-- sim.dynamodb: the simulated Amazon DynamoDB — tables (kind
-- "dynamodb.table", key "REGION/NAME": names are unique per region and found
-- without a scan) and their items (kind "dynamodb.item", key
-- "REGION/TABLE/<key attributes as JSON>", refs the table, so a table's items
-- are its referrers: Scan and DeleteTable never walk other tables' items).
--
-- A table is CREATING for `create_seconds` (config "dynamodb", default 5) of
-- simulated time, then ACTIVE (sim/transitions.lua); UpdateTable is UPDATING
-- for `update_seconds` (default 5). CreateTable's checks give DynamoDB's
-- ValidationException texts (key attributes not in AttributeDefinitions,
-- PAY_PER_REQUEST with ProvisionedThroughput, ...).
--
-- Actions: CreateTable, DescribeTable, UpdateTable, DeleteTable, ListTables,
-- TagResource, UntagResource, ListTagsOfResource, UpdateTimeToLive,
-- DescribeTimeToLive, PutItem, GetItem, DeleteItem, Scan (items in
-- DynamoDB's attribute-value shape, {"S": "..."}, {"N": "1"}, ...).

local world = require("sim.world")
local errors = require("moonstack.errors")
local transitions = require("sim.transitions")
local util = require("sim.cloudformation_util")

local A = {}

local TABLE, ITEM = "dynamodb.table", "dynamodb.item"

local function fail(message, code) errors.fail(message, code) end
local function invalid(message) fail("One or more parameter values were invalid: " .. message, "ValidationException") end

local function table_key(env, name) return env.region .. "/" .. name end
local function table_arn(env, name) return "arn:aws:dynamodb:" .. env.region .. ":" .. env.account .. ":table/" .. name end

local function not_found(name)
  fail("Requested resource not found: Table: " .. tostring(name) .. " not found", "ResourceNotFoundException")
end

-- The table `name` (or its ARN) settled to the clock, or nil.
local function find(env, name)
  if type(name) ~= "string" or name == "" then
    fail("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: "
      .. "Member must not be null", "ValidationException")
  end
  local other = require("sim").other_account(env, name)
  name = name:match(":table/([^/]+)$") or name
  if other then return nil, name end  -- another account's table
  return transitions.load(TABLE, table_key(env, name), env), name
end

local function require_table(env, name)
  local t, n = find(env, name)
  return t or not_found(n)
end

local function names(list, field)
  local out = {}
  for i, x in ipairs(list or {}) do out[i] = x[field] end
  return out
end

-- DynamoDB's checks of a key schema against the attribute definitions.
local function check_keys(defs, key_schemas)
  local defined = {}
  for _, d in ipairs(defs) do defined[d.AttributeName] = d.AttributeType end
  local used, missing = {}, {}
  for _, ks in ipairs(key_schemas) do
    for _, k in ipairs(ks) do
      used[k.AttributeName] = true
      if not defined[k.AttributeName] then missing[#missing + 1] = k.AttributeName end
    end
  end
  if #missing > 0 then
    invalid("Some index key attributes are not defined in AttributeDefinitions. Keys: [" .. table.concat(missing, ", ")
      .. "], AttributeDefinitions: [" .. table.concat(names(defs, "AttributeName"), ", ") .. "]")
  end
  for _, d in ipairs(defs) do
    if not used[d.AttributeName] then
      invalid("Number of attributes in KeySchema does not exactly match number of attributes defined in "
        .. "AttributeDefinitions")
    end
  end
end

local function check_billing(mode, throughput, gsis)
  if mode == "PAY_PER_REQUEST" then
    if throughput then
      invalid("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
    end
    for _, g in ipairs(gsis or {}) do
      if g.ProvisionedThroughput then
        invalid("ProvisionedThroughput should not be specified for index: " .. g.IndexName
          .. " when BillingMode is PAY_PER_REQUEST")
      end
    end
  elseif mode == "PROVISIONED" then
    if not throughput or throughput.ReadCapacityUnits == nil or throughput.WriteCapacityUnits == nil then
      invalid("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
    end
  else
    fail("1 validation error detected: Value '" .. tostring(mode) .. "' at 'billingMode' failed to satisfy "
      .. "constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]", "ValidationException")
  end
end

local function throughput_of(mode, t)
  if mode == "PAY_PER_REQUEST" then
    return { ReadCapacityUnits = 0, WriteCapacityUnits = 0, NumberOfDecreasesToday = 0 }
  end
  return { ReadCapacityUnits = t.ReadCapacityUnits, WriteCapacityUnits = t.WriteCapacityUnits,
           NumberOfDecreasesToday = 0 }
end

local function stream_of(env, t, spec)
  if type(spec) == "table" and spec.StreamEnabled then
    local label = util.iso8601(env.now_ms):gsub("Z$", "")
    t.StreamSpecification = { StreamEnabled = true, StreamViewType = spec.StreamViewType }
    t.LatestStreamLabel = label
    t.LatestStreamArn = t.TableArn .. "/stream/" .. label
  else
    t.StreamSpecification, t.LatestStreamLabel, t.LatestStreamArn = nil, nil, nil
  end
end

local function sse_of(spec)
  if type(spec) ~= "table" or not spec.Enabled then return nil end
  return { Status = "ENABLED", SSEType = spec.SSEType or "KMS", KMSMasterKeyArn = spec.KMSMasterKeyId }
end

local function description(t)
  local out = {}
  for k, v in pairs(t) do
    if k ~= "Tags" and k ~= "TimeToLive" and k ~= "Transition" and k ~= "Region" then out[k] = v end
  end
  return out
end

local function save(t) world.put(TABLE, t.Key, t) end

---CreateTable: TableName, AttributeDefinitions, KeySchema, BillingMode,
---ProvisionedThroughput, GlobalSecondaryIndexes, LocalSecondaryIndexes,
---StreamSpecification, SSESpecification, Tags -> { TableDescription } (CREATING).
function A.CreateTable(p, env)
  local name = p.TableName
  if type(name) ~= "string" or not name:match("^[%w_%.%-]+$") or #name < 3 or #name > 255 then
    fail("1 validation error detected: Value '" .. tostring(name) .. "' at 'tableName' failed to satisfy constraint: "
      .. "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", "ValidationException")
  end
  if find(env, name) then fail("Table already exists: " .. name, "ResourceInUseException") end
  local defs, keys = p.AttributeDefinitions or {}, p.KeySchema or {}
  if #keys == 0 then
    fail("1 validation error detected: Value null at 'keySchema' failed to satisfy constraint: Member must not be null",
      "ValidationException")
  end
  local all_keys = { keys }
  for _, g in ipairs(p.GlobalSecondaryIndexes or {}) do all_keys[#all_keys + 1] = g.KeySchema or {} end
  for _, l in ipairs(p.LocalSecondaryIndexes or {}) do all_keys[#all_keys + 1] = l.KeySchema or {} end
  check_keys(defs, all_keys)
  local mode = p.BillingMode or "PROVISIONED"
  check_billing(mode, p.ProvisionedThroughput, p.GlobalSecondaryIndexes)
  local now = env.now_ms / 1000
  local t = {
    Key = table_key(env, name), TableName = name, TableArn = table_arn(env, name), TableId = env.new_id("uuid"),
    AttributeDefinitions = defs, KeySchema = keys, CreationDateTime = now, ItemCount = 0, TableSizeBytes = 0,
    BillingModeSummary = { BillingMode = mode, LastUpdateToPayPerRequestDateTime = mode == "PAY_PER_REQUEST" and now or nil },
    ProvisionedThroughput = throughput_of(mode, p.ProvisionedThroughput),
    GlobalSecondaryIndexes = p.GlobalSecondaryIndexes, LocalSecondaryIndexes = p.LocalSecondaryIndexes,
    SSEDescription = sse_of(p.SSESpecification), DeletionProtectionEnabled = p.DeletionProtectionEnabled == true,
    Tags = {}, TimeToLive = { TimeToLiveStatus = "DISABLED" },
  }
  for _, tag in ipairs(p.Tags or {}) do t.Tags[tag.Key] = tag.Value end
  stream_of(env, t, p.StreamSpecification)
  transitions.start(t, "TableStatus", "CREATING", "ACTIVE", env.now_ms,
    transitions.seconds("dynamodb", "create", 5))
  save(t)
  return { TableDescription = description(t) }
end

---DescribeTable: TableName -> { Table }.
function A.DescribeTable(p, env) return { Table = description(require_table(env, p.TableName)) } end

---ListTables -> { TableNames } of this region, sorted.
function A.ListTables(_, env)
  local out, prefix = {}, env.region .. "/"
  for _, key in ipairs(world.ids(TABLE, false, prefix)) do out[#out + 1] = key:sub(#prefix + 1) end
  return { TableNames = out }
end

local function active(env, name)
  local t = require_table(env, name)
  if t.TableStatus ~= "ACTIVE" then
    fail("Attempt to change a resource which is still in use: Table is being " ..
      (t.TableStatus == "CREATING" and "created" or "updated") .. ": " .. t.TableName, "ResourceInUseException")
  end
  return t
end

---UpdateTable: TableName, BillingMode, ProvisionedThroughput,
---AttributeDefinitions, GlobalSecondaryIndexUpdates, StreamSpecification,
---SSESpecification, DeletionProtectionEnabled -> { TableDescription } (UPDATING).
function A.UpdateTable(p, env)
  local t = active(env, p.TableName)
  local mode = p.BillingMode or t.BillingModeSummary.BillingMode
  if p.BillingMode or p.ProvisionedThroughput then
    check_billing(mode, p.ProvisionedThroughput or (mode == "PROVISIONED" and t.ProvisionedThroughput or nil))
    t.BillingModeSummary = { BillingMode = mode }
    t.ProvisionedThroughput = throughput_of(mode, p.ProvisionedThroughput or t.ProvisionedThroughput)
  end
  if p.AttributeDefinitions then t.AttributeDefinitions = p.AttributeDefinitions end
  local gsis = t.GlobalSecondaryIndexes or {}
  for _, u in ipairs(p.GlobalSecondaryIndexUpdates or {}) do
    if u.Create then gsis[#gsis + 1] = u.Create
    elseif u.Delete then
      for i, g in ipairs(gsis) do if g.IndexName == u.Delete.IndexName then table.remove(gsis, i) break end end
    elseif u.Update then
      for _, g in ipairs(gsis) do
        if g.IndexName == u.Update.IndexName then g.ProvisionedThroughput = u.Update.ProvisionedThroughput end
      end
    end
  end
  t.GlobalSecondaryIndexes = #gsis > 0 and gsis or nil
  if p.StreamSpecification ~= nil then stream_of(env, t, p.StreamSpecification) end
  if p.SSESpecification ~= nil then t.SSEDescription = sse_of(p.SSESpecification) end
  if p.DeletionProtectionEnabled ~= nil then t.DeletionProtectionEnabled = p.DeletionProtectionEnabled == true end
  transitions.start(t, "TableStatus", "UPDATING", "ACTIVE", env.now_ms, transitions.seconds("dynamodb", "update", 5))
  save(t)
  return { TableDescription = description(t) }
end

---DeleteTable: TableName -> { TableDescription } (DELETING); the table and
---its items are gone at once.
function A.DeleteTable(p, env)
  local t = require_table(env, p.TableName)
  if t.DeletionProtectionEnabled then
    fail("Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection "
      .. "first.", "ValidationException")
  end
  if t.TableStatus == "CREATING" or t.TableStatus == "UPDATING" then active(env, p.TableName) end
  for _, r in ipairs(world.referrers(t.Key)) do
    if r.kind == ITEM then world.remove(ITEM, r.id) end
  end
  world.remove(TABLE, t.Key)
  t.TableStatus = "DELETING"
  return { TableDescription = description(t) }
end

local function by_arn(env, arn)
  local t = type(arn) == "string" and find(env, arn) or nil
  if not t then
    fail("Requested resource not found: ResourcArn: " .. tostring(arn) .. " not found", "ResourceNotFoundException")
  end
  return t
end

---TagResource: ResourceArn, Tags [{Key, Value}].
function A.TagResource(p, env)
  local t = by_arn(env, p.ResourceArn)
  for _, tag in ipairs(p.Tags or {}) do t.Tags[tag.Key] = tag.Value end
  save(t)
  return {}
end

---UntagResource: ResourceArn, TagKeys.
function A.UntagResource(p, env)
  local t = by_arn(env, p.ResourceArn)
  for _, k in ipairs(p.TagKeys or {}) do t.Tags[k] = nil end
  save(t)
  return {}
end

---ListTagsOfResource: ResourceArn -> { Tags }, sorted by key.
function A.ListTagsOfResource(p, env)
  return { Tags = require("moonstack.tags").from_map(by_arn(env, p.ResourceArn).Tags) }
end

---UpdateTimeToLive: TableName, TimeToLiveSpecification {Enabled, AttributeName}.
function A.UpdateTimeToLive(p, env)
  local t = active(env, p.TableName)
  local spec = p.TimeToLiveSpecification or {}
  local enabled = t.TimeToLive.TimeToLiveStatus == "ENABLED"
  if (spec.Enabled == true) == enabled then
    fail("TimeToLive is already " .. (enabled and "enabled" or "disabled"), "ValidationException")
  end
  t.TimeToLive = spec.Enabled and { TimeToLiveStatus = "ENABLED", AttributeName = spec.AttributeName }
      or { TimeToLiveStatus = "DISABLED" }
  save(t)
  return { TimeToLiveSpecification = { Enabled = spec.Enabled == true, AttributeName = spec.AttributeName } }
end

---DescribeTimeToLive: TableName -> { TimeToLiveDescription }.
function A.DescribeTimeToLive(p, env)
  return { TimeToLiveDescription = require_table(env, p.TableName).TimeToLive }
end

-- The item key of `item` (its key attributes, in key-schema order, as JSON).
local function item_key(t, item)
  local parts = {}
  for _, k in ipairs(t.KeySchema) do
    local v = item[k.AttributeName]
    if type(v) ~= "table" then
      fail("One or more parameter values were invalid: Missing the key " .. k.AttributeName .. " in the item",
        "ValidationException")
    end
    parts[#parts + 1] = util.json(v)
  end
  return t.Key .. "/" .. table.concat(parts, "|")
end

local function item_table(env, name)
  local t = require_table(env, name)
  if t.TableStatus == "CREATING" then not_found(name) end
  return t
end

---PutItem: TableName, Item -> {}.
function A.PutItem(p, env)
  local t = item_table(env, p.TableName)
  local key = item_key(t, p.Item or {})
  if not world.get(ITEM, key) then t.ItemCount = t.ItemCount + 1; save(t) end
  world.put(ITEM, key, { Item = p.Item }, { refs = { t.Key } })
  return {}
end

---GetItem: TableName, Key -> { Item } or {}.
function A.GetItem(p, env)
  local t = item_table(env, p.TableName)
  local rec = world.get(ITEM, item_key(t, p.Key or {}))
  return { Item = rec and rec.Item or nil }
end

---DeleteItem: TableName, Key -> {}.
function A.DeleteItem(p, env)
  local t = item_table(env, p.TableName)
  if world.remove(ITEM, item_key(t, p.Key or {})) then t.ItemCount = t.ItemCount - 1; save(t) end
  return {}
end

---Scan: TableName -> { Items, Count, ScannedCount } (the table's items only).
function A.Scan(p, env)
  local t = item_table(env, p.TableName)
  local items = {}
  for _, r in ipairs(world.referrers(t.Key)) do
    if r.kind == ITEM then items[#items + 1] = world.get(ITEM, r.id).Item end
  end
  return { Items = items, Count = #items, ScannedCount = #items }
end

return A
