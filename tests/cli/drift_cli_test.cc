// Drift detection through the moonstack binary, with the built-in providers
// most tests use (SQS queue, SSM parameter, S3 bucket, EC2 security group,
// IAM role): everything IN_SYNC right after the create (their `read` reports
// what the template set), then out-of-band changes with `world call` show as
// MODIFIED / DELETED with AWS's PropertyDifferences, in the aws CLI's shapes.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace {

const char* kTemplate = R"({
  "Resources": {
    "Queue": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": 45, "DelaySeconds": 0,
      "Tags": [{"Key": "team", "Value": "a"}]}},
    "Param": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "v1"}},
    "Bucket": {"Type": "AWS::S3::Bucket", "Properties": {"Tags": [{"Key": "k", "Value": "v"}]}},
    "Sg": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "web",
      "SecurityGroupIngress": [{"IpProtocol": "tcp", "FromPort": 80, "ToPort": 80, "CidrIp": "0.0.0.0/0"}]}},
    "Role": {"Type": "AWS::IAM::Role", "Properties": {"AssumeRolePolicyDocument": {"Version": "2012-10-17",
      "Statement": [{"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}]},
      "MaxSessionDuration": 3600}}
  }
})";

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("drift_cli", name) {}

  std::map<std::string, std::string> Physical() const {
    std::map<std::string, std::string> out;
    const nlohmann::json resources = Json("describe-stack-resources --stack-name d");
    for (const auto& r : resources["StackResources"]) {
      out[r["LogicalResourceId"].get<std::string>()] = r["PhysicalResourceId"].get<std::string>();
    }
    return out;
  }
  // Logical ID -> StackResourceDriftStatus.
  std::map<std::string, std::string> Drifts() const {
    std::map<std::string, std::string> out;
    const nlohmann::json drifts = Json("describe-stack-resource-drifts --stack-name d");
    for (const auto& d : drifts["StackResourceDrifts"]) {
      out[d["LogicalResourceId"].get<std::string>()] = d["StackResourceDriftStatus"].get<std::string>();
    }
    return out;
  }
};

}  // namespace

TEST_CASE("Drift CLI: the built-in providers are IN_SYNC after a create, NOT_CHECKED before any detection",
          "[drift][cli]") {
  Cli cli("in_sync");
  cli.Write("t.json", kTemplate);
  REQUIRE(cli("create-stack --stack-name d --template-body file://t.json --capabilities CAPABILITY_IAM").exit_code == 0);
  CHECK(cli.Json("describe-stacks --stack-name d")["Stacks"][0]["DriftInformation"] ==
        nlohmann::json{{"StackDriftStatus", "NOT_CHECKED"}});
  CHECK(cli.Json("list-stack-resources --stack-name d")["StackResourceSummaries"][0]["DriftInformation"] ==
        nlohmann::json{{"StackResourceDriftStatus", "NOT_CHECKED"}});
  const std::string id = cli.Json("detect-stack-drift --stack-name d")["StackDriftDetectionId"];
  auto status = cli.Json("describe-stack-drift-detection-status --stack-drift-detection-id " + id);
  CHECK(status["DetectionStatus"] == "DETECTION_COMPLETE");
  CHECK(status["StackDriftStatus"] == "IN_SYNC");
  CHECK(status["DriftedStackResourceCount"] == 0);
  CHECK(cli.Drifts() == std::map<std::string, std::string>{{"Bucket", "IN_SYNC"}, {"Param", "IN_SYNC"},
                                                           {"Queue", "IN_SYNC"}, {"Role", "IN_SYNC"},
                                                           {"Sg", "IN_SYNC"}});
  auto stack_drift = cli.Json("describe-stacks --stack-name d")["Stacks"][0]["DriftInformation"];
  CHECK(stack_drift["StackDriftStatus"] == "IN_SYNC");
  CHECK(stack_drift.contains("LastCheckTimestamp"));
}

