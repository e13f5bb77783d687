#include "store/stack_tables.h"

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdlib>

#include "store/deleted_stacks.h"
#include "store/record_json.h"
#include "store/schema.h"
#include "store/world_table.h"
#include "template/parse.h"

namespace ms {

using namespace record_json;  // NOLINT: the field helpers every reader and writer here uses

namespace {

// --- Value <-> record helpers -------------------------------------------------

// One event as a member of its chunk (an events row holds a JSON array of
// one stack's events, oldest first). Its stack is the row's `stack` key.
void AppendEventJson(const StackEvent& e, std::string* out) {
  ObjectWriter w(out);
  w.Str("event_id", e.event_id);
  w.Str("stack_name", e.stack_name);
  w.Str("logical_id", e.logical_id);
  w.StrIfAny("physical_id", e.physical_id);
  w.Str("type", e.type);
  w.Int("timestamp_ms", e.timestamp_ms);
  w.Str("status", e.status);
  w.StrIfAny("reason", e.reason);
  w.StrIfAny("properties", e.properties);
  w.StrIfAny("client_request_token", e.client_request_token);
  w.StrIfAny("operation_id", e.operation_id);
  w.StrIfAny("detailed_status", e.detailed_status);
  w.StrIfAny("validation_name", e.validation_name);
  w.StrIfAny("validation_path", e.validation_path);
  w.StrIfAny("validation_mode", e.validation_mode);
}

StackEvent EventFromValue(const Value& v, const std::string& stack_id) {
  StackEvent e;
  e.event_id = GetStr(v, "event_id");
  e.stack_id = stack_id;
  e.stack_name = GetStr(v, "stack_name");
  e.logical_id = GetStr(v, "logical_id");
  e.physical_id = GetStr(v, "physical_id");
  e.type = GetStr(v, "type");
  e.timestamp_ms = GetInt(v, "timestamp_ms");
  e.status = GetStr(v, "status");
  e.reason = GetStr(v, "reason");
  e.properties = GetStr(v, "properties");
  e.client_request_token = GetStr(v, "client_request_token");
  e.operation_id = GetStr(v, "operation_id");
  e.detailed_status = GetStr(v, "detailed_status");
  e.validation_name = GetStr(v, "validation_name");
  e.validation_path = GetStr(v, "validation_path");
  e.validation_mode = GetStr(v, "validation_mode");
  return e;
}

// Reads the rows of a kSelectStacks or kSelectStackRecords statement.
Status LoadStackRows(Statement* st, std::vector<StackRecord>* out) {
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) return Status::OK();
    Value v;
    MS_RETURN_IF_ERROR(ParseRow(st->Text(0), "stack", &v));
    StackRecord s;
    MS_RETURN_IF_ERROR(StackFromValue(v, &s));
    if (st->ColumnCount() == 1) {  // kSelectStackRecords
      s.templates_omitted = true;
      out->push_back(std::move(s));
      continue;
    }
    s.template_body = st->Text(1);
    // Rows written before schema 4 kept it in `data` (StackFromValue read it).
    if (std::string previous = st->Text(2); !previous.empty()) s.previous_template_body = std::move(previous);
    s.original_template_body = st->Text(3);
    s.previous_original_template_body = st->Text(4);
    out->push_back(std::move(s));
  }
}

Status StackKey(Database* db, const std::string& stack_id, int64_t* key) {
  Statement* st;
  MS_RETURN_IF_ERROR(db->Cached("SELECT stack_key FROM stacks WHERE id = ?1", &st));
  st->Bind(1, stack_id);
  bool row = false;
  MS_RETURN_IF_ERROR(st->Step(&row));
  if (!row) return Status::Internal("store: rows for stack " + stack_id + ", which is not stored");
  *key = st->Int(0);
  st->Reset();
  return Status::OK();
}

// Crash tests: MOONSTACK_CRASH_AFTER_COMMITS=N kills the process with
// SIGKILL right after its Nth checkpoint, so recovery can be tested at every
// point a crash can leave the store in.
void CrashPoint() {
  static const long crash_after = [] {
    const char* env = std::getenv("MOONSTACK_CRASH_AFTER_COMMITS");
    return env != nullptr ? std::atol(env) : 0L;
  }();
  static long commits = 0;
  if (crash_after > 0 && ++commits == crash_after) std::raise(SIGKILL);
}

}  // namespace

