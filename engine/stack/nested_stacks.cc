#include "stack/nested_stacks.h"

#include <cstdlib>
#include <functional>

#include "base/strings.h"
#include "stack/early_validation.h"
#include "stack/stack_service.h"
#include "stack/template_url.h"
#include "store/change_set_table.h"
#include "store/stack_tables.h"

namespace ms {
namespace {

// AWS's limit on a stack name: the child's prefix is cut to leave room for
// "-" and the 13-character suffix.
constexpr size_t kMaxStackName = 128;
constexpr size_t kSuffixLength = 13;

HookOutcome Failed(std::string reason, const std::string& physical_id = "") {
  HookOutcome o;
  o.kind = HookOutcome::Kind::kFailed;
  o.reason = std::move(reason);
  o.physical_id = physical_id;
  return o;
}

std::string StringProperty(const Value& properties, const char* name) {
  const Value* v = properties.is_map() ? properties.find(name) : nullptr;
  return v != nullptr && (v->is_string() || v->is_number()) ? v->str() : "";
}

std::vector<ParameterInput> ParametersOf(const Value& properties) {
  std::vector<ParameterInput> out;
  const Value* params = properties.is_map() ? properties.find("Parameters") : nullptr;
  if (params == nullptr || !params->is_map()) return out;
  for (const Member& m : params->map()) out.push_back({m.key, NestedParameterText(m.value), false});
  return out;
}

// The child's NotificationARNs: the resource's own, else its parent's (a
// nested stack reports its events where its parent does).
std::vector<std::string> NotificationArnsOf(const Value& properties, const StackRecord& parent) {
  const Value* arns = properties.is_map() ? properties.find("NotificationARNs") : nullptr;
  if (arns == nullptr || !arns->is_list()) return parent.notification_arns;
  std::vector<std::string> out;
  for (const Value& a : arns->list()) out.push_back(a.str());
  return out;
}

// What Fn::GetAtt reads of the child: Outputs.<Key> for each output.
Value Attributes(const StackRecord& child) {
  Value a = Value::MakeMap();
  for (const StackOutputValue& o : child.outputs) a.set("Outputs." + o.key, Value::String(o.value));
  return a;
}

HookOutcome Done(const StackRecord& child) {
  HookOutcome o;
  o.physical_id = child.id;
  o.attributes = Attributes(child);
  return o;
}

}  // namespace

std::string NestedParameterText(const Value& v) {
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  if (v.is_list()) {
    std::vector<std::string> items;
    for (const Value& item : v.list()) items.push_back(NestedParameterText(item));
    return Join(items, ",");
  }
  return v.is_string() || v.is_number() ? v.str() : v.ToJson();
}

std::string NestedStackHooks::ChildName(const StackRecord& parent, const std::string& logical_id) {
  static const char kAlnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  uint64_t h = std::hash<std::string>()(parent.id + "/" + logical_id);
  std::string suffix;
  for (size_t i = 0; i < kSuffixLength; ++i) {
    h = h * 6364136223846793005ULL + 1442695040888963407ULL;  // one LCG step per character
    suffix.push_back(kAlnum[(h >> 33) % 36]);
  }
  std::string prefix = parent.name + "-" + logical_id;
  if (prefix.size() > kMaxStackName - kSuffixLength - 1) prefix.resize(kMaxStackName - kSuffixLength - 1);
  return prefix + "-" + suffix;
}

HookOutcome NestedStackHooks::Call(const HookCall& call) {
  switch (call.hook) {
    case Hook::kCreate: return Create(call);
    case Hook::kUpdate: return Update(call, call.properties);
    case Hook::kRollback: return Rollback(call);
    case Hook::kDelete: return Delete(call);
    case Hook::kRead: return FinishCleanup(call);
  }
  return Failed("unknown hook");
}

Status NestedStackHooks::RunChild(const std::string& child_id, StackRecord* child, bool (*runs)(StackStatus)) {
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStack(ctx_.db, child_id, child, &found));
  if (!found) return Status::Internal("nested stack " + child_id + " is missing");
  if (runs(child->status)) {
    OperationContext child_ctx = ctx_;
    child_ctx.parent_runs_cleanup = true;
    child_ctx.outer_restrictions = outer_;
    MS_RETURN_IF_ERROR(RunOperation(child_ctx, child_id));
    MS_RETURN_IF_ERROR(LoadStack(ctx_.db, child_id, child, &found));
  }
  return Status::OK();
}

