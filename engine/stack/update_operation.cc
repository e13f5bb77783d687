#include "stack/update_operation.h"

#include <algorithm>
#include <functional>
#include <random>
#include <unordered_map>

#include "eval/evaluator.h"
#include "eval/parameters.h"
#include "graph/graph.h"
#include "plan/plan_handoff.h"
#include "plan/planner.h"
#include "plan/property_diff.h"
#include "plan/policy_checks.h"
#include "stack/custom_names.h"
#include "stack/dynamic_references.h"
#include "stack/nested_stacks.h"
#include "stack/op_common.h"
#include "stack/operation_core.h"
#include "stack/stack_environment.h"
#include "stack/stack_outputs.h"
#include "store/stack_tables.h"
#include "template/template.h"
#include "template/template_cache.h"

namespace ms {
namespace {

// AWS's reasons (seed 000 runs 6, 32, 37; "requres" in the seed is the
// note-taker's typo, AWS spells it "requires").
constexpr const char* kReplacing =
    "Requested update requires the creation of a new physical resource; hence creating one.";
constexpr const char* kInitiated = "Resource creation Initiated";
constexpr const char* kCreationCancelled = "Resource creation cancelled";
constexpr const char* kUpdateCancelled = "Resource update cancelled";
constexpr const char* kStackUpdateCancelled = "Stack update cancelled";
constexpr const char* kCleanupFailed = "Update successful. One or more resources could not be deleted.";
// A cleanup delete is tried this many times before the resource is
// disassociated (run 37 shows three DELETE_FAILED events), waiting
// kRetryBaseSeconds * 2^(try-1) between tries ("after a few minutes").
constexpr int kCleanupTries = 3;
constexpr double kRetryBaseSeconds = 60;

// A resource of the update: of the new template (node >= 0), of the old one
// only (removed: node < 0), or both.
struct Res : TrackedResource {
  const ResourceDecl* decl = nullptr;      // the new template's; null when removed
  const ResourceDecl* old_decl = nullptr;  // the old template's; null when added
  const ResourcePlan* plan = nullptr;      // removed: its kRemove plan
  int node = -1;                           // new graph
  int old_node = -1;                       // old graph
  // The update phase.
  int waiting_on = 0;      // dependencies not done
  bool started = false, done = false, initiated = false;
  bool replacing = false;  // creating its replacement
  UpdateStep step_before_replace = UpdateStep::kNone;  // what RestoreOld goes back to
  Value new_props;         // update in place: the properties being applied
  std::vector<std::string> changed;
  // Cleanup: its removal (drop) or its replaced physical resource's delete.
  bool cleanup = false, drop = false;
  int cleanup_waiting = 0;  // cleanup items depending on it (old graph) not finished
  bool cleanup_started = false, cleanup_done = false;
  int tries = 0;
  ResourceStatus cleanup_status = ResourceStatus::kCreateComplete;  // its events' own lifecycle
};

class UpdateOp : public OperationCore {
 public:
  explicit UpdateOp(const OperationContext& ctx) : OperationCore(ctx) {}

  Status Run(const std::string& stack_id) {
    MS_RETURN_IF_ERROR(Load(stack_id));
    if (stack_.status == StackStatus::kUpdateInProgress) {
      StartUpdate();
    } else if (stack_.status == StackStatus::kUpdateCompleteCleanupInProgress) {
      StartCleanup();
    } else if (stack_.status == StackStatus::kUpdateRollbackCompleteCleanupInProgress) {
      // After a restart: the template is the previous one again, so what the
      // update added is what it no longer has.
      rolling_ = resumed_rollback_cleanup_ = true;
      StartCleanup();
    } else if (stack_.status == StackStatus::kUpdateRollbackInProgress) {
      // After a restart, continue-update-rollback or rollback-stack: the
      // records' update journal says what is left to undo.
      failing_ = update_ended_ = true;
      StartRollback();
    } else {
      return Status::Internal(std::string("no update to run on a stack in ") + StackStatusName(stack_.status));
    }
    return RunToEnd();
  }

 private:
  // --- loading -----------------------------------------------------------------

  Status Load(const std::string& stack_id) {
    std::vector<ResourceRecord> records;
    MS_RETURN_IF_ERROR(LoadStackAndRecords(stack_id, &records));

    // The plan, from the previous template to the current one, against the
    // records as they are (after a restart, what was done plans as no change).
    StackRecord deployed = stack_;
    deployed.template_body = stack_.previous_template_body;
    deployed.parameters = stack_.previous_parameters;
    deployed.tags = stack_.previous_tags;
    std::shared_ptr<const Template> old_tmpl;
    Status old_ok = CachedTemplate(deployed.template_body, &old_tmpl);
    if (!old_ok.ok()) return Status::Internal("update: the previous template does not load: " + old_ok.message());
    std::vector<ParameterInput> given;
    for (const StackParameterValue& p : stack_.parameters) given.push_back({p.key, p.value, false});
    PlanInput pin;
    pin.stack = &deployed;
    pin.resources = &records;
    pin.template_body = stack_.template_body;
    pin.parameters = given;
    pin.old_template = old_tmpl;
    pin.pseudo.account_id = ctx_.account_id;
    pin.pseudo.region = ctx_.region;
    pin.pseudo.stack_name = stack_.name;
    pin.pseudo.stack_id = stack_.id;
    pin.runtime = ctx_.providers;
    pin.session = Session();
    if (pin.session == nullptr) return error_;
    pin.exports = [this](const std::string& name, std::string* value) { return LookupExport(name, value); };
    pin.stack_outputs = StoreStackOutputs(ctx_.db, ctx_.scope());
    pin.ssm = [this](std::string_view name, std::string* value) {
      return Session()->SsmParameter(name, ctx_.region, ctx_.account_id, value);
    };
    pin.now_ms = ctx_.clock->NowMs();
    pin.new_stack_tags = &stack_.tags;
    // Right after update-stack in this process, its plan (made from the same
    // records) is taken instead of planning again.
    std::unique_ptr<Plan> offered;
    if (stack_.status == StackStatus::kUpdateInProgress) offered = TakePlan(stack_.id, stack_.updated_ms);
    if (offered != nullptr) {
      plan_ = std::move(*offered);
    } else {
      MS_RETURN_IF_ERROR(MakePlan(pin, &plan_));
    }
    evaluator_ = std::make_unique<Evaluator>(*plan_.tmpl, plan_.parameters, plan_.pseudo, env_);
    MS_RETURN_IF_ERROR(evaluator_->EvaluateConditions());

    // The old template's graph: the order cleanup deletes in.
    old_tmpl_ = old_tmpl;
    ParameterValues old_params;
    std::vector<ParameterInput> old_given;
    for (const StackParameterValue& p : deployed.parameters) old_given.push_back({p.key, p.value, false});
    PseudoParameters old_pseudo = plan_.pseudo;
    bool old_graph = false;
    if (ResolveParameters(*old_tmpl_, old_given, {}, &old_params).ok()) {
      old_params_ = std::move(old_params);
      EvalEnvironment none;
      Evaluator old_eval(*old_tmpl_, old_params_, old_pseudo, none);
      if (old_eval.EvaluateConditions().ok()) {
        DependencyGraph::Inclusion included = [&old_eval](const ResourceDecl& r) {
          return old_eval.Included(r.condition);
        };
        ConditionOracle oracle = [&old_eval](std::string_view c) -> std::optional<bool> {
          return old_eval.ConditionValue(c);
        };
        old_graph = DependencyGraph::Build(*old_tmpl_, &included, &oracle, &old_graph_).ok();
      }
    }
    if (!old_graph) old_graph_ = DependencyGraph();  // cleanup then has no order to follow

    // One Res per resource of the new graph, then one per removed record.
    const DependencyGraph& g = plan_.graph;
    size_t removed = 0;
    for (const ResourceRecord& r : records) {
      if (g.Find(r.logical_id) < 0) ++removed;
    }
    res_.resize(g.size() + removed);
    for (size_t i = 0; i < g.size(); ++i) {
      Res& r = res_[i];
      r.node = static_cast<int>(i);
      r.decl = &g.resource(r.node);
      r.plan = plan_.Find(r.decl->logical_id);
      by_name_[r.decl->logical_id] = static_cast<int>(i);
    }
    size_t next = g.size();
    for (ResourceRecord& rec : records) {
      auto it = by_name_.find(rec.logical_id);
      Res* r = nullptr;
      if (it == by_name_.end()) {
        r = &res_[next];
        by_name_[rec.logical_id] = static_cast<int>(next++);
      } else {
        r = &res_[it->second];
      }
      r->rec = std::move(rec);
      r->has_record = true;
      if (r->plan == nullptr) r->plan = plan_.Find(r->rec.logical_id);  // removed: its kRemove plan
    }
    for (Res& r : res_) {
      if (old_graph) {
        r.old_node = old_graph_.Find(r.rec.logical_id.empty() ? r.decl->logical_id : r.rec.logical_id);
        if (r.old_node >= 0) r.old_decl = &old_graph_.resource(r.old_node);
      }
      if (r.has_record && !r.rec.physical_id.empty()) env_.SetResource(&r.rec);
    }
    return Status::OK();
  }

