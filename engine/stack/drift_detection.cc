#include "stack/drift_detection.h"

#include <algorithm>
#include <memory>

#include "stack/change_set_imports.h"
#include "stack/drift_compare.h"
#include "stack/op_common.h"
#include "store/drift_table.h"
#include "store/stack_tables.h"

namespace ms {

namespace {

constexpr const char* kNestedStackType = "AWS::CloudFormation::Stack";

bool Exists(const ResourceRecord& r) {
  return !r.physical_id.empty() && r.status != ResourceStatus::kDeleteComplete &&
         r.status != ResourceStatus::kDeleteSkipped;
}

bool ValidDriftStatus(const std::string& s) {
  return s == "IN_SYNC" || s == "MODIFIED" || s == "DELETED" || s == "NOT_CHECKED";
}

// `props` without the type's write-only properties: a read never returns
// them, and CloudFormation leaves them out of drift detection.
Value WithoutWriteOnly(const Value& props, const TypeSchema& schema) {
  if (!props.is_map()) return props;
  Value out = Value::MakeMap();
  for (const auto& [name, value] : props.map()) {
    const PropertySchema* p = schema.FindProperty(name);
    if (p == nullptr || !p->write_only) out.set(name, value);
  }
  return out;
}

}  // namespace

Status DriftDetection::CheckableStack(const std::string& stack_name, StackRecord* stack,
                                      std::vector<ResourceRecord>* resources) {
  MS_RETURN_IF_ERROR(service_.FindStack(stack_name, stack));
  // A running operation's resources are half-written: there is nothing
  // deployed to compare with yet.
  if (IsInProgress(stack->status) || stack->status == StackStatus::kDeleteComplete) {
    return Status::Validation("Drift detection is not supported on stack [" + stack->name + "] in status " +
                              StackStatusName(stack->status));
  }
  return service_.Resources(stack->id, resources);
}

Status DriftDetection::StartLog(const StackRecord& stack, ProviderLogCollector* log) {
  int64_t operation = 0;
  MS_RETURN_IF_ERROR(NextProviderLogOperation(service_.context().db, stack.id, &operation));
  log->Start(stack.id, stack.name, operation);
  return Status::OK();
}

Status DriftDetection::SaveLog(ProviderLogCollector* log, std::vector<ProviderLogRecord>* lines) {
  log->RecordDropped(lines);
  if (lines->empty()) return Status::OK();
  StoreBatch batch;
  batch.logs = std::move(*lines);
  return CommitBatch(service_.context().db, nullptr, &batch);
}

ResourceDrift DriftDetection::Check(ProviderSession& session, const StackRecord& stack, const ResourceRecord& r,
                                    int64_t now, ProviderLogCollector* log, std::vector<ProviderLogRecord>* lines) {
  ResourceDrift d;
  d.stack_id = stack.id;
  d.logical_id = r.logical_id;
  d.physical_id = r.physical_id;
  d.type = r.type;
  d.timestamp_ms = now;
  d.status = "NOT_CHECKED";
  // A nested stack is checked only when asked directly (AWS); its engine
  // hooks' read is its cleanup, never a look.
  if (r.type == kNestedStackType || session.Schema(r.type) == nullptr) return d;
  const TypeSchema* schema = session.Schema(r.type);
  const Value expected = WithoutWriteOnly(r.properties, *schema);
  d.expected_properties = expected.is_null() ? "{}" : expected.ToJson();
  const OperationContext& op = service_.context();
  const HookOutcome o = ReadResource(session, r.type, r.physical_id, r.properties,
                                     ReadContext(stack, r.logical_id, op.region, op.account_id, now));
  log->Collect(r.logical_id, Hook::kRead, o, lines);
  if (o.kind == HookOutcome::Kind::kFailed && o.error_code == "NotFound") {
    d.status = "DELETED";
    return d;
  }
  if (o.kind != HookOutcome::Kind::kDone) {
    d.reason = o.kind == HookOutcome::Kind::kFailed ? o.reason : "The resource's read did not complete.";
    return d;
  }
  // No read hook: nothing to compare with.
  if (o.properties.is_null()) {
    d.expected_properties.clear();
    return d;
  }
  const Value actual = WithoutWriteOnly(o.properties, *schema);
  d.actual_properties = actual.ToJson();
  d.differences = CompareProperties(expected, actual, stack.tags);
  d.status = d.differences.empty() ? "IN_SYNC" : "MODIFIED";
  return d;
}

Status DriftDetection::DetectStack(const std::string& stack_name, const std::vector<std::string>& logical_ids,
                                   std::string* detection_id) {
  StackRecord stack;
  std::vector<ResourceRecord> resources;
  MS_RETURN_IF_ERROR(CheckableStack(stack_name, &stack, &resources));
  for (const std::string& id : logical_ids) {
    bool known = std::any_of(resources.begin(), resources.end(),
                             [&](const ResourceRecord& r) { return r.logical_id == id && Exists(r); });
    if (!known) return Status::Validation("Resource " + id + " does not exist for stack " + stack.name);
  }
  std::unique_ptr<ProviderSession> session;
  MS_RETURN_IF_ERROR(service_.context().providers->NewSession(&session));
  const int64_t now = service_.context().clock->NowMs();
  StackDriftDetection det;
  det.id = NewUuid();
  det.stack_id = stack.id;
  det.timestamp_ms = now;
  std::vector<ResourceDrift> drifts;
  std::vector<std::string> failed;
  ProviderLogCollector log(service_.context().clock, service_.context().observer);
  std::vector<ProviderLogRecord> lines;
  MS_RETURN_IF_ERROR(StartLog(stack, &log));
  for (const ResourceRecord& r : resources) {
    if (!Exists(r)) continue;
    if (!logical_ids.empty() && std::find(logical_ids.begin(), logical_ids.end(), r.logical_id) == logical_ids.end()) {
      continue;
    }
    drifts.push_back(Check(*session, stack, r, now, &log, &lines));
    const ResourceDrift& d = drifts.back();
    if (d.status == "MODIFIED" || d.status == "DELETED") ++det.drifted_count;
    if (d.status == "NOT_CHECKED" && !d.reason.empty()) failed.push_back(d.logical_id);
  }
  det.stack_drift_status = det.drifted_count > 0 ? "DRIFTED" : "IN_SYNC";
  det.detection_status = "DETECTION_COMPLETE";
  if (!failed.empty()) {
    det.detection_status = "DETECTION_FAILED";
    det.reason = "Failed to detect drift on resources [" + JoinNames(failed) + "]";
  }
  MS_RETURN_IF_ERROR(SaveDrift(service_.context().db, &det, drifts));
  MS_RETURN_IF_ERROR(SaveLog(&log, &lines));
  *detection_id = det.id;
  return Status::OK();
}

Status DriftDetection::DetectResource(const std::string& stack_name, const std::string& logical_id,
                                      ResourceDrift* out) {
  StackRecord stack;
  std::vector<ResourceRecord> resources;
  MS_RETURN_IF_ERROR(CheckableStack(stack_name, &stack, &resources));
  auto it = std::find_if(resources.begin(), resources.end(),
                         [&](const ResourceRecord& r) { return r.logical_id == logical_id && Exists(r); });
  if (it == resources.end()) {
    return Status::Validation("Resource " + logical_id + " does not exist for stack " + stack.name);
  }
  std::unique_ptr<ProviderSession> session;
  MS_RETURN_IF_ERROR(service_.context().providers->NewSession(&session));
  ProviderLogCollector log(service_.context().clock, service_.context().observer);
  std::vector<ProviderLogRecord> lines;
  MS_RETURN_IF_ERROR(StartLog(stack, &log));
  *out = Check(*session, stack, *it, service_.context().clock->NowMs(), &log, &lines);
  MS_RETURN_IF_ERROR(SaveDrift(service_.context().db, nullptr, {*out}));
  return SaveLog(&log, &lines);
}

Status DriftDetection::Detection(const std::string& detection_id, StackDriftDetection* out) {
  bool found = false;
  MS_RETURN_IF_ERROR(LoadDriftDetection(service_.context().db, detection_id, out, &found));
  if (!found) return Status::Validation("Drift detection with id " + detection_id + " does not exist");
  return Status::OK();
}

Status DriftDetection::ResourceDrifts(const std::string& stack_name, const std::vector<std::string>& status_filters,
                                      std::vector<ResourceDrift>* out) {
  for (const std::string& f : status_filters) {
    if (!ValidDriftStatus(f)) {
      return Status::Validation("1 validation error detected: Value '[" + f +
                                "]' at 'stackResourceDriftStatusFilters' failed to satisfy constraint: Member must "
                                "satisfy constraint: [Member must satisfy enum value set: [IN_SYNC, MODIFIED, "
                                "DELETED, NOT_CHECKED]]");
    }
  }
  StackRecord stack;
  MS_RETURN_IF_ERROR(service_.FindStack(stack_name, &stack));
  std::vector<ResourceRecord> resources;
  MS_RETURN_IF_ERROR(service_.Resources(stack.id, &resources));
  std::vector<ResourceDrift> drifts;
  MS_RETURN_IF_ERROR(LoadResourceDrifts(service_.context().db, stack.id, &drifts));
  std::map<std::string, ResourceDrift*> by_name;
  for (ResourceDrift& d : drifts) by_name[d.logical_id] = &d;
  for (const ResourceRecord& r : resources) {
    auto it = by_name.find(r.logical_id);
    // A drift of an earlier physical resource (replaced since) is not this one's.
    if (it == by_name.end() || !Exists(r) || it->second->physical_id != r.physical_id) continue;
    const ResourceDrift& d = *it->second;
    if (!status_filters.empty() &&
        std::find(status_filters.begin(), status_filters.end(), d.status) == status_filters.end()) {
      continue;
    }
    out->push_back(d);
  }
  return Status::OK();
}

Status DriftDetection::StackInformation(const std::string& stack_id, DriftInformation* out) {
  StackDriftDetection det;
  bool found = false;
  MS_RETURN_IF_ERROR(LatestDriftDetection(service_.context().db, stack_id, &det, &found));
  if (found && det.detection_status != "DETECTION_IN_PROGRESS") {
    out->status = det.stack_drift_status;
    out->last_check_ms = det.timestamp_ms;
  }
  return Status::OK();
}

Status DriftDetection::ResourceInformation(const std::string& stack_id,
                                           std::map<std::string, DriftInformation>* out) {
  std::vector<ResourceDrift> drifts;
  MS_RETURN_IF_ERROR(LoadResourceDrifts(service_.context().db, stack_id, &drifts));
  for (const ResourceDrift& d : drifts) (*out)[d.logical_id] = DriftInformation{d.status, d.timestamp_ms};
  return Status::OK();
}

}  // namespace ms
