#include "stack/change_sets.h"

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <unordered_map>

#include "eval/evaluator.h"
#include "eval/validate.h"
#include "plan/planner.h"
#include "plan/property_diff.h"
#include "template/template_cache.h"
#include "records/stack_name.h"
#include "stack/import_operation.h"
#include "stack/include_transform.h"
#include "stack/nested_stacks.h"
#include "stack/op_common.h"
#include "stack/request_limits.h"
#include "stack/stack_outputs.h"
#include "stack/template_url.h"
#include "store/stack_tables.h"

namespace ms {
namespace {

bool IsArn(const std::string& s) { return s.rfind("arn:", 0) == 0; }

Status LoadStackByNameOrId(Database* db, const StackScope& scope, const std::string& name_or_id, StackRecord* out,
                           bool* found) {
  MS_RETURN_IF_ERROR(FindStackInScope(db, scope, name_or_id, out, found));
  if (*found && out->status == StackStatus::kDeleteComplete) *found = false;
  return Status::OK();
}

// "ChangeSet [X] cannot be executed in its current status of [FAILED]"
// (AWS, recorded: test_changesets.snapshot.json, test_empty_changeset).
Status NotExecutable(const ChangeSetRecord& cs) {
  const std::string status = cs.status != "CREATE_COMPLETE" ? cs.status : cs.execution_status;
  return Status::InvalidChangeSetStatus("ChangeSet [" + cs.id + "] cannot be executed in its current status of [" +
                                        status + "]");
}

}  // namespace

Status PlanChangeSet(const OperationContext& ctx, const ChangeSetPlanInput& in, ChangeSetPlan* out) {
  MS_RETURN_IF_ERROR(CheckStackNameOrId(in.stack_name));
  StackRecord stack;
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStackByNameOrId(ctx.db, ctx.scope(), in.stack_name, &stack, &found));
  // An import makes a new stack (AWS: "creates a new stack from your
  // existing resources") or changes a deployed one.
  const bool create =
      in.type == "CREATE" || (in.type == "IMPORT" && (!found || stack.status == StackStatus::kReviewInProgress));
  if (create) {
    // A stack in review may get more CREATE change sets (AWS, recorded:
    // test_changesets.snapshot.json, test_multiple_create_changeset).
    if (found && stack.status != StackStatus::kReviewInProgress) {
      // AWS's message (corpus AWS_ERROR_MESSAGES.md, test_name_conflicts).
      return Status::Validation("Stack [" + in.stack_name + "] already exists and cannot be created again with the "
                                "changeSet [" + in.change_set_name + "].");
    }
    if (in.use_previous_template) {
      return Status::Validation("You cannot specify both usePreviousTemplate and Template Body/Template URL");
    }
    if (!found) {
      MS_RETURN_IF_ERROR(CheckStackName(in.stack_name));
      stack = StackRecord();
      stack.id = NewStackId(ctx.region, ctx.account_id, in.stack_name);
      stack.name = in.stack_name;
      stack.status = StackStatus::kReviewInProgress;
      out->new_stack = true;
    }
  } else {
    // The same refusals as update-stack (StackService::StartUpdate).
    if (!found) return Status::Validation("Stack [" + in.stack_name + "] does not exist");
    if (!IsUpdatable(stack.status)) {
      return Status::Validation("Stack:" + stack.id + " is in " + StackStatusName(stack.status) +
                                " state and can not be updated.");
    }
    if (in.use_previous_template && !in.template_body.empty()) {
      return Status::Validation("You cannot specify both usePreviousTemplate and Template Body/Template URL");
    }
  }
  // The template as submitted (UsePreviousTemplate: the stack's, processed again).
  const std::string submitted = in.use_previous_template ? stack.submitted_template_body() : in.template_body;
  std::string body = submitted;
  bool included = false;  // AWS::Include's snippets inserted
  MS_RETURN_IF_ERROR(ExpandIncludes(ctx, &body, &included));
  if (body.empty()) return Status::Validation("Either Template URL or Template Body must be specified.");

