// update-stack scenarios with a C++ fake provider (update_fakes.h), in
// virtual time: the exact event sequences of seed 000's update runs.
#include <catch2/catch.hpp>

#include "stack/resource_signals.h"
#include "update_harness.h"

using namespace update_harness;  // NOLINT: the harness and seed 000's templates

TEST_CASE("update-stack synchronous checks", "[update]") {
  Harness h;
  CHECK(h.StartUpdate("nope", kTwo).message() == "Stack [nope] does not exist");
  std::string id = h.Create("s", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  // Same template, same values (run 1), and only an unused change: nothing to do.
  CHECK(h.StartUpdate("s", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")}).message() ==
        "No updates are to be performed.");
  CHECK(h.StartUpdate("s", "", {{"ImageId", std::nullopt, true}, {"InstanceType", std::nullopt, true}}).message() ==
        "No updates are to be performed.");
  // An unknown top-level field (run 25): refused before anything starts.
  CHECK(h.StartUpdate("s", R"({"a": "b", "Resources": {"I": {"Type": "Test::Upd::Thing"}}})").message() ==
        "Template format error: Invalid template property or properties [a]");
  // Started: a second update is refused while the first is in progress (run 3).
  REQUIRE(h.StartUpdate("s", "", {P("ImageId", "ami-1"), P("InstanceType", "t2.small")}).ok());
  CHECK(h.StartUpdate("s", "", {P("ImageId", "ami-1"), P("InstanceType", "t2.large")}).message() ==
        "Stack:" + id + " is in UPDATE_IN_PROGRESS state and can not be updated.");
  REQUIRE(h.service->Run(id).ok());
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("UPDATE_COMPLETE"));
  // The previous template and parameters are kept with the stack.
  StackRecord s = h.Stack(id);
  CHECK(s.previous_template_body == kTwo);
  REQUIRE(s.previous_parameters.size() == 2);
  CHECK(s.previous_parameters[1].value == "t2.micro");
  CHECK(s.parameters[1].value == "t2.small");
}

TEST_CASE("update-stack refuses a stack that is not updatable", "[update]") {
  Harness h;
  ms::CreateStackInput in;
  in.stack_name = "bad";
  in.template_body = R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"CreateFails": "boom"}}}})";
  std::string id;
  REQUIRE(h.service->StartCreate(in, &id).ok());
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.StartUpdate("bad", kTwo).message() ==
        "Stack:" + id + " is in ROLLBACK_COMPLETE state and can not be updated.");
}

TEST_CASE("run 4: a resource added, one removed in cleanup", "[update]") {
  Harness h;
  std::string id = h.Create("s4", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  Lines events = h.Update(id, kTwoNext, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  CHECK(events == Lines{
                      "s4 UPDATE_IN_PROGRESS User Initiated",
                      "Instance3 CREATE_IN_PROGRESS",
                      "Instance3 CREATE_IN_PROGRESS Resource creation Initiated",
                      "Instance3 CREATE_COMPLETE",
                      "s4 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                      "Instance1 DELETE_IN_PROGRESS",
                      "Instance1 DELETE_COMPLETE",
                      "s4 UPDATE_COMPLETE",
                  });
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"Instance2", "CREATE_COMPLETE Instance2-1"},
                                                              {"Instance3", "CREATE_COMPLETE Instance3-1"}});
  CHECK(h.providers.live() == std::set<std::string>{"Instance2-1", "Instance3-1"});
}

TEST_CASE("run 5: an add and a some-interruption update in parallel", "[update]") {
  Harness h;
  std::string id = h.Create("s5", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  Lines events = h.Update(id, kTwoNext, {P("ImageId", "ami-1"), P("InstanceType", "t2.small")});
  CHECK(events == Lines{
                      "s5 UPDATE_IN_PROGRESS User Initiated",
                      "Instance2 UPDATE_IN_PROGRESS",
                      "Instance3 CREATE_IN_PROGRESS",
                      "Instance2 UPDATE_COMPLETE",
                      "Instance3 CREATE_IN_PROGRESS Resource creation Initiated",
                      "Instance3 CREATE_COMPLETE",
                      "s5 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                      "Instance1 DELETE_IN_PROGRESS",
                      "Instance1 DELETE_COMPLETE",
                      "s5 UPDATE_COMPLETE",
                  });
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "update Instance2-1 [InstanceType]") == 1);
  CHECK(h.Resources(id)["Instance2"] == "UPDATE_COMPLETE Instance2-1");
}

TEST_CASE("run 6: replacement wins over some interruption, the old one goes in cleanup", "[update]") {
  Harness h;
  std::string id = h.Create("s6", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  Lines events = h.Update(id, kTwoNext, {P("ImageId", "ami-2"), P("InstanceType", "t2.small")});
  CHECK(events ==
        Lines{
            "s6 UPDATE_IN_PROGRESS User Initiated",
            "Instance2 UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence "
            "creating one.",
            "Instance3 CREATE_IN_PROGRESS",
            "Instance2 UPDATE_IN_PROGRESS Resource creation Initiated",
            "Instance2 UPDATE_COMPLETE",
            "Instance3 CREATE_IN_PROGRESS Resource creation Initiated",
            "Instance3 CREATE_COMPLETE",
            "s6 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
            // As the seed lists them: the replaced one's old resource, then the removed one.
            "Instance2 DELETE_IN_PROGRESS",
            "Instance1 DELETE_IN_PROGRESS",
            "Instance2 DELETE_COMPLETE",
            "Instance1 DELETE_COMPLETE",
            "s6 UPDATE_COMPLETE",
        });
  // The record kept its status and has the new physical ID; the old one is gone.
  CHECK(h.Resources(id)["Instance2"] == "UPDATE_COMPLETE Instance2-2");
  CHECK(h.providers.live() == std::set<std::string>{"Instance2-2", "Instance3-1"});
  Lines log = h.providers.log();
  CHECK(std::find(log.begin(), log.end(), "delete Instance2-1") != log.end());
  std::vector<ms::ResourceRecord> rs;
  REQUIRE(h.service->Resources(id, &rs).ok());
  for (const auto& r : rs) CHECK(r.old_physical_id.empty());
}

TEST_CASE("run 7: a replacement cascades through references, cleanup in reverse order", "[update]") {
  Harness h;
  std::string id = h.Create("s7", kNet, {P("CidrBlock", "10.0.0.0/16"), P("ImageId", "ami-1")});
  Lines events = h.Update(id, kNet, {P("CidrBlock", "10.1.0.0/16"), P("ImageId", "ami-1")});
  const std::string replacing =
      " UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.";
  CHECK(events == Lines{
                      "s7 UPDATE_IN_PROGRESS User Initiated",
                      "VPC" + replacing,
                      "VPC UPDATE_IN_PROGRESS Resource creation Initiated",
                      "VPC UPDATE_COMPLETE",
                      "Subnet" + replacing,
                      "Subnet UPDATE_IN_PROGRESS Resource creation Initiated",
                      "Subnet UPDATE_COMPLETE",
                      "Instance1" + replacing,
                      "Instance1 UPDATE_IN_PROGRESS Resource creation Initiated",
                      "Instance1 UPDATE_COMPLETE",
                      "s7 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                      "Instance1 DELETE_IN_PROGRESS",
                      "Instance1 DELETE_COMPLETE",
                      "Subnet DELETE_IN_PROGRESS",
                      "Subnet DELETE_COMPLETE",
                      "VPC DELETE_IN_PROGRESS",
                      "VPC DELETE_COMPLETE",
                      "s7 UPDATE_COMPLETE",
                  });
  CHECK(h.providers.live() == std::set<std::string>{"VPC-2", "Subnet-2", "Instance1-2"});
  // The deletes went to the old physical resources, dependents first.
  Lines log = h.providers.log();
  CHECK(Lines(log.end() - 3, log.end()) == Lines{"delete Instance1-1", "delete Subnet-1", "delete VPC-1"});
}

TEST_CASE("run 8: an in-place update does not cascade to what refers to it", "[update]") {
  Harness h;
  std::string id = h.Create("s8", kNet, {P("CidrBlock", "10.0.0.0/16"), P("ImageId", "ami-1")});
  std::string tagged = kNet;
  tagged.replace(tagged.find(R"({"CidrBlock": {"Ref": "CidrBlock"}})"),
                 std::string(R"({"CidrBlock": {"Ref": "CidrBlock"}})").size(),
                 R"({"CidrBlock": {"Ref": "CidrBlock"}, "Tags": [{"Key": "k", "Value": "v"}]})");
  Lines events = h.Update(id, tagged, {P("CidrBlock", "10.0.0.0/16"), P("ImageId", "ami-1")});
  CHECK(events == Lines{
                      "s8 UPDATE_IN_PROGRESS User Initiated",
                      "VPC UPDATE_IN_PROGRESS",
                      "VPC UPDATE_COMPLETE",
                      "s8 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                      "s8 UPDATE_COMPLETE",
                  });
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"VPC", "UPDATE_COMPLETE VPC-1"},
                                                              {"Subnet", "CREATE_COMPLETE Subnet-1"},
                                                              {"Instance1", "CREATE_COMPLETE Instance1-1"}});
}

