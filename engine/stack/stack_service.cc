#include "stack/stack_service.h"

#include "stack/secure_reference_places.h"

#include <algorithm>
#include <random>

#include "eval/evaluator.h"
#include "base/constraint_errors.h"
#include "base/strings.h"
#include "eval/validate.h"
#include "plan/plan_handoff.h"
#include "plan/planner.h"
#include "plan/policy_checks.h"
#include "policy/stack_policy.h"
#include "records/stack_name.h"
#include "stack/include_transform.h"
#include "stack/nested_stacks.h"
#include "stack/op_common.h"
#include "stack/request_limits.h"
#include "stack/resource_metadata.h"
#include "stack/secure_reference_places.h"
#include "stack/stack_outputs.h"
#include "store/deleted_stacks.h"
#include "store/stack_tables.h"
#include "template/template_cache.h"

namespace ms {

namespace {

// What the synchronous checks see of the world: the SSM parameter store,
// through a provider session opened only when a parameter needs it.
class RequestEnvironment : public EvalEnvironment {
 public:
  RequestEnvironment(const OperationContext& ctx) : ctx_(ctx) {}
  bool SsmParameter(std::string_view name, std::string* value) const override {
    if (session_ == nullptr) {
      if (ctx_.providers == nullptr || !ctx_.providers->NewSession(&session_).ok()) return false;
    }
    return session_->SsmParameter(name, ctx_.region, ctx_.account_id, value);
  }

