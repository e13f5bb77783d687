// UpdateOperation: runs an update-stack (UPDATE_IN_PROGRESS, its cleanup and
// its rollback) to a terminal status. RunOperation
// (operation.h) hands these statuses here; the create/delete executor stays
// in operation.cc.
//
// The walk (seed 000 runs 4-10, 15, 26, 31-38; DESIGN.md "Lifecycle"):
//  - the plan is made again from the stack's previous template and the
//    records as they stand, so a resource already updated before a restart
//    plans as unchanged;
//  - the new template's resources in dependency order, independent ones in
//    parallel: added ones are created; modified ones are evaluated again once
//    what they refer to is done (a Dynamic change may turn out to be none,
//    runs 8 and 10) and updated in place, replaced (a new physical resource
//    first; the old one is kept on the record for cleanup) or, for a Metadata
//    change alone, marked UPDATE_COMPLETE without a provider call (run 26);
//  - cleanup deletes removed resources and replaced resources' old physical
//    resources in the reverse of the OLD template's dependency order; its
//    events leave the resources' statuses as they are; a failing delete is
//    tried 3 times, then the resource is disassociated (run 37).
//  - DeletionPolicy / UpdateReplacePolicy Retain: cleanup (and rollback
//    cleanup, for what the failed update made) skips the delete
//    (DELETE_SKIPPED) and the resource stays in the world;
//  - a failure stops new work and cancels siblings still being created or
//    updated (CREATE_FAILED "Resource creation cancelled" / UPDATE_FAILED
//    "Resource update cancelled", run 34); their hooks are followed silently
//    until they answer, so what they made is rolled back or cleaned up; the
//    stack goes UPDATE_ROLLBACK_IN_PROGRESS at once, and once nothing is
//    outstanding the update rolls
//    back (UPDATE_ROLLBACK_IN_PROGRESS: in-place updates undone with the
//    rollback hook, replacements pointed back, the failed resource assumed
//    unchanged; UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS deletes what the
//    update created), or with --disable-rollback ends UPDATE_FAILED with
//    every record kept.
// After a restart: UPDATE_IN_PROGRESS is planned again against the records
// (done work plans as unchanged; a create hook under way is resumed), the
// cleanups resume; UPDATE_ROLLBACK_IN_PROGRESS cannot resume (what in-place
// updates replaced is kept in memory only) and ends UPDATE_ROLLBACK_FAILED.
// Not yet: continue-update-rollback, providers' leaves_partial_updates,
// the stack's RetainExceptOnCreate flag (only the DeletionPolicy value is).
#pragma once

#include <string>

#include "base/status.h"
#include "stack/operation.h"

namespace ms {

// The statuses RunUpdateOperation runs.
bool IsUpdateOperationStatus(StackStatus s);

Status RunUpdateOperation(const OperationContext& ctx, const std::string& stack_id);

}  // namespace ms
