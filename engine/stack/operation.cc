#include "stack/operation.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <unordered_map>

#include "eval/evaluator.h"
#include "eval/parameters.h"
#include "graph/graph.h"
#include "stack/op_common.h"
#include "stack/operation_core.h"
#include "stack/dynamic_references.h"
#include "stack/stack_environment.h"
#include "stack/import_operation.h"
#include "stack/update_operation.h"
#include "store/stack_tables.h"
#include "template/template.h"
#include "template/template_cache.h"

namespace ms {
namespace {

// A resource of the operation: its record and where the walk is with it.
struct Node : TrackedResource {
  int index = 0;               // graph node
  const ResourceDecl* decl = nullptr;
  int waiting_on = 0;          // create: dependencies not complete; delete: dependents not deleted
  bool started = false;        // this phase has begun work on it
  bool initiated = false;      // "Resource creation Initiated" recorded
  bool validated = false;      // rec.properties are Validate's coerced ones (create's first call did it)
  // The coerced properties pre-deployment validation gave it (null: none):
  // its create takes them and the worker does not validate again.
  Value early_coerced;
};

class Op : public OperationCore {
 public:
  explicit Op(const OperationContext& ctx) : OperationCore(ctx) {}

  Status Run(const std::string& stack_id) {
    MS_RETURN_IF_ERROR(Load(stack_id));
    switch (stack_.status) {
      case StackStatus::kCreateInProgress: StartCreate(); break;
      case StackStatus::kRollbackInProgress: StartDelete(/*rollback=*/true); break;
      case StackStatus::kDeleteInProgress: StartDelete(/*rollback=*/false); break;
      default:
        return Status::Internal(std::string("no operation to run on a stack in ") + StackStatusName(stack_.status));
    }
    return RunToEnd();
  }

 private:
  // --- loading -----------------------------------------------------------------

  Status Load(const std::string& stack_id) {
    std::vector<ResourceRecord> records;
    MS_RETURN_IF_ERROR(LoadStackAndRecords(stack_id, &records));
    // Nothing to delete (a stack in review: its template may still need
    // parameters it was never given): no template to load.
    if (stack_.status == StackStatus::kDeleteInProgress && records.empty()) return Status::OK();

    // Through the cache: create-stack's check parsed this very text.
    MS_RETURN_IF_ERROR(CachedTemplate(stack_.template_body, &template_));
    const Template& tmpl = *template_;
    std::vector<ParameterInput> given;
    for (const StackParameterValue& p : stack_.parameters) given.push_back({p.key, p.value, false});
    MS_RETURN_IF_ERROR(ResolveParameters(tmpl, given, {}, &params_));
    pseudo_.account_id = ctx_.account_id;
    pseudo_.region = ctx_.region;
    pseudo_.stack_name = stack_.name;
    pseudo_.stack_id = stack_.id;
    evaluator_ = std::make_unique<Evaluator>(tmpl, params_, pseudo_, env_);
    MS_RETURN_IF_ERROR(evaluator_->EvaluateConditions());
    DependencyGraph::Inclusion included = [this](const ResourceDecl& r) { return evaluator_->Included(r.condition); };
    ConditionOracle oracle = [this](std::string_view c) -> std::optional<bool> { return evaluator_->ConditionValue(c); };
    MS_RETURN_IF_ERROR(DependencyGraph::Build(tmpl, &included, &oracle, &graph_));

    // Records the template no longer has (an update that failed before its
    // cleanup removed them): extra nodes after the graph's, deleted first.
    for (const ResourceRecord& r : records) {
      if (tmpl.resource_index.count(r.logical_id) == 0 ||
          !evaluator_->Included(tmpl.resources[tmpl.resource_index.at(r.logical_id)].condition)) {
        ResourceDecl d;
        d.logical_id = r.logical_id;
        d.type = r.type;
        extra_decls_.push_back(std::move(d));
      }
    }
    nodes_.resize(graph_.size() + extra_decls_.size());  // once: env_ keeps pointers into it
    for (size_t k = 0; k < extra_decls_.size(); ++k) {
      Node& n = nodes_[graph_.size() + k];
      n.index = -1;
      n.decl = &extra_decls_[k];
      by_name_[extra_decls_[k].logical_id] = static_cast<int>(graph_.size() + k);
    }
    for (size_t i = 0; i < graph_.size(); ++i) {
      nodes_[i].index = static_cast<int>(i);
      nodes_[i].decl = &graph_.resource(static_cast<int>(i));
      by_name_[graph_.name(static_cast<int>(i))] = static_cast<int>(i);
    }
    for (ResourceRecord& r : records) {
      auto it = by_name_.find(r.logical_id);
      if (it == by_name_.end()) continue;
      Node& n = nodes_[it->second];
      n.rec = std::move(r);
      n.has_record = true;
      if (!n.rec.physical_id.empty()) env_.SetResource(&n.rec);
    }
    return Status::OK();
  }

