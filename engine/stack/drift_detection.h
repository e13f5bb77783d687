// Drift detection, as CloudFormation's DetectStackDrift,
// DetectStackResourceDrift, DescribeStackDriftDetectionStatus and
// DescribeStackResourceDrifts: each resource's provider `read` hook reports
// the resource as it is, compared with the properties it was last deployed
// with (stack/drift_compare.h). A resource whose physical resource is gone is
// DELETED; a type whose provider has no `read` (and a nested stack, which AWS
// checks only when asked directly) is NOT_CHECKED. A read that answers
// cloudformation-cli's NotFound (the Lua host's answer for a read hook
// returning nil) is a gone resource; one that answers no properties is a type
// without a read hook.
//
// A detection runs synchronously inside DetectStackDrift: its record is saved
// DETECTION_COMPLETE (or DETECTION_FAILED when a read failed) before the call
// returns, together with the resources' drifts, in one transaction
// (store/drift_table.h). DescribeStackDriftDetectionStatus then answers as
// AWS's does once its detection has finished.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "records/drift.h"
#include "stack/provider_log_collector.h"
#include "stack/stack_service.h"

namespace ms {

class DriftDetection {
 public:
  explicit DriftDetection(StackService& service) : service_(service) {}

  // DetectStackDrift: checks the stack's resources (only `logical_ids` when
  // not empty) and returns the new StackDriftDetectionId.
  Status DetectStack(const std::string& stack_name, const std::vector<std::string>& logical_ids,
                     std::string* detection_id);
  // DetectStackResourceDrift: checks one resource, saves and returns its drift.
  Status DetectResource(const std::string& stack_name, const std::string& logical_id, ResourceDrift* out);
  // DescribeStackDriftDetectionStatus.
  Status Detection(const std::string& detection_id, StackDriftDetection* out);
  // DescribeStackResourceDrifts: the stack's resources' drifts as last
  // detected, in the stack's resource order, only those whose status is in
  // `status_filters` when it is not empty (IN_SYNC, MODIFIED, DELETED,
  // NOT_CHECKED: AWS's ValidationError for another value).
  Status ResourceDrifts(const std::string& stack_name, const std::vector<std::string>& status_filters,
                        std::vector<ResourceDrift>* out);

  // DescribeStacks' DriftInformation; resources' by logical ID (a resource
  // never checked is not in the map: NOT_CHECKED).
  Status StackInformation(const std::string& stack_id, DriftInformation* out);
  Status ResourceInformation(const std::string& stack_id, std::map<std::string, DriftInformation>* out);

 private:
  Status CheckableStack(const std::string& stack_name, StackRecord* stack, std::vector<ResourceRecord>* resources);
  // `log` gets what the provider's `read` wrote (the provider log, under
  // the detection's own operation number).
  ResourceDrift Check(ProviderSession& session, const StackRecord& stack, const ResourceRecord& r, int64_t now,
                      ProviderLogCollector* log, std::vector<ProviderLogRecord>* lines);
  // The detection's provider log: a collector started on the stack's next
  // operation number, and the commit of what it collected.
  Status StartLog(const StackRecord& stack, ProviderLogCollector* log);
  Status SaveLog(ProviderLogCollector* log, std::vector<ProviderLogRecord>* lines);

  StackService& service_;
};

}  // namespace ms
