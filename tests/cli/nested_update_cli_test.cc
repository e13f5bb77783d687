// Nested stacks' update lifecycle as AWS runs it (stack/NESTED.md): a
// child's update stops at its cleanup phase, which runs in the parent's
// UPDATE_COMPLETE_CLEANUP_IN_PROGRESS; a parent's update failure rolls the
// child's own update back in place (UPDATE_ROLLBACK_IN_PROGRESS ->
// UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS -> UPDATE_ROLLBACK_COMPLETE),
// keeping the child's original resources; a child's own failure fails the
// parent's resource with AWS's "Embedded stack <arn> was not successfully
// updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: ...".
#include <catch2/catch.hpp>

#include "cli_fixture.h"
#include "stack_outputs.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

// Env=prod renames the child's queue (a replacement: the old queue is the
// child's cleanup) and, with Break=yes, adds a parent resource that fails
// after the child is updated. Its bad property's value comes from a resource
// the update changes, so pre-deployment validation cannot see it: it fails
// at its create.
const char* kParent = R"({
  "Parameters": {"Env": {"Type": "String", "Default": "dev"}, "Break": {"Type": "String", "Default": "no"},
                 "ChildBreak": {"Type": "String", "Default": "no"}},
  "Conditions": {"Broken": {"Fn::Equals": [{"Ref": "Break"}, "yes"]}},
  "Resources": {
    "Child": {"Type": "AWS::CloudFormation::Stack", "Properties": {
      "TemplateURL": "https://tmpl.s3.amazonaws.com/child.json",
      "Parameters": {"Prefix": {"Ref": "Env"}, "Break": {"Ref": "ChildBreak"}}}},
    "After": {"Type": "AWS::SSM::Parameter", "Properties": {
      "Type": "String", "Value": {"Fn::GetAtt": ["Child", "Outputs.QueueName"]}}},
    "Bad": {"Type": "AWS::SQS::Queue", "Condition": "Broken", "DependsOn": "After",
            "Properties": {"Nope": {"Fn::GetAtt": ["After", "Value"]}}}
  }
})";

// Break=yes adds a resource that fails after the queue's replacement (its bad
// property is the new queue's ARN: known only then, as above).
const char* kChild = R"({
  "Parameters": {"Prefix": {"Type": "String"}, "Break": {"Type": "String"}},
  "Conditions": {"Broken": {"Fn::Equals": [{"Ref": "Break"}, "yes"]}},
  "Resources": {
    "Q": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": {"Fn::Sub": "${Prefix}-q"}}},
    "Bad": {"Type": "AWS::SQS::Queue", "Condition": "Broken", "DependsOn": "Q",
            "Properties": {"Nope": {"Fn::GetAtt": ["Q", "Arn"]}}}
  },
  "Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Q", "QueueName"]}}}
})";

// The parent "app" created with Env=dev from kParent and `child`; the
// events of both counted from Mark() on.
struct App {
  App(const std::string& name, const char* child = kChild) : cli("nested_update_cli", name) {
    cli("world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'");
    cli.Write("put.json", json{{"Bucket", "tmpl"}, {"Key", "child.json"}, {"Body", child}}.dump());
    cli.Json("world call s3 PutObject \"$(cat put.json)\"");
    tmpl = cli.Write("parent.json", kParent);
    cli.Json("create-stack --stack-name app --template-body file://" + tmpl);
    REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
    child_id = cli.Json("describe-stack-resource --stack-name app --logical-resource-id Child")
                   ["StackResourceDetail"]["PhysicalResourceId"];
    child_name = cli.Json("describe-stacks --stack-name " + child_id)["Stacks"][0]["StackName"];
    Mark();
  }
  void Mark() {
    parent_from = cli.Events("app", 0).size();
    child_from = cli.Events(child_id, 0).size();
  }
  // update-stack of the parent with `params` (and more options).
  void Update(const std::string& params, const std::string& more = "") const {
    cli.Json("update-stack --stack-name app --template-body file://" + tmpl + " --parameters " + params + more);
  }
  std::vector<std::string> ParentEvents() const { return cli.Events("app", parent_from); }
  std::vector<std::string> ChildEvents() const { return cli.Events(child_id, child_from); }
  std::string QueueId() const {
    return cli.Json("describe-stack-resource --stack-name " + child_id + " --logical-resource-id Q")
        ["StackResourceDetail"]["PhysicalResourceId"];
  }
  // The child's events as its update replaces Q (Env dev -> prod).
  std::vector<std::string> ChildReplacesQueue() const {
    return {child_name + " UPDATE_IN_PROGRESS User Initiated",
            "Q UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.",
            "Q UPDATE_IN_PROGRESS Resource creation Initiated", "Q UPDATE_COMPLETE "};
  }

