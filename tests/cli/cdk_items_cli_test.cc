// What every CDK app's template relies on, as a user deploying `cdk synth`'s
// output meets it (issue 16, "CDK and friends"): AWS::CDK::Metadata, the
// bootstrap version check (an SSM parameter type read synchronously, Rules
// seeing its value), Fn::GetStackOutput, and errors in AWS's phase (a missing
// mapping key refused up front, an Output's unknown attribute failing the
// deploy). Against the built-in providers in virtual time.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

using Run = ms::test::CommandResult;
using nlohmann::json;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("cdk_items_cli", name) {}

  void PutParameter(const std::string& name, const std::string& value) const {
    Json("world call ssm PutParameter '{\"Name\":\"" + name + "\",\"Value\":\"" + value +
         "\",\"Type\":\"String\",\"Overwrite\":true}'");
  }
  // The failing command's aws-CLI error line.
  static std::string Error(const std::string& operation, const std::string& message) {
    return "\nAn error occurred (ValidationError) when calling the " + operation + " operation: " + message + "\n";
  }
};

// What `cdk synth` puts in every stack (aws-cdk-lib 2.x, default synthesizer):
// the bootstrap version parameter and rule, and CDKMetadata.
const char* kCdkStack = R"({
  "Parameters": {
    "BootstrapVersion": {"Type": "AWS::SSM::Parameter::Value<String>", "Default": "/cdk-bootstrap/hnb659fds/version",
                         "Description": "Version of the CDK Bootstrap resources in this environment, automatically retrieved from SSM Parameter Store. [cdk:skip]"}
  },
  "Rules": {
    "CheckBootstrapVersion": {"Assertions": [{
      "Assert": {"Fn::Not": [{"Fn::Contains": [["1", "2", "3", "4", "5"], {"Ref": "BootstrapVersion"}]}]},
      "AssertDescription": "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI."
    }]}
  },
  "Resources": {
    "Topic": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "v"}},
    "CDKMetadata": {"Type": "AWS::CDK::Metadata",
                    "Properties": {"Analytics": "v2:deflate64:H4sIAAAAAAAA/zPSMzQ0MlAwUDA2MDA0NDE3NdA1MbGwsDQ0MDGyMDE0MDI2MzCxNDE3NdAzsjA3NTQ0MTA2MjQ0AQAAAP//"},
                    "Metadata": {"aws:cdk:path": "App/CDKMetadata/Default"}}
  },
  "Outputs": {"Name": {"Value": {"Ref": "Topic"}}}
})";

}  // namespace

TEST_CASE("cdk: a missing bootstrap parameter refuses create-stack synchronously, nothing created",
          "[cli][cdk]") {
  Cli cli("missing_ssm");
  const std::string t = cli.Write("t.json", kCdkStack);
  Run created = cli("create-stack --stack-name app --template-body file://" + t);
  CHECK(created.exit_code == 255);
  CHECK(created.out == Cli::Error("CreateStack", "Unable to fetch parameters [/cdk-bootstrap/hnb659fds/version] "
                                                 "from parameter store for this account."));
  Run described = cli("describe-stacks --stack-name app");
  CHECK(described.out == Cli::Error("DescribeStacks", "Stack with id app does not exist"));
  // Every missing name, together, in the parameters' order.
  const std::string two = cli.Write("two.json", R"({
    "Parameters": {"A": {"Type": "AWS::SSM::Parameter::Value<String>", "Default": "/a"},
                   "B": {"Type": "AWS::SSM::Parameter::Value<List<String>>", "Default": "/b"}},
    "Resources": {"P": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": {"Ref": "A"}}}}})");
  CHECK(cli("create-stack --stack-name two --template-body file://" + two).out ==
        Cli::Error("CreateStack", "Unable to fetch parameters [/a, /b] from parameter store for this account."));
  // A change set is refused the same way.
  CHECK(cli("create-change-set --stack-name app --change-set-name c --change-set-type CREATE --template-body file://" +
            t).out == Cli::Error("CreateChangeSet", "Unable to fetch parameters [/cdk-bootstrap/hnb659fds/version] "
                                                    "from parameter store for this account."));
}

TEST_CASE("cdk: Rules see the SSM parameter's value, CheckBootstrapVersion fires below version 6", "[cli][cdk]") {
  Cli cli("bootstrap_rule");
  const std::string t = cli.Write("t.json", kCdkStack);
  cli.PutParameter("/cdk-bootstrap/hnb659fds/version", "5");
  Run refused = cli("create-stack --stack-name app --template-body file://" + t);
  CHECK(refused.exit_code == 255);
  CHECK(refused.out == Cli::Error("CreateStack", "CDK bootstrap stack version 6 required. Please run 'cdk "
                                                 "bootstrap' with a recent version of the CDK CLI."));
  CHECK(cli("describe-stacks --stack-name app").exit_code == 255);

  // Bootstrapped at 30: the stack deploys, CDKMetadata included.
  cli.PutParameter("/cdk-bootstrap/hnb659fds/version", "30");
  cli.Json("create-stack --stack-name app --template-body file://" + t);
  CHECK(cli("wait stack-create-complete --stack-name app").exit_code == 0);
  json stack = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  CHECK(stack["StackStatus"] == "CREATE_COMPLETE");
  CHECK(stack["Parameters"] == json::parse(R"([{"ParameterKey": "BootstrapVersion",
      "ParameterValue": "/cdk-bootstrap/hnb659fds/version", "ResolvedValue": "30"}])"));
  json metadata = cli.Json("describe-stack-resource --stack-name app --logical-resource-id CDKMetadata");
  const std::string id = metadata["StackResourceDetail"]["PhysicalResourceId"];
  // A UUID, as AWS gives (aws/aws-cdk#16155: "74a61c80-0208-11ec-9abd-0a5c3cef1144").
  CHECK(id.size() == 36);
  CHECK(id.find_first_not_of("0123456789abcdef-") == std::string::npos);

  // An update is checked the same way.
  cli.PutParameter("/cdk-bootstrap/hnb659fds/version", "4");
  CHECK(cli("update-stack --stack-name app --template-body file://" + t).out ==
        Cli::Error("UpdateStack", "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent "
                                  "version of the CDK CLI."));
  CHECK(cli.Status("app") == "CREATE_COMPLETE");
}

