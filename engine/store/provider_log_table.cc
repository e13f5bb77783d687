#include "store/provider_log_table.h"

#include "store/record_json.h"
#include "store/schema.h"
#include "template/parse.h"

namespace ms {

using namespace record_json;  // NOLINT: the field helpers every reader and writer here uses

namespace {

void AppendLineJson(const ProviderLogRecord& l, std::string* out) {
  ObjectWriter w(out);
  w.Str("stack_name", l.stack_name);
  w.Int("timestamp_ms", l.timestamp_ms);
  w.StrIfAny("logical_id", l.logical_id);
  w.StrIfAny("hook", l.hook);
  w.Str("level", LogLevelName(l.level));
  w.Str("message", l.message);
  w.StrIfAny("detail", l.detail);
}

ProviderLogRecord LineFromValue(const Value& v, const std::string& stack_id, int64_t operation) {
  ProviderLogRecord l;
  l.stack_id = stack_id;
  l.stack_name = GetStr(v, "stack_name");
  l.operation = operation;
  l.timestamp_ms = GetInt(v, "timestamp_ms");
  l.logical_id = GetStr(v, "logical_id");
  l.hook = GetStr(v, "hook");
  ParseLogLevel(GetStr(v, "level"), &l.level);
  l.message = GetStr(v, "message");
  l.detail = GetStr(v, "detail");
  return l;
}

}  // namespace

Status NextProviderLogOperation(Database* db, const std::string& stack_id, int64_t* operation) {
  Statement* st;
  MS_RETURN_IF_ERROR(db->Cached(
      "SELECT COALESCE(MAX(operation), 0) + 1 FROM provider_logs WHERE stack = " + std::string(kStackKeyOfId), &st));
  st->Bind(1, stack_id);
  bool row = false;
  MS_RETURN_IF_ERROR(st->Step(&row));
  *operation = row ? st->Int(0) : 1;
  st->Reset();
  return Status::OK();
}

Status AppendProviderLogChunk(Database* db, int64_t stack_key, const ProviderLogRecord* lines, size_t n) {
  if (n == 0) return Status::OK();
  Statement* insert;
  MS_RETURN_IF_ERROR(db->Cached("INSERT INTO provider_logs (stack, operation, data) VALUES (?1, ?2, ?3)", &insert));
  std::string chunk(1, '[');
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) chunk.push_back(',');
    AppendLineJson(lines[i], &chunk);
  }
  chunk.push_back(']');
  insert->Bind(1, stack_key).Bind(2, lines[0].operation).Bind(3, chunk);
  MS_RETURN_IF_ERROR(insert->Step());
  insert->Reset();
  Statement* prune;  // provider_logs_by_stack's range: rows only when an operation logs first
  MS_RETURN_IF_ERROR(db->Cached("DELETE FROM provider_logs WHERE stack = ?1 AND operation <= ?2", &prune));
  prune->Bind(1, stack_key).Bind(2, lines[0].operation - kProviderLogOperationsKept);
  MS_RETURN_IF_ERROR(prune->Step());
  prune->Reset();
  return Status::OK();
}

Status LoadProviderLog(Database* db, const std::string& stack_id, const std::string& logical_id,
                       std::vector<ProviderLogRecord>* out) {
  const std::string sql = "SELECT operation, data FROM provider_logs WHERE stack = " + std::string(kStackKeyOfId) +
                          " ORDER BY operation, seq";
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(sql, &st));
  st->Bind(1, stack_id);
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) return Status::OK();
    const int64_t operation = st->Int(0);
    Value chunk;
    Status s = ParseJson(st->Text(1), &chunk);
    if (!s.ok()) return Status::Internal("store: corrupt provider log: " + s.message());
    if (!chunk.is_list()) return Status::Internal("store: corrupt provider log: not a JSON array");
    for (const Value& v : chunk.list()) {
      if (!v.is_map()) return Status::Internal("store: corrupt provider log line: not an object");
      ProviderLogRecord l = LineFromValue(v, stack_id, operation);
      if (!logical_id.empty() && l.logical_id != logical_id) continue;
      out->push_back(std::move(l));
    }
  }
}

}  // namespace ms
