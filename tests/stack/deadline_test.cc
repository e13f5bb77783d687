// Nothing runs forever: a hook that never finishes meets its handler
// deadline, a create meets the stack's TimeoutInMinutes, delete-stack stops a
// create, and an engine error inside an operation fails it instead of
// stranding the stack. Virtual time, the C++ fake provider (fake_providers.h).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fake_providers.h"
#include "service_fixture.h"
#include "stack/cancel_requests.h"
#include "stack/stack_service.h"
#include "store/stack_tables.h"

using ms::StackRecord;
using ms::Status;

namespace {

const int64_t kStart = 1700000000000;

// delete-stack, as a server's request thread sends it, when the event
// `when` ("Logical STATUS") is recorded.
struct DeleteWhen : ms::OperationObserver {
  ms::CancelRequests* cancels = nullptr;
  std::string when;
  std::string stack_id;
  void OnEvent(const ms::StackEvent& e) override {
    if (e.logical_id + " " + e.status == when) cancels->RequestDelete(e.stack_id);
  }
};

struct Harness : ms::testing::ServiceFixture<ms::testing::FakeProviders> {
  DeleteWhen delete_when;
  ms::CancelRequests cancels;
  Harness() : ServiceFixture(kStart, &delete_when) { delete_when.cancels = &cancels; }

  // A service that takes delete-stack's and cancel-update-stack's requests
  // for the operations it runs, as `serve` does.
  ms::StackService Serving() {
    ms::OperationContext ctx = service->context();
    ctx.cancels = &cancels;
    return ms::StackService(ctx);
  }

  std::string Start(const std::string& name, const std::string& body, const std::string& on_failure = "",
                    std::optional<int64_t> timeout = std::nullopt) {
    ms::CreateStackInput in;
    in.stack_name = name;
    in.template_body = body;
    in.on_failure = on_failure;
    in.timeout_in_minutes = timeout;
    std::string id;
    Status s = service->StartCreate(in, &id);
    INFO(s.message());
    REQUIRE(s.ok());
    return id;
  }

  StackRecord Stack(const std::string& id) {
    StackRecord s;
    REQUIRE(service->FindStack(id, &s).ok());
    return s;
  }

  // "Logical STATUS[ reason]" per event, oldest first.
  std::vector<std::string> Events(const std::string& id) {
    std::vector<ms::StackEvent> events;
    REQUIRE(service->Events(id, &events).ok());
    std::vector<std::string> out;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      out.push_back(it->logical_id + " " + it->status + (it->reason.empty() ? "" : " " + it->reason));
    }
    return out;
  }
};

const char* kForever = R"({"Resources": {"A": {"Type": "Test::Fake::Thing", "Properties": {"Forever": true}}}})";
const char* kSlow = R"({"Resources": {
  "A": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 600}},
  "B": {"Type": "Test::Fake::Thing"}}})";

}  // namespace

TEST_CASE("a hook that stays in progress fails at its handler deadline and the create rolls back", "[stack][deadline]") {
  Harness h;
  h.providers.set_timeout_seconds(120);
  std::string id = h.Start("forever", kForever);
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.Events(id) == std::vector<std::string>{
                            "forever CREATE_IN_PROGRESS User Initiated",
                            "A CREATE_IN_PROGRESS",
                            "A CREATE_IN_PROGRESS Resource creation Initiated",
                            "A CREATE_FAILED Resource timed out waiting for completion",
                            "forever ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [A]. ",
                            "A DELETE_IN_PROGRESS",
                            "A DELETE_COMPLETE",
                            "forever ROLLBACK_COMPLETE",
                        });
  CHECK(h.providers.live().empty());  // what the create made was deleted
  // "Again at once" was answered no sooner than a second later each time:
  // the deadline came after two minutes of clock time and ~120 calls.
  CHECK(h.clock->NowMs() - kStart == 120 * 1000);
  CHECK(h.providers.calls() <= 125);
}

TEST_CASE("without a declared timeout a hook gets AWS's default of 120 minutes", "[stack][deadline]") {
  Harness h;
  std::string id = h.Start("forever", kForever);
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.Stack(id).status == ms::StackStatus::kRollbackComplete);
  CHECK(h.clock->NowMs() - kStart == 120 * 60 * 1000);
}

