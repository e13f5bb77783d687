// The stack commands as a user runs them: create-stack, describe-*, wait,
// get-template, exports, deploy, delete-stack — the aws CLI's shapes and
// messages, against the built-in providers in virtual time.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("stack_cli", name) {}
};

const char* kTemplate = R"({
  "Description": "two groups and a parameter",
  "Parameters": {"Env": {"Type": "String", "Default": "dev"}, "Secret": {"Type": "String", "NoEcho": true, "Default": "x"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}},
    "Group": {"Type": "AWS::EC2::SecurityGroup",
              "Properties": {"GroupDescription": {"Fn::Sub": "${Env} web"}, "VpcId": {"Ref": "Vpc"}}}
  },
  "Outputs": {
    "VpcId": {"Value": {"Ref": "Vpc"}, "Description": "the VPC", "Export": {"Name": {"Fn::Sub": "${Env}-vpc"}}}
  }
})";

}  // namespace

TEST_CASE("create-stack, describe-stacks, wait, get-template, exports, delete-stack", "[cli][stacks]") {
  Cli cli("lifecycle");
  std::string t = cli.Write("t.json", kTemplate);
  auto created = cli.Json("create-stack --stack-name app --template-body file://" + t +
                          " --parameters ParameterKey=Env,ParameterValue=prod --tags Key=team,Value=web");
  const std::string id = created["StackId"];
  CHECK(id.rfind("arn:aws:cloudformation:us-east-1:123456789012:stack/app/", 0) == 0);
  CHECK(cli("wait stack-create-complete --stack-name app").exit_code == 0);

  auto stack = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  CHECK(stack["StackStatus"] == "CREATE_COMPLETE");
  CHECK(stack["Description"] == "two groups and a parameter");
  CHECK(stack["Parameters"] == nlohmann::json::parse(R"([{"ParameterKey":"Env","ParameterValue":"prod"},
                                                        {"ParameterKey":"Secret","ParameterValue":"****"}])"));
  CHECK(stack["Tags"] == nlohmann::json::parse(R"([{"Key":"team","Value":"web"}])"));
  CHECK(stack["Outputs"][0]["OutputKey"] == "VpcId");
  CHECK(stack["Outputs"][0]["ExportName"] == "prod-vpc");
  const std::string vpc = stack["Outputs"][0]["OutputValue"];
  CHECK(vpc.rfind("vpc-", 0) == 0);

  auto exports = cli.Json("list-exports")["Exports"];
  REQUIRE(exports.size() == 1);
  CHECK(exports[0] == nlohmann::json{{"ExportingStackId", id}, {"Name", "prod-vpc"}, {"Value", vpc}});
  Run imports = cli("list-imports --export-name prod-vpc");
  CHECK(imports.exit_code == 255);
  CHECK(imports.out == "\nAn error occurred (ValidationError) when calling the ListImports operation: "
                       "Export 'prod-vpc' is not imported by any stack.\n");

  CHECK(cli.Json("get-template --stack-name app")["TemplateBody"]["Description"] == "two groups and a parameter");
  auto resources = cli.Json("describe-stack-resources --stack-name app")["StackResources"];
  REQUIRE(resources.size() == 2);
  CHECK(resources[1]["LogicalResourceId"] == "Group");
  CHECK(resources[1]["ResourceStatus"] == "CREATE_COMPLETE");
  auto detail = cli.Json("describe-stack-resource --stack-name app --logical-resource-id Vpc");
  CHECK(detail["StackResourceDetail"]["PhysicalResourceId"] == vpc);
  Run missing = cli("describe-stack-resource --stack-name app --logical-resource-id Nope");
  CHECK(missing.out == "\nAn error occurred (ValidationError) when calling the DescribeStackResource operation: "
                       "Resource Nope does not exist for stack app\n");

  Run again = cli("create-stack --stack-name app --template-body file://" + t);
  CHECK(again.exit_code == 255);
  CHECK(again.out == "\nAn error occurred (AlreadyExistsException) when calling the CreateStack operation: "
                     "Stack [app] already exists\n");

  CHECK(cli("delete-stack --stack-name app").exit_code == 0);
  CHECK(cli("wait stack-delete-complete --stack-name app").exit_code == 0);
  Run gone = cli("describe-stacks --stack-name app");
  CHECK(gone.out == "\nAn error occurred (ValidationError) when calling the DescribeStacks operation: "
                    "Stack with id app does not exist\n");
  // A deleted stack is found by its ID.
  CHECK(cli.Json("describe-stacks --stack-name " + id)["Stacks"][0]["StackStatus"] == "DELETE_COMPLETE");
  auto filtered = cli.Json("list-stacks --stack-status-filter DELETE_COMPLETE")["StackSummaries"];
  REQUIRE(filtered.size() == 1);
  CHECK(filtered[0]["StackId"] == id);
  CHECK(cli.Json("list-stacks --stack-status-filter CREATE_COMPLETE")["StackSummaries"].empty());
  CHECK(cli("delete-stack --stack-name app").exit_code == 0);  // deleting what is gone is fine, as on AWS
}