TEST_CASE("run 9: a Dynamic reference to a replaced resource updates the referrer", "[update]") {
  Harness h;
  std::string id = h.Create("s9", RolePolicy(R"({"Path": "/a/"})"));
  Lines events = h.Update(id, RolePolicy(R"({"Path": "/b/"})"));
  CHECK(events ==
        Lines{
            "s9 UPDATE_IN_PROGRESS User Initiated",
            "Role UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence "
            "creating one.",
            "Role UPDATE_IN_PROGRESS Resource creation Initiated",
            "Role UPDATE_COMPLETE",
            "Policy UPDATE_IN_PROGRESS",
            "Policy UPDATE_COMPLETE",
            "s9 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
            "Role DELETE_IN_PROGRESS",
            "Role DELETE_COMPLETE",
            "s9 UPDATE_COMPLETE",
        });
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "update Policy-1 [Roles]") == 1);
}

TEST_CASE("run 10: a Dynamic reference whose value stays the same changes nothing", "[update]") {
  Harness h;
  std::string id = h.Create("s10", RolePolicy(R"({"Description": "a"})"));
  Lines events = h.Update(id, RolePolicy(R"({"Description": "b"})"));
  CHECK(events == Lines{
                      "s10 UPDATE_IN_PROGRESS User Initiated",
                      "Role UPDATE_IN_PROGRESS",
                      "Role UPDATE_COMPLETE",
                      "s10 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                      "s10 UPDATE_COMPLETE",
                  });
  Lines log = h.providers.log();
  CHECK(std::count_if(log.begin(), log.end(), [](const std::string& l) { return l.rfind("update Policy", 0) == 0; }) ==
        0);
}

TEST_CASE("run 15: outputs are evaluated again by an update", "[update]") {
  Harness h;
  const char* before = R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/a/"}}},
    "Outputs": {"Id": {"Value": {"Ref": "A"}}}})";
  const char* after = R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/b/"}}},
    "Outputs": {"Id": {"Value": {"Ref": "A"}}, "Arn": {"Value": {"Fn::GetAtt": ["A", "Arn"]}}}})";
  std::string id = h.Create("s15", before);
  REQUIRE(h.Stack(id).outputs.size() == 1);
  CHECK(h.Stack(id).outputs[0].value == "A-1");
  h.Update(id, after);
  StackRecord s = h.Stack(id);
  REQUIRE(s.outputs.size() == 2);
  CHECK(s.outputs[0].key == "Id");
  CHECK(s.outputs[0].value == "A-2");
  CHECK(s.outputs[1].value == "arn:test:A-2");
}

TEST_CASE("run 26: a Metadata change alone completes without a provider call", "[update]") {
  Harness h;
  std::string id = h.Create("s26", R"({"Resources": {"Instance1": {"Type": "Test::Upd::Thing",
    "Metadata": {"v": 1}, "Properties": {"ImageId": "ami-1"}}}})");
  const size_t calls = h.providers.log().size();
  Lines events = h.Update(id, R"({"Resources": {"Instance1": {"Type": "Test::Upd::Thing",
    "Metadata": {"v": 2}, "Properties": {"ImageId": "ami-1"}}}})");
  CHECK(events == Lines{
                      "s26 UPDATE_IN_PROGRESS User Initiated",
                      "Instance1 UPDATE_COMPLETE",
                      "s26 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                      "s26 UPDATE_COMPLETE",
                  });
  CHECK(h.providers.log().size() == calls);
}

TEST_CASE("run 32: an unsupported update fails at run time and rolls back", "[update]") {
  Harness h;
  std::string id = h.Create("s32", R"({"Resources": {"W": {"Type": "Test::Upd::Thing", "Properties": {"Frozen": "300"}}}})");
  Lines events = h.Update(id, R"({"Resources": {"W": {"Type": "Test::Upd::Thing", "Properties": {"Frozen": "450"}}}})");
  CHECK(events == Lines{
                      "s32 UPDATE_IN_PROGRESS User Initiated",
                      "W UPDATE_FAILED Update to resource type Test::Upd::Thing is not supported",
                      "s32 UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [W]. ",
                      "W UPDATE_COMPLETE",
                      "s32 UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                      "s32 UPDATE_ROLLBACK_COMPLETE",
                  });
  CHECK(h.providers.live() == std::set<std::string>{"W-1"});
  // The stack is the previous one again: the same update is still a change.
  StackRecord s = h.Stack(id);
  CHECK(s.template_body.find("300") != std::string::npos);
}