  // --- create --------------------------------------------------------------------

  void StartCreate() {
    // Workflow-start checks: AWS-specific parameter values exist.
    Status params = CheckParametersAgainstWorld(env_, &params_);
    if (!params.ok()) {
      EndCreate(params.message());
      return;
    }
    for (StackParameterValue& p : stack_.parameters) {  // what SSM parameter types resolved to
      const ResolvedParameter* r = params_.Find(p.key);
      if (r != nullptr && r->ssm_resolved && p.resolved_value != *r->ssm_resolved) {
        p.resolved_value = *r->ssm_resolved;
        stack_dirty_ = true;
      }
    }
    if (!ValidateBeforeCreate()) return;
    created_ = 0;
    for (Node& n : nodes_) {
      if (n.index < 0) continue;  // extras only matter to a delete
      if (IsCreated(n)) ++created_;  // before a restart
      n.waiting_on = 0;
      for (int d : graph_.dependencies(n.index)) {
        if (!IsCreated(nodes_[d])) ++n.waiting_on;
      }
    }
    for (int i : graph_.order()) {
      Node& n = nodes_[i];
      if (IsCreated(n)) continue;
      if (n.has_record && n.rec.status == ResourceStatus::kCreateFailed) {
        failed_.push_back(n.rec.logical_id);  // failed before a restart
        failing_ = true;
      }
    }
    if (failing_) {
      MaybeEndCreate();
      return;
    }
    // Resume what a crash interrupted, then start what is ready.
    for (int i : graph_.order()) {
      Node& n = nodes_[i];
      if (n.has_record && n.rec.status == ResourceStatus::kCreateInProgress && n.rec.pending_hook == kSignalWaitHook) {
        n.started = true;
        n.initiated = true;
        ResumeSignalWait(n, *n.decl, *evaluator_);
        continue;
      }
      if (n.has_record && n.rec.status == ResourceStatus::kCreateInProgress) {
        n.started = true;
        n.initiated = !n.rec.physical_id.empty() || !n.rec.progress.is_null();
        CallCreate(n);
      }
    }
    StartStackTimeout();
    StartInSlices(
        graph_.order().size(), [this](size_t k) { TryCreate(nodes_[graph_.order()[k]]); },
        [this] { MaybeFinishCreate(); });
  }

