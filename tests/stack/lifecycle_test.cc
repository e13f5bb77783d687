// Stack lifecycle scenarios with a C++ fake provider (fake_providers.h), in
// virtual time: the exact event sequences of create, rollback, delete.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "fake_providers.h"
#include "service_fixture.h"
#include "stack/stack_service.h"
#include "store/stack_tables.h"

using ms::StackRecord;
using ms::StackService;
using ms::Status;

namespace {

struct Harness : ms::testing::ServiceFixture<ms::testing::FakeProviders> {
  // create-stack run to the end; returns the stack ID.
  std::string Create(const std::string& name, const std::string& body, const std::string& on_failure = "") {
    ms::CreateStackInput in;
    in.stack_name = name;
    in.template_body = body;
    in.on_failure = on_failure;
    return CreateWith(in);
  }

  void Delete(const std::string& name, std::vector<std::string> retain = {}) {
    std::string id;
    Status s = service->StartDelete({name, std::move(retain), ""}, &id);
    INFO(s.message());
    REQUIRE(s.ok());
    if (!id.empty()) REQUIRE(service->Run(id).ok());
  }

  StackRecord Stack(const std::string& name_or_id) {
    StackRecord s;
    REQUIRE(service->FindStack(name_or_id, &s).ok());
    return s;
  }

  // "Logical STATUS[ reason]" per event, oldest first, from `from` on.
  std::vector<std::string> Events(const std::string& id, size_t from = 0) {
    std::vector<ms::StackEvent> events;
    REQUIRE(service->Events(id, &events).ok());
    std::vector<std::string> out;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      out.push_back(it->logical_id + " " + it->status + (it->reason.empty() ? "" : " " + it->reason));
    }
    return std::vector<std::string>(out.begin() + static_cast<long>(from), out.end());
  }
};

const char* kChain = R"({
  "Resources": {
    "A": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 20}},
    "B": {"Type": "Test::Fake::Thing", "Properties": {"Source": {"Ref": "A"}}},
    "C": {"Type": "Test::Fake::Thing"}
  },
  "Outputs": {"BArn": {"Value": {"Fn::GetAtt": ["B", "Arn"]}, "Export": {"Name": "b-arn"}}}
})";

}  // namespace

TEST_CASE("create: resources in dependency order, independent ones in parallel", "[stack]") {
  Harness h;
  std::string id = h.Create("s1", kChain);
  CHECK(h.Events(id) == std::vector<std::string>{
                           "s1 CREATE_IN_PROGRESS User Initiated",
                           "A CREATE_IN_PROGRESS",
                           "C CREATE_IN_PROGRESS",
                           "A CREATE_IN_PROGRESS Resource creation Initiated",
                           "C CREATE_IN_PROGRESS Resource creation Initiated",
                           "C CREATE_COMPLETE",
                           "A CREATE_COMPLETE",
                           "B CREATE_IN_PROGRESS",
                           "B CREATE_IN_PROGRESS Resource creation Initiated",
                           "B CREATE_COMPLETE",
                           "s1 CREATE_COMPLETE",
                       });
  StackRecord s = h.Stack("s1");
  CHECK(ms::StackStatusName(s.status) == std::string("CREATE_COMPLETE"));
  REQUIRE(s.outputs.size() == 1);
  CHECK(s.outputs[0].value == "arn:test:B-1");
  CHECK(h.providers.live() == std::set<std::string>{"A-1", "B-1", "C-1"});

  // Every event has its own ID, a version-4 UUID as AWS's are.
  std::vector<ms::StackEvent> events;
  REQUIRE(h.service->Events(id, &events).ok());
  std::set<std::string> ids;
  for (const ms::StackEvent& e : events) {
    INFO(e.event_id);
    CHECK(std::regex_match(e.event_id, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")));
    ids.insert(e.event_id);
  }
  CHECK(ids.size() == events.size());
}

TEST_CASE("create failure in one branch: siblings cancelled, reverse-order rollback", "[stack]") {
  Harness h;
  std::string id = h.Create("s2", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 30}},
    "B": {"Type": "Test::Fake::Thing", "Properties": {"CreateFails": "boom"}},
    "C": {"Type": "Test::Fake::Thing", "DependsOn": "A"}}})");
  CHECK(h.Events(id) == std::vector<std::string>{
                           "s2 CREATE_IN_PROGRESS User Initiated",
                           "A CREATE_IN_PROGRESS",
                           "B CREATE_IN_PROGRESS",
                           "A CREATE_IN_PROGRESS Resource creation Initiated",
                           "B CREATE_FAILED boom",
                           "A CREATE_FAILED Resource creation cancelled",
                           "s2 ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [A, B]. ",
                           "B DELETE_COMPLETE",
                           "A DELETE_IN_PROGRESS",
                           "A DELETE_COMPLETE",
                           "s2 ROLLBACK_COMPLETE",
                       });
  CHECK(h.providers.live().empty());  // A finished creating after the cancel, and was deleted
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("ROLLBACK_COMPLETE"));
}

