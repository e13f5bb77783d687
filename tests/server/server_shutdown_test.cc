// SIGTERM while an operation runs: `moonstack serve` exits at once, the
// operation stopped after its current checkpoint with its stack still in
// progress, and the next start (here the CLI's) resumes it from the journal.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

// The stored status of each stack ("name status"), read from the state
// file as it is (the CLI would resume what is in progress).
std::string StoredStatuses(const std::string& state) {
  Run r = Sh("python3 -c \"import sqlite3, json; print(' '.join(n + ':' + json.loads(d)['status'] for (n, d) in "
             "sqlite3.connect('" + state + "').execute('SELECT name, data FROM stacks ORDER BY name')))\"");
  REQUIRE(r.exit_code == 0);
  return r.out.substr(0, r.out.find('\n'));
}

}  // namespace

TEST_CASE("SIGTERM stops a long operation at a checkpoint, and the next start resumes it", "[server][shutdown]") {
  // Real time: the group's create waits an hour before it is sent.
  const std::string scenario = (fs::temp_directory_path() / "moonstack_shutdown_latency.lua").string();
  std::ofstream(scenario) << "latency({ logical_id = \"Group\", action = \"create\" }, 3600)\n";
  Server server("shutdown", "1", {"--scenario", scenario});
  const std::string state = server.dir() + "/state.db";
  server.AwsJson("create-stack --stack-name net --template-body file://" + server.dir() + "/t.json");
  // The VPC is made; the group's create is journaled and waiting.
  bool waiting = false;
  for (int i = 0; i < 100 && !waiting; ++i) {
    json resources = server.AwsJson("describe-stack-resources --stack-name net")["StackResources"];
    for (const json& r : resources) waiting |= r["LogicalResourceId"] == "Group" && r["ResourceStatus"] == "CREATE_IN_PROGRESS";
    if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(waiting);

  const Server::Exit exit = server.Terminate();
  CHECK_FALSE(exit.killed);
  CHECK(exit.seconds < 2);
  CHECK(WIFEXITED(exit.status));
  CHECK(WEXITSTATUS(exit.status) == 0);
  CHECK(StoredStatuses(state) == "net:CREATE_IN_PROGRESS");

  // The CLI's next writer on the state file resumes the operation (in
  // virtual time, without the scenario): the group is created, the VPC is
  // not made again.
  Run recover = Sh(std::string(MOONSTACK_BINARY) + " recover --state " + state);
  INFO(recover.out);
  REQUIRE(recover.exit_code == 0);
  Run resumed = Sh(std::string(MOONSTACK_BINARY) + " describe-stacks --stack-name net --output json --state " + state);
  INFO(resumed.out);
  REQUIRE(resumed.exit_code == 0);
  CHECK(json::parse(resumed.out)["Stacks"][0]["StackStatus"] == "CREATE_COMPLETE");
  Run events = Sh(std::string(MOONSTACK_BINARY) + " describe-stack-events --stack-name net --output json --state " + state);
  REQUIRE(events.exit_code == 0);
  std::vector<std::string> sequence;  // oldest first
  const json stack_events = json::parse(events.out)["StackEvents"];
  for (const json& e : stack_events) {
    sequence.insert(sequence.begin(), e["LogicalResourceId"].get<std::string>() + " " + e["ResourceStatus"].get<std::string>());
  }
  CHECK(sequence == std::vector<std::string>{"net CREATE_IN_PROGRESS", "Vpc CREATE_IN_PROGRESS", "Vpc CREATE_IN_PROGRESS",
                                             "Vpc CREATE_COMPLETE", "Group CREATE_IN_PROGRESS",
                                             "Group CREATE_IN_PROGRESS", "Group CREATE_COMPLETE",
                                             "net CREATE_COMPLETE"});
  // One VPC, and two groups: the VPC's default one and Group, made once.
  auto records = [&](const std::string& kind) {
    Run r = Sh(std::string(MOONSTACK_BINARY) + " world list --kind " + kind + " --state " + state);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out)["Records"].size();
  };
  CHECK(records("ec2.vpc") == 1);
  CHECK(records("ec2.security_group") == 2);
  CHECK(StoredStatuses(state) == "net:CREATE_COMPLETE");
}