  ms::test::CliFixture cli;
  std::string tmpl, child_id, child_name;
  size_t parent_from = 0, child_from = 0;
};

// The queues in the simulated SQS, by record ID.
std::vector<std::string> Queues(const ms::test::CliFixture& cli) {
  std::vector<std::string> out;
  const json listed = cli.Json("world list --kind sqs.queue");  // kept: the loop reads into it
  for (const auto& r : listed["Records"]) out.push_back(r["Id"]);
  return out;
}

// The timestamp of a stack's first event from `from` on that reads `line`.
std::string TimeOf(const ms::test::CliFixture& cli, const std::string& stack, size_t from, const std::string& line) {
  auto events = cli.Json("describe-stack-events --stack-name " + stack)["StackEvents"];
  std::vector<json> seq(events.rbegin(), events.rend());
  for (size_t i = from; i < seq.size(); ++i) {
    const json& e = seq[i];
    if (e["LogicalResourceId"].get<std::string>() + " " + e["ResourceStatus"].get<std::string>() + " " +
            e.value("ResourceStatusReason", "") == line) {
      return e["Timestamp"];
    }
  }
  FAIL("no event " << line);
  return "";
}

// Appended to a list of events.
std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const char* kBadFailed = "The following resource(s) failed to create: [Bad]. ";

// The parent's events as its update goes through Child and After.
const std::vector<std::string> kParentUpdatesChild{
    "app UPDATE_IN_PROGRESS User Initiated", "Child UPDATE_IN_PROGRESS ", "Child UPDATE_COMPLETE ",
    "After UPDATE_IN_PROGRESS ",           "After UPDATE_COMPLETE ",
};

}  // namespace