TEST_CASE("cdk: a missing mapping key is a synchronous template error once the parameters are known",
          "[cli][cdk]") {
  Cli cli("mapping");
  const std::string t = cli.Write("t.json", R"({
    "Parameters": {"Env": {"Type": "String"}},
    "Mappings": {"TopicSuffixMap": {"A": {"Suffix": "a"}, "B": {"Suffix": "b"}}},
    "Resources": {"P": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
      "Value": {"Fn::FindInMap": ["TopicSuffixMap", {"Ref": "Env"}, "Suffix"]}}}}})");
  Run refused = cli("create-stack --stack-name app --template-body file://" + t +
                    " --parameters ParameterKey=Env,ParameterValue=C");
  CHECK(refused.exit_code == 255);
  CHECK(refused.out == Cli::Error("CreateStack", "Template error: Unable to get mapping for TopicSuffixMap::C::Suffix"));
  CHECK(cli("describe-stacks --stack-name app").exit_code == 255);

  cli.Json("create-stack --stack-name app --template-body file://" + t + " --parameters ParameterKey=Env,ParameterValue=A");
  CHECK(cli("wait stack-create-complete --stack-name app").exit_code == 0);
  CHECK(cli("update-stack --stack-name app --template-body file://" + t +
            " --parameters ParameterKey=Env,ParameterValue=D").out ==
        Cli::Error("UpdateStack", "Template error: Unable to get mapping for TopicSuffixMap::D::Suffix"));
}

TEST_CASE("cdk: an Output's Fn::GetAtt of an unknown attribute is accepted and fails the deploy", "[cli][cdk]") {
  Cli cli("output_getatt");
  const std::string t = cli.Write("t.json", R"({
    "Resources": {"Parameter": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "v"}}},
    "Outputs": {"InvalidOutput": {"Value": {"Fn::GetAtt": ["Parameter", "Invalid"]}}}})");
  CHECK(cli("validate-template --template-body file://" + t).exit_code == 0);
  cli.Json("create-stack --stack-name app --template-body file://" + t);
  CHECK(cli("wait stack-create-complete --stack-name app").exit_code == 255);
  const std::string reason = "[Error] /Outputs/InvalidOutput/Value/Fn::GetAtt: Resource type AWS::SSM::Parameter "
                             "does not support attribute {Invalid}. Rollback requested by user.";
  CHECK(cli.Events("app", 0) == std::vector<std::string>{
                                    "app CREATE_IN_PROGRESS User Initiated",
                                    "Parameter CREATE_IN_PROGRESS ",
                                    "Parameter CREATE_IN_PROGRESS Resource creation Initiated",
                                    "Parameter CREATE_COMPLETE ",
                                    "app ROLLBACK_IN_PROGRESS " + reason,
                                    "Parameter DELETE_IN_PROGRESS ",
                                    "Parameter DELETE_COMPLETE ",
                                    "app ROLLBACK_COMPLETE ",
                                });
  // In a resource's properties it is still refused up front.
  const std::string in_props = cli.Write("p.json", R"({
    "Resources": {"A": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "v"}},
                  "B": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
                        "Value": {"Fn::GetAtt": ["A", "Invalid"]}}}}})");
  CHECK(cli("create-stack --stack-name props --template-body file://" + in_props).out ==
        Cli::Error("CreateStack", "Template error: resource A does not support attribute type Invalid in Fn::GetAtt"));
}