  // --- the update phase ---------------------------------------------------------------

  void StartUpdate() {
    // Workflow-start checks, as create (seed 000 run 31).
    Status params = CheckParametersAgainstWorld(env_, &plan_.parameters);
    if (!params.ok()) {
      Fail(params.message());
      return;
    }
    if (!ValidateBeforeUpdate()) return;
    // A removal the stack policy denies (Update:Delete) fails the update
    // before anything else is done.
    for (Res& r : res_) {
      if (r.node >= 0 || !r.has_record) continue;
      const ResourcePlan* rp = plan_.Find(r.rec.logical_id);
      const std::string refusal = rp == nullptr ? "" : DeleteRefusal(*rp);
      if (!refusal.empty()) {
        ResourceFailed(r, ResourceStatus::kUpdateFailed, refusal);
        return;
      }
    }
    const DependencyGraph& g = plan_.graph;
    for (size_t i = 0; i < g.size(); ++i) {
      Res& r = res_[i];
      // Unchanged resources are done; so is one already brought up to date
      // before a restart (it plans as unchanged), unless a hook of it was
      // under way.
      if (r.plan != nullptr && r.plan->action == ChangeAction::kNone && r.has_record &&
          r.rec.pending_hook.empty() && Stable(r.rec.status)) {
        r.done = true;
        ++done_;
      }
    }
    for (size_t i = 0; i < g.size(); ++i) {
      Res& r = res_[i];
      for (int d : g.dependencies(r.node)) {
        if (!res_[d].done) ++r.waiting_on;
      }
    }
    // Resume hooks a crash interrupted, then start what is ready.
    for (int i : g.order()) {
      Res& r = res_[i];
      if (r.done || !r.has_record || r.rec.pending_hook.empty()) continue;
      r.started = true;
      r.initiated = !r.rec.physical_id.empty() || !r.rec.progress.is_null();
      if (r.rec.pending_hook == kSignalWaitHook) {
        r.replacing = !r.rec.old_physical_id.empty() && r.rec.update_step == UpdateStep::kReplaced;
        ResumeSignalWait(r, *r.decl, *evaluator_);
      } else if (r.rec.pending_hook == HookName(Hook::kCreate) && r.rec.status == ResourceStatus::kCreateInProgress) {
        CallCreate(r);
      } else if (r.rec.pending_hook == HookName(Hook::kCreate) && !r.rec.old_physical_id.empty()) {
        r.replacing = true;
        CallCreate(r);
      } else {
        r.started = false;  // an update in place: decided again below
        r.rec.pending_hook.clear();
      }
    }
    for (int i : g.order()) TryStart(res_[i]);
    MaybeFinishUpdate();
  }

  // Pre-deployment validation (stack/early_validation.h) of an update that
  // has changed nothing yet (a restart that finds hooks or journal steps
  // skips it). False when it failed the update: its findings are the
  // operation's VALIDATION_ERROR events, the stack UPDATE_FAILED with
  // "Validation failed with N error(s). ...", then rolled back with nothing
  // to undo (or left so, rollback disabled). AWS documents the check for
  // UpdateStack ("the update stops and no resources are changed"); these
  // statuses are its CreateStack ones in their update form, not recorded.
  bool ValidateBeforeUpdate() {
    for (const Res& r : res_) {
      if (r.has_record && (!r.rec.pending_hook.empty() || r.rec.update_step != UpdateStep::kNone)) return true;
    }
    ProviderSession* session = Session();
    if (session == nullptr) return false;  // the operation is aborted
    std::vector<ValidationFinding> findings;
    Status s = ValidateEarly(*session, plan_, &findings);
    if (!s.ok()) {
      Fail(s.message());
      return false;
    }
    if (findings.empty()) return true;
    failing_ = update_ended_ = true;
    if (!FailValidation(StackStatus::kUpdateFailed, findings)) return false;
    if (RollbackDisabled()) {
      ended_ = true;
      return false;
    }
    if (!SetStackStatus(StackStatus::kUpdateRollbackInProgress, kValidationRollbackReason)) return false;
    if (LeaveToParent()) return false;
    StartRollback();
    return false;
  }

  static bool Stable(ResourceStatus s) {
    return s == ResourceStatus::kCreateComplete || s == ResourceStatus::kUpdateComplete ||
           s == ResourceStatus::kImportComplete;
  }

  // A resource of the new template sees its policies evaluated against the
  // stack as it is now; a removed one the deployed template's UpdatePolicy.
  HookContext ContextOf(const Res& r) const {
    const std::string& id = r.rec.logical_id.empty() ? r.decl->logical_id : r.rec.logical_id;
    if (r.decl == nullptr) return BaseContext(id, OldUpdatePolicy(r));
    HookContext c = BaseContext(id, EvaluatedPolicy(r.decl->update_policy, *evaluator_));
    c.creation_policy = EvaluatedPolicy(r.decl->creation_policy, *evaluator_);
    return c;
  }

