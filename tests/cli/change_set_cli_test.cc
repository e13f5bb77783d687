// The change set commands, `deploy` through a change set, and `moonstack
// plan`, as a user runs them against the built-in providers in virtual time:
// the aws CLI's shapes and messages, and plan's text exactly.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;
using nlohmann::json;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("change_set_cli", name) {}
};

const char* kNet = R"({
  "Parameters": {"Cidr": {"Type": "String"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "Cidr"}}},
    "Group": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "g", "VpcId": {"Ref": "Vpc"}}}
  }
})";

// kNet plus a second group.
const char* kNetMore = R"({
  "Parameters": {"Cidr": {"Type": "String"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "Cidr"}}},
    "Group": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "g", "VpcId": {"Ref": "Vpc"}}},
    "Group2": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "db", "VpcId": {"Ref": "Vpc"}}}
  }
})";

// kNet with the VPC tagged and the group gone.
const char* kNetLess = R"({
  "Parameters": {"Cidr": {"Type": "String"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "Cidr"}, "Tags": [{"Key": "a", "Value": "b"}]}}
  }
})";

}  // namespace

TEST_CASE("create-change-set CREATE: REVIEW_IN_PROGRESS, describe, execute, list", "[cli][changeset]") {
  Cli cli("create");
  const std::string t = cli.Write("t.json", kNet);
  json created = cli.Json("create-change-set --stack-name app --change-set-name first --change-set-type CREATE "
                          "--template-body file://" + t + " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16 "
                          "--description 'the first'");
  const std::string cs_id = created["Id"], stack_id = created["StackId"];
  CHECK(cs_id.rfind("arn:aws:cloudformation:us-east-1:123456789012:changeSet/first/", 0) == 0);
  CHECK(stack_id.rfind("arn:aws:cloudformation:us-east-1:123456789012:stack/app/", 0) == 0);
  json stack = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  CHECK(stack["StackStatus"] == "REVIEW_IN_PROGRESS");
  CHECK(stack["StackStatusReason"] == "User Initiated");
  CHECK(cli.Json("list-stack-resources --stack-name app")["StackResourceSummaries"] == json::array());

  json described = cli.Json("describe-change-set --stack-name app --change-set-name first");
  const std::string created_at = described["CreationTime"];
  CHECK(described == json::parse(R"({
    "ChangeSetName": "first", "ChangeSetId": ")" + cs_id + R"(", "StackId": ")" + stack_id + R"(",
    "StackName": "app", "Description": "the first",
    "Parameters": [{"ParameterKey": "Cidr", "ParameterValue": "10.0.0.0/16"}],
    "CreationTime": ")" + created_at + R"(", "ExecutionStatus": "AVAILABLE", "Status": "CREATE_COMPLETE",
    "NotificationARNs": [], "RollbackConfiguration": {}, "Capabilities": [],
    "Changes": [
      {"Type": "Resource", "ResourceChange": {"Action": "Add", "LogicalResourceId": "Vpc",
        "ResourceType": "AWS::EC2::VPC", "Scope": [], "Details": []}},
      {"Type": "Resource", "ResourceChange": {"Action": "Add", "LogicalResourceId": "Group",
        "ResourceType": "AWS::EC2::SecurityGroup", "Scope": [], "Details": []}}
    ],
    "IncludeNestedStacks": false})"));
  // The member order is the service model's, as the aws CLI prints it.
  Run raw = cli("describe-change-set --change-set-name " + cs_id, false);
  CHECK(raw.out.find("\"ChangeSetName\": \"first\",\n    \"ChangeSetId\"") != std::string::npos);

  Run executed = cli("execute-change-set --stack-name app --change-set-name first");
  CHECK(executed.exit_code == 0);
  CHECK(executed.out.empty());  // ExecuteChangeSet's output is empty: the aws CLI prints nothing
  CHECK(cli.Status("app") == "CREATE_COMPLETE");
  json summaries = cli.Json("list-change-sets --stack-name app")["Summaries"];
  REQUIRE(summaries.size() == 1);
  CHECK(summaries[0] == json::parse(R"({"StackId": ")" + stack_id + R"(", "StackName": "app", "ChangeSetId": ")" +
                                    cs_id + R"(", "ChangeSetName": "first", "ExecutionStatus": "EXECUTE_COMPLETE",
                                    "Status": "CREATE_COMPLETE", "CreationTime": ")" + created_at +
                                    R"(", "Description": "the first", "IncludeNestedStacks": false})"));
  Run text = cli("list-change-sets --stack-name app --output text");
  CHECK(text.out == "SUMMARIES\t" + cs_id + "\tfirst\t" + created_at + "\tthe first\tEXECUTE_COMPLETE\tFalse\t" +
                        stack_id + "\tapp\tCREATE_COMPLETE\n");
}

