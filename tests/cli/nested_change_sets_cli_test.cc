// create-change-set --include-nested-stacks in embedded mode, as the aws
// CLI's flag: a parent whose child comes from the simulated S3, a parameter
// passed down. The change set on the parent links a change set on the
// child (its ChangeSetId), which names its parent and root; executing the
// parent's executes the child's.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>

namespace {

const char* kChild = R"({"Parameters": {"N": {"Type": "String"}},
  "Resources": {"Q": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": {"Ref": "N"}}}}})";
const char* kParent = R"({"Parameters": {"P": {"Type": "String"}},
  "Resources": {"Child": {"Type": "AWS::CloudFormation::Stack",
                          "Properties": {"TemplateURL": "https://tmpl.s3.amazonaws.com/child.json",
                                         "Parameters": {"N": {"Ref": "P"}}}}}})";

}  // namespace

TEST_CASE("nested change sets cli: --include-nested-stacks plans and executes the child's change set",
          "[cli][nested]") {
  ms::test::CliFixture cli("nested_change_sets_cli", "include");
  cli("world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'");
  cli.Write("put.json", nlohmann::json{{"Bucket", "tmpl"}, {"Key", "child.json"}, {"Body", kChild}}.dump());
  cli.Json("world call s3 PutObject \"$(cat put.json)\"");
  cli.Write("parent.json", kParent);
  cli.Json("create-stack --stack-name p --template-body file://parent.json "
           "--parameters ParameterKey=P,ParameterValue=30");
  REQUIRE(cli.Status("p") == "CREATE_COMPLETE");
  const std::string child =
      cli.Json("describe-stack-resource --stack-name p --logical-resource-id Child")["StackResourceDetail"]
              ["PhysicalResourceId"];
  const std::string queue =
      cli.Json("describe-stack-resource --stack-name " + child + " --logical-resource-id Q")["StackResourceDetail"]
              ["PhysicalResourceId"];

  const std::string root_cs =
      cli.Json("create-change-set --stack-name p --change-set-name cs --use-previous-template "
               "--include-nested-stacks --parameters ParameterKey=P,ParameterValue=40")["Id"];
  auto root = cli.Json("describe-change-set --change-set-name " + root_cs);
  CHECK(root["IncludeNestedStacks"] == true);
  REQUIRE(root["Changes"].size() == 1);
  const auto& change = root["Changes"][0]["ResourceChange"];
  CHECK(change["LogicalResourceId"] == "Child");
  REQUIRE(change.contains("ChangeSetId"));
  auto nested = cli.Json("describe-change-set --change-set-name " + change["ChangeSetId"].get<std::string>());
  CHECK(nested["StackId"] == child);
  CHECK(nested["ParentChangeSetId"] == root_cs);
  CHECK(nested["RootChangeSetId"] == root_cs);
  REQUIRE(nested["Changes"].size() == 1);
  CHECK(nested["Changes"][0]["ResourceChange"]["LogicalResourceId"] == "Q");
  CHECK(nested["Changes"][0]["ResourceChange"]["Action"] == "Modify");

  auto summaries = cli.Json("list-change-sets --stack-name " + child)["Summaries"];
  REQUIRE(summaries.size() == 1);
  CHECK(summaries[0]["IncludeNestedStacks"] == true);
  CHECK(summaries[0]["ParentChangeSetId"] == root_cs);
  CHECK(summaries[0]["RootChangeSetId"] == root_cs);

  // Without the flag, no nested change set.
  auto plain = cli.Json("describe-change-set --change-set-name " +
                        cli.Json("create-change-set --stack-name p --change-set-name plain --use-previous-template "
                                 "--parameters ParameterKey=P,ParameterValue=50")["Id"].get<std::string>());
  CHECK(plain["IncludeNestedStacks"] == false);
  REQUIRE(plain["Changes"].size() == 1);
  CHECK_FALSE(plain["Changes"][0]["ResourceChange"].contains("ChangeSetId"));

  REQUIRE(cli("execute-change-set --change-set-name " + root_cs).exit_code == 0);
  CHECK(cli.Status("p") == "UPDATE_COMPLETE");
  CHECK(cli.Status(child) == "UPDATE_COMPLETE");
  CHECK(cli.Json("world call sqs GetQueueAttributes '{\"QueueUrl\":\"" + queue +
                 "\",\"AttributeNames\":[\"VisibilityTimeout\"]}'")["Attributes"]["VisibilityTimeout"] == "40");
}