TEST_CASE("rollback failure ends ROLLBACK_FAILED with the resources that could not be deleted", "[stack]") {
  Harness h;
  std::string id = h.Create("s3", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing", "Properties": {"DeleteFails": "resource A-1 has a dependent object"}},
    "B": {"Type": "Test::Fake::Thing", "Properties": {"CreateFails": "boom"}}}})");
  CHECK(h.Events(id, 4) == std::vector<std::string>{
                              "A CREATE_COMPLETE",
                              "B CREATE_FAILED boom",
                              "s3 ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [B]. ",
                              "B DELETE_COMPLETE",
                              "A DELETE_IN_PROGRESS",
                              "A DELETE_FAILED resource A-1 has a dependent object",
                              "s3 ROLLBACK_FAILED The following resource(s) failed to delete: [A]. ",
                          });
  CHECK(h.providers.live() == std::set<std::string>{"A-1"});
}

TEST_CASE("disable-rollback keeps what was created: CREATE_FAILED", "[stack]") {
  Harness h;
  std::string id = h.Create("s4", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing"},
    "B": {"Type": "Test::Fake::Thing", "Properties": {"Invalid": "Encountered unsupported property Bogus"}}}})",
                            "DO_NOTHING");
  CHECK(h.Events(id) == std::vector<std::string>{
                           "s4 CREATE_IN_PROGRESS User Initiated",
                           "A CREATE_IN_PROGRESS",
                           "B CREATE_IN_PROGRESS",
                           "A CREATE_IN_PROGRESS Resource creation Initiated",
                           "A CREATE_COMPLETE",
                           "B CREATE_FAILED Encountered unsupported property Bogus",
                           "s4 CREATE_FAILED The following resource(s) failed to create: [B]. ",
                       });
  // B's validation is its create call's first step (its failure is that
  // call's answer, as on AWS), so A's create went out beside it and
  // finished; nothing rolls it back.
  CHECK(h.providers.live() == std::set<std::string>{"A-1"});
  CHECK(h.providers.calls() == 1);
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("CREATE_FAILED"));
}

TEST_CASE("on-failure DELETE: rollback, then the stack is deleted", "[stack]") {
  Harness h;
  std::string id = h.Create("s5", R"({"Resources": {
    "B": {"Type": "Test::Fake::Thing", "Properties": {"CreateFails": "boom"}}}})", "DELETE");
  CHECK(h.Events(id, 3) == std::vector<std::string>{
                              "s5 ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [B]. ",
                              "B DELETE_COMPLETE",
                              "s5 ROLLBACK_COMPLETE",
                              "s5 DELETE_IN_PROGRESS",
                              "s5 DELETE_COMPLETE",
                          });
  StackRecord s;
  CHECK(h.service->FindStack("s5", &s).message() == "Stack with id s5 does not exist");
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("DELETE_COMPLETE"));  // found by its ID
}

TEST_CASE("delete: reverse dependency order, DeletionPolicy Retain gives DELETE_SKIPPED", "[stack]") {
  Harness h;
  std::string id = h.Create("s6", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing", "DeletionPolicy": "Retain"},
    "B": {"Type": "Test::Fake::Thing", "Properties": {"On": {"Ref": "A"}}},
    "C": {"Type": "Test::Fake::Thing", "Properties": {"On": {"Ref": "B"}}}}})");
  size_t created = h.Events(id).size();
  h.Delete("s6");
  CHECK(h.Events(id, created) == std::vector<std::string>{
                                    "s6 DELETE_IN_PROGRESS User Initiated",
                                    "C DELETE_IN_PROGRESS",
                                    "C DELETE_COMPLETE",
                                    "B DELETE_IN_PROGRESS",
                                    "B DELETE_COMPLETE",
                                    "A DELETE_SKIPPED",
                                    "s6 DELETE_COMPLETE",
                                });
  CHECK(h.providers.live() == std::set<std::string>{"A-1"});
}

