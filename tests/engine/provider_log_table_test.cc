// The provider log's table (store/provider_log_table.h): lines appended with
// a checkpoint, read back oldest first, by resource, and a stack's log
// bounded to its last operations.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "stack/provider_log_format.h"
#include "store/provider_log_table.h"
#include "store/schema.h"
#include "store/stack_tables.h"

namespace {

const char* kStack = "arn:aws:cloudformation:us-east-1:1:stack/s/1";

ms::ProviderLogRecord Line(int64_t operation, const std::string& logical_id, const std::string& message) {
  ms::ProviderLogRecord l;
  l.stack_id = kStack;
  l.stack_name = "s";
  l.operation = operation;
  l.timestamp_ms = 4102444800000 + operation;
  l.logical_id = logical_id;
  l.hook = "create";
  l.level = ms::LogLevel::kWarn;
  l.message = message;
  return l;
}

std::vector<std::string> Messages(ms::Database* db, const std::string& logical_id = "") {
  std::vector<ms::ProviderLogRecord> lines;
  REQUIRE(ms::LoadProviderLog(db, kStack, logical_id, &lines).ok());
  std::vector<std::string> out;
  for (const ms::ProviderLogRecord& l : lines) out.push_back(std::to_string(l.operation) + " " + l.message);
  return out;
}

struct Store {
  std::unique_ptr<ms::Database> db;
  Store() {
    REQUIRE(ms::OpenStore(":memory:", &db).ok());
    ms::StackRecord s;
    s.id = kStack;
    s.name = "s";
    s.status = ms::StackStatus::kCreateInProgress;
    ms::StoreBatch batch;
    batch.stacks.push_back(s);
    REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  }
  void Commit(std::vector<ms::ProviderLogRecord> lines) {
    ms::StoreBatch batch;
    batch.logs = std::move(lines);
    REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  }
};

}  // namespace

TEST_CASE("provider log table: lines read back oldest first with their fields, by resource", "[store][logs]") {
  Store store;
  int64_t next = 0;
  REQUIRE(ms::NextProviderLogOperation(store.db.get(), kStack, &next).ok());
  CHECK(next == 1);
  store.Commit({Line(1, "A", "a1"), Line(1, "B", "b1")});
  store.Commit({Line(1, "A", "a2")});
  CHECK(Messages(store.db.get()) == std::vector<std::string>{"1 a1", "1 b1", "1 a2"});
  CHECK(Messages(store.db.get(), "A") == std::vector<std::string>{"1 a1", "1 a2"});
  std::vector<ms::ProviderLogRecord> lines;
  REQUIRE(ms::LoadProviderLog(store.db.get(), kStack, "B", &lines).ok());
  REQUIRE(lines.size() == 1);
  CHECK(ms::FormatProviderLogLine(lines[0], false) == "2100-01-01T00:00:00.001Z s B create WARN b1");
  REQUIRE(ms::NextProviderLogOperation(store.db.get(), kStack, &next).ok());
  CHECK(next == 2);
}

TEST_CASE("provider log table: a stack keeps its last 10 operations' lines", "[store][logs]") {
  Store store;
  for (int64_t op = 1; op <= 12; ++op) store.Commit({Line(op, "A", "x"), Line(op, "A", "y")});
  std::vector<std::string> expected;
  for (int64_t op = 3; op <= 12; ++op) {
    expected.push_back(std::to_string(op) + " x");
    expected.push_back(std::to_string(op) + " y");
  }
  CHECK(Messages(store.db.get()) == expected);
}
