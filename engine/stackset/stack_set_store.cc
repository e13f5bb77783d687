#include "stackset/stack_set_store.h"

#include <map>
#include <memory>

#include "store/record_json.h"
#include "template/value.h"

namespace ms {
namespace {

using record_json::GetBool;
using record_json::GetInt;
using record_json::GetList;
using record_json::GetStr;
using record_json::ForEachRow;
using record_json::GetStrings;
using record_json::Str;

Value ParamsToValue(const std::vector<StackSetParameter>& params) {
  Value::List items;
  for (const StackSetParameter& p : params) {
    Value m = Value::MakeMap();
    m.set("key", Str(p.key));
    m.set("value", Str(p.value));
    items.push_back(std::move(m));
  }
  return Value::MakeList(std::move(items));
}

std::vector<StackSetParameter> ParamsFromValue(const Value& list) {
  std::vector<StackSetParameter> out;
  if (!list.is_list()) return out;
  for (const Value& m : list.list()) out.push_back({GetStr(m, "key"), GetStr(m, "value")});
  return out;
}

void SetOptional(Value* m, const char* key, const std::optional<int64_t>& v) {
  if (v) m->set(key, Value::Integer(*v));
}
std::optional<int64_t> GetOptional(const Value& m, const char* key) {
  if (m.find(key) == nullptr) return std::nullopt;
  return GetInt(m, key);
}

Value PreferencesToValue(const OperationPreferences& p) {
  Value m = Value::MakeMap();
  m.set("concurrency", Str(p.region_concurrency_type));
  m.set("order", Value::StringList(p.region_order));
  SetOptional(&m, "ftc", p.failure_tolerance_count);
  SetOptional(&m, "ftp", p.failure_tolerance_percentage);
  SetOptional(&m, "mcc", p.max_concurrent_count);
  SetOptional(&m, "mcp", p.max_concurrent_percentage);
  m.set("mode", Str(p.concurrency_mode));
  return m;
}

OperationPreferences PreferencesFromValue(const Value& m) {
  OperationPreferences p;
  p.region_concurrency_type = GetStr(m, "concurrency");
  p.region_order = GetStrings(m, "order");
  p.failure_tolerance_count = GetOptional(m, "ftc");
  p.failure_tolerance_percentage = GetOptional(m, "ftp");
  p.max_concurrent_count = GetOptional(m, "mcc");
  p.max_concurrent_percentage = GetOptional(m, "mcp");
  p.concurrency_mode = GetStr(m, "mode");
  return p;
}

std::string SetJson(const StackSetRecord& s) {
  Value m = Value::MakeMap();
  m.set("arn", Str(s.arn));
  m.set("description", Str(s.description));
  m.set("template", Str(s.template_body));
  m.set("parameters", ParamsToValue(s.parameters));
  m.set("capabilities", Value::StringList(s.capabilities));
  m.set("tags", record_json::TagsToValue(s.tags));
  m.set("permission_model", Str(s.permission_model));
  m.set("administration_role_arn", Str(s.administration_role_arn));
  m.set("execution_role_name", Str(s.execution_role_name));
  m.set("auto_deployment_given", Value::Bool(s.auto_deployment_given));
  m.set("auto_deployment_enabled", Value::Bool(s.auto_deployment_enabled));
  m.set("retain_stacks_on_account_removal", Value::Bool(s.retain_stacks_on_account_removal));
  m.set("organizational_unit_ids", Value::StringList(s.organizational_unit_ids));
  m.set("created_ms", Value::Integer(s.created_ms));
  Value d = Value::MakeMap();
  d.set("status", Str(s.drift.drift_status));
  d.set("detection_status", Str(s.drift.detection_status));
  d.set("last_check_ms", Value::Integer(s.drift.last_check_ms));
  d.set("total", Value::Integer(s.drift.total));
  d.set("drifted", Value::Integer(s.drift.drifted));
  d.set("in_sync", Value::Integer(s.drift.in_sync));
  d.set("in_progress", Value::Integer(s.drift.in_progress));
  d.set("failed", Value::Integer(s.drift.failed));
  m.set("drift", std::move(d));
  return m.ToJson();
}

StackSetRecord SetFromRow(Statement* st, const Value& m) {
  StackSetRecord s;
  s.id = st->Text(0);
  s.region = st->Text(1);
  s.account = st->Text(2);
  s.name = st->Text(3);
  s.deleted = st->Int(4) != 0;
  s.arn = GetStr(m, "arn");
  s.description = GetStr(m, "description");
  s.template_body = GetStr(m, "template");
  s.parameters = ParamsFromValue(GetList(m, "parameters"));
  s.capabilities = GetStrings(m, "capabilities");
  s.tags = record_json::TagsFromValue(GetList(m, "tags"));
  s.permission_model = GetStr(m, "permission_model");
  s.administration_role_arn = GetStr(m, "administration_role_arn");
  s.execution_role_name = GetStr(m, "execution_role_name");
  s.auto_deployment_given = GetBool(m, "auto_deployment_given");
  s.auto_deployment_enabled = GetBool(m, "auto_deployment_enabled");
  s.retain_stacks_on_account_removal = GetBool(m, "retain_stacks_on_account_removal");
  s.organizational_unit_ids = GetStrings(m, "organizational_unit_ids");
  s.created_ms = GetInt(m, "created_ms");
  if (const Value* d = m.find("drift")) {  // absent: written before drift detection of sets
    s.drift.drift_status = GetStr(*d, "status");
    s.drift.detection_status = GetStr(*d, "detection_status");
    s.drift.last_check_ms = GetInt(*d, "last_check_ms");
    s.drift.total = GetInt(*d, "total");
    s.drift.drifted = GetInt(*d, "drifted");
    s.drift.in_sync = GetInt(*d, "in_sync");
    s.drift.in_progress = GetInt(*d, "in_progress");
    s.drift.failed = GetInt(*d, "failed");
  }
  return s;
}

std::string InstanceJson(const StackInstanceRecord& i) {
  Value m = Value::MakeMap();
  m.set("stack_id", Str(i.stack_id));
  m.set("stack_name", Str(i.stack_name));
  m.set("created_by_operation", Str(i.created_by_operation));
  m.set("updated_by_operation", Str(i.updated_by_operation));
  m.set("event_before_update", Str(i.event_before_update));
  m.set("overrides", ParamsToValue(i.parameter_overrides));
  m.set("status", Str(i.status));
  m.set("detailed_status", Str(i.detailed_status));
  m.set("reason", Str(i.reason));
  m.set("ou", Str(i.organizational_unit_id));
  m.set("last_operation_id", Str(i.last_operation_id));
  m.set("drift_status", Str(i.drift_status));
  m.set("last_drift_check_ms", Value::Integer(i.last_drift_check_ms));
  return m.ToJson();
}

std::string OperationJson(const StackSetOperationRecord& op) {
  Value m = Value::MakeMap();
  m.set("action", Str(op.action));
  m.set("status", Str(op.status));
  m.set("status_reason", Str(op.status_reason));
  m.set("preferences", PreferencesToValue(op.preferences));
  m.set("retain_stacks", Value::Bool(op.retain_stacks));
  m.set("administration_role_arn", Str(op.administration_role_arn));
  m.set("execution_role_name", Str(op.execution_role_name));
  m.set("target_accounts", Value::StringList(op.targets.accounts));
  m.set("target_ous", Value::StringList(op.targets.organizational_unit_ids));
  m.set("created_ms", Value::Integer(op.created_ms));
  m.set("ended_ms", Value::Integer(op.ended_ms));
  return m.ToJson();
}

StackSetOperationRecord OperationFromRow(const std::string& set_id, const std::string& id, const Value& m) {
  StackSetOperationRecord op;
  op.id = id;
  op.stack_set_id = set_id;
  op.action = GetStr(m, "action");
  op.status = GetStr(m, "status");
  op.status_reason = GetStr(m, "status_reason");
  if (const Value* p = m.find("preferences")) op.preferences = PreferencesFromValue(*p);
  op.retain_stacks = GetBool(m, "retain_stacks");
  op.administration_role_arn = GetStr(m, "administration_role_arn");
  op.execution_role_name = GetStr(m, "execution_role_name");
  op.targets.accounts = GetStrings(m, "target_accounts");
  op.targets.organizational_unit_ids = GetStrings(m, "target_ous");
  op.created_ms = GetInt(m, "created_ms");
  op.ended_ms = GetInt(m, "ended_ms");
  return op;
}

// A result's row (migration 16): its account and region are the row's key.
std::string ResultJson(const OperationResult& r) {
  Value m = Value::MakeMap();
  m.set("status", Str(r.status));
  m.set("reason", Str(r.reason));
  m.set("ou", Str(r.organizational_unit_id));
  return m.ToJson();
}

OperationResult ResultFromRow(Statement* st, const Value& m) {
  return {st->Text(0), st->Text(1), GetStr(m, "status"), GetStr(m, "reason"), GetStr(m, "ou")};
}

// The rows of `st` (SELECT id, region, account, name, deleted, data) as sets.
Status LoadSets(Statement* st, std::vector<StackSetRecord>* out) {
  return ForEachRow(st, 5, "stack set", [&](Value m) { out->push_back(SetFromRow(st, m)); });
}

Status LoadOneSet(Statement* st, StackSetRecord* out, bool* found) {
  std::vector<StackSetRecord> rows;
  MS_RETURN_IF_ERROR(LoadSets(st, &rows));
  *found = !rows.empty();
  if (*found) *out = std::move(rows[0]);
  return Status::OK();
}

constexpr const char* kSetColumns = "SELECT id, region, account, name, deleted, data FROM stack_sets ";

}  // namespace

Status SaveStackSet(Database* db, const StackSetRecord& set) {
  Statement* st = nullptr;
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT INTO stack_sets (id, region, account, name, deleted, data) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
      "ON CONFLICT (id) DO UPDATE SET deleted = ?5, data = ?6",
      &st));
  st->Bind(1, set.id).Bind(2, set.region).Bind(3, set.account).Bind(4, set.name);
  st->Bind(5, static_cast<int64_t>(set.deleted ? 1 : 0)).Bind(6, SetJson(set));
  return st->Step();
}

