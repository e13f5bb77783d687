// AWS::Include through the CLI (engine/stack/include_transform.h): snippets
// in the simulated S3 join the top level (the Transform section), a section
// and a resource's properties (Fn::Transform); create-stack needs
// CAPABILITY_AUTO_EXPAND, a change set does not; the stack keeps the
// processed template; a bad location, a snippet that is not a JSON or YAML
// object or that includes another, and a missing object fail the request
// with AWS's words, nothing created. GetTemplate answers both stages
// (TemplateStage Original: the template as submitted).
#include <catch2/catch.hpp>

#include "cli_fixture.h"
#include "stack_outputs.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using json = nlohmann::json;

void PutSnippet(const ms::test::CliFixture& cli, const std::string& key, const std::string& text) {
  cli.Write("put.json", json{{"Bucket", "snips"}, {"Key", key}, {"Body", text}}.dump());
  cli.Json("world call s3 PutObject \"$(cat put.json)\"");
}

std::string Include(const std::string& location) {
  return R"({"Name": "AWS::Include", "Parameters": {"Location": ")" + location + R"("}})";
}

// A queue whose properties, a topic beside it and the outputs come from snippets.
std::string Template(const std::string& props_location) {
  return R"({"Transform": [)" + Include("s3://snips/outputs.json") + R"(],
    "Resources": {
      "Queue": {"Type": "AWS::SQS::Queue", "Properties": {"Fn::Transform": )" + Include(props_location) + R"(}},
      "Fn::Transform": )" + Include("s3://snips/resources.yaml") + R"(}})";
}

}  // namespace

TEST_CASE("AWS::Include cli: snippets join the top level, a section and a resource, and the stack keeps the result",
          "[cli][include]") {
  ms::test::CliFixture cli("include_cli", "lifecycle");
  cli("world call s3 CreateBucket '{\"Bucket\":\"snips\"}'");
  PutSnippet(cli, "outputs.json", R"({"Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Queue", "QueueName"]}}}})");
  PutSnippet(cli, "props.json", R"({"QueueName": "included-q"})");
  PutSnippet(cli, "resources.yaml", "Topic:\n  Type: AWS::SNS::Topic\n  Properties:\n    TopicName: included-t\n");
  const std::string t = cli.Write("t.json", Template("s3://snips/props.json"));

  auto refused = cli("create-stack --stack-name app --template-body file://" + t);
  CHECK(refused.exit_code != 0);
  CHECK(refused.out.find("Requires capabilities : [CAPABILITY_AUTO_EXPAND]") != std::string::npos);
  CHECK(cli("describe-stacks --stack-name app").exit_code != 0);

  cli.Json("create-stack --stack-name app --capabilities CAPABILITY_AUTO_EXPAND --template-body file://" + t);
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  auto stack = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  CHECK(ms::test::Output(stack, "QueueName") == "included-q");
  auto resources = cli.Json("describe-stack-resources --stack-name app")["StackResources"];
  std::vector<std::string> ids;
  for (const auto& r : resources) ids.push_back(r["LogicalResourceId"].get<std::string>() + " " +
                                                r["PhysicalResourceId"].get<std::string>());
  std::sort(ids.begin(), ids.end());
  CHECK(ids == std::vector<std::string>{"Queue https://sqs.us-east-1.amazonaws.com/123456789012/included-q",
                                        "Topic arn:aws:sns:us-east-1:123456789012:included-t"});
  // The processed template: the snippets in place, no include left, the Transform section gone.
  const json body = cli.Json("get-template --stack-name app")["TemplateBody"];
  CHECK(body == json::parse(R"({"Resources": {
      "Queue": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": "included-q"}},
      "Topic": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": "included-t"}}},
    "Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Queue", "QueueName"]}}}})"));

  // A change set processes the snippets as they are now, without the capability.
  PutSnippet(cli, "props.json", R"({"QueueName": "included-q", "VisibilityTimeout": 60})");
  cli.Json("create-change-set --stack-name app --change-set-name v2 --template-body file://" + t);
  REQUIRE(cli("execute-change-set --stack-name app --change-set-name v2").exit_code == 0);
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  auto q = cli.Json("world call sqs GetQueueAttributes "
                    "'{\"QueueUrl\":\"https://sqs.us-east-1.amazonaws.com/123456789012/included-q\","
                    "\"AttributeNames\":[\"VisibilityTimeout\"]}'");
  CHECK(q["Attributes"]["VisibilityTimeout"] == "60");
}