 private:
  const OperationContext& ctx_;
  mutable std::unique_ptr<ProviderSession> session_;
};

// NotificationARNs: at most 5 (the service model's max), as AWS's front end
// words a list too long ("Value '[a, b, ...]' at 'notificationARNs' ...").
Status CheckNotificationArns(const std::vector<std::string>& arns) {
  if (arns.size() <= 5) return Status::OK();
  ConstraintErrors errors;
  errors.Add("[" + Join(arns, ", ") + "]", "notificationARNs", MaxLengthConstraint(5));
  return errors.ToStatus();
}

// A template with a Transform (AWS::LanguageExtensions, AWS::Include) is processed before
// it is created from: CreateStack and UpdateStack require the caller to
// acknowledge that with CAPABILITY_AUTO_EXPAND (AWS's
// InsufficientCapabilitiesException), a nested stack its parent's
// capabilities; a change set, reviewed before it runs, does not ask.
// `included`: the template used AWS::Include, now expanded in `body`.
Status CheckAutoExpand(const std::string& body, bool included, const std::vector<std::string>& capabilities) {
  std::shared_ptr<const Template> tmpl;
  MS_RETURN_IF_ERROR(CachedTemplate(body, &tmpl));  // the same parse CheckTemplate finds in the cache
  if (!included && tmpl->transforms.empty()) return Status::OK();
  if (std::find(capabilities.begin(), capabilities.end(), "CAPABILITY_AUTO_EXPAND") != capabilities.end()) {
    return Status::OK();
  }
  return Status::InsufficientCapabilities("Requires capabilities : [CAPABILITY_AUTO_EXPAND]");
}

}  // namespace

Status CheckTemplate(const OperationContext& ctx, const std::string& body, const std::vector<ParameterInput>& params,
                     const std::map<std::string, std::string>& previous, const std::vector<std::string>& capabilities,
                     const PseudoParameters& pseudo, CheckedTemplate* out) {
  MS_RETURN_IF_ERROR(CachedTemplate(body, &out->tmpl));
  MS_RETURN_IF_ERROR(ValidateLoadedTemplate(*out->tmpl, &out->summary, ctx.providers, &out->graph));
  MS_RETURN_IF_ERROR(CheckSecureReferencePlaces(*out->tmpl));
  MS_RETURN_IF_ERROR(ResolveParameters(*out->tmpl, params, previous, &out->values));
  MS_RETURN_IF_ERROR(CheckCapabilities(*out->tmpl, capabilities));
  RequestEnvironment env(ctx);
  // SSM parameter types resolve now: a missing one refuses the request, and
  // Rules (CDK's CheckBootstrapVersion) see the values.
  MS_RETURN_IF_ERROR(ResolveSsmParameters(env, &out->values));
  Evaluator ev(*out->tmpl, out->values, pseudo, env);
  MS_RETURN_IF_ERROR(ev.EvaluateConditions());
  MS_RETURN_IF_ERROR(ev.CheckRules());
  MS_RETURN_IF_ERROR(EvaluateWithParameters(ev));
  return CheckEvaluatedPolicies(ev);
}

std::string NewStackId(const std::string& region, const std::string& account, const std::string& name) {
  return "arn:aws:cloudformation:" + region + ":" + account + ":stack/" + name + "/" + NewUuid();
}

Status StackService::StartCreate(const CreateStackInput& in, std::string* stack_id, std::string* operation_id) {
  MS_RETURN_IF_ERROR(CheckStackName(in.stack_name));
  MS_RETURN_IF_ERROR(CheckStackTags(in.tags));
  MS_RETURN_IF_ERROR(CheckNotificationArns(in.notification_arns));
  if (in.disable_rollback && !in.on_failure.empty()) {
    return Status::Validation("You cannot specify both DisableRollback and OnFailure.");
  }
  if (!in.on_failure.empty() && in.on_failure != "ROLLBACK" && in.on_failure != "DELETE" &&
      in.on_failure != "DO_NOTHING") {
    return Status::Validation("1 validation error detected: Value '" + in.on_failure +
                              "' at 'onFailure' failed to satisfy constraint: Member must satisfy enum value "
                              "set: [ROLLBACK, DELETE, DO_NOTHING]");
  }
  if (in.timeout_in_minutes && *in.timeout_in_minutes < 1) {
    ConstraintErrors errors;
    errors.Add(std::to_string(*in.timeout_in_minutes), "timeoutInMinutes", MinValueConstraint(1));
    return errors.ToStatus();
  }
  MS_RETURN_IF_ERROR(CheckStackPolicyInput(in.stack_policy_body, in.stack_policy_url, "StackPolicy"));
  StackRecord existing;
  bool found = false;
  MS_RETURN_IF_ERROR(FindActiveStack(ctx_.db, ctx_.scope(), in.stack_name, &existing, &found));
  if (found) return Status::AlreadyExists("Stack [" + in.stack_name + "] already exists");

  PseudoParameters pseudo;
  pseudo.region = ctx_.region;
  pseudo.account_id = ctx_.account_id;
  pseudo.stack_name = in.stack_name;
  std::string body = in.template_body;  // AWS::Include's snippets inserted: what the stack keeps
  bool included = false;
  MS_RETURN_IF_ERROR(ExpandIncludes(ctx_, &body, &included));
  MS_RETURN_IF_ERROR(CheckAutoExpand(body, included, in.capabilities));  // a nested stack: its parent's
  // Parsed once through the cache: the stack's first update finds it there.
  CheckedTemplate checked;
  MS_RETURN_IF_ERROR(CheckTemplate(ctx_, body, in.parameters, {}, in.capabilities, pseudo, &checked));
  const TemplateSummary& summary = checked.summary;
  const ParameterValues& values = checked.values;

  StackRecord s;
  s.id = NewStackId(ctx_.region, ctx_.account_id, in.stack_name);
  s.name = in.stack_name;
  s.description = summary.description.value_or("");
  s.BeginOperationFor(std::nullopt, StackStatus::kCreateInProgress, NewUuid());
  s.status = StackStatus::kCreateInProgress;
  RecordProviderSource(ctx_, &s);
  s.created_ms = ctx_.clock->NowMs();
  s.template_body = body;
  if (included) s.original_template_body = in.template_body;
  for (const ResolvedParameter& p : values.list) {
    s.parameters.push_back({p.name, p.text, p.no_echo, p.ssm_resolved.value_or("")});
  }
  s.capabilities = in.capabilities;
  s.tags = in.tags;
  s.on_failure = in.disable_rollback ? "DO_NOTHING" : in.on_failure.empty() ? "ROLLBACK" : in.on_failure;
  s.termination_protection = in.enable_termination_protection;
  s.timeout_in_minutes = in.timeout_in_minutes.value_or(0);
  s.client_request_token = in.client_request_token;
  s.role_arn = in.role_arn;
  s.notification_arns = in.notification_arns;
  s.stack_policy_body = in.stack_policy_body;
  s.parent_id = in.parent_id;
  s.root_id = in.root_id;
  MS_RETURN_IF_ERROR(CheckStackTransition(std::nullopt, s.status));

  StoreBatch batch;
  batch.stacks.push_back(s);
  batch.events.push_back(StackStatusEvent(s, s.created_ms, "User Initiated"));
  if (ctx_.observer != nullptr) ctx_.observer->OnEvent(batch.events.back());
  MS_RETURN_IF_ERROR(CommitBatch(ctx_.db, ctx_.world, &batch));
  *stack_id = s.id;
  if (operation_id != nullptr) *operation_id = s.operation_id;
  return Status::OK();
}

Status StackService::StartUpdate(const UpdateStackInput& in, std::string* stack_id, std::string* operation_id) {
  MS_RETURN_IF_ERROR(CheckStackNameOrId(in.stack_name));
  if (in.tags) MS_RETURN_IF_ERROR(CheckStackTags(*in.tags));
  if (in.notification_arns) MS_RETURN_IF_ERROR(CheckNotificationArns(*in.notification_arns));
  StackRecord s;
  bool found = false;
  MS_RETURN_IF_ERROR(FindStackInScope(ctx_.db, ctx_.scope(), in.stack_name, &s, &found));
  if (!found) return Status::Validation("Stack [" + in.stack_name + "] does not exist");
  // Seed 000 run 3: every other state refuses, with the stack ID.
  if (!IsUpdatable(s.status)) {
    return Status::Validation("Stack:" + s.id + " is in " + StackStatusName(s.status) +
                              " state and can not be updated.");
  }
  if (in.use_previous_template && !in.template_body.empty()) {
    return Status::Validation("You cannot specify both usePreviousTemplate and Template Body/Template URL");
  }
  MS_RETURN_IF_ERROR(CheckStackPolicyInput(in.stack_policy_body, in.stack_policy_url, "StackPolicy"));
  MS_RETURN_IF_ERROR(CheckStackPolicyInput(in.stack_policy_during_update_body, in.stack_policy_during_update_url,
                                           "StackPolicyDuringUpdate"));
  // The template as submitted (UsePreviousTemplate: the stack's, processed
  // again, as AWS does), kept beside the processed one when AWS::Include
  // changed it. A change set's was processed when it was made.
  std::string body = in.use_previous_template ? s.submitted_template_body() : in.template_body;
  std::string original = in.original_template_body;
  bool included = !original.empty();
  if (in.change_set_id.empty()) {
    std::string submitted = body;
    MS_RETURN_IF_ERROR(ExpandIncludes(ctx_, &body, &included));
    if (included) original = std::move(submitted);
  }

  std::map<std::string, std::string> previous;
  for (const StackParameterValue& p : s.parameters) previous[p.key] = p.value;
  PseudoParameters pseudo;
  pseudo.region = ctx_.region;
  pseudo.account_id = ctx_.account_id;
  pseudo.stack_name = s.name;
  pseudo.stack_id = s.id;
  if (in.change_set_id.empty()) MS_RETURN_IF_ERROR(CheckAutoExpand(body, included, in.capabilities));
  CheckedTemplate checked;  // an unchanged template is not parsed again
  MS_RETURN_IF_ERROR(CheckTemplate(ctx_, body, in.parameters, previous, in.capabilities, pseudo, &checked));
  const std::shared_ptr<const Template>& tmpl = checked.tmpl;
  const TemplateSummary& summary = checked.summary;

  std::vector<ResourceRecord> resources;
  MS_RETURN_IF_ERROR(LoadResources(ctx_.db, s.id, &resources));
  std::unique_ptr<ProviderSession> session;
  MS_RETURN_IF_ERROR(ctx_.providers->NewSession(&session));
  PlanInput pin;
  pin.stack = &s;
  pin.resources = &resources;
  pin.template_body = body;
  pin.parameters = in.parameters;
  pin.new_template = tmpl;
  pin.new_graph = &checked.graph;
  pin.pseudo = pseudo;
  pin.runtime = ctx_.providers;
  pin.session = session.get();
  pin.exports = [this](const std::string& name, std::string* value) {
    return ExportValue(ctx_.db, ctx_.scope(), name, value);
  };
  pin.stack_outputs = StoreStackOutputs(ctx_.db, ctx_.scope());
  pin.ssm = [&session, this](std::string_view name, std::string* value) {
    return session->SsmParameter(name, ctx_.region, ctx_.account_id, value);
  };
  pin.now_ms = ctx_.clock->NowMs();
  pin.new_stack_tags = in.tags ? &*in.tags : nullptr;
  pin.stack_policy_body =
      in.stack_policy_during_update_body.empty() ? s.stack_policy_body : in.stack_policy_during_update_body;
  auto plan = std::make_unique<Plan>();
  MS_RETURN_IF_ERROR(MakePlan(pin, plan.get()));
  // New stack tags are an update of their own, taggable resources or not.
  const bool tags_change = in.tags && !SameStackTags(*in.tags, s.tags);
  if (plan->empty() && !tags_change) return Status::Validation("No updates are to be performed.");
  // Seed 003: a violation the plan already shows refuses the update.
  MS_RETURN_IF_ERROR(CheckUpdateRestrictions(*plan));

  // From UPDATE_FAILED the failed update's journal stays on the records and
  // the previous template stays the last stable one: a rollback of this
  // update goes back to where the failed one started.
  if (s.status != StackStatus::kUpdateFailed) {
    s.previous_template_body = s.template_body;
    s.previous_original_template_body = s.original_template_body;
    s.previous_parameters = s.parameters;
    s.previous_tags = s.tags;
  }
  if (in.tags) s.tags = *in.tags;
  s.template_body = body;
  s.original_template_body = std::move(original);
  s.description = summary.description.value_or("");
  s.parameters.clear();
  for (const ResolvedParameter& p : plan->parameters.list) {
    s.parameters.push_back({p.name, p.text, p.no_echo, p.ssm_resolved.value_or("")});
  }
  s.capabilities = in.capabilities;
  // --disable-rollback is per operation (update-stack's own flag).
  s.on_failure = in.disable_rollback ? "DO_NOTHING" : "ROLLBACK";
  s.client_request_token = in.client_request_token;  // this operation's (events carry it; none: empty)
  if (!in.role_arn.empty()) s.role_arn = in.role_arn;
  if (in.notification_arns) s.notification_arns = *in.notification_arns;
  s.change_set_id = in.change_set_id;
  // The executor re-plans from the record: it finds the policy this update
  // is checked against here — the temporary one, or the one a new
  // --stack-policy-body replaces (allow-all when the stack had none).
  std::string checked_policy = in.stack_policy_during_update_body;
  if (checked_policy.empty() && !in.stack_policy_body.empty()) {
    checked_policy = s.stack_policy_body.empty()
                  ? R"({"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]})"
                  : s.stack_policy_body;
  }
  if (!in.stack_policy_body.empty()) s.stack_policy_body = in.stack_policy_body;
  s.stack_policy_during_update_body = checked_policy;
  MS_RETURN_IF_ERROR(CheckStackTransition(s.status, StackStatus::kUpdateInProgress));
  s.BeginOperationFor(s.status, StackStatus::kUpdateInProgress, NewUuid());
  s.status = StackStatus::kUpdateInProgress;
  RecordProviderSource(ctx_, &s);
  s.reason = "User Initiated";
  s.updated_ms = ctx_.clock->NowMs();
  StoreBatch batch;
  batch.stacks.push_back(s);
  batch.events.push_back(StackStatusEvent(s, s.updated_ms, "User Initiated"));
  if (ctx_.observer != nullptr) ctx_.observer->OnEvent(batch.events.back());
  MS_RETURN_IF_ERROR(CommitBatch(ctx_.db, ctx_.world, &batch));
  // The executor takes this plan instead of making it again (plan_handoff.h).
  OfferPlan(s.id, s.updated_ms, std::move(plan));
  *stack_id = s.id;
  if (operation_id != nullptr) *operation_id = s.operation_id;
  return Status::OK();
}

