// Seed 004's update policies other than Auto Scaling's, as a user runs them
// through the real binary against the built-in providers and the simulated
// cloud, in virtual time: each policy with and without it, the exact event
// sequence (statuses, reasons, physical IDs kept or changed, simulated
// durations) and the world afterwards.
//   UseOnlineResharding       AWS::ElastiCache::ReplicationGroup
//   EnableVersionUpgrade      AWS::OpenSearchService::Domain
//   CodeDeployLambdaAliasUpdate AWS::Lambda::Alias (+ CodeDeploy application and group)
//   StopBeforeUpdate / StartAfterUpdate AWS::AppStream::Fleet
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <ctime>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using Run = ms::test::CommandResult;
using nlohmann::json;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("update_policies_cli", name) {}

  // The stack's events from `from` on, oldest first.
  json EventsFrom(const std::string& stack, size_t from) const {
    json all = Json("describe-stack-events --stack-name " + stack)["StackEvents"];
    json out = json::array();
    for (auto it = all.rbegin(); it != all.rend(); ++it) out.push_back(*it);
    json tail = json::array();
    for (size_t i = from; i < out.size(); ++i) tail.push_back(out[i]);
    return tail;
  }
  size_t EventCount(const std::string& stack) const {
    return Json("describe-stack-events --stack-name " + stack)["StackEvents"].size();
  }
  std::string Physical(const std::string& stack, const std::string& logical) const {
    return Json("describe-stack-resource --stack-name " + stack + " --logical-resource-id " + logical)
        ["StackResourceDetail"]["PhysicalResourceId"];
  }
  json World(const std::string& service, const std::string& action, const std::string& params) const {
    return Json("world call " + service + " " + action + " '" + params + "'");
  }
  // The stack created from `body` with parameter Key=`from`, its resource
  // `logical`'s physical ID noted in *before, then updated (previous
  // template) with Key=`to`: that update's events.
  json CreateThenUpdate(const std::string& stack, const std::string& body, const std::string& logical,
                        const std::string& key, const std::string& from, const std::string& to,
                        std::string* before) const {
    const std::string t = Write(stack + ".json", body);
    Json("create-stack --stack-name " + stack + " --template-body file://" + t + " --parameters ParameterKey=" + key +
         ",ParameterValue=" + from);
    *before = Physical(stack, logical);
    const size_t created = EventCount(stack);
    Json("update-stack --stack-name " + stack + " --use-previous-template --parameters ParameterKey=" + key +
         ",ParameterValue=" + to);
    return EventsFrom(stack, created);
  }
};

// "Logical STATUS reason", as CliFixture::Events prints them.
std::vector<std::string> Lines(const json& events) {
  std::vector<std::string> out;
  for (const json& e : events) {
    out.push_back(e["LogicalResourceId"].get<std::string>() + " " + e["ResourceStatus"].get<std::string>() + " " +
                  e.value("ResourceStatusReason", ""));
  }
  return out;
}

// Seconds since the epoch of "2026-11-26T10:59:47.066000+00:00".
long Seconds(const std::string& timestamp) {
  std::tm tm{};
  strptime(timestamp.substr(0, 19).c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  return static_cast<long>(timegm(&tm));
}

// Simulated seconds between the first events of `logical` with statuses `a` and `b`.
long Between(const json& events, const std::string& logical, const std::string& a, const std::string& b) {
  long ta = -1, tb = -1;
  for (const json& e : events) {
    if (e["LogicalResourceId"] != logical) continue;
    if (ta < 0 && e["ResourceStatus"] == a) ta = Seconds(e["Timestamp"]);
    if (tb < 0 && e["ResourceStatus"] == b) tb = Seconds(e["Timestamp"]);
  }
  REQUIRE(ta >= 0);
  REQUIRE(tb >= 0);
  return tb - ta;
}

const std::string kReplacing =
    "UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.";

// A replication group of `Shards` shards; `policy`: its UpdatePolicy or "".
std::string Cache(const std::string& policy) {
  return R"({"Parameters": {"Shards": {"Type": "Number"}, "Online": {"Type": "String", "Default": "true"}},
    "Resources": {"Cache": {"Type": "AWS::ElastiCache::ReplicationGroup", )" +
         (policy.empty() ? std::string() : R"("UpdatePolicy": )" + policy + ", ") +
         R"("Properties": {"ReplicationGroupDescription": "sessions", "CacheNodeType": "cache.t3.micro",
                          "NumNodeGroups": {"Ref": "Shards"}, "ReplicasPerNodeGroup": 1}}}})";
}

