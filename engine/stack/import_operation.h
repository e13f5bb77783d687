// Executing an IMPORT change set (stack/change_set_imports.h): the stack's
// resources to import are associated with it, nothing is created or deleted
// in the world (a tagged stack's tags are applied to them, below).
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
// resource(s) failed to import: [X]. ", by analogy with a create's: AWS's
// wording is unverified), each resource the import recorded
// IMPORT_ROLLBACK_IN_PROGRESS -> IMPORT_ROLLBACK_COMPLETE and then removed
// from the stack (the resource in the world stays as it is), the stack's
// template and parameters back to what they were, IMPORT_ROLLBACK_COMPLETE.
//
// Once all are imported, a stack with tags has them applied to each
// imported resource of a taggable type (the registry's tagging.taggable) by
// its update hook, as AWS does after every import (an import's event log:
// "test-import-stack", CDKToolkit's bootstrap):
//   resource  UPDATE_IN_PROGRESS  Apply stack-level tags to imported resource if applicable.
//   resource  UPDATE_COMPLETE
// The hook gets "Tags" changed, ctx.stack_tags and an empty
// ctx.old_stack_tags. One that fails is UPDATE_FAILED and the import rolls
// back ("The following resource(s) failed to update: [X]. ", unverified).
//
// --disable-rollback (ExecuteChangeSet's DisableRollback) does not keep a
// failed import: AWS's StackStatus has no IMPORT_FAILED to stop in (only
// IMPORT_IN_PROGRESS, IMPORT_COMPLETE and IMPORT_ROLLBACK_*), so a failed
// import always rolls back.
//
// The steps run synchronously, one checkpoint each, so a run broken off
// resumes: an IMPORT_IN_PROGRESS stack reads again what is still
// IMPORT_IN_PROGRESS, skips what is imported, calls the tag update again for
// what is UPDATE_IN_PROGRESS (re-applying tags changes nothing); an
// IMPORT_ROLLBACK_IN_PROGRESS one un-associates what is left. What the
// `read` and update hooks (and a scenario's handlers) write goes to the
// stack's provider log, under the import's own operation number.
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