Status StackService::StartDelete(const DeleteStackInput& in, std::string* stack_id) {
  stack_id->clear();
  StackRecord s;
  Status found = FindStack(in.stack_name, &s);
  if (found.code() == Status::Code::kNotFound) return Status::OK();  // AWS: nothing to delete is fine
  MS_RETURN_IF_ERROR(found);
  if (s.status == StackStatus::kDeleteComplete) return Status::OK();
  if (s.termination_protection) {
    return Status::Validation("Stack [" + s.name + "] cannot be deleted while TerminationProtection is enabled");
  }
  if (!in.retain_resources.empty() && s.status != StackStatus::kDeleteFailed) {
    return Status::Validation("Invalid operation on stack [" + s.id + "]: RetainResources can only be specified "
                              "when the stack is in the DELETE_FAILED state");
  }
  if (s.status == StackStatus::kDeleteInProgress) return Status::OK();  // already being deleted
  if (s.status == StackStatus::kCreateInProgress && ctx_.cancels != nullptr) {
    // The create running in this process is cancelled and rolled back,
    // then the stack deleted (operation.h).
    ctx_.cancels->RequestDelete(s.id);
    return Status::OK();
  }
  if (IsInProgress(s.status)) {
    return Status::Validation("Stack [" + s.id + "] cannot be deleted while in status " +
                              StackStatusName(s.status));
  }
  s.retain_resources = in.retain_resources;
  MS_RETURN_IF_ERROR(StartStackOperation(&s, StackStatus::kDeleteInProgress, in.client_request_token));
  *stack_id = s.id;
  return Status::OK();
}