std::vector<std::string> NodeGroupIds(const Cli& cli, const std::string& id) {
  json g = cli.World("elasticache", "DescribeReplicationGroups", R"({"ReplicationGroupId": ")" + id + R"("})");
  std::vector<std::string> out;
  for (const json& ng : g["ReplicationGroups"][0]["NodeGroups"]) out.push_back(ng["NodeGroupId"]);
  return out;
}

}  // namespace

TEST_CASE("UseOnlineResharding: a shard change in place, the group kept, without it a replacement",
          "[cli][update_policy]") {
  SECTION("with the policy") {
    Cli cli("resharding");
    // The policy's value as a parameter gives it: "true", a string.
    std::string id;
    json events =
        cli.CreateThenUpdate("rg", Cache(R"({"UseOnlineResharding": {"Ref": "Online"}})"), "Cache", "Shards", "2", "3", &id);
    CHECK(Lines(events) == std::vector<std::string>{
                               "rg UPDATE_IN_PROGRESS User Initiated",
                               "Cache UPDATE_IN_PROGRESS ",
                               "Cache UPDATE_COMPLETE ",
                               "rg UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                               "rg UPDATE_COMPLETE ",
                           });
    for (const json& e : events) {
      if (e["LogicalResourceId"] == "Cache") CHECK(e["PhysicalResourceId"] == id);
    }
    CHECK(Between(events, "Cache", "UPDATE_IN_PROGRESS", "UPDATE_COMPLETE") == 600);  // resharding time
    CHECK(cli.Physical("rg", "Cache") == id);
    CHECK(NodeGroupIds(cli, id) == std::vector<std::string>{"0001", "0002", "0003"});
  }
  SECTION("without the policy") {
    Cli cli("resharding_replaced");
    std::string old_id;
    CHECK(Lines(cli.CreateThenUpdate("rg", Cache(""), "Cache", "Shards", "2", "3", &old_id)) == std::vector<std::string>{
                                                      "rg UPDATE_IN_PROGRESS User Initiated",
                                                      "Cache " + kReplacing,
                                                      "Cache UPDATE_IN_PROGRESS Resource creation Initiated",
                                                      "Cache UPDATE_COMPLETE ",
                                                      "rg UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                                                      "Cache DELETE_IN_PROGRESS ",
                                                      "Cache DELETE_COMPLETE ",
                                                      "rg UPDATE_COMPLETE ",
                                                  });
    const std::string new_id = cli.Physical("rg", "Cache");
    CHECK(new_id != old_id);
    json all = cli.World("elasticache", "DescribeReplicationGroups", "{}")["ReplicationGroups"];
    REQUIRE(all.size() == 1);  // the old group is gone
    CHECK(all[0]["ReplicationGroupId"] == new_id);
    CHECK(NodeGroupIds(cli, new_id).size() == 3);
  }
}