std::string NestedStackHooks::FailureReason(const StackRecord& child) {
  std::vector<StackEvent> events;  // newest first
  if (!LoadEvents(ctx_.db, child.id, &events).ok()) return child.reason;
  std::string reason = child.reason;
  for (const StackEvent& e : events) {
    if (e.logical_id != child.name) continue;
    // A failed pre-deployment validation: its CREATE_FAILED (UPDATE_FAILED)
    // says how many errors, the rollback's reason only points at it.
    if (e.reason == kValidationRollbackReason) continue;
    if (e.status == "CREATE_FAILED" || e.status == "ROLLBACK_IN_PROGRESS" || e.status == "UPDATE_FAILED" ||
        e.status == "UPDATE_ROLLBACK_IN_PROGRESS" || e.status == "UPDATE_ROLLBACK_FAILED" ||
        e.status == "DELETE_FAILED") {
      reason = e.reason;
      break;
    }
  }
  return reason;
}

HookOutcome NestedStackHooks::Create(const HookCall& call) {
  const Value* started = call.ctx.progress.is_map() ? call.ctx.progress.find("StackId") : nullptr;
  if (started == nullptr || !started->is_string()) {
    // First call: start the child (or find the one a crash left started).
    const std::string name = ChildName(parent_, call.ctx.logical_id);
    StackRecord existing;
    bool found = false;
    Status s = FindActiveStack(ctx_.db, ctx_.scope(), name, &existing, &found);
    if (!s.ok()) return Failed(s.message());
    std::string child_id = existing.id;
    if (!found) {
      CreateStackInput in;
      in.stack_name = name;
      s = ReadTemplateUrl(ctx_, StringProperty(call.properties, "TemplateURL"), &in.template_body);
      if (!s.ok()) return Failed(s.message());
      in.parameters = ParametersOf(call.properties);
      in.capabilities = parent_.capabilities;
      in.disable_rollback = parent_.disable_rollback();
      const std::string timeout = StringProperty(call.properties, "TimeoutInMinutes");
      if (!timeout.empty()) in.timeout_in_minutes = std::strtoll(timeout.c_str(), nullptr, 10);
      in.tags = parent_.tags;
      in.role_arn = parent_.role_arn;
      in.notification_arns = NotificationArnsOf(call.properties, parent_);
      in.parent_id = parent_.id;
      in.root_id = parent_.root_id.empty() ? parent_.id : parent_.root_id;
      s = StackService(ctx_).StartCreate(in, &child_id);
      if (!s.ok()) return Failed(s.message());
    }
    HookOutcome o;
    o.kind = HookOutcome::Kind::kInProgress;
    o.physical_id = child_id;
    o.progress = Value::MakeMap();
    o.progress.set("StackId", Value::String(child_id));
    return o;
  }
  StackRecord child;
  Status s = RunChild(started->str(), &child);
  if (!s.ok()) return Failed(s.message(), started->str());
  if (child.status == StackStatus::kCreateComplete) return Done(child);
  if (IsInProgress(child.status)) {  // interrupted: the parent stops too, and a restart goes on from here
    HookOutcome o;
    o.kind = HookOutcome::Kind::kInProgress;
    o.physical_id = child.id;
    o.progress = call.ctx.progress;
    return o;
  }
  return Failed("Embedded stack " + child.id + " was not successfully created: " + FailureReason(child), child.id);
}