Status StackService::SetStackPolicy(const std::string& name_or_id, const std::string& body, const std::string& url) {
  if (body.empty() && url.empty()) {
    return Status::Validation("Either StackPolicyBody or StackPolicyURL must be specified.");
  }
  MS_RETURN_IF_ERROR(CheckStackPolicyInput(body, url, "StackPolicy"));
  StackRecord s;
  MS_RETURN_IF_ERROR(FindStack(name_or_id, &s));
  if (IsInProgress(s.status)) {
    return Status::Validation("moonstack cannot change the stack policy while an operation is in progress on stack [" +
                              s.name + "]");
  }
  s.stack_policy_body = body;
  StoreBatch batch;
  batch.stacks.push_back(s);
  return CommitBatch(ctx_.db, nullptr, &batch);
}

Status StackService::GetStackPolicy(const std::string& name_or_id, std::string* body) {
  StackRecord s;
  MS_RETURN_IF_ERROR(FindStack(name_or_id, &s));
  const bool during = s.status == StackStatus::kUpdateInProgress && !s.stack_policy_during_update_body.empty();
  *body = during ? s.stack_policy_during_update_body : s.stack_policy_body;
  return Status::OK();
}

namespace {

// AWS's refusal of an action the stack's status does not allow.
Status NotFromCurrentStatus(const std::string& action) {
  return Status::Validation(action + " cannot be called from current stack status");
}

// Whether continue-update-rollback may skip `path` in stack `stack_id`: a
// resource in UPDATE_FAILED because its rollback failed (AWS: "You can
// specify only resources that are in the UPDATE_FAILED state because a
// rollback failed"; a nested stack resource only once its stack is being
// or was deleted), or, as AWS takes a nested stack's resource,
// `Child.Resource` (any depth): Resource skippable in the nested stack of
// Child, whose own rollback failed.
Status Skippable(Database* db, const std::string& stack_id, const std::string& path, bool* ok) {
  *ok = false;
  const size_t dot = path.find('.');
  const std::string head = path.substr(0, dot);
  std::vector<ResourceRecord> resources;
  MS_RETURN_IF_ERROR(LoadResources(db, stack_id, &resources));
  auto it = std::find_if(resources.begin(), resources.end(),
                         [&](const ResourceRecord& r) { return r.logical_id == head; });
  if (it == resources.end() || it->status != ResourceStatus::kUpdateFailed || it->update_step != UpdateStep::kUpdated) {
    return Status::OK();
  }
  if (it->type == kNestedStackType && dot == std::string::npos) {
    // AWS: a stack resource may be skipped only when "its corresponding
    // embedded stack" is in DELETE_IN_PROGRESS, DELETE_COMPLETE or DELETE_FAILED.
    StackRecord child;
    bool found = false;
    MS_RETURN_IF_ERROR(LoadStack(db, it->physical_id, &child, &found));
    *ok = !found || child.status == StackStatus::kDeleteInProgress || child.status == StackStatus::kDeleteComplete ||
          child.status == StackStatus::kDeleteFailed;
    return Status::OK();
  }
  if (dot == std::string::npos) {
    *ok = true;
    return Status::OK();
  }
  if (it->type != kNestedStackType || it->physical_id.empty()) return Status::OK();
  return Skippable(db, it->physical_id, path.substr(dot + 1), ok);
}

}  // namespace

