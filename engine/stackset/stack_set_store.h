// The stack set tables (store migration 15, store/schema.cc): a set per
// row (`data` JSON, its template included: at most 51,200 bytes), its
// instances by (set, account, region), its operations in creation order
// with the results of each. Every write is one statement the caller may
// group in a transaction; a set and its operation are committed before the
// operation is handed to a thread, so a restart finds both.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "records/stack_scope.h"
#include "stackset/stack_set.h"
#include "store/database.h"

namespace ms {

Status SaveStackSet(Database* db, const StackSetRecord& set);
// The set of `scope` named `name_or_id` (a live one by name; by StackSetId
// or ARN, a deleted one too). *found false when there is none.
Status FindStackSet(Database* db, const StackScope& scope, const std::string& name_or_id, StackSetRecord* out,
                    bool* found);
// The set with this StackSetId, whatever its scope (an operation's thread).
Status LoadStackSetById(Database* db, const std::string& id, StackSetRecord* out, bool* found);
// The sets of `scope`, deleted ones too, in creation order.
Status ListStackSets(Database* db, const StackScope& scope, std::vector<StackSetRecord>* out);

Status SaveStackInstance(Database* db, const StackInstanceRecord& instance);
Status DeleteStackInstance(Database* db, const std::string& set_id, const std::string& account,
                           const std::string& region);
// The set's instances in the order they were added.
Status LoadStackInstances(Database* db, const std::string& set_id, std::vector<StackInstanceRecord>* out);

Status SaveStackSetOperation(Database* db, const StackSetOperationRecord& op);
Status LoadStackSetOperation(Database* db, const std::string& set_id, const std::string& op_id,
                             StackSetOperationRecord* out, bool* found);
// The set's operations in creation order.
Status LoadStackSetOperations(Database* db, const std::string& set_id, std::vector<StackSetOperationRecord>* out);
// The set's operation that is QUEUED, RUNNING or STOPPING ("" when none).
Status ActiveStackSetOperation(Database* db, const std::string& set_id, std::string* op_id);
// Every QUEUED, RUNNING or STOPPING operation of every set, as (set ID, operation ID),
// oldest first: what a restart resumes.
Status UnfinishedStackSetOperations(Database* db, std::vector<std::pair<std::string, std::string>>* out);

// /moonstack/reset: every set, instance and operation forgotten.
Status DeleteAllStackSets(Database* db);

}  // namespace ms
