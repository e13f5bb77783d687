// Six typical CDK apps, deployed as `cdk synth` wrote them (the committed
// fixtures; scripts/cdk_synth.sh regenerates them from examples/cdk/): each
// stack is created with `moonstack deploy` (a change set, as `cdk deploy`
// does), updated to the app's second version, and deleted, against the
// built-in providers in virtual time. Checked: the stack's status sequence
// exactly, every resource ending *_COMPLETE, each resource's physical ID in
// the world after the create and gone after the delete, and Ref/GetAtt
// values (read through the stacks' Outputs) in AWS's formats.
//
#include <catch2/catch.hpp>

#include "cli/cli_fixture.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kFixtures = std::string(MOONSTACK_SOURCE_DIR) + "/tests/cdk/fixtures/";

struct Check {
  std::string output;  // an output of the stack
  std::string pattern;  // ECMAScript regex its value matches
};

struct App {
  std::string name;
  std::vector<std::string> stacks;  // deploy order; deleted in reverse
  std::map<std::string, std::vector<Check>> checks;  // per stack, after create and after update
  std::map<std::string, std::vector<Check>> v2 = {};  // per stack, what v2 changed, after the update
};

const std::string kAccount = "123456789012", kRegion = "us-east-1";

const std::vector<App> kApps = {
    {"vpc-sg", {"VpcSg"},
     {{"VpcSg", {{"VpcId", "^vpc-[0-9a-f]{17}$"}, {"WebGroupId", "^sg-[0-9a-f]{17}$"},
                 {"PrivateSubnet", "^subnet-[0-9a-f]{17}$"}}}}},
    {"queue-topic-lambda", {"QueueTopicLambda"},
     {{"QueueTopicLambda",
       {{"WorkerArn", "^arn:aws:lambda:us-east-1:123456789012:function:QueueTopicLambda-Worker11F36D0F-[A-Za-z0-9]{12}$"},
        {"QueueArn", "^arn:aws:sqs:us-east-1:123456789012:QueueTopicLambda-WorkBF636A8B-[A-Za-z0-9]{12}$"},
        {"QueueUrl", "^https://sqs\\.us-east-1\\.amazonaws\\.com/123456789012/QueueTopicLambda-WorkBF636A8B-[A-Za-z0-9]{12}$"},
        {"TopicArn", "^arn:aws:sns:us-east-1:123456789012:QueueTopicLambda-EventsD32975C2-[A-Za-z0-9]{12}$"}}}}},
    {"bucket-policy", {"BucketPolicy"},
     {{"BucketPolicy",
       {{"BucketName", "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$"},
        {"BucketArn", "^arn:aws:s3:::[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$"},
        {"BucketDomain", "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\\.s3\\.us-east-1\\.amazonaws\\.com$"}}}}},
    {"table-api", {"TableApi"},
     {{"TableApi",
       {{"HandlerArn", "^arn:aws:lambda:us-east-1:123456789012:function:TableApi-Handler886CB40B-[A-Za-z0-9]{12}$"},
        {"TableName", "^TableApi-Items5C12978B-[A-Za-z0-9]{12}$"},
        {"TableArn", "^arn:aws:dynamodb:us-east-1:123456789012:table/TableApi-Items5C12978B-[A-Za-z0-9]{12}$"}}}}},
    {"multi-stack", {"Shared", "Consumer"},
     {{"Shared", {{"PublishOutputRefReports65402A0A8340A040", "^shared-reports65402a0a-[a-z0-9]{12}$"}}},
      {"Consumer",
       {{"ReporterArn", "^arn:aws:lambda:us-east-1:123456789012:function:Consumer-Reporter08098DAC-[A-Za-z0-9]{12}$"}}}},
     {{"Shared", {{"PublishOutputRefJobsDF1CC2D45C75C64D",
                  "^https://sqs\\.us-east-1\\.amazonaws\\.com/123456789012/Shared-JobsDF1CC2D4-[A-Za-z0-9]{12}$"}}}}},
    {"custom-resource", {"CustomResource"},
     {{"CustomResource", {{"TicketId", "^ticket-(green|blue)-[0-9]+$"}, {"TicketValueOut", "^(green|blue)-[0-9]+$"}}}},
     // v2's handler answers the Update with a new PhysicalResourceId: a replacement, the v1 ticket deleted in cleanup.
     {{"CustomResource", {{"TicketId", "^ticket-blue-[0-9]+$"}, {"TicketValueOut", "^blue-[0-9]+$"}}}}},
};

struct Cli : ms::test::CliFixture {
  // Virtual time starts on a fixed day: the apps' functions are nodejs22.x,
  // which Lambda stops creating on 2027-06-01 (providers/sim/lambda_runtimes.lua).
  explicit Cli(const std::string& name) : CliFixture("cdk_apps", name) {
    env = "MOONSTACK_START_TIME=2026-11-28T00:00:00Z";
  }