Status FindStackSet(Database* db, const StackScope& scope, const std::string& name_or_id, StackSetRecord* out,
                    bool* found) {
  *found = false;
  // An ARN names the set by its StackSetId: arn:...:stackset/<name>:<uuid>.
  std::string key = name_or_id;
  const size_t slash = key.rfind(":stackset/");
  if (key.rfind("arn:", 0) == 0 && slash != std::string::npos) key = key.substr(slash + 10);
  std::unique_ptr<Statement> st;
  const bool by_id = key.find(':') != std::string::npos;
  MS_RETURN_IF_ERROR(db->Prepare(std::string(kSetColumns) +
                                     (by_id ? "WHERE region = ?1 AND account = ?2 AND id = ?3"
                                            : "WHERE region = ?1 AND account = ?2 AND name = ?3 AND deleted = 0"),
                                 &st));
  st->Bind(1, scope.region).Bind(2, scope.account).Bind(3, key);
  return LoadOneSet(st.get(), out, found);
}

Status LoadStackSetById(Database* db, const std::string& id, StackSetRecord* out, bool* found) {
  *found = false;
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(std::string(kSetColumns) + "WHERE id = ?1", &st));
  st->Bind(1, id);
  return LoadOneSet(st.get(), out, found);
}

Status ListStackSets(Database* db, const StackScope& scope, std::vector<StackSetRecord>* out) {
  out->clear();
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(std::string(kSetColumns) + "WHERE region = ?1 AND account = ?2 ORDER BY rowid", &st));
  st->Bind(1, scope.region).Bind(2, scope.account);
  return LoadSets(st.get(), out);
}