TEST_CASE("TimeoutInMinutes: resources still being created are cancelled and the stack rolls back", "[stack][deadline]") {
  Harness h;
  std::string id = h.Start("slow", kSlow, "", 1);
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.Events(id) ==
        std::vector<std::string>{
            "slow CREATE_IN_PROGRESS User Initiated",
            "A CREATE_IN_PROGRESS",
            "B CREATE_IN_PROGRESS",
            "A CREATE_IN_PROGRESS Resource creation Initiated",
            "B CREATE_IN_PROGRESS Resource creation Initiated",
            "B CREATE_COMPLETE",
            "A CREATE_FAILED Resource creation cancelled",
            "slow ROLLBACK_IN_PROGRESS Stack creation time exceeded the specified timeout. Rollback requested by user.",
            "B DELETE_IN_PROGRESS",
            "A DELETE_IN_PROGRESS",
            "B DELETE_COMPLETE",
            "A DELETE_COMPLETE",
            "slow ROLLBACK_COMPLETE",
        });
  CHECK(h.providers.live().empty());
  CHECK(h.Stack(id).timeout_in_minutes == 1);
}

TEST_CASE("TimeoutInMinutes with OnFailure DELETE and DO_NOTHING", "[stack][deadline]") {
  Harness h;
  std::string del = h.Start("del", kSlow, "DELETE", 1);
  REQUIRE(h.service->Run(del).ok());
  CHECK(h.Stack(del).status == ms::StackStatus::kDeleteComplete);
  CHECK(h.Events(del)[7] ==
        "del ROLLBACK_IN_PROGRESS Stack creation time exceeded the specified timeout. Delete requested by user.");
  std::string keep = h.Start("keep", kSlow, "DO_NOTHING", 1);
  REQUIRE(h.service->Run(keep).ok());
  CHECK(h.Stack(keep).status == ms::StackStatus::kCreateFailed);
  CHECK(h.Stack(keep).reason == "Stack creation time exceeded the specified timeout.");
}

TEST_CASE("a create that ends within TimeoutInMinutes is not held to it", "[stack][deadline]") {
  Harness h;
  std::string id = h.Start("quick", kSlow, "", 60);
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.Stack(id).status == ms::StackStatus::kCreateComplete);
  CHECK(h.clock->NowMs() - kStart == 600 * 1000);  // the timer did not move the clock on
}

TEST_CASE("TimeoutInMinutes must be at least 1", "[stack][deadline]") {
  Harness h;
  ms::CreateStackInput in;
  in.stack_name = "t";
  in.template_body = kSlow;
  in.timeout_in_minutes = 0;
  std::string id;
  Status s = h.service->StartCreate(in, &id);
  CHECK(s.message() ==
        "1 validation error detected: Value '0' at 'timeoutInMinutes' failed to satisfy constraint: Member must "
        "have value greater than or equal to 1");
  StackRecord none;
  CHECK(h.service->FindStack("t", &none).code() == Status::Code::kNotFound);
}

TEST_CASE("delete-stack during the create cancels it, rolls it back and deletes the stack", "[stack][deadline]") {
  Harness h;
  ms::StackService serving = h.Serving();
  h.delete_when.when = "B CREATE_COMPLETE";
  std::string id = h.Start("doomed", kSlow);
  REQUIRE(serving.Run(id).ok());
  CHECK(h.Events(id) == std::vector<std::string>{
                            "doomed CREATE_IN_PROGRESS User Initiated",
                            "A CREATE_IN_PROGRESS",
                            "B CREATE_IN_PROGRESS",
                            "A CREATE_IN_PROGRESS Resource creation Initiated",
                            "B CREATE_IN_PROGRESS Resource creation Initiated",
                            "B CREATE_COMPLETE",
                            "A CREATE_FAILED Resource creation cancelled",
                            "doomed ROLLBACK_IN_PROGRESS Delete requested by user.",
                            "B DELETE_IN_PROGRESS",
                            "A DELETE_IN_PROGRESS",
                            "B DELETE_COMPLETE",
                            "A DELETE_COMPLETE",
                            "doomed ROLLBACK_COMPLETE",
                            "doomed DELETE_IN_PROGRESS",
                            "doomed DELETE_COMPLETE",
                        });
  CHECK(h.providers.live().empty());
}

TEST_CASE("delete-stack that a create ended before taking deletes the stack after it", "[stack][deadline]") {
  Harness h;
  ms::StackService serving = h.Serving();
  h.delete_when.when = "late CREATE_COMPLETE";
  std::string id = h.Start("late", kSlow);
  REQUIRE(serving.Run(id).ok());
  std::vector<std::string> events = h.Events(id);
  REQUIRE(events.size() == 14);
  CHECK(std::vector<std::string>(events.begin() + 6, events.end()) ==
        std::vector<std::string>{"A CREATE_COMPLETE", "late CREATE_COMPLETE", "late DELETE_IN_PROGRESS User Initiated",
                                 "B DELETE_IN_PROGRESS", "A DELETE_IN_PROGRESS", "B DELETE_COMPLETE",
                                 "A DELETE_COMPLETE", "late DELETE_COMPLETE"});
  CHECK(h.providers.live().empty());
}