TEST_CASE("create-change-set UPDATE: the cascade, then executed, errors as the aws CLI prints them",
          "[cli][changeset]") {
  Cli cli("update");
  const std::string t = cli.Write("t.json", kNet), more = cli.Write("more.json", kNetMore);
  cli.Json("create-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16");
  const std::string vpc =
      cli.Json("describe-stack-resource --stack-name app --logical-resource-id Vpc")["StackResourceDetail"]
              ["PhysicalResourceId"];
  const std::string group =
      cli.Json("describe-stack-resource --stack-name app --logical-resource-id Group")["StackResourceDetail"]
              ["PhysicalResourceId"];
  cli.Json("create-change-set --stack-name app --change-set-name wider --template-body file://" + more +
           " --parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16");
  json described = cli.Json("describe-change-set --stack-name app --change-set-name wider");
  CHECK(described["Status"] == "CREATE_COMPLETE");
  CHECK(described["Changes"] == json::parse(R"([
    {"Type": "Resource", "ResourceChange": {"Action": "Modify", "LogicalResourceId": "Vpc",
      "PhysicalResourceId": ")" + vpc + R"(", "ResourceType": "AWS::EC2::VPC", "Replacement": "True",
      "Scope": ["Properties"], "Details": [
        {"Target": {"Attribute": "Properties", "Name": "CidrBlock", "RequiresRecreation": "Always"},
         "Evaluation": "Static", "ChangeSource": "ParameterReference", "CausingEntity": "Cidr"}]}},
    {"Type": "Resource", "ResourceChange": {"Action": "Modify", "LogicalResourceId": "Group",
      "PhysicalResourceId": ")" + group + R"(", "ResourceType": "AWS::EC2::SecurityGroup", "Replacement": "Conditional",
      "Scope": ["Properties"], "Details": [
        {"Target": {"Attribute": "Properties", "Name": "VpcId", "RequiresRecreation": "Always"},
         "Evaluation": "Dynamic", "ChangeSource": "ResourceReference", "CausingEntity": "Vpc"}]}},
    {"Type": "Resource", "ResourceChange": {"Action": "Add", "LogicalResourceId": "Group2",
      "ResourceType": "AWS::EC2::SecurityGroup", "Scope": [], "Details": []}}
  ])"));

  // Nothing to change: created, FAILED, and deploy-style tools read the reason.
  cli.Json("create-change-set --stack-name app --change-set-name same --use-previous-template "
           "--parameters ParameterKey=Cidr,UsePreviousValue=true");
  json same = cli.Json("describe-change-set --stack-name app --change-set-name same");
  CHECK(same["Status"] == "FAILED");
  CHECK(same["ExecutionStatus"] == "UNAVAILABLE");
  CHECK(same["StatusReason"] ==
        "The submitted information didn't contain changes. Submit different information to create a change set.");
  Run not_executable = cli("execute-change-set --stack-name app --change-set-name same");
  CHECK(not_executable.exit_code == 255);
  CHECK(not_executable.out == "\nAn error occurred (InvalidChangeSetStatus) when calling the ExecuteChangeSet "
                              "operation: ChangeSet [" + same["ChangeSetId"].get<std::string>() +
                              "] cannot be executed in its current status of [FAILED]\n");

  Run missing = cli("describe-change-set --stack-name app --change-set-name nope");
  CHECK(missing.exit_code == 255);
  CHECK(missing.out == "\nAn error occurred (ChangeSetNotFound) when calling the DescribeChangeSet operation: "
                       "ChangeSet [nope] does not exist\n");
  Run dup = cli("create-change-set --stack-name app --change-set-name wider --use-previous-template "
                "--parameters ParameterKey=Cidr,UsePreviousValue=true");
  CHECK(dup.out == "\nAn error occurred (AlreadyExistsException) when calling the CreateChangeSet operation: "
                   "ChangeSet wider cannot be created due to a mismatch with existing attribute ClientToken\n");
  Run exists = cli("create-change-set --stack-name app --change-set-name again --change-set-type CREATE "
                   "--template-body file://" + t);
  CHECK(exists.out == "\nAn error occurred (ValidationError) when calling the CreateChangeSet operation: "
                      "Stack [app] already exists and cannot be created again with the changeSet [again].\n");
  Run no_stack = cli("create-change-set --stack-name other --change-set-name x --template-body file://" + t);
  CHECK(no_stack.out == "\nAn error occurred (ValidationError) when calling the CreateChangeSet operation: "
                        "Stack [other] does not exist\n");

  REQUIRE(cli("execute-change-set --stack-name app --change-set-name wider").exit_code == 0);
  CHECK(cli.Status("app") == "UPDATE_COMPLETE");
  json after = cli.Json("list-stack-resources --stack-name app")["StackResourceSummaries"];
  REQUIRE(after.size() == 3);
  CHECK(after[0]["PhysicalResourceId"] != vpc);    // replaced, as listed
  CHECK(after[1]["PhysicalResourceId"] != group);  // the cascade
  json summaries = cli.Json("list-change-sets --stack-name app")["Summaries"];
  REQUIRE(summaries.size() == 2);
  CHECK(summaries[0]["ExecutionStatus"] == "EXECUTE_COMPLETE");
  CHECK(summaries[1]["ExecutionStatus"] == "OBSOLETE");

  REQUIRE(cli("delete-change-set --stack-name app --change-set-name same").exit_code == 0);
  CHECK(cli.Json("list-change-sets --stack-name app")["Summaries"].size() == 1);
}

