// World: records, the referrers index, change tracking; and its persistence
// in the store (store/world_table).
#include <catch2/catch.hpp>

#include <filesystem>

#include "store/schema.h"
#include "test_util.h"
#include "store/stack_tables.h"
#include "store/world_table.h"
#include "template/parse.h"
#include "world/world.h"

using ms::Value;
using ms::World;
using ms::WorldKey;
using ms::WorldRecord;

namespace {

WorldRecord Rec(const std::string& json, std::vector<std::string> refs = {}, bool live = true) {
  ms::Value data;
  REQUIRE(ms::ParseJson(json, &data).ok());
  return WorldRecord(std::move(data), std::move(refs), live);
}

}  // namespace

TEST_CASE("world: referrers are live records naming an id, sorted", "[world]") {
  World w;
  w.Put("ec2.security_group", "sg-1", Rec("{}"));
  w.Put("ec2.instance", "i-2", Rec("{}", {"sg-1"}));
  w.Put("ec2.instance", "i-1", Rec("{}", {"sg-1", "subnet-1"}));
  w.Put("ec2.security_group", "sg-0", Rec("{}", {"sg-1"}));
  CHECK(w.Referrers("sg-1") ==
        std::vector<WorldKey>{{"ec2.instance", "i-1"}, {"ec2.instance", "i-2"}, {"ec2.security_group", "sg-0"}});
  // Terminated: still there, no longer a dependent.
  w.Put("ec2.instance", "i-1", Rec(R"({"State":"terminated"})", {"sg-1"}, false));
  CHECK(w.Referrers("sg-1") == std::vector<WorldKey>{{"ec2.instance", "i-2"}, {"ec2.security_group", "sg-0"}});
  // Re-putting replaces the refs; removing drops them.
  w.Put("ec2.instance", "i-2", Rec("{}", {"subnet-1"}));
  CHECK(w.Referrers("subnet-1") == std::vector<WorldKey>{{"ec2.instance", "i-2"}});
  CHECK(w.Remove("ec2.security_group", "sg-0"));
  CHECK_FALSE(w.Remove("ec2.security_group", "sg-0"));
  CHECK(w.Referrers("sg-1").empty());
  CHECK(w.Ids("ec2.instance") == std::vector<std::string>{"i-1", "i-2"});
  CHECK(w.Ids("ec2.instance", true) == std::vector<std::string>{"i-2"});
  CHECK(w.Kinds() == std::vector<std::string>{"ec2.instance", "ec2.security_group"});
  CHECK(w.size() == 3);
}

TEST_CASE("world: changes are taken once, removals included", "[world]") {
  World w;
  w.Put("a", "1", Rec(R"({"x":"y"})", {"i-1"}, false));
  w.Put("a", "2", Rec("{}"));
  w.Remove("a", "2");
  auto changes = w.TakeChanges();
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].key == WorldKey{"a", "1"});
  CHECK_FALSE(changes[0].removed);
  CHECK(changes[0].DataJson() == R"({"x":"y"})");  // as the store writes it
  CHECK(changes[0].RefsJson() == R"(["i-1"])");
  CHECK_FALSE(changes[0].live);
  CHECK(changes[1].key == WorldKey{"a", "2"});
  CHECK(changes[1].removed);
  CHECK(w.TakeChanges().empty());
  w.Clear();
  CHECK(w.size() == 0);
  CHECK(w.TakeChanges().size() == 1);
}

