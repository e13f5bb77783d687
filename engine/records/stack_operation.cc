#include "records/stack_operation.h"

namespace ms {

const char* OperationStartedBy(std::optional<StackStatus> from, StackStatus to) {
  using S = StackStatus;
  switch (to) {
    case S::kReviewInProgress:
      return "CREATE_CHANGESET";
    case S::kCreateInProgress:
      return "CREATE_STACK";
    case S::kUpdateInProgress:
      return "UPDATE_STACK";
    // An import changes the stack's resources as an update does; the
    // OperationType enumeration has no IMPORT of its own.
    case S::kImportInProgress:
      return "UPDATE_STACK";
    case S::kDeleteInProgress:
      return "DELETE_STACK";
    case S::kRollbackInProgress:
    case S::kImportRollbackInProgress:
      return "ROLLBACK";
    case S::kUpdateRollbackInProgress:
      // ContinueUpdateRollback is the only way out of UPDATE_ROLLBACK_FAILED.
      return from == S::kUpdateRollbackFailed ? "CONTINUE_ROLLBACK" : "ROLLBACK";
    default:
      return nullptr;
  }
}

bool IsUserOperation(const std::string& type) { return type != "ROLLBACK"; }

}  // namespace ms
