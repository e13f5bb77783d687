// Nested stacks through the CLI: an AWS::CloudFormation::Stack resource is a
// child stack of its own (named <parent>-<Logical>-<13 upper alnum>, its
// template from the simulated S3), with its own events and statuses; its
// Parameters are passed in, its outputs read with Fn::GetAtt Child.Outputs.X,
// its Ref is its ARN, ParentId/RootId name the parent; a child failure fails
// the parent's resource with AWS's "Embedded stack ... was not successfully
// created" and the parent's rollback deletes the child; delete-stack deletes
// the child with the parent; a parameter change updates the child.
#include <catch2/catch.hpp>

#include "cli_fixture.h"
#include "stack_outputs.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace {

using json = nlohmann::json;
using ms::test::Output;

const char* kParent = R"({
  "Parameters": {"Env": {"Type": "String", "Default": "dev"}},
  "Resources": {
    "Child": {"Type": "AWS::CloudFormation::Stack", "Properties": {
      "TemplateURL": "https://tmpl.s3.amazonaws.com/child.json",
      "Parameters": {"Prefix": {"Ref": "Env"}}, "TimeoutInMinutes": 10}},
    "After": {"Type": "AWS::SSM::Parameter", "Properties": {
      "Type": "String", "Value": {"Fn::GetAtt": ["Child", "Outputs.QueueName"]}}}
  },
  "Outputs": {
    "ChildId": {"Value": {"Ref": "Child"}},
    "Queue": {"Value": {"Fn::GetAtt": ["Child", "Outputs.QueueName"]}}
  }
})";

const char* kChild = R"({
  "Parameters": {"Prefix": {"Type": "String"}},
  "Resources": {"Q": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": {"Fn::Sub": "${Prefix}-q"}}}},
  "Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Q", "QueueName"]}}}
})";

// The child fails: a property the queue does not have.
const char* kBadChild = R"({
  "Parameters": {"Prefix": {"Type": "String"}},
  "Resources": {"Bad": {"Type": "AWS::SQS::Queue", "Properties": {"Nope": {"Ref": "Prefix"}}}}
})";

void PutChild(const ms::test::CliFixture& cli, const std::string& text) {
  cli("world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'");
  cli.Write("put.json", json{{"Bucket", "tmpl"}, {"Key", "child.json"}, {"Body", text}}.dump());
  cli.Json("world call s3 PutObject \"$(cat put.json)\"");
}

// Events of a stack named by name or ARN, oldest first ("Logical STATUS reason").
std::vector<std::string> EventsOf(const ms::test::CliFixture& cli, const std::string& stack) {
  return cli.Events(stack, 0);
}

}  // namespace

