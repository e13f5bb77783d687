#include "stackset/stack_set_service.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/regions.h"
#include "eval/validate.h"
#include "records/stack_name.h"
#include "stack/op_common.h"
#include "store/stack_tables.h"
#include "stackset/operation_plan.h"
#include "stackset/organization.h"
#include "stackset/stack_set_store.h"
#include "template/template.h"

namespace ms {

// Texts: "StackSet <name> not found" is AWS's (aws-cloudformation/rain#585,
// CrowdStrike/Cloud-AWS#159: DescribeStackSetOperation, CreateStackInstances).
Status StackSetNotFound(const std::string& name) {
  return Status::Of(Status::Code::kStackSetNotFound, "StackSet " + name + " not found");
}

Status CheckCallAs(const std::string& call_as) {
  if (call_as.empty() || call_as == "SELF") return Status::OK();
  // AWS's text (hashicorp/terraform-provider-aws#37069, cdklabs/cdk-stacksets#265:
  // DELEGATED_ADMIN from an account not registered as one, the management account included).
  if (call_as == "DELEGATED_ADMIN") return Status::Validation("Account used is not a delegated administrator");
  return Status::Validation("1 validation error detected: Value '" + call_as +
                            "' at 'callAs' failed to satisfy constraint: Member must satisfy enum value set: "
                            "[SELF, DELEGATED_ADMIN]");
}

namespace {

// AWS's, from public logs (ansible-collections/community.aws#103,
// terraform-provider-aws#28675): the set named by its ARN.
Status OperationInProgress(const StackSetRecord& set) {
  return Status::Of(Status::Code::kOperationInProgress, "Another Operation on StackSet " + set.arn + " is in progress");
}

// Unverified: moonstack's wording in AWS's style.
Status OperationNotFound(const std::string& id) {
  return Status::Of(Status::Code::kOperationNotFound, "Operation " + id + " not found");
}

// Unverified: moonstack's wording in AWS's style.
Status InstanceNotFound(const StackSetRecord& set, const std::string& account, const std::string& region) {
  return Status::Of(Status::Code::kStackInstanceNotFound, "Stack instance in account " + account + " and region " +
                                                              region + " not found for StackSet " + set.name);
}

bool IsAccountId(const std::string& a) {
  return a.size() == 12 && std::all_of(a.begin(), a.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// AWS's constraint message shape for a list member (the API reference's
// pattern for Account: ^[0-9]{12}$).
Status CheckAccounts(const std::vector<std::string>& accounts, const char* member) {
  for (const std::string& a : accounts) {
    if (!IsAccountId(a)) {
      return Status::Validation("1 validation error detected: Value '[" + a + "]' at '" + member +
                                "' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy "
                                "regular expression pattern: ^[0-9]{12}$]");
    }
  }
  return Status::OK();
}

// Unverified message: moonstack's, in the form of AWS's region refusal.
Status CheckRegions(const std::vector<std::string>& regions) {
  if (regions.empty()) {
    return Status::Validation(
        "1 validation error detected: Value null at 'regions' failed to satisfy constraint: Member must not be null");
  }
  for (const std::string& r : regions) {
    if (!IsAwsRegion(r)) return Status::Validation("Region " + r + " is not supported");
  }
  return Status::OK();
}

// A set's parameters from a request: a value each; UsePreviousValue takes
// the set's (UpdateStackSet).
Status ResolveParameters(const std::vector<ParameterInput>& in, const std::vector<StackSetParameter>& previous,
                         std::vector<StackSetParameter>* out) {
  out->clear();
  for (const ParameterInput& p : in) {
    if (p.use_previous_value) {
      auto it = std::find_if(previous.begin(), previous.end(), [&](const StackSetParameter& q) { return q.key == p.key; });
      // UpdateStack's recorded text (eval/parameters.cc); for UpdateStackSet unverified.
      if (it == previous.end()) {
        return Status::Validation(
            "Cannot specify usePreviousValue as true for a parameter key not in the previous template");
      }
      out->push_back(*it);
    } else {
      out->push_back({p.key, p.value.value_or("")});
    }
  }
  return Status::OK();
}

Status CheckTemplateBody(const OperationContext& ctx, const std::string& body) {
  Template t;
  TemplateSummary summary;
  return ValidateTemplate(body, &t, &summary, ctx.providers);
}

// A set's instances by "account/region": a request's targets are looked up
// in it, not searched for.
std::map<std::string, StackInstanceRecord> ByTarget(std::vector<StackInstanceRecord> instances) {
  std::map<std::string, StackInstanceRecord> out;
  for (StackInstanceRecord& i : instances) out.emplace(i.account + "/" + i.region, std::move(i));
  return out;
}

}  // namespace

Status StackSetService::FindLive(const std::string& name, StackSetRecord* out) {
  bool found = false;
  MS_RETURN_IF_ERROR(FindStackSet(ctx_.db, ctx_.scope(), name, out, &found));
  if (!found || out->deleted) return StackSetNotFound(name);
  return Status::OK();
}

Status StackSetService::Create(const CreateStackSetInput& in, std::string* stack_set_id) {
  MS_RETURN_IF_ERROR(CheckNameMember(in.name, "stackSetName"));
  StackSetRecord existing;
  bool found = false;
  MS_RETURN_IF_ERROR(FindStackSet(ctx_.db, ctx_.scope(), in.name, &existing, &found));
  // Unverified: moonstack's wording (the model: "The specified name is already in use.").
  if (found) return Status::Of(Status::Code::kNameAlreadyExists, "StackSet " + in.name + " already exists");
  const std::string model = in.permission_model.empty() ? kSelfManaged : in.permission_model;
  if (model != kSelfManaged && model != kServiceManaged) {
    return Status::Validation("1 validation error detected: Value '" + model +
                              "' at 'permissionModel' failed to satisfy constraint: Member must satisfy enum value "
                              "set: [SERVICE_MANAGED, SELF_MANAGED]");
  }
  // AWS's text (hashicorp/terraform-provider-aws#32536, ministryofjustice/aws-root-account#1173).
  if (model == kServiceManaged && ctx_.account_id != kManagementAccount) {
    return Status::Validation(
        "You must be the management account or delegated admin account of an organization before operating a "
        "SERVICE_MANAGED stack set");
  }
  MS_RETURN_IF_ERROR(CheckTemplateBody(ctx_, in.template_body));
  StackSetRecord s;
  s.name = in.name;
  s.id = in.name + ":" + NewUuid();
  s.arn = "arn:aws:cloudformation:" + ctx_.region + ":" + ctx_.account_id + ":stackset/" + s.id;
  s.region = ctx_.region;
  s.account = ctx_.account_id;
  s.description = in.description;
  s.template_body = in.template_body;
  MS_RETURN_IF_ERROR(ResolveParameters(in.parameters, {}, &s.parameters));
  s.capabilities = in.capabilities;
  s.tags = in.tags;
  s.permission_model = model;
  if (model == kSelfManaged) {
    // AWS's defaults for self-managed permissions (the roles are shown, not assumed: moonstack has no IAM checks).
    s.administration_role_arn = in.administration_role_arn.empty()
                                    ? "arn:aws:iam::" + ctx_.account_id + ":role/AWSCloudFormationStackSetAdministrationRole"
                                    : in.administration_role_arn;
    s.execution_role_name =
        in.execution_role_name.empty() ? "AWSCloudFormationStackSetExecutionRole" : in.execution_role_name;
  } else {
    s.auto_deployment_given = in.auto_deployment_enabled.has_value();
    s.auto_deployment_enabled = in.auto_deployment_enabled.value_or(false);
    s.retain_stacks_on_account_removal = in.retain_stacks_on_account_removal;
  }
  s.created_ms = ctx_.clock->NowMs();
  MS_RETURN_IF_ERROR(SaveStackSet(ctx_.db, s));
  *stack_set_id = s.id;
  return Status::OK();
}

Status StackSetService::TargetAccounts(const StackSetRecord& set, const std::vector<std::string>& accounts,
                                       const DeploymentTargets& targets,
                                       std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  std::set<std::string> seen;
  auto add = [&](const std::string& account, const std::string& ou) {
    if (seen.insert(account).second) out->emplace_back(account, ou);
  };
  if (set.permission_model == kSelfManaged) {
    // AWS's refusals of the other model's targets (as its consoles and SDK users report them; unverified).
    if (!targets.organizational_unit_ids.empty()) {
      return Status::Validation("StackSets with SELF_MANAGED permission model can only have accounts as target");
    }
    std::vector<std::string> given = accounts;
    given.insert(given.end(), targets.accounts.begin(), targets.accounts.end());
    if (given.empty()) {
      return Status::Validation("1 validation error detected: Value null at 'accounts' failed to satisfy constraint: "
                                "Member must not be null");
    }
    MS_RETURN_IF_ERROR(CheckAccounts(given, "accounts"));
    for (const std::string& a : given) add(a, "");
    return Status::OK();
  }
  if (!accounts.empty()) {
    return Status::Validation("StackSets with SERVICE_MANAGED permission model can only have OrganizationalUnit as target");
  }
  if (targets.empty()) {
    return Status::Validation("1 validation error detected: Value null at 'deploymentTargets' failed to satisfy "
                              "constraint: Member must not be null");
  }
  MS_RETURN_IF_ERROR(CheckAccounts(targets.accounts, "deploymentTargets.accounts"));
  for (const std::string& ou : targets.organizational_unit_ids) {
    std::vector<std::string> members;
    // Unverified message: moonstack's (the simulated organization is stackset/organization.h's).
    if (!AccountsOfOrganizationalUnit(ou, &members)) {
      return Status::Validation("OrganizationalUnitId " + ou + " is not part of the organization");
    }
    for (const std::string& a : members) add(a, ou);
  }
  for (const std::string& a : targets.accounts) {
    std::string ou;
    for (const char* unit : {"ou-moon-workloads", "ou-moon-sandboxes"}) {
      std::vector<std::string> members;
      AccountsOfOrganizationalUnit(unit, &members);
      if (std::find(members.begin(), members.end(), a) != members.end()) ou = unit;
    }
    if (ou.empty()) return Status::Validation("Account " + a + " is not part of the organization");
    add(a, ou);
  }
  return Status::OK();
}

Status StackSetService::StartOperation(const StackSetRecord& set, StackSetOperationRecord* op,
                                       const std::vector<StackInstanceRecord>& instances,
                                       const std::string& given_id) {
  MS_RETURN_IF_ERROR(CheckOperationPreferences(op->preferences));
  std::string active;
  MS_RETURN_IF_ERROR(ActiveStackSetOperation(ctx_.db, set.id, &active));
  if (!active.empty()) return OperationInProgress(set);
  op->id = given_id.empty() ? NewUuid() : given_id;
  if (!given_id.empty()) {
    StackSetOperationRecord ignored;
    bool found = false;
    MS_RETURN_IF_ERROR(LoadStackSetOperation(ctx_.db, set.id, given_id, &ignored, &found, /*with_results=*/false));
    // Unverified: moonstack's wording (the model: "The specified operation ID already exists.").
    if (found) {
      return Status::Of(Status::Code::kOperationIdAlreadyExists, "The operation ID " + given_id + " already exists");
    }
  }
  op->stack_set_id = set.id;
  op->status = "QUEUED";
  op->created_ms = ctx_.clock->NowMs();
  if (set.permission_model == kSelfManaged) {
    op->administration_role_arn = set.administration_role_arn;
    op->execution_role_name = set.execution_role_name;
  }
  std::set<std::string> targeted;
  for (const OperationResult& r : op->results) targeted.insert(r.account + "/" + r.region);
  return ctx_.db->Transaction([&]() -> Status {
    MS_RETURN_IF_ERROR(SaveStackSet(ctx_.db, set));
    for (StackInstanceRecord i : instances) {
      if (targeted.count(i.account + "/" + i.region) != 0) i.last_operation_id = op->id;
      MS_RETURN_IF_ERROR(SaveStackInstance(ctx_.db, i));
    }
    return SaveStackSetOperation(ctx_.db, *op);
  });
}

namespace {

// New overrides: those given replace the old, UsePreviousValue keeps one.
std::vector<StackSetParameter> MergeOverrides(const std::vector<ParameterInput>& given,
                                              const std::vector<StackSetParameter>& old) {
  std::vector<StackSetParameter> out;
  for (const ParameterInput& p : given) {
    if (p.use_previous_value) {
      for (const StackSetParameter& o : old) {
        if (o.key == p.key) out.push_back(o);
      }
    } else {
      out.push_back({p.key, p.value.value_or("")});
    }
  }
  return out;
}

}  // namespace

Status StackSetService::ResolveInstancesTarget(const StackInstancesInput& in, InstancesTarget* out) {
  MS_RETURN_IF_ERROR(FindLive(in.name, &out->set));
  MS_RETURN_IF_ERROR(TargetAccounts(out->set, in.accounts, in.targets, &out->accounts));
  MS_RETURN_IF_ERROR(CheckRegions(in.regions));
  // A region named twice is one region (an operation has one result per account and region).
  out->regions.clear();
  for (const std::string& r : in.regions) {
    if (std::find(out->regions.begin(), out->regions.end(), r) == out->regions.end()) out->regions.push_back(r);
  }
  std::vector<StackInstanceRecord> loaded;
  MS_RETURN_IF_ERROR(LoadStackInstances(ctx_.db, out->set.id, &loaded));
  out->existing = ByTarget(std::move(loaded));
  return Status::OK();
}

Status StackSetService::CreateInstances(const StackInstancesInput& in, std::string* set_id, std::string* operation_id) {
  InstancesTarget t;
  MS_RETURN_IF_ERROR(ResolveInstancesTarget(in, &t));
  StackSetRecord& set = t.set;
  StackSetOperationRecord op;
  op.action = "CREATE";
  op.preferences = in.preferences;
  op.targets = in.targets;
  std::vector<StackInstanceRecord> instances;
  for (const auto& [account, ou] : t.accounts) {
    for (const std::string& region : t.regions) {
      StackInstanceRecord i;
      auto it = t.existing.find(account + "/" + region);
      if (it != t.existing.end()) i = it->second;
      i.stack_set_id = set.id;
      i.account = account;
      i.region = region;
      i.organizational_unit_id = ou;
      if (in.overrides) i.parameter_overrides = MergeOverrides(*in.overrides, i.parameter_overrides);
      i.status = "OUTDATED";
      i.detailed_status = "PENDING";
      i.reason.clear();
      instances.push_back(i);
      op.results.push_back({account, region, "PENDING", "", ou});
    }
  }
  for (const std::string& ou : in.targets.organizational_unit_ids) {
    if (std::find(set.organizational_unit_ids.begin(), set.organizational_unit_ids.end(), ou) ==
        set.organizational_unit_ids.end()) {
      set.organizational_unit_ids.push_back(ou);
    }
  }
  MS_RETURN_IF_ERROR(StartOperation(set, &op, instances, in.operation_id));
  *set_id = set.id;
  *operation_id = op.id;
  return Status::OK();
}

Status StackSetService::UpdateInstances(const StackInstancesInput& in, std::string* set_id, std::string* operation_id) {
  InstancesTarget t;
  MS_RETURN_IF_ERROR(ResolveInstancesTarget(in, &t));
  StackSetRecord& set = t.set;
  StackSetOperationRecord op;
  op.action = "UPDATE";
  op.preferences = in.preferences;
  op.targets = in.targets;
  std::vector<StackInstanceRecord> instances;
  for (const auto& [account, ou] : t.accounts) {
    for (const std::string& region : t.regions) {
      auto it = t.existing.find(account + "/" + region);
      if (it == t.existing.end()) return InstanceNotFound(set, account, region);
      StackInstanceRecord i = it->second;
      if (in.overrides) i.parameter_overrides = MergeOverrides(*in.overrides, i.parameter_overrides);
      i.status = "OUTDATED";
      i.detailed_status = "PENDING";
      i.reason.clear();
      instances.push_back(i);
      op.results.push_back({account, region, "PENDING", "", i.organizational_unit_id});
    }
  }
  MS_RETURN_IF_ERROR(StartOperation(set, &op, instances, in.operation_id));
  *set_id = set.id;
  *operation_id = op.id;
  return Status::OK();
}

Status StackSetService::DeleteInstances(const StackInstancesInput& in, std::string* set_id, std::string* operation_id) {
  InstancesTarget t;
  MS_RETURN_IF_ERROR(ResolveInstancesTarget(in, &t));
  StackSetRecord& set = t.set;
  StackSetOperationRecord op;
  op.action = "DELETE";
  op.preferences = in.preferences;
  op.targets = in.targets;
  op.retain_stacks = in.retain_stacks;
  std::vector<StackInstanceRecord> instances;
  for (const auto& [account, ou] : t.accounts) {
    for (const std::string& region : t.regions) {
      // An account and region without an instance succeeds, as on AWS.
      auto it = t.existing.find(account + "/" + region);
      if (it != t.existing.end()) {
        StackInstanceRecord i = it->second;
        i.status = "OUTDATED";
        i.detailed_status = "PENDING";
        instances.push_back(i);
      }
      op.results.push_back({account, region, "PENDING", "", ou});
    }
  }
  MS_RETURN_IF_ERROR(StartOperation(set, &op, instances, in.operation_id));
  *set_id = set.id;
  *operation_id = op.id;
  return Status::OK();
}

Status StackSetService::Update(const UpdateStackSetInput& in, std::string* set_id, std::string* operation_id) {
  StackSetRecord set;
  MS_RETURN_IF_ERROR(FindLive(in.name, &set));
  if (!in.use_previous_template || !in.template_body.empty()) {
    MS_RETURN_IF_ERROR(CheckTemplateBody(ctx_, in.template_body));
    set.template_body = in.template_body;
  }
  std::vector<StackSetParameter> params;
  MS_RETURN_IF_ERROR(ResolveParameters(in.parameters, set.parameters, &params));
  set.parameters = std::move(params);
  set.capabilities = in.capabilities;
  if (in.description) set.description = *in.description;
  if (in.tags) set.tags = *in.tags;
  if (set.permission_model == kSelfManaged) {
    if (!in.administration_role_arn.empty()) set.administration_role_arn = in.administration_role_arn;
    if (!in.execution_role_name.empty()) set.execution_role_name = in.execution_role_name;
  }
  std::vector<StackInstanceRecord> instances;
  MS_RETURN_IF_ERROR(LoadStackInstances(ctx_.db, set.id, &instances));
  // Which instances: those of the given accounts (or targets) and regions; all by default.
  std::vector<std::pair<std::string, std::string>> accounts;
  const bool some = !in.accounts.empty() || !in.targets.empty();
  if (some) MS_RETURN_IF_ERROR(TargetAccounts(set, in.accounts, in.targets, &accounts));
  if (!in.regions.empty()) MS_RETURN_IF_ERROR(CheckRegions(in.regions));
  std::set<std::string> named_accounts, named_regions(in.regions.begin(), in.regions.end());
  for (const auto& a : accounts) named_accounts.insert(a.first);
  StackSetOperationRecord op;
  op.action = "UPDATE";
  op.preferences = in.preferences;
  op.targets = in.targets;
  for (StackInstanceRecord& i : instances) {
    const bool account_named = !some || named_accounts.count(i.account) != 0;
    const bool region_named = in.regions.empty() || named_regions.count(i.region) != 0;
    // The set changed: every instance is OUTDATED until an operation brings it up to date.
    i.status = "OUTDATED";
    if (account_named && region_named) {
      i.detailed_status = "PENDING";
      i.reason.clear();
      op.results.push_back({i.account, i.region, "PENDING", "", i.organizational_unit_id});
    }
  }
  MS_RETURN_IF_ERROR(StartOperation(set, &op, instances, in.operation_id));
  *set_id = set.id;
  *operation_id = op.id;
  return Status::OK();
}

Status StackSetService::DetectDrift(const std::string& name, const OperationPreferences& preferences,
                                    const std::string& given_operation_id, std::string* set_id,
                                    std::string* operation_id) {
  StackSetRecord set;
  MS_RETURN_IF_ERROR(FindLive(name, &set));
  std::vector<StackInstanceRecord> instances;
  MS_RETURN_IF_ERROR(LoadStackInstances(ctx_.db, set.id, &instances));
  StackSetOperationRecord op;
  op.action = "DETECT_DRIFT";
  op.preferences = preferences;
  for (const StackInstanceRecord& i : instances) {
    op.results.push_back({i.account, i.region, "PENDING", "", i.organizational_unit_id});
  }
  // The set's details while it runs (AWS's DriftDetectionStatus IN_PROGRESS); the rest stays as last detected.
  set.drift.detection_status = "IN_PROGRESS";
  set.drift.total = static_cast<int64_t>(instances.size());
  set.drift.in_progress = set.drift.total;
  MS_RETURN_IF_ERROR(StartOperation(set, &op, instances, given_operation_id));
  *set_id = set.id;
  *operation_id = op.id;
  return Status::OK();
}

Status StackSetService::ImportStacks(const ImportStacksInput& in, std::string* set_id, std::string* operation_id) {
  StackSetRecord set;
  MS_RETURN_IF_ERROR(FindLive(in.name, &set));
  // Texts below are unverified (moonstack's, in AWS's style); the limits are AWS's
  // (the StackSets guide: up to 10 stacks inline, self-managed sets here).
  if (set.permission_model != kSelfManaged) {
    return Status::Of(Status::Code::kInvalidOperation,
                      "ImportStacksToStackSet is only supported by self-managed permissions");
  }
  if (!in.stack_ids_url.empty()) return Status::Validation("StackIdsUrl is not supported by moonstack; give StackIds");
  if (in.stack_ids.empty()) return Status::Validation("Either StackIds or StackIdsUrl must be specified");
  if (in.stack_ids.size() > 10) {
    return Status::Of(Status::Code::kLimitExceeded, "You can import up to 10 stacks per stack set at a time");
  }
  if (!in.organizational_unit_ids.empty()) {
    return Status::Validation("StackSets with SELF_MANAGED permission model can only have accounts as target");
  }
  std::vector<StackInstanceRecord> loaded;
  MS_RETURN_IF_ERROR(LoadStackInstances(ctx_.db, set.id, &loaded));
  const std::map<std::string, StackInstanceRecord> existing = ByTarget(std::move(loaded));
  StackSetOperationRecord op;
  op.action = "CREATE";
  op.preferences = in.preferences;
  std::vector<StackInstanceRecord> instances;
  std::set<std::string> seen;
  for (const std::string& id : in.stack_ids) {
    StackScope scope;
    StackRecord stack;
    bool found = false;
    if (ScopeOfArn(id, &scope)) {
      MS_RETURN_IF_ERROR(FindStackInScope(ctx_.db, scope, id, &stack, &found, StackRowParts::kRecordOnly));
    }
    if (!found || stack.status == StackStatus::kDeleteComplete) {
      return Status::Of(Status::Code::kStackNotFound, "Stack with id " + id + " does not exist");
    }
    const std::string key = scope.account + "/" + scope.region;
    if (existing.count(key) != 0 || !seen.insert(key).second) {
      return Status::Validation("Stack instance in account " + scope.account + " and region " + scope.region +
                                " already exists in StackSet " + set.name);
    }
    // Only a stack that stands where its last operation left it (an instance's stack is updated).
    const bool stable = stack.status == StackStatus::kCreateComplete || stack.status == StackStatus::kUpdateComplete ||
                        stack.status == StackStatus::kUpdateRollbackComplete ||
                        stack.status == StackStatus::kImportComplete ||
                        stack.status == StackStatus::kImportRollbackComplete;
    if (!stable) {
      return Status::Validation("Stack " + stack.name + " is in " + StackStatusName(stack.status) +
                                " state and can not be imported");
    }
    StackInstanceRecord i;
    i.stack_set_id = set.id;
    i.account = scope.account;
    i.region = scope.region;
    i.stack_id = stack.id;
    i.stack_name = stack.name;
    instances.push_back(i);
    op.results.push_back({scope.account, scope.region, "PENDING", "", ""});
  }
  MS_RETURN_IF_ERROR(StartOperation(set, &op, instances, in.operation_id));
  *set_id = set.id;
  *operation_id = op.id;
  return Status::OK();
}

Status StackSetService::Delete(const std::string& name) {
  StackSetRecord set;
  bool found = false;
  MS_RETURN_IF_ERROR(FindStackSet(ctx_.db, ctx_.scope(), name, &set, &found));
  if (!found || set.deleted) return Status::OK();  // AWS: deleting a missing set succeeds (unverified)
  std::string active;
  MS_RETURN_IF_ERROR(ActiveStackSetOperation(ctx_.db, set.id, &active));
  if (!active.empty()) return OperationInProgress(set);
  std::vector<StackInstanceRecord> instances;
  MS_RETURN_IF_ERROR(LoadStackInstances(ctx_.db, set.id, &instances));
  // moto's text (getmoto/moto exceptions.py); unverified against AWS.
  if (!instances.empty()) return Status::Of(Status::Code::kStackSetNotEmpty, "StackSet is not empty");
  set.deleted = true;
  return SaveStackSet(ctx_.db, set);
}

Status StackSetService::StopOperation(const std::string& name, const std::string& operation_id) {
  StackSetRecord set;
  MS_RETURN_IF_ERROR(FindLive(name, &set));
  return ctx_.db->Transaction([&]() -> Status {
    StackSetOperationRecord op;
    bool found = false;
    MS_RETURN_IF_ERROR(LoadStackSetOperation(ctx_.db, set.id, operation_id, &op, &found, /*with_results=*/false));
    if (!found) return OperationNotFound(operation_id);
    if (op.status == "STOPPING") return Status::OK();
    // Unverified: moonstack's wording.
    if (!op.active()) {
      return Status::Of(Status::Code::kInvalidOperation,
                        "Operation " + operation_id + " can not be stopped as it is " + op.status);
    }
    op.status = "STOPPING";
    return SaveStackSetOperationRow(ctx_.db, op);
  });
}

Status StackSetService::Describe(const std::string& name, StackSetRecord* out) {
  bool found = false;
  MS_RETURN_IF_ERROR(FindStackSet(ctx_.db, ctx_.scope(), name, out, &found));
  if (!found) return StackSetNotFound(name);
  return Status::OK();
}

Status StackSetService::List(std::vector<StackSetRecord>* out) { return ListStackSets(ctx_.db, ctx_.scope(), out); }

Status StackSetService::DescribeInstance(const std::string& name, const std::string& account,
                                         const std::string& region, StackSetRecord* set, StackInstanceRecord* out) {
  std::vector<StackInstanceRecord> instances;
  MS_RETURN_IF_ERROR(ListInstances(name, set, &instances));
  for (StackInstanceRecord& i : instances) {
    if (i.account == account && i.region == region) {
      *out = std::move(i);
      return Status::OK();
    }
  }
  return InstanceNotFound(*set, account, region);
}

Status StackSetService::ListInstances(const std::string& name, StackSetRecord* set,
                                      std::vector<StackInstanceRecord>* out) {
  MS_RETURN_IF_ERROR(Describe(name, set));
  return LoadStackInstances(ctx_.db, set->id, out);
}

Status StackSetService::DescribeOperation(const std::string& name, const std::string& operation_id,
                                          StackSetRecord* set, StackSetOperationRecord* out) {
  MS_RETURN_IF_ERROR(Describe(name, set));
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStackSetOperation(ctx_.db, set->id, operation_id, out, &found));
  if (!found) return OperationNotFound(operation_id);
  return Status::OK();
}

Status StackSetService::ListOperations(const std::string& name, StackSetRecord* set,
                                       std::vector<StackSetOperationRecord>* out) {
  MS_RETURN_IF_ERROR(Describe(name, set));
  return LoadStackSetOperations(ctx_.db, set->id, out);
}

}  // namespace ms