// Saves the stack in `to` with its "User Initiated" event.
Status StackService::StartStackOperation(StackRecord* s, StackStatus to, const std::string& token) {
  s->client_request_token = token;  // this operation's (events carry it; none: empty)
  return CommitStackStatus(ctx_, s, to, "User Initiated");
}

Status StackService::StartContinueUpdateRollback(const ContinueUpdateRollbackInput& in, std::string* stack_id) {
  StackRecord s;
  Status found = FindStack(in.stack_name, &s);
  if (found.code() == Status::Code::kNotFound) return Status::Validation("Stack [" + in.stack_name + "] does not exist");
  MS_RETURN_IF_ERROR(found);
  if (s.status != StackStatus::kUpdateRollbackFailed) return NotFromCurrentStatus("ContinueUpdateRollback");
  if (!in.resources_to_skip.empty()) {
    for (const std::string& skip : in.resources_to_skip) {
      bool ok = false;
      MS_RETURN_IF_ERROR(Skippable(ctx_.db, s.id, skip, &ok));
      if (!ok) {
        return Status::Validation("Invalid ResourcesToSkip [" + skip + "]: only resources in the UPDATE_FAILED "
                                  "state because their rollback failed can be skipped");
      }
    }
  }
  s.resources_to_skip = in.resources_to_skip;
  MS_RETURN_IF_ERROR(StartStackOperation(&s, StackStatus::kUpdateRollbackInProgress, in.client_request_token));
  *stack_id = s.id;
  return Status::OK();
}