TEST_CASE("nested stacks cli: create with outputs across the boundary, update, delete", "[cli][nested]") {
  ms::test::CliFixture cli("nested_cli", "lifecycle");
  PutChild(cli, kChild);
  const std::string t = cli.Write("parent.json", kParent);
  cli.Json("create-stack --stack-name app --template-body file://" + t);
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  auto parent = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  const std::string parent_id = parent["StackId"];
  const std::string child_id = Output(parent, "ChildId");
  CHECK(Output(parent, "Queue") == "dev-q");
  CHECK_FALSE(parent.contains("ParentId"));

  // The child: its name, ARN, parent and root, timeout, events.
  auto child = cli.Json("describe-stacks --stack-name " + child_id)["Stacks"][0];
  const std::string child_name = child["StackName"];
  CHECK(std::regex_match(child_name, std::regex("app-Child-[A-Z0-9]{13}")));
  CHECK(child["StackId"] == child_id);
  CHECK(child["ParentId"] == parent_id);
  CHECK(child["RootId"] == parent_id);
  CHECK(child["TimeoutInMinutes"] == 10);
  CHECK(child["StackStatus"] == "CREATE_COMPLETE");
  // list-stacks: a nested stack's summary names its parent and root as
  // DescribeStacks does (StackSummary's ParentId, RootId); the root's none.
  const json listed = cli.Json("list-stacks");
  REQUIRE(listed["StackSummaries"].size() == 2);
  for (const auto& summary : listed["StackSummaries"]) {
    if (summary["StackId"] == child_id) {
      CHECK(summary.value("ParentId", "") == parent_id);
      CHECK(summary.value("RootId", "") == parent_id);
    } else {
      CHECK_FALSE(summary.contains("ParentId"));
      CHECK_FALSE(summary.contains("RootId"));
    }
  }
  CHECK(cli.Json("describe-stack-resource --stack-name app --logical-resource-id Child")
            ["StackResourceDetail"]["PhysicalResourceId"] == child_id);
  CHECK(EventsOf(cli, child_id) == std::vector<std::string>{
                                       child_name + " CREATE_IN_PROGRESS User Initiated",
                                       "Q CREATE_IN_PROGRESS ",
                                       "Q CREATE_IN_PROGRESS Resource creation Initiated",
                                       "Q CREATE_COMPLETE ",
                                       child_name + " CREATE_COMPLETE ",
                                   });
  CHECK(EventsOf(cli, "app") == std::vector<std::string>{
                                    "app CREATE_IN_PROGRESS User Initiated",
                                    "Child CREATE_IN_PROGRESS ",
                                    "Child CREATE_IN_PROGRESS Resource creation Initiated",
                                    "Child CREATE_COMPLETE ",
                                    "After CREATE_IN_PROGRESS ",
                                    "After CREATE_IN_PROGRESS Resource creation Initiated",
                                    "After CREATE_COMPLETE ",
                                    "app CREATE_COMPLETE ",
                                });

  // A parameter the child uses changes: the child is updated, its output read again.
  const size_t parent_before = EventsOf(cli, "app").size(), child_before = EventsOf(cli, child_id).size();
  cli.Json("update-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Env,ParameterValue=prod");
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(Output(cli.Json("describe-stacks --stack-name app")["Stacks"][0], "Queue") == "prod-q");
  CHECK(cli.Status(child_id) == "UPDATE_COMPLETE");
  auto child_events = cli.Events(child_id, child_before);
  REQUIRE_FALSE(child_events.empty());
  CHECK(child_events.front() == child_name + " UPDATE_IN_PROGRESS User Initiated");
  CHECK(child_events.back() == child_name + " UPDATE_COMPLETE ");
  auto parent_events = cli.Events("app", parent_before);
  CHECK(parent_events[1] == "Child UPDATE_IN_PROGRESS ");
  CHECK(parent_events[2] == "Child UPDATE_COMPLETE ");

  // delete-stack: the child goes with its parent, after the resource that uses it.
  const size_t deleted_from = EventsOf(cli, "app").size(), child_deleted_from = EventsOf(cli, child_id).size();
  cli("delete-stack --stack-name app");
  CHECK(cli.Status(parent_id) == "DELETE_COMPLETE");
  CHECK(cli.Status(child_id) == "DELETE_COMPLETE");
  CHECK(cli.Events(parent_id, deleted_from) == std::vector<std::string>{
                                                   "app DELETE_IN_PROGRESS User Initiated",
                                                   "After DELETE_IN_PROGRESS ",
                                                   "After DELETE_COMPLETE ",
                                                   "Child DELETE_IN_PROGRESS ",
                                                   "Child DELETE_COMPLETE ",
                                                   "app DELETE_COMPLETE ",
                                               });
  CHECK(cli.Events(child_id, child_deleted_from) == std::vector<std::string>{
                                                        child_name + " DELETE_IN_PROGRESS User Initiated",
                                                        "Q DELETE_IN_PROGRESS ",
                                                        "Q DELETE_COMPLETE ",
                                                        child_name + " DELETE_COMPLETE ",
                                                    });
  CHECK(cli.Json("world list --kind sqs.queue")["Records"].empty());
}

TEST_CASE("nested stacks cli: a child's failure fails the parent's resource, whose rollback deletes it",
          "[cli][nested]") {
  ms::test::CliFixture cli("nested_cli", "failure");
  PutChild(cli, kBadChild);
  const std::string t = cli.Write("parent.json", kParent);
  cli("create-stack --stack-name app --template-body file://" + t);
  REQUIRE(cli.Status("app") == "ROLLBACK_COMPLETE");
  auto parent_events = EventsOf(cli, "app");
  REQUIRE(parent_events.size() == 8);
  CHECK(parent_events[0] == "app CREATE_IN_PROGRESS User Initiated");
  CHECK(parent_events[1] == "Child CREATE_IN_PROGRESS ");
  CHECK(parent_events[2] == "Child CREATE_IN_PROGRESS Resource creation Initiated");
  // The child's queue has a property its type does not take: the child
  // fails pre-deployment validation, its CREATE_FAILED reason the parent's.
  const std::regex failed(
      "Child CREATE_FAILED Embedded stack (arn:aws:cloudformation:us-east-1:123456789012:stack/app-Child-[A-Z0-9]{13}/"
      "[0-9a-f-]{36}) was not successfully created: Validation failed with 1 error\\(s\\)\\. Call DescribeEvents "
      "to retrieve the full list of issues with resource and property details, resolve each error, then retry the "
      "operation\\.");
  std::smatch m;
  REQUIRE(std::regex_match(parent_events[3], m, failed));
  const std::string arn = m[1];
  CHECK(parent_events[4] == "app ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Child]. ");
  CHECK(parent_events[5] == "Child DELETE_IN_PROGRESS ");
  CHECK(parent_events[6] == "Child DELETE_COMPLETE ");
  CHECK(parent_events[7] == "app ROLLBACK_COMPLETE ");

  const std::string name = arn.substr(arn.find("stack/") + 6, arn.rfind('/') - arn.find("stack/") - 6);
  // The child rolled itself back (Bad was never begun), then the parent's rollback deleted it.
  CHECK(EventsOf(cli, arn) ==
        std::vector<std::string>{
            name + " CREATE_IN_PROGRESS User Initiated",
            name + " CREATE_FAILED Validation failed with 1 error(s). Call DescribeEvents to retrieve the full list "
                   "of issues with resource and property details, resolve each error, then retry the operation.",
            name + " ROLLBACK_IN_PROGRESS Validation failure detected. See the operation's FAILED event for details.",
            name + " ROLLBACK_COMPLETE ",
            name + " DELETE_IN_PROGRESS User Initiated",
            name + " DELETE_COMPLETE ",
        });
  CHECK(cli.Status(arn) == "DELETE_COMPLETE");
}

