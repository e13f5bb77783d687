#include "stackset/stack_set_operation.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

#include "stack/drift_detection.h"
#include "stack/op_common.h"
#include "stack/stack_service.h"
#include "stackset/operation_plan.h"
#include "stackset/stack_set_store.h"
#include "store/stack_tables.h"

namespace ms {
namespace {

constexpr size_t kMaxStackName = 128;

// StackSet-<set name>-<uuid> (StackSets console exports:
// stack/StackSet-<name>-<uuid>/<uuid>), the set's name cut so that the
// whole stays within a stack name's 128 characters (moonstack's choice).
std::string InstanceStackName(const std::string& set_name) {
  const std::string uuid = NewUuid();
  const size_t room = kMaxStackName - std::string("StackSet--").size() - uuid.size();
  return "StackSet-" + set_name.substr(0, room) + "-" + uuid;
}

class OperationRun {
 public:
  OperationRun(const OperationContext& ctx, StackSetRecord set, StackSetOperationRecord op)
      : ctx_(ctx), set_(std::move(set)), op_(std::move(op)) {}

  Status Run();

 private:
  bool Interrupted() const { return ctx_.interrupt != nullptr && ctx_.interrupt->load(); }
  // Saves the operation's row (not its results) keeping a STOPPING the
  // request side wrote meanwhile.
  Status SaveOperation();
  Status SaveResult(size_t i, const std::string& status, const std::string& reason);
  StackInstanceRecord* Instance(const OperationResult& r);
  // Runs one account and region: true when it succeeded, else *reason.
  Status RunTarget(size_t i, bool* ok, std::string* reason);
  Status CreateOrUpdate(StackInstanceRecord* inst, bool* ok, std::string* reason);
  Status Delete(StackInstanceRecord* inst, bool* ok, std::string* reason);
  // DETECT_DRIFT: the stack's drift detection, its status the instance's.
  Status DetectDrift(StackInstanceRecord* inst, bool* ok, std::string* reason);
  // At a DETECT_DRIFT's end: the set's StackSetDriftDetectionDetails.
  Status SaveSetDrift();
  // Waits while another thread (crash recovery) runs the stack's operation.
  Status WaitWhileInProgress(const std::string& stack_id, StackRecord* stack, bool* found);
  // The stack's operation to its end, then its record.
  Status RunStack(StackService& service, const std::string& stack_id, StackRecord* stack);
  // The ID of the stack's newest event ("" when it has none).
  Status NewestEventId(const std::string& stack_id, std::string* id);
  // AWS's reason for a failed instance stack.
  std::string FailureReason(StackService& service, const StackRecord& stack);
  OperationContext InstanceContext(const StackInstanceRecord& inst) const {
    OperationContext c = ctx_;
    c.region = inst.region;
    c.account_id = inst.account;
    return c;
  }

