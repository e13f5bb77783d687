#include "stack/import_operation.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "catalog/resource_schemas.h"
#include "stack/change_set_imports.h"
#include "stack/op_common.h"
#include "stack/operation_core.h"
#include "stack/outcome_limits.h"
#include "stack/provider_log_collector.h"
#include "store/stack_tables.h"

namespace ms {
namespace {

constexpr const char* kApplyStackTagsReason = "Apply stack-level tags to imported resource if applicable.";

// One import run: the stack, its records by logical ID, and a commit per step.
class ImportRun {
 public:
  ImportRun(const OperationContext& ctx, StackRecord stack)
      : ctx_(ctx), stack_(std::move(stack)), log_(ctx.clock, ctx.observer) {}

  Status Run() {
    int64_t log_operation = 0;
    MS_RETURN_IF_ERROR(NextProviderLogOperation(ctx_.db, stack_.id, &log_operation));
    log_.Start(stack_.id, stack_.name, log_operation);
    bool found = false;
    MS_RETURN_IF_ERROR(LoadChangeSet(ctx_.db, stack_.change_set_id, &cs_, &found));
    if (!found) return Status::Internal("import: change set " + stack_.change_set_id + " is gone");
    std::vector<ResourceRecord> records;
    MS_RETURN_IF_ERROR(LoadResources(ctx_.db, stack_.id, &records));
    for (ResourceRecord& r : records) records_.emplace(r.logical_id, std::move(r));
    if (stack_.status == StackStatus::kImportInProgress) MS_RETURN_IF_ERROR(Import());
    if (stack_.status == StackStatus::kImportRollbackInProgress) MS_RETURN_IF_ERROR(RollBack());
    // What the stack's last events' scenario handlers wrote, and the count
    // of lines past the cap.
    StoreBatch last;
    log_.RecordDropped(&lines_);
    return Commit(&last);
  }

 private:
  Status Import() {
    std::unique_ptr<ProviderSession> session;
    MS_RETURN_IF_ERROR(ctx_.providers->NewSession(&session));
    std::vector<std::string> failed;
    for (const ChangeSetImport& i : cs_.imports) {
      auto it = records_.find(i.logical_id);
      if (it != records_.end() && it->second.status != ResourceStatus::kImportInProgress) {
        if (it->second.status == ResourceStatus::kImportFailed) failed.push_back(i.logical_id);
        continue;  // imported (and maybe tagged) before a restart, or failed
      }
      ResourceRecord& r = records_[i.logical_id];
      if (it == records_.end()) {
        r.stack_id = stack_.id;
        r.logical_id = i.logical_id;
        r.type = i.resource_type;
        r.physical_id = i.physical_id;
        r.properties = i.properties;
        MS_RETURN_IF_ERROR(SetStatus(r, std::nullopt, ResourceStatus::kImportInProgress, "Resource import started."));
      }
      const HookOutcome o =
          ReadResource(*session, r.type, r.physical_id, r.properties,
                       ReadContext(stack_, i.logical_id, ctx_.region, ctx_.account_id, ctx_.clock->NowMs()));
      log_.Collect(i.logical_id, Hook::kRead, o, &lines_);  // committed with the resource's status below
      if (o.kind == HookOutcome::Kind::kDone && !o.properties.is_null()) {
        r.attributes = o.attributes.is_null() ? Value::MakeMap() : o.attributes;
        MS_RETURN_IF_ERROR(
            SetStatus(r, r.status, ResourceStatus::kImportComplete, "Resource import completed."));
      } else {
        const std::string reason = o.kind == HookOutcome::Kind::kFailed ? o.reason
                                                                         : "The resource's read did not complete.";
        MS_RETURN_IF_ERROR(SetStatus(r, r.status, ResourceStatus::kImportFailed, reason));
        failed.push_back(i.logical_id);
      }
    }
    if (!failed.empty()) {
      return SetStackStatus(StackStatus::kImportRollbackInProgress,
                            "The following resource(s) failed to import: [" + JoinNames(failed) + "]. ");
    }
    MS_RETURN_IF_ERROR(ApplyStackTags(*session, &failed));
    if (!failed.empty()) {
      return SetStackStatus(StackStatus::kImportRollbackInProgress,
                            "The following resource(s) failed to update: [" + JoinNames(failed) + "]. ");
    }
    return SetStackStatus(StackStatus::kImportComplete, "");
  }

