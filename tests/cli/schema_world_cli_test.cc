// The schema-driven world as a user meets it: AWS types without a Lua
// provider of their own (served by providers/lib/generic.lua from their
// registry schemas) validate their properties with the registry's messages,
// take AWS's names, Refs and ARNs, carry the stack's tags, and a
// custom-named resource is not replaced (engine: stack/custom_names).
// The types used here have no hand-written provider.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace {

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("schema_world_cli", name) {}

  std::vector<std::string> WorldIds(const std::string& kind) const {
    std::vector<std::string> ids;
    const nlohmann::json list = Json("world list --kind " + kind);  // kept: the loop reads into it
    for (const auto& r : list["Records"]) {
      if (r.value("Live", false)) ids.push_back(r.value("Id", ""));
    }
    return ids;
  }
  std::string Output(const std::string& stack, const std::string& key) const {
    const nlohmann::json stacks = Json("describe-stacks --stack-name " + stack);  // kept: the loop reads into it
    for (const auto& o : stacks["Stacks"][0]["Outputs"]) {
      if (o["OutputKey"] == key) return o["OutputValue"];
    }
    return "<no output " + key + ">";
  }
};

}  // namespace

TEST_CASE("an invalid nested property fails the create with the registry's message, nothing is created",
          "[cli][schema]") {
  Cli cli("invalid_nested");
  std::string t = cli.Write("t.json", R"({"Resources": {"Repo": {"Type": "AWS::ECR::Repository", "Properties": {
      "ImageScanningConfiguration": {"ScanOnPush": "maybe", "Extra": 1},
      "ImageTagMutability": "SOMETIMES"}}}})");
  cli("create-stack --stack-name app --template-body file://" + t);
  CHECK(cli.Status("app") == "ROLLBACK_COMPLETE");
  CHECK(cli.Events("app", 0) == std::vector<std::string>{
                                    "app CREATE_IN_PROGRESS User Initiated",
                                    "Repo CREATE_IN_PROGRESS ",
                                    "Repo CREATE_FAILED Properties validation failed for resource Repo with message: ["
                                    "#/ImageScanningConfiguration: extraneous key [Extra] is not permitted, "
                                    "#/ImageScanningConfiguration/ScanOnPush: expected type: Boolean, found: String, "
                                    "#/ImageTagMutability: failed validation constraint for keyword [enum]]",
                                    "app ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Repo]. ",
                                    "Repo DELETE_COMPLETE ",
                                    "app ROLLBACK_COMPLETE ",
                                });
  CHECK(cli.WorldIds("generic.AWS::ECR::Repository").empty());
}

TEST_CASE("Ref, ARNs and names of generic types follow AWS's formats", "[cli][schema]") {
  Cli cli("refs");
  std::string t = cli.Write("t.json", R"({"Resources": {
      "Repo": {"Type": "AWS::ECR::Repository", "Properties": {"RepositoryName": "repo-a"}},
      "Stream": {"Type": "AWS::Kinesis::Stream", "Properties": {"ShardCount": 1}},
      "Cluster": {"Type": "AWS::ECS::Cluster", "Properties": {"ClusterName": "c1"}}},
    "Outputs": {
      "RepoRef": {"Value": {"Ref": "Repo"}}, "RepoArn": {"Value": {"Fn::GetAtt": ["Repo", "Arn"]}},
      "RepoUri": {"Value": {"Fn::GetAtt": ["Repo", "RepositoryUri"]}},
      "StreamRef": {"Value": {"Ref": "Stream"}}, "StreamArn": {"Value": {"Fn::GetAtt": ["Stream", "Arn"]}},
      "ClusterRef": {"Value": {"Ref": "Cluster"}}, "ClusterArn": {"Value": {"Fn::GetAtt": ["Cluster", "Arn"]}}}})");
  Run created = cli("create-stack --stack-name shop --template-body file://" + t);
  INFO(created.out);
  REQUIRE(cli.Status("shop") == "CREATE_COMPLETE");
  const std::string account = "123456789012";
  CHECK(cli.Output("shop", "RepoRef") == "repo-a");
  CHECK(cli.Output("shop", "RepoArn") == "arn:aws:ecr:us-east-1:" + account + ":repository/repo-a");
  CHECK(cli.Output("shop", "RepoUri") == account + ".dkr.ecr.us-east-1.amazonaws.com/repo-a");
  const std::string stream = cli.Output("shop", "StreamRef");
  CHECK(std::regex_match(stream, std::regex("shop-Stream-[A-Za-z0-9]{12}")));
  CHECK(cli.Output("shop", "StreamArn") == "arn:aws:kinesis:us-east-1:" + account + ":stream/" + stream);
  CHECK(cli.Output("shop", "ClusterRef") == "c1");
  CHECK(cli.Output("shop", "ClusterArn") == "arn:aws:ecs:us-east-1:" + account + ":cluster/c1");
  CHECK(cli.WorldIds("generic.AWS::ECR::Repository") == std::vector<std::string>{"repo-a"});
}

