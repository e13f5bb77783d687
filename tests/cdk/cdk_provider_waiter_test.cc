// CDK's Provider framework with an isCompleteHandler (examples/cdk/
// provider-waiter; fixtures/assembly/provider-waiter/v1..v3, scripts/cdk_synth.sh):
// the framework's onEvent function calls the user's onEvent, then starts the
// framework's waiter, an AWS::StepFunctions::StateMachine of the template
// (sim/states.lua), whose Task invokes the framework's isComplete function
// and retries it every 10 s (queryInterval) until the user's isComplete
// answers IsComplete — the third poll of each request — and the framework
// answers CloudFormation from that later invocation. v3's isComplete never
// completes: after MaxAttempts (totalTimeout 1 minute) the waiter's Catch
// runs onTimeout, which fails the update with "Operation timed out"; the
// rollback's Update completes again. Create, update, failed update, delete,
// under `serve` (boto3) and in embedded mode (the CLI), in virtual time:
// the polls' 10 s intervals are simulated, never waited.
//
// Needs node and the SDK: $MOONSTACK_NODE_SDK, else
// scripts/install_node_sdk.sh (the npm registry, once); skipped with the
// reason without them.
#include <catch2/catch.hpp>

#include <cstdio>
#include <utility>
#include <vector>
#include <regex>

#include "cdk/provider_framework_support.h"
#include "cli/cli_fixture.h"
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

using ms::test::cdk::ReadyToRun;

const std::string kLog = "/aws/lambda/cdk-example-waiter-is-complete";

// What each step leaves, the same in embedded mode and under serve.
const std::vector<std::vector<std::string>> kExpectedEvents = {
    {"ProviderWaiter CREATE_IN_PROGRESS | User Initiated",
     "Greeting CREATE_IN_PROGRESS",
     "Greeting CREATE_IN_PROGRESS | Resource creation Initiated",
     "Greeting CREATE_COMPLETE slow-greeting",
     "ProviderWaiter CREATE_COMPLETE"},
    {"ProviderWaiter UPDATE_IN_PROGRESS | User Initiated",
     "Greeting UPDATE_IN_PROGRESS slow-greeting",
     "Greeting UPDATE_COMPLETE slow-greeting",
     "ProviderWaiter UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
     "ProviderWaiter UPDATE_COMPLETE"},
    // v3: isComplete never completes; onTimeout answers FAILED.
    {"ProviderWaiter UPDATE_IN_PROGRESS | User Initiated",
     "Greeting UPDATE_IN_PROGRESS slow-greeting",
     "Greeting UPDATE_FAILED slow-greeting | Received response status [FAILED] from custom resource. Message "
     "returned: Operation timed out (RequestId: <id>)",
     "ProviderWaiter UPDATE_ROLLBACK_IN_PROGRESS | The following resource(s) failed to update: [Greeting]. ",
     "Greeting UPDATE_IN_PROGRESS slow-greeting",
     "Greeting UPDATE_COMPLETE slow-greeting",
     "ProviderWaiter UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
     "ProviderWaiter UPDATE_ROLLBACK_COMPLETE"},
    {"ProviderWaiter DELETE_IN_PROGRESS | User Initiated",
     "Greeting DELETE_IN_PROGRESS slow-greeting",
     "Greeting DELETE_COMPLETE slow-greeting",
     "ProviderWaiter DELETE_COMPLETE"},
};

// The user's isComplete as it was polled: "<type> <physical> <name> <poll> <done>".
std::vector<std::string> ExpectedPolls() {
  std::vector<std::string> polls;
  auto request = [&](const std::string& what, int n, bool completes) {
    for (int i = 1; i <= n; ++i) polls.push_back("isComplete " + what + " " + std::to_string(i) + " " +
                                                 (completes && i == n ? "True" : "False"));
  };
  request("Create slow-greeting world", 3, true);
  request("Update slow-greeting moon", 3, true);
  request("Update slow-greeting mars", 7, false);  // the first poll and MaxAttempts (6) retries
  request("Update slow-greeting moon", 3, true);   // the rollback
  request("Delete slow-greeting moon", 3, true);
  return polls;
}

// An event's ISO 8601 timestamp in seconds of its day (the steps run
// within a day of virtual time).
double Seconds(const std::string& iso) {
  int h = 0, m = 0;
  double sec = 0;
  REQUIRE(std::sscanf(iso.c_str() + 11, "%d:%d:%lf", &h, &m, &sec) == 3);
  return h * 3600 + m * 60 + sec;
}