  // The deployed template's UpdatePolicy, evaluated when the update was planned.
  static Value OldUpdatePolicy(const Res& r) { return r.plan != nullptr ? r.plan->old_update_policy : Value(); }

  void TryStart(Res& r) {
    if (failing_ || r.done || r.started || r.waiting_on > 0 || r.node < 0) return;
    r.started = true;
    if (!r.has_record || r.plan->action == ChangeAction::kAdd) {
      StartAdd(r);
    } else {
      StartModify(r);
    }
  }

  // Evaluates and validates the new properties of `r` (now that what it
  // refers to is done). False with *reason on failure.
  bool NewProperties(Res& r, Value* evaluated, Value* coerced, std::string* reason) {
    *evaluated = Value::MakeMap();
    Status s = r.decl->properties.is_null()
                   ? Status::OK()
                   : evaluator_->Evaluate(r.decl->properties, Section::kResourceProperties, evaluated);
    if (evaluated->is_null()) *evaluated = Value::MakeMap();
    ProviderSession* session = Session();
    if (session == nullptr) return false;
    Value resolved = *evaluated;
    if (s.ok()) {  // {{resolve:...}}: read when the resource is created or updated (as create does)
      r.shown_properties = HasSecureReference(*evaluated) ? *evaluated : Value();  // events show the references
      s = ResolveDynamicReferences(&resolved, SessionResolvers(session, ctx_.region, ctx_.account_id));
    }
    if (s.ok()) s = session->Validate(r.decl->type, ContextOf(r), resolved, coerced);
    if (!s.ok()) {
      *reason = s.message();
      return false;
    }
    return true;
  }

  // --- added resources (as create) ---

  void StartAdd(Res& r) {
    r.has_record = true;
    r.rec.update_step = UpdateStep::kAdded;
    r.rec.stack_id = stack_.id;
    r.rec.logical_id = r.decl->logical_id;
    r.rec.type = r.decl->type;
    Value evaluated, coerced;
    std::string reason;
    const bool ok = NewProperties(r, &evaluated, &coerced, &reason);
    if (!error_.ok()) return;
    if (!SetStatus(r, ResourceStatus::kCreateInProgress, "", evaluated)) return;
    r.create_started_ms = ctx_.clock->NowMs();
    if (!ok) {
      ResourceFailed(r, ResourceStatus::kCreateFailed, reason);
      return;
    }
    r.rec.properties = coerced;
    CallCreate(r);
  }

  void CallCreate(Res& r) {
    HookCall call = NewCall(r, Hook::kCreate);
    call.properties = r.rec.properties;
    Dispatch(r, std::move(call), [this, &r](const HookOutcome& o) { OnCreate(r, o); });
  }

  // Create answers, for an added resource and for a replacement.
  void OnCreate(Res& r, const HookOutcome& o) {
    if (r.cancelled) {
      OnCancelledCreate(r, o);
      return;
    }
    const ResourceStatus progress = r.replacing ? ResourceStatus::kUpdateInProgress : ResourceStatus::kCreateInProgress;
    switch (o.kind) {
      case HookOutcome::Kind::kInProgress:
        if (!o.physical_id.empty()) r.rec.physical_id = o.physical_id;
        if (!r.initiated) {
          r.initiated = true;
          if (!SetStatus(r, progress, kInitiated)) return;
        }
        Poll(r, o, [this, &r] { CallCreate(r); });
        return;
      case HookOutcome::Kind::kDone:
        r.rec.physical_id = o.physical_id;
        r.rec.attributes = o.attributes.is_map() ? o.attributes : Value::MakeMap();
        EndCall(r);
        if (!r.initiated) {
          r.initiated = true;
          if (!SetStatus(r, progress, kInitiated)) return;
        }
        if (StartSignalWait(r, *r.decl, *evaluator_)) return;  // its CreationPolicy: it completes once signalled
        CreatedOrReplaced(r);
        return;
      case HookOutcome::Kind::kFailed:
        EndCall(r);
        if (r.replacing) {
          // A replacement that got a physical ID before failing exists (in
          // part): it stays on the record, the old one in old_physical_id,
          // so rollback points back and its cleanup deletes it, as after a
          // failed signal wait. Nothing new was made otherwise: the record
          // points at the old resource again.
          if (r.rec.physical_id.empty()) RestoreOld(r);
          ResourceFailed(r, ResourceStatus::kUpdateFailed, o.reason);
        } else {
          ResourceFailed(r, ResourceStatus::kCreateFailed, o.reason);
        }
        return;
    }
  }

  void CreatedOrReplaced(Res& r) {
    if (!SetStatus(r, r.replacing ? ResourceStatus::kUpdateComplete : ResourceStatus::kCreateComplete, "")) return;
    Done(r);
  }

  // --- CreationPolicy signals (the wait itself: operation_core.h) ---
  // An added resource, or a replacement, with a CreationPolicy waits for its
  // signals as a created one does.

  void SignalWaitEnded(TrackedResource& t, SignalEnd end, const std::string& reason) override {
    Res& r = static_cast<Res&>(t);
    switch (end) {
      case SignalEnd::kComplete:
        CreatedOrReplaced(r);
        return;
      case SignalEnd::kFailed:
        // What was made stays on the record (an added resource, or the
        // replacement with the old one in old_physical_id): rollback deletes
        // it, or points back.
        ResourceFailed(r, r.replacing ? ResourceStatus::kUpdateFailed : ResourceStatus::kCreateFailed, reason);
        return;
      case SignalEnd::kCancelled:  // Settle() goes on with the failure
        return;
    }
  }

  // A cancelled create or replacement answering: no events, the record
  // learns what exists. A replacement that got made stays on the record (the
  // old resource in old_physical_id), so rollback points back and its cleanup
  // deletes the new one.
  void OnCancelledCreate(Res& r, const HookOutcome& o) {
    switch (o.kind) {
      case HookOutcome::Kind::kInProgress:
        if (!o.physical_id.empty()) r.rec.physical_id = o.physical_id;
        Poll(r, o, [this, &r] { CallCreate(r); });
        return;
      case HookOutcome::Kind::kDone:
        r.rec.physical_id = o.physical_id;
        r.rec.attributes = o.attributes.is_map() ? o.attributes : Value::MakeMap();
        EndCall(r);
        return;
      case HookOutcome::Kind::kFailed:
        EndCall(r);
        // With a physical ID something was made: it stays on the record
        // (see OnCreate), for rollback to delete.
        if (r.replacing && r.rec.physical_id.empty()) RestoreOld(r);
        return;
    }
  }

  // A replacement that was not made: the record points at the old resource again.
  void RestoreOld(Res& r) {
    r.rec.physical_id = r.rec.old_physical_id;
    r.rec.properties = r.rec.old_properties;
    r.rec.attributes = r.rec.old_attributes;
    r.rec.old_physical_id.clear();
    r.rec.old_properties = Value();
    r.rec.old_attributes = Value();
    r.rec.update_step = r.step_before_replace;
    r.replacing = false;
  }

