// A stack's operations (CloudFormation's operation IDs): each create,
// update, delete, rollback, continued rollback and change set creation is
// one operation with a UUID of its own. The stack's events carry it
// (StackEvent::operation_id), CreateStack and UpdateStack answer it, and
// DescribeStacks' LastOperations and DescribeEvents show it.
#pragma once

#include <optional>
#include <string>

#include "records/status.h"

namespace ms {

struct StackOperation {
  std::string type;  // an OperationType: CREATE_STACK, UPDATE_STACK, DELETE_STACK, ROLLBACK, ...
  std::string id;    // a UUID
};

// The OperationType a stack entering `to` from `from` (nullopt: a stack
// being made) begins, or nullptr when `to` goes on with the running one
// (a cleanup phase, a terminal status).
const char* OperationStartedBy(std::optional<StackStatus> from, StackStatus to);

// Whether an operation of `type` is one the stack's user started (not the
// rollback CloudFormation starts itself when an operation fails).
bool IsUserOperation(const std::string& type);

}  // namespace ms
