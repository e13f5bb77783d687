#include "server/stack_set_xml.h"

#include "run/clock.h"

namespace ms::server {
namespace {

void WriteSetParameters(XmlWriter& w, const char* tag, const std::vector<StackSetParameter>& params) {
  if (params.empty()) {
    w.Empty(tag);
    return;
  }
  w.Open(tag);
  for (const StackSetParameter& p : params) {
    w.Open("member");
    w.Text("ParameterKey", p.key);
    w.Text("ParameterValue", p.value);
    w.Close();
  }
  w.Close();
}

// StackSetDriftDetectionDetails: before any detection NOT_CHECKED and every
// count 0 (the shape as the AWS CLI reference's describe-stack-set example is
// remembered); after one, what DetectStackSetDrift's operation left.
void WriteDriftDetectionDetails(XmlWriter& w, const StackSetDriftDetails& d) {
  w.Open("StackSetDriftDetectionDetails");
  w.Text("DriftStatus", d.drift_status);
  w.Optional("DriftDetectionStatus", d.detection_status);
  if (d.last_check_ms != 0) w.Text("LastDriftCheckTimestamp", FormatTimestamp(d.last_check_ms));
  w.Text("TotalStackInstancesCount", std::to_string(d.total));
  w.Text("DriftedStackInstancesCount", std::to_string(d.drifted));
  w.Text("InSyncStackInstancesCount", std::to_string(d.in_sync));
  w.Text("InProgressStackInstancesCount", std::to_string(d.in_progress));
  w.Text("FailedStackInstancesCount", std::to_string(d.failed));
  w.Close();
}

void WriteInstanceDrift(XmlWriter& w, const StackInstanceRecord& i) {
  w.Text("DriftStatus", i.drift_status);
  if (i.last_drift_check_ms != 0) w.Text("LastDriftCheckTimestamp", FormatTimestamp(i.last_drift_check_ms));
}

void WriteAutoDeployment(XmlWriter& w, const StackSetRecord& s) {
  if (s.permission_model != kServiceManaged) return;
  w.Open("AutoDeployment");
  w.Bool("Enabled", s.auto_deployment_enabled);
  if (s.auto_deployment_enabled) w.Bool("RetainStacksOnAccountRemoval", s.retain_stacks_on_account_removal);
  w.Close();
}

void WriteManagedExecution(XmlWriter& w) {
  w.Open("ManagedExecution");
  w.Bool("Active", false);
  w.Close();
}

void WriteInstanceStatus(XmlWriter& w, const StackInstanceRecord& i) {
  w.Open("StackInstanceStatus");
  w.Text("DetailedStatus", i.detailed_status);
  w.Close();
}

void WritePreferences(XmlWriter& w, const OperationPreferences& p) {
  w.Open("OperationPreferences");
  w.Optional("RegionConcurrencyType", p.region_concurrency_type);
  if (p.region_order.empty()) {
    w.Empty("RegionOrder");
  } else {
    w.Members("RegionOrder", p.region_order);
  }
  if (p.failure_tolerance_count) w.Text("FailureToleranceCount", std::to_string(*p.failure_tolerance_count));
  if (p.failure_tolerance_percentage) {
    w.Text("FailureTolerancePercentage", std::to_string(*p.failure_tolerance_percentage));
  }
  if (p.max_concurrent_count) w.Text("MaxConcurrentCount", std::to_string(*p.max_concurrent_count));
  if (p.max_concurrent_percentage) w.Text("MaxConcurrentPercentage", std::to_string(*p.max_concurrent_percentage));
  w.Optional("ConcurrencyMode", p.concurrency_mode);
  w.Close();
}

void WriteStatusDetails(XmlWriter& w, const StackSetOperationRecord& op) {
  if (op.active()) return;
  w.Open("StatusDetails");
  w.Text("FailedStackInstancesCount", std::to_string(op.failed_count()));
  w.Close();
}

}  // namespace

void WriteStackSet(XmlWriter& w, const StackSetRecord& s, const std::vector<std::string>& regions) {
  w.Text("StackSetName", s.name);
  w.Text("StackSetId", s.id);
  w.Optional("Description", s.description);
  w.Text("Status", s.deleted ? "DELETED" : "ACTIVE");
  w.Text("TemplateBody", s.template_body);
  WriteSetParameters(w, "Parameters", s.parameters);
  if (s.capabilities.empty()) {
    w.Empty("Capabilities");
  } else {
    w.Members("Capabilities", s.capabilities);
  }
  if (s.tags.empty()) {
    w.Empty("Tags");
  } else {
    w.Open("Tags");
    for (const StackTag& t : s.tags) {
      w.Open("member");
      w.Text("Key", t.key);
      w.Text("Value", t.value);
      w.Close();
    }
    w.Close();
  }
  w.Text("StackSetARN", s.arn);
  w.Optional("AdministrationRoleARN", s.administration_role_arn);
  w.Optional("ExecutionRoleName", s.execution_role_name);
  WriteDriftDetectionDetails(w, s.drift);
  WriteAutoDeployment(w, s);
  w.Text("PermissionModel", s.permission_model);
  if (s.permission_model == kServiceManaged) {
    if (s.organizational_unit_ids.empty()) {
      w.Empty("OrganizationalUnitIds");
    } else {
      w.Members("OrganizationalUnitIds", s.organizational_unit_ids);
    }
  }
  WriteManagedExecution(w);
  if (regions.empty()) {
    w.Empty("Regions");
  } else {
    w.Members("Regions", regions);
  }
}

void WriteStackSetSummary(XmlWriter& w, const StackSetRecord& s) {
  w.Text("StackSetName", s.name);
  w.Text("StackSetId", s.id);
  w.Optional("Description", s.description);
  w.Text("Status", s.deleted ? "DELETED" : "ACTIVE");
  WriteAutoDeployment(w, s);
  w.Text("PermissionModel", s.permission_model);
  w.Text("DriftStatus", s.drift.drift_status);
  if (s.drift.last_check_ms != 0) w.Text("LastDriftCheckTimestamp", FormatTimestamp(s.drift.last_check_ms));
  WriteManagedExecution(w);
}

void WriteStackInstance(XmlWriter& w, const StackInstanceRecord& i) {
  w.Text("StackSetId", i.stack_set_id);
  w.Text("Region", i.region);
  w.Text("Account", i.account);
  w.Optional("StackId", i.stack_id);
  WriteSetParameters(w, "ParameterOverrides", i.parameter_overrides);
  w.Text("Status", i.status);
  WriteInstanceStatus(w, i);
  w.Optional("StatusReason", i.reason);
  w.Optional("OrganizationalUnitId", i.organizational_unit_id);
  WriteInstanceDrift(w, i);
  w.Optional("LastOperationId", i.last_operation_id);
}

void WriteStackInstanceSummary(XmlWriter& w, const StackInstanceRecord& i) {
  w.Text("StackSetId", i.stack_set_id);
  w.Text("Region", i.region);
  w.Text("Account", i.account);
  w.Optional("StackId", i.stack_id);
  w.Text("Status", i.status);
  w.Optional("StatusReason", i.reason);
  WriteInstanceStatus(w, i);
  w.Optional("OrganizationalUnitId", i.organizational_unit_id);
  WriteInstanceDrift(w, i);
  w.Optional("LastOperationId", i.last_operation_id);
}

void WriteStackSetOperation(XmlWriter& w, const StackSetRecord& set, const StackSetOperationRecord& op) {
  w.Text("OperationId", op.id);
  w.Text("StackSetId", op.stack_set_id);
  w.Text("Action", op.action);
  w.Text("Status", op.status);
  WritePreferences(w, op.preferences);
  w.Bool("RetainStacks", op.retain_stacks);
  w.Optional("AdministrationRoleARN", op.administration_role_arn);
  w.Optional("ExecutionRoleName", op.execution_role_name);
  w.Text("CreationTimestamp", FormatTimestamp(op.created_ms));
  if (op.ended_ms != 0) w.Text("EndTimestamp", FormatTimestamp(op.ended_ms));
  if (set.permission_model == kServiceManaged && !op.targets.empty()) {
    w.Open("DeploymentTargets");
    if (!op.targets.accounts.empty()) w.Members("Accounts", op.targets.accounts);
    if (!op.targets.organizational_unit_ids.empty()) {
      w.Members("OrganizationalUnitIds", op.targets.organizational_unit_ids);
    }
    w.Close();
  }
  w.Optional("StatusReason", op.status_reason);
  WriteStatusDetails(w, op);
  if (op.action == "DETECT_DRIFT") WriteDriftDetectionDetails(w, set.drift);
}

void WriteStackSetOperationSummary(XmlWriter& w, const StackSetOperationRecord& op) {
  w.Text("OperationId", op.id);
  w.Text("Action", op.action);
  w.Text("Status", op.status);
  w.Text("CreationTimestamp", FormatTimestamp(op.created_ms));
  if (op.ended_ms != 0) w.Text("EndTimestamp", FormatTimestamp(op.ended_ms));
  w.Optional("StatusReason", op.status_reason);
  WriteStatusDetails(w, op);
  WritePreferences(w, op.preferences);
}

void WriteOperationResult(XmlWriter& w, const OperationResult& r) {
  w.Text("Account", r.account);
  w.Text("Region", r.region);
  w.Text("Status", r.status);
  w.Optional("StatusReason", r.reason);
  // An account that was deployed to without an account gate function, as
  // AWS shows it (the AWS CLI reference's list-stack-set-operation-results
  // example: SKIPPED, "Function not found: ..."; a CANCELLED result has none).
  if (r.status == "SUCCEEDED" || r.status == "FAILED") {
    w.Open("AccountGateResult");
    w.Text("Status", "SKIPPED");
    w.Text("StatusReason", "Function not found: arn:aws:lambda:" + r.region + ":" + r.account +
                               ":function:AWSCloudFormationStackSetAccountGate");
    w.Close();
  }
  w.Optional("OrganizationalUnitId", r.organizational_unit_id);
}

}  // namespace ms::server
