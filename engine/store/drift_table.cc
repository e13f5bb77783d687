#include "store/drift_table.h"

#include <memory>

#include "store/record_json.h"

namespace ms {

using namespace record_json;  // NOLINT: the field helpers

namespace {

Value DetectionToValue(const StackDriftDetection& d) {
  Value v = Value::MakeMap();
  v.set("id", Str(d.id));
  v.set("stack_id", Str(d.stack_id));
  v.set("detection_status", Str(d.detection_status));
  v.set("stack_drift_status", Str(d.stack_drift_status));
  v.set("reason", Str(d.reason));
  v.set("drifted_count", Value::Integer(d.drifted_count));
  v.set("timestamp_ms", Value::Integer(d.timestamp_ms));
  return v;
}

StackDriftDetection DetectionFromValue(const Value& v) {
  StackDriftDetection d;
  d.id = GetStr(v, "id");
  d.stack_id = GetStr(v, "stack_id");
  d.detection_status = GetStr(v, "detection_status");
  d.stack_drift_status = GetStr(v, "stack_drift_status");
  d.reason = GetStr(v, "reason");
  d.drifted_count = GetInt(v, "drifted_count");
  d.timestamp_ms = GetInt(v, "timestamp_ms");
  return d;
}

Value ResourceDriftToValue(const ResourceDrift& r) {
  Value v = Value::MakeMap();
  v.set("logical_id", Str(r.logical_id));
  v.set("physical_id", Str(r.physical_id));
  v.set("type", Str(r.type));
  v.set("expected", Str(r.expected_properties));
  v.set("actual", Str(r.actual_properties));
  Value::List diffs;
  for (const PropertyDifference& p : r.differences) {
    Value d = Value::MakeMap();
    d.set("path", Str(p.path));
    d.set("expected", Str(p.expected_value));
    d.set("actual", Str(p.actual_value));
    d.set("type", Str(p.difference_type));
    diffs.push_back(std::move(d));
  }
  v.set("differences", Value::MakeList(std::move(diffs)));
  v.set("status", Str(r.status));
  v.set("reason", Str(r.reason));
  v.set("timestamp_ms", Value::Integer(r.timestamp_ms));
  return v;
}

ResourceDrift ResourceDriftFromValue(const Value& v, const std::string& stack_id) {
  ResourceDrift r;
  r.stack_id = stack_id;
  r.logical_id = GetStr(v, "logical_id");
  r.physical_id = GetStr(v, "physical_id");
  r.type = GetStr(v, "type");
  r.expected_properties = GetStr(v, "expected");
  r.actual_properties = GetStr(v, "actual");
  for (const Value& d : GetList(v, "differences").list()) {
    r.differences.push_back({GetStr(d, "path"), GetStr(d, "expected"), GetStr(d, "actual"), GetStr(d, "type")});
  }
  r.status = GetStr(v, "status");
  r.reason = GetStr(v, "reason");
  r.timestamp_ms = GetInt(v, "timestamp_ms");
  return r;
}

Status LoadDetection(Statement* st, StackDriftDetection* out, bool* found) {
  *found = false;
  return ForEachRow(st, 0, "drift detection", [&](Value v) {
    *out = DetectionFromValue(v);
    *found = true;
  });
}

}  // namespace

Status SaveDrift(Database* db, const StackDriftDetection* detection, const std::vector<ResourceDrift>& resources) {
  return db->Transaction([&]() -> Status {
    if (detection != nullptr && !detection->id.empty()) {
      std::unique_ptr<Statement> st;
      MS_RETURN_IF_ERROR(
          db->Prepare("INSERT OR REPLACE INTO drift_detections (id, stack_id, data) VALUES (?1, ?2, ?3)", &st));
      st->Bind(1, detection->id).Bind(2, detection->stack_id).Bind(3, DetectionToValue(*detection).ToJson());
      MS_RETURN_IF_ERROR(st->Step());
    }
    std::unique_ptr<Statement> st;
    MS_RETURN_IF_ERROR(db->Prepare(
        "INSERT INTO resource_drifts (stack_id, logical_id, data) VALUES (?1, ?2, ?3)"
        " ON CONFLICT (stack_id, logical_id) DO UPDATE SET data = excluded.data",
        &st));
    for (const ResourceDrift& r : resources) {
      st->Reset();
      st->Bind(1, r.stack_id).Bind(2, r.logical_id).Bind(3, ResourceDriftToValue(r).ToJson());
      MS_RETURN_IF_ERROR(st->Step());
    }
    return Status::OK();
  });
}

Status LoadDriftDetection(Database* db, const std::string& id, StackDriftDetection* out, bool* found) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare("SELECT data FROM drift_detections WHERE id = ?1", &st));
  st->Bind(1, id);
  return LoadDetection(st.get(), out, found);
}

Status LatestDriftDetection(Database* db, const std::string& stack_id, StackDriftDetection* out, bool* found) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(
      db->Prepare("SELECT data FROM drift_detections WHERE stack_id = ?1 ORDER BY rowid DESC LIMIT 1", &st));
  st->Bind(1, stack_id);
  return LoadDetection(st.get(), out, found);
}

Status LoadResourceDrifts(Database* db, const std::string& stack_id, std::vector<ResourceDrift>* out) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare("SELECT data FROM resource_drifts WHERE stack_id = ?1 ORDER BY rowid", &st));
  st->Bind(1, stack_id);
  return ForEachRow(st.get(), 0, "resource drift",
                    [&](Value v) { out->push_back(ResourceDriftFromValue(v, stack_id)); });
}

}  // namespace ms
