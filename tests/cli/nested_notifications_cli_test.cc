// NotificationARNs: a stack keeps the SNS topics create-stack and
// update-stack name (shown by describe-stacks; moonstack sends nothing), at
// most 5 as AWS's front end checks; a nested stack reports where its parent
// does, unless its AWS::CloudFormation::Stack resource names topics of its
// own; an update of the parent hands its new topics down with the update.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

const char* kParent = R"({
  "Parameters": {"Env": {"Type": "String", "Default": "dev"}},
  "Resources": {
    "Inherits": {"Type": "AWS::CloudFormation::Stack", "Properties": {
      "TemplateURL": "https://tmpl.s3.amazonaws.com/child.json", "Parameters": {"Prefix": {"Ref": "Env"}}}},
    "Own": {"Type": "AWS::CloudFormation::Stack", "Properties": {
      "TemplateURL": "https://tmpl.s3.amazonaws.com/child.json", "TimeoutInMinutes": 7,
      "NotificationARNs": ["arn:aws:sns:us-east-1:123456789012:own"],
      "Parameters": {"Prefix": {"Fn::Sub": "${Env}-own"}}}}
  }
})";

const char* kChild = R"({
  "Parameters": {"Prefix": {"Type": "String"}},
  "Resources": {"P": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": {"Ref": "Prefix"}}}}
})";

std::vector<std::string> Arns(const ms::test::CliFixture& cli, const std::string& stack) {
  return cli.Json("describe-stacks --stack-name " + stack)["Stacks"][0]["NotificationARNs"];
}

}  // namespace

TEST_CASE("nested notifications cli: a child reports to its parent's NotificationARNs or its resource's own",
          "[cli][nested]") {
  ms::test::CliFixture cli("nested_notifications_cli", "inherit");
  cli("world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'");
  cli.Write("put.json", json{{"Bucket", "tmpl"}, {"Key", "child.json"}, {"Body", kChild}}.dump());
  cli.Json("world call s3 PutObject \"$(cat put.json)\"");
  const std::string t = cli.Write("parent.json", kParent);
  const std::string topic = "arn:aws:sns:us-east-1:123456789012:ops";
  cli.Json("create-stack --stack-name app --template-body file://" + t + " --notification-arns " + topic);
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  auto child = [&](const char* logical) {
    return cli.Json(std::string("describe-stack-resource --stack-name app --logical-resource-id ") + logical)
        ["StackResourceDetail"]["PhysicalResourceId"].get<std::string>();
  };
  const std::string inherits = child("Inherits"), own = child("Own");
  CHECK(Arns(cli, "app") == std::vector<std::string>{topic});
  CHECK(Arns(cli, inherits) == std::vector<std::string>{topic});
  CHECK(Arns(cli, own) == std::vector<std::string>{"arn:aws:sns:us-east-1:123456789012:own"});
  // TimeoutInMinutes is the resource's: none on Inherits.
  CHECK(cli.Json("describe-stacks --stack-name " + own)["Stacks"][0]["TimeoutInMinutes"] == 7);
  CHECK_FALSE(cli.Json("describe-stacks --stack-name " + inherits)["Stacks"][0].contains("TimeoutInMinutes"));

  // update-stack with new topics: the children updated with it get them too.
  const std::string topic2 = "arn:aws:sns:us-east-1:123456789012:ops2";
  cli.Json("update-stack --stack-name app --template-body file://" + t + " --notification-arns " + topic + " " +
           topic2 + " --parameters ParameterKey=Env,ParameterValue=prod");
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(Arns(cli, "app") == std::vector<std::string>{topic, topic2});
  CHECK(Arns(cli, inherits) == std::vector<std::string>{topic, topic2});
  CHECK(Arns(cli, own) == std::vector<std::string>{"arn:aws:sns:us-east-1:123456789012:own"});
  // An update without --notification-arns keeps them.
  cli.Json("update-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Env,ParameterValue=dev");
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(Arns(cli, "app") == std::vector<std::string>{topic, topic2});
  CHECK(Arns(cli, inherits) == std::vector<std::string>{topic, topic2});

  // More than 5: AWS's front end refuses the request.
  const auto r = cli("create-stack --stack-name six --template-body file://" + t +
                     " --notification-arns a1 a2 a3 a4 a5 a6");
  CHECK(r.exit_code != 0);
  CHECK(r.out.find("1 validation error detected: Value '[a1, a2, a3, a4, a5, a6]' at 'notificationARNs' failed to "
                   "satisfy constraint: Member must have length less than or equal to 5") != std::string::npos);
}
