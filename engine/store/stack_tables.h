// Persistence of stacks, resources, events and exports.
//
// A workflow writes in checkpoints: everything one step changed (stack and
// resource records, new events, the world's changes) goes into a StoreBatch,
// committed in ONE transaction. Because the world is saved in the same
// transaction, the saved state is always consistent: a crash loses the last
// step's provider calls together with their effects on the world, and the
// journal (ResourceRecord::pending_hook/progress) says what to resume.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "records/stack.h"
#include "records/stack_scope.h"
#include "store/database.h"
#include "store/provider_log_table.h"
#include "world/world.h"

namespace ms {

struct StoreBatch {
  std::vector<StackRecord> stacks;       // upserted whole
  // Upserted whole as they are when CommitBatch runs, without a copy: the
  // caller keeps them alive until then (an operation's own records).
  std::vector<const ResourceRecord*> resources;
  std::vector<std::pair<std::string, std::string>> removed_resources;  // (stack_id, logical_id)
  std::vector<StackEvent> events;         // appended: one row per run of one stack's events
  std::vector<ProviderLogRecord> logs;    // appended: one row per run of one stack's and operation's lines

  bool empty() const {
    return stacks.empty() && resources.empty() && removed_resources.empty() && events.empty() && logs.empty();
  }
  void clear() { *this = StoreBatch(); }
};

// Writes the batch and the world's changes in one transaction (world may be
// null). Exports follow the stacks' outputs: a stack's exports are replaced by
// its current outputs' (none once it is DELETE_COMPLETE).
Status CommitBatch(Database* db, World* world, StoreBatch* batch);
// CommitBatch with the write on the connection's writer thread: the write
// lock, the world's changes and the batch (emptied, its resources as they
// are now) are taken before it returns; the rows are written and committed
// beside the caller's next work. Every use of `db` waits for that write;
// PendingWrite::Wait gives its status. On a failed commit the world's changes
// are marked for the next one. Null, the batch kept, when the transaction
// could not begin (*status says why). `world_taken`, when given, runs once
// the world's changes are taken and before the batch's resources are
// serialized: from then on the world may change (the next calls may run)
// while the caller's records must not.
std::shared_ptr<PendingWrite> CommitBatchInBackground(Database* db, World* world, StoreBatch* batch, Status* status,
                                                      const std::function<void()>& world_taken = nullptr);

// What a stack read holds: its templates are the biggest part of a row (MBs
// for a large stack) and describe calls never need them.
enum class StackRowParts { kWithTemplates, kRecordOnly };

// Every stack of every region, deleted ones included, in creation order.
Status LoadStacks(Database* db, std::vector<StackRecord>* out);
// The stacks of one region and account, deleted ones included, in creation order.
Status LoadStacks(Database* db, const StackScope& scope, std::vector<StackRecord>* out,
                  StackRowParts parts = StackRowParts::kWithTemplates);
// The stack with this ID; *found false when there is none.
Status LoadStack(Database* db, const std::string& id, StackRecord* out, bool* found,
                 StackRowParts parts = StackRowParts::kWithTemplates);
// The stack not deleted with this name in `scope`; *found false when there is none.
Status FindActiveStack(Database* db, const StackScope& scope, const std::string& name, StackRecord* out,
                       bool* found, StackRowParts parts = StackRowParts::kWithTemplates);
// The stack a request in `scope` names: by name, the active stack of that
// name there; by stack ID (an ARN), that stack, deleted or not, when it is
// in `scope` (another region's stack ID names nothing, as on AWS).
Status FindStackInScope(Database* db, const StackScope& scope, const std::string& name_or_id, StackRecord* out,
                        bool* found, StackRowParts parts = StackRowParts::kWithTemplates);
Status LoadResources(Database* db, const std::string& stack_id, std::vector<ResourceRecord>* out);
// The index of operations (schema 18): IndexOperation records, once, that
// an operation (a stack operation or a change set's) is the stored stack
// `stack_id`'s; FindOperationStack gives that stack's ID, deleted stacks
// included, *found false when none has it.
Status IndexOperation(Database* db, const std::string& operation_id, const std::string& stack_id);
Status FindOperationStack(Database* db, const std::string& operation_id, std::string* stack_id, bool* found);
// Events of a stack, newest first (as describe-stack-events lists them).
Status LoadEvents(Database* db, const std::string& stack_id, std::vector<StackEvent>* out);

// One page of a listing, read without loading the rest: `from` is where it
// starts (a token an earlier page gave; empty: the beginning), `limit` how
// many; *next is the token of the next page ("": this was the last), and
// *found false when `from` names no position of this stack.
struct PageRequest {
  std::string from;
  size_t limit = 100;
};
struct PageResult {
  std::string next;
  bool found = true;
};
// A stack's resources in the order they were added; the token is the
// logical ID of the page's first resource.
Status LoadResourcePage(Database* db, const std::string& stack_id, const PageRequest& page,
                        std::vector<ResourceRecord>* out, PageResult* result);
// A stack's events, newest first; the token names an events row and a
// position in it ("<row>.<index>"), so events added meanwhile (newer, in
// newer rows) do not shift the pages.
Status LoadEventPage(Database* db, const std::string& stack_id, const PageRequest& page,
                     std::vector<StackEvent>* out, PageResult* result);

// Exports are per region and account, as stacks are: the scope is its
// stack's (schema 14).
struct ExportRecord {
  std::string name, stack_id, value;
};
Status LoadExports(Database* db, const StackScope& scope, std::vector<ExportRecord>* out);  // by name
Status FindExport(Database* db, const StackScope& scope, const std::string& name, ExportRecord* out, bool* found);
// An export's value in `scope` for Fn::ImportValue: false when there is none
// (or the store cannot say).
bool ExportValue(Database* db, const StackScope& scope, const std::string& name, std::string* value);

// JSON forms of the `data` columns (a stack's template_body is not in it:
// it has a column of its own).
Value StackToValue(const StackRecord& s);
Status StackFromValue(const Value& v, StackRecord* out);
// A resource's row leaves out its stack's ID (the row's stack_id column)
// and empty members; ResourceFromValue takes the ID back from the column.
std::string ResourceJson(const ResourceRecord& r);
Status ResourceFromValue(Value v, const std::string& stack_id, ResourceRecord* out);

}  // namespace ms