Value StackToValue(const StackRecord& s) {
  Value v = Value::MakeMap();
  v.set("id", Str(s.id));
  v.set("name", Str(s.name));
  v.set("description", Str(s.description));
  v.set("status", Str(StackStatusName(s.status)));
  v.set("reason", Str(s.reason));
  v.set("created_ms", Value::Integer(s.created_ms));
  v.set("updated_ms", Value::Integer(s.updated_ms));
  v.set("deleted_ms", Value::Integer(s.deleted_ms));
  v.set("parameters", ParametersToValue(s.parameters));
  v.set("capabilities", Value::StringList(s.capabilities));
  v.set("tags", TagsToValue(s.tags));
  Value::List outputs;
  for (const StackOutputValue& o : s.outputs) {
    Value ov = Value::MakeMap();
    ov.set("key", Str(o.key));
    ov.set("value", Str(o.value));
    ov.set("description", Str(o.description));
    ov.set("export_name", Str(o.export_name));
    outputs.push_back(std::move(ov));
  }
  v.set("outputs", Value::MakeList(std::move(outputs)));
  v.set("on_failure", Str(s.on_failure));
  v.set("termination_protection", Value::Bool(s.termination_protection));
  if (s.timeout_in_minutes > 0) v.set("timeout_in_minutes", Value::Integer(s.timeout_in_minutes));
  v.set("client_request_token", Str(s.client_request_token));
  if (!s.role_arn.empty()) v.set("role_arn", Str(s.role_arn));
  if (!s.notification_arns.empty()) v.set("notification_arns", Value::StringList(s.notification_arns));
  if (!s.change_set_id.empty()) v.set("change_set_id", Str(s.change_set_id));
  v.set("retain_resources", Value::StringList(s.retain_resources));
  if (!s.resources_to_skip.empty()) v.set("resources_to_skip", Value::StringList(s.resources_to_skip));
  v.set("imports", Value::StringList(s.imports));
  if (!s.provider_dirs.empty()) v.set("provider_dirs", Value::StringList(s.provider_dirs));
  if (s.stub_unknown_types) v.set("stub_unknown_types", Value::Bool(true));
  if (!s.previous_template_body.empty()) {  // the template itself: stack_templates, slot 1
    v.set("previous_parameters", ParametersToValue(s.previous_parameters));
    v.set("previous_tags", TagsToValue(s.previous_tags));
  }
  if (!s.stack_policy_body.empty()) v.set("stack_policy_body", Str(s.stack_policy_body));
  if (!s.stack_policy_during_update_body.empty()) {
    v.set("stack_policy_during_update_body", Str(s.stack_policy_during_update_body));
  }
  if (!s.parent_id.empty()) v.set("parent_id", Str(s.parent_id));
  if (!s.root_id.empty()) v.set("root_id", Str(s.root_id));
  if (!s.operation_id.empty()) v.set("operation_id", Str(s.operation_id));
  if (!s.last_operations.empty()) {
    Value::List ops;
    for (const StackOperation& o : s.last_operations) {
      ops.push_back(Value::MakeMap({{"type", Str(o.type)}, {"id", Str(o.id)}}));
    }
    v.set("last_operations", Value::MakeList(std::move(ops)));
  }
  return v;
}

