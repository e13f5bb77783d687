#include "stackset/stack_set_operation.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

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
  // Saves the operation keeping a STOPPING the request side wrote meanwhile.
  Status SaveOperation();
  Status SaveResult(size_t i, const std::string& status, const std::string& reason);
  StackInstanceRecord* Instance(const OperationResult& r);
  // Runs one account and region: true when it succeeded, else *reason.
  Status RunTarget(size_t i, bool* ok, std::string* reason);
  Status CreateOrUpdate(StackInstanceRecord* inst, bool* ok, std::string* reason);
  Status Delete(StackInstanceRecord* inst, bool* ok, std::string* reason);
  // Waits while another thread (crash recovery) runs the stack's operation.
  Status WaitWhileInProgress(const std::string& stack_id, StackRecord* stack, bool* found);
  // The stack's operation to its end, then its record.
  Status RunStack(StackService& service, const std::string& stack_id, StackRecord* stack);
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
    MS_RETURN_IF_ERROR(LoadStackSetOperation(ctx_.db, op_.stack_set_id, op_.id, &stored, &found));
    if (found && stored.status == "STOPPING" && op_.active()) op_.status = "STOPPING";
    return SaveStackSetOperation(ctx_.db, op_);
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
  return SaveOperation();
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

std::string OperationRun::FailureReason(StackService& service, const StackRecord& stack) {
  std::vector<StackEvent> events;  // newest first
  if (service.Events(stack.id, &events).ok()) {
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
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
  if (!inst->stack_id.empty()) {
    bool found = false;
    MS_RETURN_IF_ERROR(WaitWhileInProgress(inst->stack_id, &stack, &found));
    if (Interrupted()) return Status::OK();
    live = found && stack.status != StackStatus::kDeleteComplete;
  }
  // A stack whose create failed cannot be updated: it is deleted and made again.
  if (live && (stack.status == StackStatus::kRollbackComplete || stack.status == StackStatus::kRollbackFailed ||
               stack.status == StackStatus::kCreateFailed)) {
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
    CreateStackInput in;
    in.stack_name = InstanceStackName(set_.name);
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

Status OperationRun::RunTarget(size_t i, bool* ok, std::string* reason) {
  *ok = false;
  const OperationResult r = op_.results[i];
  StackInstanceRecord* inst = Instance(r);
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
        if (StackInstanceRecord* inst = Instance(op_.results[i])) {
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
  return SaveStackSetOperation(ctx_.db, op_);
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