TEST_CASE("deploy goes through a change set", "[cli][changeset]") {
  Cli cli("deploy");
  const std::string t = cli.Write("t.json", kNet), more = cli.Write("more.json", kNetMore);
  Run created = cli("deploy --template-file " + t + " --stack-name web --parameter-overrides Cidr=10.0.0.0/16");
  INFO(created.out);
  REQUIRE(created.exit_code == 0);
  // The stack was made in review by a CREATE change set, then created.
  CHECK(created.out.find("web                          REVIEW_IN_PROGRESS") != std::string::npos);
  CHECK(created.out.find("\nWaiting for changeset to be created..\n") != std::string::npos);
  CHECK(created.out.find("Waiting for stack create/update to complete\n") != std::string::npos);
  CHECK(created.out.find("Successfully created/updated stack - web (2 resources)\n") != std::string::npos);
  json summaries = cli.Json("list-change-sets --stack-name web")["Summaries"];
  REQUIRE(summaries.size() == 1);
  CHECK(summaries[0]["ChangeSetName"].get<std::string>().rfind("moonstack-deploy-", 0) == 0);
  CHECK(summaries[0]["ExecutionStatus"] == "EXECUTE_COMPLETE");
  CHECK(cli.Json("describe-change-set --change-set-name " + summaries[0]["ChangeSetId"].get<std::string>())
            ["Changes"].size() == 2);

  Run same = cli("deploy --template-file " + t + " --stack-name web");
  CHECK(same.exit_code == 255);
  CHECK(same.out == "\nWaiting for changeset to be created..\n\nNo changes to deploy. Stack web is up to date\n");

  Run review = cli("deploy --template-file " + more + " --stack-name web --no-execute-changeset");
  CHECK(review.exit_code == 0);
  const std::string prefix = "\nWaiting for changeset to be created..\nChangeset created successfully. Run the "
                             "following command to review changes:\naws cloudformation describe-change-set "
                             "--change-set-name arn:aws:cloudformation:us-east-1:123456789012:changeSet/moonstack-deploy-";
  CHECK(review.out.rfind(prefix, 0) == 0);
  CHECK(cli.Status("web") == "CREATE_COMPLETE");

  Run updated = cli("deploy --template-file " + more + " --stack-name web");
  INFO(updated.out);
  CHECK(updated.exit_code == 0);
  CHECK(cli.Status("web") == "UPDATE_COMPLETE");
  // The parameter not overridden kept its value (UsePreviousValue).
  CHECK(cli.Json("describe-stacks --stack-name web")["Stacks"][0]["Parameters"][0]["ParameterValue"] ==
        "10.0.0.0/16");
  summaries = cli.Json("list-change-sets --stack-name web")["Summaries"];
  REQUIRE(summaries.size() == 4);
  CHECK(summaries[1]["Status"] == "FAILED");
  CHECK(summaries[2]["ExecutionStatus"] == "OBSOLETE");  // the one not executed
  CHECK(summaries[3]["ExecutionStatus"] == "EXECUTE_COMPLETE");
}

