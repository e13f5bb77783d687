// The stack set tables (store migrations 15 and 16, store/schema.cc): a
// set per row (`data` JSON, its template included: at most 51,200 bytes),
// its instances by (set, account, region), its operations in creation
// order, and each operation's results a row apiece by (set, operation,
// account, region), so that a result's change writes one small row however
// many accounts and regions the operation has. Every write is one
// statement (or a few) the caller may group in a transaction; a set and its
// operation are committed before the operation is handed to a thread, so a
// restart finds both.
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

// The operation and every one of its results (an operation being started).
Status SaveStackSetOperation(Database* db, const StackSetOperationRecord& op);
// The operation's own row only (its status, reason, end), not its results.
Status SaveStackSetOperationRow(Database* db, const StackSetOperationRecord& op);
// One result of `op` (its set and ID): one row written.
Status SaveStackSetOperationResult(Database* db, const StackSetOperationRecord& op, const OperationResult& r);
// With `with_results` false, out->results stays empty (a status read).
Status LoadStackSetOperation(Database* db, const std::string& set_id, const std::string& op_id,
                             StackSetOperationRecord* out, bool* found, bool with_results = true);
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