Status SaveStackInstance(Database* db, const StackInstanceRecord& i) {
  Statement* st = nullptr;
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT INTO stack_instances (stack_set_id, account, region, data) VALUES (?1, ?2, ?3, ?4) "
      "ON CONFLICT (stack_set_id, account, region) DO UPDATE SET data = excluded.data",
      &st));
  st->Bind(1, i.stack_set_id).Bind(2, i.account).Bind(3, i.region).Bind(4, InstanceJson(i));
  return st->Step();
}

Status DeleteStackInstance(Database* db, const std::string& set_id, const std::string& account,
                           const std::string& region) {
  Statement* st = nullptr;
  MS_RETURN_IF_ERROR(
      db->Cached("DELETE FROM stack_instances WHERE stack_set_id = ?1 AND account = ?2 AND region = ?3", &st));
  st->Bind(1, set_id).Bind(2, account).Bind(3, region);
  return st->Step();
}

Status LoadStackInstances(Database* db, const std::string& set_id, std::vector<StackInstanceRecord>* out) {
  out->clear();
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(
      db->Prepare("SELECT account, region, data FROM stack_instances WHERE stack_set_id = ?1 ORDER BY rowid", &st));
  st->Bind(1, set_id);
  return ForEachRow(st.get(), 2, "stack instance", [&](Value m) {
    StackInstanceRecord i;
    i.stack_set_id = set_id;
    i.account = st->Text(0);
    i.region = st->Text(1);
    i.stack_id = GetStr(m, "stack_id");
    i.stack_name = GetStr(m, "stack_name");
    i.created_by_operation = GetStr(m, "created_by_operation");
    i.updated_by_operation = GetStr(m, "updated_by_operation");
    i.event_before_update = GetStr(m, "event_before_update");
    i.parameter_overrides = ParamsFromValue(GetList(m, "overrides"));
    i.status = GetStr(m, "status");
    i.detailed_status = GetStr(m, "detailed_status");
    i.reason = GetStr(m, "reason");
    i.organizational_unit_id = GetStr(m, "ou");
    i.last_operation_id = GetStr(m, "last_operation_id");
    if (m.find("drift_status") != nullptr) i.drift_status = GetStr(m, "drift_status");
    i.last_drift_check_ms = GetInt(m, "last_drift_check_ms");
    out->push_back(std::move(i));
  });
}

