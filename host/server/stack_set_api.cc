// The StackSet actions of the Query API: CreateStackSet, UpdateStackSet,
// DeleteStackSet, DescribeStackSet, ListStackSets, CreateStackInstances,
// UpdateStackInstances, DeleteStackInstances, DescribeStackInstance,
// ListStackInstances, DescribeStackSetOperation, ListStackSetOperations,
// ListStackSetOperationResults, StopStackSetOperation, DetectStackSetDrift,
// ImportStacksToStackSet — the request's
// members (botocore's service model) in, the shapes of stack_set_xml.h out.
// The work is StackSetService's (engine/stackset); an action that starts an
// operation hands it to the OperationRunner, which runs it on a thread.
#include <algorithm>
#include <set>
#include <stdexcept>

#include "server/cfn_api.h"
#include "server/stack_set_xml.h"
#include "stackset/stack_set_service.h"

namespace ms::server {
namespace {

// An integer member (OperationPreferences.FailureToleranceCount, ...).
Status IntegerOf(const QueryRequest& q, const std::string& name, std::optional<int64_t>* out) {
  std::optional<std::string> text = q.Find(name);
  if (!text) return Status::OK();
  try {
    size_t used = 0;
    *out = std::stoll(*text, &used);
    if (used != text->size()) throw std::invalid_argument(*text);
  } catch (const std::exception&) {
    return Status::Validation("Invalid value for " + name + ": " + *text);
  }
  return Status::OK();
}

Status PreferencesOf(const QueryRequest& q, OperationPreferences* p) {
  const std::string prefix = "OperationPreferences.";
  p->region_concurrency_type = q.Get(prefix + "RegionConcurrencyType");
  p->region_order = q.List(prefix + "RegionOrder");
  p->concurrency_mode = q.Get(prefix + "ConcurrencyMode");
  MS_RETURN_IF_ERROR(IntegerOf(q, prefix + "FailureToleranceCount", &p->failure_tolerance_count));
  MS_RETURN_IF_ERROR(IntegerOf(q, prefix + "FailureTolerancePercentage", &p->failure_tolerance_percentage));
  MS_RETURN_IF_ERROR(IntegerOf(q, prefix + "MaxConcurrentCount", &p->max_concurrent_count));
  return IntegerOf(q, prefix + "MaxConcurrentPercentage", &p->max_concurrent_percentage);
}

DeploymentTargets TargetsOf(const QueryRequest& q) {
  DeploymentTargets t;
  t.accounts = q.List("DeploymentTargets.Accounts");
  t.organizational_unit_ids = q.List("DeploymentTargets.OrganizationalUnitIds");
  return t;
}

// ParameterOverrides: none when the request has no such member (botocore
// sends "ParameterOverrides=" for an empty list: every override removed).
std::optional<std::vector<ParameterInput>> OverridesOf(const QueryRequest& q) {
  std::vector<ParameterInput> given = ParametersOf(q, "ParameterOverrides");
  if (given.empty() && !q.Has("ParameterOverrides")) return std::nullopt;
  return given;
}

Status InstancesInputOf(const QueryRequest& q, StackInstancesInput* in) {
  MS_RETURN_IF_ERROR(Required(q, "StackSetName", "stackSetName", &in->name));
  in->accounts = q.List("Accounts");
  in->targets = TargetsOf(q);
  in->regions = q.List("Regions");
  in->overrides = OverridesOf(q);
  in->retain_stacks = q.Flag("RetainStacks");
  in->operation_id = q.Get("OperationId");
  return PreferencesOf(q, &in->preferences);
}

// The distinct regions of a set's instances, in the order they were added.
std::vector<std::string> RegionsOf(const std::vector<StackInstanceRecord>& instances) {
  std::vector<std::string> out;
  for (const StackInstanceRecord& i : instances) {
    if (std::find(out.begin(), out.end(), i.region) == out.end()) out.push_back(i.region);
  }
  return out;
}

// Filters.member.N.Name / .Values (one value each).
std::vector<std::pair<std::string, std::string>> FiltersOf(const QueryRequest& q) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : q.Structs("Filters")) {
    auto name = f.find("Name");
    auto values = f.find("Values");
    out.emplace_back(name == f.end() ? "" : name->second, values == f.end() ? "" : values->second);
  }
  return out;
}

// A listing's page: the request's NextToken page of `items` (ids[i] is
// items[i]'s token) as <Summaries><member>...</member></Summaries> (an empty
// element for no item, as AWS answers), then NextToken when more remain.
template <typename T, typename WriteMember>
Status WriteSummariesPage(const QueryRequest& q, XmlWriter& w, const std::vector<T>& items,
                          const std::vector<std::string>& ids, WriteMember write_member) {
  size_t begin = 0, end = 0;
  MS_RETURN_IF_ERROR(PageOf(q, ids, &begin, &end));
  if (begin == end) {
    w.Empty("Summaries");
  } else {
    w.Open("Summaries");
    for (size_t i = begin; i < end; ++i) {
      w.Open("member");
      write_member(w, items[i]);
      w.Close();
    }
    w.Close();
  }
  if (end < ids.size()) w.Text("NextToken", ids[end]);
  return Status::OK();
}

}  // namespace