TEST_CASE("cdk: Fn::GetStackOutput reads another stack's output, exported or not", "[cli][cdk]") {
  Cli cli("get_stack_output");
  const std::string producer = cli.Write("producer.json", R"({
    "Resources": {"P": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "shared"}}},
    "Outputs": {"ParamName": {"Value": {"Ref": "P"}}}})");
  // Same region (no Region), and another region's stack of the same name (stacks are per region).
  const std::string consumer = cli.Write("consumer.json", R"({
    "Parameters": {"Producer": {"Type": "String", "Default": "producer"}},
    "Resources": {
      "Same": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
        "Value": {"Fn::GetStackOutput": {"StackName": {"Ref": "Producer"}, "OutputName": "ParamName"}}}},
      "Other": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
        "Value": {"Fn::GetStackOutput": {"StackName": "producer", "OutputName": "ParamName", "Region": "eu-west-1",
                                          "RoleArn": "arn:aws:iam::123456789012:role/reader"}}}}},
    "Outputs": {"Seen": {"Value": {"Fn::GetStackOutput": {"StackName": "producer", "OutputName": "ParamName"}}}}})");

  // No such stack yet: the create fails when the value is read.
  cli.Json("create-stack --stack-name early --template-body file://" + consumer);
  CHECK(cli("wait stack-create-complete --stack-name early").exit_code == 255);
  json early = cli.Json("describe-stacks --stack-name early")["Stacks"][0];
  CHECK(early["StackStatus"] == "ROLLBACK_COMPLETE");
  auto events = cli.Events("early", 0);
  CHECK(std::find(events.begin(), events.end(),
                  "Same CREATE_FAILED Stack with id producer does not exist. Rollback requested by user.") !=
        events.end());

  cli.Json("create-stack --stack-name producer --template-body file://" + producer);
  CHECK(cli("wait stack-create-complete --stack-name producer").exit_code == 0);
  const std::string name = cli.Json("describe-stacks --stack-name producer")["Stacks"][0]["Outputs"][0]["OutputValue"];
  cli.Json("create-stack --region eu-west-1 --stack-name producer --template-body file://" + producer);
  CHECK(cli("wait stack-create-complete --region eu-west-1 --stack-name producer").exit_code == 0);
  const std::string other_name = cli.Json("describe-stacks --region eu-west-1 --stack-name producer")["Stacks"][0]
                                         ["Outputs"][0]["OutputValue"];
  CHECK(other_name != name);
  cli.Json("create-stack --stack-name consumer --template-body file://" + consumer);
  CHECK(cli("wait stack-create-complete --stack-name consumer").exit_code == 0);
  json stack = cli.Json("describe-stacks --stack-name consumer")["Stacks"][0];
  CHECK(stack["Outputs"][0]["OutputValue"] == name);
  for (const auto& [logical, expected] : {std::pair<const char*, std::string>{"Same", name}, {"Other", other_name}}) {
    const std::string id = cli.Json(std::string("describe-stack-resource --stack-name consumer --logical-resource-id ") +
                                    logical)["StackResourceDetail"]["PhysicalResourceId"];
    CHECK(cli.Json("world call ssm GetParameter '{\"Name\":\"" + id + "\"}'")["Parameter"]["Value"] == expected);
  }

  // An output the stack does not have.
  const std::string wrong = cli.Write("wrong.json", R"({
    "Resources": {"W": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
      "Value": {"Fn::GetStackOutput": {"StackName": "producer", "OutputName": "Nope"}}}}}})");
  cli.Json("create-stack --stack-name wrong --template-body file://" + wrong);
  CHECK(cli("wait stack-create-complete --stack-name wrong").exit_code == 255);
  events = cli.Events("wrong", 0);
  CHECK(std::find(events.begin(), events.end(),
                  "W CREATE_FAILED Output Nope does not exist in stack producer. Rollback requested by user.") !=
        events.end());

  // Malformed: refused up front.
  const std::string bad = cli.Write("bad.json", R"({
    "Resources": {"B": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String",
      "Value": {"Fn::GetStackOutput": {"StackName": "producer"}}}}}})");
  CHECK(cli("create-stack --stack-name bad --template-body file://" + bad).out ==
        Cli::Error("CreateStack", "Template error: every Fn::GetStackOutput object requires a StackName and an "
                                  "OutputName string, and optionally a Region and a RoleArn string"));
}
