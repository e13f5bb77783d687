// Change sets (stack/change_sets.h) with the update tests' C++ fake provider
// (update_fakes.h), in virtual time. The heart: for seed 000's update runs
// 4-10 and 20, what a change set lists is what executing it then does —
// which resources are added, updated in place, replaced and removed, read
// back from the events the execution made.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "stack/change_sets.h"
#include "update_harness.h"

using ms::ChangeSetRecord;
using ms::ChangeSetService;
using update_harness::kNet;
using update_harness::kTwo;
using update_harness::kTwoNext;
using update_harness::Lines;
using update_harness::P;
using update_harness::RolePolicy;
using update_harness::StackRecord;
using update_harness::Status;

namespace {

const std::string kReplacing = "Requested update requires the creation of a new physical resource; hence creating one.";

// The update tests' harness, with a ChangeSetService on the same context.
struct Harness : update_harness::Harness {
  std::unique_ptr<ChangeSetService> change_sets = std::make_unique<ChangeSetService>(service->context());

  Status CreateChangeSet(const std::string& stack, const std::string& name, const std::string& body,
                         std::vector<ms::ParameterInput> params = {}, const std::string& type = "") {
    ms::CreateChangeSetInput in;
    in.stack_name = stack;
    in.change_set_name = name;
    in.change_set_type = type;
    in.template_body = body;
    in.use_previous_template = body.empty();
    in.parameters = std::move(params);
    std::string id, stack_id;
    return change_sets->Create(in, &id, &stack_id);
  }

  ChangeSetRecord Describe(const std::string& stack, const std::string& name) {
    ChangeSetRecord cs;
    Status s = change_sets->Describe(name, stack, &cs);
    INFO(s.message());
    REQUIRE(s.ok());
    return cs;
  }

  // execute-change-set run to the end; the events it made.
  Lines Execute(const std::string& stack, const std::string& name) {
    StackRecord before_stack = Stack(stack);
    const size_t before = Events(before_stack.id).size();
    ms::ExecuteChangeSetInput in;
    in.change_set_name = name;
    in.stack_name = stack;
    std::string id;
    Status s = change_sets->Execute(in, &id);
    INFO(s.message());
    REQUIRE(s.ok());
    REQUIRE(service->Run(id).ok());
    return Events(id, before);
  }

};

// A change set's changes, one line each: "Add X", "Remove X", "Modify X
// <Replacement> <Name>:<RequiresRecreation>:<Evaluation>:<ChangeSource>[:<CausingEntity>] ...".
Lines ChangeLines(const ChangeSetRecord& cs) {
  Lines out;
  for (const ms::ChangeSetResourceChange& c : cs.changes) {
    std::string line = c.action + " " + c.logical_id;
    if (c.action == "Modify") {
      line += " " + c.replacement;
      for (const ms::ChangeSetDetail& d : c.details) {
        line += " " + (d.attribute == "Metadata" ? std::string("Metadata") : d.name + ":" + d.requires_recreation) +
                ":" + d.evaluation + ":" + d.change_source + (d.causing_entity.empty() ? "" : ":" + d.causing_entity);
      }
    }
    out.push_back(line);
  }
  return out;
}

// What an update's events say it did to each resource: "Add", "Replace",
// "Update" or "Remove" (a cleanup delete of a resource not replaced).
std::map<std::string, std::string> Executed(const Lines& events, const std::string& stack_name) {
  std::map<std::string, std::string> out;
  for (const std::string& e : events) {
    const std::string logical = e.substr(0, e.find(' '));
    if (logical == stack_name) continue;
    const std::string rest = e.substr(e.find(' ') + 1);
    if (rest.rfind("CREATE_IN_PROGRESS", 0) == 0) out[logical] = "Add";
    if (rest == "UPDATE_IN_PROGRESS " + kReplacing) out[logical] = "Replace";
    if (rest == "UPDATE_IN_PROGRESS" && out.count(logical) == 0) out[logical] = "Update";
    if (rest == "DELETE_COMPLETE" && out.count(logical) == 0) out[logical] = "Remove";
  }
  return out;
}

// The promise of a change set, checked against what happened: every listed
// Add/Remove happened; Replacement True was a replacement; a change known
// now (some Static detail) happened, in place when Replacement is False;
// a change only Dynamic may turn out to be no change (seed 000 run 10); a
// Conditional one is a replacement or an update; nothing happened that was
// not listed.
void CheckKept(const ChangeSetRecord& cs, const std::map<std::string, std::string>& executed) {
  std::set<std::string> listed;
  for (const ms::ChangeSetResourceChange& c : cs.changes) {
    INFO(c.action << " " << c.logical_id << " " << c.replacement);
    listed.insert(c.logical_id);
    auto it = executed.find(c.logical_id);
    const std::string did = it == executed.end() ? "" : it->second;
    const bool known = std::any_of(c.details.begin(), c.details.end(),
                                   [](const ms::ChangeSetDetail& d) { return d.evaluation == "Static"; });
    if (c.action == "Add") CHECK(did == "Add");
    if (c.action == "Remove") CHECK(did == "Remove");
    if (c.action == "Modify" && c.replacement == "True") CHECK(did == "Replace");
    if (c.action == "Modify" && c.replacement == "False") CHECK((did == "Update" || (did.empty() && !known)));
    if (c.action == "Modify" && c.replacement == "Conditional") {
      CHECK((did == "Replace" || did == "Update" || (did.empty() && !known)));
    }
  }
  for (const auto& [logical, did] : executed) {
    INFO(did << " " << logical << " was not in the change set");
    CHECK(listed.count(logical) == 1);
  }
}

// Seed 000 run 20: three independent instances, each with its Condition.
std::string Conditioned(bool c1, bool c2, bool c3) {
  auto eq = [](bool on) { return on ? R"({"Fn::Equals": ["x", "x"]})" : R"({"Fn::Equals": ["x", "y"]})"; };
  return std::string(R"({"Conditions": {"Condition1": )") + eq(c1) + R"(, "Condition2": )" + eq(c2) +
         R"(, "Condition3": )" + eq(c3) + R"(},
  "Resources": {
    "Instance1": {"Type": "Test::Upd::Thing", "Condition": "Condition1", "Properties": {"ImageId": "ami-1"}},
    "Instance2": {"Type": "Test::Upd::Thing", "Condition": "Condition2", "Properties": {"ImageId": "ami-1"}},
    "Instance3": {"Type": "Test::Upd::Thing", "Condition": "Condition3", "Properties": {"ImageId": "ami-1"}}
  }})";
}