TEST_CASE("delete failure: DELETE_FAILED, then delete-stack --retain-resources", "[stack]") {
  Harness h;
  std::string id = h.Create("s7", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing", "Properties": {"DeleteFails": "resource sg-1 has a dependent object"}},
    "B": {"Type": "Test::Fake::Thing"}}})");
  size_t created = h.Events(id).size();
  h.Delete("s7");
  CHECK(h.Events(id, created) == std::vector<std::string>{
                                    "s7 DELETE_IN_PROGRESS User Initiated",
                                    "B DELETE_IN_PROGRESS",
                                    "A DELETE_IN_PROGRESS",
                                    "B DELETE_COMPLETE",
                                    "A DELETE_FAILED resource sg-1 has a dependent object",
                                    "s7 DELETE_FAILED The following resource(s) failed to delete: [A]. ",
                                });
  std::string ignored;
  CHECK(h.service->StartDelete({"s7", {"B"}, ""}, &ignored).ok());  // allowed: the stack is DELETE_FAILED
  REQUIRE(h.service->Run(id).ok());
  size_t failed = h.Events(id).size();
  CHECK(h.Events(id).back() == "s7 DELETE_FAILED The following resource(s) failed to delete: [A]. ");
  h.Delete("s7", {"A"});
  CHECK(h.Events(id, failed) == std::vector<std::string>{
                                   "s7 DELETE_IN_PROGRESS User Initiated",
                                   "A DELETE_SKIPPED",
                                   "s7 DELETE_COMPLETE",
                               });
  CHECK(h.providers.live() == std::set<std::string>{"A-1"});  // retained, with an event saying so
}

TEST_CASE("retain-resources is refused unless the stack is DELETE_FAILED", "[stack]") {
  Harness h;
  std::string id = h.Create("s8", R"({"Resources": {"A": {"Type": "Test::Fake::Thing"}}})");
  std::string ignored;
  Status s = h.service->StartDelete({"s8", {"A"}, ""}, &ignored);
  CHECK(s.message() == "Invalid operation on stack [" + id +
                           "]: RetainResources can only be specified when the stack is in the DELETE_FAILED state");
}

TEST_CASE("exports: Fn::ImportValue across stacks, an imported export blocks the delete", "[stack]") {
  Harness h;
  std::string producer = h.Create("producer", kChain);
  std::string consumer = h.Create("consumer", R"({"Resources": {
    "X": {"Type": "Test::Fake::Thing", "Properties": {"Arn": {"Fn::ImportValue": "b-arn"}}}}})");
  CHECK(h.Events(consumer).back() == "consumer CREATE_COMPLETE");
  CHECK(h.Stack("consumer").imports == std::vector<std::string>{"b-arn"});
  size_t before = h.Events(producer).size();
  h.Delete("producer");
  CHECK(h.Events(producer, before) == std::vector<std::string>{
                                         "producer DELETE_IN_PROGRESS User Initiated",
                                         "producer DELETE_FAILED Delete canceled. Cannot delete export b-arn as "
                                         "it is in use by consumer.",
                                     });
  h.Delete("consumer");
  h.Delete("producer");
  CHECK(ms::StackStatusName(h.Stack(producer).status) == std::string("DELETE_COMPLETE"));
  CHECK(h.providers.live().empty());
}

TEST_CASE("create: synchronous errors as AWS gives them", "[stack]") {
  Harness h;
  ms::CreateStackInput in;
  in.template_body = R"({"Resources": {"A": {"Type": "Test::Fake::Thing"}}})";
  std::string id;
  in.stack_name = "1bad";
  CHECK(h.service->StartCreate(in, &id).message() ==
        "1 validation error detected: Value '1bad' at 'stackName' failed to satisfy constraint: Member must "
        "satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*");
  in.stack_name = "ok";
  REQUIRE(h.service->StartCreate(in, &id).ok());
  REQUIRE(h.service->Run(id).ok());
  Status again = h.service->StartCreate(in, &id);
  CHECK(again.code() == Status::Code::kAlreadyExists);
  CHECK(again.message() == "Stack [ok] already exists");
  in.stack_name = "iam";
  in.template_body = R"({"Resources": {"R": {"Type": "AWS::IAM::Role", "Properties": {"RoleName": "x",
    "AssumeRolePolicyDocument": {}}}}})";
  Status caps = h.service->StartCreate(in, &id);
  CHECK(caps.code() == Status::Code::kInsufficientCapabilities);
  CHECK(caps.message() == "Requires capabilities : [CAPABILITY_NAMED_IAM]");
}