Status CfnApi::CreateStackSet(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  CreateStackSetInput in;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &in.name));
  MS_RETURN_IF_ERROR(CheckTemplateBody(c.service.context(), c.q, max_template_body_, &in.template_body));
  in.description = c.q.Get("Description");
  in.parameters = ParametersOf(c.q);
  in.capabilities = c.q.List("Capabilities");
  in.tags = TagsOf(c.q);
  in.permission_model = c.q.Get("PermissionModel");
  in.administration_role_arn = c.q.Get("AdministrationRoleARN");
  in.execution_role_name = c.q.Get("ExecutionRoleName");
  if (c.q.Has("AutoDeployment.Enabled")) in.auto_deployment_enabled = c.q.Flag("AutoDeployment.Enabled");
  in.retain_stacks_on_account_removal = c.q.Flag("AutoDeployment.RetainStacksOnAccountRemoval");
  std::string id;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).Create(in, &id));
  c.w.Text("StackSetId", id);
  return Status::OK();
}

Status CfnApi::UpdateStackSet(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  UpdateStackSetInput in;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &in.name));
  in.use_previous_template = c.q.Flag("UsePreviousTemplate");
  if (!in.use_previous_template || !c.q.Get("TemplateBody").empty() || !c.q.Get("TemplateURL").empty()) {
    MS_RETURN_IF_ERROR(CheckTemplateBody(c.service.context(), c.q, max_template_body_, &in.template_body));
  }
  in.description = c.q.Find("Description");
  in.parameters = ParametersOf(c.q);
  in.capabilities = c.q.List("Capabilities");
  in.tags = GivenTagsOf(c.q);
  in.administration_role_arn = c.q.Get("AdministrationRoleARN");
  in.execution_role_name = c.q.Get("ExecutionRoleName");
  in.targets = TargetsOf(c.q);
  in.accounts = c.q.List("Accounts");
  in.regions = c.q.List("Regions");
  in.operation_id = c.q.Get("OperationId");
  MS_RETURN_IF_ERROR(PreferencesOf(c.q, &in.preferences));
  std::string set_id, op_id;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).Update(in, &set_id, &op_id));
  runner_->EnqueueStackSetOperation(set_id, op_id);
  c.w.Text("OperationId", op_id);
  return Status::OK();
}

Status CfnApi::DeleteStackSet(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  return StackSetService(c.service.context()).Delete(name);
}

Status CfnApi::DescribeStackSet(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  StackSetRecord set;
  std::vector<StackInstanceRecord> instances;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).ListInstances(name, &set, &instances));
  c.w.Open("StackSet");
  WriteStackSet(c.w, set, RegionsOf(instances));
  c.w.Close();
  return Status::OK();
}

Status CfnApi::ListStackSets(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  const std::string status = c.q.Get("Status");
  std::vector<StackSetRecord> all;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).List(&all));
  std::vector<const StackSetRecord*> listed;
  std::vector<std::string> ids;
  for (const StackSetRecord& s : all) {
    if (!status.empty() && status != (s.deleted ? "DELETED" : "ACTIVE")) continue;
    listed.push_back(&s);
    ids.push_back(s.id);
  }
  return WriteSummariesPage(c.q, c.w, listed, ids, [](XmlWriter& w, const auto* x) { WriteStackSetSummary(w, *x); });
}

Status CfnApi::CreateStackInstances(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  StackInstancesInput in;
  MS_RETURN_IF_ERROR(InstancesInputOf(c.q, &in));
  std::string set_id, op_id;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).CreateInstances(in, &set_id, &op_id));
  runner_->EnqueueStackSetOperation(set_id, op_id);
  c.w.Text("OperationId", op_id);
  return Status::OK();
}

Status CfnApi::UpdateStackInstances(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  StackInstancesInput in;
  MS_RETURN_IF_ERROR(InstancesInputOf(c.q, &in));
  std::string set_id, op_id;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).UpdateInstances(in, &set_id, &op_id));
  runner_->EnqueueStackSetOperation(set_id, op_id);
  c.w.Text("OperationId", op_id);
  return Status::OK();
}

Status CfnApi::DeleteStackInstances(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  StackInstancesInput in;
  MS_RETURN_IF_ERROR(InstancesInputOf(c.q, &in));
  // RetainStacks is required (the service model); botocore checks it before sending.
  std::string ignored;
  MS_RETURN_IF_ERROR(Required(c.q, "RetainStacks", "retainStacks", &ignored));
  std::string set_id, op_id;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).DeleteInstances(in, &set_id, &op_id));
  runner_->EnqueueStackSetOperation(set_id, op_id);
  c.w.Text("OperationId", op_id);
  return Status::OK();
}

Status CfnApi::DescribeStackInstance(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name, account, region;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  MS_RETURN_IF_ERROR(Required(c.q, "StackInstanceAccount", "stackInstanceAccount", &account));
  MS_RETURN_IF_ERROR(Required(c.q, "StackInstanceRegion", "stackInstanceRegion", &region));
  StackSetRecord set;
  StackInstanceRecord instance;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).DescribeInstance(name, account, region, &set, &instance));
  c.w.Open("StackInstance");
  WriteStackInstance(c.w, instance);
  c.w.Close();
  return Status::OK();
}

