// Stack policies and update restrictions at the StackService level, with the
// fake providers of update_fakes.h in virtual time:
//  - seed 003's five base cases (restrict replace, restrict update, both,
//    nothing, no UpdatePolicy) for an in-place update and a replacement: a
//    violation the plan shows refuses update-stack synchronously and leaves
//    the stack, its resources and its events as they were;
//  - what the plan records for the executor (policy verdicts, restrictions;
//    Conditional replacements left to run time);
//  - create-stack / update-stack / set-stack-policy / get-stack-policy.
#include <catch2/catch.hpp>

#include <optional>

#include "plan/planner.h"
#include "update_harness.h"

using update_harness::Lines;
using update_harness::StackRecord;
using update_harness::Status;

namespace {

// The update tests' harness, with a stack policy on create and update.
struct Harness : update_harness::Harness {
  std::string Create(const std::string& name, const std::string& body, const std::string& policy = "") {
    ms::CreateStackInput in;
    in.stack_name = name;
    in.template_body = body;
    in.stack_policy_body = policy;
    const std::string id = CreateWith(in);
    REQUIRE(StatusOf(id) == "CREATE_COMPLETE");
    return id;
  }

  Status StartUpdate(const std::string& name, const std::string& body, const std::string& during = "",
                     const std::string& new_policy = "") {
    ms::UpdateStackInput in;
    in.stack_name = name;
    in.template_body = body;
    in.stack_policy_during_update_body = during;
    in.stack_policy_body = new_policy;
    std::string id;
    return service->StartUpdate(in, &id);
  }

  // update-stack run to the end.
  void Update(const std::string& id, const std::string& body, const std::string& during = "") {
    Status s = StartUpdate(id, body, during);
    INFO(s.message());
    REQUIRE(s.ok());
    s = service->Run(id);
    INFO(s.message());
    REQUIRE(s.ok());
  }

  std::string StatusOf(const std::string& id) { return ms::StackStatusName(Stack(id).status); }

  // The planner on the stored stack (as update-stack and the executor run it).
  ms::Plan PlanOf(const std::string& id, const std::string& body, std::optional<std::string> policy,
                  std::optional<ms::StackStatus> status = std::nullopt) {
    StackRecord s = Stack(id);
    if (status) s.status = *status;
    std::vector<ms::ResourceRecord> rs;
    REQUIRE(service->Resources(id, &rs).ok());
    std::unique_ptr<ms::ProviderSession> session;
    REQUIRE(providers.NewSession(&session).ok());
    ms::PlanInput in;
    in.stack = &s;
    in.resources = &rs;
    in.template_body = body;
    in.pseudo.stack_name = s.name;
    in.pseudo.stack_id = s.id;
    in.pseudo.region = "us-east-1";
    in.pseudo.account_id = "123456789012";
    in.runtime = &providers;
    in.session = session.get();
    in.stack_policy_body = policy;
    ms::Plan plan;
    Status st = ms::MakePlan(in, &plan);
    INFO(st.message());
    REQUIRE(st.ok());
    return plan;
  }
};

// One resource R. InstanceType is an update with some interruption, ImageId a
// replacement (update_fakes.h). `allow`: R's UpdatePolicy.Allow ("" none).
std::string One(const std::string& image, const std::string& type, const std::string& allow = "") {
  std::string r = R"({"Resources": {"R": {"Type": "Test::Upd::Thing", )";
  if (!allow.empty()) r += R"("UpdatePolicy": {"Allow": )" + allow + "}, ";
  return r + R"("Properties": {"ImageId": ")" + image + R"(", "InstanceType": ")" + type + R"("}}}})";
}

const std::string kAllowAll = R"({"Statement": [{"Effect": "Allow", "Action": "Update:*", "Principal": "*", "Resource": "*"}]})";
const std::string kDenyAll = R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "*"}]})";

struct Case {
  const char* name;
  std::string allow;    // UpdatePolicy.Allow in the new template
  bool update_refused;  // an in-place update is refused
  bool replace_refused; // a replacement is refused
};

}  // namespace