TEST_CASE("plan: a new stack, the cascade, removals, no changes, json", "[cli][changeset][plan]") {
  Cli cli("plan");
  const std::string t = cli.Write("t.json", kNet), more = cli.Write("more.json", kNetMore),
                    less = cli.Write("less.json", kNetLess);
  Run fresh = cli("plan --stack-name app --template-body file://" + t +
                  " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16");
  CHECK(fresh.exit_code == 0);
  CHECK(fresh.out ==
        "+   Vpc (AWS::EC2::VPC) will be created\n"
        "+   Group (AWS::EC2::SecurityGroup) will be created\n"
        "\n"
        "Plan: 2 to add, 0 to change (0 replaced), 0 to remove.\n");
  CHECK(cli("describe-stacks --stack-name app").exit_code == 255);  // plan creates nothing

  cli.Json("create-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16");
  Run cascade = cli("plan --stack-name app --template-body file://" + more +
                    " --parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16");
  CHECK(cascade.out ==
        "-/+ Vpc (AWS::EC2::VPC) must be replaced: CidrBlock forces replacement\n"
        "      ~ CidrBlock  forces replacement  (parameter Cidr changed)\n"
        "-/+ Group (AWS::EC2::SecurityGroup) replaced because Vpc is replaced\n"
        "      ~ VpcId  forces replacement  (Vpc is replaced)\n"
        "+   Group2 (AWS::EC2::SecurityGroup) will be created\n"
        "\n"
        "Plan: 1 to add, 2 to change (2 replaced), 0 to remove.\n");

  Run removal = cli("plan --stack-name app --template-body file://" + less +
                    " --parameters ParameterKey=Cidr,UsePreviousValue=true");
  CHECK(removal.out ==
        "~   Vpc (AWS::EC2::VPC) will be updated in place\n"
        "      ~ Tags\n"
        "-   Group (AWS::EC2::SecurityGroup) will be deleted\n"
        "\n"
        "Plan: 0 to add, 1 to change (0 replaced), 1 to remove.\n");

  Run none = cli("plan --stack-name app --template-body file://" + t +
                 " --parameters ParameterKey=Cidr,UsePreviousValue=true");
  CHECK(none.out ==
        "No changes. Stack app is up to date.\n"
        "\n"
        "Plan: 0 to add, 0 to change (0 replaced), 0 to remove.\n");

  json j = cli.Json("plan --stack-name app --output json --template-body file://" + less +
                    " --parameters ParameterKey=Cidr,UsePreviousValue=true");
  CHECK(j["StackName"] == "app");
  CHECK(j["StackExists"] == true);
  CHECK(j["Add"] == 0);
  CHECK(j["Change"] == 1);
  CHECK(j["Replace"] == 0);
  CHECK(j["Remove"] == 1);
  REQUIRE(j["Changes"].size() == 2);
  CHECK(j["Changes"][0]["ResourceChange"]["Details"][0]["Target"]["Name"] == "Tags");
  CHECK(j["Changes"][1]["ResourceChange"]["Action"] == "Remove");
  // The plan is what the stack still has: nothing changed.
  CHECK(cli.Json("list-change-sets --stack-name app")["Summaries"] == json::array());

  Run bad = cli("plan --stack-name app --template-body file://" + t);
  CHECK(bad.exit_code == 255);
  CHECK(bad.out == "\nAn error occurred (ValidationError) when calling the Plan operation: "
                   "Parameters: [Cidr] must have values\n");
}