TEST_CASE("store: the world survives a close and reopen", "[world][store]") {
  const std::string path = std::filesystem::temp_directory_path() / "moonstack_world_test/state.db";
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
  {
    std::unique_ptr<ms::Database> db;
    REQUIRE(ms::OpenStore(path, &db).ok());
    World w;
    w.Put("ec2.instance", "i-1", Rec(R"({"InstanceType":"t2.micro","Cpu":1.50,"Tags":[]})", {"sg-1"}));
    w.Put("ec2.instance", "i-9", Rec(R"({"State":"terminated"})", {}, false));
    w.Put("ec2.security_group", "sg-1", Rec("{}"));
    size_t written = 0;
    REQUIRE(ms::SaveWorld(db.get(), &w, &written).ok());
    CHECK(written == 3);
    w.Remove("ec2.security_group", "sg-1");
    REQUIRE(ms::SaveWorld(db.get(), &w).ok());
  }
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  World w;
  REQUIRE(ms::LoadWorld(db.get(), &w).ok());
  CHECK(w.size() == 2);
  const WorldRecord* i1 = w.Find("ec2.instance", "i-1");
  REQUIRE(i1 != nullptr);
  CHECK(i1->value().ToJson() == R"({"InstanceType":"t2.micro","Cpu":1.50,"Tags":[]})");  // number text kept
  CHECK(i1->refs == std::vector<std::string>{"sg-1"});
  CHECK_FALSE(w.Find("ec2.instance", "i-9")->live);
  CHECK(w.Find("ec2.security_group", "sg-1") == nullptr);
  CHECK(w.Referrers("sg-1") == std::vector<WorldKey>{{"ec2.instance", "i-1"}});
  CHECK(w.TakeChanges().empty());  // loading is not a change
}

TEST_CASE("store: schema 9 moves a schema-8 world into a rowid table, records kept", "[world][store]") {
  const std::string path = std::filesystem::temp_directory_path() / "moonstack_store_schema8.db";
  std::filesystem::remove(path);
  {
    std::unique_ptr<ms::Database> db;
    REQUIRE(ms::OpenStore(path, &db).ok());
    // Back to schema 8's world table, holding a record (and no drift tables, 10, nor provider log, 12,
    // stacks and exports not per region, 14, no stack sets, 15).
    REQUIRE(db->Exec(ms::test::kUndoSchema18 + ms::test::kUndoSchema17 + ms::test::kUndoSchema16 + ms::test::kUndoSchema15 + ms::test::kUndoSchema14 +
                     "DROP TABLE provider_logs; DROP TABLE drift_detections; DROP TABLE resource_drifts;"
                     "DROP TABLE world;"
                     "CREATE TABLE world (kind TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,"
                     " refs TEXT NOT NULL, live INTEGER NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;"
                     "INSERT INTO world VALUES ('ec2.instance', 'i-1', '{\"InstanceType\":\"t3.micro\"}', '[\"sg-1\"]', 1);")
                .ok());
    REQUIRE(db->SetUserVersion(8).ok());
  }
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  int version = 0;
  REQUIRE(db->UserVersion(&version).ok());
  CHECK(version == 18);  // and on to the latest
  std::unique_ptr<ms::Statement> st;
  REQUIRE(db->Prepare("SELECT sql FROM sqlite_master WHERE name = 'world'", &st).ok());
  bool row = false;
  REQUIRE(st->Step(&row).ok());
  REQUIRE(row);
  CHECK(st->Text(0).find("WITHOUT ROWID") == std::string::npos);
  World w;
  REQUIRE(ms::LoadWorld(db.get(), &w).ok());
  REQUIRE(w.Find("ec2.instance", "i-1") != nullptr);
  CHECK(w.Find("ec2.instance", "i-1")->value().ToJson() == R"({"InstanceType":"t3.micro"})");
  CHECK(w.Referrers("sg-1") == std::vector<WorldKey>{{"ec2.instance", "i-1"}});
  // The upsert's ON CONFLICT (kind, id) finds the new unique index.
  w.Put("ec2.instance", "i-1", Rec(R"({"InstanceType":"t3.small"})", {}));
  REQUIRE(ms::SaveWorld(db.get(), &w).ok());
  World again;
  REQUIRE(ms::LoadWorld(db.get(), &again).ok());
  CHECK(again.size() == 1);
  CHECK(again.Find("ec2.instance", "i-1")->value().ToJson() == R"({"InstanceType":"t3.small"})");
}

TEST_CASE("store: a state file from a newer moonstack is refused", "[store]") {
  const std::string path = std::filesystem::temp_directory_path() / "moonstack_store_newer.db";
  std::filesystem::remove(path);
  {
    std::unique_ptr<ms::Database> db;
    REQUIRE(ms::Database::Open(path, &db).ok());
    REQUIRE(db->SetUserVersion(999).ok());
  }
  std::unique_ptr<ms::Database> db;
  ms::Status s = ms::OpenStore(path, &db);
  CHECK(s.message() == "state file " + path + " was written by a newer moonstack (schema 999, this one knows 18)");
}