TEST_CASE("nested update cli: the child's cleanup runs in the parent's cleanup phase", "[cli][nested]") {
  App app("cleanup");
  // After's update takes 60 virtual seconds: the child's cleanup comes after it.
  const std::string slow = app.cli.Write("slow.lua", "latency({ logical_id = 'After', action = 'update' }, 60)\n");
  app.Update("ParameterKey=Env,ParameterValue=prod", " --scenario " + slow);
  REQUIRE(app.cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(app.cli.Status(app.child_id) == "UPDATE_COMPLETE");
  const std::string& c = app.child_name;
  CHECK(app.ChildEvents() == app.ChildReplacesQueue() + std::vector<std::string>{
                                                            c + " UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                                                            "Q DELETE_IN_PROGRESS ",
                                                            "Q DELETE_COMPLETE ",
                                                            c + " UPDATE_COMPLETE ",
                                                        });
  CHECK(app.ParentEvents() == kParentUpdatesChild + std::vector<std::string>{
                                  "app UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                                  "app UPDATE_COMPLETE ",
                              });
  // The old queue is deleted in the parent's cleanup phase, 60 s after the
  // child's own update ended (not inside it).
  const std::string child_updated =
      TimeOf(app.cli, app.child_id, app.child_from, c + " UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ");
  const std::string parent_cleanup = TimeOf(app.cli, "app", app.parent_from, "app UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ");
  CHECK(child_updated < parent_cleanup);
  CHECK(TimeOf(app.cli, app.child_id, app.child_from, "Q DELETE_IN_PROGRESS ") == parent_cleanup);
  CHECK(Queues(app.cli) == std::vector<std::string>{"us-east-1:prod-q"});
}

TEST_CASE("nested update cli: a parent's failure rolls the updated child back in place", "[cli][nested]") {
  App app("parent_fails");
  const std::string original_queue = app.QueueId();
  app.Update("ParameterKey=Env,ParameterValue=prod ParameterKey=Break,ParameterValue=yes");
  REQUIRE(app.cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(app.cli.Status(app.child_id) == "UPDATE_ROLLBACK_COMPLETE");
  const std::string& c = app.child_name;
  // The child had not run its cleanup: its replacement is undone, the
  // original queue kept, the new one deleted in the rollback's cleanup.
  CHECK(app.ChildEvents() == app.ChildReplacesQueue() + std::vector<std::string>{
                                                            c + " UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                                                            c + " UPDATE_ROLLBACK_IN_PROGRESS " + kBadFailed,
                                                            "Q UPDATE_COMPLETE ",
                                                            c + " UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                                            "Q DELETE_IN_PROGRESS ",
                                                            "Q DELETE_COMPLETE ",
                                                            c + " UPDATE_ROLLBACK_COMPLETE ",
                                                        });
  CHECK(app.ParentEvents() == kParentUpdatesChild + std::vector<std::string>{
                                  "Bad CREATE_IN_PROGRESS ",
                                  "Bad CREATE_FAILED Encountered unsupported property Nope",
                                  std::string("app UPDATE_ROLLBACK_IN_PROGRESS ") + kBadFailed,
                                  "Child UPDATE_IN_PROGRESS ",
                                  "After UPDATE_IN_PROGRESS ",
                                  "After UPDATE_COMPLETE ",
                                  "Child UPDATE_COMPLETE ",
                                  "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                  "Bad DELETE_COMPLETE ",
                                  "app UPDATE_ROLLBACK_COMPLETE ",
                              });
  CHECK(app.QueueId() == original_queue);
  CHECK(Queues(app.cli) == std::vector<std::string>{"us-east-1:dev-q"});
}

TEST_CASE("nested update cli: a child's failure fails the parent's resource, whose rollback rolls it back",
          "[cli][nested]") {
  App app("child_fails");
  app.Update("ParameterKey=Env,ParameterValue=prod ParameterKey=ChildBreak,ParameterValue=yes");
  REQUIRE(app.cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(app.cli.Status(app.child_id) == "UPDATE_ROLLBACK_COMPLETE");
  const std::string& c = app.child_name;
  CHECK(app.ChildEvents() == app.ChildReplacesQueue() + std::vector<std::string>{
                                                            "Bad CREATE_IN_PROGRESS ",
                                                            "Bad CREATE_FAILED Encountered unsupported property Nope",
                                                            c + " UPDATE_ROLLBACK_IN_PROGRESS " + kBadFailed,
                                                            "Q UPDATE_COMPLETE ",
                                                            c + " UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                                            "Q DELETE_IN_PROGRESS ",
                                                            "Bad DELETE_COMPLETE ",
                                                            "Q DELETE_COMPLETE ",
                                                            c + " UPDATE_ROLLBACK_COMPLETE ",
                                                        });
  // AWS's reason on the parent's resource: the child's state when it failed.
  CHECK(app.ParentEvents() ==
        std::vector<std::string>{
            "app UPDATE_IN_PROGRESS User Initiated",
            "Child UPDATE_IN_PROGRESS ",
            "Child UPDATE_FAILED Embedded stack " + app.child_id +
                " was not successfully updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: " + kBadFailed,
            "app UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [Child]. ",
            "Child UPDATE_IN_PROGRESS ",
            "Child UPDATE_COMPLETE ",
            "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
            "app UPDATE_ROLLBACK_COMPLETE ",
        });
  CHECK(Queues(app.cli) == std::vector<std::string>{"us-east-1:dev-q"});
}

TEST_CASE("nested update cli: continue-update-rollback skips a nested stack's resource as Child.Resource",
          "[cli][nested]") {
  // P is updated in place; its rollback fails once (the scenario's rule).
  App app("skip", R"({
    "Parameters": {"Prefix": {"Type": "String"}, "Break": {"Type": "String"}},
    "Resources": {"P": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": {"Ref": "Prefix"}}}},
    "Outputs": {"QueueName": {"Value": {"Ref": "Prefix"}}}})");
  const std::string busy = app.cli.Write("busy.lua", "fail({ logical_id = 'P', action = 'rollback' }, { message = 'busy' })\n");
  app.Update("ParameterKey=Env,ParameterValue=prod ParameterKey=Break,ParameterValue=yes", " --scenario " + busy);
  REQUIRE(app.cli.Status("app") == "UPDATE_ROLLBACK_FAILED");
  CHECK(app.cli.Status(app.child_id) == "UPDATE_ROLLBACK_FAILED");
  const std::vector<std::string> failed = app.cli.Events("app", 0);
  CHECK(failed.back() == "app UPDATE_ROLLBACK_FAILED The following resource(s) failed to update: [Child]. ");
  CHECK(failed[failed.size() - 2] == "Child UPDATE_FAILED Embedded stack " + app.child_id +
                                         " was not successfully updated. Currently in UPDATE_ROLLBACK_FAILED with "
                                         "reason: The following resource(s) failed to update: [P]. ");

  // Refused: not a resource whose rollback failed, or a nested stack
  // resource whose stack is not being deleted.
  for (const std::string bad : {"Child.Nope", "Child", "After.P", "Child.P.X", "P"}) {
    ms::test::CommandResult r = app.cli("continue-update-rollback --stack-name app --resources-to-skip " + bad);
    CHECK(r.exit_code == 255);
    CHECK(r.out == "\nAn error occurred (ValidationError) when calling the ContinueUpdateRollback operation: "
                   "Invalid ResourcesToSkip [" + bad + "]: only resources in the UPDATE_FAILED state because their "
                   "rollback failed can be skipped\n");
  }
  CHECK(app.cli.Status("app") == "UPDATE_ROLLBACK_FAILED");

  app.Mark();
  CHECK(app.cli("continue-update-rollback --stack-name app --resources-to-skip Child.P").exit_code == 0);
  CHECK(app.cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
  const std::string& c = app.child_name;
  CHECK(app.ChildEvents() == std::vector<std::string>{
                                 c + " UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
                                 "P UPDATE_COMPLETE ",  // skipped: no call
                                 c + " UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                 c + " UPDATE_ROLLBACK_COMPLETE ",
                             });
  CHECK(app.ParentEvents() == std::vector<std::string>{
                                  "app UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
                                  "Child UPDATE_IN_PROGRESS ",
                                  "Child UPDATE_COMPLETE ",
                                  "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                  "Bad DELETE_COMPLETE ",
                                  "app UPDATE_ROLLBACK_COMPLETE ",
                              });
}

// Seed 003 where nested stacks meet: the parent's Child resource restricts
// replacements (UpdatePolicy Allow.Replace false); the child's queue, which
// the update replaces, says nothing (the parent's restriction holds) or
// explicitly allows it (conflicting directives: the update stops, naming both).
TEST_CASE("nested update cli: seed 003's outer restriction and an inner Allow that disagree stop the update",
          "[cli][nested][policy]") {
  const std::string restricted_parent = [] {
    std::string p = kParent;
    const std::string at = R"("Child": {"Type": "AWS::CloudFormation::Stack", )";
    p.replace(p.find(at), at.size(), at + R"("UpdatePolicy": {"Allow": {"Replace": false}}, )");
    return p;
  }();
  const char* allowing_child = R"({
    "Parameters": {"Prefix": {"Type": "String"}, "Break": {"Type": "String"}},
    "Resources": {"Q": {"Type": "AWS::SQS::Queue", "UpdatePolicy": {"Allow": {"Replace": true}},
                        "Properties": {"QueueName": {"Fn::Sub": "${Prefix}-q"}}}},
    "Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Q", "QueueName"]}}}})";
  const std::string conflict =
      "Conflicting update restrictions for resource Q: its UpdatePolicy allows replace (Allow.Replace is true), the "
      "UpdatePolicy of its parent stack's resource Child restricts it (Allow.Replace is false)";
  struct Case {
    const char* name;
    const char* child;
    std::string reason;
    bool disable_rollback;
  };
  // The outer restriction holding rolls back as any failed update; the
  // conflict is shown with rollback disabled, the seed's own ending.
  for (const Case& k : {Case{"outer_holds", kChild, "replace is restricted for resource.", false},
                        Case{"conflict_no_rollback", allowing_child, conflict, true}}) {
    INFO(k.name);
    App app(std::string("seed003_") + k.name, k.child);
    // The restriction comes with the update (the new template's counts, as for any resource).
    app.cli.Write("parent.json", restricted_parent);
    app.Update("ParameterKey=Env,ParameterValue=prod", k.disable_rollback ? " --disable-rollback" : "");
    const std::string& c = app.child_name;
    const std::string q_failed = "The following resource(s) failed to update: [Q]. ";
    const std::string embedded = "Child UPDATE_FAILED Embedded stack " + app.child_id +
                                 " was not successfully updated. Currently in ";
    std::vector<std::string> child_events{c + " UPDATE_IN_PROGRESS User Initiated", "Q UPDATE_FAILED " + k.reason};
    std::vector<std::string> parent_events{"app UPDATE_IN_PROGRESS User Initiated", "Child UPDATE_IN_PROGRESS "};
    if (k.disable_rollback) {
      // The seed's own ending: both stacks stop UPDATE_FAILED, the queue untouched.
      child_events = child_events + std::vector<std::string>{c + " UPDATE_FAILED " + q_failed};
      parent_events = parent_events + std::vector<std::string>{
                                          embedded + "UPDATE_FAILED with reason: " + q_failed,
                                          "app UPDATE_FAILED The following resource(s) failed to update: [Child]. "};
    } else {
      child_events = child_events + std::vector<std::string>{c + " UPDATE_ROLLBACK_IN_PROGRESS " + q_failed,
                                                             "Q UPDATE_COMPLETE ",
                                                             c + " UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                                             c + " UPDATE_ROLLBACK_COMPLETE "};
      parent_events =
          parent_events + std::vector<std::string>{
                              embedded + "UPDATE_ROLLBACK_IN_PROGRESS with reason: " + q_failed,
                              "app UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [Child]. ",
                              "Child UPDATE_IN_PROGRESS ", "Child UPDATE_COMPLETE ",
                              "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ", "app UPDATE_ROLLBACK_COMPLETE "};
    }
    CHECK(app.ChildEvents() == child_events);
    CHECK(app.ParentEvents() == parent_events);
    CHECK(Queues(app.cli) == std::vector<std::string>{"us-east-1:dev-q"});
  }
}