  // --- modified resources ---

  void StartModify(Res& r) {
    Value evaluated, coerced;
    std::string reason;
    if (!NewProperties(r, &evaluated, &coerced, &reason)) {
      if (!error_.ok()) return;
      ResourceFailed(r, ResourceStatus::kUpdateFailed, reason);
      return;
    }
    const bool type_changed = r.rec.type != r.decl->type;
    std::vector<PropertyChange> changes;
    if (!type_changed) {
      DiffInput din;
      din.type = r.decl->type;
      din.schema = Session()->Schema(r.decl->type);
      din.session = Session();
      HookContext hc = ContextOf(r);
      din.ctx = &hc;
      Status s = DiffProperties(din, r.rec.properties, coerced, &changes);
      if (!s.ok()) {
        ResourceFailed(r, ResourceStatus::kUpdateFailed, s.message());
        return;
      }
    }
    bool metadata = false;
    for (const ChangeDetail& d : r.plan->details) {
      if (d.attribute == TargetAttribute::kMetadata) metadata = true;
    }
    const bool retag = Retags(r);
    if (!type_changed && changes.empty() && !retag) {
      if (metadata) {
        // A Metadata change alone: UPDATE_COMPLETE, no provider call (run 26),
        // unless a stack policy or an update restriction forbids it.
        const std::string refusal = UpdateRefusal(*r.plan, UpdateBehavior::kNone);
        if (!refusal.empty()) {
          ResourceFailed(r, ResourceStatus::kUpdateFailed, refusal);
          return;
        }
        if (!SetStatus(r, ResourceStatus::kUpdateComplete, "")) return;
      }
      // Else a Dynamic change that turned out to be none (runs 8, 10).
      Done(r);
      return;
    }
    UpdateBehavior behavior = UpdateBehavior::kNone;
    for (const PropertyChange& c : changes) behavior = std::max(behavior, c.behavior);
    if (type_changed) behavior = std::max(behavior, UpdateBehavior::kReplace);
    if (behavior == UpdateBehavior::kUnsupported) {
      // Refused when it starts, never synchronously (run 32's reason).
      ResourceFailed(r, ResourceStatus::kUpdateFailed, "Update to resource type " + r.decl->type + " is not supported");
      return;
    }
    // The stack policy and the update restrictions (seed 003), now that
    // what the update does to the resource is known.
    std::string refusal = UpdateRefusal(*r.plan, behavior);
    // A nested stack's: its parent resource's restrictions too.
    if (refusal.empty()) refusal = OuterRefusal(ctx_.outer_restrictions, r.decl->logical_id, r.decl->update_policy, behavior);
    if (!refusal.empty()) {
      ResourceFailed(r, ResourceStatus::kUpdateFailed, refusal);
      return;
    }
    if (behavior == UpdateBehavior::kReplace && !type_changed) {
      const std::string named = CustomNamedReplacementRefusal(r.decl->type, r.rec.properties, coerced);
      if (!named.empty()) {
        ResourceFailed(r, ResourceStatus::kUpdateFailed, named);
        return;
      }
    }
    if (behavior == UpdateBehavior::kReplace) {
      if (!r.rec.old_physical_id.empty() || r.rec.update_step == UpdateStep::kAdded) {
        // A replacement (or a resource) an earlier, failed update left behind
        // and nobody cleaned up: one record cannot hold two old resources.
        ResourceFailed(r, ResourceStatus::kUpdateFailed,
                       "moonstack: the previous physical resource " + r.rec.old_physical_id +
                           " of this resource has not been cleaned up");
        return;
      }
      if (!SetStatus(r, ResourceStatus::kUpdateInProgress, kReplacing, evaluated)) return;
      r.create_started_ms = ctx_.clock->NowMs();
      r.replacing = true;
      r.step_before_replace = r.rec.update_step;
      r.rec.update_step = UpdateStep::kReplaced;
      r.rec.old_physical_id = r.rec.physical_id;
      r.rec.old_properties = r.rec.properties;
      r.rec.old_attributes = r.rec.attributes;
      r.rec.physical_id.clear();
      r.rec.type = r.decl->type;
      r.rec.properties = coerced;
      r.rec.attributes = Value::MakeMap();
      CallCreate(r);
      return;
    }
    if (!SetStatus(r, ResourceStatus::kUpdateInProgress, "", evaluated)) return;
    r.new_props = coerced;
    r.changed.clear();
    for (const PropertyChange& c : changes) r.changed.push_back(c.name);
    if (retag) AddTagsChange(&r.changed);
    CallUpdate(r);
  }

  // The stack's tags changed and the plan re-tags this resource (a taggable
  // type: plan/planner.h, PlanInput::new_stack_tags).
  static bool Retags(const Res& r) {
    return r.plan != nullptr &&
           std::find(r.plan->scope.begin(), r.plan->scope.end(), TargetAttribute::kTags) != r.plan->scope.end();
  }

  // "Tags" among a hook's changed properties, so the provider re-applies
  // them (from ctx.stack_tags and ctx.old_stack_tags).
  static void AddTagsChange(std::vector<std::string>* changed) {
    if (std::find(changed->begin(), changed->end(), "Tags") == changed->end()) changed->push_back("Tags");
  }

  // A stack tag list for ctx.old_stack_tags: a list even when empty, so a
  // provider tells "had none" from "not told".
  static Value TagList(const std::vector<StackTag>& tags) {
    Value v = StackTagsValue(tags);
    return v.is_null() ? Value::MakeList({}) : v;
  }

  void CallUpdate(Res& r) {
    HookCall call = NewCall(r, Hook::kUpdate);
    call.physical_id = r.rec.physical_id;
    call.properties = r.new_props;
    call.old_properties = r.rec.properties;
    call.changed = r.changed;
    call.ctx.old_update_policy = OldUpdatePolicy(r);
    Dispatch(r, std::move(call), [this, &r](const HookOutcome& o) { OnUpdate(r, o); });
  }

  void OnUpdate(Res& r, const HookOutcome& o) {
    if (r.cancelled) {
      // Followed silently: an update that got through is undone by rollback
      // (touched); one that failed is assumed not to have changed anything.
      if (o.kind == HookOutcome::Kind::kInProgress) {
        Poll(r, o, [this, &r] { CallUpdate(r); });
        return;
      }
      EndCall(r);
      if (o.kind == HookOutcome::Kind::kDone || LeavesPartialUpdates(r)) Applied(r, o);
      return;
    }
    switch (o.kind) {
      case HookOutcome::Kind::kInProgress:
        Poll(r, o, [this, &r] { CallUpdate(r); });
        return;
      case HookOutcome::Kind::kDone:
        EndCall(r);
        if (IsNewPhysicalId(r, o)) {
          ReplacedInUpdate(r, o);
        } else {
          Applied(r, o);
        }
        if (!SetStatus(r, ResourceStatus::kUpdateComplete, "")) return;
        Done(r);
        return;
      case HookOutcome::Kind::kFailed:
        EndCall(r);
        // A provider that may leave a failed update half-applied has it
        // rolled back like a successful one; others are taken as unchanged.
        if (LeavesPartialUpdates(r)) Applied(r, HookOutcome());
        ResourceFailed(r, ResourceStatus::kUpdateFailed, o.reason);
        return;
    }
  }

