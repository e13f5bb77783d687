// Executing an IMPORT change set (stack/change_set_imports.h): the stack's
// resources to import are associated with it, nothing is created, updated or
// deleted in the world.
//
// The events, as AWS's (an import's event log, PSCloudFormation's docs):
//   stack     IMPORT_IN_PROGRESS  User Initiated          (StartImport)
//   resource  IMPORT_IN_PROGRESS  Resource import started.
//   resource  IMPORT_COMPLETE     Resource import completed.
//   stack     IMPORT_COMPLETE
// Each resource is read again through its provider's `read` hook (it may be
// gone since the change set was made): its attributes are the read's, its
// properties the template's as planned, its physical ID the identifier's.
// A read that fails makes the resource IMPORT_FAILED with the read's reason,
// and the import rolls back: IMPORT_ROLLBACK_IN_PROGRESS ("The following
// resource(s) failed to import: [X]. ", by analogy with a create's), each
// resource the import recorded IMPORT_ROLLBACK_IN_PROGRESS ->
// IMPORT_ROLLBACK_COMPLETE and then removed from the stack (the resource in
// the world stays as it is), the stack's template and parameters back to
// what they were, IMPORT_ROLLBACK_COMPLETE.
//
// The steps run synchronously, one checkpoint each, so a run broken off
// resumes: an IMPORT_IN_PROGRESS stack skips what is IMPORT_COMPLETE, an
// IMPORT_ROLLBACK_IN_PROGRESS one un-associates what is left.
// Not done: AWS's "Apply stack-level tags to imported resource if
// applicable." update after an import of a stack with tags.
#pragma once

#include <string>

#include "base/status.h"
#include "records/stack.h"
#include "stack/operation.h"
#include "store/change_set_table.h"

namespace ms {

// The statuses RunImportOperation runs.
bool IsImportOperationStatus(StackStatus s);

// ExecuteChangeSet's synchronous half: the stack (in review, or stable) goes
// IMPORT_IN_PROGRESS "User Initiated" with the change set's template and
// parameters; the caller runs the operation.
Status StartImport(const OperationContext& ctx, const ChangeSetRecord& cs, const std::string& client_request_token,
                   StackRecord stack);

Status RunImportOperation(const OperationContext& ctx, const std::string& stack_id);

}  // namespace ms
