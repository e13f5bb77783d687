// README.md's "Nested stacks" section, run as written on
// examples/templates/nested/: its first sh block (the children put in the
// simulated S3 with `world call s3 PutObject`, the parent deployed), then
// its second (an update with Env=prod, the delete). Only the binary's path
// and the state file are the test's. Checked after each: the four stacks'
// exact status sequences, ParentId/RootId, the outputs read across the
// boundaries, the parameter passed two levels down, and after the delete
// nothing of theirs left in the world.
#include <catch2/catch.hpp>

#include "cli_fixture.h"
#include "stack_outputs.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;
using ms::test::Output;

const std::string kSource = MOONSTACK_SOURCE_DIR;

// The ```sh blocks of the README section `heading`, in order.
std::vector<std::string> ShellBlocks(const std::string& heading) {
  std::ifstream in(kSource + "/README.md");
  REQUIRE(in.good());
  std::vector<std::string> blocks;
  std::string line;
  bool in_section = false, in_block = false;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0 && !in_block) {
      if (in_section) break;
      in_section = line == heading;
      continue;
    }
    if (!in_section) continue;
    if (line == "```sh") {
      in_block = true;
      blocks.emplace_back();
    } else if (line == "```") {
      in_block = false;
    } else if (in_block) {
      blocks.back() += line + "\n";
    }
  }
  return blocks;
}

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

// Runs a README block from the source directory, with this test's binary
// and state file; its output, and it must succeed.
void RunBlock(const ms::test::CliFixture& cli, std::string block) {
  block = ReplaceAll(block, "export MOONSTACK_STATE=/tmp/nested/state.db", "export MOONSTACK_STATE=" + cli.dir + "/state.db");
  block = ReplaceAll(block, "build/host/moonstack", MOONSTACK_BINARY);
  const std::string script = cli.Write("block.sh", "set -euo pipefail\nexport MOONSTACK_STATE=" + cli.dir +
                                                       "/state.db\ncd " + kSource + "\n" + block);
  ms::test::CommandResult r = ms::test::RunCommand("bash " + script + " 2>&1");
  INFO(block << "\n" << r.out);
  REQUIRE(r.exit_code == 0);
}

std::vector<std::string> StackStatuses(const ms::test::CliFixture& cli, const std::string& stack) {
  std::vector<std::string> out;
  const json events = cli.Json("describe-stack-events --stack-name " + stack)["StackEvents"];
  for (const json& e : events) {
    if (e["PhysicalResourceId"] == e["StackId"]) out.insert(out.begin(), e["ResourceStatus"].get<std::string>());
  }
  return out;
}

std::string PhysicalId(const ms::test::CliFixture& cli, const std::string& stack, const std::string& logical) {
  return cli.Json("describe-stack-resource --stack-name " + stack + " --logical-resource-id " + logical)
      ["StackResourceDetail"]["PhysicalResourceId"];
}

}  // namespace

TEST_CASE("nested example: README's commands deploy, update and delete examples/templates/nested",
          "[cli][nested][examples]") {
  const std::vector<std::string> blocks = ShellBlocks("### Nested stacks");
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].find("export MOONSTACK_STATE=/tmp/nested/state.db") != std::string::npos);
  ms::test::CliFixture cli("nested_example", "readme");

  RunBlock(cli, blocks[0]);
  const json app = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  const std::string app_id = app["StackId"];
  CHECK(app["StackStatus"] == "CREATE_COMPLETE");
  const std::string queue_url = "https://sqs.us-east-1.amazonaws.com/123456789012/dev-work";
  const std::string topic = "arn:aws:sns:us-east-1:123456789012:dev-alerts";
  CHECK(Output(app, "WorkQueueUrl") == queue_url);
  CHECK(Output(app, "AlertTopicArn") == topic);
  const std::string queues = PhysicalId(cli, "app", "Queues"), alerts = PhysicalId(cli, "app", "Alerts");
  const std::string settings = PhysicalId(cli, alerts, "Settings");
  const auto parameter = [&](const std::string& name) {
    return cli.Json("world call ssm GetParameter '{\"Name\":\"" + name + "\"}'")["Parameter"]["Value"];
  };
  CHECK(parameter("/dev/work-queue-url") == queue_url);
  CHECK(parameter("/dev/alert-topic") == topic);  // two levels down
  CHECK(cli.Json("list-stacks")["StackSummaries"].size() == 4);
  struct Child {
    std::string id, parent;
  };
  for (const Child& c : std::vector<Child>{{queues, app_id}, {alerts, app_id}, {settings, alerts}}) {
    const json s = cli.Json("describe-stacks --stack-name " + c.id)["Stacks"][0];
    INFO(s.dump());
    CHECK(s["ParentId"] == c.parent);
    CHECK(s["RootId"] == app_id);
    CHECK(StackStatuses(cli, c.id) == std::vector<std::string>{"CREATE_IN_PROGRESS", "CREATE_COMPLETE"});
  }
  CHECK(StackStatuses(cli, "app") ==
        std::vector<std::string>{"REVIEW_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_COMPLETE"});

  RunBlock(cli, blocks[1]);
  CHECK(StackStatuses(cli, app_id) ==
        std::vector<std::string>{"REVIEW_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS",
                                 "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_COMPLETE", "DELETE_IN_PROGRESS",
                                 "DELETE_COMPLETE"});
  for (const std::string& child : {queues, alerts, settings}) {
    INFO(child);
    CHECK(StackStatuses(cli, child) ==
          std::vector<std::string>{"CREATE_IN_PROGRESS", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS",
                                   "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_COMPLETE", "DELETE_IN_PROGRESS",
                                   "DELETE_COMPLETE"});
  }
  // The update replaced the queues (new names): the prod one made, the dev
  // one deleted in the cleanup; the delete took the prod one.
  const std::string dev = "https://sqs.us-east-1.amazonaws.com/123456789012/dev-work";
  const std::string prod = "https://sqs.us-east-1.amazonaws.com/123456789012/prod-work";
  std::vector<std::string> work;
  const json events = cli.Json("describe-stack-events --stack-name " + queues)["StackEvents"];
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if ((*it)["LogicalResourceId"] != "Work") continue;
    work.push_back((*it)["ResourceStatus"].get<std::string>() + " " + it->value("PhysicalResourceId", ""));
  }
  CHECK(work == std::vector<std::string>{"CREATE_IN_PROGRESS ", "CREATE_IN_PROGRESS " + dev, "CREATE_COMPLETE " + dev,
                                         "UPDATE_IN_PROGRESS " + dev, "UPDATE_IN_PROGRESS " + prod,
                                         "UPDATE_COMPLETE " + prod, "DELETE_IN_PROGRESS " + dev,
                                         "DELETE_COMPLETE " + dev, "DELETE_IN_PROGRESS " + prod,
                                         "DELETE_COMPLETE " + prod});
  CHECK(cli.Json("world list --kind sqs.queue")["Records"].empty());
  CHECK(cli.Json("world list --kind sns.topic")["Records"].empty());
  CHECK(cli.Json("world list --kind ssm.parameter")["Records"].empty());
}
