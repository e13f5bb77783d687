// Deleted stacks are kept 90 days of simulated time (listed DELETE_COMPLETE,
// found by ID, with their events and provider log), then gone; their rows are pruned when a
// later stack is deleted (store/deleted_stacks.h). Virtual time: 90 days
// pass at once.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fake_providers.h"
#include "service_fixture.h"
#include "stack/stack_service.h"
#include "store/database.h"
#include "store/deleted_stacks.h"
#include "store/schema.h"
#include "store/stack_tables.h"
#include "test_util.h"

namespace {

constexpr int64_t kDayMs = int64_t{24} * 3600 * 1000;
const char* kOne = R"({"Resources": {"A": {"Type": "Test::Fake::Thing", "Properties": {"Log": "hi"}}}})";

struct Harness : ms::testing::ServiceFixture<ms::testing::FakeProviders> {
  std::string CreateAndDelete(const std::string& name) {
    ms::CreateStackInput in;
    in.stack_name = name;
    in.template_body = kOne;
    const std::string id = CreateWith(in);
    std::string deleting;
    REQUIRE(service->StartDelete({name, {}, ""}, &deleting).ok());
    REQUIRE(service->Run(deleting).ok());
    return id;
  }
  // IDs of list-stacks' stacks.
  std::vector<std::string> Listed() {
    std::vector<ms::StackRecord> stacks;
    REQUIRE(service->ListStacks(&stacks).ok());
    std::vector<std::string> ids;
    for (const ms::StackRecord& s : stacks) ids.push_back(s.id);
    return ids;
  }
  // Rows of `table` stored under stack `id` (by its ID or its key).
  int64_t Rows(const std::string& sql, const std::string& id) {
    std::unique_ptr<ms::Statement> st;
    REQUIRE(db->Prepare(sql, &st).ok());
    st->Bind(1, id);
    bool row = false;
    REQUIRE(st->Step(&row).ok());
    return st->Int(0);
  }
  int64_t StoredRows(const std::string& id) {
    return Rows("SELECT COUNT(*) FROM stacks WHERE id = ?1", id) +
           Rows("SELECT COUNT(*) FROM stack_templates WHERE stack_id = ?1", id) +
           Rows("SELECT COUNT(*) FROM events WHERE stack = (SELECT stack_key FROM stacks WHERE id = ?1)", id) +
           Rows("SELECT COUNT(*) FROM resources WHERE stack = (SELECT stack_key FROM stacks WHERE id = ?1)", id) +
           Rows("SELECT COUNT(*) FROM provider_logs WHERE stack = (SELECT stack_key FROM stacks WHERE id = ?1)", id) +
           Rows("SELECT COUNT(*) FROM drift_detections WHERE stack_id = ?1", id) +
           Rows("SELECT COUNT(*) FROM resource_drifts WHERE stack_id = ?1", id);
  }
  // A drift detection's rows under stack `id`, as one made while it lived leaves them.
  void AddDriftRows(const std::string& id) {
    std::unique_ptr<ms::Statement> st;
    REQUIRE(db->Prepare("INSERT INTO drift_detections (id, stack_id, data) VALUES ('d-' || ?1, ?1, '{}')", &st).ok());
    st->Bind(1, id);
    bool row = false;
    REQUIRE(st->Step(&row).ok());
    REQUIRE(db->Prepare("INSERT INTO resource_drifts (stack_id, logical_id, data) VALUES (?1, 'A', '{}')", &st).ok());
    st->Bind(1, id);
    REQUIRE(st->Step(&row).ok());
  }
  void Pass(int64_t ms) { clock->AdvanceTo(clock->NowMs() + ms); }
};

}  // namespace