  // Pre-deployment validation (stack/early_validation.h) of a create that
  // has made nothing yet (a restart that finds resources begun skips it).
  // False when it failed the create: its findings are the operation's
  // VALIDATION_ERROR events, the stack CREATE_FAILED with AWS's "Validation
  // failed with N error(s). ...", then rolled back (no resource has an
  // event), or left so with rollback disabled.
  bool ValidateBeforeCreate() {
    for (const Node& n : nodes_) {
      if (n.has_record) return true;
    }
    ProviderSession* session = Session();
    if (session == nullptr) return false;  // the operation is aborted
    Plan plan;
    plan.resources.reserve(graph_.order().size());
    for (int i : graph_.order()) {
      const Node& n = nodes_[i];
      ResourcePlan rp;
      rp.logical_id = n.decl->logical_id;
      rp.type = n.decl->type;
      rp.action = ChangeAction::kAdd;
      rp.properties = Value::MakeMap();
      Status s = n.decl->properties.is_null()
                     ? Status::OK()
                     : evaluator_->Evaluate(n.decl->properties, Section::kResourceProperties, &rp.properties);
      if (!s.ok()) rp.error = s.message();  // the resource's create reports it
      plan.resources.push_back(std::move(rp));
    }
    std::vector<ValidationFinding> findings;
    std::unordered_map<std::string, Value> validated;
    Status s = ValidateEarly(*session, plan, &findings, &validated);
    if (!s.ok()) {
      EndCreate(s.message());
      return false;
    }
    if (findings.empty()) {
      for (auto& [logical_id, properties] : validated) nodes_[by_name_.at(logical_id)].early_coerced = std::move(properties);
      return true;
    }
    create_ended_ = true;
    failing_ = true;
    if (!FailValidation(StackStatus::kCreateFailed, findings) || stack_.disable_rollback()) return false;
    if (!SetStackStatus(StackStatus::kRollbackInProgress, kValidationRollbackReason)) return false;
    StartDelete(/*rollback=*/true);
    return false;
  }

  static bool IsCreated(const Node& n) {
    return n.has_record && n.rec.status == ResourceStatus::kCreateComplete;
  }

  void TryCreate(Node& n) {
    if (failing_ || n.started || n.waiting_on > 0 || IsCreated(n)) return;
    n.started = true;
    n.has_record = true;
    n.rec.stack_id = stack_.id;
    n.rec.logical_id = n.decl->logical_id;
    n.rec.type = n.decl->type;

    Value evaluated = Value::MakeMap();
    Status s = n.decl->properties.is_null()
                   ? Status::OK()
                   : evaluator_->Evaluate(n.decl->properties, Section::kResourceProperties, &evaluated);
    if (!SetStatus(n, ResourceStatus::kCreateInProgress, "", evaluated)) return;
    n.create_started_ms = ctx_.clock->NowMs();
    ProviderSession* session = Session();
    if (session == nullptr) return;
    if (s.ok()) {  // {{resolve:...}}: read when the resource is created
      if (HasSecureReference(evaluated)) n.shown_properties = evaluated;  // events show the references
      s = ResolveDynamicReferences(&evaluated, SessionResolvers(session, ctx_.region, ctx_.account_id));
    }
    if (!s.ok()) {
      CreateFailed(n, s.message());
      return;
    }
    // The worker validates them as the first create call's first step (its
    // failure is that call's CREATE_FAILED, as AWS reports it); until then
    // the record holds them as evaluated. Properties pre-deployment
    // validation passed (fully known then, so the same now) are not again.
    if (!n.early_coerced.is_null()) {
      n.rec.properties = std::move(n.early_coerced);
      n.validated = true;
    } else {
      n.rec.properties = std::move(evaluated);
    }
    CallCreate(n);
  }

  void CallCreate(Node& n) {
    HookCall call = NewCall(n, Hook::kCreate);
    call.properties = n.rec.properties;
    call.validate = !n.validated;  // also after a restart: validating coerced properties changes nothing
    Dispatch(n, std::move(call), [this, &n](HookOutcome& o) { OnCreate(n, o); });
  }