TEST_CASE("Drift CLI: out-of-band changes through world call are MODIFIED and DELETED with their differences",
          "[drift][cli]") {
  Cli cli("modified");
  cli.Write("t.json", kTemplate);
  REQUIRE(cli("create-stack --stack-name d --template-body file://t.json --capabilities CAPABILITY_IAM").exit_code == 0);
  auto ids = cli.Physical();
  cli.Json("world call sqs SetQueueAttributes '{\"QueueUrl\":\"" + ids["Queue"] +
           "\",\"Attributes\":{\"VisibilityTimeout\":\"90\"}}'");
  cli.Json("world call ssm PutParameter '{\"Name\":\"" + ids["Param"] +
           "\",\"Value\":\"v2\",\"Type\":\"String\",\"Overwrite\":true}'");
  // A group without a VpcId: its physical ID is its name.
  cli.Json("world call ec2 AuthorizeSecurityGroupIngress '{\"GroupName\":\"" + ids["Sg"] +
           "\",\"IpPermissions\":[{\"IpProtocol\":\"tcp\",\"FromPort\":22,\"ToPort\":22,"
           "\"IpRanges\":[{\"CidrIp\":\"10.0.0.0/8\"}]}]}'");
  cli.Json("world call s3 DeleteBucket '{\"Bucket\":\"" + ids["Bucket"] + "\"}'");
  const std::string id = cli.Json("detect-stack-drift --stack-name d")["StackDriftDetectionId"];
  auto status = cli.Json("describe-stack-drift-detection-status --stack-drift-detection-id " + id);
  CHECK(status["StackDriftStatus"] == "DRIFTED");
  CHECK(status["DriftedStackResourceCount"] == 4);
  CHECK(cli.Drifts() == std::map<std::string, std::string>{{"Bucket", "DELETED"}, {"Param", "MODIFIED"},
                                                           {"Queue", "MODIFIED"}, {"Role", "IN_SYNC"},
                                                           {"Sg", "MODIFIED"}});
  auto modified = cli.Json(
      "describe-stack-resource-drifts --stack-name d --stack-resource-drift-status-filters MODIFIED")["StackResourceDrifts"];
  std::map<std::string, nlohmann::json> diffs;
  for (const auto& d : modified) diffs[d["LogicalResourceId"].get<std::string>()] = d["PropertyDifferences"];
  CHECK(diffs["Queue"] == nlohmann::json::parse(R"([{"PropertyPath": "/VisibilityTimeout", "ExpectedValue": "45",
      "ActualValue": "90", "DifferenceType": "NOT_EQUAL"}])"));
  CHECK(diffs["Param"] == nlohmann::json::parse(R"([{"PropertyPath": "/Value", "ExpectedValue": "v1",
      "ActualValue": "v2", "DifferenceType": "NOT_EQUAL"}])"));
  REQUIRE(diffs["Sg"].size() == 1);
  CHECK(diffs["Sg"][0]["PropertyPath"] == "/SecurityGroupIngress/1");
  CHECK(diffs["Sg"][0]["DifferenceType"] == "ADD");

  auto one = cli.Json("detect-stack-resource-drift --stack-name d --logical-resource-id Queue")["StackResourceDrift"];
  CHECK(one["StackResourceDriftStatus"] == "MODIFIED");
  CHECK(one["PhysicalResourceId"] == ids["Queue"]);
  CHECK(one["ResourceType"] == "AWS::SQS::Queue");
  CHECK(cli.Json("describe-stack-resource --stack-name d --logical-resource-id Queue")
            ["StackResourceDetail"]["DriftInformation"]["StackResourceDriftStatus"] == "MODIFIED");
  auto bad = cli("detect-stack-resource-drift --stack-name d --logical-resource-id Nope");
  CHECK(bad.exit_code != 0);
  CHECK(bad.out.find("Resource Nope does not exist for stack d") != std::string::npos);
}