TEST_CASE("run 33: update rollback undoes updates, points replacements back, deletes what was added", "[update]") {
  Harness h;
  std::string id = h.Create("s33", R"({"Resources": {
    "Instance1": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.micro"}},
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.micro"}},
    "Instance3": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.micro"}}}})");
  Lines events = h.Update(id, R"T({"Resources": {
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.small", "UpdateSeconds": 10}},
    "Instance3": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-2", "InstanceType": "t2.micro"}},
    "Instance4": {"Type": "Test::Upd::Thing", "DependsOn": ["Instance2", "Instance3"], "Properties": {"ImageId": "ami-1"}},
    "Instance5": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": {"Ref": "Instance3"}, "InstanceType": {"Ref": "Instance4"},
                  "CreateFails": "Invalid id: Instance3-2 (expecting ami-...)"}}}})T");
  const std::string replacing =
      " UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.";
  CHECK(events == Lines{
                      "s33 UPDATE_IN_PROGRESS User Initiated",
                      "Instance2 UPDATE_IN_PROGRESS",
                      "Instance3" + replacing,
                      "Instance3 UPDATE_IN_PROGRESS Resource creation Initiated",
                      "Instance3 UPDATE_COMPLETE",
                      "Instance2 UPDATE_COMPLETE",
                      "Instance4 CREATE_IN_PROGRESS",
                      "Instance4 CREATE_IN_PROGRESS Resource creation Initiated",
                      "Instance4 CREATE_COMPLETE",
                      "Instance5 CREATE_IN_PROGRESS",
                      "Instance5 CREATE_FAILED Invalid id: Instance3-2 (expecting ami-...)",
                      "s33 UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Instance5]. ",
                      "Instance2 UPDATE_IN_PROGRESS",
                      "Instance3 UPDATE_COMPLETE",
                      "Instance2 UPDATE_COMPLETE",
                      "s33 UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                      "Instance5 DELETE_COMPLETE",
                      "Instance4 DELETE_IN_PROGRESS",
                      "Instance4 DELETE_COMPLETE",
                      "Instance3 DELETE_IN_PROGRESS",
                      "Instance3 DELETE_COMPLETE",
                      "s33 UPDATE_ROLLBACK_COMPLETE",
                  });
  // Back to the three original instances; Instance2 was updated back.
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"Instance1", "CREATE_COMPLETE Instance1-1"},
                                                              {"Instance2", "UPDATE_COMPLETE Instance2-1"},
                                                              {"Instance3", "UPDATE_COMPLETE Instance3-1"}});
  CHECK(h.providers.live() == std::set<std::string>{"Instance1-1", "Instance2-1", "Instance3-1"});
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "rollback Instance2-1 [InstanceType,UpdateSeconds]") == 1);
  std::vector<ms::ResourceRecord> rs;
  REQUIRE(h.service->Resources(id, &rs).ok());
  for (const auto& r : rs) {
    CHECK(r.old_physical_id.empty());
    if (r.logical_id == "Instance2") CHECK(r.properties.find("InstanceType")->str() == "t2.micro");
  }
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("UPDATE_ROLLBACK_COMPLETE"));
  // The stack can be updated again from UPDATE_ROLLBACK_COMPLETE.
  CHECK(h.StartUpdate("s33", "").message() == "No updates are to be performed.");
}

TEST_CASE("disable-rollback: a failed update stops UPDATE_FAILED and keeps what was made", "[update]") {
  Harness h;
  std::string id = h.Create("sf", R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/a/"}},
    "B": {"Type": "Test::Upd::Thing", "Properties": {"Source": {"Ref": "A"}}}}})");
  ms::UpdateStackInput in;
  in.stack_name = "sf";
  in.template_body = R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/b/"}},
    "B": {"Type": "Test::Upd::Thing", "Properties": {"Source": {"Ref": "A"}, "UpdateFails": "nope"}},
    "C": {"Type": "Test::Upd::Thing", "DependsOn": "B"}}})";
  in.disable_rollback = true;
  const size_t before = h.Events(id).size();
  std::string sid;
  REQUIRE(h.service->StartUpdate(in, &sid).ok());
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.Events(id, before) ==
        Lines{
            "sf UPDATE_IN_PROGRESS User Initiated",
            "A UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence "
            "creating one.",
            "A UPDATE_IN_PROGRESS Resource creation Initiated",
            "A UPDATE_COMPLETE",
            "B UPDATE_IN_PROGRESS",
            "B UPDATE_FAILED nope",
            "sf UPDATE_FAILED The following resource(s) failed to update: [B]. ",
        });
  // Nothing lost: A's old resource is still on its record.
  std::vector<ms::ResourceRecord> rs;
  REQUIRE(h.service->Resources(id, &rs).ok());
  for (const auto& r : rs) {
    if (r.logical_id == "A") CHECK(r.old_physical_id == "A-1");
  }
  CHECK(h.providers.live() == std::set<std::string>{"A-1", "A-2", "B-1"});
}

TEST_CASE("a failed replacement leaves the old resource in place, rollback marks it UPDATE_COMPLETE", "[update]") {
  Harness h;
  std::string id = h.Create("s31", R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/a/"}}}})");
  Lines events = h.Update(id, R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/b/", "CreateFails": "boom"}}}})");
  CHECK(events ==
        Lines{
            "s31 UPDATE_IN_PROGRESS User Initiated",
            "A UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence "
            "creating one.",
            "A UPDATE_FAILED boom",
            "s31 UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [A]. ",
            "A UPDATE_COMPLETE",
            "s31 UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
            "s31 UPDATE_ROLLBACK_COMPLETE",
        });
  CHECK(h.Resources(id)["A"] == "UPDATE_COMPLETE A-1");
  CHECK(h.providers.live() == std::set<std::string>{"A-1"});
}

TEST_CASE("a replacement that failed after it was made is deleted in rollback cleanup, and its failure names it",
          "[update]") {
  Harness h;
  std::string id = h.Create("s31b", R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/a/"}}}})");
  Lines events = h.Update(id, R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/b/",
      "CreateSeconds": 20, "CreateFailsLeaving": "boom"}}}})");
  CHECK(events ==
        Lines{
            "s31b UPDATE_IN_PROGRESS User Initiated",
            "A UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence "
            "creating one.",
            "A UPDATE_IN_PROGRESS Resource creation Initiated",
            "A UPDATE_FAILED boom",
            "s31b UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [A]. ",
            "A UPDATE_COMPLETE",
            "s31b UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
            "A DELETE_IN_PROGRESS",
            "A DELETE_COMPLETE",
            "s31b UPDATE_ROLLBACK_COMPLETE",
        });
  CHECK(h.EventPhysicalIds(id, "A UPDATE_FAILED") == std::vector<std::string>{"A-2"});
  CHECK(h.Resources(id)["A"] == "UPDATE_COMPLETE A-1");
  CHECK(h.providers.live() == std::set<std::string>{"A-1"});
}

TEST_CASE("run 37: a failing cleanup delete is tried 3 times, then disassociated", "[update]") {
  Harness h;
  std::string id = h.Create("s37", R"({"Resources": {
    "SG1": {"Type": "Test::Upd::Thing", "Properties": {"DeleteFails": "resource SG1-1 has a dependent object"}},
    "SG2": {"Type": "Test::Upd::Thing"}}})");
  Lines events = h.Update(id, R"({"Resources": {
    "SG2": {"Type": "Test::Upd::Thing"},
    "SG3": {"Type": "Test::Upd::Thing"}}})");
  CHECK(events == Lines{
                      "s37 UPDATE_IN_PROGRESS User Initiated",
                      "SG3 CREATE_IN_PROGRESS",
                      "SG3 CREATE_IN_PROGRESS Resource creation Initiated",
                      "SG3 CREATE_COMPLETE",
                      "s37 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                      "SG1 DELETE_IN_PROGRESS",
                      "SG1 DELETE_FAILED resource SG1-1 has a dependent object",
                      "SG1 DELETE_IN_PROGRESS",
                      "SG1 DELETE_FAILED resource SG1-1 has a dependent object",
                      "SG1 DELETE_IN_PROGRESS",
                      "SG1 DELETE_FAILED resource SG1-1 has a dependent object",
                      "s37 UPDATE_COMPLETE Update successful. One or more resources could not be deleted.",
                  });
  // Disassociated: no longer a resource of the stack, still in the world.
  CHECK(h.Resources(id).count("SG1") == 0);
  CHECK(h.providers.live().count("SG1-1") == 1);
  // The tries were spread out in time.
  std::vector<ms::StackEvent> raw;
  REQUIRE(h.service->Events(id, &raw).ok());
  CHECK(raw.front().timestamp_ms - raw[5].timestamp_ms >= 180000);
}

