// CDK's Provider framework (aws-cdk-lib/custom-resources `Provider`) against
// `moonstack serve`: the committed cloud assembly of
// examples/cdk/provider-framework (v1, v2, v3; scripts/cdk_synth.sh). The
// custom resource's ServiceToken is the framework's Node.js function, whose
// code is a CDK file asset published here to the simulated S3 (as
// `cdk deploy` publishes it), and which calls the user's inline-Python
// onEvent function through the Lambda API with the AWS SDK v3 on NODE_PATH
// (scripts/install_node_sdk.sh), then PUTs the response to the ResponseURL.
// Create, an update with a new PhysicalResourceId (the old one deleted in
// cleanup), an update onEvent fails (rolled back), delete: the exact events.
//
// Needs node and the SDK: $MOONSTACK_NODE_SDK, else
// scripts/install_node_sdk.sh (the npm registry, once); skipped with the
// reason without them.
#include <catch2/catch.hpp>

#include <regex>

#include "cdk/provider_framework_support.h"
#include "cli/cli_fixture.h"
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

using ms::test::cdk::ReadyToRun;

// What each step leaves, the same in embedded mode and under serve.
const std::vector<std::vector<std::string>> kExpectedEvents = {
    {"ProviderFramework CREATE_IN_PROGRESS | User Initiated",
     "Greeting CREATE_IN_PROGRESS",
     "Greeting CREATE_IN_PROGRESS greeting-world | Resource creation Initiated",
     "Greeting CREATE_COMPLETE greeting-world",
     "ProviderFramework CREATE_COMPLETE"},
    // v2: onEvent answers the Update with a new PhysicalResourceId; the old
    // resource gets a Delete in cleanup.
    {"ProviderFramework UPDATE_IN_PROGRESS | User Initiated",
     "Greeting UPDATE_IN_PROGRESS greeting-world",
     "Greeting UPDATE_COMPLETE greeting-moon",
     "ProviderFramework UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
     "Greeting DELETE_IN_PROGRESS greeting-world",
     "Greeting DELETE_COMPLETE greeting-world",
     "ProviderFramework UPDATE_COMPLETE"},
    // v3: onEvent raises; the framework answers FAILED with the error; the
    // rollback's Update brings greeting-moon back.
    {"ProviderFramework UPDATE_IN_PROGRESS | User Initiated",
     "Greeting UPDATE_IN_PROGRESS greeting-moon",
     "Greeting UPDATE_FAILED greeting-moon | Received response status [FAILED] from custom resource. Message returned: "
     "Error: no greeting for mars",
     "ProviderFramework UPDATE_ROLLBACK_IN_PROGRESS | The following resource(s) failed to update: [Greeting]. ",
     "Greeting UPDATE_IN_PROGRESS greeting-moon",
     "Greeting UPDATE_COMPLETE greeting-moon",
     "ProviderFramework UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
     "ProviderFramework UPDATE_ROLLBACK_COMPLETE"},
    {"ProviderFramework DELETE_IN_PROGRESS | User Initiated",
     "Greeting DELETE_IN_PROGRESS greeting-moon",
     "Greeting DELETE_COMPLETE greeting-moon",
     "ProviderFramework DELETE_COMPLETE"},
};

// What the onEvent function printed: each request as it got it.
const std::vector<std::string> kOnEventRequests = {
    "Create None world", "Update greeting-world moon", "Delete greeting-world world",
    "Update greeting-moon mars", "Update greeting-moon moon", "Delete greeting-moon moon"};

// The framework's FAILED reason: the function's error, where its log is,
// then the framework's stack trace, and CloudFormation's RequestId.
void CheckFailedReason(const std::string& reason) {
  INFO(reason);
  CHECK(reason.rfind("Received response status [FAILED] from custom resource. Message returned: Error: no greeting "
                     "for mars\n\nLogs: /aws/lambda/cdk-example-greeting-on-event\n\n    at ", 0) == 0);
  CHECK(std::regex_search(reason, std::regex(R"( \(RequestId: [0-9a-f-]{36}\)$)")));
}

// The run's result (DeployScript's, or DeployEmbedded's: the same shape)
// checked: statuses, outputs, exact events, the FAILED reason, and the
// requests as the onEvent function got them.
void CheckRun(const json& r) {
  INFO(r.dump(1));
  CHECK(r["bootstrap"] == "CREATE_COMPLETE");
  CHECK(r["create"]["status"] == "CREATE_COMPLETE");
  CHECK(r["create"]["outputs"] == json({{"GreetingId", "greeting-world"}, {"Message", "Hello, world!"}}));
  CHECK(r["update"]["status"] == "UPDATE_COMPLETE");
  CHECK(r["update"]["outputs"] == json({{"GreetingId", "greeting-moon"}, {"Message", "Hello, moon!"}}));
  CHECK(r["failed_update"]["status"] == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(r["failed_update"]["outputs"] == json({{"GreetingId", "greeting-moon"}, {"Message", "Hello, moon!"}}));
  CHECK(r["delete"]["status"] == "DELETE_COMPLETE");  // described by its ID
  const std::vector<std::vector<std::string>> steps = {r["create"]["events"], r["update"]["events"],
                                                       r["failed_update"]["events"], r["delete"]["events"]};
  CHECK(steps == kExpectedEvents);
  REQUIRE(r["failed_reason"].size() == 1);
  CheckFailedReason(r["failed_reason"][0]);
  std::vector<std::string> requests;
  for (const json& line : r["log"]) {
    const std::string m = line;
    if (m.rfind("Create ", 0) == 0 || m.rfind("Update ", 0) == 0 || m.rfind("Delete ", 0) == 0) requests.push_back(m);
  }
  CHECK(requests == kOnEventRequests);
}

}  // namespace

TEST_CASE("cdk Provider framework: onEvent in Python through create, replacement, failed update and delete",
          "[cdk][server][lambda]") {
  if (!ReadyToRun("cdk Provider framework")) return;
  Server s("cdk_provider", "0");
  CheckRun(s.Python(ms::test::cdk::DeployScript("provider-framework", "ProviderFramework", "Greeting",
                                                "/aws/lambda/cdk-example-greeting-on-event")));
}

TEST_CASE("cdk Provider framework in embedded mode: the framework's SDK calls reach the command's world",
          "[cdk][cli][lambda]") {
  if (!ReadyToRun("cdk Provider framework (embedded)")) return;
  ms::test::CliFixture cli("cdk_provider", "embedded");
  CheckRun(ms::test::cdk::DeployEmbedded(cli, "provider-framework", "ProviderFramework", "Greeting",
                                         "/aws/lambda/cdk-example-greeting-on-event"));
}

}  // namespace ms::test::server