TEST_CASE("store: a resource row's JSON reads back as the record it was written from", "[store]") {
  const std::string stack_id = "arn:aws:cloudformation:us-east-1:1:stack/s/x";
  ms::ResourceRecord r;
  r.stack_id = stack_id;
  r.logical_id = "Web";
  r.type = "AWS::EC2::Instance";
  r.physical_id = "i-0\"quoted\\";
  r.status = ms::ResourceStatus::kCreateComplete;
  r.reason = "line\nbreak";
  r.updated_ms = 1700000000123;
  REQUIRE(ms::ParseJson(R"({"ImageId":"ami-1","Count":1.50,"Tags":[{"Key":"k","Value":"v"}],"Empty":{}})",
                        &r.properties).ok());
  REQUIRE(ms::ParseJson(R"({"PrivateIp":"10.0.0.4"})", &r.attributes).ok());
  r.pending_hook = "create";
  r.update_step = ms::UpdateStep::kUpdated;
  r.rollback_properties = ms::Value::MakeMap();
  auto round_trip = [&](const ms::ResourceRecord& in) {
    ms::Value v;
    REQUIRE(ms::ParseJson(ms::ResourceJson(in), &v).ok());
    ms::ResourceRecord out;
    REQUIRE(ms::ResourceFromValue(std::move(v), stack_id, &out).ok());
    CHECK(out.stack_id == stack_id);
    CHECK(ms::ResourceJson(out) == ms::ResourceJson(in));
    return out;
  };
  ms::ResourceRecord back = round_trip(r);
  CHECK(back.physical_id == r.physical_id);
  CHECK(back.reason == r.reason);
  CHECK(back.properties == r.properties);
  CHECK(back.rollback_properties.is_map());  // an empty map stays a map
  CHECK(back.rollback_attributes.is_null());

  // The row leaves out the stack's ID (a column) and empty members.
  r.reason.clear();
  r.pending_hook.clear();
  r.attributes = ms::Value();
  r.update_step = ms::UpdateStep::kNone;
  const std::string row = ms::ResourceJson(r);
  CHECK(row.find("stack_id") == std::string::npos);
  CHECK(row.find("reason") == std::string::npos);
  CHECK(row.find("pending_hook") == std::string::npos);
  CHECK(row.find("attributes") == std::string::npos);
  back = round_trip(r);
  CHECK(back.attributes.is_null());

  // A row written before (every member, the stack's ID too) still reads.
  ms::Value old;
  REQUIRE(ms::ParseJson(R"({"stack_id":"other","logical_id":"A","type":"T","physical_id":"","status":"CREATE_COMPLETE",)"
                        R"("reason":"","updated_ms":5,"properties":{},"attributes":{},"pending_hook":"","progress":null})",
                        &old).ok());
  ms::ResourceRecord o;
  REQUIRE(ms::ResourceFromValue(std::move(old), stack_id, &o).ok());
  CHECK(o.stack_id == stack_id);
  CHECK(o.logical_id == "A");
  CHECK(o.updated_ms == 5);
  CHECK(o.status == ms::ResourceStatus::kCreateComplete);
}