Status StackFromValue(const Value& v, StackRecord* out) {
  StackRecord s;
  s.id = GetStr(v, "id");
  s.name = GetStr(v, "name");
  s.description = GetStr(v, "description");
  if (!ParseStackStatus(GetStr(v, "status"), &s.status)) {
    return Status::Internal("store: stack " + s.id + " has an unknown status " + GetStr(v, "status"));
  }
  s.reason = GetStr(v, "reason");
  s.created_ms = GetInt(v, "created_ms");
  s.updated_ms = GetInt(v, "updated_ms");
  s.deleted_ms = GetInt(v, "deleted_ms");
  s.parameters = ParametersFromValue(GetList(v, "parameters"));
  for (const Value& c : GetList(v, "capabilities").list()) s.capabilities.push_back(c.str());
  s.tags = TagsFromValue(GetList(v, "tags"));
  for (const Value& o : GetList(v, "outputs").list()) {
    s.outputs.push_back({GetStr(o, "key"), GetStr(o, "value"), GetStr(o, "description"), GetStr(o, "export_name")});
  }
  s.on_failure = GetStr(v, "on_failure");
  s.termination_protection = GetBool(v, "termination_protection");
  s.timeout_in_minutes = GetInt(v, "timeout_in_minutes");
  s.client_request_token = GetStr(v, "client_request_token");
  s.role_arn = GetStr(v, "role_arn");
  for (const Value& n : GetList(v, "notification_arns").list()) s.notification_arns.push_back(n.str());
  s.change_set_id = GetStr(v, "change_set_id");
  for (const Value& r : GetList(v, "retain_resources").list()) s.retain_resources.push_back(r.str());
  for (const Value& r : GetList(v, "resources_to_skip").list()) s.resources_to_skip.push_back(r.str());
  for (const Value& i : GetList(v, "imports").list()) s.imports.push_back(i.str());
  for (const Value& d : GetList(v, "provider_dirs").list()) s.provider_dirs.push_back(d.str());
  s.stub_unknown_types = GetBool(v, "stub_unknown_types");
  s.previous_template_body = GetStr(v, "previous_template_body");
  s.previous_parameters = ParametersFromValue(GetList(v, "previous_parameters"));
  // A stack saved before stack tags could change: its tags never did.
  s.previous_tags = v.find("previous_tags") != nullptr ? TagsFromValue(GetList(v, "previous_tags")) : s.tags;
  s.stack_policy_body = GetStr(v, "stack_policy_body");
  s.stack_policy_during_update_body = GetStr(v, "stack_policy_during_update_body");
  s.parent_id = GetStr(v, "parent_id");
  s.root_id = GetStr(v, "root_id");
  s.operation_id = GetStr(v, "operation_id");
  for (const Value& o : GetList(v, "last_operations").list()) {
    s.last_operations.push_back({GetStr(o, "type"), GetStr(o, "id")});
  }
  *out = std::move(s);
  return Status::OK();
}

// A resource's row, written directly (no Value copies of the properties and
// attributes): checkpoints write one per changed resource. Its stack's ID is
// the row's stack_id column.
std::string ResourceJson(const ResourceRecord& r) {
  std::string out;
  out.reserve(256);
  ObjectWriter w(&out);
  w.Str("logical_id", r.logical_id);
  w.Str("type", r.type);
  w.StrIfAny("physical_id", r.physical_id);
  w.Str("status", ResourceStatusName(r.status));
  w.StrIfAny("reason", r.reason);
  w.Int("updated_ms", r.updated_ms);
  w.JsonIfAny("properties", r.properties);
  w.JsonIfAny("attributes", r.attributes);
  w.StrIfAny("pending_hook", r.pending_hook);
  w.JsonIfAny("progress", r.progress);
  if (!r.old_physical_id.empty()) {
    w.Str("old_physical_id", r.old_physical_id);
    w.JsonIfAny("old_properties", r.old_properties);
    w.JsonIfAny("old_attributes", r.old_attributes);
  }
  if (r.update_step != UpdateStep::kNone) {
    w.Str("update_step", UpdateStepName(r.update_step));
    w.JsonIfAny("rollback_properties", r.rollback_properties);
    w.JsonIfAny("rollback_attributes", r.rollback_attributes);
  }
  return out;
}

Status ResourceFromValue(Value v, const std::string& stack_id, ResourceRecord* out) {
  ResourceRecord r;
  r.stack_id = stack_id;
  r.logical_id = GetStr(v, "logical_id");
  r.type = GetStr(v, "type");
  r.physical_id = GetStr(v, "physical_id");
  if (!ParseResourceStatus(GetStr(v, "status"), &r.status)) {
    return Status::Internal("store: resource " + r.logical_id + " has an unknown status " + GetStr(v, "status"));
  }
  r.reason = GetStr(v, "reason");
  r.updated_ms = GetInt(v, "updated_ms");
  r.properties = TakeValue(&v, "properties");
  r.attributes = TakeValue(&v, "attributes");
  r.pending_hook = GetStr(v, "pending_hook");
  r.progress = TakeValue(&v, "progress");
  r.old_physical_id = GetStr(v, "old_physical_id");
  r.old_properties = TakeValue(&v, "old_properties");
  r.old_attributes = TakeValue(&v, "old_attributes");
  if (!ParseUpdateStep(GetStr(v, "update_step"), &r.update_step)) {
    return Status::Internal("store: resource " + r.logical_id + " has an unknown update step " +
                            GetStr(v, "update_step"));
  }
  r.rollback_properties = TakeValue(&v, "rollback_properties");
  r.rollback_attributes = TakeValue(&v, "rollback_attributes");
  *out = std::move(r);
  return Status::OK();
}