  OperationContext ctx_;
  StackSetRecord set_;
  StackSetOperationRecord op_;
  std::map<std::string, StackInstanceRecord> instances_;  // by "account/region"
};

Status OperationRun::SaveOperation() {
  return ctx_.db->Transaction([&]() -> Status {
    StackSetOperationRecord stored;
    bool found = false;
    MS_RETURN_IF_ERROR(
        LoadStackSetOperation(ctx_.db, op_.stack_set_id, op_.id, &stored, &found, /*with_results=*/false));
    if (found && stored.status == "STOPPING" && op_.active()) op_.status = "STOPPING";
    return SaveStackSetOperationRow(ctx_.db, op_);
  });
}

StackInstanceRecord* OperationRun::Instance(const OperationResult& r) {
  auto it = instances_.find(r.account + "/" + r.region);
  return it == instances_.end() ? nullptr : &it->second;
}

Status OperationRun::SaveResult(size_t i, const std::string& status, const std::string& reason) {
  OperationResult& r = op_.results[i];
  r.status = status;
  r.reason = reason;
  return SaveStackSetOperationResult(ctx_.db, op_, r);
}

Status OperationRun::WaitWhileInProgress(const std::string& stack_id, StackRecord* stack, bool* found) {
  while (true) {
    MS_RETURN_IF_ERROR(LoadStack(ctx_.db, stack_id, stack, found));
    if (!*found || !IsInProgress(stack->status) || Interrupted()) return Status::OK();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

Status OperationRun::RunStack(StackService& service, const std::string& stack_id, StackRecord* stack) {
  MS_RETURN_IF_ERROR(service.Run(stack_id));
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStack(ctx_.db, stack_id, stack, &found));
  if (!found) return Status::Internal("stack set: stack " + stack_id + " is gone");
  return Status::OK();
}

Status OperationRun::NewestEventId(const std::string& stack_id, std::string* id) {
  PageRequest newest;
  newest.limit = 1;
  std::vector<StackEvent> events;
  PageResult page;
  MS_RETURN_IF_ERROR(LoadEventPage(ctx_.db, stack_id, newest, &events, &page));
  *id = events.empty() ? "" : events[0].event_id;
  return Status::OK();
}

// The first resource failure of the stack's last operation: its events
// from the newest one that started an operation (the stack's own
// CREATE_, UPDATE_ or DELETE_IN_PROGRESS), oldest first. An earlier
// operation's failure is not this one's reason.
std::string OperationRun::FailureReason(StackService& service, const StackRecord& stack) {
  std::vector<StackEvent> events;  // newest first
  if (service.Events(stack.id, &events).ok()) {
    auto start = std::find_if(events.begin(), events.end(), [&](const StackEvent& e) {
      return e.logical_id == stack.name && e.type == "AWS::CloudFormation::Stack" &&
             (e.status == "CREATE_IN_PROGRESS" || e.status == "UPDATE_IN_PROGRESS" ||
              e.status == "DELETE_IN_PROGRESS");
    });
    const auto oldest = start == events.end() ? events.rbegin() : std::make_reverse_iterator(start + 1);
    for (auto it = oldest; it != events.rend(); ++it) {
      const bool resource = it->logical_id != stack.name;
      const bool failed = it->status.size() > 7 && it->status.compare(it->status.size() - 7, 7, "_FAILED") == 0;
      if (resource && failed) {
        return "ResourceLogicalId:" + it->logical_id + ", ResourceType:" + it->type +
               ", ResourceStatusReason:" + it->reason + ".";
      }
    }
  }
  return stack.reason;
}

Status OperationRun::CreateOrUpdate(StackInstanceRecord* inst, bool* ok, std::string* reason) {
  StackService service(InstanceContext(*inst));
  StackRecord stack;
  bool live = false;
  const bool made_here = inst->created_by_operation == op_.id;
  if (inst->stack_id.empty() && made_here && !inst->stack_name.empty()) {
    // Resumed after a crash between the stack's create and its ID's record:
    // the stack this operation made, found by its name where it was made.
    bool found = false;
    MS_RETURN_IF_ERROR(FindActiveStack(ctx_.db, {inst->region, inst->account}, inst->stack_name, &stack, &found,
                                       StackRowParts::kRecordOnly));
    if (found) {
      inst->stack_id = stack.id;
      MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, *inst));
    }
  }
  if (!inst->stack_id.empty()) {
    bool found = false;
    MS_RETURN_IF_ERROR(WaitWhileInProgress(inst->stack_id, &stack, &found));
    if (Interrupted()) return Status::OK();
    live = found && stack.status != StackStatus::kDeleteComplete;
  }
  const bool create_failed = live && (stack.status == StackStatus::kRollbackComplete ||
                                      stack.status == StackStatus::kRollbackFailed ||
                                      stack.status == StackStatus::kCreateFailed);
  // This operation's own create, failed before a restart: the instance
  // failed (as it would have been recorded), the create not tried again.
  if (create_failed && made_here) {
    *reason = FailureReason(service, stack);
    return Status::OK();
  }
  // A stack whose create failed in an earlier operation cannot be updated:
  // it is deleted and made again.
  if (create_failed) {
    DeleteStackInput del;
    del.stack_name = stack.id;
    std::string id;
    Status s = service.StartDelete(del, &id);
    if (!s.ok()) {
      *reason = s.message();
      return Status::OK();
    }
    if (!id.empty()) MS_RETURN_IF_ERROR(RunStack(service, id, &stack));
    live = false;
  }
  std::vector<ParameterInput> params;
  for (const StackSetParameter& p : set_.parameters) {
    auto o = std::find_if(inst->parameter_overrides.begin(), inst->parameter_overrides.end(),
                          [&](const StackSetParameter& q) { return q.key == p.key; });
    params.push_back({p.key, o == inst->parameter_overrides.end() ? p.value : o->value, false});
  }
  for (const StackSetParameter& o : inst->parameter_overrides) {
    if (std::none_of(set_.parameters.begin(), set_.parameters.end(),
                     [&](const StackSetParameter& p) { return p.key == o.key; })) {
      params.push_back({o.key, o.value, false});
    }
  }
  std::string id;
  if (!live) {
    // The name and this operation are committed before the create, which
    // commits the stack: a crash between the two finds it by that name.
    inst->stack_id.clear();
    inst->stack_name = InstanceStackName(set_.name);
    inst->created_by_operation = op_.id;
    MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, *inst));
    CreateStackInput in;
    in.stack_name = inst->stack_name;
    in.template_body = set_.template_body;
    in.parameters = params;
    in.capabilities = set_.capabilities;
    in.tags = set_.tags;
    Status s = service.StartCreate(in, &id);
    if (!s.ok()) {
      *reason = s.message();
      return Status::OK();
    }
    inst->stack_id = id;
    MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, *inst));
    MS_RETURN_IF_ERROR(RunStack(service, id, &stack));
    if (Interrupted() && IsInProgress(stack.status)) return Status::OK();
    *ok = stack.status == StackStatus::kCreateComplete;
  } else {
    std::string newest;
    MS_RETURN_IF_ERROR(NewestEventId(stack.id, &newest));
    // This operation's own update, run to its end before a restart: the
    // instance's outcome is the stack's, the update not started again.
    if (inst->updated_by_operation == op_.id && newest != inst->event_before_update) {
      *ok = stack.status == StackStatus::kUpdateComplete;
      if (!*ok) *reason = FailureReason(service, stack);
      return Status::OK();
    }
    inst->updated_by_operation = op_.id;
    inst->event_before_update = newest;
    MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, *inst));
    UpdateStackInput in;
    in.stack_name = stack.id;
    in.template_body = set_.template_body;
    in.parameters = params;
    in.capabilities = set_.capabilities;
    in.tags = set_.tags;
    Status s = service.StartUpdate(in, &id);
    if (!s.ok()) {
      // Nothing to change is an instance up to date.
      *ok = s.message() == "No updates are to be performed.";
      if (!*ok) *reason = s.message();
      return Status::OK();
    }
    MS_RETURN_IF_ERROR(RunStack(service, id, &stack));
    if (Interrupted() && IsInProgress(stack.status)) return Status::OK();
    *ok = stack.status == StackStatus::kUpdateComplete;
  }
  if (!*ok) *reason = FailureReason(service, stack);
  return Status::OK();
}