TEST_CASE("a type change is a replacement", "[update]") {
  Harness h;
  std::string id = h.Create("st", R"({"Resources": {"A": {"Type": "Test::Upd::Thing"}}})");
  Lines events = h.Update(id, R"({"Resources": {"A": {"Type": "Test::Upd::Other"}}})");
  CHECK(events ==
        Lines{
            "st UPDATE_IN_PROGRESS User Initiated",
            "A UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence "
            "creating one.",
            "A UPDATE_IN_PROGRESS Resource creation Initiated",
            "A UPDATE_COMPLETE",
            "st UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
            "A DELETE_IN_PROGRESS",
            "A DELETE_COMPLETE",
            "st UPDATE_COMPLETE",
        });
  std::vector<ms::ResourceRecord> rs;
  REQUIRE(h.service->Resources(id, &rs).ok());
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].type == "Test::Upd::Other");
}

TEST_CASE("a rollback cleanup interrupted by a restart resumes", "[update]") {
  Harness h;
  std::string id = h.Create("sr", R"({"Resources": {"A": {"Type": "Test::Upd::Thing"}}})");
  // As a crash would leave it: the template is the previous one again, B
  // (added by the update) is still there, A's replacement A-2 still to delete.
  std::vector<ms::ResourceRecord> rs;
  REQUIRE(h.service->Resources(id, &rs).ok());
  ms::ResourceRecord a = rs[0];
  a.old_physical_id = "A-2";
  a.old_properties = ms::Value::MakeMap();
  a.old_attributes = ms::Value::MakeMap();
  ms::ResourceRecord b = a;
  b.logical_id = "B";
  b.physical_id = "B-1";
  b.old_physical_id.clear();
  b.old_properties = ms::Value();
  b.old_attributes = ms::Value();
  // The update journal: B was added by the update, A pointed back.
  a.update_step = ms::UpdateStep::kRestored;
  b.update_step = ms::UpdateStep::kAdded;
  StackRecord s = h.Stack(id);
  s.previous_template_body = s.template_body;
  s.previous_parameters = s.parameters;
  s.status = ms::StackStatus::kUpdateRollbackCompleteCleanupInProgress;
  ms::StoreBatch batch;
  batch.stacks.push_back(s);
  batch.resources = {&a, &b};
  REQUIRE(ms::CommitBatch(h.db.get(), nullptr, &batch).ok());
  const size_t before = h.Events(id).size();
  std::vector<std::string> recovered;
  REQUIRE(h.service->Recover(&recovered).ok());
  CHECK(recovered == std::vector<std::string>{id});
  CHECK(h.Events(id, before) == Lines{
                                    "A DELETE_IN_PROGRESS",
                                    "B DELETE_IN_PROGRESS",
                                    "A DELETE_COMPLETE",
                                    "B DELETE_COMPLETE",
                                    "sr UPDATE_ROLLBACK_COMPLETE",
                                });
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"A", "CREATE_COMPLETE A-1"}});
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "delete A-2") == 1);
  CHECK(std::count(log.begin(), log.end(), "delete B-1") == 1);
}

TEST_CASE("run 34: a failed update cancels a sibling's create, rollback deletes what it made", "[update]") {
  Harness h;
  std::string id = h.Create("s34", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  // Instance2 was terminated by hand: its update fails (after 10 s) while
  // Instance3 is still being created (30 s).
  Lines events = h.Update(id, R"({
  "Parameters": {"ImageId": {"Type": "String"}, "InstanceType": {"Type": "String"}},
  "Resources": {
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"},
                  "UpdateSeconds": 10, "UpdateFails": "This instance 'Instance2-1' is not in a state from which it can be stopped."}},
    "Instance3": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}, "CreateSeconds": 30}}
  }})",
                          {P("ImageId", "ami-1"), P("InstanceType", "t2.small")});
  CHECK(events == Lines{
                      "s34 UPDATE_IN_PROGRESS User Initiated",
                      "Instance2 UPDATE_IN_PROGRESS",
                      "Instance3 CREATE_IN_PROGRESS",
                      "Instance3 CREATE_IN_PROGRESS Resource creation Initiated",
                      "Instance2 UPDATE_FAILED This instance 'Instance2-1' is not in a state from which it can be stopped.",
                      "Instance3 CREATE_FAILED Resource creation cancelled",
                      "s34 UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Instance3]. "
                      "The following resource(s) failed to update: [Instance2]. ",
                      "Instance2 UPDATE_COMPLETE",
                      "s34 UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                      "Instance3 DELETE_IN_PROGRESS",
                      "Instance3 DELETE_COMPLETE",
                      "s34 UPDATE_ROLLBACK_COMPLETE",
                  });
  // The cancelled create was followed to its end, so what it made was deleted.
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "create Instance3-1") == 1);
  CHECK(std::count(log.begin(), log.end(), "delete Instance3-1") == 1);
  CHECK(h.providers.live() == std::set<std::string>{"Instance1-1", "Instance2-1"});
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"Instance1", "CREATE_COMPLETE Instance1-1"},
                                                              {"Instance2", "UPDATE_COMPLETE Instance2-1"}});
}

TEST_CASE("a failure cancels an update in flight, what it changed is rolled back", "[update]") {
  Harness h;
  std::string id = h.Create("sc", R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"InstanceType": "t2.micro"}}}})");
  Lines events = h.Update(id, R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing", "Properties": {"InstanceType": "t2.small", "UpdateSeconds": 20}},
    "B": {"Type": "Test::Upd::Thing", "Properties": {"CreateFails": "boom"}}}})");
  CHECK(events == Lines{
                      "sc UPDATE_IN_PROGRESS User Initiated",
                      "A UPDATE_IN_PROGRESS",
                      "B CREATE_IN_PROGRESS",
                      "B CREATE_FAILED boom",
                      "A UPDATE_FAILED Resource update cancelled",
                      "sc UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [B]. "
                      "The following resource(s) failed to update: [A]. ",
                      "A UPDATE_IN_PROGRESS",
                      "A UPDATE_COMPLETE",
                      "sc UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                      "B DELETE_COMPLETE",
                      "sc UPDATE_ROLLBACK_COMPLETE",
                  });
  // The cancelled update went through, so the rollback hook undid it.
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "rollback A-1 [InstanceType,UpdateSeconds]") == 1);
  std::vector<ms::ResourceRecord> rs;
  REQUIRE(h.service->Resources(id, &rs).ok());
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].properties.find("InstanceType")->str() == "t2.micro");
}

TEST_CASE("run 31: an AWS-specific parameter value that does not exist fails at workflow start", "[update]") {
  Harness h;
  const char* body = R"({
  "Parameters": {"ImageId": {"Type": "AWS::EC2::Image::Id"}},
  "Resources": {"Instance1": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": {"Ref": "ImageId"}}}}})";
  std::string id = h.Create("s31p", body, {P("ImageId", "ami-1")});
  h.providers.SetMissing({"ami-bad"});
  Lines events = h.Update(id, body, {P("ImageId", "ami-bad")});
  CHECK(events ==
        Lines{
            "s31p UPDATE_IN_PROGRESS User Initiated",
            "s31p UPDATE_ROLLBACK_IN_PROGRESS Parameter validation failed: parameter value ami-bad for parameter name "
            "ImageId does not exist",
            "s31p UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
            "s31p UPDATE_ROLLBACK_COMPLETE",
        });
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"Instance1", "CREATE_COMPLETE Instance1-1"}});
  CHECK(h.Stack(id).parameters.at(0).value == "ami-1");
}