  void OnCreate(Node& n, HookOutcome& o) {
    if (!o.coerced.is_null()) {
      n.rec.properties = std::move(o.coerced);
      n.validated = true;
    }
    if (n.cancelled) {  // followed silently, only to learn what exists
      if (o.kind == HookOutcome::Kind::kInProgress) {
        if (!o.physical_id.empty()) n.rec.physical_id = o.physical_id;
        Poll(n, o, [this, &n] { CallCreate(n); });
        return;
      }
      if (o.kind == HookOutcome::Kind::kDone) {
        n.rec.physical_id = o.physical_id;
        n.rec.attributes = o.attributes;
      }
      EndCall(n);
      MaybeEndCreate();
      return;
    }
    switch (o.kind) {
      case HookOutcome::Kind::kInProgress:
        if (!o.physical_id.empty()) n.rec.physical_id = o.physical_id;
        if (!n.initiated) {
          n.initiated = true;
          if (!SetStatus(n, ResourceStatus::kCreateInProgress, "Resource creation Initiated")) return;
        }
        Poll(n, o, [this, &n] { CallCreate(n); });
        return;
      case HookOutcome::Kind::kDone: {
        n.rec.physical_id = o.physical_id;
        n.rec.attributes = o.attributes.is_map() ? o.attributes : Value::MakeMap();
        EndCall(n);
        if (!n.initiated) {
          n.initiated = true;
          if (!SetStatus(n, ResourceStatus::kCreateInProgress, "Resource creation Initiated")) return;
        }
        if (StartSignalWait(n, *n.decl, *evaluator_)) return;
        CreateComplete(n);
        return;
      }
      case HookOutcome::Kind::kFailed:
        EndCall(n);
        CreateFailed(n, o.reason);
        return;
    }
  }

  void CreateComplete(Node& n) {
    if (!SetStatus(n, ResourceStatus::kCreateComplete, "")) return;
    ++created_;
    env_.SetResource(&n.rec);
    for (int d : graph_.dependents(n.index)) {
      if (--nodes_[d].waiting_on == 0) TryCreate(nodes_[d]);
    }
    MaybeFinishCreate();
  }

  // --- CreationPolicy signals (the wait itself: operation_core.h) -------------------

  void SignalWaitEnded(TrackedResource& r, SignalEnd end, const std::string& reason) override {
    Node& n = static_cast<Node&>(r);
    switch (end) {
      case SignalEnd::kComplete: CreateComplete(n); return;
      case SignalEnd::kFailed: CreateFailed(n, reason); return;
      case SignalEnd::kCancelled: MaybeEndCreate(); return;
    }
  }

  void CreateFailed(Node& n, const std::string& reason) {
    if (!SetStatus(n, ResourceStatus::kCreateFailed, reason)) return;
    failed_.push_back(n.rec.logical_id);
    if (!failing_) {
      failing_ = true;
      if (!CancelCreates(&n)) return;
      FailStack("The following resource(s) failed to create: [" + JoinNames(failed_) + "]. ");
    }
    MaybeEndCreate();
  }

  // The create stops though no resource of its own failed: the stack's
  // TimeoutInMinutes passed, or delete-stack was asked for.
  void StopCreate(const std::string& reason) {
    if (failing_ || stack_.status != StackStatus::kCreateInProgress) return;
    failing_ = true;
    if (!CancelCreates(nullptr)) return;
    FailStack(reason);
    MaybeEndCreate();
  }

  // Resources still being created (but `except`) are cancelled: their hooks
  // are still followed until they answer, so what they made is known. False
  // when a status change failed (the operation is aborted).
  bool CancelCreates(const Node* except) {
    for (Node& other : nodes_) {
      if (&other == except || !other.busy || other.cancelled) continue;
      other.cancelled = true;
      if (!SetStatus(other, ResourceStatus::kCreateFailed, "Resource creation cancelled")) return false;
      failed_.push_back(other.rec.logical_id);
    }
    return true;
  }

  void FailStack(const std::string& reason) {
    if (stack_.disable_rollback()) {
      pending_stack_reason_ = reason;  // CREATE_FAILED once everything has answered
    } else {
      SetStackStatus(StackStatus::kRollbackInProgress, reason);
    }
  }

