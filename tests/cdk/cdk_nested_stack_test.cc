// A CDK NestedStack app deployed as `cdk synth` wrote it
// (examples/cdk/nested-stacks, fixtures/nested-stacks/v1, v2): a parent with
// two nested stacks, one of them with a nested stack of its own. CDK makes
// each nested template a file asset and names it in the Stack resource's
// TemplateURL as
//   Fn::Join ["", ["https://s3.", Ref AWS::Region, ".", Ref AWS::URLSuffix, "/",
//                  Fn::Sub "cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}", "/<hash>.json"]]
// which here is https://s3.us-east-1.amazonaws.com/cdk-hnb659fds-assets-
// 123456789012-us-east-1/<hash>.json: the test publishes the assets there
// first (as `cdk deploy` does, from the asset manifest), with `world call s3
// PutObject`, then deploys the parent, updates it to v2 and deletes it.
// Checked: each stack's exact status sequence, ParentId/RootId, the queue URL
// the parent reads with Fn::GetAtt Queues.Outputs.X, the parent's topic
// passed down as a Parameter, v2's changes in the world, and after the
// delete the world holding nothing the stacks made.
#include <catch2/catch.hpp>

#include "cli/cli_fixture.h"
#include "cli/stack_outputs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ms::test::Output;

const std::string kFixtures = std::string(MOONSTACK_SOURCE_DIR) + "/tests/cdk/fixtures/nested-stacks/";
const std::string kBucket = "cdk-hnb659fds-assets-123456789012-us-east-1";

// The Stack resources' logical IDs, as CDK names them.
const std::string kQueues = "QueuesNestedStackQueuesNestedStackResource6C8EF01A";
const std::string kAlerts = "AlertsNestedStackAlertsNestedStackResource77835435";
const std::string kSettings = "SettingsNestedStackSettingsNestedStackResource09DBED29";

json ReadJson(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return json::parse(in);
}

// Publishes a version's nested templates as `cdk deploy` does: each file
// asset of Parent.assets.json to its objectKey in the bootstrap bucket.
// The number of templates published.
size_t PublishAssets(const ms::test::CliFixture& cli, const std::string& version) {
  const json files = ReadJson(kFixtures + version + "/Parent.assets.json")["files"];
  size_t n = 0;
  for (const auto& [hash, asset] : files.items()) {
    const std::string source = asset["source"]["path"];
    if (source.find(".nested.template.json") == std::string::npos) continue;
    for (const auto& [dest_id, dest] : asset["destinations"].items()) {
      CHECK(dest["bucketName"] == "cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}");
      std::ifstream in(kFixtures + version + "/" + source);
      REQUIRE(in.good());
      const std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      cli.Write("put.json", json{{"Bucket", kBucket}, {"Key", dest["objectKey"]}, {"Body", body}}.dump());
      cli.Json("world call s3 PutObject \"$(cat put.json)\"");
      ++n;
    }
  }
  return n;
}

// The statuses of the stack itself in its events, oldest first.
std::vector<std::string> StackStatuses(const ms::test::CliFixture& cli, const std::string& stack) {
  std::vector<std::string> out;
  const json events = cli.Json("describe-stack-events --stack-name " + stack)["StackEvents"];
  for (const json& e : events) {
    if (e["ResourceType"] == "AWS::CloudFormation::Stack" && e["PhysicalResourceId"] == e["StackId"]) {
      out.insert(out.begin(), e["ResourceStatus"].get<std::string>());
    }
  }
  return out;
}

std::string PhysicalId(const ms::test::CliFixture& cli, const std::string& stack, const std::string& logical) {
  return cli.Json("describe-stack-resource --stack-name " + stack + " --logical-resource-id " + logical)
      ["StackResourceDetail"]["PhysicalResourceId"];
}

// Every physical ID a stack's events name for a resource that is not a
// stack (the resources it made, replaced ones too).
std::set<std::string> MadeByEvents(const ms::test::CliFixture& cli, const std::string& stack) {
  std::set<std::string> out;
  const json events = cli.Json("describe-stack-events --stack-name " + stack)["StackEvents"];
  for (const json& e : events) {
    const std::string type = e["ResourceType"];
    if (type == "AWS::CloudFormation::Stack" || type == "AWS::CDK::Metadata") continue;
    if (!e.value("PhysicalResourceId", "").empty()) out.insert(e["PhysicalResourceId"].get<std::string>());
  }
  return out;
}

