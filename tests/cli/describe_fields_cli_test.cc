// Fields AWS's describe calls return that tools (the CDK CLI, rain, sam)
// read: DescribeStacks' ChangeSetId, LastUpdatedTime, TimeoutInMinutes,
// RoleARN and Capabilities across updates; DescribeStackResource's Metadata;
// DescribeChangeSet --include-property-values (BeforeContext/AfterContext);
// ResourceProperties on every resource event. Against the built-in providers
// in virtual time.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>

namespace {

using nlohmann::json;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("describe_fields_cli", name) {}
  json Stack(const std::string& name) const { return Json("describe-stacks --stack-name " + name)["Stacks"][0]; }
};

const char* kV1 = R"({
  "Parameters": {"Env": {"Type": "String", "Default": "dev"}},
  "Resources": {
    "P": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "one"},
          "Metadata": {"aws:cdk:path": "App/P/Resource", "env": {"Ref": "Env"}, "self": {"Fn::Sub": "${Env}-x"}}}
  }
})";

const char* kV2 = R"({
  "Parameters": {"Env": {"Type": "String", "Default": "dev"}},
  "Resources": {
    "P": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "two"},
          "Metadata": {"aws:cdk:path": "App/P/Resource", "env": {"Ref": "Env"}, "self": {"Fn::Sub": "${Env}-x"}}},
    "Role": {"Type": "AWS::IAM::Role", "Properties": {"AssumeRolePolicyDocument": {"Version": "2012-10-17",
      "Statement": [{"Effect": "Allow", "Principal": {"Service": "ec2.amazonaws.com"}, "Action": "sts:AssumeRole"}]}}}
  }
})";

}  // namespace

TEST_CASE("describe-stacks: RoleARN, TimeoutInMinutes, Capabilities and LastUpdatedTime across an update",
          "[cli][describe]") {
  Cli cli("stack_fields");
  const std::string v1 = cli.Write("v1.json", kV1), v2 = cli.Write("v2.json", kV2);
  const std::string role = "arn:aws:iam::123456789012:role/cfn-exec";
  cli.Json("create-stack --stack-name app --template-body file://" + v1 + " --role-arn " + role +
           " --timeout-in-minutes 30");
  json created = cli.Stack("app");
  CHECK(created["RoleARN"] == role);
  CHECK(created["TimeoutInMinutes"] == 30);
  CHECK_FALSE(created.contains("LastUpdatedTime"));
  CHECK_FALSE(created.contains("ChangeSetId"));
  CHECK_FALSE(created.contains("Capabilities"));

  cli.Json("update-stack --stack-name app --template-body file://" + v2 + " --capabilities CAPABILITY_IAM");
  json updated = cli.Stack("app");
  CHECK(updated["StackStatus"] == "UPDATE_COMPLETE");
  CHECK(updated["RoleARN"] == role);  // an update without --role-arn keeps the stack's
  CHECK(updated["TimeoutInMinutes"] == 30);
  CHECK(updated["Capabilities"] == json::array({"CAPABILITY_IAM"}));
  CHECK(updated.contains("LastUpdatedTime"));

  const std::string other = "arn:aws:iam::123456789012:role/other";
  cli.Json("update-stack --stack-name app --template-body file://" + v1 + " --role-arn " + other);
  CHECK(cli.Stack("app")["RoleARN"] == other);
}