Status StackService::StartRollbackStack(const RollbackStackInput& in, std::string* stack_id) {
  StackRecord s;
  Status found = FindStack(in.stack_name, &s);
  if (found.code() == Status::Code::kNotFound) return Status::Validation("Stack [" + in.stack_name + "] does not exist");
  MS_RETURN_IF_ERROR(found);
  StackStatus to;
  if (s.status == StackStatus::kUpdateFailed) {
    to = StackStatus::kUpdateRollbackInProgress;
  } else if (s.status == StackStatus::kCreateFailed) {
    to = StackStatus::kRollbackInProgress;
  } else {
    return NotFromCurrentStatus("RollbackStack");
  }
  MS_RETURN_IF_ERROR(StartStackOperation(&s, to, in.client_request_token));
  *stack_id = s.id;
  return Status::OK();
}

Status StackService::CancelUpdate(const CancelUpdateStackInput& in) {
  StackRecord s;
  Status found = FindStack(in.stack_name, &s);
  if (found.code() == Status::Code::kNotFound) return Status::Validation("Stack [" + in.stack_name + "] does not exist");
  MS_RETURN_IF_ERROR(found);
  if (s.status != StackStatus::kUpdateInProgress) return NotFromCurrentStatus("CancelUpdateStack");
  if (ctx_.cancels == nullptr) {
    return Status::Validation("moonstack: the update of stack [" + s.name +
                              "] runs in another moonstack process; cancel-update-stack reaches updates run by "
                              "`moonstack serve` (or a scenario's cancel_update())");
  }
  ctx_.cancels->Request(s.id);
  return Status::OK();
}