  // A provider declared replaces_in_update (a custom resource, whose handler
  // decides) answered an update with another physical ID: the update made a
  // new resource. One record holds one old resource at most, so a record
  // still holding one (an earlier failed update, not cleaned up) takes the
  // answer as an update in place.
  static bool IsNewPhysicalId(const Res& r, const HookOutcome& o) {
    return !o.physical_id.empty() && o.physical_id != r.rec.physical_id && r.rec.old_physical_id.empty();
  }

  // As a replacement from then on: cleanup deletes the old resource (the
  // Delete request CloudFormation sends a custom resource for the old
  // PhysicalResourceId), rollback points back to it and deletes the new one.
  void ReplacedInUpdate(Res& r, const HookOutcome& o) {
    if (r.rec.update_step == UpdateStep::kNone || r.rec.update_step == UpdateStep::kRestored) {
      r.rec.rollback_properties = Value();
      r.rec.rollback_attributes = Value();
    }
    r.rec.update_step = UpdateStep::kReplaced;
    r.rec.old_physical_id = r.rec.physical_id;
    r.rec.old_properties = r.rec.properties;
    r.rec.old_attributes = r.rec.attributes;
    r.rec.physical_id = o.physical_id;
    r.rec.properties = r.new_props;
    r.rec.attributes = o.attributes.is_map() ? o.attributes : Value::MakeMap();
    env_.SetResource(&r.rec);
    MarkDirty(r);
  }

  bool LeavesPartialUpdates(Res& r) {
    ProviderSession* session = Session();
    const TypeSchema* schema = session == nullptr ? nullptr : session->Schema(r.rec.type);
    return schema != nullptr && schema->leaves_partial_updates;
  }

  // An update in place went through (or may have): what the resource had
  // before is journaled for rollback, unless an earlier step of a failed
  // update already holds it.
  void Applied(Res& r, const HookOutcome& o) {
    if (r.rec.update_step == UpdateStep::kNone || r.rec.update_step == UpdateStep::kRestored) {
      r.rec.update_step = UpdateStep::kUpdated;
      r.rec.rollback_properties = r.rec.properties;
      r.rec.rollback_attributes = r.rec.attributes;
    }
    r.rec.properties = r.new_props;
    if (o.attributes.is_map() && !o.attributes.map().empty()) r.rec.attributes = o.attributes;
    MarkDirty(r);
  }

  void Done(Res& r) {
    r.done = true;
    ++done_;
    env_.SetResource(&r.rec);
    MarkDirty(r);
    for (int d : plan_.graph.dependents(r.node)) {
      if (--res_[d].waiting_on == 0) TryStart(res_[d]);
    }
    MaybeFinishUpdate();
  }

  void ResourceFailed(Res& r, ResourceStatus status, const std::string& reason) {
    if (!SetStatus(r, status, reason)) return;
    (status == ResourceStatus::kCreateFailed ? failed_create_ : failed_update_).push_back(r.rec.logical_id);
    if (!failing_) {
      failing_ = true;
      // The stack says so at once, naming the cancelled siblings too; the
      // rollback itself waits until every hook has answered.
      if (!CancelSiblings(&r)) return;
      if (!RollbackDisabled() && pending_reason_.empty()) {
        if (!SetStackStatus(StackStatus::kUpdateRollbackInProgress, FailureReason())) return;
      }
    }
    MaybeEndFailed();
  }

  // Siblings still being created or updated are cancelled (seed 000 run 34:
  // "Resource creation cancelled"; AWS says "Resource update cancelled" for
  // an update). False when the operation aborted.
  bool CancelSiblings(const Res* failed) {
    for (Res& other : res_) {
      if (&other == failed || !other.busy || other.cancelled || other.node < 0) continue;
      other.cancelled = true;
      const bool create = other.rec.status == ResourceStatus::kCreateInProgress;
      if (!SetStatus(other, create ? ResourceStatus::kCreateFailed : ResourceStatus::kUpdateFailed,
                     create ? kCreationCancelled : kUpdateCancelled)) {
        return false;
      }
      (create ? failed_create_ : failed_update_).push_back(other.rec.logical_id);
    }
    return true;
  }

  // cancel-update-stack: what is being created or updated is cancelled as
  // when a sibling fails, and the update rolls back, even with
  // --disable-rollback (AWS: "the stack rolls back the update and reverts to
  // the previous stack configuration").
  void OnCancel() override {
    if (failing_ || finished_update_) return;
    failing_ = cancel_requested_ = true;
    pending_reason_ = kStackUpdateCancelled;
    if (!CancelSiblings(nullptr)) return;
    if (!SetStackStatus(StackStatus::kUpdateRollbackInProgress, kStackUpdateCancelled)) return;
    MaybeEndFailed();
  }

  bool RollbackDisabled() const { return stack_.disable_rollback() && !cancel_requested_; }

  // AWS's reason names the resources that failed to create, then update.
  std::string FailureReason() const {
    std::string out;
    if (!failed_create_.empty()) out += "The following resource(s) failed to create: [" + JoinNames(failed_create_) + "]. ";
    if (!failed_update_.empty()) out += "The following resource(s) failed to update: [" + JoinNames(failed_update_) + "]. ";
    return out;
  }

  // The update failed: once nothing is outstanding, roll back, or with
  // --disable-rollback stop UPDATE_FAILED with every record kept (including
  // replacements' old resources).
  void MaybeEndFailed() {
    if (!failing_ || outstanding_ > 0 || update_ended_) return;
    update_ended_ = true;
    const std::string reason = pending_reason_.empty() ? FailureReason() : pending_reason_;
    if (RollbackDisabled()) {
      ended_ = true;
      SetStackStatus(StackStatus::kUpdateFailed, reason);
      return;
    }
    if (stack_.status != StackStatus::kUpdateRollbackInProgress &&
        !SetStackStatus(StackStatus::kUpdateRollbackInProgress, reason)) {
      return;
    }
    if (LeaveToParent()) return;  // the parent's rollback rolls this stack back
    StartRollback();
  }

  // A nested stack run by its parent stops at a phase its parent goes on
  // with (OperationContext::parent_runs_cleanup): its cleanup runs in the
  // parent's cleanup phase, its rollback in the parent's rollback.
  bool LeaveToParent() {
    if (!ctx_.parent_runs_cleanup) return false;
    ended_ = left_to_parent_ = true;
    return true;
  }