TEST_CASE("describe-stacks: ChangeSetId and LastUpdatedTime of a stack made and updated by change sets",
          "[cli][describe][changeset]") {
  Cli cli("change_set_id");
  const std::string v1 = cli.Write("v1.json", kV1), v2 = cli.Write("v2.json", kV2);
  const std::string first = cli.Json("create-change-set --stack-name app --change-set-name first "
                                     "--change-set-type CREATE --template-body file://" + v1)["Id"];
  CHECK_FALSE(cli.Stack("app").contains("ChangeSetId"));  // in review: nothing executed yet
  cli("execute-change-set --change-set-name " + first);
  json created = cli.Stack("app");
  CHECK(created["StackStatus"] == "CREATE_COMPLETE");
  CHECK(created["ChangeSetId"] == first);
  CHECK(created.contains("LastUpdatedTime"));

  const std::string second = cli.Json("create-change-set --stack-name app --change-set-name second "
                                      "--template-body file://" + v2 + " --capabilities CAPABILITY_IAM")["Id"];
  // Without --include-property-values: no contexts.
  json plain = cli.Json("describe-change-set --change-set-name " + second)["Changes"];
  REQUIRE(plain.size() == 2);
  CHECK_FALSE(plain[0]["ResourceChange"].contains("BeforeContext"));
  json changes = cli.Json("describe-change-set --include-property-values --change-set-name " + second)["Changes"];
  REQUIRE(changes.size() == 2);
  json modify = changes[0]["ResourceChange"], add = changes[1]["ResourceChange"];
  CHECK(modify["LogicalResourceId"] == "P");
  CHECK(json::parse(modify["BeforeContext"].get<std::string>()) ==
        json::parse(R"({"Properties": {"Type": "String", "Value": "one"}})"));
  CHECK(json::parse(modify["AfterContext"].get<std::string>()) ==
        json::parse(R"({"Properties": {"Type": "String", "Value": "two"}})"));
  CHECK(add["LogicalResourceId"] == "Role");
  CHECK_FALSE(add.contains("BeforeContext"));
  CHECK(json::parse(add["AfterContext"].get<std::string>())["Properties"].contains("AssumeRolePolicyDocument"));

  cli("execute-change-set --change-set-name " + second);
  json updated = cli.Stack("app");
  CHECK(updated["StackStatus"] == "UPDATE_COMPLETE");
  CHECK(updated["ChangeSetId"] == second);
  CHECK(updated["Capabilities"] == json::array({"CAPABILITY_IAM"}));

  // A direct update-stack is no change set's.
  cli.Json("update-stack --stack-name app --template-body file://" + v1 + " --capabilities CAPABILITY_IAM");
  CHECK_FALSE(cli.Stack("app").contains("ChangeSetId"));
}

TEST_CASE("describe-stack-resource: the resource's Metadata, evaluated", "[cli][describe]") {
  Cli cli("metadata");
  const std::string v1 = cli.Write("v1.json", kV1);
  cli.Json("create-stack --stack-name app --template-body file://" + v1 + " --parameters ParameterKey=Env,ParameterValue=prod");
  json detail = cli.Json("describe-stack-resource --stack-name app --logical-resource-id P")["StackResourceDetail"];
  REQUIRE(detail.contains("Metadata"));
  CHECK(json::parse(detail["Metadata"].get<std::string>()) ==
        json::parse(R"({"aws:cdk:path": "App/P/Resource", "env": "prod", "self": "prod-x"})"));
  // A resource without Metadata has none.
  cli.Json("update-stack --stack-name app --template-body file://" + cli.Write("v2.json", kV2) +
           " --capabilities CAPABILITY_IAM --parameters ParameterKey=Env,UsePreviousValue=true");
  CHECK_FALSE(cli.Json("describe-stack-resource --stack-name app --logical-resource-id Role")["StackResourceDetail"]
                  .contains("Metadata"));
}

TEST_CASE("describe-stack-events: ResourceProperties on every resource event", "[cli][describe]") {
  Cli cli("event_properties");
  const std::string v1 = cli.Write("v1.json", kV1), v2 = cli.Write("v2.json", kV2);
  cli.Json("create-stack --stack-name app --template-body file://" + v1);
  cli.Json("update-stack --stack-name app --template-body file://" + v2 + " --capabilities CAPABILITY_IAM");
  REQUIRE(cli("delete-stack --stack-name app").exit_code == 0);
  const std::string id = cli.Json("list-stacks")["StackSummaries"][0]["StackId"];
  json events = cli.Json("describe-stack-events --stack-name " + id)["StackEvents"];
  int resource_events = 0;
  for (const json& e : events) {
    if (e["ResourceType"] == "AWS::CloudFormation::Stack") {
      CHECK_FALSE(e.contains("ResourceProperties"));
      continue;
    }
    ++resource_events;
    INFO(e.dump());
    REQUIRE(e.contains("ResourceProperties"));
    json props = json::parse(e["ResourceProperties"].get<std::string>());
    if (e["LogicalResourceId"] == "P") CHECK(props["Type"] == "String");
    if (e["LogicalResourceId"] == "Role") CHECK(props.contains("AssumeRolePolicyDocument"));
  }
  // P: created (3), updated (2), deleted (2); Role: created (3), deleted (2).
  CHECK(resource_events == 12);
}