Status OperationRun::Delete(StackInstanceRecord* inst, bool* ok, std::string* reason) {
  if (!op_.retain_stacks && !inst->stack_id.empty()) {
    StackService service(InstanceContext(*inst));
    StackRecord stack;
    bool found = false;
    MS_RETURN_IF_ERROR(WaitWhileInProgress(inst->stack_id, &stack, &found));
    if (Interrupted()) return Status::OK();
    if (found && stack.status != StackStatus::kDeleteComplete) {
      DeleteStackInput in;
      in.stack_name = stack.id;
      std::string id;
      Status s = service.StartDelete(in, &id);
      if (!s.ok()) {
        *reason = s.message();
        return Status::OK();
      }
      if (!id.empty()) {
        MS_RETURN_IF_ERROR(RunStack(service, id, &stack));
        if (Interrupted() && IsInProgress(stack.status)) return Status::OK();
        if (stack.status != StackStatus::kDeleteComplete) {
          *reason = FailureReason(service, stack);
          return Status::OK();
        }
      }
    }
  }
  *ok = true;
  return Status::OK();
}

Status OperationRun::DetectDrift(StackInstanceRecord* inst, bool* ok, std::string* reason) {
  StackService service(InstanceContext(*inst));
  StackRecord stack;
  bool found = false;
  if (!inst->stack_id.empty()) {
    MS_RETURN_IF_ERROR(WaitWhileInProgress(inst->stack_id, &stack, &found));
    if (Interrupted()) return Status::OK();
  }
  // Unverified: moonstack's reason for an instance whose stack was never made (or is gone).
  if (!found || stack.status == StackStatus::kDeleteComplete) {
    *reason = "Stack instance has no stack to check for drift";
    return Status::OK();
  }
  DriftDetection drift(service);
  std::string detection_id;
  Status s = drift.DetectStack(stack.id, {}, &detection_id);
  if (!s.ok()) {
    *reason = s.message();
    return Status::OK();
  }
  StackDriftDetection detection;
  MS_RETURN_IF_ERROR(drift.Detection(detection_id, &detection));
  if (detection.detection_status != "DETECTION_COMPLETE") {
    *reason = detection.reason;
    return Status::OK();
  }
  inst->drift_status = detection.stack_drift_status;
  inst->last_drift_check_ms = detection.timestamp_ms;
  *ok = true;
  return Status::OK();
}