  // TimeoutInMinutes counts from the create's start (a restart does not
  // reset it); AWS's reason names what follows the failure.
  void StartStackTimeout() {
    if (stack_.timeout_in_minutes <= 0) return;
    const int64_t deadline = stack_.created_ms + stack_.timeout_in_minutes * 60 * 1000;
    const double remaining = std::max<int64_t>(0, deadline - ctx_.clock->NowMs()) / 1000.0;
    scheduler_.AfterWhileBusy(remaining, [this] {
      const char* then = stack_.on_failure == "DELETE"      ? " Delete requested by user."
                         : stack_.on_failure == "DO_NOTHING" ? ""
                                                             : " Rollback requested by user.";
      StopCreate(std::string("Stack creation time exceeded the specified timeout.") + then);
      RequestPump();
    });
  }

  void OnDeleteRequested() override {
    stack_.on_failure = "DELETE";  // rolled back, then deleted
    stack_dirty_ = true;
    StopCreate(kDeleteRequestedReason);
  }

  // The create phase failed: once nothing is outstanding, roll back (or stop).
  void MaybeEndCreate() {
    if (!failing_ || outstanding_ > 0 || create_ended_) return;
    if (stack_.status == StackStatus::kCreateInProgress) {
      EndCreate(pending_stack_reason_.empty()
                    ? "The following resource(s) failed to create: [" + JoinNames(failed_) + "]. "
                    : pending_stack_reason_);
      return;
    }
    create_ended_ = true;
    StartDelete(/*rollback=*/true);
  }

  // Ends the create phase with a failure before or after resources ran.
  void EndCreate(const std::string& reason) {
    create_ended_ = true;
    failing_ = true;
    if (stack_.disable_rollback()) {
      SetStackStatus(StackStatus::kCreateFailed, reason);
      return;
    }
    if (stack_.status != StackStatus::kRollbackInProgress) SetStackStatus(StackStatus::kRollbackInProgress, reason);
    StartDelete(/*rollback=*/true);
  }

  void MaybeFinishCreate() {
    if (failing_ || stack_.status != StackStatus::kCreateInProgress || created_ < graph_.size()) return;
    Status s = EvaluateOutputs(*template_, *evaluator_);
    if (!s.ok()) {
      EndCreate(s.message());
      return;
    }
    stack_.imports.assign(env_.imports().begin(), env_.imports().end());
    SetStackStatus(StackStatus::kCreateComplete, "");
  }

  // --- delete (stack deletion and create rollback) ----------------------------------

  void StartDelete(bool rollback) {
    rollback_ = rollback;
    deleting_ = true;
    if (!rollback) {
      std::string in_use = ExportInUse();
      if (!in_use.empty()) {
        delete_ended_ = true;
        SetStackStatus(StackStatus::kDeleteFailed, in_use);
        return;
      }
    }
    delete_failed_.clear();
    for (Node& n : nodes_) {
      n.started = false;
      n.waiting_on = 0;
    }
    extras_left_ = 0;
    for (Node& n : nodes_) {
      if (!Deletable(n)) continue;
      if (n.index < 0) {
        ++extras_left_;
        continue;
      }
      for (int d : graph_.dependencies(n.index)) ++nodes_[d].waiting_on;
    }
    // Resume deletes a crash interrupted, then start those nothing depends on:
    // first the records the template no longer has (they may depend on the
    // others), then the template's resources in reverse dependency order.
    for (Node& n : nodes_) {
      if (Deletable(n) && n.rec.status == ResourceStatus::kDeleteInProgress && !n.rec.pending_hook.empty()) {
        n.started = true;
        CallDelete(n);
      }
    }
    for (size_t k = graph_.size(); k < nodes_.size(); ++k) TryDelete(nodes_[k]);
    StartGraphDeletes();
    MaybeEndDelete();
  }