TEST_CASE("run 38: a failing rollback cleanup delete is retried, then disassociated", "[update]") {
  Harness h;
  std::string id = h.Create("s38", R"({"Resources": {
    "SG1": {"Type": "Test::Upd::Thing"}, "SG2": {"Type": "Test::Upd::Thing"}}})");
  // SG3 gets used outside the stack before Instance3 fails.
  Lines events = h.Update(id, R"T({"Resources": {
    "SG2": {"Type": "Test::Upd::Thing"},
    "SG3": {"Type": "Test::Upd::Thing", "Properties": {"DeleteFails": "resource SG3-1 has a dependent object"}},
    "Instance1": {"Type": "Test::Upd::Thing", "Properties": {"Groups": [{"Ref": "SG3"}]}},
    "Instance2": {"Type": "Test::Upd::Thing", "DependsOn": "Instance1"},
    "Instance3": {"Type": "Test::Upd::Thing", "DependsOn": "Instance2",
                  "Properties": {"CreateFails": "Invalid id: \"bogus\" (expecting \"ami-...\")"}}}})T");
  const std::string failed = "SG3 DELETE_FAILED resource SG3-1 has a dependent object";
  CHECK(events == Lines{
                      "s38 UPDATE_IN_PROGRESS User Initiated",
                      "SG3 CREATE_IN_PROGRESS",
                      "SG3 CREATE_IN_PROGRESS Resource creation Initiated",
                      "SG3 CREATE_COMPLETE",
                      "Instance1 CREATE_IN_PROGRESS",
                      "Instance1 CREATE_IN_PROGRESS Resource creation Initiated",
                      "Instance1 CREATE_COMPLETE",
                      "Instance2 CREATE_IN_PROGRESS",
                      "Instance2 CREATE_IN_PROGRESS Resource creation Initiated",
                      "Instance2 CREATE_COMPLETE",
                      "Instance3 CREATE_IN_PROGRESS",
                      "Instance3 CREATE_FAILED Invalid id: \"bogus\" (expecting \"ami-...\")",
                      "s38 UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Instance3]. ",
                      "s38 UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                      "Instance3 DELETE_COMPLETE",
                      "Instance2 DELETE_IN_PROGRESS",
                      "Instance2 DELETE_COMPLETE",
                      "Instance1 DELETE_IN_PROGRESS",
                      "Instance1 DELETE_COMPLETE",
                      "SG3 DELETE_IN_PROGRESS",
                      failed,
                      "SG3 DELETE_IN_PROGRESS",
                      failed,
                      "SG3 DELETE_IN_PROGRESS",
                      failed,
                      "s38 UPDATE_ROLLBACK_COMPLETE Update successful. One or more resources could not be deleted.",
                  });
  // SG3 is disassociated: gone from the stack, still in the world.
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"SG1", "CREATE_COMPLETE SG1-1"},
                                                              {"SG2", "CREATE_COMPLETE SG2-1"}});
  CHECK(h.providers.live() == std::set<std::string>{"SG1-1", "SG2-1", "SG3-1"});
}

TEST_CASE("run 36: a failing rollback step ends UPDATE_ROLLBACK_FAILED", "[update]") {
  Harness h;
  // The fake's rollback hook gets the properties to go back to: a failing
  // rollback of Instance2 (terminated by hand after its update) is scripted
  // on its old properties.
  std::string id = h.Create("s36", R"({"Resources": {
    "Instance1": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.micro"}},
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.micro",
                  "UpdateFails": "This instance 'Instance2-1' is not in a state from which it can be stopped."}}}})");
  Lines events = h.Update(id, R"T({"Resources": {
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.small"}},
    "Instance3": {"Type": "Test::Upd::Thing", "DependsOn": "Instance2", "Properties": {"ImageId": "ami-1"}},
    "Instance4": {"Type": "Test::Upd::Thing", "DependsOn": ["Instance2", "Instance3"],
                  "Properties": {"ImageId": {"Ref": "Instance2"}, "CreateFails": "Invalid id: \"Instance2-1\" (expecting \"ami-...\")"}}}})T");
  CHECK(events == Lines{
                      "s36 UPDATE_IN_PROGRESS User Initiated",
                      "Instance2 UPDATE_IN_PROGRESS",
                      "Instance2 UPDATE_COMPLETE",
                      "Instance3 CREATE_IN_PROGRESS",
                      "Instance3 CREATE_IN_PROGRESS Resource creation Initiated",
                      "Instance3 CREATE_COMPLETE",
                      "Instance4 CREATE_IN_PROGRESS",
                      "Instance4 CREATE_FAILED Invalid id: \"Instance2-1\" (expecting \"ami-...\")",
                      "s36 UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Instance4]. ",
                      "Instance2 UPDATE_IN_PROGRESS",
                      "Instance2 UPDATE_FAILED This instance 'Instance2-1' is not in a state from which it can be stopped.",
                      "s36 UPDATE_ROLLBACK_FAILED The following resource(s) failed to update: [Instance2]. ",
                  });
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("UPDATE_ROLLBACK_FAILED"));
  // GetTemplate shows the template the rollback goes back to (seed 001).
  CHECK(h.Stack(id).shown_template_body().find("UpdateFails") != std::string::npos);
  CHECK(h.Stack(id).shown_template_body().find("Instance4") == std::string::npos);
  // No further action: nothing was cleaned up.
  CHECK(h.providers.live() == std::set<std::string>{"Instance1-1", "Instance2-1", "Instance3-1"});
}

TEST_CASE("Retain policies: update cleanup skips the delete and leaves the resource", "[update]") {
  Harness h;
  std::string id = h.Create("sk", R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing", "DeletionPolicy": "Retain"},
    "B": {"Type": "Test::Upd::Thing", "UpdateReplacePolicy": "Retain", "Properties": {"Path": "/a/"}}}})");
  Lines events = h.Update(id, R"({"Resources": {
    "B": {"Type": "Test::Upd::Thing", "UpdateReplacePolicy": "Retain", "Properties": {"Path": "/b/"}}}})");
  CHECK(events ==
        Lines{
            "sk UPDATE_IN_PROGRESS User Initiated",
            "B UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence "
            "creating one.",
            "B UPDATE_IN_PROGRESS Resource creation Initiated",
            "B UPDATE_COMPLETE",
            "sk UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
            "B DELETE_SKIPPED",
            "A DELETE_SKIPPED",
            "sk UPDATE_COMPLETE",
        });
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"B", "UPDATE_COMPLETE B-2"}});
  CHECK(h.providers.live() == std::set<std::string>{"A-1", "B-1", "B-2"});
  Lines log = h.providers.log();
  CHECK(std::count_if(log.begin(), log.end(), [](const std::string& l) { return l.rfind("delete", 0) == 0; }) == 0);
}