  std::map<std::string, std::string> previous;
  if (!create) {
    for (const StackParameterValue& p : stack.parameters) previous[p.key] = p.value;
  }
  PseudoParameters pseudo;
  pseudo.region = ctx.region;
  pseudo.account_id = ctx.account_id;
  pseudo.stack_name = stack.name;
  pseudo.stack_id = stack.id;
  CheckedTemplate checked;
  MS_RETURN_IF_ERROR(CheckTemplate(ctx, body, in.parameters, previous, in.capabilities, pseudo, &checked));
  const std::shared_ptr<const Template>& tmpl = checked.tmpl;
  const TemplateSummary& summary = checked.summary;

  // A stack being created has nothing deployed: it is planned as a stack
  // whose template is the new one and which has no resources, so every
  // resource is an Add.
  StackRecord planned_against = stack;
  std::vector<ResourceRecord>& resources = out->deployed;
  if (create) {
    planned_against.template_body = body;
    planned_against.parameters.clear();
  } else {
    MS_RETURN_IF_ERROR(LoadResources(ctx.db, stack.id, &resources));
  }
  std::unique_ptr<ProviderSession> session;
  MS_RETURN_IF_ERROR(ctx.providers->NewSession(&session));
  PlanInput pin;
  pin.stack = &planned_against;
  pin.resources = &resources;
  pin.template_body = body;
  pin.parameters = in.parameters;
  pin.new_template = tmpl;
  pin.new_graph = &checked.graph;
  if (create) pin.old_template = tmpl;
  pin.pseudo = pseudo;
  pin.runtime = ctx.providers;
  pin.session = session.get();
  Database* db = ctx.db;
  const StackScope scope = ctx.scope();
  pin.exports = [db, scope](const std::string& name, std::string* value) {
    return ExportValue(db, scope, name, value);
  };
  pin.stack_outputs = StoreStackOutputs(db, scope);
  const std::string region = ctx.region, account = ctx.account_id;
  pin.ssm = [&session, region, account](std::string_view name, std::string* value) {
    return session->SsmParameter(name, region, account, value);
  };
  pin.now_ms = ctx.clock->NowMs();
  pin.new_stack_tags = create ? nullptr : in.tags;
  MS_RETURN_IF_ERROR(MakePlan(pin, &out->plan));
  out->tmpl = tmpl;
  out->stack = std::move(stack);
  out->template_body = body;
  if (included) out->original_template_body = submitted;
  out->description = summary.description.value_or("");
  return Status::OK();
}

namespace {

// A planned value with its unknown parts as AWS shows them.
Value KnownAfterApply(const Value& v) {
  if (v.is_unknown()) return Value::String("{{changeSet:KNOWN_AFTER_APPLY}}");
  Value out = v;
  if (out.is_list()) {
    for (Value& item : out.mutable_list()) item = KnownAfterApply(item);
  } else if (out.is_map()) {
    for (Member& m : out.mutable_map()) m.value = KnownAfterApply(m.value);
  }
  return out;
}

std::string PropertiesContext(const Value& properties) {
  Value context = Value::MakeMap();
  context.set("Properties", properties.is_map() ? KnownAfterApply(properties) : Value::MakeMap());
  return context.ToJson();
}

}  // namespace

void DropPropertyValues(ChangeSetRecord* cs) {
  for (ChangeSetResourceChange& c : cs->changes) {
    c.before_context.clear();
    c.after_context.clear();
  }
}