TEST_CASE("AWS::Include cli: a nested stack's template includes a snippet too, under its parent's capabilities",
          "[cli][include][nested]") {
  ms::test::CliFixture cli("include_cli", "nested");
  cli("world call s3 CreateBucket '{\"Bucket\":\"snips\"}'");
  PutSnippet(cli, "topic.json", R"({"Topic": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": "child-t"}}})");
  PutSnippet(cli, "child.json", R"({"Resources": {"Fn::Transform": )" + Include("s3://snips/topic.json") + R"(},
    "Outputs": {"TopicArn": {"Value": {"Ref": "Topic"}}}})");
  const std::string t = cli.Write("parent.json", R"({"Resources": {"Child": {"Type": "AWS::CloudFormation::Stack",
    "Properties": {"TemplateURL": "https://snips.s3.amazonaws.com/child.json"}}},
    "Outputs": {"TopicArn": {"Value": {"Fn::GetAtt": ["Child", "Outputs.TopicArn"]}}}})");
  // Without CAPABILITY_AUTO_EXPAND the child is refused it, and the parent rolls back.
  cli.Json("create-stack --stack-name bare --template-body file://" + t);
  CHECK(cli.Status("bare") == "ROLLBACK_COMPLETE");
  const auto events = cli.Events("bare", 0);
  CHECK(std::find(events.begin(), events.end(),
                  "Child CREATE_FAILED Requires capabilities : [CAPABILITY_AUTO_EXPAND]") != events.end());
  cli.Json("create-stack --stack-name app --capabilities CAPABILITY_AUTO_EXPAND --template-body file://" + t);
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  auto parent = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  CHECK(ms::test::Output(parent, "TopicArn") == "arn:aws:sns:us-east-1:123456789012:child-t");
}

TEST_CASE("AWS::Include cli: a bad location, a snippet that is no JSON or YAML object, a missing one fail the request",
          "[cli][include]") {
  ms::test::CliFixture cli("include_cli", "errors");
  cli("world call s3 CreateBucket '{\"Bucket\":\"snips\"}'");
  PutSnippet(cli, "outputs.json", R"({"Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Queue", "QueueName"]}}}})");
  PutSnippet(cli, "resources.yaml", "Topic:\n  Type: AWS::SNS::Topic\n");
  PutSnippet(cli, "broken.yaml", "QueueName: [unclosed\n");
  PutSnippet(cli, "list.json", R"(["QueueName"])");
  PutSnippet(cli, "nested.json", R"({"Fn::Transform": {"Name": "AWS::Include", "Parameters": {"Location": "s3://snips/list.json"}}})");
  const std::string prefix = "Transform AWS::Include failed with: ";
  for (const auto& [location, message] : std::vector<std::pair<std::string, std::string>>{
           {"https://snips.s3.amazonaws.com/props.json", "The location parameter is not a valid S3 uri."},
           {"s3://snips", "The location parameter is not a valid S3 uri."},
           {"s3://snips/broken.yaml", "The specified S3 object's content should be valid Yaml/JSON."},
           {"s3://snips/list.json", "The specified S3 object's content should be valid Yaml/JSON."},
           {"s3://snips/nested.json", "The specified S3 object's content should be valid Yaml/JSON."},
           {"s3://snips/missing.json", "The specified key does not exist."},
       }) {
    const std::string t = cli.Write("t.json", Template(location));
    auto r = cli("create-stack --stack-name app --capabilities CAPABILITY_AUTO_EXPAND --template-body file://" + t);
    INFO(location << "\n" << r.out);
    CHECK(r.exit_code != 0);
    CHECK(r.out.find(prefix + message) != std::string::npos);
    auto cs = cli("create-change-set --stack-name app --change-set-name c --change-set-type CREATE --template-body file://" + t);
    CHECK(cs.out.find(prefix + message) != std::string::npos);
    CHECK(cli("describe-stacks --stack-name app").exit_code != 0);  // nothing created
  }
  // A snippet's key the map has already: refused, not one of them dropped.
  PutSnippet(cli, "queue.yaml", "Queue:\n  Type: AWS::SQS::Queue\n");
  const std::string twice = cli.Write("twice.json", R"({"Resources": {"Queue": {"Type": "AWS::SQS::Queue"},
    "Fn::Transform": )" + Include("s3://snips/queue.yaml") + "}}");
  auto r = cli("create-stack --stack-name app --capabilities CAPABILITY_AUTO_EXPAND --template-body file://" + twice);
  CHECK(r.out.find(prefix + "A snippet sets Queue, which the template already has there.") != std::string::npos);
}

TEST_CASE("AWS::Include cli: get-template answers the Original or the Processed stage, through updates and rollback",
          "[cli][include]") {
  ms::test::CliFixture cli("include_cli", "stages");
  cli("world call s3 CreateBucket '{\"Bucket\":\"snips\"}'");
  PutSnippet(cli, "topic.json", R"({"Topic": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": "t1"}}})");
  const std::string submitted = R"({"Resources": {"Fn::Transform": )" + Include("s3://snips/topic.json") + "}}";
  const std::string t = cli.Write("t.json", submitted);
  const auto processed_with = [](const std::string& topic_name) {
    return json{{"Resources", {{"Topic", {{"Type", "AWS::SNS::Topic"}, {"Properties", {{"TopicName", topic_name}}}}}}}};
  };
  const auto stage = [&](const std::string& which) {
    return cli.Json("get-template --stack-name app" + (which.empty() ? "" : " --template-stage " + which))["TemplateBody"];
  };
  cli.Json("create-stack --stack-name app --capabilities CAPABILITY_AUTO_EXPAND --template-body file://" + t);
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  CHECK(stage("") == processed_with("t1"));
  CHECK(stage("Processed") == processed_with("t1"));
  CHECK(stage("Original") == json::parse(submitted));
  auto bad = cli("get-template --stack-name app --template-stage original");
  CHECK(bad.exit_code != 0);
  CHECK(bad.out.find("1 validation error detected: Value 'original' at 'templateStage' failed to satisfy constraint: "
                     "Member must satisfy enum value set: [Original, Processed]") != std::string::npos);

  // UsePreviousTemplate processes the submitted template again: the snippet as it is now
  // (so it needs the capability again).
  PutSnippet(cli, "topic.json", R"({"Topic": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": "t2"}}})");
  auto refused = cli("update-stack --stack-name app --use-previous-template");
  CHECK(refused.out.find("Requires capabilities : [CAPABILITY_AUTO_EXPAND]") != std::string::npos);
  cli.Json("update-stack --stack-name app --use-previous-template --capabilities CAPABILITY_AUTO_EXPAND");
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(stage("") == processed_with("t2"));
  CHECK(stage("Original") == json::parse(submitted));
  CHECK(cli.Json("describe-stack-resources --stack-name app")["StackResources"][0]["PhysicalResourceId"] ==
        "arn:aws:sns:us-east-1:123456789012:t2");

  // An update to another included template that fails: the rollback restores both stages.
  PutSnippet(cli, "bad.json", R"({"Topic": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": "t2"}},
    "Group": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "g", "VpcId": "vpc-00000000"}}})");
  const std::string bad_submitted = R"({"Resources": {"Fn::Transform": )" + Include("s3://snips/bad.json") + "}}";
  const std::string b = cli.Write("b.json", bad_submitted);
  cli.Json("update-stack --stack-name app --capabilities CAPABILITY_AUTO_EXPAND --template-body file://" + b);
  REQUIRE(cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(stage("") == processed_with("t2"));
  CHECK(stage("Original") == json::parse(submitted));

  // A template no transform changes: both stages are that template.
  const std::string plain = R"({"Resources": {"Topic": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": "t3"}}}})";
  const std::string p = cli.Write("p.json", plain);
  cli.Json("update-stack --stack-name app --template-body file://" + p);
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(stage("") == json::parse(plain));
  CHECK(stage("Original") == json::parse(plain));

  // A change set keeps the template as submitted too; executing it gives the stack both.
  cli.Json("create-change-set --stack-name app --change-set-name back --template-body file://" + t);
  REQUIRE(cli("execute-change-set --stack-name app --change-set-name back").exit_code == 0);
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(stage("") == processed_with("t2"));
  CHECK(stage("Original") == json::parse(submitted));
}

