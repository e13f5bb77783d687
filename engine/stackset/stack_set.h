// The records of a StackSet, as the store keeps them and the Query API shows
// them: the set (a template, parameters, capabilities, tags and a permission
// model), its stack instances (one per account and region, each a real stack
// named StackSet-<set>-<uuid>) and its operations (CREATE, UPDATE, DELETE of
// instances, each with a result per account and region).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "records/stack.h"

namespace ms {

// A parameter of the set, or an instance's override of one.
struct StackSetParameter {
  std::string key;
  std::string value;
};

// StackSetOperationPreferences; an absent member is "not given" (AWS's
// defaults: SEQUENTIAL, FailureToleranceCount 0, MaxConcurrentCount 1).
struct OperationPreferences {
  std::string region_concurrency_type;  // "", SEQUENTIAL, PARALLEL
  std::vector<std::string> region_order;
  std::optional<int64_t> failure_tolerance_count;
  std::optional<int64_t> failure_tolerance_percentage;
  std::optional<int64_t> max_concurrent_count;
  std::optional<int64_t> max_concurrent_percentage;
  std::string concurrency_mode;  // "", STRICT_FAILURE_TOLERANCE, SOFT_FAILURE_TOLERANCE
};

// DeploymentTargets (SERVICE_MANAGED sets): organizational units of the
// simulated organization (stackset/organization.h), or accounts of it.
struct DeploymentTargets {
  std::vector<std::string> accounts;
  std::vector<std::string> organizational_unit_ids;
  bool empty() const { return accounts.empty() && organizational_unit_ids.empty(); }
};

inline constexpr const char* kSelfManaged = "SELF_MANAGED";
inline constexpr const char* kServiceManaged = "SERVICE_MANAGED";

// StackSetDriftDetectionDetails as the set's last DetectStackSetDrift left
// them (AWS's values before any: NOT_CHECKED, no detection status, zeros).
struct StackSetDriftDetails {
  std::string drift_status = "NOT_CHECKED";  // DRIFTED, IN_SYNC, NOT_CHECKED
  std::string detection_status;              // COMPLETED, FAILED, PARTIAL_SUCCESS, IN_PROGRESS, STOPPED
  int64_t last_check_ms = 0;                 // 0: never checked
  int64_t total = 0;
  int64_t drifted = 0;
  int64_t in_sync = 0;
  int64_t in_progress = 0;
  int64_t failed = 0;
};

struct StackSetRecord {
  std::string id;   // <name>:<uuid> (StackSetId)
  std::string arn;  // arn:aws:cloudformation:<region>:<account>:stackset/<name>:<uuid>
  std::string name;
  std::string region;   // where the set was created (its administrator's region)
  std::string account;  // the administrator account
  std::string description;
  bool deleted = false;  // DeleteStackSet: Status DELETED, the name free again
  std::string template_body;
  std::vector<StackSetParameter> parameters;
  std::vector<std::string> capabilities;
  std::vector<StackTag> tags;
  std::string permission_model = kSelfManaged;
  std::string administration_role_arn;  // SELF_MANAGED
  std::string execution_role_name;      // SELF_MANAGED
  bool auto_deployment_given = false;   // SERVICE_MANAGED: AutoDeployment
  bool auto_deployment_enabled = false;
  bool retain_stacks_on_account_removal = false;
  std::vector<std::string> organizational_unit_ids;  // the OUs its instances were deployed to
  int64_t created_ms = 0;
  StackSetDriftDetails drift;
};

struct StackInstanceRecord {
  std::string stack_set_id;
  std::string account;
  std::string region;
  std::string stack_id;  // empty until its stack is created
  // The name of the stack an operation's create makes, and that operation:
  // committed before the create starts, so that an operation resumed after
  // a crash finds the stack it made (by this name in the instance's region
  // and account) though its ID was never recorded, and knows a failed
  // create for its own (recorded FAILED, not retried).
  std::string stack_name;
  std::string created_by_operation;
  // The stack update an operation starts, likewise: that operation and the
  // stack's newest event before the update, committed before the update
  // starts, so that an operation resumed after a crash knows its update ran
  // (the stack has newer events) and takes the stack's outcome instead of
  // updating again: a failed update is recorded FAILED, not retried.
  std::string updated_by_operation;
  std::string event_before_update;
  std::vector<StackSetParameter> parameter_overrides;
  std::string status = "OUTDATED";          // CURRENT, OUTDATED, INOPERABLE
  std::string detailed_status = "PENDING";  // StackInstanceStatus.DetailedStatus
  std::string reason;                       // StatusReason
  std::string organizational_unit_id;       // SERVICE_MANAGED
  std::string last_operation_id;
  std::string drift_status = "NOT_CHECKED";  // DRIFTED, IN_SYNC, NOT_CHECKED: its stack's, as last detected
  int64_t last_drift_check_ms = 0;           // 0: never checked
};

// One account and region of an operation (ListStackSetOperationResults).
struct OperationResult {
  std::string account;
  std::string region;
  std::string status = "PENDING";  // PENDING, RUNNING, SUCCEEDED, FAILED, CANCELLED
  std::string reason;
  std::string organizational_unit_id;
};

struct StackSetOperationRecord {
  std::string id;  // OperationId
  std::string stack_set_id;
  std::string action;            // CREATE, UPDATE, DELETE, DETECT_DRIFT
  std::string status = "QUEUED";  // QUEUED, RUNNING, SUCCEEDED, FAILED, STOPPING, STOPPED
  std::string status_reason;
  OperationPreferences preferences;
  bool retain_stacks = false;  // DELETE
  std::string administration_role_arn;
  std::string execution_role_name;
  DeploymentTargets targets;  // SERVICE_MANAGED
  int64_t created_ms = 0;
  int64_t ended_ms = 0;  // 0: not ended
  std::vector<OperationResult> results;  // in the order the request named them

  bool active() const { return status == "QUEUED" || status == "RUNNING" || status == "STOPPING"; }
  int failed_count() const {
    int n = 0;
    for (const OperationResult& r : results) n += r.status == "FAILED" ? 1 : 0;
    return n;
  }
};

}  // namespace ms