namespace {

// A resource's row as a checkpoint writes it: taken when the checkpoint is,
// so the record may change while the row is written.
struct ResourceRow {
  std::string stack_id, logical_id, json;
};

std::vector<ResourceRow> ResourceRows(const StoreBatch& batch) {
  std::vector<ResourceRow> rows;
  rows.reserve(batch.resources.size());
  for (const ResourceRecord* r : batch.resources) rows.push_back({r->stack_id, r->logical_id, ResourceJson(*r)});
  return rows;
}

// A checkpoint's rows, inside the caller's transaction: the batch (its
// `resources` as `resources` has them) and the world's changes.
Status WriteCheckpoint(Database* db, const StoreBatch& batch, const std::vector<ResourceRow>& resources,
                       const std::vector<WorldChange>& world_changes) {
  Statement *stack, *stack_template, *drop_exports, *add_export, *resource, *remove, *event;
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT INTO stacks (id, name, deleted, data, deleted_ms, region, account, stack_key) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT COALESCE(MAX(stack_key), 0) + 1 FROM stacks)) "
      "ON CONFLICT (id) DO UPDATE SET name = ?2, deleted = ?3, data = ?4, deleted_ms = ?5", &stack));
  // A template is written only when it changed (most stack writes are
  // status changes).
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT INTO stack_templates (stack_id, slot, body) VALUES (?1, ?2, ?3) "
      "ON CONFLICT (stack_id, slot) DO UPDATE SET body = excluded.body WHERE body IS NOT excluded.body",
      &stack_template));
  MS_RETURN_IF_ERROR(db->Cached("DELETE FROM exports WHERE stack_id = ?1", &drop_exports));
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT OR REPLACE INTO exports (region, account, name, stack_id, value) VALUES (?1, ?2, ?3, ?4, ?5)",
      &add_export));
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT INTO resources (stack, logical_id, data) VALUES (?1, ?2, ?3) "
      "ON CONFLICT (stack, logical_id) DO UPDATE SET data = ?3", &resource));
  MS_RETURN_IF_ERROR(db->Cached("DELETE FROM resources WHERE stack = ?1 AND logical_id = ?2", &remove));
  MS_RETURN_IF_ERROR(db->Cached("INSERT INTO events (stack, data) VALUES (?1, ?2)", &event));
  // Events and resources name their stack by its key (schema 6); a batch
  // is nearly always one stack's, so the last lookup is kept.
  std::string keyed_id;
  int64_t key = 0;
  auto key_of = [&](const std::string& stack_id) -> Status {
    if (key != 0 && stack_id == keyed_id) return Status::OK();
    keyed_id = stack_id;
    return StackKey(db, stack_id, &key);
  };
  for (const StackRecord& st : batch.stacks) {
    if (st.templates_omitted) return Status::Internal("store: stack " + st.id + " was read without its templates");
    const bool deleted = st.status == StackStatus::kDeleteComplete;
    StackScope scope;
    if (!ScopeOfArn(st.id, &scope)) return Status::Internal("store: stack ID " + st.id + " is not a stack ARN");
    stack->Bind(1, st.id).Bind(2, st.name).Bind(3, int64_t{deleted ? 1 : 0}).Bind(4, StackToValue(st).ToJson());
    stack->Bind(5, deleted ? st.deleted_ms : 0).Bind(6, scope.region).Bind(7, scope.account);
    MS_RETURN_IF_ERROR(stack->Step());
    stack->Reset();
    if (!st.operation_id.empty()) MS_RETURN_IF_ERROR(IndexOperation(db, st.operation_id, st.id));
    // A deletion is the moment to prune stacks deleted 90 days before it.
    if (deleted) MS_RETURN_IF_ERROR(PruneDeletedStacks(db, st.deleted_ms));
    int64_t slot = 0;
    for (const std::string* body : {&st.template_body, &st.previous_template_body, &st.original_template_body,
                                     &st.previous_original_template_body}) {
      stack_template->Bind(1, st.id).Bind(2, slot++).Bind(3, *body);
      MS_RETURN_IF_ERROR(stack_template->Step());
      stack_template->Reset();
    }
    drop_exports->Bind(1, st.id);
    MS_RETURN_IF_ERROR(drop_exports->Step());
    drop_exports->Reset();
    if (deleted) continue;
    for (const StackOutputValue& o : st.outputs) {
      if (o.export_name.empty()) continue;
      add_export->Bind(1, scope.region).Bind(2, scope.account).Bind(3, o.export_name).Bind(4, st.id).Bind(5, o.value);
      MS_RETURN_IF_ERROR(add_export->Step());
      add_export->Reset();
    }
  }
  for (const ResourceRow& r : resources) {
    MS_RETURN_IF_ERROR(key_of(r.stack_id));
    resource->Bind(1, key).Bind(2, r.logical_id).Bind(3, r.json);
    MS_RETURN_IF_ERROR(resource->Step());
    resource->Reset();
  }
  for (const auto& [stack_id, logical_id] : batch.removed_resources) {
    MS_RETURN_IF_ERROR(key_of(stack_id));
    remove->Bind(1, key).Bind(2, logical_id);
    MS_RETURN_IF_ERROR(remove->Step());
    remove->Reset();
  }
  // One events row per run of one stack's events (schema 7), of at most
  // kEventsPerRow: a page of DescribeStackEvents parses a row or two, not
  // a 10,000-resource create's whole checkpoint.
  constexpr size_t kEventsPerRow = 256;
  std::string chunk;
  for (size_t i = 0; i < batch.events.size();) {
    const std::string& stack_id = batch.events[i].stack_id;
    MS_RETURN_IF_ERROR(key_of(stack_id));
    chunk.assign(1, '[');
    const size_t row_end = std::min(batch.events.size(), i + kEventsPerRow);
    for (; i < row_end && batch.events[i].stack_id == stack_id; ++i) {
      if (chunk.size() > 1) chunk.push_back(',');
      AppendEventJson(batch.events[i], &chunk);
    }
    chunk.push_back(']');
    event->Bind(1, key).Bind(2, chunk);
    MS_RETURN_IF_ERROR(event->Step());
    event->Reset();
  }
  // One provider_logs row per run of one stack's and operation's lines (schema 9).
  for (size_t i = 0; i < batch.logs.size();) {
    const ProviderLogRecord& first = batch.logs[i];
    MS_RETURN_IF_ERROR(key_of(first.stack_id));
    size_t end = i;
    while (end < batch.logs.size() && batch.logs[end].stack_id == first.stack_id &&
           batch.logs[end].operation == first.operation) {
      ++end;
    }
    MS_RETURN_IF_ERROR(AppendProviderLogChunk(db, key, &batch.logs[i], end - i));
    i = end;
  }
  // The same transaction: world and stacks are saved together.
  if (!world_changes.empty()) MS_RETURN_IF_ERROR(SaveWorldChanges(db, world_changes));
  return Status::OK();
}

}  // namespace