TEST_CASE("AWS::Include cli: validate-template declares the include without reading it, and checks the rest",
          "[cli][include]") {
  ms::test::CliFixture cli("include_cli", "validate");
  // Nothing in S3: no snippet is read. The role would ask for CAPABILITY_IAM in a template
  // without a macro; AWS names no capability for one with a macro.
  const std::string t = cli.Write("t.json", R"({"Transform": )" + Include("s3://nowhere/top.json") + R"(,
    "Description": "d",
    "Parameters": {"Env": {"Type": "String", "Default": "dev"}},
    "Conditions": {"Prod": {"Fn::Equals": [{"Ref": "Env"}, "prod"]}},
    "Resources": {
      "Role": {"Type": "AWS::IAM::Role", "Properties": {"Fn::Transform": )" + Include("s3://nowhere/role.json") + R"(}},
      "Fn::Transform": )" + Include("s3://nowhere/resources.json") + R"(},
    "Outputs": {"TopicArn": {"Value": {"Ref": "TopicFromSnippet"}}}})");
  auto out = cli.Json("validate-template --template-file " + t);
  CHECK(out == json::parse(R"({"Parameters": [{"ParameterKey": "Env", "DefaultValue": "dev", "NoEcho": false}],
                               "Description": "d", "DeclaredTransforms": ["AWS::Include"]})"));
  // What the template says itself is still checked.
  const std::string bad = cli.Write("bad.json", R"({"Parameters": {"Env": {"Type": "Strin"}},
    "Resources": {"Fn::Transform": )" + Include("s3://nowhere/resources.json") + "}}");
  auto r = cli("validate-template --template-file " + bad);
  CHECK(r.exit_code != 0);
  CHECK(r.out.find("Template format error: Unrecognized parameter type: Strin") != std::string::npos);
  const std::string other = cli.Write("other.json", R"({"Transform": ["AWS::Serverless-2016-10-31", )" +
                                                        Include("s3://nowhere/top.json") + R"(], "Resources": {}})");
  r = cli("validate-template --template-file " + other);
  CHECK(r.exit_code != 0);
  CHECK(r.out.find("Transform AWS::Serverless-2016-10-31 is not supported") != std::string::npos);
}