TEST_CASE("store: a stack's templates are rows of their own, older rows still read", "[store]") {
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(":memory:", &db).ok());
  ms::StoreBatch batch;
  ms::StackRecord s;
  s.id = "arn:aws:cloudformation:us-east-1:1:stack/s/x";
  s.name = "s";
  s.status = ms::StackStatus::kUpdateInProgress;
  s.template_body = "{\"Resources\": {\"New\": {}}}";
  s.previous_template_body = "{\"Resources\": {\"Old\": {}}}";
  batch.stacks.push_back(s);
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());

  std::unique_ptr<ms::Statement> st;
  REQUIRE(db->Prepare("SELECT s.data, t.slot, t.body FROM stacks s JOIN stack_templates t ON t.stack_id = s.id "
                      "ORDER BY t.slot", &st).ok());
  bool row = false;
  REQUIRE(st->Step(&row).ok());
  REQUIRE(row);
  CHECK(st->Text(0).find("Resources") == std::string::npos);  // not in the row every status change rewrites
  CHECK(st->Int(1) == 0);
  CHECK(st->Text(2) == s.template_body);
  REQUIRE(st->Step(&row).ok());
  REQUIRE(row);
  CHECK(st->Int(1) == 1);
  CHECK(st->Text(2) == s.previous_template_body);
  st.reset();
  ms::StackRecord back;
  bool found = false;
  REQUIRE(ms::LoadStack(db.get(), s.id, &back, &found).ok());
  REQUIRE(found);
  CHECK(back.template_body == s.template_body);
  CHECK(back.previous_template_body == s.previous_template_body);

  // A status change keeps the templates; a new template replaces the old.
  s.status = ms::StackStatus::kUpdateComplete;
  s.previous_template_body.clear();
  batch.stacks = {s};
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  REQUIRE(ms::LoadStack(db.get(), s.id, &back, &found).ok());
  CHECK(back.status == ms::StackStatus::kUpdateComplete);
  CHECK(back.template_body == s.template_body);
  CHECK(back.previous_template_body.empty());

  // Written before schema 4: in `data`, no template row.
  REQUIRE(db->Exec("DELETE FROM stack_templates WHERE slot = 1").ok());
  REQUIRE(db->Exec("UPDATE stacks SET data = json_set(data, '$.previous_template_body', 'legacy')").ok());
  REQUIRE(ms::LoadStack(db.get(), s.id, &back, &found).ok());
  CHECK(back.previous_template_body == "legacy");
}