Status CommitBatch(Database* db, World* world, StoreBatch* batch) {
  if (batch->empty() && world == nullptr) return Status::OK();
  std::vector<WorldChange> world_changes;
  bool wrote = false;
  Status s = db->Transaction([&]() -> Status {
    // Taken under SQLite's write lock, so connections committing at once (the
    // server's operation threads) save world snapshots in the order they took
    // them and an older one never overwrites a newer one. One operation's
    // commit may carry another's world changes: fine, the world is shared.
    if (world != nullptr) world_changes = world->TakeChanges();
    if (batch->empty() && world_changes.empty()) return Status::OK();
    wrote = true;
    return WriteCheckpoint(db, *batch, ResourceRows(*batch), world_changes);
  });
  if (!s.ok()) {
    if (world != nullptr) world->MarkChanged(world_changes);  // nothing is lost: next commit retries
    return s;
  }
  if (!wrote) return Status::OK();
  batch->clear();
  CrashPoint();
  return Status::OK();
}

std::shared_ptr<PendingWrite> CommitBatchInBackground(Database* db, World* world, StoreBatch* batch, Status* status,
                                                      const std::function<void()>& world_taken) {
  // What the writer thread writes, taken here: the caller's records and the
  // world may change as soon as this returns.
  struct Taken {
    StoreBatch batch;
    std::vector<ResourceRow> resources;
    std::vector<WorldChange> world_changes;
    bool wrote = false;
  };
  auto taken = std::make_shared<Taken>();
  auto begin = [&]() -> Status {
    // Under the write lock, as in CommitBatch.
    if (world != nullptr) taken->world_changes = world->TakeChanges();
    if (world_taken) world_taken();
    taken->wrote = !batch->empty() || !taken->world_changes.empty();
    taken->resources = ResourceRows(*batch);
    batch->resources.clear();
    taken->batch = std::move(*batch);
    batch->clear();
    return Status::OK();
  };
  auto finish = [db, taken]() -> Status {
    if (!taken->wrote) return Status::OK();
    return WriteCheckpoint(db, taken->batch, taken->resources, taken->world_changes);
  };
  auto ended = [world, taken](const Status& s) {
    if (!s.ok()) {
      if (world != nullptr) world->MarkChanged(taken->world_changes);  // the next commit saves them
    } else if (taken->wrote) {
      CrashPoint();
    }
  };
  return db->TransactionInBackground(begin, std::move(finish), std::move(ended), status);
}

