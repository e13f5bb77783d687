// Fn::GetStackOutput's lookup: another stack's output, read from the store.
//
// The referenced stack is named by name (its active stack) or by stack ID.
// Each lookup function reads a stack once (its outputs are kept for the
// rest of the operation or plan that made it): a weak reference is read when
// the stack is created or updated, not followed afterwards.
#pragma once

#include "eval/environment.h"
#include "records/stack_scope.h"

namespace ms {

class Database;

// Errors, as the stack's status reason (the run-time phase Fn::ImportValue's
// missing export has): "Stack with id X does not exist. Rollback requested
// by user." and "Output Y does not exist in stack X. Rollback requested by
// user." (ours: AWS's page shows no texts; the first is DescribeStacks').
// A name is looked up in the lookup's region (`own`'s, or the one the
// function names) and own's account; a stack ID names its stack anywhere.
StackOutputLookup StoreStackOutputs(Database* db, const StackScope& own);

}  // namespace ms