TEST_CASE("EnableVersionUpgrade: an engine upgrade in place, a downgrade fails as AWS does, without it a replacement",
          "[cli][update_policy]") {
  auto domain = [](const std::string& policy) {
    return R"({"Parameters": {"Version": {"Type": "String"}},
      "Resources": {"Domain": {"Type": "AWS::OpenSearchService::Domain", )" +
           (policy.empty() ? std::string() : R"("UpdatePolicy": )" + policy + ", ") +
           R"("Properties": {"EngineVersion": {"Ref": "Version"}}}}})";
  };
  auto version = [](const Cli& cli, const std::string& name) {
    return cli.World("opensearch", "DescribeDomain", R"({"DomainName": ")" + name + R"("})")["DomainStatus"]
                    ["EngineVersion"]
                        .get<std::string>();
  };
  SECTION("with the policy") {
    Cli cli("upgrade");
    std::string name;
    json events = cli.CreateThenUpdate("search", domain(R"({"EnableVersionUpgrade": true})"), "Domain", "Version",
                                       "OpenSearch_2.11", "OpenSearch_2.13", &name);
    CHECK(Lines(events) == std::vector<std::string>{
                               "search UPDATE_IN_PROGRESS User Initiated",
                               "Domain UPDATE_IN_PROGRESS ",
                               "Domain UPDATE_COMPLETE ",
                               "search UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                               "search UPDATE_COMPLETE ",
                           });
    CHECK(Between(events, "Domain", "UPDATE_IN_PROGRESS", "UPDATE_COMPLETE") == 1200);
    CHECK(cli.Physical("search", "Domain") == name);
    CHECK(version(cli, name) == "OpenSearch_2.13");

    // A downgrade is refused by the service; the rollback finds nothing to undo.
    const size_t from = cli.EventCount("search");
    cli.Json("update-stack --stack-name search --use-previous-template "
             "--parameters ParameterKey=Version,ParameterValue=OpenSearch_2.11");
    CHECK(cli.Status("search") == "UPDATE_ROLLBACK_COMPLETE");
    CHECK(Lines(cli.EventsFrom("search", from)) ==
          std::vector<std::string>{
              "search UPDATE_IN_PROGRESS User Initiated",
              "Domain UPDATE_IN_PROGRESS ",
              "Domain UPDATE_FAILED Failed to submit upgrade. Upgrade from OpenSearch_2.13 to OpenSearch_2.11 not "
              "supported.",
              "search UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [Domain]. ",
              "Domain UPDATE_COMPLETE ",
              "search UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
              "search UPDATE_ROLLBACK_COMPLETE ",
          });
    CHECK(version(cli, name) == "OpenSearch_2.13");
  }
  SECTION("without the policy") {
    Cli cli("upgrade_replaced");
    std::string old_name;
    json events =
        cli.CreateThenUpdate("search", domain(""), "Domain", "Version", "OpenSearch_2.11", "OpenSearch_2.13", &old_name);
    CHECK(Lines(events) == std::vector<std::string>{
                               "search UPDATE_IN_PROGRESS User Initiated",
                               "Domain " + kReplacing,
                               "Domain UPDATE_IN_PROGRESS Resource creation Initiated",
                               "Domain UPDATE_COMPLETE ",
                               "search UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                               "Domain DELETE_IN_PROGRESS ",
                               "Domain DELETE_COMPLETE ",
                               "search UPDATE_COMPLETE ",
                           });
    CHECK(Between(events, "Domain", "UPDATE_IN_PROGRESS", "UPDATE_COMPLETE") == 900);  // a new domain's creation
    const std::string new_name = cli.Physical("search", "Domain");
    CHECK(new_name != old_name);
    CHECK(version(cli, new_name) == "OpenSearch_2.13");
    Run gone = cli("world call opensearch DescribeDomain '{\"DomainName\": \"" + old_name + "\"}'");
    CHECK(gone.exit_code != 0);
    CHECK(gone.out.find("Domain not found: " + old_name) != std::string::npos);
  }
}

namespace {

// A function whose code is the parameter Code, a Version of it (replaced,
// i.e. published anew, when Code changes), a hook function, a CodeDeploy
// application and group (DeploymentConfigName: Config) and the alias
// "live" on the version; `policy`: the alias's UpdatePolicy or "".
std::string Lambda(const std::string& policy) {
  return R"({"Parameters": {"Code": {"Type": "String"},
                            "Config": {"Type": "String", "Default": "CodeDeployDefault.LambdaAllAtOnce"}},
  "Resources": {
    "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"FunctionName": "app", "Runtime": "python3.12",
      "Handler": "index.handler", "Role": "arn:aws:iam::123456789012:role/app", "Code": {"ZipFile": {"Ref": "Code"}}}},
    "Version": {"Type": "AWS::Lambda::Version",
      "Properties": {"FunctionName": {"Ref": "Fn"}, "Description": {"Ref": "Code"}}},
    "PreHook": {"Type": "AWS::Lambda::Function", "Properties": {"FunctionName": "pre-traffic",
      "Runtime": "python3.13", "Handler": "index.handler", "Role": "arn:aws:iam::123456789012:role/app",
      "Code": {"ZipFile": "check"}}},
    "App": {"Type": "AWS::CodeDeploy::Application", "Properties": {"ApplicationName": "deployer", "ComputePlatform": "Lambda"}},
    "Group": {"Type": "AWS::CodeDeploy::DeploymentGroup", "Properties": {"ApplicationName": {"Ref": "App"},
      "DeploymentGroupName": "live-group", "ServiceRoleArn": "arn:aws:iam::123456789012:role/codedeploy",
      "DeploymentConfigName": {"Ref": "Config"},
      "DeploymentStyle": {"DeploymentType": "BLUE_GREEN", "DeploymentOption": "WITH_TRAFFIC_CONTROL"}}},
    "Alias": {"Type": "AWS::Lambda::Alias", "DependsOn": ["Group", "PreHook"], )" +
         (policy.empty() ? std::string() : R"("UpdatePolicy": )" + policy + ", ") +
         R"("Properties": {"FunctionName": {"Ref": "Fn"}, "Name": "live",
                         "FunctionVersion": {"Fn::GetAtt": ["Version", "Version"]}}}}})";
}

