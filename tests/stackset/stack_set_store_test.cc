// The stack set tables (engine/stackset/stack_set_store.h): an operation's
// results a row each (migration 16), written one at a time, and a schema-15
// state file's result lists moved out into those rows.
#include "stackset/stack_set_store.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "store/schema.h"
#include "test_util.h"

namespace {

ms::StackSetOperationRecord Operation(const std::string& id, std::vector<ms::OperationResult> results) {
  ms::StackSetOperationRecord op;
  op.id = id;
  op.stack_set_id = "queues:1";
  op.action = "CREATE";
  op.results = std::move(results);
  return op;
}

// Each result as "account/region STATUS reason".
std::vector<std::string> Results(const ms::StackSetOperationRecord& op) {
  std::vector<std::string> out;
  for (const ms::OperationResult& r : op.results) {
    out.push_back(r.account + "/" + r.region + " " + r.status + (r.reason.empty() ? "" : " " + r.reason) +
                  (r.organizational_unit_id.empty() ? "" : " " + r.organizational_unit_id));
  }
  return out;
}

int64_t Count(ms::Database* db, const std::string& sql) {
  std::unique_ptr<ms::Statement> st;
  REQUIRE(db->Prepare(sql, &st).ok());
  bool row = false;
  REQUIRE(st->Step(&row).ok());
  REQUIRE(row);
  return st->Int(0);
}

}  // namespace

TEST_CASE("stack set store: a result's change rewrites its own row only", "[store][stackset]") {
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(":memory:", &db).ok());
  ms::StackSetOperationRecord op = Operation("op-1", {{"111111111111", "us-east-1", "PENDING", "", ""},
                                                      {"111111111111", "eu-west-1", "PENDING", "", ""},
                                                      {"222222222222", "us-east-1", "PENDING", "", ""}});
  REQUIRE(ms::SaveStackSetOperation(db.get(), op).ok());
  REQUIRE(
      ms::SaveStackSetOperation(db.get(), Operation("op-2", {{"111111111111", "us-east-1", "PENDING", "", ""}})).ok());

  // The operation's row no longer holds its results.
  CHECK(Count(db.get(), "SELECT COUNT(*) FROM stack_set_operations WHERE data LIKE '%results%'") == 0);
  CHECK(Count(db.get(), "SELECT COUNT(*) FROM stack_set_operation_results") == 4);

  op.results[1].status = "FAILED";
  op.results[1].reason = "boom";
  REQUIRE(ms::SaveStackSetOperationResult(db.get(), op, op.results[1]).ok());
  op.status = "RUNNING";
  REQUIRE(ms::SaveStackSetOperationRow(db.get(), op).ok());

  ms::StackSetOperationRecord loaded;
  bool found = false;
  REQUIRE(ms::LoadStackSetOperation(db.get(), "queues:1", "op-1", &loaded, &found).ok());
  REQUIRE(found);
  CHECK(loaded.status == "RUNNING");
  CHECK(Results(loaded) == std::vector<std::string>{"111111111111/us-east-1 PENDING",
                                                    "111111111111/eu-west-1 FAILED boom",
                                                    "222222222222/us-east-1 PENDING"});
  REQUIRE(ms::LoadStackSetOperation(db.get(), "queues:1", "op-1", &loaded, &found, /*with_results=*/false).ok());
  CHECK(loaded.status == "RUNNING");
  CHECK(loaded.results.empty());

  std::vector<ms::StackSetOperationRecord> all;
  REQUIRE(ms::LoadStackSetOperations(db.get(), "queues:1", &all).ok());
  REQUIRE(all.size() == 2);
  CHECK(all[0].failed_count() == 1);
  CHECK(Results(all[1]) == std::vector<std::string>{"111111111111/us-east-1 PENDING"});

  REQUIRE(ms::DeleteAllStackSets(db.get()).ok());
  CHECK(Count(db.get(), "SELECT COUNT(*) FROM stack_set_operation_results") == 0);
}

TEST_CASE("stack set store: a schema-15 state file's operation results move into rows of their own",
          "[store][stackset]") {
  const std::string path = std::filesystem::temp_directory_path() / "moonstack_store_schema15.db";
  std::filesystem::remove(path);
  {
    std::unique_ptr<ms::Database> db;
    REQUIRE(ms::OpenStore(path, &db).ok());
    REQUIRE(db->Exec(ms::test::kUndoSchema18 + ms::test::kUndoSchema17 + ms::test::kUndoSchema16).ok());
    REQUIRE(db->SetUserVersion(15).ok());
    // An operation as schema 15 wrote it: its results a list in its `data`.
    REQUIRE(db->Exec(R"(INSERT INTO stack_set_operations (stack_set_id, id, active, data) VALUES
        ('queues:1', 'op-1', 0, '{"action":"CREATE","status":"FAILED","created_ms":5,"results":[
          {"account":"123456789012","region":"us-west-2","status":"FAILED","reason":"bad name","ou":""},
          {"account":"123456789012","region":"eu-west-1","status":"CANCELLED","reason":"Cancelled","ou":""},
          {"account":"111111111111","region":"us-east-1","status":"SUCCEEDED","reason":"","ou":"ou-moon-workloads"}]}'),
        ('queues:1', 'op-2', 1, '{"action":"DELETE","status":"RUNNING","results":[]}');)")
                .ok());
  }
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  int version = 0;
  REQUIRE(db->UserVersion(&version).ok());
  CHECK(version == 18);
  ms::StackSetOperationRecord op;
  bool found = false;
  REQUIRE(ms::LoadStackSetOperation(db.get(), "queues:1", "op-1", &op, &found).ok());
  REQUIRE(found);
  CHECK(op.status == "FAILED");
  CHECK(op.created_ms == 5);
  CHECK(Results(op) == std::vector<std::string>{"123456789012/us-west-2 FAILED bad name",
                                                "123456789012/eu-west-1 CANCELLED Cancelled",
                                                "111111111111/us-east-1 SUCCEEDED ou-moon-workloads"});
  CHECK(Count(db.get(), "SELECT COUNT(*) FROM stack_set_operations WHERE data LIKE '%results%'") == 0);
  REQUIRE(ms::LoadStackSetOperation(db.get(), "queues:1", "op-2", &op, &found).ok());
  REQUIRE(found);
  CHECK(op.status == "RUNNING");
  CHECK(op.results.empty());
  std::filesystem::remove(path);
}