TEST_CASE("Retain policies: update rollback cleanup keeps what Retain marks", "[update]") {
  Harness h;
  std::string id = h.Create("sq", R"({"Resources": {"X": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/a/"}}}})");
  Lines events = h.Update(id, R"({"Resources": {
    "X": {"Type": "Test::Upd::Thing", "UpdateReplacePolicy": "Retain", "Properties": {"Path": "/b/"}},
    "N": {"Type": "Test::Upd::Thing", "DeletionPolicy": "Retain"},
    "M": {"Type": "Test::Upd::Thing", "DeletionPolicy": "RetainExceptOnCreate"},
    "F": {"Type": "Test::Upd::Thing", "DependsOn": ["X", "N", "M"], "Properties": {"CreateFails": "boom"}}}})");
  const std::string replacing =
      " UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.";
  CHECK(events == Lines{
                      "sq UPDATE_IN_PROGRESS User Initiated",
                      "X" + replacing,
                      "N CREATE_IN_PROGRESS",
                      "M CREATE_IN_PROGRESS",
                      "X UPDATE_IN_PROGRESS Resource creation Initiated",
                      "X UPDATE_COMPLETE",
                      "N CREATE_IN_PROGRESS Resource creation Initiated",
                      "N CREATE_COMPLETE",
                      "M CREATE_IN_PROGRESS Resource creation Initiated",
                      "M CREATE_COMPLETE",
                      "F CREATE_IN_PROGRESS",
                      "F CREATE_FAILED boom",
                      "sq UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [F]. ",
                      "X UPDATE_COMPLETE",
                      "sq UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                      "F DELETE_COMPLETE",
                      "X DELETE_SKIPPED",
                      "N DELETE_SKIPPED",
                      "M DELETE_IN_PROGRESS",
                      "M DELETE_COMPLETE",
                      "sq UPDATE_ROLLBACK_COMPLETE",
                  });
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"X", "UPDATE_COMPLETE X-1"}});
  CHECK(h.providers.live() == std::set<std::string>{"N-1", "X-1", "X-2"});
}

// --- continue-update-rollback, rollback-stack, cancel-update-stack -----------------

namespace {

// Seed 000 run 36's stack, left UPDATE_ROLLBACK_FAILED: Instance2's rollback
// fails (its old properties script the failure), Instance3 was added,
// Instance4 failed to create, Instance1 is still there (removed only by a
// cleanup that never ran).
std::string Run36(Harness& h) {
  std::string id = h.Create("s36", R"({"Resources": {
    "Instance1": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.micro"}},
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.micro",
                  "UpdateFails": "This instance 'Instance2-1' is not in a state from which it can be stopped."}}}})");
  h.Update(id, R"T({"Resources": {
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": "ami-1", "InstanceType": "t2.small"}},
    "Instance3": {"Type": "Test::Upd::Thing", "DependsOn": "Instance2", "Properties": {"ImageId": "ami-1"}},
    "Instance4": {"Type": "Test::Upd::Thing", "DependsOn": ["Instance2", "Instance3"],
                  "Properties": {"ImageId": {"Ref": "Instance2"}, "CreateFails": "Invalid id"}}}})T");
  REQUIRE(ms::StackStatusName(h.Stack(id).status) == std::string("UPDATE_ROLLBACK_FAILED"));
  return id;
}

Lines ContinueRollback(Harness& h, const std::string& id, std::vector<std::string> skip = {}) {
  const size_t before = h.Events(id).size();
  std::string sid;
  Status s = h.service->StartContinueUpdateRollback({"s36", std::move(skip), ""}, &sid);
  INFO(s.message());
  REQUIRE(s.ok());
  CHECK(sid == id);
  s = h.service->Run(id);
  INFO(s.message());
  REQUIRE(s.ok());
  return h.Events(id, before);
}

// The rollback cleanup of run 36's update, once the rollback gets through.
const Lines kRun36Cleanup = {
    "s36 UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
    "Instance4 DELETE_COMPLETE",
    "Instance3 DELETE_IN_PROGRESS",
    "Instance3 DELETE_COMPLETE",
    "s36 UPDATE_ROLLBACK_COMPLETE",
};

Lines Concat(Lines a, const Lines& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("continue-update-rollback: once the cause is fixed, the rollback goes through", "[update][recovery]") {
  Harness h;
  std::string id = Run36(h);
  // Failing again, as long as nothing changed.
  CHECK(ContinueRollback(h, id) ==
        Lines{
            "s36 UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
            "Instance2 UPDATE_IN_PROGRESS",
            "Instance2 UPDATE_FAILED This instance 'Instance2-1' is not in a state from which it can be stopped.",
            "s36 UPDATE_ROLLBACK_FAILED The following resource(s) failed to update: [Instance2]. ",
        });
  h.providers.Fix("Instance2-1");
  CHECK(ContinueRollback(h, id) == Concat(
                                       Lines{
                                           "s36 UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
                                           "Instance2 UPDATE_IN_PROGRESS",
                                           "Instance2 UPDATE_COMPLETE",
                                       },
                                       kRun36Cleanup));
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "rollback Instance2-1 [InstanceType,UpdateFails]") == 3);
  // The stack is the one before the update again.
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"Instance1", "CREATE_COMPLETE Instance1-1"},
                                                              {"Instance2", "UPDATE_COMPLETE Instance2-1"}});
  CHECK(h.providers.live() == std::set<std::string>{"Instance1-1", "Instance2-1"});
  CHECK(h.Stack(id).template_body.find("Instance1") != std::string::npos);
  std::vector<ms::ResourceRecord> rs;
  REQUIRE(h.service->Resources(id, &rs).ok());
  for (const auto& r : rs) {
    CHECK(r.update_step == ms::UpdateStep::kNone);  // the journal is cleared
    if (r.logical_id == "Instance2") CHECK(r.properties.find("InstanceType")->str() == "t2.micro");
  }
}

TEST_CASE("continue-update-rollback --resources-to-skip takes the resource as rolled back", "[update][recovery]") {
  Harness h;
  std::string id = Run36(h);
  CHECK(ContinueRollback(h, id, {"Instance2"}) == Concat(
                                                      Lines{
                                                          "s36 UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
                                                          "Instance2 UPDATE_COMPLETE",
                                                      },
                                                      kRun36Cleanup));
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "rollback Instance2-1 [InstanceType,UpdateFails]") == 1);  // run 36's only
  CHECK(h.providers.live() == std::set<std::string>{"Instance1-1", "Instance2-1"});
  std::vector<ms::ResourceRecord> rs;
  REQUIRE(h.service->Resources(id, &rs).ok());
  for (const auto& r : rs) {
    if (r.logical_id == "Instance2") CHECK(r.properties.find("InstanceType")->str() == "t2.micro");
  }
}

TEST_CASE("continue-update-rollback refusals", "[update][recovery]") {
  Harness h;
  std::string sid;
  h.Create("ok", R"({"Resources": {"A": {"Type": "Test::Upd::Thing"}}})");
  Status s = h.service->StartContinueUpdateRollback({"ok", {}, ""}, &sid);
  CHECK(s.message() == "ContinueUpdateRollback cannot be called from current stack status");
  s = h.service->StartContinueUpdateRollback({"nope", {}, ""}, &sid);
  CHECK(s.message() == "Stack [nope] does not exist");
  std::string id = Run36(h);
  // Only resources whose rollback failed can be skipped.
  s = h.service->StartContinueUpdateRollback({"s36", {"Instance3"}, ""}, &sid);
  CHECK(s.message() == "Invalid ResourcesToSkip [Instance3]: only resources in the UPDATE_FAILED state because "
                       "their rollback failed can be skipped");
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("UPDATE_ROLLBACK_FAILED"));
}

