// Stacks and exports are per region and account (records/stack_scope.h,
// store schema 14): the same stack name, and export name, once in each; a
// state file from before (schema 13) migrates, its stacks and exports in
// the region and account of their stacks' ARNs.
#include <catch2/catch.hpp>

#include <filesystem>

#include "records/stack_scope.h"
#include "store/schema.h"
#include "store/stack_tables.h"
#include "test_util.h"

namespace {

const ms::StackScope kEast{"us-east-1", "123456789012"};
const ms::StackScope kWest{"us-west-2", "123456789012"};

ms::StackRecord Stack(const ms::StackScope& scope, const std::string& name, const std::string& uuid,
                      const std::string& exported) {
  ms::StackRecord s;
  s.id = "arn:aws:cloudformation:" + scope.region + ":" + scope.account + ":stack/" + name + "/" + uuid;
  s.name = name;
  s.status = ms::StackStatus::kCreateComplete;
  s.outputs.push_back({"Vpc", "vpc-" + uuid, "", exported});
  return s;
}

std::string FoundId(ms::Database* db, const ms::StackScope& scope, const std::string& name) {
  ms::StackRecord s;
  bool found = false;
  REQUIRE(ms::FindActiveStack(db, scope, name, &s, &found).ok());
  return found ? s.id : "";
}

std::vector<std::string> Exports(ms::Database* db, const ms::StackScope& scope) {
  std::vector<ms::ExportRecord> exports;
  REQUIRE(ms::LoadExports(db, scope, &exports).ok());
  std::vector<std::string> out;
  for (const ms::ExportRecord& e : exports) out.push_back(e.name + "=" + e.value);
  return out;
}

}  // namespace

TEST_CASE("regions: the same stack and export names in two regions are two stacks and two exports", "[store]") {
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(":memory:", &db).ok());
  ms::StoreBatch batch;
  batch.stacks = {Stack(kEast, "web", "1", "net-vpc"), Stack(kWest, "web", "2", "net-vpc")};
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  CHECK(FoundId(db.get(), kEast, "web") == "arn:aws:cloudformation:us-east-1:123456789012:stack/web/1");
  CHECK(FoundId(db.get(), kWest, "web") == "arn:aws:cloudformation:us-west-2:123456789012:stack/web/2");
  CHECK(FoundId(db.get(), {"eu-west-1", "123456789012"}, "web").empty());
  CHECK(FoundId(db.get(), {"us-east-1", "210987654321"}, "web").empty());  // another account
  CHECK(Exports(db.get(), kEast) == std::vector<std::string>{"net-vpc=vpc-1"});
  CHECK(Exports(db.get(), kWest) == std::vector<std::string>{"net-vpc=vpc-2"});
  std::string value;
  CHECK(ms::ExportValue(db.get(), kWest, "net-vpc", &value));
  CHECK(value == "vpc-2");
  std::vector<ms::StackRecord> east;
  REQUIRE(ms::LoadStacks(db.get(), kEast, &east).ok());
  REQUIRE(east.size() == 1);
  CHECK(east[0].id == "arn:aws:cloudformation:us-east-1:123456789012:stack/web/1");
  // A stack ID names its stack in its own region only.
  ms::StackRecord s;
  bool found = true;
  REQUIRE(ms::FindStackInScope(db.get(), kEast, "arn:aws:cloudformation:us-west-2:123456789012:stack/web/2", &s,
                               &found).ok());
  CHECK_FALSE(found);
  REQUIRE(ms::FindStackInScope(db.get(), kWest, "arn:aws:cloudformation:us-west-2:123456789012:stack/web/2", &s,
                               &found).ok());
  CHECK(found);

  // Deleting one region's stack drops its exports only.
  ms::StackRecord gone = Stack(kWest, "web", "2", "net-vpc");
  gone.status = ms::StackStatus::kDeleteComplete;
  batch.stacks = {gone};
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  CHECK(Exports(db.get(), kWest).empty());
  CHECK(Exports(db.get(), kEast) == std::vector<std::string>{"net-vpc=vpc-1"});
}

TEST_CASE("regions: a schema-13 state file migrates, each stack and export in its ARN's region", "[store]") {
  const std::string path = std::filesystem::temp_directory_path() / "moonstack_store_schema13.db";
  std::filesystem::remove(path);
  {
    std::unique_ptr<ms::Database> db;
    REQUIRE(ms::OpenStore(path, &db).ok());
    REQUIRE(db->Exec(ms::test::kUndoSchema18 + ms::test::kUndoSchema17 + ms::test::kUndoSchema16 + ms::test::kUndoSchema15 + ms::test::kUndoSchema14).ok());
    REQUIRE(db->SetUserVersion(13).ok());
    // Rows as schema 13 wrote them: stacks without a region, exports by name alone.
    std::unique_ptr<ms::Statement> st;
    REQUIRE(db->Prepare("INSERT INTO stacks (id, name, deleted, data, stack_key) VALUES (?1, ?2, 0, ?3, ?4)", &st).ok());
    int64_t key = 1;
    for (const ms::StackRecord& s : {Stack(kEast, "web", "1", "east-vpc"), Stack(kWest, "db", "2", "west-vpc")}) {
      st->Bind(1, s.id).Bind(2, s.name).Bind(3, ms::StackToValue(s).ToJson()).Bind(4, key++);
      REQUIRE(st->Step().ok());
      st->Reset();
    }
    REQUIRE(db->Exec("INSERT INTO exports (name, stack_id, value) VALUES "
                     "('east-vpc', 'arn:aws:cloudformation:us-east-1:123456789012:stack/web/1', 'vpc-1'),"
                     "('west-vpc', 'arn:aws:cloudformation:us-west-2:123456789012:stack/db/2', 'vpc-2');")
                .ok());
  }
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  int version = 0;
  REQUIRE(db->UserVersion(&version).ok());
  CHECK(version == 18);  // and on to the latest
  CHECK(FoundId(db.get(), kEast, "web") == "arn:aws:cloudformation:us-east-1:123456789012:stack/web/1");
  CHECK(FoundId(db.get(), kWest, "web").empty());
  CHECK(FoundId(db.get(), kWest, "db") == "arn:aws:cloudformation:us-west-2:123456789012:stack/db/2");
  CHECK(Exports(db.get(), kEast) == std::vector<std::string>{"east-vpc=vpc-1"});
  CHECK(Exports(db.get(), kWest) == std::vector<std::string>{"west-vpc=vpc-2"});
  // A migrated stack takes a new export and a same-named stack elsewhere.
  ms::StoreBatch batch;
  batch.stacks = {Stack(kWest, "web", "3", "east-vpc")};
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  CHECK(Exports(db.get(), kWest) == std::vector<std::string>{"east-vpc=vpc-3", "west-vpc=vpc-2"});
  CHECK(Exports(db.get(), kEast) == std::vector<std::string>{"east-vpc=vpc-1"});
}
