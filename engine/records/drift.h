// The records of drift detection (DetectStackDrift, DetectStackResourceDrift),
// as the store keeps them and DescribeStackDriftDetectionStatus /
// DescribeStackResourceDrifts show them. Statuses are AWS's spellings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ms {

// PropertyDifference: one property (or element of one) whose actual value is
// not the expected one.
struct PropertyDifference {
  std::string path;            // PropertyPath: "/Tags/0/Value" (JSON Pointer)
  std::string expected_value;  // scalar's text, or JSON text; empty for ADD
  std::string actual_value;    // likewise; empty for REMOVE
  std::string difference_type; // ADD, REMOVE, NOT_EQUAL
};

// StackResourceDrift: a resource's drift as last detected.
struct ResourceDrift {
  std::string stack_id;
  std::string logical_id;
  std::string physical_id;
  std::string type;
  std::string expected_properties;  // JSON text; empty when not checked
  std::string actual_properties;    // JSON text; empty when not checked or deleted
  std::vector<PropertyDifference> differences;
  std::string status;  // StackResourceDriftStatus: IN_SYNC, MODIFIED, DELETED, NOT_CHECKED
  std::string reason;  // DriftStatusReason (NOT_CHECKED: why); may be empty
  int64_t timestamp_ms = 0;
};

// A stack drift detection (DescribeStackDriftDetectionStatus).
struct StackDriftDetection {
  std::string id;  // StackDriftDetectionId: a UUID
  std::string stack_id;
  std::string detection_status;    // DETECTION_IN_PROGRESS, DETECTION_COMPLETE, DETECTION_FAILED
  std::string stack_drift_status;  // DRIFTED, IN_SYNC, UNKNOWN, NOT_CHECKED
  std::string reason;              // DetectionStatusReason; may be empty
  int64_t drifted_count = 0;       // DriftedStackResourceCount
  int64_t timestamp_ms = 0;
};

// The drift fields of the describe calls: a stack's (DescribeStacks'
// DriftInformation) and a resource's (StackResourceDriftInformation).
struct DriftInformation {
  std::string status = "NOT_CHECKED";  // StackDriftStatus / StackResourceDriftStatus
  int64_t last_check_ms = 0;           // 0: never checked (LastCheckTimestamp left out)
};

}  // namespace ms