  void StartGraphDeletes() {
    if (extras_left_ > 0) return;
    for (auto it = graph_.order().rbegin(); it != graph_.order().rend(); ++it) TryDelete(nodes_[*it]);
  }

  // AWS's reason when another stack imports one of this stack's exports.
  std::string ExportInUse() {
    // Most stacks export nothing (nested ones above all): then no other
    // stack is read (a parent deleting 100 children read every stack of
    // the region 100 times).
    if (std::none_of(stack_.outputs.begin(), stack_.outputs.end(),
                     [](const StackOutputValue& o) { return !o.export_name.empty(); })) {
      return "";
    }
    std::vector<StackRecord> stacks;
    if (!LoadStacks(ctx_.db, ctx_.scope(), &stacks).ok()) return "";
    for (const StackOutputValue& o : stack_.outputs) {
      if (o.export_name.empty()) continue;
      for (const StackRecord& other : stacks) {
        if (other.id == stack_.id || other.status == StackStatus::kDeleteComplete) continue;
        if (std::find(other.imports.begin(), other.imports.end(), o.export_name) != other.imports.end()) {
          return "Delete canceled. Cannot delete export " + o.export_name + " as it is in use by " + other.name + ".";
        }
      }
    }
    return "";
  }

  // Has a record that still stands for something in the world.
  static bool Deletable(const Node& n) {
    return n.has_record && n.rec.status != ResourceStatus::kDeleteComplete &&
           n.rec.status != ResourceStatus::kDeleteSkipped;
  }

  bool Retained(const Node& n) {
    if (std::find(stack_.retain_resources.begin(), stack_.retain_resources.end(), n.rec.logical_id) !=
        stack_.retain_resources.end()) {
      return true;
    }
    if (n.decl->deletion_policy.is_null()) return false;
    Value policy;
    if (!evaluator_->Evaluate(n.decl->deletion_policy, Section::kResourcePolicy, &policy).ok()) return false;
    return policy.str() == "Retain" || (policy.str() == "RetainExceptOnCreate" && !rollback_);
  }

  void TryDelete(Node& n) {
    if (!Deletable(n) || n.started || n.waiting_on > 0) return;
    n.started = true;
    if (n.rec.physical_id.empty()) {  // nothing was made: nothing to delete, nothing to retain
      if (!SetStatus(n, ResourceStatus::kDeleteComplete, "")) return;
      Deleted(n);
      return;
    }
    if (Retained(n)) {
      if (!SetStatus(n, ResourceStatus::kDeleteSkipped, "")) return;
      Deleted(n);
      return;
    }
    if (!SetStatus(n, ResourceStatus::kDeleteInProgress, "")) return;
    CallDelete(n);
  }

  void CallDelete(Node& n) {
    HookCall call = NewCall(n, Hook::kDelete);
    call.physical_id = n.rec.physical_id;
    call.properties = n.rec.properties;
    Dispatch(n, std::move(call), [this, &n](const HookOutcome& o) { OnDelete(n, o); });
  }

  void OnDelete(Node& n, const HookOutcome& o) {
    switch (o.kind) {
      case HookOutcome::Kind::kInProgress:
        Poll(n, o, [this, &n] { CallDelete(n); });
        return;
      case HookOutcome::Kind::kDone:
        EndCall(n);
        if (!SetStatus(n, ResourceStatus::kDeleteComplete, "")) return;
        Deleted(n);
        MaybeEndDelete();
        return;
      case HookOutcome::Kind::kFailed:
        EndCall(n);
        if (!SetStatus(n, ResourceStatus::kDeleteFailed, o.reason)) return;
        delete_failed_.push_back(n.rec.logical_id);
        MaybeEndDelete();  // what it depends on stays: it may still need it
        return;
    }
  }