HookOutcome NestedStackHooks::Update(const HookCall& call, const Value& properties) {
  StackRecord child;
  bool found = false;
  Status s = LoadStack(ctx_.db, call.physical_id, &child, &found);
  if (!s.ok() || !found) return Failed(s.ok() ? "Stack with id " + call.physical_id + " does not exist" : s.message());
  // The parent resource's UpdatePolicy.Allow holds inside the child (seed
  // 003), and so do those that hold in the parent itself (its own parents').
  s = ReadOuterRestrictions(ctx_.outer_restrictions, call.ctx.logical_id, call.ctx.update_policy, &outer_);
  if (!s.ok()) return Failed(s.message());
  if (!IsInProgress(child.status)) {
    UpdateStackInput in;
    in.stack_name = child.id;
    ChangeSetRecord nested;
    s = NestedChangeSet(call.ctx.logical_id, child, &nested);
    if (!s.ok()) return Failed(s.message());
    if (!nested.id.empty()) {
      // The parent runs a root change set: the child's own is executed,
      // its template as planned, its parameters as the parent has them now.
      in.template_body = nested.template_body;
      in.change_set_id = nested.id;
    } else {
      s = ReadTemplateUrl(ctx_, StringProperty(properties, "TemplateURL"), &in.template_body);
      if (!s.ok()) return Failed(s.message());
    }
    in.parameters = ParametersOf(properties);
    in.capabilities = parent_.capabilities;
    in.disable_rollback = parent_.disable_rollback();
    in.tags = parent_.tags;  // as at create: the parent's tags, new ones included
    in.notification_arns = NotificationArnsOf(properties, parent_);
    std::string id;
    s = StackService(ctx_).StartUpdate(in, &id);
    if (!s.ok()) {
      if (s.message() == "No updates are to be performed.") return Done(child);
      return Failed(s.message());
    }
    if (!nested.id.empty()) {
      nested.execution_status = "EXECUTE_IN_PROGRESS";
      s = SaveChangeSet(ctx_.db, nested);
      if (!s.ok()) return Failed(s.message());
    }
  }
  // A child already stopped at its cleanup or failure (the parent resumed
  // after a restart) is not run further here.
  s = RunChild(child.id, &child, [](StackStatus st) { return st == StackStatus::kUpdateInProgress; });
  if (!s.ok()) return Failed(s.message());
  // Its cleanup waits for the parent's cleanup phase.
  if (child.status == StackStatus::kUpdateComplete || child.status == StackStatus::kUpdateCompleteCleanupInProgress) {
    return Done(child);
  }
  if (child.status == StackStatus::kUpdateInProgress) return StillRunning(child);  // interrupted
  // Failed: UPDATE_ROLLBACK_IN_PROGRESS (the parent's rollback rolls it
  // back) or, rollback disabled, UPDATE_FAILED.
  return NotUpdated(child);
}

Status NestedStackHooks::NestedChangeSet(const std::string& logical_id, const StackRecord& child,
                                         ChangeSetRecord* out) {
  *out = ChangeSetRecord();
  if (parent_.change_set_id.empty()) return Status::OK();  // update-stack itself
  ChangeSetRecord root;
  bool found = false;
  MS_RETURN_IF_ERROR(LoadChangeSet(ctx_.db, parent_.change_set_id, &root, &found));
  if (!found || !root.include_nested) return Status::OK();
  for (const ChangeSetResourceChange& c : root.changes) {
    if (c.logical_id != logical_id || c.change_set_id.empty()) continue;
    ChangeSetRecord nested;
    MS_RETURN_IF_ERROR(LoadChangeSet(ctx_.db, c.change_set_id, &nested, &found));
    int64_t seq = 0;
    MS_RETURN_IF_ERROR(LatestStackEventSeq(ctx_.db, child.id, &seq));
    // One with nothing to change, or planned before the child last changed
    // (OBSOLETE), is not executed: the child is updated as without one.
    if (found && nested.stack_id == child.id && nested.status == "CREATE_COMPLETE" &&
        nested.execution_status == "AVAILABLE" && nested.stack_event_seq == seq) {
      *out = std::move(nested);
    }
    break;
  }
  return Status::OK();
}