// Crash recovery: the create and then the delete killed after every other
// checkpoint in turn (MOONSTACK_CRASH_AFTER_COMMITS; the odd ones, which
// fall on the parent's and the child's commits alike, keeping the test to a
// few seconds); `recover` resumes the parent, whose resumed resource step
// resumes the child: one child stack, complete, one queue; then both
// deleted and nothing left.
TEST_CASE("nested stacks cli: a create or delete killed after any checkpoint recovers parent and child",
          "[cli][nested][crash]") {
  const char* parent = R"({"Resources": {"Child": {"Type": "AWS::CloudFormation::Stack",
    "Properties": {"TemplateURL": "https://tmpl.s3.amazonaws.com/child.json", "Parameters": {"Prefix": "p"}}}},
    "Outputs": {"Queue": {"Value": {"Fn::GetAtt": ["Child", "Outputs.QueueName"]}}}})";
  for (const std::string op : {"create", "delete"}) {
    // The state every kill point starts from, copied: the child's template in S3 (and for delete, the stacks).
    ms::test::CliFixture base("nested_cli", "crash_" + op);
    PutChild(base, kChild);
    const std::string t = base.Write("parent.json", parent);
    const std::string create = "create-stack --stack-name app --template-body file://" + t;
    if (op == "delete") base.Json(create);
    int completed_without_crash = 0, crashed = 0;
    for (int point = 1; point <= 40 && completed_without_crash == 0; point += 2) {
      ms::test::CliFixture cli("nested_cli", "crash_" + op + std::to_string(point));
      std::filesystem::copy_file(base.dir + "/state.db", cli.dir + "/state.db");
      const std::string crash = "MOONSTACK_CRASH_AFTER_COMMITS=" + std::to_string(point) + " ";
      ms::test::CommandResult r = ms::test::RunCommand(
          "cd " + cli.dir + " && MOONSTACK_STATE=" + cli.dir + "/state.db " + crash + MOONSTACK_BINARY + " " +
          (op == "create" ? create : std::string("delete-stack --stack-name app")) + " 2>&1");
      INFO(op << " killed at point " << point << "\n" << r.out);
      if (r.exit_code == 0) {
        ++completed_without_crash;
        continue;
      }
      CHECK(r.exit_code == 137);
      ++crashed;
      cli.Json("recover");
      // Both stacks' statuses (and, for create, the parent's output) in one call.
      auto stacks = cli.Json(op == "create" ? "describe-stacks" : "list-stacks")[op == "create" ? "Stacks" : "StackSummaries"];
      std::vector<std::string> statuses;
      for (const auto& s : stacks) statuses.push_back(s["StackStatus"]);
      std::sort(statuses.begin(), statuses.end());
      if (op == "create") {
        CHECK(statuses == std::vector<std::string>{"CREATE_COMPLETE", "CREATE_COMPLETE"});
        for (const auto& s : stacks) {
          if (s["StackName"] == "app") CHECK(Output(s, "Queue") == "p-q");
        }
        CHECK(cli.Json("world list --kind sqs.queue")["Records"].size() == 1);
      } else {
        CHECK(statuses == std::vector<std::string>{"DELETE_COMPLETE", "DELETE_COMPLETE"});
        CHECK(cli.Json("world list --kind sqs.queue")["Records"].empty());
      }
    }
    CHECK(completed_without_crash == 1);
    CHECK(crashed >= 3);
  }
}