TEST_CASE("seed 003: the five base cases for an update and a replacement", "[policy][update]") {
  const std::vector<Case> cases = {
      {"restrict destroy/replace", R"({"Replace": false})", false, true},
      {"restrict nondestructive updates", R"({"Update": false})", true, false},
      {"restrict both", R"({"Update": false, "Replace": false})", true, true},
      {"restrict nothing", R"({"Update": true, "Replace": true})", false, false},
      {"omit the update policy", "", false, false},
  };
  for (const Case& c : cases) {
    for (bool replace : {false, true}) {
      INFO(c.name << (replace ? ", replacement" : ", in-place update"));
      Harness h;
      // Deployed without any UpdatePolicy: the restriction is added by the
      // same update it applies to.
      const std::string id = h.Create("s", One("ami-1", "t2.micro"));
      const std::string next = replace ? One("ami-2", "t2.micro", c.allow) : One("ami-1", "t2.large", c.allow);
      const bool refused = replace ? c.replace_refused : c.update_refused;
      const StackRecord before = h.Stack(id);
      const Lines events = h.Events(id);
      const auto resources = h.Resources(id);
      Status s = h.StartUpdate("s", next);
      if (refused) {
        CHECK(s.code() == Status::Code::kValidation);
        CHECK(s.message() == std::string("Update of resource R is restricted by its UpdatePolicy (Allow.") +
                                 (replace ? "Replace" : "Update") + " is false)");
        // Nothing changed: status, template, events, resources.
        const StackRecord after = h.Stack(id);
        CHECK(ms::StackStatusName(after.status) == std::string("CREATE_COMPLETE"));
        CHECK(after.template_body == before.template_body);
        CHECK(after.updated_ms == before.updated_ms);
        CHECK(h.Events(id) == events);
        CHECK(h.Resources(id) == resources);
      } else {
        INFO(s.message());
        REQUIRE(s.ok());
        REQUIRE(h.service->Run(id).ok());
        CHECK(h.StatusOf(id) == "UPDATE_COMPLETE");
        CHECK(h.Resources(id).at("R") == (replace ? "UPDATE_COMPLETE R-2" : "UPDATE_COMPLETE R-1"));
      }
    }
  }
}

TEST_CASE("seed 003: adding a restriction alone changes nothing, removing it lifts it", "[policy][update]") {
  Harness h;
  const std::string id = h.Create("s", One("ami-1", "t2.micro", R"({"Replace": false})"));
  // UpdatePolicy changes alone are no change (seed 000 tests 27-30).
  CHECK(h.StartUpdate("s", One("ami-1", "t2.micro", R"({"Replace": false, "Update": false})")).message() ==
        "No updates are to be performed.");
  CHECK(h.StartUpdate("s", One("ami-2", "t2.micro", R"({"Replace": false})")).message() ==
        "Update of resource R is restricted by its UpdatePolicy (Allow.Replace is false)");
  // The new template's policy counts: dropping the restriction in the same
  // update allows the replacement.
  h.Update(id, One("ami-2", "t2.micro"));
  CHECK(h.Resources(id).at("R") == "UPDATE_COMPLETE R-2");
  // A malformed Allow is refused too.
  CHECK(h.StartUpdate("s", One("ami-3", "t2.micro", R"({"Replace": "never"})")).message() ==
        "Invalid UpdatePolicy for resource R: Allow.Replace must be a boolean");
}

TEST_CASE("seed 003: a Conditional replacement is left to run time", "[policy][update]") {
  // B's ImageId refers to A, which is replaced: B's replacement is
  // Conditional (Always + Dynamic), so the plan cannot refuse it.
  auto tmpl = [](const std::string& image) {
    return R"({"Resources": {
      "A": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": ")" + image + R"("}},
      "B": {"Type": "Test::Upd::Thing", "UpdatePolicy": {"Allow": {"Replace": false, "Update": false}},
            "Properties": {"ImageId": {"Ref": "A"}}}}})";
  };
  Harness h;
  const std::string id = h.Create("s", tmpl("ami-1"));
  ms::Plan plan = h.PlanOf(id, tmpl("ami-2"), std::nullopt);
  const ms::ResourcePlan* b = plan.Find("B");
  REQUIRE(b != nullptr);
  CHECK(b->replacement == ms::Replacement::kConditional);
  CHECK_FALSE(b->allow_replace);
  CHECK_FALSE(b->allow_update);
  CHECK(plan.Find("A")->allow_replace);
  // Not refused synchronously: the executor decides (UpdateRefusal).
  Status s = h.StartUpdate("s", tmpl("ami-2"));
  INFO(s.message());
  CHECK(s.ok());
}

