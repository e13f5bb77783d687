-- sim.world: the world store (`moonstack.world`) as the simulated services
-- see it, scoped to the account an action runs in (sim/init.lua's S.call
-- sets it for the action's duration).
--
-- AWS scopes its resources by account: a queue named q in 111111111111 and
-- one named q in 222222222222 are two queues, and neither account lists the
-- other's. The services key their records by region where the service is
-- regional ("sqs.queue" "<region>:<name>") and by name where it is global
-- (IAM); this module adds the account, for every service at once: a record
-- of an account other than the default (123456789012) is kept under the
-- kind "<account>/<kind>" ("222222222222/sqs.queue" "us-east-1:q"). The
-- default account's kinds are unchanged, so state files written before
-- accounts keep their records where they were. The lookups stay the
-- store's own (a kind's map, the referrers index): nothing scans.
--
-- Kinds shared by every account (never prefixed):
--   sim, config                the ID generator and the world's settings
--   s3.*                       bucket names are global across accounts
--                              (sim/s3.lua keeps each bucket's Owner)
--   cloudformation.*           wait-condition handles and custom-resource
--                              requests: their URLs carry unique IDs and are
--                              called without an account's credentials
--   moonstack.*                the host's own (the server's endpoint)
--   lambda.url_id              a function URL's id -> its account and record:
--                              a request to the URL names only the id
--                              (sim/lambda_urls.lua)
--
-- Same functions as moonstack.world (lua-sdk/moonstack/world_memory.lua);
-- `referrers(id)` returns only the current account's (and the shared kinds')
-- records, with their kinds as the services name them. `kinds()` is the
-- whole store's, as tools enumerating the world want it.

local raw = require("moonstack.world")

local W = {}

local DEFAULT_ACCOUNT = "123456789012"
local account = nil  -- the current action's account; nil: the default

local function shared(kind)
  return kind == "sim" or kind == "config" or kind:sub(1, 3) == "s3." or kind:sub(1, 15) == "cloudformation."
      or kind:sub(1, 10) == "moonstack." or kind == "lambda.url_id"
end

-- The store's kind for a service's kind in the current account.
local function scoped(kind)
  if account == nil or type(kind) ~= "string" or shared(kind) then return kind end
  return account .. "/" .. kind
end
W.scoped_kind = scoped

---The store's kind for `kind` in account `acct` (nil or "": the default),
---for code outside an action that keeps records per account the same way
---(providers/lib/generic.lua, keyed by the stack's account).
function W.kind_in(acct, kind)
  if acct == nil or acct == "" or acct == DEFAULT_ACCOUNT or shared(kind) then return kind end
  return acct .. "/" .. kind
end

---Runs fn(...) with the world scoped to `acct` (nil or the default account:
---the default's records), restoring the previous scope after, also when fn
---raises (the same error value is raised again).
function W.with_account(acct, fn, ...)
  local previous = account
  if acct == DEFAULT_ACCOUNT or acct == "" then acct = nil end
  if acct == previous then return fn(...) end  -- the scope it has already: nothing to restore
  account = acct
  local results = { pcall(fn, ...) }
  account = previous
  if not results[1] then error(results[2], 0) end
  return unpack(results, 2, table.maxn(results))
end

---The account the world is scoped to now.
function W.account() return account or DEFAULT_ACCOUNT end

function W.get(kind, id) return raw.get(scoped(kind), id) end
function W.put(kind, id, data, opts) return raw.put(scoped(kind), id, data, opts) end
function W.remove(kind, id) return raw.remove(scoped(kind), id) end
function W.ids(kind, live_only, prefix, after, limit) return raw.ids(scoped(kind), live_only, prefix, after, limit) end
function W.live(kind, id) return raw.live(scoped(kind), id) end

-- The referrers index is by ID, and two accounts may have records naming
-- the same ID (their queues "us-east-1:q"): keep the current account's.
function W.referrers(id)
  local out = {}
  for _, r in ipairs(raw.referrers(id)) do
    local owner, kind = r.kind:match("^(%d+)/(.+)$")
    if owner == nil then
      if account == nil or shared(r.kind) then out[#out + 1] = r end
    elseif owner == account then
      out[#out + 1] = { kind = kind, id = r.id }
    end
  end
  return out
end

function W.kinds() return raw.kinds() end
function W.atomic(fn, ...) return raw.atomic(fn, ...) end
function W.now_ms() return raw.now_ms() end
function W.read_blob(id, offset, length) return raw.read_blob(id, offset, length) end
function W.blob_sha256(...) return raw.blob_sha256(...) end
function W.set_now_ms(ms) return raw.set_now_ms(ms) end
function W.add_blob(bytes) return raw.add_blob(bytes) end
function W.reset() return raw.reset() end

return W