TEST_CASE("store: rows name their stack by its key, a schema-5 state file migrates", "[store]") {
  const std::string path = std::filesystem::temp_directory_path() / "moonstack_store_schema5.db";
  std::filesystem::remove(path);
  const std::string a = "arn:aws:cloudformation:us-east-1:1:stack/a/1", b = "arn:aws:cloudformation:us-east-1:1:stack/b/2";
  ms::StackRecord sa;
  sa.id = a;
  sa.name = "a";
  sa.status = ms::StackStatus::kCreateComplete;
  const std::string stack_a = ms::StackToValue(sa).ToJson();
  {
    // The tables as schema 5 left them, with rows in it: a's resources were
    // added Z then A (their order is kept), b has one of each.
    std::unique_ptr<ms::Database> db;
    REQUIRE(ms::Database::Open(path, &db).ok());
    REQUIRE(db->Exec(
        "CREATE TABLE world (kind TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, refs TEXT NOT NULL,"
        "  live INTEGER NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;"
        "CREATE TABLE stacks (id TEXT PRIMARY KEY, name TEXT NOT NULL, deleted INTEGER NOT NULL, data TEXT NOT NULL);"
        "CREATE INDEX stacks_by_name ON stacks (name, deleted);"
        "CREATE TABLE resources (stack_id TEXT NOT NULL, logical_id TEXT NOT NULL, data TEXT NOT NULL,"
        "  UNIQUE (stack_id, logical_id));"
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, stack_id TEXT NOT NULL, data TEXT NOT NULL);"
        "CREATE INDEX events_by_stack ON events (stack_id, seq);"
        "CREATE TABLE exports (name TEXT PRIMARY KEY, stack_id TEXT NOT NULL, value TEXT NOT NULL);"
        "CREATE TABLE change_sets (id TEXT PRIMARY KEY, stack_id TEXT NOT NULL, name TEXT NOT NULL,"
        "  data TEXT NOT NULL, template TEXT NOT NULL);"
        "CREATE INDEX change_sets_by_stack ON change_sets (stack_id, name);"
        "CREATE INDEX resources_by_stack ON resources (stack_id);"
        "CREATE TABLE stack_templates (stack_id TEXT NOT NULL, slot INTEGER NOT NULL, body TEXT NOT NULL,"
        "  UNIQUE (stack_id, slot));").ok());
    std::unique_ptr<ms::Statement> st;
    REQUIRE(db->Prepare("INSERT INTO stacks (id, name, deleted, data) VALUES (?1, ?2, 0, ?3)", &st).ok());
    for (const std::string& id : {a, b}) {
      st->Bind(1, id).Bind(2, id == a ? "a" : "b").Bind(3, stack_a);
      REQUIRE(st->Step().ok());
      st->Reset();
    }
    REQUIRE(db->Prepare("INSERT INTO resources (stack_id, logical_id, data) VALUES (?1, ?2, ?3)", &st).ok());
    for (auto [stack, lid] : {std::pair{a, "Z"}, {b, "B"}, {a, "A"}}) {
      st->Bind(1, stack).Bind(2, lid).Bind(3, std::string(R"({"logical_id":")") + lid +
                                                  R"(","type":"T","status":"CREATE_COMPLETE","updated_ms":1})");
      REQUIRE(st->Step().ok());
      st->Reset();
    }
    REQUIRE(db->Prepare("INSERT INTO events (seq, stack_id, data) VALUES (?1, ?2, ?3)", &st).ok());
    for (auto [seq, stack] : {std::pair{int64_t{1}, a}, {int64_t{2}, b}, {int64_t{3}, a}}) {
      st->Bind(1, seq).Bind(2, stack).Bind(3, R"({"event_id":"e)" + std::to_string(seq) +
                                                  R"(","logical_id":"x","status":"CREATE_COMPLETE"})");
      REQUIRE(st->Step().ok());
      st->Reset();
    }
    REQUIRE(db->SetUserVersion(5).ok());
  }
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  std::vector<ms::ResourceRecord> resources;
  REQUIRE(ms::LoadResources(db.get(), a, &resources).ok());
  REQUIRE(resources.size() == 2);
  CHECK(resources[0].logical_id == "Z");  // the order they were added in
  CHECK(resources[1].logical_id == "A");
  CHECK(resources[0].stack_id == a);
  std::vector<ms::StackEvent> events;
  REQUIRE(ms::LoadEvents(db.get(), a, &events).ok());
  REQUIRE(events.size() == 2);
  CHECK(events[0].event_id == "e3");  // newest first
  CHECK(events[1].event_id == "e1");
  CHECK(events[0].stack_id == a);

  // New rows after the migration: b's go under b's key, a new stack gets a
  // key of its own, and nothing is found for a stack that is not stored.
  ms::StoreBatch batch;
  ms::StackRecord c = sa;
  c.id = "arn:aws:cloudformation:us-east-1:1:stack/c/3";
  c.name = "c";
  batch.stacks.push_back(c);
  ms::StackEvent e;
  e.stack_id = c.id;
  e.event_id = "c1";
  e.status = "CREATE_IN_PROGRESS";
  batch.events.push_back(e);
  e.stack_id = b;
  e.event_id = "b2";
  batch.events.push_back(e);
  ms::ResourceRecord r;
  r.stack_id = c.id;
  r.logical_id = "C";
  r.type = "T";
  batch.resources.push_back(&r);
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  events.clear();
  REQUIRE(ms::LoadEvents(db.get(), b, &events).ok());
  REQUIRE(events.size() == 2);
  CHECK(events[0].event_id == "b2");
  CHECK(events[1].event_id == "e2");
  events.clear();
  REQUIRE(ms::LoadEvents(db.get(), c.id, &events).ok());
  REQUIRE(events.size() == 1);
  CHECK(events[0].event_id == "c1");
  resources.clear();
  REQUIRE(ms::LoadResources(db.get(), c.id, &resources).ok());
  REQUIRE(resources.size() == 1);
  CHECK(resources[0].logical_id == "C");
  std::unique_ptr<ms::Statement> keys;
  REQUIRE(db->Prepare("SELECT stack_key FROM stacks ORDER BY stack_key", &keys).ok());
  std::vector<int64_t> seen;
  for (bool row = true; row;) {
    REQUIRE(keys->Step(&row).ok());
    if (row) seen.push_back(keys->Int(0));
  }
  CHECK(seen == std::vector<int64_t>{1, 2, 3});
  events.clear();
  REQUIRE(ms::LoadEvents(db.get(), "arn:aws:cloudformation:us-east-1:1:stack/none/0", &events).ok());
  CHECK(events.empty());

  // A row for a stack that is not stored is an error, not a row nobody finds.
  batch.events = {e};
  batch.events[0].stack_id = "arn:aws:cloudformation:us-east-1:1:stack/none/0";
  ms::Status s = ms::CommitBatch(db.get(), nullptr, &batch);
  CHECK(s.message() == "store: rows for stack arn:aws:cloudformation:us-east-1:1:stack/none/0, which is not stored");
  db.reset();
  std::filesystem::remove(path);
}