// As in the seed's example: the policy names the application, the group
// and the hook function by Ref (the engine evaluates the policy).
const char* kDeployPolicy = R"({"CodeDeployLambdaAliasUpdate": {"ApplicationName": {"Ref": "App"},
  "DeploymentGroupName": {"Ref": "Group"}, "BeforeAllowTrafficHook": {"Ref": "PreHook"}}})";

std::string AliasVersion(const Cli& cli) {
  return cli.World("lambda", "GetAlias", R"({"FunctionName": "app", "Name": "live"})")["FunctionVersion"];
}

json Deployments(const Cli& cli) {
  return cli.World("codedeploy", "ListDeployments", R"({"applicationName": "deployer"})")["deployments"];
}

// The events of a code change up to the alias's update: the function updated,
// a new version published (the Version replaced).
std::vector<std::string> NewVersion() {
  return {
      "app UPDATE_IN_PROGRESS User Initiated",
      "Fn UPDATE_IN_PROGRESS ",
      "Fn UPDATE_COMPLETE ",
      "Version " + kReplacing,
      "Version UPDATE_IN_PROGRESS Resource creation Initiated",
      "Version UPDATE_COMPLETE ",
      "Alias UPDATE_IN_PROGRESS ",
  };
}

}  // namespace

TEST_CASE("CodeDeployLambdaAliasUpdate: a version change is a CodeDeploy deployment, a failed hook fails it",
          "[cli][update_policy]") {
  const std::vector<std::string> moved_on = {
      "Alias UPDATE_COMPLETE ",
      "app UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
      "Version DELETE_IN_PROGRESS ",
      "Version DELETE_COMPLETE ",
      "app UPDATE_COMPLETE ",
  };
  auto expect = [](std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  SECTION("with the policy") {
    Cli cli("codedeploy");
    cli.MakeLambdaRole("app");  // the functions' execution role
    const std::string t = cli.Write("t.json", Lambda(kDeployPolicy));
    cli.Json("create-stack --stack-name app --template-body file://" + t +
             " --parameters ParameterKey=Code,ParameterValue=v1 "
             "ParameterKey=Config,ParameterValue=CodeDeployDefault.LambdaCanary10Percent5Minutes");
    const std::string alias = cli.Physical("app", "Alias");
    CHECK(AliasVersion(cli) == "1");
    size_t from = cli.EventCount("app");
    cli.Json("update-stack --stack-name app --use-previous-template --parameters ParameterKey=Code,ParameterValue=v2 "
             "ParameterKey=Config,UsePreviousValue=true");
    json events = cli.EventsFrom("app", from);
    CHECK(Lines(events) == expect(NewVersion(), moved_on));
    // The hook (10 s), 10 % of the traffic, the rest 5 minutes later.
    CHECK(Between(events, "Alias", "UPDATE_IN_PROGRESS", "UPDATE_COMPLETE") == 310);
    CHECK(cli.Physical("app", "Alias") == alias);
    CHECK(AliasVersion(cli) == "2");
    json deployments = Deployments(cli);
    REQUIRE(deployments.size() == 1);
    json d = cli.World("codedeploy", "GetDeployment", R"({"deploymentId": ")" + deployments[0].get<std::string>() +
                                                        R"("})")["deploymentInfo"];
    CHECK(d["status"] == "Succeeded");
    CHECK(d["deploymentConfigName"] == "CodeDeployDefault.LambdaCanary10Percent5Minutes");
    CHECK(d["hookExecutions"]["BeforeAllowTraffic"]["functionName"] == "pre-traffic");

    // The hook function reports Failed: the deployment fails, CodeDeploy moves
    // the alias back, the update fails with the deployment's error and rolls back.
    const std::string hooks =
        cli.Write("hooks.lua", R"(world.put("config", "codedeploy", { hook_results = { ["pre-traffic"] = "Failed" } }))");
    cli.Json("world load " + hooks);
    from = cli.EventCount("app");
    cli.Json("update-stack --stack-name app --use-previous-template --parameters ParameterKey=Code,ParameterValue=v3 "
             "ParameterKey=Config,UsePreviousValue=true");
    CHECK(cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
    deployments = Deployments(cli);
    REQUIRE(deployments.size() == 2);
    std::string failed;
    for (const json& id : deployments) {
      json info = cli.World("codedeploy", "GetDeployment", R"({"deploymentId": ")" + id.get<std::string>() + R"("})");
      if (info["deploymentInfo"]["status"] == "Failed") failed = id;
    }
    REQUIRE(!failed.empty());
    CHECK(Lines(cli.EventsFrom("app", from)) ==
          expect(NewVersion(), {
                                   "Alias UPDATE_FAILED CodeDeploy deployment " + failed +
                                       " failed: The deployment failed because a specified lifecycle event hook "
                                       "failed: BeforeAllowTraffic",
                                   "app UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [Alias]. ",
                                   "Fn UPDATE_IN_PROGRESS ",
                                   "Version UPDATE_COMPLETE ",
                                   "Alias UPDATE_COMPLETE ",
                                   "Fn UPDATE_COMPLETE ",
                                   "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                   "Version DELETE_IN_PROGRESS ",
                                   "Version DELETE_COMPLETE ",
                                   "app UPDATE_ROLLBACK_COMPLETE ",
                               }));
    CHECK(AliasVersion(cli) == "2");
    CHECK(Deployments(cli).size() == 2);  // the rollback found the alias back on 2: no deployment
    json versions = cli.World("lambda", "ListVersionsByFunction", R"({"FunctionName": "app"})")["Versions"];
    REQUIRE(versions.size() == 2);  // $LATEST and 2: version 3 deleted in the rollback's cleanup
    CHECK(versions[1]["Version"] == "2");
  }
  SECTION("without the policy") {
    Cli cli("codedeploy_none");
    cli.MakeLambdaRole("app");  // the functions' execution role
    const std::string t = cli.Write("t.json", Lambda(""));
    cli.Json("create-stack --stack-name app --template-body file://" + t +
             " --parameters ParameterKey=Code,ParameterValue=v1");
    const size_t from = cli.EventCount("app");
    cli.Json("update-stack --stack-name app --use-previous-template --parameters ParameterKey=Code,ParameterValue=v2 "
             "ParameterKey=Config,UsePreviousValue=true");
    json events = cli.EventsFrom("app", from);
    CHECK(Lines(events) == expect(NewVersion(), moved_on));
    CHECK(Between(events, "Alias", "UPDATE_IN_PROGRESS", "UPDATE_COMPLETE") == 0);
    CHECK(AliasVersion(cli) == "2");
    CHECK(Deployments(cli).empty());
  }
  SECTION("the application named by the policy must exist") {
    Cli cli("codedeploy_missing");
    cli.MakeLambdaRole("app");  // the functions' execution role
    const std::string t = cli.Write(
        "t.json", Lambda(R"({"CodeDeployLambdaAliasUpdate": {"ApplicationName": "nope", "DeploymentGroupName": "g"}})"));
    cli.Json("create-stack --stack-name app --template-body file://" + t +
             " --parameters ParameterKey=Code,ParameterValue=v1");
    const size_t from = cli.EventCount("app");
    cli.Json("update-stack --stack-name app --use-previous-template --parameters ParameterKey=Code,ParameterValue=v2 "
             "ParameterKey=Config,UsePreviousValue=true");
    CHECK(cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
    std::vector<std::string> lines = Lines(cli.EventsFrom("app", from));
    REQUIRE(lines.size() > 8);
    CHECK(lines[7] == "Alias UPDATE_FAILED No application found for name: nope");
    CHECK(AliasVersion(cli) == "1");
  }
}

namespace {

// The fleet "desk" of InstanceType `Type`; `policy`: its UpdatePolicy or "".
std::string Fleet(const std::string& policy) {
  return R"({"Parameters": {"Type": {"Type": "String"}},
    "Resources": {"Fleet": {"Type": "AWS::AppStream::Fleet", )" +
         (policy.empty() ? std::string() : R"("UpdatePolicy": )" + policy + ", ") +
         R"("Properties": {"Name": "desk", "InstanceType": {"Ref": "Type"}, "ImageName": "Windows-2019",
                          "ComputeCapacity": {"DesiredInstances": 2}}}}})";
}