TEST_CASE("delete-stack while the stack is being created, updated or deleted", "[stack][deadline]") {
  Harness h;
  ms::StackService serving = h.Serving();
  std::string id = h.Start("s", kSlow);
  std::string none;
  // Served: the create takes the request (above). Embedded, nothing runs it
  // in this process: AWS's refusal.
  Status s = h.service->StartDelete({"s", {}, ""}, &none);
  CHECK(s.message() == "Stack [" + id + "] cannot be deleted while in status CREATE_IN_PROGRESS");
  REQUIRE(h.service->Run(id).ok());
  ms::UpdateStackInput up;
  up.stack_name = "s";
  up.template_body = R"({"Resources": {"A": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 600}},
                          "B": {"Type": "Test::Fake::Thing", "Properties": {"X": 1}}}})";
  std::string uid;
  REQUIRE(h.service->StartUpdate(up, &uid).ok());
  s = serving.StartDelete({"s", {}, ""}, &none);
  CHECK(s.message() == "Stack [" + id + "] cannot be deleted while in status UPDATE_IN_PROGRESS");
  REQUIRE(h.service->Run(uid).ok());
  REQUIRE(h.service->StartDelete({"s", {}, ""}, &none).ok());
  std::string again;
  CHECK(h.service->StartDelete({"s", {}, ""}, &again).ok());  // already being deleted: accepted, nothing new
  CHECK(again.empty());
  REQUIRE(h.service->Run(none).ok());
  CHECK(h.Stack(id).status == ms::StackStatus::kDeleteComplete);
}

TEST_CASE("an engine error inside an operation fails the stack instead of stranding it", "[stack][deadline]") {
  Harness h;
  std::string id = h.Start("broken", kSlow);
  // The stored template no longer loads (what an engine bug or a damaged
  // state would look like to the operation).
  StackRecord s = h.Stack(id);
  s.template_body = "{";
  ms::StoreBatch batch;
  batch.stacks.push_back(s);
  REQUIRE(ms::CommitBatch(h.db.get(), &h.world, &batch).ok());
  REQUIRE(h.service->Run(id).ok());
  StackRecord after = h.Stack(id);
  CHECK(after.status == ms::StackStatus::kRollbackFailed);  // its rollback could not load it either
  CHECK_THAT(after.reason, Catch::Matches("Template format error: .*"));
  std::vector<std::string> events = h.Events(id);
  REQUIRE(events.size() == 3);
  CHECK_THAT(events[1], Catch::StartsWith("broken ROLLBACK_IN_PROGRESS Template format error: "));
  CHECK_THAT(events[2], Catch::StartsWith("broken ROLLBACK_FAILED Template format error: "));
}

TEST_CASE("an output whose Condition is false may GetAtt a resource with that Condition", "[stack]") {
  Harness h;
  const std::string conditional = R"({
    "Parameters": {"Make": {"Type": "String", "Default": "no"}},
    "Conditions": {"Never": {"Fn::Equals": ["a", "b"]}, "Asked": {"Fn::Equals": [{"Ref": "Make"}, "yes"]}},
    "Resources": {
      "A": {"Type": "Test::Fake::Thing"},
      "R": {"Type": "Test::Fake::Thing", "Condition": "Never"},
      "Q": {"Type": "Test::Fake::Thing", "Condition": "Asked"}},
    "Outputs": {
      "ROut": {"Condition": "Never", "Value": {"Fn::GetAtt": ["R", "Arn"]}},
      "QOut": {"Condition": "Asked", "Value": {"Fn::GetAtt": ["Q", "Arn"]}},
      "AOut": {"Value": {"Fn::GetAtt": ["A", "Arn"]}}}})";
  std::string id = h.Start("c", conditional);
  REQUIRE(h.service->Run(id).ok());
  StackRecord s = h.Stack(id);
  CHECK(s.status == ms::StackStatus::kCreateComplete);
  REQUIRE(s.outputs.size() == 1);
  CHECK(s.outputs[0].key == "AOut");
  // Without the output's Condition, AWS refuses the template synchronously.
  ms::CreateStackInput in;
  in.stack_name = "d";
  in.template_body = R"({
    "Conditions": {"Never": {"Fn::Equals": ["a", "b"]}},
    "Resources": {"A": {"Type": "Test::Fake::Thing"}, "R": {"Type": "Test::Fake::Thing", "Condition": "Never"}},
    "Outputs": {"ROut": {"Value": {"Fn::GetAtt": ["R", "Arn"]}}}})";
  std::string none;
  CHECK(h.service->StartCreate(in, &none).message() ==
        "Unresolved resource dependencies [R] in the Outputs block of the template");
}