TEST_CASE("rollback-stack rolls an UPDATE_FAILED stack back to where the update started", "[update][recovery]") {
  Harness h;
  std::string id = h.Create("sf", R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/a/"}},
    "B": {"Type": "Test::Upd::Thing", "Properties": {"Source": {"Ref": "A"}, "Size": 1}}}})");
  ms::UpdateStackInput in;
  in.stack_name = "sf";
  in.template_body = R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/b/"}},
    "B": {"Type": "Test::Upd::Thing", "Properties": {"Source": {"Ref": "A"}, "Size": 2, "UpdateFails": "nope"}},
    "C": {"Type": "Test::Upd::Thing", "Properties": {"Size": 3}},
    "D": {"Type": "Test::Upd::Thing", "DependsOn": "B"}}})";
  in.disable_rollback = true;
  std::string sid;
  REQUIRE(h.service->StartUpdate(in, &sid).ok());
  REQUIRE(h.service->Run(id).ok());
  REQUIRE(ms::StackStatusName(h.Stack(id).status) == std::string("UPDATE_FAILED"));
  CHECK(h.providers.live() == std::set<std::string>{"A-1", "A-2", "B-1", "C-1"});

  const size_t before = h.Events(id).size();
  Status s = h.service->StartRollbackStack({"sf", ""}, &sid);
  INFO(s.message());
  REQUIRE(s.ok());
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.Events(id, before) == Lines{
                                    "sf UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
                                    "A UPDATE_COMPLETE",
                                    "B UPDATE_COMPLETE",
                                    "sf UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                                    "C DELETE_IN_PROGRESS",
                                    "A DELETE_IN_PROGRESS",
                                    "C DELETE_COMPLETE",
                                    "A DELETE_COMPLETE",
                                    "sf UPDATE_ROLLBACK_COMPLETE",
                                });
  CHECK(h.providers.live() == std::set<std::string>{"A-1", "B-1"});
  CHECK(h.Resources(id) ==
        std::map<std::string, std::string>{{"A", "UPDATE_COMPLETE A-1"}, {"B", "UPDATE_COMPLETE B-1"}});
  // Refused once the stack is stable again.
  s = h.service->StartRollbackStack({"sf", ""}, &sid);
  CHECK(s.message() == "RollbackStack cannot be called from current stack status");
}

TEST_CASE("rollback-stack rolls a CREATE_FAILED stack back: everything is deleted", "[update][recovery]") {
  Harness h;
  ms::CreateStackInput in;
  in.stack_name = "cf";
  in.template_body = R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing"},
    "B": {"Type": "Test::Upd::Thing", "DependsOn": "A", "Properties": {"CreateFails": "no capacity"}}}})";
  in.disable_rollback = true;
  std::string id;
  REQUIRE(h.service->StartCreate(in, &id).ok());
  REQUIRE(h.service->Run(id).ok());
  REQUIRE(ms::StackStatusName(h.Stack(id).status) == std::string("CREATE_FAILED"));
  const size_t before = h.Events(id).size();
  std::string sid;
  REQUIRE(h.service->StartRollbackStack({id, ""}, &sid).ok());
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.Events(id, before) == Lines{
                                    "cf ROLLBACK_IN_PROGRESS User Initiated",
                                    "B DELETE_COMPLETE",
                                    "A DELETE_IN_PROGRESS",
                                    "A DELETE_COMPLETE",
                                    "cf ROLLBACK_COMPLETE",
                                });
  CHECK(h.providers.live().empty());
}

namespace {

// Asks for the running update to be cancelled, through the service as a
// second client would, when an event matching `when` is recorded.
class CancelOn : public ms::OperationObserver {
 public:
  CancelOn(std::string when, std::string stack) : when_(std::move(when)), stack_(std::move(stack)) {}
  ms::StackService* service = nullptr;
  void OnEvent(const ms::StackEvent& e) override {
    const std::string line = e.logical_id + " " + e.status + (e.reason.empty() ? "" : " " + e.reason);
    if (line == when_ && service != nullptr) {
      Status s = service->CancelUpdate({stack_, ""});
      INFO(s.message());
      CHECK(s.ok());
    }
  }

 private:
  std::string when_, stack_;
};

}  // namespace

TEST_CASE("cancel-update-stack: what is in flight is cancelled, followed, and rolled back", "[update][recovery]") {
  Harness h;
  std::string id = h.Create("cx", R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing", "Properties": {"InstanceType": "t2.micro", "UpdateSeconds": 30}},
    "Z": {"Type": "Test::Upd::Thing"}}})");
  ms::CancelRequests cancels;
  CancelOn observer("B CREATE_IN_PROGRESS Resource creation Initiated", "cx");
  ms::OperationContext ctx = h.service->context();
  ctx.cancels = &cancels;
  ctx.observer = &observer;
  ms::StackService service(ctx);
  observer.service = &service;

  ms::UpdateStackInput in;
  in.stack_name = "cx";
  in.template_body = R"({"Resources": {
    "A": {"Type": "Test::Upd::Thing", "Properties": {"InstanceType": "t2.large", "UpdateSeconds": 30}},
    "B": {"Type": "Test::Upd::Thing", "Properties": {"CreateSeconds": 30}},
    "C": {"Type": "Test::Upd::Thing", "DependsOn": "A"},
    "Z": {"Type": "Test::Upd::Thing"}}})";
  in.disable_rollback = true;  // cancelling rolls back all the same
  const size_t before = h.Events(id).size();
  std::string sid;
  REQUIRE(service.StartUpdate(in, &sid).ok());
  REQUIRE(service.Run(id).ok());
  CHECK(h.Events(id, before) == Lines{
                                    "cx UPDATE_IN_PROGRESS User Initiated",
                                    "A UPDATE_IN_PROGRESS",
                                    "B CREATE_IN_PROGRESS",
                                    "B CREATE_IN_PROGRESS Resource creation Initiated",
                                    "A UPDATE_FAILED Resource update cancelled",
                                    "B CREATE_FAILED Resource creation cancelled",
                                    "cx UPDATE_ROLLBACK_IN_PROGRESS Stack update cancelled",
                                    "A UPDATE_IN_PROGRESS",
                                    "A UPDATE_COMPLETE",
                                    "cx UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                                    "B DELETE_IN_PROGRESS",
                                    "B DELETE_COMPLETE",
                                    "cx UPDATE_ROLLBACK_COMPLETE",
                                });
  // A's update went through while it was followed: it was rolled back.
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "update A-1 [InstanceType]") == 1);
  CHECK(std::count(log.begin(), log.end(), "rollback A-1 [InstanceType]") == 1);
  CHECK(h.providers.live() == std::set<std::string>{"A-1", "Z-1"});
  // Refused when no update is running.
  Status s = service.CancelUpdate({"cx", ""});
  CHECK(s.message() == "CancelUpdateStack cannot be called from current stack status");
}

TEST_CASE("a provider that leaves partial updates has its failed update rolled back", "[update][recovery]") {
  Harness h;
  std::string id = h.Create("pu", R"({"Resources": {
    "P": {"Type": "Test::Upd::Partial", "Properties": {"InstanceType": "t2.micro"}},
    "T": {"Type": "Test::Upd::Thing", "Properties": {"InstanceType": "t2.micro"}}}})");
  Lines events = h.Update(id, R"({"Resources": {
    "P": {"Type": "Test::Upd::Partial", "Properties": {"InstanceType": "t2.large", "UpdateFails": "half done"}},
    "T": {"Type": "Test::Upd::Thing", "DependsOn": "P", "Properties": {"InstanceType": "t2.micro"}}}})");
  CHECK(events == Lines{
                      "pu UPDATE_IN_PROGRESS User Initiated",
                      "P UPDATE_IN_PROGRESS",
                      "P UPDATE_FAILED half done",
                      "pu UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [P]. ",
                      "P UPDATE_IN_PROGRESS",
                      "P UPDATE_COMPLETE",
                      "pu UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                      "pu UPDATE_ROLLBACK_COMPLETE",
                  });
  Lines log = h.providers.log();
  CHECK(std::count(log.begin(), log.end(), "rollback P-1 [InstanceType,UpdateFails]") == 1);
}