  void Deleted(Node& n) {
    env_.ClearResource(n.rec.logical_id);
    if (n.index < 0) {
      if (--extras_left_ == 0) StartGraphDeletes();
      return;
    }
    for (int d : graph_.dependencies(n.index)) {
      if (Deletable(nodes_[d]) && --nodes_[d].waiting_on == 0) TryDelete(nodes_[d]);
    }
  }

  void MaybeEndDelete() {
    if (!deleting_ || outstanding_ > 0 || delete_ended_) return;
    delete_ended_ = true;
    const bool failed = !delete_failed_.empty();
    const std::string reason =
        failed ? "The following resource(s) failed to delete: [" + JoinNames(delete_failed_) + "]. " : "";
    if (rollback_) {
      if (failed) {
        SetStackStatus(StackStatus::kRollbackFailed, reason);
        return;
      }
      SetStackStatus(StackStatus::kRollbackComplete, "");
      if (stack_.on_failure == "DELETE") {  // --on-failure DELETE: the stack goes too
        if (!SetStackStatus(StackStatus::kDeleteInProgress, "")) return;
        SetStackStatus(StackStatus::kDeleteComplete, "");
      }
      return;
    }
    SetStackStatus(failed ? StackStatus::kDeleteFailed : StackStatus::kDeleteComplete, reason);
  }

  // --- calls ----------------------------------------------------------------------

  HookContext Context(const Node& n) const {
    HookContext c = BaseContext(n.decl->logical_id, EvaluatedPolicy(n.decl->update_policy, *evaluator_));
    c.creation_policy = EvaluatedPolicy(n.decl->creation_policy, *evaluator_);
    return c;
  }

  HookCall NewCall(const Node& n, Hook hook) const {
    HookCall call;
    call.hook = hook;
    call.type = n.decl->type;
    call.ctx = Context(n);
    call.ctx.progress = n.rec.progress;
    return call;
  }

  bool DropCancelled(TrackedResource& r, const HookCall& call) override {
    if (call.hook != Hook::kCreate || !r.rec.physical_id.empty() || !r.rec.progress.is_null()) return false;
    EndCall(r);  // cancelled before its first call went out: nothing was made
    return true;
  }

  void Settle() override { MaybeEndCreate(); }