  // AWS, once every resource is imported: each imported resource of a
  // taggable type gets the stack's tags through its update handler,
  // UPDATE_IN_PROGRESS "Apply stack-level tags to imported resource if
  // applicable." -> UPDATE_COMPLETE (or UPDATE_FAILED, which rolls the
  // import back). The hook sees the template's properties as old and new,
  // "Tags" changed, ctx.stack_tags the stack's and ctx.old_stack_tags none:
  // the provider adds the stack's tags (moonstack.tags.update_diff). A
  // stack without tags has nothing to apply.
  Status ApplyStackTags(ProviderSession& session, std::vector<std::string>* failed) {
    if (stack_.tags.empty()) return Status::OK();
    for (const ChangeSetImport& i : cs_.imports) {
      ResourceRecord& r = records_.at(i.logical_id);
      if (!ResourceSchemas::Taggable(r.type) || r.status == ResourceStatus::kUpdateComplete) continue;
      if (r.status == ResourceStatus::kUpdateFailed) {
        failed->push_back(r.logical_id);
        continue;
      }
      if (r.status == ResourceStatus::kImportComplete) {
        MS_RETURN_IF_ERROR(SetStatus(r, r.status, ResourceStatus::kUpdateInProgress, kApplyStackTagsReason));
      }
      // UPDATE_IN_PROGRESS: started (again, after a restart: re-applying tags changes nothing).
      const HookOutcome o = ApplyTagsTo(session, r);
      if (o.kind == HookOutcome::Kind::kDone) {
        if (o.attributes.is_map() && !o.attributes.map().empty()) r.attributes = o.attributes;
        MS_RETURN_IF_ERROR(SetStatus(r, r.status, ResourceStatus::kUpdateComplete, ""));
      } else {
        MS_RETURN_IF_ERROR(SetStatus(r, r.status, ResourceStatus::kUpdateFailed, o.reason));
        failed->push_back(r.logical_id);
      }
    }
    return Status::OK();
  }

  // The tags' update call, polled (in the operation's clock) while it
  // answers in progress, up to its type's handler timeout.
  HookOutcome ApplyTagsTo(ProviderSession& session, const ResourceRecord& r) {
    HookCall call;
    call.hook = Hook::kUpdate;
    call.type = r.type;
    call.physical_id = r.physical_id;
    call.properties = r.properties;
    call.old_properties = r.properties;
    call.changed = {"Tags"};
    call.ctx = ReadContext(stack_, r.logical_id, ctx_.region, ctx_.account_id, ctx_.clock->NowMs());
    call.ctx.stack_tags = StackTagsValue(stack_.tags);
    call.ctx.old_stack_tags = Value::MakeList({});
    const TypeSchema* schema = session.Schema(r.type);
    const int timeout = schema != nullptr && schema->timeout_seconds > 0 ? schema->timeout_seconds
                                                                          : kDefaultHandlerTimeoutSeconds;
    const int64_t deadline = ctx_.clock->NowMs() + int64_t{timeout} * 1000;
    while (true) {
      HookOutcome o = session.Call(call);
      log_.Collect(r.logical_id, Hook::kUpdate, o, &lines_);
      if (o.kind != HookOutcome::Kind::kInProgress) return o;
      const double wait = std::max(o.after_seconds, kMinPollSeconds);
      const int64_t next = ctx_.clock->NowMs() + static_cast<int64_t>(wait * 1000);
      if (next > deadline) {
        HookOutcome timed_out;
        timed_out.kind = HookOutcome::Kind::kFailed;
        timed_out.reason = kHandlerTimedOutReason;
        return timed_out;
      }
      ctx_.clock->AdvanceTo(next);
      call.ctx.now_ms = next;
      call.ctx.progress = o.progress;
    }
  }

