// detect-stack-drift, detect-stack-resource-drift,
// describe-stack-drift-detection-status and describe-stack-resource-drifts,
// as `aws cloudformation` has them (options and JSON shapes). The logic is
// engine/stack/drift_detection.
#include <memory>

#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/io.h"
#include "cli/stack_json.h"
#include "cli/stack_session.h"
#include "stack/drift_detection.h"

namespace ms::cli {
namespace {

struct DriftArgs {
  SessionOptions session;
  std::string output = "json";
  std::string stack_name;
  std::string logical_id;                   // detect-stack-resource-drift
  std::vector<std::string> logical_ids;     // detect-stack-drift --logical-resource-ids
  std::string detection_id;                 // describe-stack-drift-detection-status
  std::vector<std::string> status_filters;  // describe-stack-resource-drifts
};

CLI::App* AddDriftCommand(CLI::App& app, const char* name, const char* help, DriftArgs* a) {
  CLI::App* cmd = app.add_subcommand(name, help);
  AddSessionOptions(cmd, &a->session);
  AddOutputOption(cmd, &a->output);
  return cmd;
}

// StackResourceDrift's JSON.
Json ResourceDriftJson(const ResourceDrift& d) {
  Json j;
  j["StackId"] = d.stack_id;
  j["LogicalResourceId"] = d.logical_id;
  if (!d.physical_id.empty()) j["PhysicalResourceId"] = d.physical_id;
  j["ResourceType"] = d.type;
  if (!d.expected_properties.empty()) j["ExpectedProperties"] = d.expected_properties;
  if (!d.actual_properties.empty()) j["ActualProperties"] = d.actual_properties;
  if (!d.differences.empty()) {
    Json diffs = Json::array();
    for (const PropertyDifference& p : d.differences) {
      diffs.push_back(Json{{"PropertyPath", p.path},
                           {"ExpectedValue", p.expected_value},
                           {"ActualValue", p.actual_value},
                           {"DifferenceType", p.difference_type}});
    }
    j["PropertyDifferences"] = diffs;
  }
  j["StackResourceDriftStatus"] = d.status;
  j["Timestamp"] = CliTimestamp(d.timestamp_ms);
  if (!d.reason.empty()) j["DriftStatusReason"] = d.reason;
  return j;
}

// Detection writes its results: a writer's session, closed after.
int RunDetectStack(const DriftArgs& a) {
  const char* op = "DetectStackDrift";
  StackSession session;
  Status s = session.Open(a.session);
  std::string id;
  if (s.ok()) s = DriftDetection(session.service()).DetectStack(a.stack_name, a.logical_ids, &id);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return ReportError(op, s);
  Emit(a.output, Json{{"StackDriftDetectionId", id}}, op);
  return 0;
}

int RunDetectResource(const DriftArgs& a) {
  const char* op = "DetectStackResourceDrift";
  StackSession session;
  Status s = session.Open(a.session);
  ResourceDrift d;
  if (s.ok()) s = DriftDetection(session.service()).DetectResource(a.stack_name, a.logical_id, &d);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return ReportError(op, s);
  Emit(a.output, Json{{"StackResourceDrift", ResourceDriftJson(d)}}, op);
  return 0;
}

int RunDescribeStatus(const DriftArgs& a) {
  const char* op = "DescribeStackDriftDetectionStatus";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  StackDriftDetection det;
  if (s.ok()) s = DriftDetection(session.service()).Detection(a.detection_id, &det);
  if (!s.ok()) return ReportError(op, s);
  Json j;
  j["StackId"] = det.stack_id;
  j["StackDriftDetectionId"] = det.id;
  j["StackDriftStatus"] = det.stack_drift_status;
  j["DetectionStatus"] = det.detection_status;
  if (!det.reason.empty()) j["DetectionStatusReason"] = det.reason;
  if (det.detection_status != "DETECTION_IN_PROGRESS") j["DriftedStackResourceCount"] = det.drifted_count;
  j["Timestamp"] = CliTimestamp(det.timestamp_ms);
  Emit(a.output, j, op);
  return 0;
}

int RunDescribeDrifts(const DriftArgs& a) {
  const char* op = "DescribeStackResourceDrifts";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  std::vector<ResourceDrift> drifts;
  if (s.ok()) s = DriftDetection(session.service()).ResourceDrifts(a.stack_name, a.status_filters, &drifts);
  if (!s.ok()) return ReportError(op, s);
  Json list = Json::array();
  for (const ResourceDrift& d : drifts) list.push_back(ResourceDriftJson(d));
  Emit(a.output, Json{{"StackResourceDrifts", list}}, op);
  return 0;
}

}  // namespace

void AddDriftCommands(CLI::App& app, int* exit_code) {
  auto detect = std::make_shared<DriftArgs>();
  CLI::App* d = AddDriftCommand(app, "detect-stack-drift", "Detect drift on a stack's resources", detect.get());
  d->add_option("--stack-name", detect->stack_name, "A name or stack ID")->required();
  d->add_option("--logical-resource-ids", detect->logical_ids, "Only these resources");
  d->callback([detect, exit_code] { *exit_code = RunDetectStack(*detect); });

  auto one = std::make_shared<DriftArgs>();
  CLI::App* r = AddDriftCommand(app, "detect-stack-resource-drift", "Detect drift on one resource", one.get());
  r->add_option("--stack-name", one->stack_name, "A name or stack ID")->required();
  r->add_option("--logical-resource-id", one->logical_id, "The resource's logical ID")->required();
  r->callback([one, exit_code] { *exit_code = RunDetectResource(*one); });

  auto status = std::make_shared<DriftArgs>();
  CLI::App* st = AddDriftCommand(app, "describe-stack-drift-detection-status",
                                 "The status of a drift detection", status.get());
  st->add_option("--stack-drift-detection-id", status->detection_id, "detect-stack-drift's ID")->required();
  st->callback([status, exit_code] { *exit_code = RunDescribeStatus(*status); });

  auto drifts = std::make_shared<DriftArgs>();
  CLI::App* ds = AddDriftCommand(app, "describe-stack-resource-drifts", "A stack's resources' drifts", drifts.get());
  ds->add_option("--stack-name", drifts->stack_name, "A name or stack ID")->required();
  ds->add_option("--stack-resource-drift-status-filters", drifts->status_filters,
                 "Only these statuses: IN_SYNC, MODIFIED, DELETED, NOT_CHECKED");
  ds->callback([drifts, exit_code] { *exit_code = RunDescribeDrifts(*drifts); });
}

}  // namespace ms::cli