// CloudFormation creates the fleet STOPPED; its user starts it (here at once).
void StartFleet(const Cli& cli) {
  const std::string script = cli.Write("start.lua", R"(
world.put("config", "appstream", { start_seconds = 0 })
aws.appstream.StartFleet({ Name = "desk" })
aws.appstream.DescribeFleets({ Names = { "desk" } })
world.remove("config", "appstream"))");
  cli.Json("world load " + script);
}

json DescribeFleet(const Cli& cli) {
  return cli.World("appstream", "DescribeFleets", R"({"Names": ["desk"]})")["Fleets"][0];
}

// A stack "vdi" with the fleet under `policy`, the fleet started, then
// its InstanceType changed (stream.standard.small -> large): the update's events.
json UpdateRunningFleet(const Cli& cli, const std::string& policy) {
  const std::string t = cli.Write("t.json", Fleet(policy));
  cli.Json("create-stack --stack-name vdi --template-body file://" + t +
           " --parameters ParameterKey=Type,ParameterValue=stream.standard.small");
  CHECK(DescribeFleet(cli)["State"] == "STOPPED");
  StartFleet(cli);
  CHECK(DescribeFleet(cli)["State"] == "RUNNING");
  const size_t from = cli.EventCount("vdi");
  cli.Json("update-stack --stack-name vdi --use-previous-template "
           "--parameters ParameterKey=Type,ParameterValue=stream.standard.large");
  return cli.EventsFrom("vdi", from);
}