  // --- update rollback --------------------------------------------------------------
  //
  // Seed 000 runs 31-33: resources updated in place are updated back (the
  // provider's rollback hook), replaced ones point back at their old physical
  // resource and a failed one is assumed unchanged (UPDATE_COMPLETE with no
  // call); then UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS deletes what the
  // update created, in reverse dependency order.

  // Journal-driven (ResourceRecord::update_step), so the same walk serves a
  // rollback straight after the failure, after a restart, after
  // continue-update-rollback (with the stack's resources_to_skip) and after
  // rollback-stack on an UPDATE_FAILED stack.
  void StartRollback() {
    rolling_ = true;
    for (Res& r : res_) {
      if (!r.has_record) continue;
      const bool skip = std::find(stack_.resources_to_skip.begin(), stack_.resources_to_skip.end(),
                                  r.rec.logical_id) != stack_.resources_to_skip.end();
      switch (r.rec.update_step) {
        case UpdateStep::kAdded:  // rollback cleanup deletes it
          break;
        case UpdateStep::kReplaced:
          // Pointed back; the new physical resource is what cleanup deletes.
          std::swap(r.rec.physical_id, r.rec.old_physical_id);
          std::swap(r.rec.properties, r.rec.old_properties);
          std::swap(r.rec.attributes, r.rec.old_attributes);
          if (r.old_decl != nullptr) r.rec.type = r.old_decl->type;
          env_.SetResource(&r.rec);
          if (!SetStatus(r, ResourceStatus::kUpdateComplete, "")) return;
          if (r.rec.rollback_properties.is_null()) {
            r.rec.update_step = UpdateStep::kRestored;
            break;
          }
          r.rec.update_step = UpdateStep::kUpdated;  // an earlier failed update changed it in place too
          [[fallthrough]];
        case UpdateStep::kUpdated:
          if (skip) {
            // continue-update-rollback --resources-to-skip: AWS marks it
            // UPDATE_COMPLETE; the record says what the template says.
            Restored(r, r.rec.rollback_attributes);
            if (!SetStatus(r, ResourceStatus::kUpdateComplete, "")) return;
            break;
          }
          if (r.rec.status != ResourceStatus::kUpdateInProgress &&
              !SetStatus(r, ResourceStatus::kUpdateInProgress, "")) {
            return;
          }
          CallRollback(r);
          break;
        case UpdateStep::kNone:
          if (r.rec.type == kNestedStackType && r.rec.status == ResourceStatus::kUpdateFailed && !skip) {
            // A nested stack whose own update failed waits for this
            // rollback in UPDATE_ROLLBACK_IN_PROGRESS: the rollback hook
            // rolls it back; its properties stay as they are.
            r.rec.update_step = UpdateStep::kUpdated;
            r.rec.rollback_properties = r.rec.properties;
            r.rec.rollback_attributes = r.rec.attributes;
            if (!SetStatus(r, ResourceStatus::kUpdateInProgress, "")) return;
            CallRollback(r);
            break;
          }
          [[fallthrough]];
        case UpdateStep::kRestored:
          // A failed (or cancelled) update that changed nothing.
          if (r.rec.status == ResourceStatus::kUpdateFailed &&
              !SetStatus(r, ResourceStatus::kUpdateComplete, "")) {
            return;
          }
          break;
      }
    }
    MaybeEndRollback();
  }

  // The top-level properties an update changed, for the rollback call.
  static std::vector<std::string> ChangedKeys(const Value& before, const Value& after) {
    std::vector<std::string> out;
    if (!before.is_map() || !after.is_map()) return out;
    for (const Member& m : after.map()) {
      const Value* b = before.find(m.key);
      if (b == nullptr || !(*b == m.value)) out.push_back(m.key);
    }
    for (const Member& m : before.map()) {
      if (after.find(m.key) == nullptr) out.push_back(m.key);
    }
    return out;
  }

  void CallRollback(Res& r) {
    HookCall call = NewCall(r, Hook::kRollback);
    call.physical_id = r.rec.physical_id;
    call.properties = r.rec.rollback_properties;
    call.old_properties = r.rec.properties;
    // Seed 004: a rollback uses the UpdatePolicy of the template it goes back to.
    call.ctx.old_update_policy = std::move(call.ctx.update_policy);
    call.ctx.update_policy = OldUpdatePolicy(r);
    call.changed = ChangedKeys(r.rec.rollback_properties, r.rec.properties);
    if (Retags(r)) AddTagsChange(&call.changed);
    Dispatch(r, std::move(call), [this, &r](const HookOutcome& o) { OnRollback(r, o); });
  }

  // The record is the pre-update one again.
  void Restored(Res& r, const Value& attributes) {
    r.rec.properties = r.rec.rollback_properties;
    r.rec.attributes = attributes.is_map() ? attributes : Value::MakeMap();
    r.rec.rollback_properties = Value();
    r.rec.rollback_attributes = Value();
    r.rec.update_step = UpdateStep::kRestored;
    env_.SetResource(&r.rec);
    MarkDirty(r);
  }

  void OnRollback(Res& r, const HookOutcome& o) {
    switch (o.kind) {
      case HookOutcome::Kind::kInProgress:
        Poll(r, o, [this, &r] { CallRollback(r); });
        return;
      case HookOutcome::Kind::kDone: {
        EndCall(r);
        // A rollback answered with another physical ID (replaces_in_update)
        // went back by making a new resource: the failed update's one is
        // what rollback cleanup deletes.
        const bool replaced = IsNewPhysicalId(r, o);
        const Value current = replaced ? r.rec.properties : Value();
        Restored(r, o.attributes.is_map() && !o.attributes.map().empty() ? o.attributes : r.rec.rollback_attributes);
        if (replaced) {
          r.rec.old_physical_id = r.rec.physical_id;
          r.rec.old_properties = current;
          r.rec.old_attributes = Value::MakeMap();
          r.rec.physical_id = o.physical_id;
          env_.SetResource(&r.rec);
        }
        if (!SetStatus(r, ResourceStatus::kUpdateComplete, "")) return;
        MaybeEndRollback();
        return;
      }
      case HookOutcome::Kind::kFailed:
        EndCall(r);
        if (!SetStatus(r, ResourceStatus::kUpdateFailed, o.reason)) return;
        rollback_failed_.push_back(r.rec.logical_id);
        MaybeEndRollback();
        return;
    }
  }

  void MaybeEndRollback() {
    if (!rolling_ || outstanding_ > 0 || rollback_ended_ || !error_.ok()) return;
    rollback_ended_ = true;
    if (!rollback_failed_.empty()) {
      // continue-update-rollback resumes from here: the journal keeps what is left.
      ended_ = true;
      SetStackStatus(StackStatus::kUpdateRollbackFailed,
                     "The following resource(s) failed to update: [" + JoinNames(rollback_failed_) + "]. ");
      return;
    }
    // The stack is the previous one again.
    stack_.RestorePreviousTemplate();
    stack_.parameters = stack_.previous_parameters;
    stack_.tags = stack_.previous_tags;
    stack_dirty_ = true;
    if (!SetStackStatus(StackStatus::kUpdateRollbackCompleteCleanupInProgress, "")) return;
    if (LeaveToParent()) return;
    StartCleanup();
  }

