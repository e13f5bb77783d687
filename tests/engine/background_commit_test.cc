// CommitBatchInBackground: a checkpoint taken now, written on the
// connection's writer thread while the caller goes on.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include "store/database.h"
#include "store/schema.h"
#include "store/stack_tables.h"
#include "store/world_table.h"
#include "world/world.h"

namespace {

namespace fs = std::filesystem;

ms::WorldRecord Queue(const std::string& name) {
  ms::Value v = ms::Value::MakeMap();
  v.set("QueueName", ms::Value::String(name));
  return ms::WorldRecord(std::move(v));
}

// The world as the state file holds it, read through a connection of its own.
std::vector<std::string> StoredQueues(const std::string& path) {
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  ms::World w;
  REQUIRE(ms::LoadWorld(db.get(), &w).ok());
  return w.Ids("sqs.queue");
}

}  // namespace

TEST_CASE("background commit: the checkpoint holds the world as it was when taken", "[store]") {
  const fs::path dir = fs::temp_directory_path() / "moonstack_background_commit";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "state.db").string();
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  ms::World world;

  SECTION("a change made after it returns waits for the next commit") {
    world.Put("sqs.queue", "a", Queue("a"));
    world.Put("sqs.queue", "b", Queue("b"));
    ms::StoreBatch batch;
    ms::Status begun;
    std::shared_ptr<ms::PendingWrite> write = ms::CommitBatchInBackground(db.get(), &world, &batch, &begun);
    REQUIRE(begun.ok());
    REQUIRE(write != nullptr);
    world.Put("sqs.queue", "c", Queue("c"));  // as a call sent right after would
    REQUIRE(write->Wait().ok());
    CHECK(StoredQueues(path) == std::vector<std::string>{"a", "b"});
    REQUIRE(ms::CommitBatch(db.get(), &world, &batch).ok());
    CHECK(StoredQueues(path) == std::vector<std::string>{"a", "b", "c"});
  }

  SECTION("a write that fails is rolled back, and its world changes go into the next commit") {
    world.Put("sqs.queue", "a", Queue("a"));
    ms::StoreBatch batch;
    ms::StackEvent e;  // of a stack the store does not hold: the write fails
    e.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/nowhere/1";
    e.event_id = "e1";
    batch.events.push_back(e);
    ms::Status begun;
    auto write = ms::CommitBatchInBackground(db.get(), &world, &batch, &begun);
    REQUIRE(write != nullptr);
    CHECK(batch.empty());  // taken
    const ms::Status written = write->Wait();
    CHECK(written.message() == "store: rows for stack " + e.stack_id + ", which is not stored");
    CHECK(StoredQueues(path).empty());
    ms::StoreBatch next;
    REQUIRE(ms::CommitBatch(db.get(), &world, &next).ok());
    CHECK(StoredQueues(path) == std::vector<std::string>{"a"});
  }
}

TEST_CASE("background transaction: the connection's next use waits for the write", "[store]") {
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::Database::Open(":memory:", &db).ok());
  REQUIRE(db->Exec("CREATE TABLE t (x INTEGER)").ok());
  ms::Status begun;
  auto write = db->TransactionInBackground(
      [] { return ms::Status::OK(); },
      [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a slow write
        return db->Exec("INSERT INTO t VALUES (1)");
      },
      nullptr, &begun);
  REQUIRE(write != nullptr);
  std::unique_ptr<ms::Statement> st;
  REQUIRE(db->Prepare("SELECT COUNT(*) FROM t", &st).ok());  // no Wait first
  bool row = false;
  REQUIRE(st->Step(&row).ok());
  CHECK(st->Int(0) == 1);
  CHECK(write->Wait().ok());
}

TEST_CASE("background transaction: a failing first part writes nothing and starts no write", "[store]") {
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::Database::Open(":memory:", &db).ok());
  REQUIRE(db->Exec("CREATE TABLE t (x INTEGER)").ok());
  ms::Status begun;
  bool finished = false;
  auto write = db->TransactionInBackground(
      [&] {
        REQUIRE(db->Exec("INSERT INTO t VALUES (1)").ok());
        return ms::Status::Internal("no");
      },
      [&] {
        finished = true;
        return ms::Status::OK();
      },
      nullptr, &begun);
  CHECK(write == nullptr);
  CHECK(begun.message() == "no");
  CHECK_FALSE(finished);
  std::unique_ptr<ms::Statement> st;
  REQUIRE(db->Prepare("SELECT COUNT(*) FROM t", &st).ok());
  bool row = false;
  REQUIRE(st->Step(&row).ok());
  CHECK(st->Int(0) == 0);
}
