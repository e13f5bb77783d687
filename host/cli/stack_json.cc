#include "cli/stack_json.h"

#include <ctime>

#include "run/clock.h"

namespace ms::cli {
namespace {

// DriftInformation: NOT_CHECKED until a drift detection checked it
// (stack/drift_detection.h), then its status and LastCheckTimestamp.
Json Drift(const char* key, const DriftInformation& drift) {
  Json j{{key, drift.status}};
  if (drift.last_check_ms != 0) j["LastCheckTimestamp"] = CliTimestamp(drift.last_check_ms);
  return j;
}

}  // namespace

std::string CliTimestamp(int64_t ms) {
  // FormatTimestamp: "YYYY-MM-DDTHH:MM:SS.mmmZ" -> "...SS.mmm000+00:00"
  std::string t = FormatTimestamp(ms);
  if (!t.empty() && t.back() == 'Z') t.pop_back();
  return t + "000+00:00";
}

Json ParametersJson(const std::vector<StackParameterValue>& params) {
  Json out = Json::array();
  for (const StackParameterValue& p : params) {
    Json pj{{"ParameterKey", p.key}, {"ParameterValue", p.no_echo ? "****" : p.value}};
    if (!p.resolved_value.empty()) pj["ResolvedValue"] = p.resolved_value;
    out.push_back(pj);
  }
  return out;
}

Json TagsJson(const std::vector<StackTag>& tags) {
  Json out = Json::array();
  for (const StackTag& t : tags) out.push_back(Json{{"Key", t.key}, {"Value", t.value}});
  return out;
}

// Stack's and StackSummary's LastOperations, newest first.
static void AddLastOperations(const StackRecord& s, Json* j) {
  if (s.last_operations.empty()) return;
  Json ops = Json::array();
  for (const StackOperation& o : s.last_operations) ops.push_back(Json{{"OperationType", o.type}, {"OperationId", o.id}});
  (*j)["LastOperations"] = ops;
}

Json StackJson(const StackRecord& s, const DriftInformation& drift) {
  Json j;
  j["StackId"] = s.id;
  j["StackName"] = s.name;
  if (!s.description.empty()) j["Description"] = s.description;
  if (!s.parameters.empty()) {
    j["Parameters"] = ParametersJson(s.parameters);
  }
  j["CreationTime"] = CliTimestamp(s.created_ms);
  if (s.deleted_ms != 0) j["DeletionTime"] = CliTimestamp(s.deleted_ms);
  if (s.updated_ms != 0) j["LastUpdatedTime"] = CliTimestamp(s.updated_ms);
  j["RollbackConfiguration"] = Json::object();
  j["StackStatus"] = StackStatusName(s.status);
  if (!s.change_set_id.empty()) j["ChangeSetId"] = s.change_set_id;
  if (!s.reason.empty()) j["StackStatusReason"] = s.reason;
  j["DisableRollback"] = s.disable_rollback();
  j["NotificationARNs"] = s.notification_arns;
  if (!s.capabilities.empty()) j["Capabilities"] = s.capabilities;
  if (!s.outputs.empty()) {
    Json outputs = Json::array();
    for (const StackOutputValue& o : s.outputs) {
      Json oj{{"OutputKey", o.key}, {"OutputValue", o.value}};
      if (!o.description.empty()) oj["Description"] = o.description;
      if (!o.export_name.empty()) oj["ExportName"] = o.export_name;
      outputs.push_back(oj);
    }
    j["Outputs"] = outputs;
  }
  j["Tags"] = TagsJson(s.tags);
  if (s.timeout_in_minutes > 0) j["TimeoutInMinutes"] = s.timeout_in_minutes;
  if (!s.role_arn.empty()) j["RoleARN"] = s.role_arn;
  j["EnableTerminationProtection"] = s.termination_protection;
  if (!s.parent_id.empty()) j["ParentId"] = s.parent_id;  // a nested stack's parent and root
  if (!s.root_id.empty()) j["RootId"] = s.root_id;
  j["DriftInformation"] = Drift("StackDriftStatus", drift);
  AddLastOperations(s, &j);
  return j;
}

Json StackSummaryJson(const StackRecord& s, const DriftInformation& drift) {
  Json j;
  j["StackId"] = s.id;
  j["StackName"] = s.name;
  if (!s.description.empty()) j["TemplateDescription"] = s.description;
  j["CreationTime"] = CliTimestamp(s.created_ms);
  if (s.updated_ms != 0) j["LastUpdatedTime"] = CliTimestamp(s.updated_ms);
  if (s.deleted_ms != 0) j["DeletionTime"] = CliTimestamp(s.deleted_ms);
  j["StackStatus"] = StackStatusName(s.status);
  if (!s.reason.empty()) j["StackStatusReason"] = s.reason;
  if (!s.parent_id.empty()) j["ParentId"] = s.parent_id;  // as in DescribeStacks (StackSummary's members)
  if (!s.root_id.empty()) j["RootId"] = s.root_id;
  j["DriftInformation"] = Drift("StackDriftStatus", drift);
  AddLastOperations(s, &j);
  return j;
}

Json EventJson(const StackEvent& e) {
  Json j;
  j["StackId"] = e.stack_id;
  j["EventId"] = e.event_id;
  j["StackName"] = e.stack_name;
  if (!e.operation_id.empty()) j["OperationId"] = e.operation_id;
  j["LogicalResourceId"] = e.logical_id;
  j["PhysicalResourceId"] = e.physical_id;
  j["ResourceType"] = e.type;
  j["Timestamp"] = CliTimestamp(e.timestamp_ms);
  j["ResourceStatus"] = e.status;
  if (!e.reason.empty()) j["ResourceStatusReason"] = e.reason;
  if (!e.properties.empty()) j["ResourceProperties"] = e.properties;
  if (!e.client_request_token.empty()) j["ClientRequestToken"] = e.client_request_token;
  if (!e.detailed_status.empty()) j["DetailedStatus"] = e.detailed_status;
  return j;
}

Json OperationEventJson(const OperationEvent& o) {
  const StackEvent& e = o.event;
  Json j;
  j["EventId"] = e.event_id;
  j["StackId"] = e.stack_id;
  if (!e.operation_id.empty()) j["OperationId"] = e.operation_id;
  if (!o.operation_type.empty()) j["OperationType"] = o.operation_type;
  if (!o.operation_status.empty()) j["OperationStatus"] = o.operation_status;
  j["EventType"] = o.event_type;
  if (!e.logical_id.empty()) j["LogicalResourceId"] = e.logical_id;
  if (o.event_type != "STACK_EVENT" || !e.physical_id.empty()) j["PhysicalResourceId"] = e.physical_id;
  if (!e.type.empty()) j["ResourceType"] = e.type;
  j["Timestamp"] = CliTimestamp(e.timestamp_ms);
  if (o.start_ms != 0) j["StartTime"] = CliTimestamp(o.start_ms);
  if (o.end_ms != 0) j["EndTime"] = CliTimestamp(o.end_ms);
  if (!e.status.empty()) j["ResourceStatus"] = e.status;
  if (!e.reason.empty() && !e.is_validation_error()) j["ResourceStatusReason"] = e.reason;
  if (!e.properties.empty()) j["ResourceProperties"] = e.properties;
  if (!e.client_request_token.empty()) j["ClientRequestToken"] = e.client_request_token;
  if (!e.detailed_status.empty()) j["DetailedStatus"] = e.detailed_status;
  if (e.is_validation_error()) {
    j["ValidationFailureMode"] = e.validation_mode;
    j["ValidationName"] = e.validation_name;
    j["ValidationStatus"] = "FAILED";
    j["ValidationStatusReason"] = e.reason;
    j["ValidationPath"] = e.validation_path;
  }
  return j;
}

// StackResource and StackResourceDetail: the same members but the timestamp's name.
static Json ResourceJson(const StackRecord& s, const ResourceRecord& r, const char* timestamp,
                         const DriftInformation& drift) {
  Json j;
  j["StackName"] = s.name;
  j["StackId"] = s.id;
  j["LogicalResourceId"] = r.logical_id;
  if (!r.physical_id.empty()) j["PhysicalResourceId"] = r.physical_id;
  j["ResourceType"] = r.type;
  j[timestamp] = CliTimestamp(r.updated_ms);
  j["ResourceStatus"] = ResourceStatusName(r.status);
  if (!r.reason.empty()) j["ResourceStatusReason"] = r.reason;
  j["DriftInformation"] = Drift("StackResourceDriftStatus", drift);
  return j;
}

Json StackResourceJson(const StackRecord& s, const ResourceRecord& r, const DriftInformation& drift) {
  return ResourceJson(s, r, "Timestamp", drift);
}

Json StackResourceSummaryJson(const ResourceRecord& r, const DriftInformation& drift) {
  Json j;
  j["LogicalResourceId"] = r.logical_id;
  if (!r.physical_id.empty()) j["PhysicalResourceId"] = r.physical_id;
  j["ResourceType"] = r.type;
  j["LastUpdatedTimestamp"] = CliTimestamp(r.updated_ms);
  j["ResourceStatus"] = ResourceStatusName(r.status);
  if (!r.reason.empty()) j["ResourceStatusReason"] = r.reason;
  j["DriftInformation"] = Drift("StackResourceDriftStatus", drift);
  return j;
}

Json StackResourceDetailJson(const StackRecord& s, const ResourceRecord& r, const std::string& metadata,
                             const DriftInformation& drift) {
  Json j = ResourceJson(s, r, "LastUpdatedTimestamp", drift);
  if (!metadata.empty()) j["Metadata"] = metadata;
  return j;
}

}  // namespace ms::cli