Status StackService::ListStacksOfEveryRegion(std::vector<StackRecord>* out) {
  return LoadStacks(ctx_.db, out);
}

Status StackService::Recover(std::vector<std::string>* recovered) {
  std::vector<StackRecord> stacks;
  MS_RETURN_IF_ERROR(LoadStacks(ctx_.db, &stacks));  // every region's: each runs in its own (RunOperation)
  for (const StackRecord& s : stacks) {
    // A nested stack's operation is its parent's resource step: the
    // parent's resumed operation resumes it (stack/nested_stacks.h).
    if (!IsInProgress(s.status) || !s.parent_id.empty()) continue;
    MS_RETURN_IF_ERROR(Run(s.id));
    if (recovered != nullptr) recovered->push_back(s.id);
  }
  return Status::OK();
}

Status StackService::FindStack(const std::string& name_or_id, StackRecord* out, StackRowParts parts) {
  MS_RETURN_IF_ERROR(CheckStackNameOrId(name_or_id));
  bool found = false;
  MS_RETURN_IF_ERROR(FindStackInScope(ctx_.db, ctx_.scope(), name_or_id, out, &found, parts));
  // A stack deleted more than 90 days ago is gone, pruned or not yet (store/deleted_stacks.h).
  if (!found || DeletedStackExpired(*out, ctx_.clock->NowMs())) {
    return Status::NotFound("Stack with id " + name_or_id + " does not exist");
  }
  return Status::OK();
}

Status StackService::ListStacks(std::vector<StackRecord>* out, StackRowParts parts) {
  MS_RETURN_IF_ERROR(LoadStacks(ctx_.db, ctx_.scope(), out, parts));
  const int64_t now = ctx_.clock->NowMs();
  auto expired = [now](const StackRecord& s) { return DeletedStackExpired(s, now); };
  out->erase(std::remove_if(out->begin(), out->end(), expired), out->end());
  return Status::OK();
}

Status StackService::Resources(const std::string& stack_id, std::vector<ResourceRecord>* out) {
  return LoadResources(ctx_.db, stack_id, out);
}

std::string StackService::ResourceMetadata(const StackRecord& stack, const std::vector<ResourceRecord>& resources,
                                           const std::string& logical_id) {
  return ResourceMetadataJson(ctx_.db, stack, resources, logical_id);
}

namespace {

void DropValidationErrors(std::vector<StackEvent>* events) {
  events->erase(std::remove_if(events->begin(), events->end(),
                               [](const StackEvent& e) { return e.is_validation_error(); }),
                events->end());
}

}  // namespace

Status StackService::Events(const std::string& stack_id, std::vector<StackEvent>* out) {
  MS_RETURN_IF_ERROR(LoadEvents(ctx_.db, stack_id, out));
  DropValidationErrors(out);
  return Status::OK();
}

Status StackService::OperationEvents(const std::string& stack_id, std::vector<StackEvent>* out) {
  return LoadEvents(ctx_.db, stack_id, out);
}

Status StackService::ResourcePage(const std::string& stack_id, const PageRequest& page,
                                  std::vector<ResourceRecord>* out, PageResult* result) {
  return LoadResourcePage(ctx_.db, stack_id, page, out, result);
}

Status StackService::EventPage(const std::string& stack_id, const PageRequest& page, std::vector<StackEvent>* out,
                               PageResult* result) {
  MS_RETURN_IF_ERROR(LoadEventPage(ctx_.db, stack_id, page, out, result));
  DropValidationErrors(out);  // a page may come out shorter: its NextToken still goes on
  return Status::OK();
}

}  // namespace ms