// AWS's reason for a nested resource whose child stack's update (or its
// rollback) failed: the child's status when it stopped, and its reason.
HookOutcome NestedStackHooks::NotUpdated(const StackRecord& child) {
  return Failed("Embedded stack " + child.id + " was not successfully updated. Currently in " +
                StackStatusName(child.status) + " with reason: " + FailureReason(child));
}

HookOutcome NestedStackHooks::StillRunning(const StackRecord& child) {
  HookOutcome o;
  o.kind = HookOutcome::Kind::kInProgress;
  o.physical_id = child.id;
  return o;
}

HookOutcome NestedStackHooks::Rollback(const HookCall& call) {
  StackRecord child;
  bool found = false;
  Status s = LoadStack(ctx_.db, call.physical_id, &child, &found);
  if (!s.ok() || !found) return Failed(s.ok() ? "Stack with id " + call.physical_id + " does not exist" : s.message());
  if (child.status == StackStatus::kUpdateCompleteCleanupInProgress || child.status == StackStatus::kUpdateFailed) {
    // Updated, waiting for the parent's cleanup (or stopped by a disabled
    // rollback): its own update is rolled back, as AWS rolls a nested stack
    // back with its parent.
    s = CommitStackStatus(ctx_, &child, StackStatus::kUpdateRollbackInProgress, parent_.reason);
    if (!s.ok()) return Failed(s.message());
  } else if (child.status == StackStatus::kUpdateRollbackFailed) {
    // The parent's continue-update-rollback: the child's rollback goes on,
    // skipping what the parent's ResourcesToSkip names as `<Logical>.<Resource>`.
    child.resources_to_skip.clear();
    const std::string prefix = call.ctx.logical_id + ".";
    for (const std::string& skip : parent_.resources_to_skip) {
      if (skip.compare(0, prefix.size(), prefix) == 0) child.resources_to_skip.push_back(skip.substr(prefix.size()));
    }
    s = CommitStackStatus(ctx_, &child, StackStatus::kUpdateRollbackInProgress, parent_.reason);
    if (!s.ok()) return Failed(s.message());
  }
  s = RunChild(child.id, &child, [](StackStatus st) { return st == StackStatus::kUpdateRollbackInProgress; });
  if (!s.ok()) return Failed(s.message());
  if (child.status == StackStatus::kUpdateRollbackCompleteCleanupInProgress ||
      child.status == StackStatus::kUpdateRollbackComplete || child.status == StackStatus::kUpdateComplete ||
      child.status == StackStatus::kCreateComplete) {
    return Done(child);  // rolled back (its cleanup waits for the parent's), or never changed
  }
  if (IsInProgress(child.status)) return StillRunning(child);  // interrupted
  return NotUpdated(child);
}

HookOutcome NestedStackHooks::FinishCleanup(const HookCall& call) {
  StackRecord child;
  Status s = RunChild(call.physical_id, &child);
  if (!s.ok()) return Failed(s.message());
  if (IsInProgress(child.status)) return StillRunning(child);  // interrupted
  return Done(child);
}

HookOutcome NestedStackHooks::Delete(const HookCall& call) {
  HookOutcome done;
  StackRecord child;
  bool found = false;
  Status s = LoadStack(ctx_.db, call.physical_id, &child, &found);
  if (!s.ok()) return Failed(s.message());
  if (!found || child.status == StackStatus::kDeleteComplete) return done;  // nothing left to delete
  if (!IsInProgress(child.status)) {
    DeleteStackInput in;
    in.stack_name = child.id;
    std::string id;
    s = StackService(ctx_).StartDelete(in, &id);
    if (!s.ok()) return Failed(s.message());
  }
  s = RunChild(child.id, &child);
  if (!s.ok()) return Failed(s.message());
  if (child.status == StackStatus::kDeleteComplete) return done;
  if (IsInProgress(child.status)) {
    done.kind = HookOutcome::Kind::kInProgress;
    return done;
  }
  return Failed("Embedded stack " + child.id + " was not successfully deleted: " + FailureReason(child));
}

}  // namespace ms