TEST_CASE("store: a commit appends one events row per stack, read back newest first", "[store]") {
  const std::string path = std::filesystem::temp_directory_path() / "moonstack_store_chunks.db";
  std::filesystem::remove(path);
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(path, &db).ok());
  ms::StackRecord a, b;
  a.id = "arn:aws:cloudformation:us-east-1:1:stack/a/1";
  a.name = "a";
  b.id = "arn:aws:cloudformation:us-east-1:1:stack/b/2";
  b.name = "b";
  auto event = [](const ms::StackRecord& s, const std::string& id) {
    ms::StackEvent e;
    e.stack_id = s.id;
    e.stack_name = s.name;
    e.event_id = id;
    e.logical_id = "R";
    e.status = "CREATE_IN_PROGRESS";
    e.reason = "why \"quoted\"";
    return e;
  };
  auto rows = [&] {
    std::unique_ptr<ms::Statement> st;
    REQUIRE(db->Prepare("SELECT COUNT(*) FROM events", &st).ok());
    bool row = false;
    REQUIRE(st->Step(&row).ok());
    return st->Int(0);
  };
  auto ids = [&](const ms::StackRecord& s) {
    std::vector<ms::StackEvent> events;
    REQUIRE(ms::LoadEvents(db.get(), s.id, &events).ok());
    std::vector<std::string> out;
    for (const ms::StackEvent& e : events) {
      CHECK(e.stack_id == s.id);
      CHECK(e.stack_name == s.name);
      CHECK(e.reason == "why \"quoted\"");
      out.push_back(e.event_id);
    }
    return out;
  };

  ms::StoreBatch batch;
  batch.stacks = {a, b};
  batch.events = {event(a, "a1"), event(a, "a2"), event(a, "a3"), event(b, "b1"), event(a, "a4")};
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  CHECK(rows() == 3);  // a's first three, b's one, a's last
  batch.events = {event(a, "a5"), event(a, "a6")};
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  CHECK(rows() == 4);
  CHECK(ids(a) == std::vector<std::string>{"a6", "a5", "a4", "a3", "a2", "a1"});
  CHECK(ids(b) == std::vector<std::string>{"b1"});

  // A row that is not a JSON array of objects is reported, not skipped.
  REQUIRE(db->Exec("UPDATE events SET data = '[1]' WHERE seq = 2").ok());
  std::vector<ms::StackEvent> events;
  CHECK(ms::LoadEvents(db.get(), b.id, &events).message() == "store: corrupt event: not an object");
  REQUIRE(db->Exec("UPDATE events SET data = '{}' WHERE seq = 2").ok());
  CHECK(ms::LoadEvents(db.get(), b.id, &events).message() == "store: corrupt events: not a JSON array");
  db.reset();
  std::filesystem::remove(path);
}

TEST_CASE("store: a connection's page cache is bounded at 16 MiB", "[store]") {
  // Per connection: `serve` opens one per worker and one for requests, and
  // at 64 MiB each they held ~300 MB once the state file had grown.
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(":memory:", &db).ok());
  std::unique_ptr<ms::Statement> st;
  REQUIRE(db->Prepare("PRAGMA cache_size", &st).ok());
  bool row = false;
  REQUIRE(st->Step(&row).ok());
  REQUIRE(row);
  CHECK(st->Int(0) == -16384);  // negative: KiB
}