  // The statuses of the stack itself in its events, oldest first (`stack`: a
  // name, or a deleted stack's ID with its name in `name`).
  std::vector<std::string> StackStatuses(const std::string& stack, const std::string& name) const {
    std::vector<std::string> out;
    for (const std::string& e : Events(stack, 0)) {
      if (e.rfind(name + " ", 0) != 0) continue;
      const size_t from = name.size() + 1;
      out.push_back(e.substr(from, e.find(' ', from) - from));
    }
    return out;
  }
  json Resources(const std::string& stack) const {
    return Json("describe-stack-resources --stack-name " + stack)["StackResources"];
  }
  std::map<std::string, std::string> Outputs(const std::string& stack) const {
    std::map<std::string, std::string> out;
    json s = Json("describe-stacks --stack-name " + stack)["Stacks"][0];
    for (const json& o : s.value("Outputs", json::array())) out[o["OutputKey"]] = o["OutputValue"];
    return out;
  }
  // The world's record IDs, lower-cased, also without a "<region>:" prefix
  // (providers key some records by region, some lower-case names).
  std::set<std::string> WorldIds() const {
    std::set<std::string> ids;
    const json records = Json("world list")["Records"];
    for (const json& r : records) {
      std::string id = r["Id"];
      std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
      ids.insert(id);
      if (id.rfind("us-east-1:", 0) == 0) ids.insert(id.substr(10));
    }
    return ids;
  }
};

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Types whose resources have no world record of their own: a custom
// resource is whatever its handler says (here the test's own, which keeps
// nothing); an inline IAM policy lives in its role's record, a queue's or
// topic's policy in the queue's or topic's, a Lambda permission in its
// function's policy, a route in its route table, a gateway attachment in
// its gateway.
bool InWorldExpected(const std::string& type) {
  return type.rfind("Custom::", 0) != 0 && type != "AWS::IAM::Policy" && type != "AWS::SQS::QueuePolicy" &&
         type != "AWS::SNS::TopicPolicy" && type != "AWS::Lambda::Permission" && type != "AWS::EC2::Route" &&
         type != "AWS::EC2::VPCGatewayAttachment";
}

// The key of a resource's world record, from its physical ID: an SQS
// queue's Ref is its URL and an SNS topic's its ARN, whose last part is the
// name the record is kept under.
std::string WorldKeyOf(const std::string& type, const std::string& id) {
  if (type == "AWS::SQS::Queue") return id.substr(id.rfind('/') + 1);
  if (type == "AWS::SNS::Topic") return id.substr(id.rfind(':') + 1);
  if (type == "AWS::DynamoDB::Table") return "us-east-1/" + id;  // tables are keyed per region
  return id;
}

// An app's own providers (custom-resource's handler) are beside its templates.
std::string ProvidersOption(const std::string& app) {
  const std::string dir = kFixtures + app + "/providers";
  return fs::exists(dir) ? " --providers " + dir : std::string();
}

void Deploy(const Cli& cli, const std::string& app, const std::string& version, const std::string& stack) {
  const std::string file = kFixtures + app + "/" + version + "/" + stack + ".template.json";
  REQUIRE(fs::exists(file));
  ms::test::CommandResult r = cli("deploy --template-file " + file + " --stack-name " + stack +
                                  " --capabilities CAPABILITY_IAM CAPABILITY_NAMED_IAM" + ProvidersOption(app));
  INFO(app << " " << version << " " << stack << "\n" << r.out);
  REQUIRE(r.exit_code == 0);
}

void CheckFormats(const Cli& cli, const std::string& stack, const std::vector<Check>& checks) {
  const std::map<std::string, std::string> outputs = cli.Outputs(stack);
  for (const Check& c : checks) {
    INFO(stack << " " << c.output);
    REQUIRE(outputs.count(c.output) == 1);
    CHECK(std::regex_match(outputs.at(c.output), std::regex(c.pattern)));
  }
}

// Every resource in one of `statuses`, its physical resource in the world.
void CheckResources(const Cli& cli, const std::string& stack, const std::set<std::string>& statuses) {
  const std::set<std::string> world = cli.WorldIds();
  for (const json& r : cli.Resources(stack)) {
    INFO(stack << " " << r.dump());
    CHECK(statuses.count(r["ResourceStatus"].get<std::string>()) == 1);
    const std::string id = r.value("PhysicalResourceId", "");
    REQUIRE(!id.empty());
    if (InWorldExpected(r["ResourceType"])) CHECK(world.count(Lower(WorldKeyOf(r["ResourceType"], id))) == 1);
  }
}