std::vector<ChangeSetResourceChange> ResourceChangesOf(const Plan& plan, const std::vector<ResourceRecord>* deployed) {
  std::unordered_map<std::string, const ResourceRecord*> by_logical_id;
  if (deployed != nullptr) {
    for (const ResourceRecord& r : *deployed) by_logical_id[r.logical_id] = &r;
  }
  std::vector<ChangeSetResourceChange> out;
  for (const ResourcePlan& rp : plan.resources) {
    if (rp.action == ChangeAction::kNone) continue;
    ChangeSetResourceChange c;
    c.action = ChangeActionName(rp.action);
    c.logical_id = rp.logical_id;
    c.physical_id = rp.physical_id;
    c.resource_type = rp.type;
    if (deployed != nullptr) {
      auto before = by_logical_id.find(rp.logical_id);
      if (before != by_logical_id.end() && rp.action != ChangeAction::kAdd) {
        c.before_context = PropertiesContext(before->second->properties);
      }
      if (rp.action != ChangeAction::kRemove) c.after_context = PropertiesContext(rp.properties);
    }
    if (rp.action == ChangeAction::kModify) {
      c.replacement = ReplacementName(rp.replacement);
      for (TargetAttribute a : rp.scope) c.scope.push_back(TargetAttributeName(a));
      for (const ChangeDetail& d : rp.details) {
        ChangeSetDetail cd;
        cd.attribute = TargetAttributeName(d.attribute);
        if (d.attribute == TargetAttribute::kProperties) cd.name = d.name;
        // A property's, and the stack's tags' (Never: re-tagged in place).
        if (d.attribute != TargetAttribute::kMetadata) {
          cd.requires_recreation = RecreationName(d.requires_recreation);
        }
        cd.evaluation = EvaluationName(d.evaluation);
        cd.change_source = ChangeSourceName(d.source);
        cd.causing_entity = d.causing_entity;
        c.details.push_back(std::move(cd));
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

bool SettleExecutionStatus(const StackRecord& stack, int64_t latest_event_seq, ChangeSetRecord* cs) {
  const std::string before = cs->execution_status;
  if (cs->execution_status == "EXECUTE_IN_PROGRESS" && !IsInProgress(stack.status)) {
    const bool done = stack.status == StackStatus::kCreateComplete || stack.status == StackStatus::kUpdateComplete ||
                      stack.status == StackStatus::kImportComplete;
    cs->execution_status = done ? "EXECUTE_COMPLETE" : "EXECUTE_FAILED";
  } else if (cs->execution_status == "AVAILABLE") {
    // The stack moved on since the change set was planned.
    if (latest_event_seq != cs->stack_event_seq) cs->execution_status = "OBSOLETE";
  }
  return cs->execution_status != before;
}

Status ChangeSetService::Create(const CreateChangeSetInput& in, std::string* change_set_id, std::string* stack_id) {
  return CreateUnder(in, nullptr, change_set_id, stack_id);
}

Status ChangeSetService::CreateUnder(const CreateChangeSetInput& in, const ChangeSetRecord* parent,
                                     std::string* change_set_id, std::string* stack_id) {
  MS_RETURN_IF_ERROR(CheckNameMember(in.change_set_name, "changeSetName"));
  if (in.tags) MS_RETURN_IF_ERROR(CheckStackTags(*in.tags));
  const std::string type = in.change_set_type.empty() ? "UPDATE" : in.change_set_type;
  if (type != "CREATE" && type != "UPDATE" && type != "IMPORT") {
    return Status::Validation("1 validation error detected: Value '" + type +
                              "' at 'changeSetType' failed to satisfy constraint: Member must satisfy enum value "
                              "set: [UPDATE, IMPORT, CREATE]");
  }
  {
    StackRecord stack;
    bool found = false;
    MS_RETURN_IF_ERROR(LoadStackByNameOrId(ctx_.db, ctx_.scope(), in.stack_name, &stack, &found));
    ChangeSetRecord existing;
    if (found) MS_RETURN_IF_ERROR(FindChangeSet(ctx_.db, stack.id, in.change_set_name, &existing, &found));
    if (found) {
      // The AlreadyExistsException AWS gives for a change set name in use
      // (as reported from AWS: awslabs/landing-zone-accelerator-on-aws
      // issues #342 and #442; moonstack has no ClientToken to match).
      return Status::AlreadyExists("ChangeSet " + in.change_set_name +
                                   " cannot be created due to a mismatch with existing attribute ClientToken");
    }
  }
  ChangeSetPlanInput pin;
  pin.stack_name = in.stack_name;
  pin.change_set_name = in.change_set_name;
  pin.type = type;
  pin.template_body = in.template_body;
  pin.use_previous_template = in.use_previous_template;
  pin.parameters = in.parameters;
  pin.capabilities = in.capabilities;
  pin.tags = in.tags ? &*in.tags : nullptr;
  ChangeSetPlan planned;
  MS_RETURN_IF_ERROR(PlanChangeSet(ctx_, pin, &planned));

  ChangeSetRecord cs;
  cs.name = in.change_set_name;
  cs.id = "arn:aws:cloudformation:" + ctx_.region + ":" + ctx_.account_id + ":changeSet/" + cs.name + "/" + NewUuid();
  cs.stack_id = planned.stack.id;
  cs.stack_name = planned.stack.name;
  cs.type = type;
  cs.description = in.description;
  cs.created_ms = ctx_.clock->NowMs();
  cs.operation_id = NewUuid();
  cs.template_body = planned.template_body;
  cs.original_template_body = planned.original_template_body;
  for (const ResolvedParameter& p : planned.plan.parameters.list) {
    cs.parameters.push_back({p.name, p.text, p.no_echo, p.ssm_resolved.value_or("")});
  }
  cs.capabilities = in.capabilities;
  // An UPDATE without Tags keeps the stack's: executing it passes them on.
  cs.tags = in.tags ? *in.tags : planned.new_stack ? std::vector<StackTag>() : planned.stack.tags;
  cs.changes = ResourceChangesOf(planned.plan, &planned.deployed);
  const bool no_changes = planned.plan.empty() && type == "UPDATE" && SameStackTags(cs.tags, planned.stack.tags);
  std::vector<ValidationFinding> findings;
  if (type != "IMPORT" && !no_changes) MS_RETURN_IF_ERROR(ValidateEarly(planned, &findings));
  if (type == "IMPORT") {
    MS_RETURN_IF_ERROR(PlanImport(in, planned, &cs));
  } else if (no_changes) {
    cs.status = "FAILED";
    cs.execution_status = "UNAVAILABLE";
    cs.status_reason = kNoChangesReason;
  } else if (AnyFailing(findings)) {
    cs.status = "FAILED";
    cs.execution_status = "UNAVAILABLE";
    cs.status_reason = ChangeSetValidationFailure(findings);
  } else {
    cs.status = "CREATE_COMPLETE";
    cs.execution_status = "AVAILABLE";
  }
  cs.include_nested = in.include_nested_stacks;
  if (parent != nullptr) {
    cs.parent_change_set_id = parent->id;
    cs.root_change_set_id = parent->root_change_set_id.empty() ? parent->id : parent->root_change_set_id;
  }
  // Nested stacks exist only in a deployed stack: an UPDATE's.
  if (in.include_nested_stacks && type == "UPDATE") MS_RETURN_IF_ERROR(CreateNested(in, planned, &cs));

  StoreBatch batch;
  StackRecord s = planned.stack;
  if (planned.new_stack) {
    // AWS: the stack exists from now on, REVIEW_IN_PROGRESS "User
    // Initiated", without resources (recorded: test_changesets.snapshot.json,
    // test_name_conflicts; seed 001: nonexistent -> REVIEW_IN_PROGRESS).
    s.BeginOperationFor(std::nullopt, s.status, cs.operation_id);
    s.reason = "User Initiated";
    s.created_ms = cs.created_ms;
    s.template_body = planned.template_body;
    s.original_template_body = planned.original_template_body;
    s.description = planned.description;
    MS_RETURN_IF_ERROR(CheckStackTransition(std::nullopt, s.status));
    batch.stacks.push_back(s);
    batch.events.push_back(StackStatusEvent(s, s.created_ms, "User Initiated"));
    if (ctx_.observer != nullptr) ctx_.observer->OnEvent(batch.events.back());
  }
  // The findings are the change set's operation's (DescribeEvents), not
  // stack events; recorded before the change set notes the stack's latest.
  for (const ValidationFinding& f : findings) {
    batch.events.push_back(ValidationErrorEvent(s, cs.operation_id, cs.created_ms, f));
  }
  if (!batch.stacks.empty() || !batch.events.empty()) MS_RETURN_IF_ERROR(CommitBatch(ctx_.db, ctx_.world, &batch));
  MS_RETURN_IF_ERROR(LatestStackEventSeq(ctx_.db, cs.stack_id, &cs.stack_event_seq));
  MS_RETURN_IF_ERROR(SaveChangeSet(ctx_.db, cs));
  *change_set_id = cs.id;
  *stack_id = cs.stack_id;
  return Status::OK();
}

namespace {

// The nested stack's change set input from the resource's planned
// properties, as NestedStackHooks::Update passes them to its update.
Status NestedInput(const OperationContext& ctx, const CreateChangeSetInput& parent_in, const ChangeSetRecord& cs,
                   const ResourcePlan& rp, CreateChangeSetInput* out) {
  out->stack_name = rp.physical_id;
  out->change_set_name = cs.name;
  out->change_set_type = "UPDATE";
  out->include_nested_stacks = true;
  out->capabilities = parent_in.capabilities;
  out->tags = cs.tags;  // a child has its parent's tags
  const Value* url = rp.properties.is_map() ? rp.properties.find("TemplateURL") : nullptr;
  if (url == nullptr || HasUnknown(*url)) {
    out->use_previous_template = true;  // known only when the parent runs
  } else {
    MS_RETURN_IF_ERROR(ReadTemplateUrl(ctx, url->str(), &out->template_body));
  }
  const Value* params = rp.properties.is_map() ? rp.properties.find("Parameters") : nullptr;
  if (params != nullptr && params->is_map()) {
    for (const Member& m : params->map()) {
      if (HasUnknown(m.value)) {
        out->parameters.push_back({m.key, std::nullopt, true});
      } else {
        out->parameters.push_back({m.key, NestedParameterText(m.value), false});
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status ChangeSetService::CreateNested(const CreateChangeSetInput& in, const ChangeSetPlan& planned,
                                      ChangeSetRecord* cs) {
  std::unordered_map<std::string, const ResourcePlan*> modified_stacks;
  for (const ResourcePlan& rp : planned.plan.resources) {
    if (rp.type == kNestedStackType && rp.action == ChangeAction::kModify && !rp.physical_id.empty()) {
      modified_stacks[rp.logical_id] = &rp;
    }
  }
  Status s;
  for (ChangeSetResourceChange& c : cs->changes) {
    auto rp = modified_stacks.find(c.logical_id);
    if (rp == modified_stacks.end()) continue;
    CreateChangeSetInput child;
    s = NestedInput(ctx_, in, *cs, *rp->second, &child);
    std::string stack_id;
    if (s.ok()) s = CreateUnder(child, cs, &c.change_set_id, &stack_id);
    if (!s.ok()) break;
  }
  if (s.ok()) return s;
  // None of the hierarchy is kept when a part of it cannot be made.
  Status deleted = DeleteNested(*cs);
  return deleted.ok() ? s : deleted;
}

Status ChangeSetService::DeleteNested(const ChangeSetRecord& cs) {
  for (const ChangeSetResourceChange& c : cs.changes) {
    if (c.change_set_id.empty()) continue;
    ChangeSetRecord child;
    bool found = false;
    MS_RETURN_IF_ERROR(LoadChangeSet(ctx_.db, c.change_set_id, &child, &found));
    if (!found) continue;
    MS_RETURN_IF_ERROR(DeleteNested(child));
    MS_RETURN_IF_ERROR(DeleteChangeSetRow(ctx_.db, child.id));
  }
  return Status::OK();
}

Status ChangeSetService::NotRoot(const ChangeSetRecord& cs, const char* verb) {
  // AWS's user guide: a nested stack's change set is executed or deleted
  // from its root change set. The wording of the refusal is moonstack's
  // (AWS's not found in any recording).
  return Status::InvalidChangeSetStatus("ChangeSet [" + cs.id + "] is a nested change set and cannot be " + verb +
                                        " on its own: use its root change set [" + cs.root_change_set_id + "]");
}

Status ChangeSetService::ValidateEarly(const ChangeSetPlan& planned, std::vector<ValidationFinding>* out) {
  std::unique_ptr<ProviderSession> session;
  MS_RETURN_IF_ERROR(ctx_.providers->NewSession(&session));
  const HookContext hc = ReadContext(planned.stack, "", ctx_.region, ctx_.account_id, ctx_.clock->NowMs());
  MS_RETURN_IF_ERROR(ValidateBeforeDeployment(*session, hc, planned.plan, out));
  if (planned.deployed.empty()) return Status::OK();  // nothing to delete
  std::shared_ptr<const Template> deployed;
  MS_RETURN_IF_ERROR(CachedTemplate(planned.stack.template_body, &deployed));
  return WarnBeforeDeployment(*session, hc, planned.plan, *deployed, out);
}

Status ChangeSetService::PlanImport(const CreateChangeSetInput& in, const ChangeSetPlan& planned,
                                    ChangeSetRecord* cs) {
  std::unique_ptr<ProviderSession> session;
  MS_RETURN_IF_ERROR(ctx_.providers->NewSession(&session));
  MS_RETURN_IF_ERROR(CheckResourcesToImport(in.resources_to_import, *planned.tmpl, planned.deployed, *session));
  MS_RETURN_IF_ERROR(CheckImportPlan(planned.plan, in.resources_to_import));
  if (!planned.deployed.empty()) {
    MS_RETURN_IF_ERROR(CheckImportOutputs(planned.stack.template_body, planned.template_body));
  }
  const HookContext hc = ReadContext(planned.stack, "", ctx_.region, ctx_.account_id, ctx_.clock->NowMs());
  std::string failure;
  MS_RETURN_IF_ERROR(
      LookUpImports(ctx_.db, *session, hc, planned.plan, in.resources_to_import, &cs->imports, &failure));
  if (!failure.empty()) {
    // AWS accepts the request and fails the change set: no changes, not
    // executable, the lookup's message as its reason.
    cs->imports.clear();
    cs->changes.clear();
    cs->status = "FAILED";
    cs->execution_status = "UNAVAILABLE";
    cs->status_reason = failure;
    return Status::OK();
  }
  cs->changes = ImportChanges(cs->imports);
  cs->status = "CREATE_COMPLETE";
  cs->execution_status = "AVAILABLE";
  cs->status_reason = kImportReviewReason;
  return Status::OK();
}

Status ChangeSetService::FindStackForChangeSets(const std::string& stack_name, StackRecord* out) {
  bool found = false;
  MS_RETURN_IF_ERROR(FindStackInScope(ctx_.db, ctx_.scope(), stack_name, out, &found));
  // AWS (recorded: test_changesets.snapshot.json, test_describe_change_set_nonexisting).
  if (!found) return Status::Validation("Stack [" + stack_name + "] does not exist");
  return Status::OK();
}

Status ChangeSetService::Find(const std::string& change_set, const std::string& stack_name, StackRecord* stack,
                              ChangeSetRecord* out) {
  bool found = false;
  if (IsArn(change_set)) {
    MS_RETURN_IF_ERROR(LoadChangeSet(ctx_.db, change_set, out, &found));
    StackScope of_id;  // another region's change set is not found, as its stack is not
    if (found && (!ScopeOfArn(change_set, &of_id) || of_id != ctx_.scope())) found = false;
    if (found) {
      bool stack_found = false;
      MS_RETURN_IF_ERROR(LoadStack(ctx_.db, out->stack_id, stack, &stack_found));
      found = stack_found;
    }
  } else {
    // AWS (corpus AWS_ERROR_MESSAGES.md, test_delete_change_set_exception).
    if (stack_name.empty()) {
      return Status::Validation("StackName must be specified if ChangeSetName is not specified as an ARN.");
    }
    MS_RETURN_IF_ERROR(FindStackForChangeSets(stack_name, stack));
    MS_RETURN_IF_ERROR(FindChangeSet(ctx_.db, stack->id, change_set, out, &found));
  }
  // ChangeSetNotFound, "ChangeSet [X] does not exist" (AWS, recorded:
  // test_changesets.snapshot.json, test_deleted_changeset; and
  // aws/serverless-application-model issue #52).
  if (!found) return Status::ChangeSetNotFound("ChangeSet [" + change_set + "] does not exist");
  int64_t seq = 0;
  MS_RETURN_IF_ERROR(LatestStackEventSeq(ctx_.db, stack->id, &seq));
  if (SettleExecutionStatus(*stack, seq, out)) MS_RETURN_IF_ERROR(SaveChangeSet(ctx_.db, *out));
  return Status::OK();
}

Status ChangeSetService::Describe(const std::string& change_set, const std::string& stack_name,
                                  ChangeSetRecord* out) {
  StackRecord stack;
  return Find(change_set, stack_name, &stack, out);
}

Status ChangeSetService::StartCreateFromReview(const ChangeSetRecord& cs, const ExecuteChangeSetInput& in,
                                               StackRecord s) {
  // The stack as create-stack saves it (StackService::StartCreate), from the
  // change set's template and parameters; REVIEW_IN_PROGRESS ->
  // CREATE_IN_PROGRESS is seed 001's edge.
  MS_RETURN_IF_ERROR(CheckStackTransition(s.status, StackStatus::kCreateInProgress));
  Template t;
  TemplateSummary summary;
  MS_RETURN_IF_ERROR(ValidateTemplate(cs.template_body, &t, &summary, ctx_.providers));
  s.template_body = cs.template_body;
  s.original_template_body = cs.original_template_body;
  s.description = summary.description.value_or("");
  s.parameters = cs.parameters;
  s.capabilities = cs.capabilities;
  s.tags = cs.tags;
  s.on_failure = in.disable_rollback ? "DO_NOTHING" : "ROLLBACK";
  if (!in.client_request_token.empty()) s.client_request_token = in.client_request_token;
  s.change_set_id = cs.id;
  // AWS counts the execution as the stack's first update: it has a
  // LastUpdatedTime from then on.
  s.updated_ms = ctx_.clock->NowMs();
  s.BeginOperationFor(s.status, StackStatus::kCreateInProgress, NewUuid());
  s.status = StackStatus::kCreateInProgress;
  s.reason = "User Initiated";
  RecordProviderSource(ctx_, &s);
  StoreBatch batch;
  batch.stacks.push_back(s);
  batch.events.push_back(StackStatusEvent(s, ctx_.clock->NowMs(), "User Initiated"));
  if (ctx_.observer != nullptr) ctx_.observer->OnEvent(batch.events.back());
  return CommitBatch(ctx_.db, ctx_.world, &batch);
}

Status ChangeSetService::Execute(const ExecuteChangeSetInput& in, std::string* stack_id, std::string* stack_name) {
  StackRecord stack;
  ChangeSetRecord cs;
  MS_RETURN_IF_ERROR(Find(in.change_set_name, in.stack_name, &stack, &cs));
  if (!cs.parent_change_set_id.empty()) return NotRoot(cs, "executed");
  if (cs.status != "CREATE_COMPLETE" || cs.execution_status != "AVAILABLE") return NotExecutable(cs);

  if (cs.type == "CREATE") {
    MS_RETURN_IF_ERROR(StartCreateFromReview(cs, in, stack));
  } else if (cs.type == "IMPORT") {
    MS_RETURN_IF_ERROR(StartImport(ctx_, cs, in.client_request_token, stack));
  } else {
    // update-stack with exactly what was planned: the template and the
    // parameter values as resolved then.
    UpdateStackInput u;
    u.stack_name = stack.id;
    u.template_body = cs.template_body;
    u.original_template_body = cs.original_template_body;
    for (const StackParameterValue& p : cs.parameters) u.parameters.push_back({p.key, p.value, false});
    u.capabilities = cs.capabilities;
    u.tags = cs.tags;  // the stack's own when the change set was given none
    u.disable_rollback = in.disable_rollback;
    u.client_request_token = in.client_request_token;
    u.change_set_id = cs.id;
    std::string id;
    MS_RETURN_IF_ERROR(stacks_.StartUpdate(u, &id));
  }

  std::vector<ChangeSetRecord> all;
  MS_RETURN_IF_ERROR(LoadChangeSets(ctx_.db, stack.id, &all));
  for (ChangeSetRecord& other : all) {
    if (other.id == cs.id) {
      other.execution_status = "EXECUTE_IN_PROGRESS";
    } else if (other.execution_status.rfind("EXECUTE_", 0) != 0) {
      // AWS (recorded: test_changesets.snapshot.json, test_create_while_in_review).
      other.execution_status = "OBSOLETE";
    } else {
      continue;
    }
    MS_RETURN_IF_ERROR(SaveChangeSet(ctx_.db, other));
  }
  *stack_id = stack.id;
  if (stack_name != nullptr) *stack_name = stack.name;
  return Status::OK();
}

Status ChangeSetService::Delete(const std::string& change_set, const std::string& stack_name) {
  StackRecord stack;
  ChangeSetRecord cs;
  Status found = Find(change_set, stack_name, &stack, &cs);
  // AWS answers a change set it does not have with success when the stack
  // exists (only a missing stack is a ValidationError): the CDK deletes
  // "cdk-deploy-change-set" before every deploy of a deployed stack and
  // stops at any other answer (ministackorg/ministack#1625; the API
  // reference lists InvalidChangeSetStatus as its only error).
  if (found.code() == Status::Code::kChangeSetNotFound && !stack_name.empty()) {
    return FindStackForChangeSets(stack_name, &stack);
  }
  MS_RETURN_IF_ERROR(found);
  if (!cs.parent_change_set_id.empty()) return NotRoot(cs, "deleted");
  // DeleteChangeSet's one error is InvalidChangeSetStatus (service model);
  // this wording follows ExecuteChangeSet's recorded one.
  if (cs.execution_status == "EXECUTE_IN_PROGRESS") {
    return Status::InvalidChangeSetStatus("ChangeSet [" + cs.id + "] cannot be deleted in its current status of [" +
                                          cs.execution_status + "]");
  }
  MS_RETURN_IF_ERROR(DeleteNested(cs));
  return DeleteChangeSetRow(ctx_.db, cs.id);
}

Status ChangeSetService::List(const std::string& stack_name, std::vector<ChangeSetRecord>* out) {
  StackRecord stack;
  MS_RETURN_IF_ERROR(FindStackForChangeSets(stack_name, &stack));
  MS_RETURN_IF_ERROR(LoadChangeSets(ctx_.db, stack.id, out));
  int64_t seq = 0;
  MS_RETURN_IF_ERROR(LatestStackEventSeq(ctx_.db, stack.id, &seq));
  for (ChangeSetRecord& cs : *out) {
    if (SettleExecutionStatus(stack, seq, &cs)) MS_RETURN_IF_ERROR(SaveChangeSet(ctx_.db, cs));
  }
  return Status::OK();
}

}  // namespace ms
