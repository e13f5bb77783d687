// RunStackSetOperation: the asynchronous half of a stack set operation. It
// visits the operation's accounts and regions in the waves the preferences
// give (operation_plan.h) and, for each, runs the instance's stack through
// StackService on this thread: a create (StackSet-<set>-<uuid> in the
// instance's region and account, the set's template, parameters with the
// instance's overrides, capabilities and tags), an update, or a delete
// (none with RetainStacks: the stack stays, the instance goes).
//
// Each result and instance is committed as it changes (PENDING, RUNNING,
// then SUCCEEDED, FAILED or CANCELLED), so a restart finds where the
// operation was. Stopped by ctx.interrupt (a server shutting down), it
// leaves the operation RUNNING; the next start runs it again from the
// store: finished results stay finished, a result whose stack is still in
// progress waits for the crash recovery that resumes that stack, then
// reads its outcome.
//
// A failed instance's reason is AWS's: "ResourceLogicalId:<id>,
// ResourceType:<type>, ResourceStatusReason:<reason>." of its first failed
// resource (a StackSets console export, AWS's own text); one that fails
// before any resource does, the stack's synchronous error.
#pragma once

#include <string>

#include "base/status.h"
#include "stack/operation.h"

namespace ms {

// Reason of an account and region not attempted because a region's failures
// exceeded its tolerance (AWS's: ListStackSetOperationResults in the AWS CLI
// reference's example and StackSets console exports).
inline constexpr const char* kToleranceExceededReason = "Cancelled since failure tolerance has exceeded";
// Reason of one not attempted because StopStackSetOperation stopped the
// operation (unverified: moonstack's wording).
inline constexpr const char* kOperationStoppedReason = "Cancelled since the operation was stopped";

// Runs the operation to SUCCEEDED, FAILED or STOPPED. ctx.db is this
// thread's connection; the instances' regions and accounts are their own.
Status RunStackSetOperation(const OperationContext& ctx, const std::string& stack_set_id,
                            const std::string& operation_id);

}  // namespace ms