Status OperationRun::SaveSetDrift() {
  StackSetRecord set;
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStackSetById(ctx_.db, set_.id, &set, &found));
  if (!found) return Status::OK();
  StackSetDriftDetails d;
  d.total = static_cast<int64_t>(instances_.size());
  for (const OperationResult& r : op_.results) {
    const StackInstanceRecord* inst = r.status == "SUCCEEDED" ? Instance(r) : nullptr;
    if (inst != nullptr && inst->drift_status == "DRIFTED") ++d.drifted;
    if (inst != nullptr && inst->drift_status == "IN_SYNC") ++d.in_sync;
  }
  d.failed = op_.failed_count();
  // AWS's StackSetDriftDetectionDetails: DRIFTED when one instance drifted,
  // IN_SYNC when every one checked is; the detection FAILED when the failure
  // tolerance was exceeded, PARTIAL_SUCCESS when some failed within it.
  d.drift_status = d.drifted > 0 ? "DRIFTED" : (d.in_sync > 0 ? "IN_SYNC" : "NOT_CHECKED");
  if (op_.status == "STOPPED") {
    d.detection_status = "STOPPED";
  } else if (op_.status == "FAILED") {
    d.detection_status = "FAILED";
  } else {
    d.detection_status = d.failed > 0 ? "PARTIAL_SUCCESS" : "COMPLETED";
  }
  d.last_check_ms = op_.ended_ms;
  set.drift = d;
  return SaveStackSet(ctx_.db, set);
}

Status OperationRun::RunTarget(size_t i, bool* ok, std::string* reason) {
  *ok = false;
  const OperationResult r = op_.results[i];
  StackInstanceRecord* inst = Instance(r);
  if (op_.action == "DETECT_DRIFT") {
    if (inst == nullptr) return Status::Internal("stack set: no instance in " + r.account + " " + r.region);
    MS_RETURN_IF_ERROR(DetectDrift(inst, ok, reason));
    if (Interrupted() && !*ok && reason->empty()) return Status::OK();
    return SaveStackInstance(ctx_.db, *inst);
  }
  if (op_.action == "DELETE") {
    if (inst == nullptr) {  // no instance there: nothing to delete
      *ok = true;
      return Status::OK();
    }
    inst->detailed_status = "RUNNING";
    MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, *inst));
    MS_RETURN_IF_ERROR(Delete(inst, ok, reason));
    if (Interrupted() && !*ok && reason->empty()) return Status::OK();
    if (*ok) {
      MS_RETURN_IF_ERROR(DeleteStackInstance(ctx_.db, inst->stack_set_id, inst->account, inst->region));
      instances_.erase(r.account + "/" + r.region);
    } else {
      inst->status = "INOPERABLE";
      inst->detailed_status = "FAILED";
      inst->reason = *reason;
      MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, *inst));
    }
    return Status::OK();
  }
  if (inst == nullptr) return Status::Internal("stack set: no instance in " + r.account + " " + r.region);
  inst->detailed_status = "RUNNING";
  MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, *inst));
  MS_RETURN_IF_ERROR(CreateOrUpdate(inst, ok, reason));
  if (Interrupted() && !*ok && reason->empty()) return Status::OK();
  inst->status = *ok ? "CURRENT" : "OUTDATED";
  inst->detailed_status = *ok ? "SUCCEEDED" : "FAILED";
  inst->reason = *reason;
  return SaveStackInstance(ctx_.db, *inst);
}