TEST_CASE("a custom-named resource that needs replacing fails the update as AWS does, and the stack rolls back",
          "[cli][schema][update]") {
  Cli cli("custom_named");
  auto repo = [](const std::string& name_prop, const std::string& encryption) {
    return R"({"Resources": {"Repo": {"Type": "AWS::ECR::Repository", "Properties": {)" + name_prop +
           R"("EncryptionConfiguration": {"EncryptionType": ")" + encryption + R"("}}}},
              "Outputs": {"Ref": {"Value": {"Ref": "Repo"}}}})";
  };
  const std::string named = R"("RepositoryName": "images", )";
  cli("create-stack --stack-name app --template-body file://" + cli.Write("v1.json", repo(named, "AES256")));
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  const size_t created = cli.Events("app", 0).size();
  Run updated = cli("update-stack --stack-name app --template-body file://" + cli.Write("v2.json", repo(named, "KMS")));
  INFO(updated.out);
  CHECK(updated.exit_code == 0);
  CHECK(cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
  const std::string refusal =
      "CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename images and "
      "update the stack again.";
  CHECK(cli.Events("app", created) == std::vector<std::string>{
                                          "app UPDATE_IN_PROGRESS User Initiated",
                                          "Repo UPDATE_FAILED " + refusal,
                                          "app UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to "
                                          "update: [Repo]. ",
                                          "Repo UPDATE_COMPLETE ",
                                          "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                          "app UPDATE_ROLLBACK_COMPLETE ",
                                      });
  CHECK(cli.WorldIds("generic.AWS::ECR::Repository") == std::vector<std::string>{"images"});

  // Without a custom name the same change replaces the repository.
  cli("create-stack --stack-name anon --template-body file://" + cli.Write("a1.json", repo("", "AES256")));
  const std::string before = cli.Output("anon", "Ref");
  CHECK(std::regex_match(before, std::regex("anon-repo-[a-z0-9]{12}")));  // ECR names are lowercase
  cli("update-stack --stack-name anon --template-body file://" + cli.Write("a2.json", repo("", "KMS")));
  CHECK(cli.Status("anon") == "UPDATE_COMPLETE");
  CHECK(cli.Output("anon", "Ref") != before);
}

TEST_CASE("the stack's tags reach a generic resource's world record with CloudFormation's own",
          "[cli][schema][tags]") {
  Cli cli("stack_tags");
  std::string t = cli.Write("t.json", R"({"Resources": {"Cluster": {"Type": "AWS::ECS::Cluster", "Properties": {
      "ClusterName": "c1", "Tags": [{"Key": "env", "Value": "prod"}]}}}})");
  const std::string id = cli.Json("create-stack --stack-name tagged --template-body file://" + t +
                                  " --tags Key=team,Value=blue Key=env,Value=dev")["StackId"];
  REQUIRE(cli.Status("tagged") == "CREATE_COMPLETE");
  auto record = cli.Json("world show c1");
  CHECK(record["Kind"] == "generic.AWS::ECS::Cluster");
  CHECK(record["Data"]["Tags"] == nlohmann::json{{"team", "blue"},
                                                 {"env", "prod"},
                                                 {"aws:cloudformation:stack-name", "tagged"},
                                                 {"aws:cloudformation:logical-id", "Cluster"},
                                                 {"aws:cloudformation:stack-id", id}});
}