void RunApp(const App& app) {
  Cli cli(app.name);
  // What `cdk bootstrap` leaves in the account (bootstrap_test.cc deploys the real thing).
  cli.Json("world call ssm PutParameter '{\"Name\":\"/cdk-bootstrap/hnb659fds/version\",\"Value\":\"30\","
           "\"Type\":\"String\"}'");
  const json baseline = cli.Json("world list")["Records"];

  for (const std::string& stack : app.stacks) {
    Deploy(cli, app.name, "v1", stack);
    CHECK(cli.StackStatuses(stack, stack) ==
          std::vector<std::string>{"REVIEW_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_COMPLETE"});
    CheckResources(cli, stack, {"CREATE_COMPLETE"});
    if (app.checks.count(stack)) CheckFormats(cli, stack, app.checks.at(stack));
  }
  for (const std::string& stack : app.stacks) {
    Deploy(cli, app.name, "v2", stack);
    CHECK(cli.StackStatuses(stack, stack) ==
          std::vector<std::string>{"REVIEW_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS",
                                   "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_COMPLETE"});
    CheckResources(cli, stack, {"CREATE_COMPLETE", "UPDATE_COMPLETE"});
    if (app.checks.count(stack)) CheckFormats(cli, stack, app.checks.at(stack));
    if (app.v2.count(stack)) CheckFormats(cli, stack, app.v2.at(stack));
  }
  // Resources with DeletionPolicy Retain (CDK's default for buckets, API
  // Gateway's account and its role...) outlive their stack, as on AWS.
  std::set<std::string> retained;
  for (const std::string& stack : app.stacks) {
    std::ifstream in(kFixtures + app.name + "/v2/" + stack + ".template.json");
    const json resources = json::parse(in)["Resources"];
    const json deployed = cli.Resources(stack);
    for (const json& r : deployed) {
      const json& decl = resources[r["LogicalResourceId"].get<std::string>()];
      if (decl.value("DeletionPolicy", "") == "Retain") retained.insert(Lower(r["PhysicalResourceId"]));
    }
  }
  for (auto it = app.stacks.rbegin(); it != app.stacks.rend(); ++it) {
    const std::string id = cli.Json("describe-stacks --stack-name " + *it)["Stacks"][0]["StackId"];
    REQUIRE(cli("delete-stack --stack-name " + *it + ProvidersOption(app.name)).exit_code == 0);
    const std::vector<std::string> statuses = cli.StackStatuses(id, *it);
    REQUIRE(statuses.size() >= 2);
    CHECK(std::vector<std::string>(statuses.end() - 2, statuses.end()) ==
          std::vector<std::string>{"DELETE_IN_PROGRESS", "DELETE_COMPLETE"});
  }
  // The world holds exactly what it held before and the retained resources:
  // everything else the stacks made (replaced resources included) is gone.
  json after = cli.Json("world list")["Records"];
  std::set<std::string> before_ids, after_ids;
  auto collect = [](const json& records, std::set<std::string>* out) {
    for (const json& r : records) {
      const std::string kind = r["Kind"];
      if (kind == "moonstack" || kind == "sim") continue;  // the clock and the ID generator's state
      if (!r.value("Live", true)) continue;  // history, as AWS keeps it (a deleted NAT gateway stays describable)
      out->insert(kind + " " + r["Id"].get<std::string>());
    }
  };
  collect(baseline, &before_ids);
  collect(after, &after_ids);
  std::set<std::string> left;
  for (const std::string& record : after_ids) {
    if (before_ids.count(record) == 0) left.insert(Lower(record.substr(record.find(' ') + 1)));
  }
  CHECK(left == retained);
  for (const std::string& record : before_ids) CHECK(after_ids.count(record) == 1);
}

}  // namespace

TEST_CASE("cdk app vpc-sg: deploys as synthesized, updates to v2, deletes", "[cdk][cli]") { RunApp(kApps[0]); }
TEST_CASE("cdk app queue-topic-lambda: deploys as synthesized, updates to v2, deletes", "[cdk][cli]") {
  RunApp(kApps[1]);
}
TEST_CASE("cdk app bucket-policy: deploys as synthesized, updates to v2, deletes", "[cdk][cli]") { RunApp(kApps[2]); }
TEST_CASE("cdk app table-api: deploys as synthesized, updates to v2, deletes", "[cdk][cli]") { RunApp(kApps[3]); }
TEST_CASE("cdk app multi-stack: Fn::GetStackOutput across stacks, updates to v2, deletes", "[cdk][cli]") {
  RunApp(kApps[4]);
}
TEST_CASE("cdk app custom-resource: a Lambda-backed custom resource, updates to v2, deletes", "[cdk][cli]") {
  RunApp(kApps[5]);
}