struct Run {
  const char* name;
  std::string initial;
  std::vector<ms::ParameterInput> initial_params;
  std::string next;
  std::vector<ms::ParameterInput> next_params;
  Lines changes;                                // ChangeLines of the change set
  std::map<std::string, std::string> executed;  // Executed of its events
};

std::string Tagged(std::string t) {
  const std::string vpc = R"({"CidrBlock": {"Ref": "CidrBlock"}})";
  return t.replace(t.find(vpc), vpc.size(), R"({"CidrBlock": {"Ref": "CidrBlock"}, "Tags": [{"Key": "k", "Value": "v"}]})");
}

std::vector<Run> Runs() {
  const auto two = std::vector<ms::ParameterInput>{P("ImageId", "ami-1"), P("InstanceType", "t2.micro")};
  const auto net = std::vector<ms::ParameterInput>{P("CidrBlock", "10.0.0.0/16"), P("ImageId", "ami-1")};
  return {
      {"run 4", kTwo, two, kTwoNext, two,
       {"Add Instance3", "Remove Instance1"},
       {{"Instance3", "Add"}, {"Instance1", "Remove"}}},
      {"run 5", kTwo, two, kTwoNext, {P("ImageId", "ami-1"), P("InstanceType", "t2.small")},
       {"Modify Instance2 False InstanceType:Never:Static:ParameterReference:InstanceType", "Add Instance3",
        "Remove Instance1"},
       {{"Instance2", "Update"}, {"Instance3", "Add"}, {"Instance1", "Remove"}}},
      {"run 6", kTwo, two, kTwoNext, {P("ImageId", "ami-2"), P("InstanceType", "t2.small")},
       {"Modify Instance2 True ImageId:Always:Static:ParameterReference:ImageId "
        "InstanceType:Never:Static:ParameterReference:InstanceType",
        "Add Instance3", "Remove Instance1"},
       {{"Instance2", "Replace"}, {"Instance3", "Add"}, {"Instance1", "Remove"}}},
      {"run 7", kNet, net, kNet, {P("CidrBlock", "10.1.0.0/16"), P("ImageId", "ami-1")},
       {"Modify VPC True CidrBlock:Always:Static:ParameterReference:CidrBlock",
        "Modify Subnet Conditional VpcId:Always:Dynamic:ResourceReference:VPC",
        "Modify Instance1 Conditional SubnetId:Always:Dynamic:ResourceReference:Subnet"},
       {{"VPC", "Replace"}, {"Subnet", "Replace"}, {"Instance1", "Replace"}}},
      {"run 8", kNet, net, Tagged(kNet), net,
       {"Modify VPC False Tags:Never:Static:DirectModification"},
       {{"VPC", "Update"}}},
      {"run 9", RolePolicy(R"({"Path": "/a/"})"), {}, RolePolicy(R"({"Path": "/b/"})"), {},
       {"Modify Role True Path:Always:Static:DirectModification",
        "Modify Policy False Roles:Never:Dynamic:ResourceAttribute:Role.Arn"},
       {{"Role", "Replace"}, {"Policy", "Update"}}},
      {"run 10", RolePolicy(R"({"Description": "a"})"), {}, RolePolicy(R"({"Description": "b"})"), {},
       {"Modify Role False Description:Never:Static:DirectModification",
        "Modify Policy False Roles:Never:Dynamic:ResourceAttribute:Role.Arn"},
       {{"Role", "Update"}}},
      {"run 20", Conditioned(true, true, false), {}, Conditioned(false, true, true), {},
       {"Add Instance3", "Remove Instance1"},
       {{"Instance3", "Add"}, {"Instance1", "Remove"}}},
  };
}

}  // namespace