TEST_CASE("seed 004: update hooks get the new UpdatePolicy, rollback the one rolled back to", "[update]") {
  Harness h;
  std::string id = h.Create("up", R"({"Resources": {
    "G": {"Type": "Test::Upd::Thing", "UpdatePolicy": {"Rolling": {"MaxBatchSize": 1}},
          "Properties": {"InstanceType": "t2.micro"}}}})");
  Lines events = h.Update(id, R"({"Resources": {
    "G": {"Type": "Test::Upd::Thing", "UpdatePolicy": {"Rolling": {"MaxBatchSize": 10}},
          "Properties": {"InstanceType": "t2.large"}},
    "F": {"Type": "Test::Upd::Thing", "DependsOn": "G", "Properties": {"CreateFails": "no"}}}})");
  CHECK(events.back() == "up UPDATE_ROLLBACK_COMPLETE");
  CHECK(h.providers.policy_log() == Lines{
                                        R"(update G-1 policy={"Rolling":{"MaxBatchSize":10}} old={"Rolling":{"MaxBatchSize":1}})",
                                        R"(rollback G-1 policy={"Rolling":{"MaxBatchSize":1}} old={"Rolling":{"MaxBatchSize":10}})",
                                    });
}

TEST_CASE("run 30: a changed DependsOn is honoured once the update runs (delete order)", "[update]") {
  Harness h;
  const char* three = R"({"Resources": {
    "Instance1": {"Type": "Test::Upd::Thing"},
    "Instance2": {"Type": "Test::Upd::Thing"},
    "Instance3": {"Type": "Test::Upd::Thing"}}})";
  std::string id = h.Create("s30", three);
  // DependsOn alone: nothing to do (run 28/29) ...
  CHECK(h.StartUpdate("s30", R"({"Resources": {
    "Instance1": {"Type": "Test::Upd::Thing"},
    "Instance2": {"Type": "Test::Upd::Thing", "DependsOn": "Instance3"},
    "Instance3": {"Type": "Test::Upd::Thing"}}})").message() == "No updates are to be performed.");
  // ... but with Dummy added the whole template is taken, DependsOn included.
  Lines events = h.Update(id, R"({"Resources": {
    "Instance1": {"Type": "Test::Upd::Thing"},
    "Instance2": {"Type": "Test::Upd::Thing", "DependsOn": "Instance3"},
    "Instance3": {"Type": "Test::Upd::Thing"},
    "Dummy": {"Type": "Test::Upd::Thing"}}})");
  CHECK(events == Lines{
                      "s30 UPDATE_IN_PROGRESS User Initiated",
                      "Dummy CREATE_IN_PROGRESS",
                      "Dummy CREATE_IN_PROGRESS Resource creation Initiated",
                      "Dummy CREATE_COMPLETE",
                      "s30 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                      "s30 UPDATE_COMPLETE",
                  });
  // Deleting the stack now deletes Instance2 before Instance3.
  const size_t before = h.Events(id).size();
  std::string sid;
  REQUIRE(h.service->StartDelete({"s30", {}, ""}, &sid).ok());
  REQUIRE(h.service->Run(id).ok());
  Lines deleted = h.Events(id, before);
  auto at = [&](const std::string& line) { return std::find(deleted.begin(), deleted.end(), line) - deleted.begin(); };
  CHECK(at("Instance2 DELETE_COMPLETE") < at("Instance3 DELETE_IN_PROGRESS"));
  CHECK(at("Instance3 DELETE_IN_PROGRESS") < static_cast<long>(deleted.size()));
  CHECK(deleted.back() == "s30 DELETE_COMPLETE");
}

namespace {

// Signals `logical` (SUCCESS, `unique_id`) when the event line `when` is recorded.
class SignalOn : public ms::OperationObserver {
 public:
  SignalOn(ms::World* world, ms::Clock* clock, std::string when, std::string logical, std::string unique_id)
      : world_(world), clock_(clock), when_(std::move(when)), logical_(std::move(logical)), id_(std::move(unique_id)) {}
  void OnEvent(const ms::StackEvent& e) override {
    const std::string line = e.logical_id + " " + e.status + (e.reason.empty() ? "" : " " + e.reason);
    if (line == when_) ms::PutResourceSignal(world_, e.stack_name, logical_, {id_, "SUCCESS", e.stack_id, clock_->NowMs()});
  }

 private:
  ms::World* world_;
  ms::Clock* clock_;
  std::string when_, logical_, id_;
};

}  // namespace

TEST_CASE("CreationPolicy in an update: an added resource waits for its signal, a replacement times out",
          "[update][signal]") {
  Harness h;
  std::string id = h.Create("cp", R"({"Resources": {"B": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/a/"}}}})");
  SignalOn signaller(&h.world, h.clock.get(), "W CREATE_IN_PROGRESS Resource creation Initiated", "W", "i-1");
  ms::OperationContext ctx = h.service->context();
  ctx.observer = &signaller;
  ms::StackService service(ctx);

  ms::UpdateStackInput in;
  in.stack_name = "cp";
  in.template_body = R"({"Resources": {
    "B": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/a/"}},
    "W": {"Type": "Test::Upd::Thing", "CreationPolicy": {"ResourceSignal": {"Count": 1, "Timeout": "PT1M"}}}}})";
  size_t before = h.Events(id).size();
  std::string sid;
  REQUIRE(service.StartUpdate(in, &sid).ok());
  REQUIRE(service.Run(id).ok());
  CHECK(h.Events(id, before) == Lines{
                                    "cp UPDATE_IN_PROGRESS User Initiated",
                                    "W CREATE_IN_PROGRESS",
                                    "W CREATE_IN_PROGRESS Resource creation Initiated",
                                    "W CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-1",
                                    "W CREATE_COMPLETE",
                                    "cp UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                                    "cp UPDATE_COMPLETE",
                                });

  // B replaced, with a CreationPolicy nobody signals: the replacement times
  // out a minute after it started, and the update rolls back to B-1.
  in.template_body = R"({"Resources": {
    "B": {"Type": "Test::Upd::Thing", "Properties": {"Path": "/b/"},
          "CreationPolicy": {"ResourceSignal": {"Timeout": "PT1M"}}},
    "W": {"Type": "Test::Upd::Thing", "CreationPolicy": {"ResourceSignal": {"Count": 1, "Timeout": "PT1M"}}}}})";
  before = h.Events(id).size();
  const int64_t start = h.clock->NowMs();
  REQUIRE(service.StartUpdate(in, &sid).ok());
  REQUIRE(service.Run(id).ok());
  CHECK(h.Events(id, before) ==
        Lines{
            "cp UPDATE_IN_PROGRESS User Initiated",
            "B UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.",
            "B UPDATE_IN_PROGRESS Resource creation Initiated",
            "B UPDATE_FAILED Failed to receive 1 resource signal(s) within the specified duration",
            "cp UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [B]. ",
            "B UPDATE_COMPLETE",
            "cp UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
            "B DELETE_IN_PROGRESS",
            "B DELETE_COMPLETE",
            "cp UPDATE_ROLLBACK_COMPLETE",
        });
  std::vector<ms::StackEvent> events;
  REQUIRE(h.service->Events(id, &events).ok());
  for (const ms::StackEvent& e : events) {
    if (e.reason.rfind("Failed to receive", 0) == 0) CHECK(e.timestamp_ms - start == 60000);
  }
  CHECK(h.providers.live() == std::set<std::string>{"B-1", "W-1"});
  CHECK(h.Resources(id) == std::map<std::string, std::string>{{"B", "UPDATE_COMPLETE B-1"}, {"W", "CREATE_COMPLETE W-1"}});
}
