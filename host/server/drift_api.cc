// Drift detection's actions in the service model's shapes (botocore
// cloudformation 2010-05-15): DetectStackDrift {StackName, LogicalResourceIds}
// -> {StackDriftDetectionId}; DetectStackResourceDrift {StackName,
// LogicalResourceId} -> {StackResourceDrift}; DescribeStackDriftDetectionStatus
// {StackDriftDetectionId} -> {StackId, StackDriftDetectionId, StackDriftStatus,
// DetectionStatus, DetectionStatusReason, DriftedStackResourceCount,
// Timestamp}; DescribeStackResourceDrifts {StackName,
// StackResourceDriftStatusFilters, NextToken, MaxResults} ->
// {StackResourceDrifts, NextToken}. The logic is engine/stack/drift_detection.
#include <algorithm>

#include "run/clock.h"
#include "server/cfn_api.h"
#include "stack/drift_detection.h"

namespace ms::server {

namespace {

// StackResourceDrift (a member of StackResourceDrifts, or the element itself).
void WriteResourceDrift(XmlWriter& w, const char* element, const ResourceDrift& d) {
  w.Open(element);
  w.Text("StackId", d.stack_id);
  w.Text("LogicalResourceId", d.logical_id);
  w.Optional("PhysicalResourceId", d.physical_id);
  w.Text("ResourceType", d.type);
  w.Optional("ExpectedProperties", d.expected_properties);
  w.Optional("ActualProperties", d.actual_properties);
  if (!d.differences.empty()) {
    w.Open("PropertyDifferences");
    for (const PropertyDifference& p : d.differences) {
      w.Open("member");
      w.Text("PropertyPath", p.path);
      w.Text("ExpectedValue", p.expected_value);
      w.Text("ActualValue", p.actual_value);
      w.Text("DifferenceType", p.difference_type);
      w.Close();
    }
    w.Close();
  }
  w.Text("StackResourceDriftStatus", d.status);
  w.Text("Timestamp", FormatTimestamp(d.timestamp_ms));
  w.Optional("DriftStatusReason", d.reason);
  w.Close();
}

}  // namespace

Status CfnApi::DetectStackDrift(Call& c) {
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &name));
  std::string id;
  MS_RETURN_IF_ERROR(DriftDetection(c.service).DetectStack(name, c.q.List("LogicalResourceIds"), &id));
  c.w.Text("StackDriftDetectionId", id);
  return Status::OK();
}

Status CfnApi::DetectStackResourceDrift(Call& c) {
  std::string name, logical_id;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &name));
  MS_RETURN_IF_ERROR(Required(c.q, "LogicalResourceId", "logicalResourceId", &logical_id));
  ResourceDrift d;
  MS_RETURN_IF_ERROR(DriftDetection(c.service).DetectResource(name, logical_id, &d));
  WriteResourceDrift(c.w, "StackResourceDrift", d);
  return Status::OK();
}

Status CfnApi::DescribeStackDriftDetectionStatus(Call& c) {
  std::string id;
  MS_RETURN_IF_ERROR(Required(c.q, "StackDriftDetectionId", "stackDriftDetectionId", &id));
  StackDriftDetection det;
  MS_RETURN_IF_ERROR(DriftDetection(c.service).Detection(id, &det));
  c.w.Text("StackId", det.stack_id);
  c.w.Text("StackDriftDetectionId", det.id);
  c.w.Text("StackDriftStatus", det.stack_drift_status);
  c.w.Text("DetectionStatus", det.detection_status);
  c.w.Optional("DetectionStatusReason", det.reason);
  // Null until the detection is complete (the API reference).
  if (det.detection_status != "DETECTION_IN_PROGRESS") {
    c.w.Text("DriftedStackResourceCount", std::to_string(det.drifted_count));
  }
  c.w.Text("Timestamp", FormatTimestamp(det.timestamp_ms));
  return Status::OK();
}

Status CfnApi::DescribeStackResourceDrifts(Call& c) {
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &name));
  size_t page = 100;  // MaxResults: 1 to 100
  if (c.q.Has("MaxResults")) {
    const std::string max = c.q.Get("MaxResults");
    int n = 0;
    try { n = std::stoi(max); } catch (...) { n = 0; }
    if (n < 1 || n > 100) {
      return Status::Validation("1 validation error detected: Value '" + max +
                                "' at 'maxResults' failed to satisfy constraint: Member must have value " +
                                (n > 100 ? "less than or equal to 100" : "greater than or equal to 1"));
    }
    page = static_cast<size_t>(n);
  }
  std::vector<ResourceDrift> drifts;
  MS_RETURN_IF_ERROR(
      DriftDetection(c.service).ResourceDrifts(name, c.q.List("StackResourceDriftStatusFilters"), &drifts));
  // NextToken: the logical ID of the page's first drift.
  size_t begin = 0;
  if (c.q.Has("NextToken")) {
    const std::string token = c.q.Get("NextToken");
    auto it = std::find_if(drifts.begin(), drifts.end(), [&](const ResourceDrift& d) { return d.logical_id == token; });
    if (it == drifts.end()) return Status::Validation("Invalid NextToken: " + token);
    begin = static_cast<size_t>(it - drifts.begin());
  }
  const size_t end = std::min(drifts.size(), begin + page);
  if (begin == end) {
    c.w.Empty("StackResourceDrifts");
  } else {
    c.w.Open("StackResourceDrifts");
    for (size_t i = begin; i < end; ++i) WriteResourceDrift(c.w, "member", drifts[i]);
    c.w.Close();
  }
  if (end < drifts.size()) c.w.Text("NextToken", drifts[end].logical_id);
  return Status::OK();
}

}  // namespace ms::server
