// AwsCustomResource (aws-cdk-lib/custom-resources; examples/cdk/
// aws-custom-resource, fixtures/assembly/aws-custom-resource/v1, v2 from
// scripts/cdk_synth.sh): CDK's own Node.js function makes the SDK calls the
// resources declare, against the simulated cloud — SSM putParameter on
// create and update, deleteParameter on delete; getParameter by a second
// resource whose response field Parameter.Value is the stack's output.
// Create, update (a new value), delete, under `serve` (boto3) and in
// embedded mode (the CLI): the exact events, the output, and the parameter
// in the world after each step.
//
// Needs node and the SDK (@aws-sdk/client-ssm among them): $MOONSTACK_NODE_SDK,
// else scripts/install_node_sdk.sh; skipped with the reason without them.
#include <catch2/catch.hpp>

#include "cdk/provider_framework_support.h"
#include "cli/cli_fixture.h"
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

using ms::test::cdk::ReadyToRun;

const std::string kParameter = "/moonstack/aws-custom-resource/greeting";
const ms::test::cdk::Probe kProbe{"ssm", "GetParameter", R"({"Name": ")" + kParameter + R"("})"};
const std::string kLog = "";  // the function's name is generated: its log is not read here

// Events of Greeting (the putParameter resource) and of the stack.
const std::vector<std::vector<std::string>> kExpectedEvents = {
    {"AwsCustomResource CREATE_IN_PROGRESS | User Initiated",
     "Greeting7772ECD5 CREATE_IN_PROGRESS",
     "Greeting7772ECD5 CREATE_IN_PROGRESS greeting-parameter | Resource creation Initiated",
     "Greeting7772ECD5 CREATE_COMPLETE greeting-parameter",
     "AwsCustomResource CREATE_COMPLETE"},
    {"AwsCustomResource UPDATE_IN_PROGRESS | User Initiated",
     "Greeting7772ECD5 UPDATE_IN_PROGRESS greeting-parameter",
     "Greeting7772ECD5 UPDATE_COMPLETE greeting-parameter",
     "AwsCustomResource UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
     "AwsCustomResource UPDATE_COMPLETE"},
    {"AwsCustomResource DELETE_IN_PROGRESS | User Initiated",
     "Greeting7772ECD5 DELETE_IN_PROGRESS greeting-parameter",
     "Greeting7772ECD5 DELETE_COMPLETE greeting-parameter",
     "AwsCustomResource DELETE_COMPLETE"},
};

void CheckRun(const json& r) {
  INFO(r.dump(1));
  CHECK(r["bootstrap"] == "CREATE_COMPLETE");
  CHECK(r["create"]["status"] == "CREATE_COMPLETE");
  CHECK(r["create"]["outputs"] == json({{"Value", "hello"}}));  // getResponseField('Parameter.Value')
  CHECK(r["create"]["probe"]["Parameter"]["Value"] == "hello");
  CHECK(r["create"]["probe"]["Parameter"]["Version"] == 1);
  CHECK(r["update"]["status"] == "UPDATE_COMPLETE");
  CHECK(r["update"]["outputs"] == json({{"Value", "goodbye"}}));
  CHECK(r["update"]["probe"]["Parameter"]["Value"] == "goodbye");
  CHECK(r["update"]["probe"]["Parameter"]["Version"] == 2);
  CHECK(r["delete"]["status"] == "DELETE_COMPLETE");
  CHECK(r["delete"]["probe"] == json({{"Code", "ParameterNotFound"}}));  // onDelete's deleteParameter
  const std::vector<std::vector<std::string>> steps = {r["create"]["events"], r["update"]["events"],
                                                       r["delete"]["events"]};
  CHECK(steps == kExpectedEvents);
}

}  // namespace

TEST_CASE("cdk AwsCustomResource: SDK calls from CDK's function reach the simulated SSM, response field as output",
          "[cdk][server][lambda]") {
  if (!ReadyToRun("cdk AwsCustomResource")) return;
  Server s("cdk_aws_custom_resource", "0");
  CheckRun(s.Python(ms::test::cdk::DeployScript("aws-custom-resource", "AwsCustomResource", "Greeting7772ECD5", kLog,
                                                2, kProbe)));
}

TEST_CASE("cdk AwsCustomResource in embedded mode: the SDK calls reach the command's world",
          "[cdk][cli][lambda]") {
  if (!ReadyToRun("cdk AwsCustomResource (embedded)")) return;
  ms::test::CliFixture cli("cdk_aws_custom_resource", "embedded");
  CheckRun(ms::test::cdk::DeployEmbedded(cli, "aws-custom-resource", "AwsCustomResource", "Greeting7772ECD5", kLog,
                                         2, kProbe));
}

}  // namespace ms::test::server