  void Fail(const std::string& reason) {
    failing_ = true;
    pending_reason_ = reason;
    MaybeEndFailed();
  }

  void MaybeFinishUpdate() {
    if (failing_ || finished_update_ || stack_.status != StackStatus::kUpdateInProgress ||
        done_ < plan_.graph.size()) {
      return;
    }
    finished_update_ = true;
    Status s = EvaluateOutputs(*plan_.tmpl, *evaluator_);
    if (!s.ok()) {
      Fail(s.message());
      return;
    }
    stack_.imports.assign(env_.imports().begin(), env_.imports().end());
    if (!SetStackStatus(StackStatus::kUpdateCompleteCleanupInProgress, "")) return;
    if (LeaveToParent()) return;
    StartCleanup();
  }

  // --- cleanup ---------------------------------------------------------------------

  // Update cleanup: removed resources (dropped) and replaced resources' old
  // physical resources, in the reverse order of the OLD graph (the old
  // resources refer to each other as the old template said). Rollback
  // cleanup: what the update added (dropped) and the replacements it made,
  // in the reverse order of the new graph.
  void StartCleanup() {
    cleaning_ = true;
    cleanup_graph_ = rolling_ ? &plan_.graph : &old_graph_;
    for (Res& r : res_) {
      r.drop = r.has_record && (rolling_ ? r.rec.update_step == UpdateStep::kAdded : r.node < 0);
      r.cleanup = r.drop || (r.has_record && !r.rec.old_physical_id.empty());
      r.cleanup_status = r.rec.status;
      r.cleanup_waiting = 0;
      if (r.cleanup) ++cleanup_left_;
    }
    StartNestedCleanups();  // counted before any item can end the phase
    // An item waits for the cleanup items that depended on it.
    for (Res& r : res_) {
      const int node = CleanupNode(r);
      if (!r.cleanup || node < 0) continue;
      for (int d : cleanup_graph_->dependencies(node)) {
        Res* dep = ByName(cleanup_graph_->name(d));
        if (dep != nullptr && dep->cleanup) ++dep->cleanup_waiting;
      }
    }
    for (auto it = cleanup_graph_->order().rbegin(); it != cleanup_graph_->order().rend(); ++it) {
      Res* r = ByName(cleanup_graph_->name(*it));
      if (r != nullptr) TryCleanup(*r);
    }
    for (Res& r : res_) TryCleanup(r);
    MaybeEndCleanup();
  }

  // The nested stacks this operation updated or rolled back wait in their
  // own cleanup phase (LeaveToParent): each runs it now, through the nested
  // stack hooks (a read call), as AWS runs a child's cleanup in its
  // parent's. Their journal (update_step) is kept until the end of this
  // cleanup, so a restart finds them again.
  void StartNestedCleanups() {
    for (Res& r : res_) {
      if (!r.has_record || r.drop || r.rec.type != kNestedStackType || r.rec.physical_id.empty()) continue;
      if (r.rec.update_step != UpdateStep::kUpdated && r.rec.update_step != UpdateStep::kRestored) continue;
      ++cleanup_left_;
      CallNestedCleanup(r);
    }
  }

  void CallNestedCleanup(Res& r) {
    HookCall call = NewCall(r, Hook::kRead);
    call.physical_id = r.rec.physical_id;
    call.properties = r.rec.properties;
    Dispatch(r, std::move(call), [this, &r](const HookOutcome& o) {
      if (o.kind == HookOutcome::Kind::kInProgress) {  // interrupted: a restart runs it again
        Poll(r, o, [this, &r] { CallNestedCleanup(r); });
        return;
      }
      EndCall(r);
      --cleanup_left_;
      MaybeEndCleanup();
    });
  }

  int CleanupNode(const Res& r) const { return rolling_ ? r.node : r.old_node; }

  Res* ByName(const std::string& logical_id) {
    auto it = by_name_.find(logical_id);
    return it == by_name_.end() ? nullptr : &res_[it->second];
  }

  bool Replaced(const Res& r) const { return !r.drop; }

  // DeletionPolicy (removed resources) / UpdateReplacePolicy (replaced ones)
  // Retain: the old resource is left in the world (DELETE_SKIPPED).
  // Rollback cleanup: what the failed update added is kept when its
  // DeletionPolicy says Retain, and a replacement it made when its
  // UpdateReplacePolicy does; RetainExceptOnCreate does not keep them, as they
  // were created by the operation being rolled back (AWS DeletionPolicy docs:
  // "If the stack operation that created the resource is rolled back,
  // CloudFormation deletes the resource"). In update cleanup both Retain and
  // RetainExceptOnCreate keep the old resource (it was not created by this
  // update). After a restart of a rollback cleanup the failed template is no
  // longer known: everything is deleted.
  bool Retained(const Res& r) {
    if (resumed_rollback_cleanup_) return false;
    const Value* policy = nullptr;
    const Evaluator* ev = nullptr;
    if (rolling_) {
      if (r.decl == nullptr) return false;
      policy = Replaced(r) ? &r.decl->update_replace_policy : &r.decl->deletion_policy;
      ev = evaluator_.get();
    } else if (Replaced(r)) {
      if (r.decl != nullptr) policy = &r.decl->update_replace_policy;
      ev = evaluator_.get();
    } else if (r.old_decl != nullptr) {
      policy = &r.old_decl->deletion_policy;
    }
    if (policy == nullptr || policy->is_null()) return false;
    std::string value;
    if (policy->is_string()) {
      value = policy->str();
    } else {
      Value v;
      if (ev == nullptr || !ev->Evaluate(*policy, Section::kResourcePolicy, &v).ok()) return false;
      value = v.str();
    }
    return value == "Retain" || (value == "RetainExceptOnCreate" && !rolling_);
  }

  void TryCleanup(Res& r) {
    if (!r.cleanup || r.cleanup_started || r.cleanup_waiting > 0) return;
    r.cleanup_started = true;
    if (CleanupPhysicalId(r).empty()) {  // nothing was made: nothing to delete, nothing to retain
      if (!CleanupEvent(r, ResourceStatus::kDeleteComplete, "")) return;
      CleanedUp(r);
      return;
    }
    if (Retained(r)) {
      if (!CleanupEvent(r, ResourceStatus::kDeleteSkipped, "")) return;
      CleanedUp(r);
      return;
    }
    if (!CleanupEvent(r, ResourceStatus::kDeleteInProgress, "")) return;
    CallCleanupDelete(r);
  }

  // The type of the physical resource cleanup deletes.
  std::string CleanupType(const Res& r) const {
    if (!Replaced(r)) return r.rec.type;
    if (rolling_) return r.decl->type;
    return r.old_decl != nullptr ? r.old_decl->type : r.rec.type;
  }