TEST_CASE("seed 000 runs 4-10 and 20: a change set lists what executing it does", "[changeset]") {
  for (const Run& run : Runs()) {
    SECTION(run.name) {
      Harness h;
      const std::string id = h.Create("s", run.initial, run.initial_params);
      Status s = h.CreateChangeSet("s", "cs", run.next, run.next_params);
      INFO(s.message());
      REQUIRE(s.ok());
      ChangeSetRecord cs = h.Describe("s", "cs");
      CHECK(cs.status == "CREATE_COMPLETE");
      CHECK(cs.execution_status == "AVAILABLE");
      CHECK(ChangeLines(cs) == run.changes);

      const Lines events = h.Execute("s", "cs");
      CHECK(events.back() == "s UPDATE_COMPLETE");
      const auto executed = Executed(events, "s");
      CHECK(executed == run.executed);
      CheckKept(cs, executed);
      CHECK(h.Describe("s", "cs").execution_status == "EXECUTE_COMPLETE");
    }
  }
}

TEST_CASE("executing a change set is the update update-stack makes", "[changeset]") {
  // Run 7 both ways: the same events.
  Harness a, b;
  const auto net = std::vector<ms::ParameterInput>{P("CidrBlock", "10.0.0.0/16"), P("ImageId", "ami-1")};
  const auto next = std::vector<ms::ParameterInput>{P("CidrBlock", "10.1.0.0/16"), P("ImageId", "ami-1")};
  a.Create("s", kNet, net);
  REQUIRE(a.CreateChangeSet("s", "cs", kNet, next).ok());
  const Lines by_change_set = a.Execute("s", "cs");

  const std::string id = b.Create("s", kNet, net);
  const size_t before = b.Events(id).size();
  ms::UpdateStackInput u;
  u.stack_name = "s";
  u.template_body = kNet;
  u.parameters = next;
  std::string ignored;
  REQUIRE(b.service->StartUpdate(u, &ignored).ok());
  REQUIRE(b.service->Run(id).ok());
  CHECK(by_change_set == b.Events(id, before));
  CHECK(a.providers.log() == b.providers.log());
}

