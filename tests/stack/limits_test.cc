// AWS's limits on what a stack keeps, through StackService with the fake
// provider in virtual time: stack tags and policy bodies refused
// synchronously with AWS's messages; a provider's status reason capped and
// an absurd physical ID failing its resource instead of being stored.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fake_providers.h"
#include "service_fixture.h"
#include "stack/change_sets.h"
#include "stack/stack_service.h"

using ms::Status;

namespace {

struct Harness : ms::testing::ServiceFixture<ms::testing::FakeProviders> {
  ms::StackRecord Stack(const std::string& name_or_id) {
    ms::StackRecord s;
    REQUIRE(service->FindStack(name_or_id, &s).ok());
    return s;
  }
  ms::ResourceRecord Resource(const std::string& stack_id, const std::string& logical_id) {
    std::vector<ms::ResourceRecord> resources;
    REQUIRE(service->Resources(stack_id, &resources).ok());
    for (const ms::ResourceRecord& r : resources) {
      if (r.logical_id == logical_id) return r;
    }
    FAIL("no resource " << logical_id);
    return {};
  }
  // The reason of the stack's event `status` of `logical_id`.
  std::string EventReason(const std::string& stack_id, const std::string& logical_id, const std::string& status) {
    std::vector<ms::StackEvent> events;
    REQUIRE(service->Events(stack_id, &events).ok());
    for (const ms::StackEvent& e : events) {
      if (e.logical_id == logical_id && e.status == status) return e.reason;
    }
    FAIL("no event " << logical_id << " " << status);
    return "";
  }
};

ms::CreateStackInput Input(const std::string& name, const std::string& body) {
  ms::CreateStackInput in;
  in.stack_name = name;
  in.template_body = body;
  return in;
}

const char* kOne = R"({"Resources": {"A": {"Type": "Test::Fake::Thing"}}})";

std::string TooLong(const std::string& value, const std::string& member, size_t max) {
  return "Value '" + value + "' at '" + member + "' failed to satisfy constraint: Member must have length less than "
         "or equal to " + std::to_string(max);
}

}  // namespace

TEST_CASE("limits: stack tags, AWS's counts and lengths", "[stack]") {
  Harness h;
  std::string id;
  ms::CreateStackInput in = Input("tagged", kOne);
  const std::string big(10 << 20, 'v');  // 10 MB
  in.tags = {{"team", big}};
  CHECK(h.service->StartCreate(in, &id).message() ==
        "1 validation error detected: " + TooLong(big, "tags.1.member.value", 256));
  const std::string long_key(129, 'k');
  in.tags = {{"ok", "fine"}, {long_key, ""}};
  CHECK(h.service->StartCreate(in, &id).message() ==
        "2 validation errors detected: " + TooLong(long_key, "tags.2.member.key", 128) +
            "; Value '' at 'tags.2.member.value' failed to satisfy constraint: Member must have length greater than "
            "or equal to 1");
  in.tags.clear();
  for (int i = 0; i < 51; ++i) in.tags.push_back({"k" + std::to_string(i), "v"});
  Status many = h.service->StartCreate(in, &id);
  CHECK(many.message().rfind("1 validation error detected: Value '[{Key: k0,Value: v}, {Key: k1,Value: v}, ", 0) == 0);
  CHECK(many.message().find(", {Key: k50,Value: v}]' at 'tags' failed to satisfy constraint: Member must have length "
                            "less than or equal to 50") != std::string::npos);
  ms::StackRecord none;
  CHECK(h.service->FindStack("tagged", &none).code() == Status::Code::kNotFound);  // nothing was saved

  // The limits themselves are allowed: 50 tags, 128/256 characters (not bytes).
  in.tags.pop_back();
  in.tags.back() = {std::string(128, 'k'), std::string(256, 'v')};
  in.tags.front().value = "\xc3\xa9" + std::string(255, 'v');  // 257 bytes, 256 characters
  h.CreateWith(in);
  CHECK(h.Stack("tagged").tags.size() == 50);

  // A change set's tags (its stack's, once executed) are held to the same limits.
  ms::ChangeSetService change_sets(h.service->context());
  ms::CreateChangeSetInput cs;
  cs.stack_name = "reviewed";
  cs.change_set_name = "cs";
  cs.change_set_type = "CREATE";
  cs.template_body = kOne;
  cs.tags = {{"team", std::string(257, 'v')}};
  std::string cs_id, stack_id;
  CHECK(change_sets.Create(cs, &cs_id, &stack_id).message() ==
        "1 validation error detected: " + TooLong(std::string(257, 'v'), "tags.1.member.value", 256));
  CHECK(h.service->FindStack("reviewed", &none).code() == Status::Code::kNotFound);
}

