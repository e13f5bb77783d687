// The store's index of operations (schema 18): which stack an operation ID
// is of, written with the stack's row and a change set's, filled by the
// migration from the IDs events and change sets already carry, and pruned
// with the stack (DescribeEvents by OperationId alone, stack/operation_events.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>

#include "store/change_set_table.h"
#include "store/database.h"
#include "store/deleted_stacks.h"
#include "store/schema.h"
#include "store/stack_tables.h"
#include "test_util.h"

namespace ms {
namespace {

const char* kStackId = "arn:aws:cloudformation:us-east-1:123456789012:stack/ops/8a3f4b7e-0000-4000-8000-000000000001";

// The stack `op_id` is of, or "" when the index has none.
std::string StackOf(Database* db, const std::string& op_id) {
  std::string stack_id;
  bool found = false;
  REQUIRE(FindOperationStack(db, op_id, &stack_id, &found).ok());
  return found ? stack_id : "";
}

// The stack in its operation `op_id`, with one event of it.
void Save(Database* db, const std::string& op_id, StackStatus status, int64_t now_ms = 0) {
  StoreBatch batch;
  StackRecord s;
  s.id = kStackId;
  s.name = "ops";
  s.status = status;
  s.operation_id = op_id;
  if (status == StackStatus::kDeleteComplete) s.deleted_ms = now_ms;
  batch.stacks.push_back(s);
  StackEvent e;
  e.event_id = op_id + "-event";
  e.stack_id = kStackId;
  e.stack_name = "ops";
  e.logical_id = "ops";
  e.status = StackStatusName(status);
  e.operation_id = op_id;
  batch.events.push_back(e);
  REQUIRE(CommitBatch(db, nullptr, &batch).ok());
}

TEST_CASE("operations index: each operation of a stack is found by its ID and the older ones too", "[store]") {
  const std::string path = (std::filesystem::temp_directory_path() / "moonstack_operations_index.db").string();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  std::unique_ptr<Database> db;
  REQUIRE(OpenStore(path, &db).ok());
  Save(db.get(), "op-create", StackStatus::kCreateInProgress);
  Save(db.get(), "op-create", StackStatus::kCreateComplete);
  Save(db.get(), "op-update", StackStatus::kUpdateInProgress);
  ChangeSetRecord cs;
  cs.id = "arn:aws:cloudformation:us-east-1:123456789012:changeSet/c/8a3f4b7e-0000-4000-8000-000000000002";
  cs.stack_id = kStackId;
  cs.name = "c";
  cs.operation_id = "op-change-set";
  REQUIRE(SaveChangeSet(db.get(), cs).ok());
  CHECK(StackOf(db.get(), "op-create") == kStackId);  // no longer the stack's operation
  CHECK(StackOf(db.get(), "op-update") == kStackId);
  CHECK(StackOf(db.get(), "op-change-set") == kStackId);
  CHECK(StackOf(db.get(), "op-unknown").empty());

  SECTION("a schema-17 state's operations are indexed from its events and change sets") {
    REQUIRE(db->Exec(test::kUndoSchema18).ok());
    REQUIRE(db->SetUserVersion(17).ok());
    db.reset();
    REQUIRE(OpenStore(path, &db).ok());
    int version = 0;
    REQUIRE(db->UserVersion(&version).ok());
    CHECK(version == 18);
    CHECK(StackOf(db.get(), "op-create") == kStackId);
    CHECK(StackOf(db.get(), "op-update") == kStackId);
    CHECK(StackOf(db.get(), "op-change-set") == kStackId);
  }

  SECTION("a deleted stack's operations go when it is pruned, 90 days on") {
    const int64_t deleted_ms = 1795343287123;
    Save(db.get(), "op-delete", StackStatus::kDeleteComplete, deleted_ms);
    CHECK(StackOf(db.get(), "op-create") == kStackId);  // a deleted stack is still described
    REQUIRE(PruneDeletedStacks(db.get(), deleted_ms + kDeletedStackRetentionMs).ok());
    CHECK(StackOf(db.get(), "op-create").empty());
    CHECK(StackOf(db.get(), "op-delete").empty());
  }
}

}  // namespace
}  // namespace ms