// A stack's row with its templates (LoadStackRows' columns; the slots of
// stack_templates: 0 its template, 1 the previous one, 2 and 3 the same as
// submitted when a transform changed them).
constexpr const char* kSelectStacks =
    "SELECT s.data, COALESCE(t.body, ''), COALESCE(p.body, ''), COALESCE(o.body, ''), COALESCE(po.body, '') "
    "FROM stacks s "
    "LEFT JOIN stack_templates t ON t.stack_id = s.id AND t.slot = 0 "
    "LEFT JOIN stack_templates p ON p.stack_id = s.id AND p.slot = 1 "
    "LEFT JOIN stack_templates o ON o.stack_id = s.id AND o.slot = 2 "
    "LEFT JOIN stack_templates po ON po.stack_id = s.id AND po.slot = 3 ";
// A stack's row alone (StackRowParts::kRecordOnly).
constexpr const char* kSelectStackRecords = "SELECT s.data FROM stacks s ";

std::string SelectStacks(StackRowParts parts) {
  return parts == StackRowParts::kWithTemplates ? kSelectStacks : kSelectStackRecords;
}

Status LoadStacks(Database* db, std::vector<StackRecord>* out) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(std::string(kSelectStacks) + "ORDER BY s.rowid", &st));
  return LoadStackRows(st.get(), out);
}

Status LoadStack(Database* db, const std::string& id, StackRecord* out, bool* found, StackRowParts parts) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(SelectStacks(parts) + "WHERE s.id = ?1", &st));
  st->Bind(1, id);
  std::vector<StackRecord> rows;
  MS_RETURN_IF_ERROR(LoadStackRows(st.get(), &rows));
  *found = !rows.empty();
  if (*found) *out = std::move(rows[0]);
  return Status::OK();
}

Status LoadStacks(Database* db, const StackScope& scope, std::vector<StackRecord>* out, StackRowParts parts) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(
      db->Prepare(SelectStacks(parts) + "WHERE s.region = ?1 AND s.account = ?2 ORDER BY s.rowid", &st));
  st->Bind(1, scope.region).Bind(2, scope.account);
  return LoadStackRows(st.get(), out);
}

Status FindActiveStack(Database* db, const StackScope& scope, const std::string& name, StackRecord* out,
                       bool* found, StackRowParts parts) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(SelectStacks(parts) +
                                     "WHERE s.region = ?1 AND s.account = ?2 AND s.name = ?3 AND s.deleted = 0",
                                 &st));
  st->Bind(1, scope.region).Bind(2, scope.account).Bind(3, name);
  std::vector<StackRecord> rows;
  MS_RETURN_IF_ERROR(LoadStackRows(st.get(), &rows));
  *found = !rows.empty();
  if (*found) *out = std::move(rows[0]);
  return Status::OK();
}

