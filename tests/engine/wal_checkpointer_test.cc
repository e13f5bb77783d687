// WalCheckpointer: a writer's log reaches the database file while the
// writer's connection stays open (so a command's close has little left).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include "store/database.h"
#include "store/schema.h"
#include "store/wal_checkpointer.h"
#include "store/world_table.h"
#include "world/world.h"

namespace {

namespace fs = std::filesystem;

// Records in the world table of the database FILE alone (its log left
// behind), read from a copy.
size_t RecordsInFile(const std::string& path) {
  const std::string copy = path + ".copy";
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(copy + suffix);
  fs::copy_file(path, copy);
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(copy, &db).ok());  // the schema too, when the file lacks it
  ms::World w;
  REQUIRE(ms::LoadWorld(db.get(), &w).ok());
  return w.size();
}

void Write(ms::Database* db, int n) {
  ms::World w;
  for (int i = 0; i < n; ++i) {
    w.Put("sqs.queue", "q" + std::to_string(i), ms::WorldRecord(ms::Value::MakeMap()));
    REQUIRE(ms::SaveWorld(db, &w).ok());  // a commit each
  }
}

}  // namespace

TEST_CASE("wal checkpointer: the log reaches the database file while the writer is open", "[store]") {
  const fs::path dir = fs::temp_directory_path() / "moonstack_wal_checkpointer";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "state.db").string();
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  REQUIRE(db->SetAutoCheckpointPages(16384).ok());  // as a CLI writer: SQLite itself copies nothing yet

  SECTION("without it the file lacks what was committed") {
    Write(db.get(), 20);
    CHECK(RecordsInFile(path) == 0);
  }
  SECTION("with it the file has every record soon after") {
    ms::WalCheckpointer checkpointer(path, 10);
    Write(db.get(), 20);
    const int before = checkpointer.runs();
    for (int i = 0; i < 200 && checkpointer.runs() < before + 2; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(checkpointer.runs() >= before + 2);  // one run began after the last commit
    checkpointer.Stop();
    CHECK(RecordsInFile(path) == 20);
  }
  SECTION("stopped at once, it never opened the file and stops promptly") {
    const auto start = std::chrono::steady_clock::now();
    { ms::WalCheckpointer checkpointer(path, 60000); }
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  }
}
