#include "server/stack_xml.h"

#include <algorithm>

#include "run/clock.h"
#include "template/template.h"

namespace ms::server {
namespace {

void Timestamp(XmlWriter& w, const char* tag, int64_t ms) { w.Text(tag, FormatTimestamp(ms)); }

// Stack's and StackSummary's LastOperations, newest first (none for a stack
// saved before operations had IDs).
void LastOperations(XmlWriter& w, const StackRecord& s) {
  if (s.last_operations.empty()) return;
  w.Open("LastOperations");
  for (const StackOperation& o : s.last_operations) {
    w.Open("member");
    w.Text("OperationType", o.type);
    w.Text("OperationId", o.id);
    w.Close();
  }
  w.Close();
}

// DriftInformation: NOT_CHECKED until a drift detection checked it
// (stack/drift_detection.h), then its status and LastCheckTimestamp.
void Drift(XmlWriter& w, const char* key, const DriftInformation& drift) {
  w.Open("DriftInformation");
  w.Text(key, drift.status);
  if (drift.last_check_ms != 0) Timestamp(w, "LastCheckTimestamp", drift.last_check_ms);
  w.Close();
}

}  // namespace

void WriteParameters(XmlWriter& w, const std::vector<StackParameterValue>& params) {
  if (params.empty()) return;
  w.Open("Parameters");
  for (const StackParameterValue& p : params) {
    w.Open("member");
    w.Text("ParameterKey", p.key);
    w.Text("ParameterValue", p.no_echo ? "****" : p.value);
    w.Optional("ResolvedValue", p.resolved_value);
    w.Close();
  }
  w.Close();
}

void WriteTags(XmlWriter& w, const std::vector<StackTag>& tags) {
  w.Open("Tags");
  for (const StackTag& t : tags) {
    w.Open("member");
    w.Text("Key", t.key);
    w.Text("Value", t.value);
    w.Close();
  }
  w.Close();
}

void WriteStack(XmlWriter& w, const StackRecord& s, const DriftInformation& drift) {
  w.Open("member");
  w.Text("StackId", s.id);
  w.Text("StackName", s.name);
  w.Optional("Description", s.description);
  WriteParameters(w, s.parameters);
  Timestamp(w, "CreationTime", s.created_ms);
  if (s.deleted_ms != 0) Timestamp(w, "DeletionTime", s.deleted_ms);
  if (s.updated_ms != 0) Timestamp(w, "LastUpdatedTime", s.updated_ms);
  w.Empty("RollbackConfiguration");
  w.Optional("ChangeSetId", s.change_set_id);
  w.Text("StackStatus", StackStatusName(s.status));
  w.Optional("StackStatusReason", s.reason);
  w.Bool("DisableRollback", s.disable_rollback());
  if (s.notification_arns.empty()) {
    w.Empty("NotificationARNs");
  } else {
    w.Members("NotificationARNs", s.notification_arns);
  }
  if (!s.capabilities.empty()) w.Members("Capabilities", s.capabilities);
  if (!s.outputs.empty()) {
    w.Open("Outputs");
    for (const StackOutputValue& o : s.outputs) {
      w.Open("member");
      w.Text("OutputKey", o.key);
      w.Text("OutputValue", o.value);
      w.Optional("Description", o.description);
      w.Optional("ExportName", o.export_name);
      w.Close();
    }
    w.Close();
  }
  if (s.tags.empty()) {
    w.Empty("Tags");
  } else {
    WriteTags(w, s.tags);
  }
  if (s.timeout_in_minutes > 0) w.Text("TimeoutInMinutes", std::to_string(s.timeout_in_minutes));
  w.Optional("RoleARN", s.role_arn);
  w.Bool("EnableTerminationProtection", s.termination_protection);
  w.Optional("ParentId", s.parent_id);  // a nested stack's parent and root
  w.Optional("RootId", s.root_id);
  Drift(w, "StackDriftStatus", drift);
  LastOperations(w, s);
  w.Close();
}

void WriteStackSummary(XmlWriter& w, const StackRecord& s, const DriftInformation& drift) {
  w.Open("member");
  w.Text("StackId", s.id);
  w.Text("StackName", s.name);
  w.Optional("TemplateDescription", s.description);
  Timestamp(w, "CreationTime", s.created_ms);
  if (s.updated_ms != 0) Timestamp(w, "LastUpdatedTime", s.updated_ms);
  if (s.deleted_ms != 0) Timestamp(w, "DeletionTime", s.deleted_ms);
  w.Text("StackStatus", StackStatusName(s.status));
  w.Optional("StackStatusReason", s.reason);
  w.Optional("ParentId", s.parent_id);  // a nested stack's, as in DescribeStacks
  w.Optional("RootId", s.root_id);
  Drift(w, "StackDriftStatus", drift);
  LastOperations(w, s);
  w.Close();
}

void WriteEvent(XmlWriter& w, const StackEvent& e) {
  w.Open("member");
  w.Text("StackId", e.stack_id);
  w.Text("EventId", e.event_id);
  w.Text("StackName", e.stack_name);
  w.Optional("OperationId", e.operation_id);
  w.Text("LogicalResourceId", e.logical_id);
  w.Text("PhysicalResourceId", e.physical_id);
  w.Text("ResourceType", e.type);
  Timestamp(w, "Timestamp", e.timestamp_ms);
  w.Text("ResourceStatus", e.status);
  w.Optional("ResourceStatusReason", e.reason);
  w.Optional("ResourceProperties", e.properties);
  w.Optional("ClientRequestToken", e.client_request_token);
  w.Optional("DetailedStatus", e.detailed_status);
  w.Close();
}

// StackResource and StackResourceDetail: the same members but the
// element's name and the timestamp's.
static void WriteResource(XmlWriter& w, const StackRecord& s, const ResourceRecord& r, const char* element,
                          const char* timestamp, const DriftInformation& drift, const std::string& metadata = "") {
  w.Open(element);
  w.Text("StackName", s.name);
  w.Text("StackId", s.id);
  w.Text("LogicalResourceId", r.logical_id);
  w.Optional("PhysicalResourceId", r.physical_id);
  w.Text("ResourceType", r.type);
  Timestamp(w, timestamp, r.updated_ms);
  w.Text("ResourceStatus", ResourceStatusName(r.status));
  w.Optional("ResourceStatusReason", r.reason);
  w.Optional("Metadata", metadata);
  Drift(w, "StackResourceDriftStatus", drift);
  w.Close();
}

void WriteStackResource(XmlWriter& w, const StackRecord& s, const ResourceRecord& r, const DriftInformation& drift) {
  WriteResource(w, s, r, "member", "Timestamp", drift);
}

void WriteStackResourceDetail(XmlWriter& w, const StackRecord& s, const ResourceRecord& r, const std::string& metadata,
                              const DriftInformation& drift) {
  WriteResource(w, s, r, "StackResourceDetail", "LastUpdatedTimestamp", drift, metadata);
}

void WriteStackResourceSummary(XmlWriter& w, const ResourceRecord& r, const DriftInformation& drift) {
  w.Open("member");
  w.Text("LogicalResourceId", r.logical_id);
  w.Optional("PhysicalResourceId", r.physical_id);
  w.Text("ResourceType", r.type);
  Timestamp(w, "LastUpdatedTimestamp", r.updated_ms);
  w.Text("ResourceStatus", ResourceStatusName(r.status));
  w.Optional("ResourceStatusReason", r.reason);
  Drift(w, "StackResourceDriftStatus", drift);
  w.Close();
}

void WriteTemplateSummaryDetail(XmlWriter& w, const Template& t, const TemplateSummary& summary) {
  if (summary.parameters.empty()) {
    w.Empty("Parameters");
  } else {
    w.Open("Parameters");
    for (const TemplateSummary::Parameter& p : summary.parameters) {
      const ParameterDecl* decl = t.FindParameter(p.key);
      w.Open("member");
      w.Text("ParameterKey", p.key);
      if (p.default_value) w.Text("DefaultValue", p.no_echo ? "****" : *p.default_value);
      if (decl != nullptr) w.Text("ParameterType", decl->type);
      w.Bool("NoEcho", p.no_echo);
      w.Optional("Description", p.description);
      w.Open("ParameterConstraints");
      if (decl != nullptr && !decl->allowed_values.empty()) w.Members("AllowedValues", decl->allowed_values);
      w.Close();
      w.Close();
    }
    w.Close();
  }
  if (summary.description) w.Text("Description", *summary.description);
  if (!summary.capabilities.empty()) {
    w.Members("Capabilities", summary.capabilities);
    w.Text("CapabilitiesReason", summary.capabilities_reason);
  }
  std::vector<std::string> types;  // each once, in document order
  for (const ResourceDecl& r : t.resources) {
    if (std::find(types.begin(), types.end(), r.type) == types.end()) types.push_back(r.type);
  }
  w.Members("ResourceTypes", types);
  // Templates without AWSTemplateFormatVersion are read as the only version there is.
  w.Text("Version", t.format_version.empty() ? "2010-09-09" : t.format_version);
  if (!summary.declared_transforms.empty()) w.Members("DeclaredTransforms", summary.declared_transforms);
}

void WriteTemplateSummary(XmlWriter& w, const TemplateSummary& summary) {
  if (summary.parameters.empty()) {
    w.Empty("Parameters");
  } else {
    w.Open("Parameters");
    for (const TemplateSummary::Parameter& p : summary.parameters) {
      w.Open("member");
      w.Text("ParameterKey", p.key);
      if (p.default_value) w.Text("DefaultValue", p.no_echo ? "****" : *p.default_value);
      w.Bool("NoEcho", p.no_echo);
      w.Optional("Description", p.description);
      w.Close();
    }
    w.Close();
  }
  if (summary.description) w.Text("Description", *summary.description);
  if (!summary.capabilities.empty()) {
    w.Members("Capabilities", summary.capabilities);
    w.Text("CapabilitiesReason", summary.capabilities_reason);
  }
  if (!summary.declared_transforms.empty()) w.Members("DeclaredTransforms", summary.declared_transforms);
}

}  // namespace ms::server