Status FindStackInScope(Database* db, const StackScope& scope, const std::string& name_or_id, StackRecord* out,
                        bool* found, StackRowParts parts) {
  if (name_or_id.rfind("arn:", 0) != 0) return FindActiveStack(db, scope, name_or_id, out, found, parts);
  StackScope of_id;
  if (!ScopeOfArn(name_or_id, &of_id) || of_id != scope) {
    *found = false;
    return Status::OK();
  }
  return LoadStack(db, name_or_id, out, found, parts);
}

Status IndexOperation(Database* db, const std::string& operation_id, const std::string& stack_id) {
  Statement* st;
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT OR IGNORE INTO operations (id, stack) SELECT ?1, stack_key FROM stacks WHERE id = ?2", &st));
  st->Bind(1, operation_id).Bind(2, stack_id);
  Status s = st->Step();
  st->Reset();
  return s;
}

Status FindOperationStack(Database* db, const std::string& operation_id, std::string* stack_id, bool* found) {
  Statement* st;
  MS_RETURN_IF_ERROR(
      db->Cached("SELECT s.id FROM operations o JOIN stacks s ON s.stack_key = o.stack WHERE o.id = ?1", &st));
  st->Bind(1, operation_id);
  MS_RETURN_IF_ERROR(st->Step(found));
  if (*found) *stack_id = st->Text(0);
  st->Reset();
  return Status::OK();
}

Status LoadResources(Database* db, const std::string& stack_id, std::vector<ResourceRecord>* out) {
  std::unique_ptr<Statement> st;
  // Counted first: growing the vector would move every record ~log2(n) times.
  MS_RETURN_IF_ERROR(
      db->Prepare("SELECT COUNT(*) FROM resources WHERE stack = " + std::string(kStackKeyOfId), &st));
  st->Bind(1, stack_id);
  bool counted = false;
  MS_RETURN_IF_ERROR(st->Step(&counted));
  if (counted) out->reserve(out->size() + static_cast<size_t>(st->Int(0)));
  // resources_by_stack gives the rows in rowid order without a sort (schema.cc, migration 6).
  MS_RETURN_IF_ERROR(
      db->Prepare("SELECT data FROM resources WHERE stack = " + std::string(kStackKeyOfId) + " ORDER BY rowid", &st));
  st->Bind(1, stack_id);
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) return Status::OK();
    Value v;
    MS_RETURN_IF_ERROR(ParseRow(st->Text(0), "resource", &v));
    ResourceRecord r;
    MS_RETURN_IF_ERROR(ResourceFromValue(std::move(v), stack_id, &r));
    out->push_back(std::move(r));
  }
}

Status LoadEvents(Database* db, const std::string& stack_id, std::vector<StackEvent>* out) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(
      "SELECT data FROM events WHERE stack = " + std::string(kStackKeyOfId) + " ORDER BY seq DESC", &st));
  st->Bind(1, stack_id);
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) return Status::OK();
    Value chunk;
    Status s = ParseJson(st->Text(0), &chunk);
    if (!s.ok()) return Status::Internal("store: corrupt events: " + s.message());
    if (!chunk.is_list()) return Status::Internal("store: corrupt events: not a JSON array");
    const std::vector<Value>& events = chunk.list();
    for (auto e = events.rbegin(); e != events.rend(); ++e) {
      if (!e->is_map()) return Status::Internal("store: corrupt event: not an object");
      out->push_back(EventFromValue(*e, stack_id));
    }
  }
}

Status LoadResourcePage(Database* db, const std::string& stack_id, const PageRequest& page,
                        std::vector<ResourceRecord>* out, PageResult* result) {
  *result = PageResult();
  std::unique_ptr<Statement> st;
  int64_t first_rowid = 0;
  if (!page.from.empty()) {
    MS_RETURN_IF_ERROR(db->Prepare(
        "SELECT rowid FROM resources WHERE stack = " + std::string(kStackKeyOfId) + " AND logical_id = ?2", &st));
    st->Bind(1, stack_id).Bind(2, page.from);
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) {
      result->found = false;
      return Status::OK();
    }
    first_rowid = st->Int(0);
  }
  // One row past the page: its logical ID is the next page's token.
  MS_RETURN_IF_ERROR(db->Prepare("SELECT logical_id, data FROM resources WHERE stack = " +
                                     std::string(kStackKeyOfId) + " AND rowid >= ?2 ORDER BY rowid LIMIT ?3",
                                 &st));
  st->Bind(1, stack_id).Bind(2, first_rowid).Bind(3, static_cast<int64_t>(page.limit + 1));
  for (size_t n = 0;; ++n) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) return Status::OK();
    if (n == page.limit) {
      result->next = st->Text(0);
      return Status::OK();
    }
    Value v;
    MS_RETURN_IF_ERROR(ParseRow(st->Text(1), "resource", &v));
    ResourceRecord r;
    MS_RETURN_IF_ERROR(ResourceFromValue(std::move(v), stack_id, &r));
    out->push_back(std::move(r));
  }
}

