// DescribeEvents: a stack's events grouped by operation (records/
// stack_operation.h), each with its operation's type and its event type,
// the pre-deployment validation findings among them (early_validation.h).
//
// EventType: VALIDATION_ERROR for a finding, PROVISIONING_ERROR for a
// *_FAILED status, STACK_EVENT for the stack's own, PROGRESS for a
// resource's (what AWS answers; its model's enumeration says
// PROGRESS_EVENT). A change set's operation shows as one STACK_EVENT whose
// OperationStatus is the change set's outcome, then its findings.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "records/stack.h"
#include "stack/change_sets.h"
#include "stack/stack_service.h"

namespace ms {

struct OperationEvent {
  StackEvent event;
  std::string operation_type;    // CREATE_STACK, ..., CREATE_CHANGESET
  std::string event_type;        // STACK_EVENT, PROGRESS, PROVISIONING_ERROR, VALIDATION_ERROR
  std::string operation_status;  // STACK_EVENT only: IN_PROGRESS, SUCCEEDED, FAILED
  int64_t start_ms = 0;          // a change set's STACK_EVENT: when it was made (and ended)
  int64_t end_ms = 0;
};

struct OperationEventQuery {
  std::string stack_name;       // a stack's name or ID: every operation's events
  std::string change_set_name;  // a change set (ARN, or name with stack_name): its operation's
  std::string operation_id;     // one operation's (with or without stack_name)
  bool failed_only = false;     // Filters.FailedEvents: the errors and failed operations only
};

// The events the query names, newest first. An operation ID without a stack
// is looked up in the store's index of operations (any operation of a
// stack not yet pruned, a change set's too).
Status DescribeOperationEvents(StackService& stacks, ChangeSetService& change_sets, const OperationEventQuery& q,
                               std::vector<OperationEvent>* out);

}  // namespace ms
