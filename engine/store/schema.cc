#include "store/schema.h"

#include <iterator>

namespace ms {
namespace {

// Append only: a released migration never changes.
const char* const kMigrations[] = {
    // 1: the simulated cloud (engine/world). data and refs are JSON.
    "CREATE TABLE world ("
    "  kind TEXT NOT NULL,"
    "  id TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  refs TEXT NOT NULL,"
    "  live INTEGER NOT NULL,"
    "  PRIMARY KEY (kind, id)) WITHOUT ROWID;",
    // 2: stacks, their resources (with the journal columns) and events, and
    // the exports index. `data` columns are JSON (store/stack_tables.cc); a
    // stack's template is a column of its own, stored as it came.
    "CREATE TABLE stacks ("
    "  id TEXT PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  deleted INTEGER NOT NULL,"
    "  data TEXT NOT NULL,"
    "  template TEXT NOT NULL);"
    "CREATE INDEX stacks_by_name ON stacks (name, deleted);"
    "CREATE TABLE resources ("
    "  stack_id TEXT NOT NULL,"
    "  logical_id TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  UNIQUE (stack_id, logical_id));"
    "CREATE TABLE events ("
    "  seq INTEGER PRIMARY KEY,"
    "  stack_id TEXT NOT NULL,"
    "  data TEXT NOT NULL);"
    "CREATE INDEX events_by_stack ON events (stack_id, seq);"
    "CREATE TABLE exports ("
    "  name TEXT PRIMARY KEY,"
    "  stack_id TEXT NOT NULL,"
    "  value TEXT NOT NULL);",
    // 3: change sets (store/change_set_table.cc): `data` is JSON, the
    // template a column of its own; listed by stack in creation order.
    "CREATE TABLE change_sets ("
    "  id TEXT PRIMARY KEY,"
    "  stack_id TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  template TEXT NOT NULL);"
    "CREATE INDEX change_sets_by_stack ON change_sets (stack_id, name);",
    // 4: a stack's resources in the order they were added (rowid) without a
    // sort: an index on stack_id alone is ordered by (stack_id, rowid). The
    // template an update replaced gets a column of its own too (it was a
    // member of `data`: every read of the stack parsed it).
    "CREATE INDEX resources_by_stack ON resources (stack_id);"
    "ALTER TABLE stacks ADD COLUMN previous_template TEXT NOT NULL DEFAULT '';",
    // 5: a stack's templates (slot 0: its template, 1: the one an update
    // replaced) in a table of their own, written only when they change: in
    // the stack's row every status change rewrote them (megabytes for a
    // 10,000-resource stack).
    "CREATE TABLE stack_templates ("
    "  stack_id TEXT NOT NULL,"
    "  slot INTEGER NOT NULL,"
    "  body TEXT NOT NULL,"
    "  UNIQUE (stack_id, slot));"
    "INSERT INTO stack_templates (stack_id, slot, body) SELECT id, 0, template FROM stacks;"
    "INSERT INTO stack_templates (stack_id, slot, body) SELECT id, 1, previous_template FROM stacks;"
    "ALTER TABLE stacks DROP COLUMN template;"
    "ALTER TABLE stacks DROP COLUMN previous_template;",
    // 6: events and resources name their stack by an integer key
    // (stacks.stack_key) instead of its ~90-byte ARN: every row and every
    // entry of their indexes carried the ARN, and a checkpoint writes
    // thousands of them (a 1,000-resource create: ~4 ms less of commits).
    "ALTER TABLE stacks ADD COLUMN stack_key INTEGER;"
    "UPDATE stacks SET stack_key = rowid;"
    "CREATE UNIQUE INDEX stacks_by_key ON stacks (stack_key);"
    "CREATE TABLE events6 ("
    "  seq INTEGER PRIMARY KEY,"
    "  stack INTEGER NOT NULL,"
    "  data TEXT NOT NULL);"
    "INSERT INTO events6 (seq, stack, data)"
    "  SELECT e.seq, s.stack_key, e.data FROM events e JOIN stacks s ON s.id = e.stack_id;"
    "DROP TABLE events;"
    "ALTER TABLE events6 RENAME TO events;"
    "CREATE INDEX events_by_stack ON events (stack, seq);"
    "CREATE TABLE resources6 ("
    "  stack INTEGER NOT NULL,"
    "  logical_id TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  UNIQUE (stack, logical_id));"
    "INSERT INTO resources6 (stack, logical_id, data)"
    "  SELECT s.stack_key, r.logical_id, r.data FROM resources r JOIN stacks s ON s.id = r.stack_id ORDER BY r.rowid;"
    "DROP TABLE resources;"
    "ALTER TABLE resources6 RENAME TO resources;"
    "CREATE INDEX resources_by_stack ON resources (stack);",
    // 7: an events row holds a chunk of one stack's events, a JSON array
    // oldest first: a checkpoint appends one row per stack, not one per
    // event (a 1,000-resource create writes 3,002 events in ~12 rows, each
    // row and index entry of which cost SQLite more than its bytes). An old
    // row becomes a chunk of one. (resources_by_stack stays: its entries
    // are in rowid order, so a stack's resources load in the order they
    // were added without a sort.)
    "UPDATE events SET data = '[' || data || ']';",
    // 8: when a deleted stack was deleted, as a column with an index of the
    // deleted stacks alone: they are kept 90 days, then pruned oldest first
    // (store/deleted_stacks.h) without a scan of every stack.
    "ALTER TABLE stacks ADD COLUMN deleted_ms INTEGER NOT NULL DEFAULT 0;"
    "UPDATE stacks SET deleted_ms = COALESCE(json_extract(data, '$.deleted_ms'), 0) WHERE deleted = 1;"
    "CREATE INDEX stacks_by_deleted_ms ON stacks (deleted_ms) WHERE deleted = 1;",
    // 9: the world as a rowid table with a unique (kind, id) index. In the
    // WITHOUT ROWID table a row over ~1 KB (an EC2 instance is ~1.5 KB)
    // spilled to an overflow page, so every write of it wrote two pages; a
    // rowid table keeps rows up to ~4 KB on their leaf (1,000-instance
    // rolling update: commits -20% of instructions).
    "CREATE TABLE world9 ("
    "  kind TEXT NOT NULL,"
    "  id TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  refs TEXT NOT NULL,"
    "  live INTEGER NOT NULL,"
    "  UNIQUE (kind, id));"
    "INSERT INTO world9 (kind, id, data, refs, live) SELECT kind, id, data, refs, live FROM world;"
    "DROP TABLE world;"
    "ALTER TABLE world9 RENAME TO world;",
    // 10: drift detection (store/drift_table.h): each stack drift detection,
    // and each resource's drift as last detected.
    "CREATE TABLE drift_detections ("
    "  id TEXT PRIMARY KEY,"
    "  stack_id TEXT NOT NULL,"
    "  data TEXT NOT NULL);"
    "CREATE INDEX drift_detections_by_stack ON drift_detections (stack_id);"
    "CREATE TABLE resource_drifts ("
    "  stack_id TEXT NOT NULL,"
    "  logical_id TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  UNIQUE (stack_id, logical_id));",
    // 11: blobs, the bodies too large for a world record (store/blob_store.h):
    // a blob's owner is the world record naming it ("kind\nid"; NULL while
    // it is being written), its bytes chunks of 1 MiB. Ids are never reused
    // (AUTOINCREMENT): a stale reference finds nothing rather than another body.
    "CREATE TABLE IF NOT EXISTS blobs ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  size INTEGER NOT NULL,"
    "  md5 TEXT NOT NULL,"
    "  owner TEXT);"
    "CREATE INDEX IF NOT EXISTS blobs_by_owner ON blobs (owner);"
    "CREATE TABLE IF NOT EXISTS blob_chunks ("
    "  blob INTEGER NOT NULL,"
    "  seq INTEGER NOT NULL,"
    "  data BLOB NOT NULL,"
    "  UNIQUE (blob, seq));",
    // 12: resources by physical ID (store/resource_owner.h): an IMPORT
    // change set asks which stack, if any, holds the resource it imports.
    "CREATE INDEX IF NOT EXISTS resources_by_physical_id ON resources (json_extract(data, '$.physical_id'));",
    // 13: the provider log (store/provider_log_table.h): what hooks wrote
    // during each operation on a stack, a row per checkpoint, stack and
    // operation holding a JSON array of lines, oldest first.
    "CREATE TABLE provider_logs ("
    "  seq INTEGER PRIMARY KEY,"
    "  stack INTEGER NOT NULL,"
    "  operation INTEGER NOT NULL,"
    "  data TEXT NOT NULL);"
    "CREATE INDEX provider_logs_by_stack ON provider_logs (stack, operation, seq);",
    // 14: stacks and exports per region and account (records/stack_scope.h):
    // a stack's name, and an export's, is unique within its region and
    // account only. The columns come from the stack's ARN
    // (arn:aws:cloudformation:<region>:<account>:stack/...), taken apart in
    // three steps through `account`; an export takes its stack's.
    "ALTER TABLE stacks ADD COLUMN region TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE stacks ADD COLUMN account TEXT NOT NULL DEFAULT '';"
    "UPDATE stacks SET account = substr(id, instr(id, ':cloudformation:') + 16);"
    "UPDATE stacks SET region = substr(account, 1, instr(account, ':') - 1),"
    "  account = substr(account, instr(account, ':') + 1);"
    "UPDATE stacks SET account = substr(account, 1, instr(account, ':') - 1);"
    "DROP INDEX stacks_by_name;"
    "CREATE INDEX stacks_by_name ON stacks (region, account, name, deleted);"
    "CREATE TABLE exports14 ("
    "  region TEXT NOT NULL,"
    "  account TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  stack_id TEXT NOT NULL,"
    "  value TEXT NOT NULL,"
    "  PRIMARY KEY (region, account, name));"
    "INSERT INTO exports14 (region, account, name, stack_id, value)"
    "  SELECT s.region, s.account, e.name, e.stack_id, e.value FROM exports e JOIN stacks s ON s.id = e.stack_id;"
    "DROP TABLE exports;"
    "ALTER TABLE exports14 RENAME TO exports;"
    "CREATE INDEX exports_by_stack ON exports (stack_id);",
    // 15: StackSets (engine/stackset/stack_set_store.h): a set per row, per
    // region and account of its administrator (a live name unique there), its
    // stack instances by (set, account, region), its operations in creation
    // order; `active` marks the QUEUED, RUNNING or STOPPING ones (at most one
    // per set), which a restart resumes.
    "CREATE TABLE stack_sets ("
    "  id TEXT PRIMARY KEY,"
    "  region TEXT NOT NULL,"
    "  account TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  deleted INTEGER NOT NULL,"
    "  data TEXT NOT NULL);"
    "CREATE INDEX stack_sets_by_name ON stack_sets (region, account, name, deleted);"
    "CREATE TABLE stack_instances ("
    "  stack_set_id TEXT NOT NULL,"
    "  account TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  UNIQUE (stack_set_id, account, region));"
    "CREATE TABLE stack_set_operations ("
    "  seq INTEGER PRIMARY KEY,"
    "  stack_set_id TEXT NOT NULL,"
    "  id TEXT NOT NULL,"
    "  active INTEGER NOT NULL,"
    "  data TEXT NOT NULL,"
    "  UNIQUE (stack_set_id, id));"
    "CREATE INDEX stack_set_operations_active ON stack_set_operations (active) WHERE active = 1;",
    // 16: a stack set operation's results a row each (stackset/stack_set_store.h),
    // keyed by (set, operation, account, region) and kept in the order the
    // request named them (`seq`): a result's change rewrites one small row,
    // no longer the operation's whole list. The lists schema 15 kept in the
    // operation's `data` move out into rows, in their order.
    "CREATE TABLE stack_set_operation_results ("
    "  seq INTEGER PRIMARY KEY,"
    "  stack_set_id TEXT NOT NULL,"
    "  operation_id TEXT NOT NULL,"
    "  account TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  UNIQUE (stack_set_id, operation_id, account, region));"
    "INSERT OR IGNORE INTO stack_set_operation_results (stack_set_id, operation_id, account, region, data)"
    "  SELECT o.stack_set_id, o.id, json_extract(r.value, '$.account'), json_extract(r.value, '$.region'),"
    "    json_remove(r.value, '$.account', '$.region')"
    "  FROM stack_set_operations o, json_each(o.data, '$.results') r ORDER BY o.seq, r.key;"
    "UPDATE stack_set_operations SET data = json_remove(data, '$.results');",
    // 17: a blob may have several owners (store/blob_store.h), a row each:
    // a Lambda function keeps the S3 object its code was taken from, as
    // Lambda keeps its own copy, so the object's overwrite or delete no
    // longer frees the bytes the function runs. A blob with no owner row is
    // pending (being written); the last owner to drop it frees it.
    "CREATE TABLE blob_owners ("
    "  owner TEXT NOT NULL,"
    "  blob INTEGER NOT NULL,"
    "  PRIMARY KEY (owner, blob)) WITHOUT ROWID;"
    "CREATE INDEX blob_owners_by_blob ON blob_owners (blob);"
    "INSERT INTO blob_owners (owner, blob) SELECT owner, id FROM blobs WHERE owner IS NOT NULL;"
    "DROP INDEX blobs_by_owner;"
    "ALTER TABLE blobs DROP COLUMN owner;",
    // 18: which stack each operation is of (DescribeEvents by OperationId
    // alone: a lookup, not a walk of every stack's LastOperations, which
    // hold the last operation only). Filled from the operation IDs the
    // events and change sets already carry.
    "CREATE TABLE operations ("
    "  id TEXT PRIMARY KEY,"
    "  stack INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX operations_by_stack ON operations (stack);"
    "INSERT OR IGNORE INTO operations (id, stack)"
    "  SELECT json_extract(e.value, '$.operation_id'), events.stack FROM events, json_each(events.data) e"
    "  WHERE json_extract(e.value, '$.operation_id') IS NOT NULL;"
    "INSERT OR IGNORE INTO operations (id, stack)"
    "  SELECT json_extract(c.data, '$.operation_id'), s.stack_key FROM change_sets c JOIN stacks s ON s.id = c.stack_id"
    "  WHERE json_extract(c.data, '$.operation_id') IS NOT NULL;",
};

}  // namespace

Status MigrateSchema(Database* db) {
  const int latest = static_cast<int>(std::size(kMigrations));
  return db->Transaction([&]() -> Status {
    int version = 0;
    MS_RETURN_IF_ERROR(db->UserVersion(&version));
    if (version > latest) {
      return Status::Validation("state file " + db->path() + " was written by a newer moonstack (schema " +
                                std::to_string(version) + ", this one knows " + std::to_string(latest) + ")");
    }
    for (int v = version; v < latest; ++v) MS_RETURN_IF_ERROR(db->Exec(kMigrations[v]));
    if (version != latest) MS_RETURN_IF_ERROR(db->SetUserVersion(latest));
    return Status::OK();
  });
}

Status OpenStore(const std::string& path, std::unique_ptr<Database>* out) {
  std::unique_ptr<Database> db;
  MS_RETURN_IF_ERROR(Database::Open(path, &db));
  MS_RETURN_IF_ERROR(MigrateSchema(db.get()));
  *out = std::move(db);
  return Status::OK();
}

}  // namespace ms