const std::vector<std::string> kFleetUpdated = {
    "vdi UPDATE_IN_PROGRESS User Initiated",
    "Fleet UPDATE_IN_PROGRESS ",
    "Fleet UPDATE_COMPLETE ",
    "vdi UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
    "vdi UPDATE_COMPLETE ",
};

}  // namespace

TEST_CASE("StopBeforeUpdate / StartAfterUpdate: the fleet stopped, updated, started, without them AWS's refusal",
          "[cli][update_policy]") {
  SECTION("without the policy a running fleet refuses the change") {
    Cli cli("fleet_running");
    CHECK(Lines(UpdateRunningFleet(cli, "")) ==
          std::vector<std::string>{
              "vdi UPDATE_IN_PROGRESS User Initiated",
              "Fleet UPDATE_IN_PROGRESS ",
              "Fleet UPDATE_FAILED Cannot update the attribute for fleet desk when it is ACTIVE. The fleet must be "
              "stopped to complete this action.",
              "vdi UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [Fleet]. ",
              "Fleet UPDATE_COMPLETE ",
              "vdi UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
              "vdi UPDATE_ROLLBACK_COMPLETE ",
          });
    json fleet = DescribeFleet(cli);
    CHECK(fleet["State"] == "RUNNING");
    CHECK(fleet["InstanceType"] == "stream.standard.small");
  }
  SECTION("StopBeforeUpdate: stopped (5 minutes), updated, left stopped") {
    Cli cli("fleet_stop");
    json events = UpdateRunningFleet(cli, R"({"StopBeforeUpdate": {"Type": true}})");
    CHECK(Lines(events) == kFleetUpdated);
    CHECK(Between(events, "Fleet", "UPDATE_IN_PROGRESS", "UPDATE_COMPLETE") == 300);
    json fleet = DescribeFleet(cli);
    CHECK(fleet["State"] == "STOPPED");
    CHECK(fleet["InstanceType"] == "stream.standard.large");
  }
  SECTION("StopBeforeUpdate and StartAfterUpdate: stopped, updated, started again (10 minutes)") {
    Cli cli("fleet_stop_start");
    json events = UpdateRunningFleet(cli, R"({"StopBeforeUpdate": {"Type": true}, "StartAfterUpdate": {"Type": true}})");
    CHECK(Lines(events) == kFleetUpdated);
    CHECK(Between(events, "Fleet", "UPDATE_IN_PROGRESS", "UPDATE_COMPLETE") == 300 + 600);
    json fleet = DescribeFleet(cli);
    CHECK(fleet["State"] == "RUNNING");
    CHECK(fleet["InstanceType"] == "stream.standard.large");
    CHECK(cli.Physical("vdi", "Fleet") == "desk");
  }
}