  // Un-associates what the import recorded, last first; the world is left
  // as it is (AWS: the rollback of an import deletes nothing).
  Status RollBack() {
    for (auto i = cs_.imports.rbegin(); i != cs_.imports.rend(); ++i) {
      auto it = records_.find(i->logical_id);
      if (it == records_.end()) continue;
      ResourceRecord& r = it->second;
      if (r.status != ResourceStatus::kImportRollbackInProgress) {
        MS_RETURN_IF_ERROR(SetStatus(r, r.status, ResourceStatus::kImportRollbackInProgress, ""));
      }
      StoreBatch batch;
      batch.events.push_back(Event(r, ResourceStatus::kImportRollbackComplete, ""));
      batch.removed_resources.emplace_back(stack_.id, r.logical_id);
      MS_RETURN_IF_ERROR(Commit(&batch));
      records_.erase(it);
    }
    // The stack as it was before the import (a new stack keeps the
    // template it was reviewed with: it had none before).
    if (!stack_.previous_template_body.empty()) {
      stack_.RestorePreviousTemplate();
      stack_.parameters = stack_.previous_parameters;
    }
    return SetStackStatus(StackStatus::kImportRollbackComplete, "");
  }

  // A resource's event: the stack's own event's fields, the resource's name,
  // status and properties.
  StackEvent Event(const ResourceRecord& r, ResourceStatus status, const std::string& reason) const {
    StackEvent e = StackStatusEvent(stack_, ctx_.clock->NowMs(), reason);
    e.logical_id = r.logical_id;
    e.physical_id = r.physical_id;
    e.type = r.type;
    e.status = ResourceStatusName(status);
    if (r.properties.is_map()) e.properties = r.properties.ToJson();
    return e;
  }

  Status SetStatus(ResourceRecord& r, std::optional<ResourceStatus> from, ResourceStatus to,
                   const std::string& reason) {
    MS_RETURN_IF_ERROR(CheckResourceTransition(from, to));
    r.status = to;
    r.reason = CapStatusReason(reason);
    r.updated_ms = ctx_.clock->NowMs();
    StoreBatch batch;
    batch.resources.push_back(&r);
    batch.events.push_back(Event(r, to, r.reason));
    return Commit(&batch);
  }

  Status SetStackStatus(StackStatus to, const std::string& reason) {
    return CommitStackStatus(ctx_, &stack_, to, reason);
  }

  // The batch with the provider log's lines since the last commit: the
  // reads', and what a scenario's handlers of these events wrote.
  Status Commit(StoreBatch* batch) {
    if (ctx_.observer != nullptr) {
      for (const StackEvent& e : batch->events) ctx_.observer->OnEvent(e);
    }
    log_.CollectSideLines(nullptr, &lines_);
    for (ProviderLogRecord& line : lines_) batch->logs.push_back(std::move(line));
    lines_.clear();
    return CommitBatch(ctx_.db, ctx_.world, batch);
  }

  const OperationContext& ctx_;
  StackRecord stack_;
  ChangeSetRecord cs_;
  std::unordered_map<std::string, ResourceRecord> records_;
  ProviderLogCollector log_;               // this import's provider log
  std::vector<ProviderLogRecord> lines_;   // its lines not committed yet
};

}  // namespace

bool IsImportOperationStatus(StackStatus s) {
  return s == StackStatus::kImportInProgress || s == StackStatus::kImportRollbackInProgress;
}

Status StartImport(const OperationContext& ctx, const ChangeSetRecord& cs, const std::string& client_request_token,
                   StackRecord s) {
  if (s.status != StackStatus::kReviewInProgress) {
    s.previous_template_body = s.template_body;
    s.previous_original_template_body = s.original_template_body;
    s.previous_parameters = s.parameters;
    s.previous_tags = s.tags;  // an import keeps the stack's tags
  }
  s.template_body = cs.template_body;
  s.original_template_body = cs.original_template_body;
  s.parameters = cs.parameters;
  s.capabilities = cs.capabilities;
  if (!cs.tags.empty()) s.tags = cs.tags;
  s.client_request_token = client_request_token;
  s.change_set_id = cs.id;
  s.updated_ms = ctx.clock->NowMs();
  return CommitStackStatus(ctx, &s, StackStatus::kImportInProgress, "User Initiated");
}

Status RunImportOperation(const OperationContext& ctx, const std::string& stack_id) {
  StackRecord stack;
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStack(ctx.db, stack_id, &stack, &found));
  if (!found || !IsImportOperationStatus(stack.status)) return Status::OK();
  ImportRun run(ctx, std::move(stack));
  return run.Run();
}

}  // namespace ms