TEST_CASE("a failed create: events, waiter failure, the world cleaned up", "[cli][stacks]") {
  Cli cli("failed");
  std::string t = cli.Write("t.json", R"({"Resources": {
    "Group": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "g"}},
    "Server": {"Type": "AWS::EC2::Instance", "Properties": {"ImageId": "i-d8d4a266"}}}})");
  cli.Json("create-stack --stack-name bad --template-body file://" + t);
  Run wait = cli("wait stack-create-complete --stack-name bad");
  CHECK(wait.exit_code == 255);
  CHECK(wait.out == "\nWaiter StackCreateComplete failed: Waiter encountered a terminal failure state: For "
                    "expression \"Stacks[].StackStatus\" we matched expected path: \"ROLLBACK_COMPLETE\" at least once\n");
  auto events = cli.Json("describe-stack-events --stack-name bad")["StackEvents"];
  std::vector<std::string> seq;
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    seq.push_back((*it)["LogicalResourceId"].get<std::string>() + " " + (*it)["ResourceStatus"].get<std::string>() +
                  " " + it->value("ResourceStatusReason", ""));
  }
  CHECK(seq == std::vector<std::string>{
                   "bad CREATE_IN_PROGRESS User Initiated",
                   "Group CREATE_IN_PROGRESS ",
                   "Server CREATE_IN_PROGRESS ",
                   "Group CREATE_IN_PROGRESS Resource creation Initiated",
                   "Group CREATE_COMPLETE ",
                   "Server CREATE_FAILED Invalid id: \"i-d8d4a266\" (expecting \"ami-...\")",
                   "bad ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Server]. ",
                   "Server DELETE_COMPLETE ",
                   "Group DELETE_IN_PROGRESS ",
                   "Group DELETE_COMPLETE ",
                   "bad ROLLBACK_COMPLETE ",
               });
  CHECK(cli.Json("world list --kind ec2.security_group")["Records"].size() <= 1);  // at most the default VPC's group
}

TEST_CASE("deploy: live progress, summary, exit status, nothing to deploy", "[cli][stacks]") {
  Cli cli("deploy");
  std::string t = cli.Write("t.json", kTemplate);
  Run r = cli("deploy --template-file " + t + " --stack-name web --parameter-overrides Env=qa");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("[2/2]  web") != std::string::npos);
  CHECK(r.out.find("Successfully created/updated stack - web (2 resources)") != std::string::npos);
  Run same = cli("deploy --template-file " + t + " --stack-name web --no-fail-on-empty-changeset");
  CHECK(same.exit_code == 0);
  // As aws cloudformation deploy prints it: the change set wait, then the empty change set.
  CHECK(same.out == "\nWaiting for changeset to be created..\n\nNo changes to deploy. Stack web is up to date\n");
  std::string bad = cli.Write("bad.json", R"({"Resources": {"S": {"Type": "AWS::EC2::Instance",
    "Properties": {"ImageId": "bogus"}}}})");
  Run failed = cli("deploy --template-file " + bad + " --stack-name broken");
  CHECK(failed.exit_code == 255);
  CHECK(failed.out.find("Failed to create/update the stack (ROLLBACK_COMPLETE: The following resource(s) failed "
                        "to create: [S]. )") != std::string::npos);
}

TEST_CASE("create-stack --timeout-in-minutes: shown by describe-stacks, at least 1", "[cli]") {
  Cli cli("timeout_in_minutes");
  const char* body = R"('{"Resources":{"P":{"Type":"AWS::SSM::Parameter","Properties":{"Type":"String","Value":"v"}}}}')";
  auto zero = cli(std::string("create-stack --stack-name t0 --timeout-in-minutes 0 --template-body ") + body);
  CHECK(zero.exit_code == 255);
  CHECK(zero.out.find("1 validation error detected: Value '0' at 'timeoutInMinutes' failed to satisfy constraint: "
                      "Member must have value greater than or equal to 1") != std::string::npos);
  cli.Json(std::string("create-stack --stack-name t5 --timeout-in-minutes 5 --template-body ") + body);
  auto stack = cli.Json("describe-stacks --stack-name t5")["Stacks"][0];
  CHECK(stack["StackStatus"] == "CREATE_COMPLETE");
  CHECK(stack["TimeoutInMinutes"] == 5);
}