TEST_CASE("limits: a stack policy body past 16 KB is refused", "[stack][policy]") {
  Harness h;
  std::string id;
  ms::CreateStackInput in = Input("policy", kOne);
  const std::string allow = R"({"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]})";
  in.stack_policy_body = allow + std::string(16384 - allow.size() + 1, ' ');
  CHECK(h.service->StartCreate(in, &id).message() ==
        "1 validation error detected: " + TooLong(in.stack_policy_body, "stackPolicyBody", 16384));
  in.stack_policy_body.pop_back();  // 16,384 bytes: allowed
  const std::string created = h.CreateWith(in);

  ms::UpdateStackInput up;
  up.stack_name = "policy";
  up.use_previous_template = true;
  up.stack_policy_during_update_body = std::string(20000, ' ');
  CHECK(h.service->StartUpdate(up, &id).message() ==
        "1 validation error detected: " +
            TooLong(up.stack_policy_during_update_body, "stackPolicyDuringUpdateBody", 16384));
  CHECK(h.service->SetStackPolicy("policy", std::string(16385, ' '), "").message() ==
        "1 validation error detected: " + TooLong(std::string(16385, ' '), "stackPolicyBody", 16384));
  CHECK(h.Stack(created).stack_policy_body.size() == 16384);
}

TEST_CASE("limits: a provider's 5 MB failure reason is kept as its first 1,024 characters", "[stack]") {
  Harness h;
  // 5 MB: "é" and "x" alternating, 3 bytes for 2 characters; the cap counts characters.
  const std::string id = h.CreateWith(Input("loud", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing", "Properties": {"CreateFails": "\u00e9x", "Repeat": 1747627}}}})"));
  std::string expected;
  for (int i = 0; i < 512; ++i) expected += "\xc3\xa9x";
  CHECK(h.Stack(id).status == ms::StackStatus::kRollbackComplete);
  CHECK(h.EventReason(id, "A", "CREATE_FAILED") == expected);
  CHECK(h.EventReason(id, "loud", "ROLLBACK_IN_PROGRESS") == "The following resource(s) failed to create: [A]. ");
}

TEST_CASE("limits: a physical ID past 1 KB or with a control character fails its resource", "[stack]") {
  Harness h;
  const std::string huge = h.CreateWith(Input("huge", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing", "Properties": {"PhysicalId": "x", "Repeat": 30000000}}}})"));
  CHECK(h.Stack(huge).status == ms::StackStatus::kRollbackComplete);
  CHECK(h.Resource(huge, "A").physical_id.empty());
  CHECK(h.EventReason(huge, "A", "CREATE_FAILED") ==
        "The provider returned a physical resource ID of 30000000 bytes; a physical resource ID can be up to 1 KB in "
        "size");

  const std::string nul = h.CreateWith(Input("nul", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing", "Properties": {"PhysicalId": "id\u0000more"}}}})"));
  CHECK(h.Stack(nul).status == ms::StackStatus::kRollbackComplete);
  CHECK(h.Resource(nul, "A").physical_id.empty());
  CHECK(h.EventReason(nul, "A", "CREATE_FAILED") ==
        "The provider returned a physical resource ID containing a control character");

  const std::string ok = h.CreateWith(Input("kilobyte", R"({"Resources": {
    "A": {"Type": "Test::Fake::Thing", "Properties": {"PhysicalId": "x", "Repeat": 1024}}}})"));
  CHECK(h.Stack(ok).status == ms::StackStatus::kCreateComplete);
  CHECK(h.Resource(ok, "A").physical_id == std::string(1024, 'x'));
}