Status SaveStackSetOperationRow(Database* db, const StackSetOperationRecord& op) {
  Statement* st = nullptr;
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT INTO stack_set_operations (stack_set_id, id, active, data) VALUES (?1, ?2, ?3, ?4) "
      "ON CONFLICT (stack_set_id, id) DO UPDATE SET active = excluded.active, data = excluded.data",
      &st));
  st->Bind(1, op.stack_set_id).Bind(2, op.id).Bind(3, static_cast<int64_t>(op.active() ? 1 : 0));
  st->Bind(4, OperationJson(op));
  return st->Step();
}

Status SaveStackSetOperationResult(Database* db, const StackSetOperationRecord& op, const OperationResult& r) {
  Statement* st = nullptr;
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT INTO stack_set_operation_results (stack_set_id, operation_id, account, region, data) "
      "VALUES (?1, ?2, ?3, ?4, ?5) "
      "ON CONFLICT (stack_set_id, operation_id, account, region) DO UPDATE SET data = excluded.data",
      &st));
  st->Bind(1, op.stack_set_id).Bind(2, op.id).Bind(3, r.account).Bind(4, r.region).Bind(5, ResultJson(r));
  return st->Step();
}

Status SaveStackSetOperation(Database* db, const StackSetOperationRecord& op) {
  MS_RETURN_IF_ERROR(SaveStackSetOperationRow(db, op));
  for (const OperationResult& r : op.results) MS_RETURN_IF_ERROR(SaveStackSetOperationResult(db, op, r));
  return Status::OK();
}

Status LoadStackSetOperation(Database* db, const std::string& set_id, const std::string& op_id,
                             StackSetOperationRecord* out, bool* found, bool with_results) {
  *found = false;
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare("SELECT data FROM stack_set_operations WHERE stack_set_id = ?1 AND id = ?2", &st));
  st->Bind(1, set_id).Bind(2, op_id);
  MS_RETURN_IF_ERROR(ForEachRow(st.get(), 0, "stack set operation", [&](Value m) {
    *out = OperationFromRow(set_id, op_id, m);
    *found = true;
  }));
  if (!*found || !with_results) return Status::OK();
  MS_RETURN_IF_ERROR(db->Prepare(
      "SELECT account, region, data FROM stack_set_operation_results WHERE stack_set_id = ?1 AND operation_id = ?2 "
      "ORDER BY seq",
      &st));
  st->Bind(1, set_id).Bind(2, op_id);
  return ForEachRow(st.get(), 2, "stack set operation result",
                    [&](Value m) { out->results.push_back(ResultFromRow(st.get(), m)); });
}

Status LoadStackSetOperations(Database* db, const std::string& set_id, std::vector<StackSetOperationRecord>* out) {
  out->clear();
  std::map<std::string, size_t> by_id;
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(
      db->Prepare("SELECT data, id FROM stack_set_operations WHERE stack_set_id = ?1 ORDER BY seq", &st));
  st->Bind(1, set_id);
  MS_RETURN_IF_ERROR(ForEachRow(st.get(), 0, "stack set operation", [&](Value m) {
    by_id[st->Text(1)] = out->size();
    out->push_back(OperationFromRow(set_id, st->Text(1), m));
  }));
  // Every operation's results in one pass (the summaries count the failed ones).
  MS_RETURN_IF_ERROR(db->Prepare(
      "SELECT account, region, data, operation_id FROM stack_set_operation_results WHERE stack_set_id = ?1 "
      "ORDER BY seq",
      &st));
  st->Bind(1, set_id);
  return ForEachRow(st.get(), 2, "stack set operation result", [&](Value m) {
    auto it = by_id.find(st->Text(3));
    if (it != by_id.end()) (*out)[it->second].results.push_back(ResultFromRow(st.get(), m));
  });
}

Status ActiveStackSetOperation(Database* db, const std::string& set_id, std::string* op_id) {
  op_id->clear();
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(
      "SELECT id FROM stack_set_operations WHERE active = 1 AND stack_set_id = ?1 ORDER BY seq LIMIT 1", &st));
  st->Bind(1, set_id);
  bool row = false;
  MS_RETURN_IF_ERROR(st->Step(&row));
  if (row) *op_id = st->Text(0);
  return Status::OK();
}

Status UnfinishedStackSetOperations(Database* db, std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(
      db->Prepare("SELECT stack_set_id, id FROM stack_set_operations WHERE active = 1 ORDER BY seq", &st));
  while (true) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) return Status::OK();
    out->emplace_back(st->Text(0), st->Text(1));
  }
}

Status DeleteAllStackSets(Database* db) {
  for (const char* table : {"stack_set_operation_results", "stack_set_operations", "stack_instances", "stack_sets"}) {
    MS_RETURN_IF_ERROR(db->Exec(std::string("DELETE FROM ") + table));
  }
  return Status::OK();
}

}  // namespace ms