TEST_CASE("retention: a deleted stack is listed for 90 days, then gone with its events", "[stack][store]") {
  Harness h;
  const std::string old_id = h.CreateAndDelete("old");
  h.AddDriftRows(old_id);
  CHECK(h.Listed() == std::vector<std::string>{old_id});
  const int64_t stored = h.StoredRows(old_id);
  CHECK(stored >= 4);  // its row, its templates, its events
  CHECK(h.Rows("SELECT COUNT(*) FROM provider_logs WHERE stack = (SELECT stack_key FROM stacks WHERE id = ?1)",
               old_id) == 2);  // its provider log: the create's lines, the delete's

  h.Pass(90 * kDayMs - 1000);  // a second short of 90 days: still there
  const std::string newer_id = h.CreateAndDelete("newer");
  CHECK(h.Listed() == std::vector<std::string>{old_id, newer_id});
  ms::StackRecord found;
  REQUIRE(h.service->FindStack(old_id, &found).ok());
  CHECK(found.status == ms::StackStatus::kDeleteComplete);
  std::vector<ms::StackEvent> events;
  REQUIRE(h.service->Events(old_id, &events).ok());
  CHECK(events.front().status == "DELETE_COMPLETE");
  CHECK(h.StoredRows(old_id) == stored);

  h.Pass(2000);  // 90 days and a second: no longer listed nor found, even before any pruning
  CHECK(h.Listed() == std::vector<std::string>{newer_id});
  CHECK(h.service->FindStack(old_id, &found).message() == "Stack with id " + old_id + " does not exist");
  CHECK(h.StoredRows(old_id) == stored);

  // The next deletion prunes it: every row stored under it goes; the newer one stays.
  const std::string old_key = std::to_string(h.Rows("SELECT stack_key FROM stacks WHERE id = ?1", old_id));
  const std::string third_id = h.CreateAndDelete("third");
  CHECK(h.StoredRows(old_id) == 0);
  CHECK(h.Rows("SELECT COUNT(*) FROM provider_logs WHERE stack = ?1", old_key) == 0);  // by the key it had
  events.clear();
  REQUIRE(h.service->Events(old_id, &events).ok());
  CHECK(events.empty());
  CHECK(h.StoredRows(newer_id) > 0);
  CHECK(h.Listed() == std::vector<std::string>{newer_id, third_id});
  // A name of a pruned stack is free as ever.
  CHECK_FALSE(h.CreateAndDelete("old").empty());
}

TEST_CASE("retention: each deletion prunes a bounded batch, oldest first", "[stack][store]") {
  Harness h;
  std::vector<std::string> ids;
  for (int i = 0; i < 20; ++i) ids.push_back(h.CreateAndDelete("s" + std::to_string(i)));
  h.Pass(91 * kDayMs);
  h.CreateAndDelete("trigger");
  // 8 per deletion (deleted_stacks.h): the 8 oldest went, the 12 others wait.
  int gone = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    INFO(i);
    CHECK((h.StoredRows(ids[i]) == 0) == (i < 8));
    gone += h.StoredRows(ids[i]) == 0;
  }
  CHECK(gone == 8);
  h.CreateAndDelete("trigger2");
  h.CreateAndDelete("trigger3");
  for (const std::string& id : ids) CHECK(h.StoredRows(id) == 0);
}

TEST_CASE("retention: a schema-7 state file's deleted stacks get their deletion time, and are pruned", "[store]") {
  const std::string path = std::filesystem::temp_directory_path() / "moonstack_store_schema7.db";
  std::filesystem::remove(path);
  const std::string id = "arn:aws:cloudformation:us-east-1:1:stack/gone/1";
  ms::StackRecord gone;
  gone.id = id;
  gone.name = "gone";
  gone.status = ms::StackStatus::kDeleteComplete;
  gone.deleted_ms = 1000;
  {
    std::unique_ptr<ms::Database> db;
    REQUIRE(ms::OpenStore(path, &db).ok());
    ms::StoreBatch batch;
    batch.stacks.push_back(gone);
    REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
    // Back to what schema 7 left: no deletion time column, no index, no drift tables (10), no provider log (12),
    // stacks and exports not per region (14), no stack sets (15).
    REQUIRE(db->Exec(ms::test::kUndoSchema18 + ms::test::kUndoSchema17 + ms::test::kUndoSchema16 + ms::test::kUndoSchema15 + ms::test::kUndoSchema14 + "DROP INDEX stacks_by_deleted_ms; ALTER TABLE stacks DROP COLUMN deleted_ms;"
                     "DROP TABLE drift_detections; DROP TABLE resource_drifts; DROP TABLE provider_logs;").ok());
    REQUIRE(db->SetUserVersion(7).ok());
  }
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  std::unique_ptr<ms::Statement> st;
  REQUIRE(db->Prepare("SELECT deleted_ms FROM stacks WHERE id = ?1", &st).ok());
  st->Bind(1, id);
  bool row = false;
  REQUIRE(st->Step(&row).ok());
  REQUIRE(row);
  CHECK(st->Int(0) == 1000);
  st.reset();
  REQUIRE(db->Transaction([&] { return ms::PruneDeletedStacks(db.get(), 1000 + 90 * kDayMs - 1); }).ok());
  bool found = false;
  ms::StackRecord loaded;
  REQUIRE(ms::LoadStack(db.get(), id, &loaded, &found).ok());
  CHECK(found);
  REQUIRE(db->Transaction([&] { return ms::PruneDeletedStacks(db.get(), 1000 + 90 * kDayMs); }).ok());
  REQUIRE(ms::LoadStack(db.get(), id, &loaded, &found).ok());
  CHECK_FALSE(found);
}