Status CfnApi::ListStackInstances(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  const std::string account = c.q.Get("StackInstanceAccount");
  const std::string region = c.q.Get("StackInstanceRegion");
  const auto filters = FiltersOf(c.q);
  StackSetRecord set;
  std::vector<StackInstanceRecord> instances;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).ListInstances(name, &set, &instances));
  std::vector<const StackInstanceRecord*> listed;
  std::vector<std::string> ids;
  for (const StackInstanceRecord& i : instances) {
    if (!account.empty() && i.account != account) continue;
    if (!region.empty() && i.region != region) continue;
    bool keep = true;
    for (const auto& [filter, value] : filters) {
      if (filter == "DETAILED_STATUS") keep = keep && i.detailed_status == value;
      if (filter == "LAST_OPERATION_ID") keep = keep && i.last_operation_id == value;
      if (filter == "DRIFT_STATUS") keep = keep && i.drift_status == value;
    }
    if (!keep) continue;
    listed.push_back(&i);
    ids.push_back(i.account + "/" + i.region);
  }
  return WriteSummariesPage(c.q, c.w, listed, ids,
                            [](XmlWriter& w, const auto* x) { WriteStackInstanceSummary(w, *x); });
}

Status CfnApi::DescribeStackSetOperation(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name, op_id;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  MS_RETURN_IF_ERROR(Required(c.q, "OperationId", "operationId", &op_id));
  StackSetRecord set;
  StackSetOperationRecord op;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).DescribeOperation(name, op_id, &set, &op));
  c.w.Open("StackSetOperation");
  WriteStackSetOperation(c.w, set, op);
  c.w.Close();
  return Status::OK();
}

Status CfnApi::ListStackSetOperations(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  StackSetRecord set;
  std::vector<StackSetOperationRecord> ops;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).ListOperations(name, &set, &ops));
  std::reverse(ops.begin(), ops.end());  // newest first (unverified: AWS's order)
  std::vector<std::string> ids;
  for (const StackSetOperationRecord& op : ops) ids.push_back(op.id);
  return WriteSummariesPage(c.q, c.w, ops, ids,
                            [](XmlWriter& w, const auto& x) { WriteStackSetOperationSummary(w, x); });
}

Status CfnApi::ListStackSetOperationResults(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name, op_id;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  MS_RETURN_IF_ERROR(Required(c.q, "OperationId", "operationId", &op_id));
  StackSetRecord set;
  StackSetOperationRecord op;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).DescribeOperation(name, op_id, &set, &op));
  std::string status_filter;
  for (const auto& [filter, value] : FiltersOf(c.q)) {
    if (filter == "OPERATION_RESULT_STATUS") status_filter = value;
  }
  std::vector<const OperationResult*> listed;
  std::vector<std::string> ids;
  for (const OperationResult& r : op.results) {
    if (!status_filter.empty() && r.status != status_filter) continue;
    listed.push_back(&r);
    ids.push_back(r.account + "/" + r.region);
  }
  return WriteSummariesPage(c.q, c.w, listed, ids, [](XmlWriter& w, const auto* x) { WriteOperationResult(w, *x); });
}

Status CfnApi::DetectStackSetDrift(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  OperationPreferences preferences;
  MS_RETURN_IF_ERROR(PreferencesOf(c.q, &preferences));
  std::string set_id, op_id;
  MS_RETURN_IF_ERROR(
      StackSetService(c.service.context()).DetectDrift(name, preferences, c.q.Get("OperationId"), &set_id, &op_id));
  runner_->EnqueueStackSetOperation(set_id, op_id);
  c.w.Text("OperationId", op_id);
  return Status::OK();
}

Status CfnApi::ImportStacksToStackSet(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  ImportStacksInput in;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &in.name));
  in.stack_ids = c.q.List("StackIds");
  in.stack_ids_url = c.q.Get("StackIdsUrl");
  in.organizational_unit_ids = c.q.List("OrganizationalUnitIds");
  in.operation_id = c.q.Get("OperationId");
  MS_RETURN_IF_ERROR(PreferencesOf(c.q, &in.preferences));
  std::string set_id, op_id;
  MS_RETURN_IF_ERROR(StackSetService(c.service.context()).ImportStacks(in, &set_id, &op_id));
  runner_->EnqueueStackSetOperation(set_id, op_id);
  c.w.Text("OperationId", op_id);
  return Status::OK();
}

Status CfnApi::StopStackSetOperation(Call& c) {
  MS_RETURN_IF_ERROR(CheckCallAs(c.q.Get("CallAs")));
  std::string name, op_id;
  MS_RETURN_IF_ERROR(Required(c.q, "StackSetName", "stackSetName", &name));
  MS_RETURN_IF_ERROR(Required(c.q, "OperationId", "operationId", &op_id));
  return StackSetService(c.service.context()).StopOperation(name, op_id);
}

}  // namespace ms::server