  std::shared_ptr<const Template> template_;  // shared with the template cache: immutable
  ParameterValues params_;
  PseudoParameters pseudo_;
  std::unique_ptr<Evaluator> evaluator_;
  DependencyGraph graph_;
  std::vector<Node> nodes_;
  std::deque<ResourceDecl> extra_decls_;  // records the template no longer has (see Load)
  int extras_left_ = 0;                   // of those, not yet deleted
  size_t created_ = 0;        // nodes CREATE_COMPLETE
  std::unordered_map<std::string, int> by_name_;
  bool failing_ = false, create_ended_ = false;
  bool deleting_ = false, delete_ended_ = false, rollback_ = false;
  std::vector<std::string> failed_, delete_failed_;
  std::string pending_stack_reason_;
};

}  // namespace

namespace {

Status RunOnce(const OperationContext& ctx, const std::string& stack_id) {
  {
    StackRecord stack;
    bool found = false;
    MS_RETURN_IF_ERROR(LoadStack(ctx.db, stack_id, &stack, &found));
    if (found && IsUpdateOperationStatus(stack.status)) return RunUpdateOperation(ctx, stack_id);
    if (found && IsImportOperationStatus(stack.status)) return RunImportOperation(ctx, stack_id);
  }
  Op op(ctx);
  return op.Run(stack_id);
}

// Where a stack whose operation broke off with an engine error goes, so
// that no stack stays *_IN_PROGRESS with nothing running it: the phase's
// failure (a forward phase then runs its rollback), or the end a cleanup
// reaches anyway (cleanup never fails a stack).
std::optional<StackStatus> StrandedEnd(StackStatus s) {
  switch (s) {
    case StackStatus::kCreateInProgress: return StackStatus::kRollbackInProgress;
    case StackStatus::kRollbackInProgress: return StackStatus::kRollbackFailed;
    case StackStatus::kDeleteInProgress: return StackStatus::kDeleteFailed;
    case StackStatus::kUpdateInProgress: return StackStatus::kUpdateRollbackInProgress;
    case StackStatus::kUpdateCompleteCleanupInProgress: return StackStatus::kUpdateComplete;
    case StackStatus::kUpdateRollbackInProgress: return StackStatus::kUpdateRollbackFailed;
    case StackStatus::kUpdateRollbackCompleteCleanupInProgress: return StackStatus::kUpdateRollbackComplete;
    case StackStatus::kImportInProgress: return StackStatus::kImportRollbackInProgress;
    case StackStatus::kImportRollbackInProgress: return StackStatus::kImportRollbackFailed;
    default: return std::nullopt;
  }
}

// Runs the operation; an engine error fails it instead of stranding the
// stack. At most two runs: only a forward phase's stranded end is in
// progress (its rollback), and a rollback's is terminal.
Status RunToTerminal(const OperationContext& ctx, const std::string& stack_id) {
  while (true) {
    Status ran = RunOnce(ctx, stack_id);
    if (ran.ok()) return ran;
    StackRecord s;
    bool found = false;
    if (!LoadStack(ctx.db, stack_id, &s, &found).ok() || !found) return ran;
    std::optional<StackStatus> end = StrandedEnd(s.status);
    if (!end) return ran;  // not stranded: the error came after a terminal status
    MS_RETURN_IF_ERROR(CommitStackStatus(ctx, &s, *end, ran.message()));
    if (!IsInProgress(*end)) return Status::OK();
  }
}

}  // namespace

void RecordProviderSource(const OperationContext& ctx, StackRecord* s) {
  s->provider_dirs = ctx.provider_source.dirs;
  s->stub_unknown_types = ctx.provider_source.stub_unknown_types;
}

Status CommitStackStatus(const OperationContext& ctx, StackRecord* s, StackStatus to, const std::string& reason) {
  MS_RETURN_IF_ERROR(CheckStackTransition(s->status, to));
  if (IsInProgress(to)) RecordProviderSource(ctx, s);
  s->BeginOperationFor(s->status, to, NewUuid());
  s->NoteDeletionTime(to, ctx.clock->NowMs());
  s->status = to;
  s->reason = reason;
  StoreBatch batch;
  batch.stacks.push_back(*s);
  batch.events.push_back(StackStatusEvent(*s, ctx.clock->NowMs(), reason));
  if (ctx.observer != nullptr) ctx.observer->OnEvent(batch.events.back());
  return CommitBatch(ctx.db, ctx.world, &batch);
}

Status RunOperation(const OperationContext& caller, const std::string& stack_id) {
  // A stack's operation runs in its region and account, whatever the
  // command that runs it was given: crash recovery resumes every region's.
  OperationContext ctx = caller;
  StackScope scope;
  if (ScopeOfArn(stack_id, &scope)) {
    ctx.region = scope.region;
    ctx.account_id = scope.account;
  }
  MS_RETURN_IF_ERROR(RunToTerminal(ctx, stack_id));
  if (ctx.interrupt != nullptr && ctx.interrupt->load()) return Status::OK();  // stopped, still in progress
  // delete-stack came while the stack was being created, and the create
  // ended before it could take the request: the stack is deleted now.
  if (ctx.cancels == nullptr || !ctx.cancels->TakeDelete(stack_id)) return Status::OK();
  StackRecord s;
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStack(ctx.db, stack_id, &s, &found));
  if (!found || s.status == StackStatus::kDeleteComplete) return Status::OK();
  s.client_request_token.clear();
  MS_RETURN_IF_ERROR(CommitStackStatus(ctx, &s, StackStatus::kDeleteInProgress, "User Initiated"));
  return RunToTerminal(ctx, stack_id);
}

}  // namespace ms