TEST_CASE("stack policy: what the plan records per resource", "[policy][update]") {
  auto tmpl = [](const std::string& a_image, const std::string& a_type, const std::string& b_type, bool with_c) {
    std::string t = R"({"Resources": {
      "A": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": ")" + a_image + R"(", "InstanceType": ")" + a_type + R"("}},
      "B": {"Type": "Test::Upd::Thing", "Properties": {"InstanceType": ")" + b_type + R"(", "Other": {"Ref": "A"}}})";
    if (with_c) t += R"(, "C": {"Type": "Test::Upd::Other", "Properties": {}})";
    return t + "}}";
  };
  Harness h;
  const std::string id = h.Create("s", tmpl("ami-1", "t2.micro", "t2.micro", true));

  // No policy: nothing denied.
  ms::Plan open = h.PlanOf(id, tmpl("ami-2", "t2.micro", "t2.large", false), "");
  for (const ms::ResourcePlan& rp : open.resources) {
    CHECK_FALSE((rp.policy_denies_modify || rp.policy_denies_replace || rp.policy_denies_delete));
  }

  // Deny everything: A replaced (True) -> Replace only; B modified in place
  // and Conditional through A's new ID -> both; C removed -> Delete.
  ms::Plan denied = h.PlanOf(id, tmpl("ami-2", "t2.micro", "t2.large", false), kDenyAll);
  const ms::ResourcePlan* a = denied.Find("A");
  const ms::ResourcePlan* b = denied.Find("B");
  const ms::ResourcePlan* c = denied.Find("C");
  REQUIRE((a && b && c));
  CHECK(a->replacement == ms::Replacement::kTrue);
  CHECK((!a->policy_denies_modify && a->policy_denies_replace && !a->policy_denies_delete));
  CHECK(b->action == ms::ChangeAction::kModify);
  CHECK(b->replacement == ms::Replacement::kFalse);  // "Other" is an undeclared, in-place property
  CHECK((b->policy_denies_modify && !b->policy_denies_replace));
  CHECK(c->action == ms::ChangeAction::kRemove);
  CHECK((c->policy_denies_delete && !c->policy_denies_modify && !c->policy_denies_replace));

  // Conditions on the deployed type: only C (Test::Upd::Other) is protected.
  const std::string protect_other = R"({"Statement": [
    {"Effect": "Allow", "Action": "Update:*", "Principal": "*", "Resource": "*"},
    {"Effect": "Deny", "Action": "Update:Delete", "Principal": "*", "Resource": "*",
     "Condition": {"StringEquals": {"ResourceType": ["Test::Upd::Other"]}}}]})";
  ms::Plan typed = h.PlanOf(id, tmpl("ami-1", "t2.large", "t2.micro", false), protect_other);
  CHECK_FALSE(typed.Find("A")->policy_denies_modify);
  CHECK(typed.Find("C")->policy_denies_delete);

  // Unset: the stack's own policy, or while its update runs the
  // during-update one stored with it.
  REQUIRE(h.service->SetStackPolicy("s", kDenyAll, "").ok());
  CHECK(h.PlanOf(id, tmpl("ami-2", "t2.micro", "t2.large", false), std::nullopt).Find("A")->policy_denies_replace);
  StackRecord rec = h.Stack(id);
  rec.stack_policy_during_update_body = kAllowAll;
  ms::StoreBatch batch;
  batch.stacks.push_back(rec);
  REQUIRE(ms::CommitBatch(h.db.get(), nullptr, &batch).ok());
  CHECK(h.PlanOf(id, tmpl("ami-2", "t2.micro", "t2.large", false), std::nullopt)
            .Find("A")->policy_denies_replace);  // not in progress: the stack's policy
  CHECK_FALSE(h.PlanOf(id, tmpl("ami-2", "t2.micro", "t2.large", false), std::nullopt,
                       ms::StackStatus::kUpdateInProgress)
                  .Find("A")->policy_denies_replace);  // its update runs: the temporary one
}

TEST_CASE("stack policy: set-stack-policy and get-stack-policy", "[policy][update]") {
  Harness h;
  std::string body;
  CHECK(h.service->GetStackPolicy("nope", &body).message() == "Stack with id nope does not exist");
  const std::string id = h.Create("s", One("ami-1", "t2.micro"));
  const Lines events = h.Events(id);
  REQUIRE(h.service->GetStackPolicy("s", &body).ok());
  CHECK(body.empty());
  REQUIRE(h.service->SetStackPolicy("s", kDenyAll, "").ok());
  REQUIRE(h.service->GetStackPolicy(id, &body).ok());
  CHECK(body == kDenyAll);  // kept as given
  REQUIRE(h.service->SetStackPolicy(id, "{}", "").ok());
  REQUIRE(h.service->GetStackPolicy("s", &body).ok());
  CHECK(body == "{}");

  CHECK(h.service->SetStackPolicy("s", "nope", "").message() == "Error validating stack policy: Invalid stack policy");
  CHECK(h.service->SetStackPolicy("s", kAllowAll, "https://x/p.json").message() ==
        "You cannot specify both StackPolicyURL and StackPolicyBody");
  CHECK(h.service->SetStackPolicy("s", "", "").message() ==
        "Either StackPolicyBody or StackPolicyURL must be specified.");
  CHECK(h.service->SetStackPolicy("missing", kAllowAll, "").message() == "Stack with id missing does not exist");
  REQUIRE(h.service->GetStackPolicy("s", &body).ok());
  CHECK(body == "{}");  // the refused calls changed nothing
  // Setting a stack policy makes no event.
  CHECK(h.Events(id) == events);
}