TEST_CASE("a change set with nothing to change fails with AWS's reason and cannot be executed", "[changeset]") {
  Harness h;
  h.Create("s", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  // Run 1's update (the same template and values), as a change set.
  REQUIRE(h.CreateChangeSet("s", "same", "", {{"ImageId", std::nullopt, true}, {"InstanceType", std::nullopt, true}})
              .ok());
  ChangeSetRecord cs = h.Describe("s", "same");
  CHECK(cs.status == "FAILED");
  CHECK(cs.execution_status == "UNAVAILABLE");
  CHECK(cs.status_reason ==
        "The submitted information didn't contain changes. Submit different information to create a change set.");
  CHECK(cs.changes.empty());
  ms::ExecuteChangeSetInput in{"same", "s", false, ""};
  std::string id;
  Status s = h.change_sets->Execute(in, &id);
  CHECK(s.code() == Status::Code::kInvalidChangeSetStatus);
  CHECK(s.message() == "ChangeSet [" + cs.id + "] cannot be executed in its current status of [FAILED]");
}

TEST_CASE("change set errors: duplicates, missing change sets and stacks, wrong types", "[changeset]") {
  Harness h;
  const std::string id = h.Create("s", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  const auto small = std::vector<ms::ParameterInput>{P("ImageId", "ami-1"), P("InstanceType", "t2.small")};
  REQUIRE(h.CreateChangeSet("s", "cs", kTwo, small).ok());

  Status dup = h.CreateChangeSet("s", "cs", kTwo, small);
  CHECK(dup.code() == Status::Code::kAlreadyExists);
  CHECK(dup.message() == "ChangeSet cs cannot be created due to a mismatch with existing attribute ClientToken");

  ChangeSetRecord cs;
  Status missing = h.change_sets->Describe("nope", "s", &cs);
  CHECK(missing.code() == Status::Code::kChangeSetNotFound);
  CHECK(missing.message() == "ChangeSet [nope] does not exist");
  const std::string arn = "arn:aws:cloudformation:us-east-1:123456789012:changeSet/nope/0";
  CHECK(h.change_sets->Describe(arn, "", &cs).message() == "ChangeSet [" + arn + "] does not exist");
  CHECK(h.change_sets->Describe("cs", "", &cs).message() ==
        "StackName must be specified if ChangeSetName is not specified as an ARN.");
  Status no_stack = h.change_sets->Describe("cs", "other", &cs);
  CHECK(no_stack.code() == Status::Code::kValidation);
  CHECK(no_stack.message() == "Stack [other] does not exist");

  CHECK(h.CreateChangeSet("other", "cs", kTwo, small).message() == "Stack [other] does not exist");
  CHECK(h.CreateChangeSet("s", "again", kTwo, small, "CREATE").message() ==
        "Stack [s] already exists and cannot be created again with the changeSet [again].");
  CHECK(h.CreateChangeSet("s", "bad_name", kTwo, small).message() ==
        "1 validation error detected: Value 'bad_name' at 'changeSetName' failed to satisfy constraint: Member must "
        "satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*");

  // By ID, and deleted.
  cs = h.Describe("s", "cs");
  CHECK(h.Describe("", cs.id).name == "cs");
  REQUIRE(h.change_sets->Delete(cs.id, "").ok());
  CHECK(h.change_sets->Describe("cs", "s", &cs).code() == Status::Code::kChangeSetNotFound);
  std::vector<ChangeSetRecord> all;
  REQUIRE(h.change_sets->List("s", &all).ok());
  CHECK(all.empty());
  CHECK(h.Stack(id).status == ms::StackStatus::kCreateComplete);  // nothing ran
}

TEST_CASE("executing one change set makes the stack's others OBSOLETE, update-stack does too", "[changeset]") {
  Harness h;
  h.Create("s", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.micro")});
  REQUIRE(h.CreateChangeSet("s", "small", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.small")}).ok());
  REQUIRE(h.CreateChangeSet("s", "large", kTwo, {P("ImageId", "ami-1"), P("InstanceType", "t2.large")}).ok());
  REQUIRE(h.CreateChangeSet("s", "later", kTwo, {P("ImageId", "ami-2"), P("InstanceType", "t2.large")}).ok());
  h.Execute("s", "small");
  std::vector<ChangeSetRecord> all;
  REQUIRE(h.change_sets->List("s", &all).ok());
  REQUIRE(all.size() == 3);
  CHECK(all[0].name == "small");
  CHECK(all[0].execution_status == "EXECUTE_COMPLETE");
  CHECK(all[1].execution_status == "OBSOLETE");
  CHECK(all[2].execution_status == "OBSOLETE");
  ms::ExecuteChangeSetInput in{"large", "s", false, ""};
  std::string id;
  CHECK(h.change_sets->Execute(in, &id).message() ==
        "ChangeSet [" + all[1].id + "] cannot be executed in its current status of [OBSOLETE]");

  // A change set made before an update-stack is stale after it.
  REQUIRE(h.CreateChangeSet("s", "stale", kTwo, {P("ImageId", "ami-3"), P("InstanceType", "t2.large")}).ok());
  ms::UpdateStackInput u;
  u.stack_name = "s";
  u.use_previous_template = true;
  u.parameters = {P("ImageId", "ami-1"), P("InstanceType", "t2.medium")};
  REQUIRE(h.service->StartUpdate(u, &id).ok());
  REQUIRE(h.service->Run(id).ok());
  CHECK(h.Describe("s", "stale").execution_status == "OBSOLETE");
}

TEST_CASE("a failed execution is EXECUTE_FAILED", "[changeset]") {
  Harness h;
  h.Create("s", R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"Tag": "a"}}}})");
  REQUIRE(h.CreateChangeSet(
               "s", "cs", R"({"Resources": {"A": {"Type": "Test::Upd::Thing", "Properties": {"Tag": "b", "UpdateFails": "boom"}}}})")
              .ok());
  const Lines events = h.Execute("s", "cs");
  CHECK(events.back() == "s UPDATE_ROLLBACK_COMPLETE");
  CHECK(h.Describe("s", "cs").execution_status == "EXECUTE_FAILED");
}

TEST_CASE("a CREATE change set: REVIEW_IN_PROGRESS without resources, then executed to CREATE_COMPLETE",
          "[changeset]") {
  Harness h;
  REQUIRE(h.CreateChangeSet("n", "first", kNet, {P("CidrBlock", "10.0.0.0/16"), P("ImageId", "ami-1")}, "CREATE").ok());
  StackRecord review = h.Stack("n");
  CHECK(review.status == ms::StackStatus::kReviewInProgress);
  CHECK(review.reason == "User Initiated");
  std::vector<ms::ResourceRecord> resources;
  REQUIRE(h.service->Resources(review.id, &resources).ok());
  CHECK(resources.empty());
  CHECK(h.Events(review.id) == Lines{"n REVIEW_IN_PROGRESS User Initiated"});
  CHECK(h.providers.log().empty());

  ChangeSetRecord cs = h.Describe("n", "first");
  CHECK(cs.type == "CREATE");
  CHECK(cs.stack_id == review.id);
  CHECK(ChangeLines(cs) == Lines{"Add VPC", "Add Subnet", "Add Instance1"});
  // A stack in review takes more CREATE change sets, but no UPDATE one.
  REQUIRE(h.CreateChangeSet("n", "second", kNet, {P("CidrBlock", "10.9.0.0/16"), P("ImageId", "ami-1")}, "CREATE")
              .ok());
  CHECK(h.CreateChangeSet("n", "upd", kNet, {P("CidrBlock", "10.9.0.0/16"), P("ImageId", "ami-1")}).message() ==
        "Stack:" + review.id + " is in REVIEW_IN_PROGRESS state and can not be updated.");

  const Lines events = h.Execute("n", "first");
  CHECK(events == Lines{
                      "n CREATE_IN_PROGRESS User Initiated",
                      "VPC CREATE_IN_PROGRESS",
                      "VPC CREATE_IN_PROGRESS Resource creation Initiated",
                      "VPC CREATE_COMPLETE",
                      "Subnet CREATE_IN_PROGRESS",
                      "Subnet CREATE_IN_PROGRESS Resource creation Initiated",
                      "Subnet CREATE_COMPLETE",
                      "Instance1 CREATE_IN_PROGRESS",
                      "Instance1 CREATE_IN_PROGRESS Resource creation Initiated",
                      "Instance1 CREATE_COMPLETE",
                      "n CREATE_COMPLETE",
                  });
  StackRecord created = h.Stack("n");
  CHECK(created.id == review.id);
  CHECK(created.status == ms::StackStatus::kCreateComplete);
  REQUIRE(created.parameters.size() == 2);
  CHECK(created.parameters[0].value == "10.0.0.0/16");
  CHECK(h.Describe("n", "first").execution_status == "EXECUTE_COMPLETE");
  CHECK(h.Describe("n", "second").execution_status == "OBSOLETE");
}

TEST_CASE("a stack in review (a CREATE change set not executed) can be deleted", "[changeset]") {
  Harness h;
  REQUIRE(h.CreateChangeSet("gone", "first", kNet, {P("CidrBlock", "10.0.0.0/16"), P("ImageId", "ami-1")}, "CREATE")
              .ok());
  const std::string id = h.Stack("gone").id;
  std::string deleting;
  REQUIRE(h.service->StartDelete({"gone", {}, ""}, &deleting).ok());
  CHECK(deleting == id);
  Status ran = h.service->Run(id);
  INFO(ran.message());
  REQUIRE(ran.ok());
  CHECK(h.Events(id) == Lines{
                           "gone REVIEW_IN_PROGRESS User Initiated",
                           "gone DELETE_IN_PROGRESS User Initiated",
                           "gone DELETE_COMPLETE",
                       });
  CHECK(h.providers.log().empty());
}

TEST_CASE("a template with a Transform: create-stack and update-stack need CAPABILITY_AUTO_EXPAND, a change set does not",
          "[changeset][stack]") {
  Harness h;
  auto with_transform = [](const std::string& value) {
    return R"({"Transform": "AWS::LanguageExtensions", "Resources": {
      "A": {"Type": "Test::Upd::Thing", "Properties": {"Name": {"Fn::Join": ["", [")" + value + R"("]]}}}}})";
  };
  ms::CreateStackInput in;
  in.stack_name = "expand";
  in.template_body = with_transform("v1");
  std::string id;
  Status refused = h.service->StartCreate(in, &id);
  CHECK(refused.code() == Status::Code::kInsufficientCapabilities);
  CHECK(refused.message() == "Requires capabilities : [CAPABILITY_AUTO_EXPAND]");
  StackRecord none;
  CHECK(!h.service->FindStack("expand", &none).ok());  // nothing created
  // Missing both, the transform's capability is asked for first.
  in.template_body = R"({"Transform": ["AWS::LanguageExtensions"], "Resources": {"R": {"Type": "AWS::IAM::Role",
    "Properties": {"AssumeRolePolicyDocument": {}}}}})";
  CHECK(h.service->StartCreate(in, &id).message() == "Requires capabilities : [CAPABILITY_AUTO_EXPAND]");
  in.capabilities = {"CAPABILITY_AUTO_EXPAND"};
  CHECK(h.service->StartCreate(in, &id).message() == "Requires capabilities : [CAPABILITY_IAM]");

  in.template_body = with_transform("v1");
  REQUIRE(h.service->StartCreate(in, &id).ok());
  REQUIRE(h.service->Run(id).ok());
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("CREATE_COMPLETE"));

  // update-stack: refused without it (the template it keeps counts too), runs with it.
  Status update = h.StartUpdate("expand", with_transform("v2"));
  CHECK(update.message() == "Requires capabilities : [CAPABILITY_AUTO_EXPAND]");
  CHECK(h.StartUpdate("expand", "").message() == "Requires capabilities : [CAPABILITY_AUTO_EXPAND]");
  ms::UpdateStackInput u;
  u.stack_name = "expand";
  u.template_body = with_transform("v2");
  u.capabilities = {"CAPABILITY_AUTO_EXPAND"};
  REQUIRE(h.service->StartUpdate(u, &id).ok());
  REQUIRE(h.service->Run(id).ok());
  CHECK(ms::StackStatusName(h.Stack(id).status) == std::string("UPDATE_COMPLETE"));

  // A change set is reviewed before it runs: no capability asked, and executing it runs the update.
  Status cs = h.CreateChangeSet("expand", "v3", with_transform("v3"));
  INFO(cs.message());
  REQUIRE(cs.ok());
  CHECK(h.Execute("expand", "v3") == Lines{
                                         "expand UPDATE_IN_PROGRESS User Initiated",
                                         "A UPDATE_IN_PROGRESS",
                                         "A UPDATE_COMPLETE",
                                         "expand UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                                         "expand UPDATE_COMPLETE",
                                     });
}