  std::string CleanupPhysicalId(const Res& r) const {
    return Replaced(r) ? r.rec.old_physical_id : r.rec.physical_id;
  }

  void CallCleanupDelete(Res& r) {
    HookCall call = NewCall(r, Hook::kDelete);
    call.type = CleanupType(r);
    call.physical_id = CleanupPhysicalId(r);
    call.properties = Replaced(r) ? r.rec.old_properties : r.rec.properties;
    Dispatch(r, std::move(call), [this, &r](const HookOutcome& o) { OnCleanupDelete(r, o); });
  }

  void OnCleanupDelete(Res& r, const HookOutcome& o) {
    switch (o.kind) {
      case HookOutcome::Kind::kInProgress:
        Poll(r, o, [this, &r] { CallCleanupDelete(r); });
        return;
      case HookOutcome::Kind::kDone:
        EndCall(r);
        if (!CleanupEvent(r, ResourceStatus::kDeleteComplete, "")) return;
        CleanedUp(r);
        return;
      case HookOutcome::Kind::kFailed: {
        EndCall(r);
        if (!CleanupEvent(r, ResourceStatus::kDeleteFailed, o.reason)) return;
        if (++r.tries < kCleanupTries) {
          // Tried again later (run 37); the wait keeps the phase open.
          const double wait = kRetryBaseSeconds * static_cast<double>(1 << (r.tries - 1));
          Wait(r, wait, [this, &r] {
            if (!CleanupEvent(r, ResourceStatus::kDeleteInProgress, "")) return;
            CallCleanupDelete(r);
          });
          return;
        }
        // Given up: disassociated from the stack; the update still succeeds.
        cleanup_failed_ = true;
        CleanedUp(r);
        return;
      }
    }
  }

  // The old resource is gone (or disassociated): a removed resource's record
  // goes, a replaced one's forgets its old physical resource.
  void CleanedUp(Res& r) {
    r.cleanup_done = true;
    --cleanup_left_;
    if (Replaced(r)) {
      r.rec.old_physical_id.clear();
      r.rec.old_properties = Value();
      r.rec.old_attributes = Value();
      MarkDirty(r);
    } else {
      env_.ClearResource(r.rec.logical_id);
      r.has_record = false;
      ForgetDirty(r);
      batch_.removed_resources.emplace_back(stack_.id, r.rec.logical_id);
    }
    if (CleanupNode(r) >= 0) {
      for (int d : cleanup_graph_->dependencies(CleanupNode(r))) {
        Res* dep = ByName(cleanup_graph_->name(d));
        if (dep != nullptr && dep->cleanup && --dep->cleanup_waiting == 0) TryCleanup(*dep);
      }
    }
    MaybeEndCleanup();
  }

  void MaybeEndCleanup() {
    if (!cleaning_ || cleanup_left_ > 0 || outstanding_ > 0 || ended_) return;
    ended_ = true;
    // The update is over either way: nothing is left to roll back.
    for (Res& r : res_) {
      if (!r.has_record || r.rec.update_step == UpdateStep::kNone) continue;
      r.rec.update_step = UpdateStep::kNone;
      r.rec.rollback_properties = Value();
      r.rec.rollback_attributes = Value();
      MarkDirty(r);
    }
    stack_.resources_to_skip.clear();
    // Seed 000 run 38: the rollback's cleanup gives up with the same reason.
    SetStackStatus(rolling_ ? StackStatus::kUpdateRollbackComplete : StackStatus::kUpdateComplete,
                   cleanup_failed_ ? kCleanupFailed : "");
  }

  // A cleanup event: it follows the old resource's own lifecycle and leaves
  // the record's status as it is (seed 000 runs 4-7).
  bool CleanupEvent(Res& r, ResourceStatus to, const std::string& reason) {
    Status s = CheckResourceTransition(r.cleanup_status, to);
    if (!s.ok()) {
      Abort(Status::Internal(s.message() + " (" + r.rec.logical_id + ", cleanup)"));
      return false;
    }
    r.cleanup_status = to;
    StackEvent e = NewEvent();
    e.logical_id = r.rec.logical_id;
    e.physical_id = CleanupPhysicalId(r);
    e.type = CleanupType(r);
    e.status = ResourceStatusName(to);
    e.reason = reason;
    Record(std::move(e));
    return true;
  }

  // --- calls ---------------------------------------------------------------------------

  HookCall NewCall(const Res& r, Hook hook) {
    HookCall call;
    call.hook = hook;
    call.type = r.decl != nullptr ? r.decl->type : r.rec.type;
    call.ctx = ContextOf(r);
    call.ctx.progress = r.rec.progress;
    // An update re-tags from the previous stack tags to the new ones; its
    // rollback the other way round.
    if (hook == Hook::kUpdate) {
      call.ctx.old_stack_tags = TagList(stack_.previous_tags);
    } else if (hook == Hook::kRollback) {
      call.ctx.stack_tags = StackTagsValue(stack_.previous_tags);
      call.ctx.old_stack_tags = TagList(stack_.tags);
    }
    return call;
  }

  bool DropCancelled(TrackedResource& t, const HookCall& call) override {
    Res& r = static_cast<Res&>(t);
    if (!r.rec.progress.is_null()) return false;
    if (call.hook != Hook::kUpdate && !(call.hook == Hook::kCreate && r.rec.physical_id.empty())) return false;
    // Cancelled before its first call went out: nothing was made or changed.
    EndCall(r);
    if (r.replacing) RestoreOld(r);
    return true;
  }

  void Settle() override { MaybeEndFailed(); }

  Plan plan_;
  std::unique_ptr<Evaluator> evaluator_;  // the new template's
  std::shared_ptr<const Template> old_tmpl_;
  ParameterValues old_params_;
  DependencyGraph old_graph_;
  std::vector<Res> res_;  // sized once in Load: pointers into it stay valid
  std::unordered_map<std::string, int> by_name_;
  size_t done_ = 0;  // resources of the new graph done
  bool failing_ = false, finished_update_ = false, update_ended_ = false, ended_ = false;
  bool cancel_requested_ = false;  // cancel-update-stack
  bool rolling_ = false, rollback_ended_ = false, resumed_rollback_cleanup_ = false;
  std::vector<std::string> rollback_failed_;
  const DependencyGraph* cleanup_graph_ = nullptr;
  bool cleaning_ = false, cleanup_failed_ = false;
  int cleanup_left_ = 0;
  std::vector<std::string> failed_create_, failed_update_;
  std::string pending_reason_;
};

}  // namespace

bool IsUpdateOperationStatus(StackStatus s) {
  return s == StackStatus::kUpdateInProgress || s == StackStatus::kUpdateCompleteCleanupInProgress ||
         s == StackStatus::kUpdateRollbackInProgress || s == StackStatus::kUpdateRollbackCompleteCleanupInProgress;
}

Status RunUpdateOperation(const OperationContext& ctx, const std::string& stack_id) {
  UpdateOp op(ctx);
  return op.Run(stack_id);
}

}  // namespace ms