TEST_CASE("stack policy: create-stack and update-stack arguments", "[policy][update]") {
  Harness h;
  ms::CreateStackInput in;
  in.stack_name = "s";
  in.template_body = One("ami-1", "t2.micro");
  in.stack_policy_body = "{\"Statement\": []}";
  std::string id;
  CHECK(h.service->StartCreate(in, &id).message() == "Error validating stack policy: Invalid stack policy");
  in.stack_policy_body.clear();
  in.stack_policy_url = "https://bucket.s3.amazonaws.com/policy.json";
  CHECK(h.service->StartCreate(in, &id).message() ==
        "moonstack does not fetch StackPolicyURL: pass the policy as StackPolicyBody (the aws CLI: "
        "--stack-policy-body file://PATH)");
  std::vector<StackRecord> all;
  REQUIRE(h.service->ListStacks(&all).ok());
  CHECK(all.empty());  // refused before anything was saved

  id = h.Create("s", One("ami-1", "t2.micro"), kDenyAll);
  std::string body;
  REQUIRE(h.service->GetStackPolicy("s", &body).ok());
  CHECK(body == kDenyAll);

  CHECK(h.StartUpdate("s", One("ami-1", "t2.large"), "not json").message() ==
        "Error validating stack policy: Invalid stack policy");
  CHECK(h.StartUpdate("s", One("ami-1", "t2.large"), "", "not json").message() ==
        "Error validating stack policy: Invalid stack policy");
  ms::UpdateStackInput u;
  u.stack_name = "s";
  u.template_body = One("ami-1", "t2.large");
  u.stack_policy_during_update_url = "https://x/p.json";
  CHECK(h.service->StartUpdate(u, &body).message() ==
        "moonstack does not fetch StackPolicyDuringUpdateURL: pass the policy as StackPolicyDuringUpdateBody (the "
        "aws CLI: --stack-policy-during-update-body file://PATH)");
  CHECK(h.StatusOf(id) == "CREATE_COMPLETE");

  // --stack-policy-during-update-body is stored for the running update only;
  // --stack-policy-body replaces the stack's policy.
  h.Update(id, One("ami-1", "t2.large"), kAllowAll);
  StackRecord s = h.Stack(id);
  CHECK(s.stack_policy_during_update_body == kAllowAll);
  CHECK(s.stack_policy_body == kDenyAll);
  REQUIRE(h.service->GetStackPolicy("s", &body).ok());
  CHECK(body == kDenyAll);  // the update is over: the stack's policy again
  REQUIRE(h.StartUpdate("s", One("ami-1", "t2.small"), kAllowAll, kAllowAll).ok());
  REQUIRE(h.service->GetStackPolicy("s", &body).ok());
  CHECK(body == kAllowAll);  // UPDATE_IN_PROGRESS with a temporary policy: that one
  REQUIRE(h.service->Run(id).ok());
  s = h.Stack(id);
  CHECK(s.stack_policy_body == kAllowAll);
  // The next update without one clears the temporary policy.
  h.Update(id, One("ami-1", "t2.nano"));
  CHECK(h.Stack(id).stack_policy_during_update_body.empty());
  CHECK(h.service->SetStackPolicy("s", kDenyAll, "").ok());
}

// The executor's half (engine/stack/update_operation.cc calls UpdateRefusal /
// DeleteRefusal; see policy/README.md).
TEST_CASE("stack policy and restrictions at run time", "[policy][policy-runtime]") {
  Harness h;
  const std::string id = h.Create("s", One("ami-1", "t2.micro"), kDenyAll);
  h.Update(id, One("ami-1", "t2.large"));
  CHECK(h.StatusOf(id) == "UPDATE_ROLLBACK_COMPLETE");
  Lines events = h.Events(id);
  CHECK(std::find(events.begin(), events.end(), "R UPDATE_FAILED Action denied by stack policy") != events.end());
  // The during-update policy overrides the stack's.
  h.Update(id, One("ami-1", "t2.large"), kAllowAll);
  CHECK(h.StatusOf(id) == "UPDATE_COMPLETE");

  // A Conditional replacement that turns out to be one.
  auto tmpl = [](const std::string& image) {
    return R"({"Resources": {
      "A": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": ")" + image + R"("}},
      "B": {"Type": "Test::Upd::Thing", "UpdatePolicy": {"Allow": {"Replace": false}},
            "Properties": {"ImageId": {"Ref": "A"}}}}})";
  };
  Harness h2;
  const std::string id2 = h2.Create("t", tmpl("ami-1"));
  h2.Update(id2, tmpl("ami-2"));
  CHECK(h2.StatusOf(id2) == "UPDATE_ROLLBACK_COMPLETE");
  events = h2.Events(id2);
  CHECK(std::find(events.begin(), events.end(), "B UPDATE_FAILED replace is restricted for resource.") !=
        events.end());
}