void CheckRun(const json& r) {
  INFO(r.dump(1));
  CHECK(r["bootstrap"] == "CREATE_COMPLETE");
  CHECK(r["create"]["status"] == "CREATE_COMPLETE");
  CHECK(r["create"]["outputs"] == json({{"GreetingId", "slow-greeting"}, {"Message", "Hello, world!"}}));
  CHECK(r["update"]["status"] == "UPDATE_COMPLETE");
  CHECK(r["update"]["outputs"] == json({{"GreetingId", "slow-greeting"}, {"Message", "Hello, moon!"}}));
  CHECK(r["failed_update"]["status"] == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(r["failed_update"]["outputs"] == json({{"GreetingId", "slow-greeting"}, {"Message", "Hello, moon!"}}));
  CHECK(r["delete"]["status"] == "DELETE_COMPLETE");
  std::vector<std::vector<std::string>> steps;
  for (const char* step : {"create", "update", "failed_update", "delete"}) {
    steps.emplace_back();
    for (const json& e : r[step]["events"]) {  // CloudFormation's RequestId, a hash: not compared
      steps.back().push_back(std::regex_replace(e.get<std::string>(), std::regex(R"(\(RequestId: [0-9a-f-]{36}\))"),
                                                "(RequestId: <id>)"));
    }
  }
  CHECK(steps == kExpectedEvents);
  REQUIRE(r["failed_reason"].size() == 1);
  CHECK(std::regex_match(r["failed_reason"][0].get<std::string>(),
                         std::regex(R"(Received response status \[FAILED\] from custom resource\. Message returned: )"
                                    R"(Operation timed out \(RequestId: [0-9a-f-]{36}\))")));
  std::vector<std::string> polls;
  for (const json& line : r["log"]) {
    const std::string m = line;
    if (m.rfind("isComplete ", 0) == 0) polls.push_back(m);
  }
  CHECK(polls == ExpectedPolls());
}

}  // namespace

TEST_CASE("cdk Provider framework with isComplete: the Step Functions waiter polls in simulated time",
          "[cdk][server][lambda][states]") {
  if (!ReadyToRun("cdk Provider framework with isComplete")) return;
  Server s("cdk_provider_waiter", "0");
  CheckRun(s.Python(ms::test::cdk::DeployScript("provider-waiter", "ProviderWaiter", "Greeting", kLog)));
}

TEST_CASE("cdk Provider framework with isComplete in embedded mode: polls, completion, onTimeout, virtual durations",
          "[cdk][cli][lambda][states]") {
  if (!ReadyToRun("cdk Provider framework with isComplete (embedded)")) return;
  ms::test::CliFixture cli("cdk_provider_waiter", "embedded");
  const json r = ms::test::cdk::DeployEmbedded(cli, "provider-waiter", "ProviderWaiter", "Greeting", kLog);
  CheckRun(r);
  // Each request took its polls' simulated time: Create 20 s (polls at 0,
  // 10 and 20 s), the update that never completes 60 s (then onTimeout).
  const json events = cli.Json("describe-stack-events --stack-name " + r["stack_id"].get<std::string>())["StackEvents"];
  std::vector<std::pair<std::string, double>> greeting;  // Greeting's events, oldest first
  for (size_t i = events.size(); i-- > 0;) {
    if (events[i]["LogicalResourceId"] == "Greeting") greeting.emplace_back(events[i]["ResourceStatus"], Seconds(events[i]["Timestamp"]));
  }
  // Each completion or failure, and the time since the event before it.
  std::vector<std::pair<std::string, double>> took;
  for (size_t i = 1; i < greeting.size(); ++i) {
    if (greeting[i].first.find("IN_PROGRESS") == std::string::npos) {
      took.emplace_back(greeting[i].first, greeting[i].second - greeting[i - 1].second);
    }
  }
  const std::vector<std::pair<std::string, double>> expected = {
      {"CREATE_COMPLETE", 20}, {"UPDATE_COMPLETE", 20}, {"UPDATE_FAILED", 60}, {"UPDATE_COMPLETE", 20},
      {"DELETE_COMPLETE", 20}};
  CHECK(took == expected);
}

}  // namespace ms::test::server