// "Kind Id" of every live record of the world but the clock's and ID generator's.
std::set<std::string> WorldRecords(const ms::test::CliFixture& cli) {
  std::set<std::string> out;
  const json records = cli.Json("world list")["Records"];
  for (const json& r : records) {
    const std::string kind = r["Kind"];
    if (kind == "moonstack" || kind == "sim" || !r.value("Live", true)) continue;
    out.insert(kind + " " + r["Id"].get<std::string>());
  }
  return out;
}

// Whether the world has a record for the physical ID (a queue's URL, a
// topic's ARN, a parameter's name): a record whose Id ends with its name.
bool InWorld(const std::set<std::string>& world, const std::string& physical_id) {
  std::string name = physical_id.substr(physical_id.find_last_of("/:") + 1);
  for (const std::string& r : world) {
    if (r.size() >= name.size() && r.compare(r.size() - name.size(), name.size(), name) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("cdk nested stacks: assets published to the bootstrap bucket, create, update to v2, delete",
          "[cdk][cli][nested]") {
  ms::test::CliFixture cli("cdk_nested", "lifecycle");
  // What `cdk bootstrap` leaves in the account: the version the parent's
  // CheckBootstrapVersion rule reads and the assets bucket.
  cli.Json("world call ssm PutParameter '{\"Name\":\"/cdk-bootstrap/hnb659fds/version\",\"Value\":\"30\","
           "\"Type\":\"String\"}'");
  cli.Json("world call s3 CreateBucket '{\"Bucket\":\"" + kBucket + "\"}'");
  const auto deploy = [&](const std::string& version) {
    ms::test::CommandResult r = cli("deploy --template-file " + kFixtures + version +
                                    "/Parent.template.json --stack-name Parent");
    INFO(version << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
  };

  // The parent without its assets: the Queues template is not in the bucket.
  ms::test::CommandResult early =
      cli("deploy --template-file " + kFixtures + "v1/Parent.template.json --stack-name Early");
  CHECK(early.exit_code != 0);
  CHECK(cli.Status("Early") == "ROLLBACK_COMPLETE");
  const std::vector<std::string> early_events = cli.Events("Early", 0);
  CHECK(std::find(early_events.begin(), early_events.end(),
                  kAlerts + " CREATE_FAILED S3 error: The specified key does not exist. For more information check "
                            "http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html") != early_events.end());
  CHECK(cli("delete-stack --stack-name Early").exit_code == 0);

  REQUIRE(PublishAssets(cli, "v1") == 3);
  const std::set<std::string> baseline = WorldRecords(cli);

  deploy("v1");
  const json parent = cli.Json("describe-stacks --stack-name Parent")["Stacks"][0];
  const std::string parent_id = parent["StackId"];
  CHECK(StackStatuses(cli, "Parent") ==
        std::vector<std::string>{"REVIEW_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_COMPLETE"});

  // The three nested stacks: names, parents, root, statuses.
  const std::string queues = PhysicalId(cli, "Parent", kQueues), alerts = PhysicalId(cli, "Parent", kAlerts);
  const std::string settings = PhysicalId(cli, alerts, kSettings);
  struct Nested {
    std::string id, parent, name_pattern;
  };
  const std::vector<Nested> nested = {
      {queues, parent_id, "Parent-" + kQueues + "-[A-Z0-9]{13}"},
      {alerts, parent_id, "Parent-" + kAlerts + "-[A-Z0-9]{13}"},
      {settings, alerts, "Parent-" + kAlerts + "-[A-Z0-9]{13}-Settings[A-Za-z0-9]*-[A-Z0-9]{13}"},
  };
  for (const Nested& n : nested) {
    const json s = cli.Json("describe-stacks --stack-name " + n.id)["Stacks"][0];
    INFO(s.dump());
    CHECK(s["StackId"] == n.id);
    CHECK(std::regex_match(s["StackName"].get<std::string>(), std::regex(n.name_pattern)));
    CHECK(s["StackName"].get<std::string>().size() <= 128);
    CHECK(s["ParentId"] == n.parent);
    CHECK(s["RootId"] == parent_id);
    CHECK(StackStatuses(cli, n.id) == std::vector<std::string>{"CREATE_IN_PROGRESS", "CREATE_COMPLETE"});
  }

  // The queue URL crosses up (Fn::GetAtt Queues.Outputs.ParentQueuesWork62010040Ref)
  // into the parent's output and SSM parameter; the topic ARN crosses down
  // (the Queues stack's Parameter) into Queues' SSM parameter.
  const std::string work = PhysicalId(cli, queues, "WorkBF636A8B");
  CHECK(std::regex_match(work, std::regex("https://sqs\\.us-east-1\\.amazonaws\\.com/123456789012/"
                                          "Parent-QueuesNestedStackQueuesNested[A-Za-z0-9-]*-[A-Za-z0-9]{12}")));
  CHECK(Output(cli.Json("describe-stacks --stack-name " + queues)["Stacks"][0], "ParentQueuesWork62010040Ref") == work);
  CHECK(Output(parent, "WorkQueue") == work);
  const auto parameter = [&](const std::string& name) {
    return cli.Json("world call ssm GetParameter '{\"Name\":\"" + name + "\"}'")["Parameter"]["Value"];
  };
  CHECK(parameter(PhysicalId(cli, "Parent", "WorkQueueUrl86CE4384")) == work);
  const std::string topic = Output(parent, "TopicArnOut");
  CHECK(std::regex_match(topic, std::regex("arn:aws:sns:us-east-1:123456789012:Parent-EventsD32975C2-[A-Za-z0-9]{12}")));
  CHECK(parameter(PhysicalId(cli, queues, "TopicArnCF7DD223")) == topic);
  CHECK(parameter(PhysicalId(cli, settings, "LevelB224B7C3")) == "warn");
  const auto visibility = [&] {
    return cli.Json("world call sqs GetQueueAttributes '{\"QueueUrl\":\"" + work +
                    "\",\"AttributeNames\":[\"VisibilityTimeout\"]}'")["Attributes"]["VisibilityTimeout"];
  };
  CHECK(visibility() == "30");
  {
    const std::set<std::string> world = WorldRecords(cli);
    for (const std::string& stack : {parent_id, queues, alerts, settings}) {
      for (const std::string& id : MadeByEvents(cli, stack)) {
        INFO(stack << " " << id);
        CHECK(InWorld(world, id));
      }
    }
  }

  // v2 changes the nested stacks only: published under new keys (new
  // hashes), so the parent's TemplateURLs change and each nested stack is
  // updated, Settings through Alerts.
  const std::set<std::string> before_v2 = WorldRecords(cli);
  REQUIRE(PublishAssets(cli, "v2") == 3);
  std::set<std::string> published_v2;
  for (const std::string& r : WorldRecords(cli)) {
    if (before_v2.count(r) == 0) published_v2.insert(r);
  }
  CHECK(published_v2.size() == 3);
  deploy("v2");
  CHECK(StackStatuses(cli, "Parent") ==
        std::vector<std::string>{"REVIEW_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS",
                                 "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_COMPLETE"});
  for (const Nested& n : nested) {
    INFO(n.id);
    CHECK(StackStatuses(cli, n.id) ==
          std::vector<std::string>{"CREATE_IN_PROGRESS", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS",
                                   "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_COMPLETE"});
  }
  CHECK(PhysicalId(cli, queues, "WorkBF636A8B") == work);  // VisibilityTimeout: updated in place
  CHECK(visibility() == "120");
  CHECK(parameter(PhysicalId(cli, settings, "Channel4048F119")) == "ops");
  CHECK(Output(cli.Json("describe-stacks --stack-name Parent")["Stacks"][0], "WorkQueue") == work);

  // Delete: every stack DELETE_COMPLETE, and the world holds what it held
  // before the create and the published v2 templates: nothing the events
  // name is left.
  std::set<std::string> made;
  for (const std::string& stack : {parent_id, queues, alerts, settings}) {
    for (const std::string& id : MadeByEvents(cli, stack)) made.insert(id);
  }
  REQUIRE(cli("delete-stack --stack-name Parent").exit_code == 0);
  for (const std::string& stack : {parent_id, queues, alerts, settings}) {
    INFO(stack);
    const std::vector<std::string> statuses = StackStatuses(cli, stack);
    REQUIRE(statuses.size() >= 2);
    CHECK(std::vector<std::string>(statuses.end() - 2, statuses.end()) ==
          std::vector<std::string>{"DELETE_IN_PROGRESS", "DELETE_COMPLETE"});
  }
  const std::set<std::string> after = WorldRecords(cli);
  std::set<std::string> left;
  for (const std::string& r : after) {
    if (baseline.count(r) == 0 && published_v2.count(r) == 0) left.insert(r);
  }
  CHECK(left == std::set<std::string>{});
  for (const std::string& r : baseline) CHECK(after.count(r) == 1);
  for (const std::string& id : made) {
    INFO(id);
    CHECK_FALSE(InWorld(after, id));
  }
}