namespace {

// "<row>.<index>": events row `row`, its event at `index` (0: the oldest).
bool ParseEventToken(const std::string& token, int64_t* row, size_t* index) {
  const size_t dot = token.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == token.size()) return false;
  for (size_t i = 0; i < token.size(); ++i) {
    if (i != dot && (token[i] < '0' || token[i] > '9')) return false;
  }
  if (dot > 15 || token.size() - dot - 1 > 9) return false;  // no overflow
  *row = std::stoll(token.substr(0, dot));
  *index = static_cast<size_t>(std::stoul(token.substr(dot + 1)));
  return true;
}

}  // namespace

Status LoadEventPage(Database* db, const std::string& stack_id, const PageRequest& page,
                     std::vector<StackEvent>* out, PageResult* result) {
  *result = PageResult();
  int64_t row_from = INT64_MAX;
  size_t index_from = SIZE_MAX;  // within the first row read: that event and older ones
  if (!page.from.empty() && !ParseEventToken(page.from, &row_from, &index_from)) {
    result->found = false;
    return Status::OK();
  }
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare("SELECT seq, data FROM events WHERE stack = " + std::string(kStackKeyOfId) +
                                     " AND seq <= ?2 ORDER BY seq DESC",
                                 &st));
  st->Bind(1, stack_id).Bind(2, row_from);
  bool first = true;
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) break;
    const int64_t seq = st->Int(0);
    Value chunk;
    Status s = ParseJson(st->Text(1), &chunk);
    if (!s.ok()) return Status::Internal("store: corrupt events: " + s.message());
    if (!chunk.is_list()) return Status::Internal("store: corrupt events: not a JSON array");
    const std::vector<Value>& events = chunk.list();
    size_t i = events.size();  // one past the newest to list
    if (first && !page.from.empty()) {
      if (seq != row_from || index_from >= events.size()) {
        result->found = false;
        return Status::OK();
      }
      i = index_from + 1;
    }
    first = false;
    for (; i > 0; --i) {
      if (out->size() == page.limit) {
        result->next = std::to_string(seq) + "." + std::to_string(i - 1);
        return Status::OK();
      }
      const Value& e = events[i - 1];
      if (!e.is_map()) return Status::Internal("store: corrupt event: not an object");
      out->push_back(EventFromValue(e, stack_id));
    }
  }
  if (first && !page.from.empty()) result->found = false;  // the row is gone
  return Status::OK();
}

Status LoadExports(Database* db, const StackScope& scope, std::vector<ExportRecord>* out) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(
      "SELECT name, stack_id, value FROM exports WHERE region = ?1 AND account = ?2 ORDER BY name", &st));
  st->Bind(1, scope.region).Bind(2, scope.account);
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) return Status::OK();
    out->push_back({st->Text(0), st->Text(1), st->Text(2)});
  }
}

Status FindExport(Database* db, const StackScope& scope, const std::string& name, ExportRecord* out, bool* found) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(
      "SELECT name, stack_id, value FROM exports WHERE region = ?1 AND account = ?2 AND name = ?3", &st));
  st->Bind(1, scope.region).Bind(2, scope.account).Bind(3, name);
  bool row = false;
  MS_RETURN_IF_ERROR(st->Step(&row));
  *found = row;
  if (row) *out = {st->Text(0), st->Text(1), st->Text(2)};
  return Status::OK();
}

bool ExportValue(Database* db, const StackScope& scope, const std::string& name, std::string* value) {
  ExportRecord e;
  bool found = false;
  if (!FindExport(db, scope, name, &e, &found).ok() || !found) return false;
  *value = e.value;
  return true;
}

}  // namespace ms