Status OperationRun::Run() {
  std::vector<StackInstanceRecord> loaded;
  MS_RETURN_IF_ERROR(LoadStackInstances(ctx_.db, set_.id, &loaded));
  for (StackInstanceRecord& i : loaded) instances_.emplace(i.account + "/" + i.region, std::move(i));
  if (op_.status == "QUEUED") {
    op_.status = "RUNNING";
    MS_RETURN_IF_ERROR(SaveOperation());
  }
  // Accounts per region, for the tolerances.
  std::map<std::string, size_t> accounts, failed;
  for (const OperationResult& r : op_.results) {
    ++accounts[r.region];
    if (r.status == "FAILED") ++failed[r.region];
  }
  bool exceeded = false;
  for (const auto& [region, n] : failed) exceeded = exceeded || ExceedsTolerance(op_.preferences, accounts[region], n);
  for (const std::vector<size_t>& wave : PlanWaves(op_.preferences, op_.results)) {
    for (size_t i : wave) {
      const std::string status = op_.results[i].status;
      if (status == "SUCCEEDED" || status == "FAILED" || status == "CANCELLED") continue;  // resumed
      if (Interrupted()) return Status::OK();
      MS_RETURN_IF_ERROR(SaveOperation());  // reads a STOPPING the request side wrote
      if (exceeded || op_.status == "STOPPING") {
        const std::string reason = exceeded ? kToleranceExceededReason : kOperationStoppedReason;
        StackInstanceRecord* inst = op_.action == "DETECT_DRIFT" ? nullptr : Instance(op_.results[i]);
        if (inst != nullptr) {
          inst->detailed_status = "CANCELLED";
          inst->reason = reason;
          MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, *inst));
        }
        MS_RETURN_IF_ERROR(SaveResult(i, "CANCELLED", reason));
        continue;
      }
      MS_RETURN_IF_ERROR(SaveResult(i, "RUNNING", ""));
      bool ok = false;
      std::string reason;
      MS_RETURN_IF_ERROR(RunTarget(i, &ok, &reason));
      if (!ok && reason.empty() && Interrupted()) return Status::OK();  // the next start resumes it
      if (!ok) ++failed[op_.results[i].region];
      MS_RETURN_IF_ERROR(SaveResult(i, ok ? "SUCCEEDED" : "FAILED", reason));
    }
    // The tolerance is checked once the wave's instances have ended.
    for (const auto& [region, n] : failed) exceeded = exceeded || ExceedsTolerance(op_.preferences, accounts[region], n);
  }
  if (op_.status == "STOPPING") {
    op_.status = "STOPPED";
  } else {
    op_.status = exceeded ? "FAILED" : "SUCCEEDED";
  }
  op_.ended_ms = ctx_.clock->NowMs();
  return ctx_.db->Transaction([&]() -> Status {
    MS_RETURN_IF_ERROR(SaveStackSetOperationRow(ctx_.db, op_));
    return op_.action == "DETECT_DRIFT" ? SaveSetDrift() : Status::OK();
  });
}

}  // namespace

Status RunStackSetOperation(const OperationContext& ctx, const std::string& stack_set_id,
                            const std::string& operation_id) {
  StackSetRecord set;
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStackSetById(ctx.db, stack_set_id, &set, &found));
  if (!found) return Status::OK();  // forgotten (a reset) meanwhile
  StackSetOperationRecord op;
  MS_RETURN_IF_ERROR(LoadStackSetOperation(ctx.db, stack_set_id, operation_id, &op, &found));
  if (!found || !op.active()) return Status::OK();
  return OperationRun(ctx, std::move(set), std::move(op)).Run();
}

}  // namespace ms
