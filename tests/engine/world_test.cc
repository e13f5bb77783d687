// World: records, the referrers index, change tracking; and its persistence
// in the store (store/world_table).
#include <catch2/catch.hpp>

#include <filesystem>

#include "store/schema.h"
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
  WorldRecord r;
  REQUIRE(ms::ParseJson(json, &r.data).ok());
  r.refs = std::move(refs);
  r.live = live;
  return r;
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
  w.Put("a", "1", Rec("{}"));
  w.Put("a", "2", Rec("{}"));
  w.Remove("a", "2");
  auto changes = w.TakeChanges();
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].key == WorldKey{"a", "1"});
  CHECK(changes[0].record.has_value());
  CHECK(changes[1].key == WorldKey{"a", "2"});
  CHECK_FALSE(changes[1].record.has_value());
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
  CHECK(i1->data.ToJson() == R"({"InstanceType":"t2.micro","Cpu":1.50,"Tags":[]})");  // number text kept
  CHECK(i1->refs == std::vector<std::string>{"sg-1"});
  CHECK_FALSE(w.Find("ec2.instance", "i-9")->live);
  CHECK(w.Find("ec2.security_group", "sg-1") == nullptr);
  CHECK(w.Referrers("sg-1") == std::vector<WorldKey>{{"ec2.instance", "i-1"}});
  CHECK(w.TakeChanges().empty());  // loading is not a change
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
  CHECK(s.message() == "state file " + path + " was written by a newer moonstack (schema 999, this one knows 5)");
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

TEST_CASE("store: a stack's templates are rows of their own; older rows still read", "[store]") {
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

