// SQS and Lambda event sources through the CLI: a queue's Ref is its URL, a
// FifoQueue change replaces it (a new ".fifo" name), and a mapping whose
// queue is missing fails with Lambda's text and rolls the stack back.
#include <catch2/catch.hpp>

#include "cli_fixture.h"
#include "stack_outputs.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace {

const char* kQueue = R"({
  "Parameters": {"Fifo": {"Type": "String", "Default": "false"}},
  "Resources": {
    "Jobs": {"Type": "AWS::SQS::Queue", "Properties": {"FifoQueue": {"Ref": "Fifo"}, "VisibilityTimeout": 60}}
  },
  "Outputs": {
    "Url": {"Value": {"Ref": "Jobs"}},
    "Arn": {"Value": {"Fn::GetAtt": ["Jobs", "Arn"]}},
    "Name": {"Value": {"Fn::GetAtt": ["Jobs", "QueueName"]}}
  }
})";

const char* kMapping = R"({
  "Resources": {
    "Role": {"Type": "AWS::IAM::Role", "Properties": {"AssumeRolePolicyDocument": {"Statement": [
      {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}]}}},
    "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"Role": {"Fn::GetAtt": ["Role", "Arn"]},
      "Runtime": "python3.12", "Handler": "a.h", "Code": {"ZipFile": "x"}}},
    "Mapping": {"Type": "AWS::Lambda::EventSourceMapping", "Properties": {"FunctionName": {"Ref": "Fn"},
      "EventSourceArn": "arn:aws:sqs:us-east-1:123456789012:not-there"}}
  }
})";

using ms::test::Output;

}  // namespace

TEST_CASE("sqs: Ref is the queue URL, and FifoQueue replaces the queue", "[cli][sqs]") {
  ms::test::CliFixture cli("sqs_cli", "queue");
  std::string t = cli.Write("t.json", kQueue);
  cli.Json("create-stack --stack-name work --template-body file://" + t);
  REQUIRE(cli.Status("work") == "CREATE_COMPLETE");
  auto stack = cli.Json("describe-stacks --stack-name work")["Stacks"][0];
  const std::string name = Output(stack, "Name");
  CHECK(std::regex_match(name, std::regex("work-Jobs-[A-Za-z0-9]{12}")));
  CHECK(Output(stack, "Url") == "https://sqs.us-east-1.amazonaws.com/123456789012/" + name);
  CHECK(Output(stack, "Arn") == "arn:aws:sqs:us-east-1:123456789012:" + name);

  const size_t created = cli.Events("work", 0).size();
  cli.Json("update-stack --stack-name work --use-previous-template --parameters ParameterKey=Fifo,ParameterValue=true");
  REQUIRE(cli.Status("work") == "UPDATE_COMPLETE");
  auto events = cli.Events("work", created);
  CHECK(events[1] ==
        "Jobs UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.");
  const std::string fifo = Output(cli.Json("describe-stacks --stack-name work")["Stacks"][0], "Name");
  CHECK(std::regex_match(fifo, std::regex("work-Jobs-[A-Za-z0-9]{12}\\.fifo")));
  auto queues = cli.Json("world list --kind sqs.queue")["Records"];
  REQUIRE(queues.size() == 1);
  CHECK(queues[0]["Id"] == "us-east-1:" + fifo);
}

TEST_CASE("sqs: an event source mapping's missing queue fails it as Lambda does", "[cli][sqs][lambda]") {
  ms::test::CliFixture cli("sqs_cli", "mapping");
  std::string t = cli.Write("t.json", kMapping);
  cli("create-stack --stack-name feed --capabilities CAPABILITY_IAM --template-body file://" + t);
  CHECK(cli.Status("feed") == "ROLLBACK_COMPLETE");
  bool found = false;
  for (const auto& e : cli.Events("feed", 0)) {
    if (e.rfind("Mapping CREATE_FAILED ", 0) == 0) {
      found = true;
      CHECK(e == "Mapping CREATE_FAILED Invalid request provided: Error occurred while ReceiveMessage. SQS Error Code: "
                 "AWS.SimpleQueueService.NonExistentQueue. SQS Error Message: The specified queue does not exist for "
                 "this wsdl version.");
    }
  }
  CHECK(found);
  CHECK(cli.Json("world list --kind lambda.event_source_mapping")["Records"].empty());
}

TEST_CASE("registry constraints a hand-written provider does not declare are checked before it runs", "[cli][sqs]") {
  // AWS::SQS::Queue's provider declares VisibilityTimeout without bounds; the
  // registry schema's maximum (43,200) applies, with the registry's message:
  // CreateStack's pre-deployment validation finds it, and no queue is made.
  ms::test::CliFixture cli("sqs_cli", "registry_bounds");
  std::string t = cli.Write("t.json", R"({"Resources": {
    "Jobs": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": 99999}}}})");
  cli("create-stack --stack-name bounds --template-body file://" + t);
  CHECK(cli.Status("bounds") == "ROLLBACK_COMPLETE");
  CHECK(cli.Events("bounds", 0) ==
        std::vector<std::string>{
            "bounds CREATE_IN_PROGRESS User Initiated",
            "bounds CREATE_FAILED Validation failed with 1 error(s). Call DescribeEvents to retrieve the full list of "
            "issues with resource and property details, resolve each error, then retry the operation.",
            "bounds ROLLBACK_IN_PROGRESS Validation failure detected. See the operation's FAILED event for details.",
            "bounds ROLLBACK_COMPLETE ",
        });
  const nlohmann::json found = cli.Json("describe-events --stack-name bounds --failed-events")["OperationEvents"];
  REQUIRE(found.size() == 2);
  CHECK(found[0]["EventType"] == "PROVISIONING_ERROR");
  CHECK(found[0]["ResourceStatus"] == "CREATE_FAILED");
  CHECK(found[1]["EventType"] == "VALIDATION_ERROR");
  CHECK(found[1]["OperationType"] == "CREATE_STACK");
  CHECK(found[1]["LogicalResourceId"] == "Jobs");
  CHECK(found[1]["ValidationName"] == "PROPERTY_VALIDATION");
  CHECK(found[1]["ValidationStatusReason"] == "#/VisibilityTimeout: 99999 is not less or equal to 43200");
  CHECK(found[1]["ValidationPath"] == "/Resources/Jobs/Properties/VisibilityTimeout");
  CHECK(cli.Json("world list --kind sqs.queue")["Records"].empty());
  // Within the bound, the queue is made with it.
  t = cli.Write("t.json", R"({"Resources": {
    "Jobs": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": 43200}}}})");
  cli("create-stack --stack-name within --template-body file://" + t);
  CHECK(cli.Status("within") == "CREATE_COMPLETE");
  CHECK(cli.Json("world list --kind sqs.queue")["Records"].size() == 1);
  // The provider's description shows what is checked.
  const nlohmann::json described = cli.Json("provider describe AWS::SQS::Queue --format schema");
  CHECK(described["properties"]["VisibilityTimeout"] ==
        nlohmann::json::parse(R"({"type": "integer", "minimum": 0, "maximum": 43200})"));
  // An enum of numbers too: a LogGroup's RetentionInDays.
  CHECK(cli.Json("provider describe AWS::Logs::LogGroup --format schema")["properties"]["RetentionInDays"] ==
        nlohmann::json::parse(R"({"type": "integer", "enum": [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400,
                                  545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653]})"));
}
