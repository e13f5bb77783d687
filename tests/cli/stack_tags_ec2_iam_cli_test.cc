// Stack tags on the built-in EC2 and IAM providers through the CLI (virtual
// time), seen as a user sees them: `world call ec2 DescribeTags` /
// DescribeSecurityGroups and `world call iam ListRoleTags`. EC2 resources
// carry the stack's tags and CloudFormation's aws:cloudformation:* ones; an
// IAM role the stack's tags only (IAM refuses the aws: prefix). New stack
// tags (update-stack --tags) re-tag both in place.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>

namespace {

using Json = nlohmann::json;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("stack_tags_ec2_iam_cli", name) {}

  std::string PhysicalId(const std::string& stack, const std::string& logical) const {
    return Json("describe-stack-resource --stack-name " + stack + " --logical-resource-id " + logical)
        ["StackResourceDetail"]["PhysicalResourceId"];
  }
  // An EC2 resource's tags as DescribeTags lists them, as {Key: Value}.
  ::Json Ec2Tags(const std::string& id) const {
    ::Json out = ::Json::object();
    const auto tags = Json("world call ec2 DescribeTags '{\"Filters\":[{\"Name\":\"resource-id\",\"Values\":[\"" + id +
                           "\"]}]}'")["Tags"];
    for (const auto& t : tags) out[t["Key"].get<std::string>()] = t["Value"];
    return out;
  }
  ::Json RoleTags(const std::string& role) const {
    return Json("world call iam ListRoleTags '{\"RoleName\":\"" + role + "\"}'")["Tags"];
  }
  std::string StackId(const std::string& stack) const {
    return Json("describe-stacks --stack-name " + stack)["Stacks"][0]["StackId"];
  }
};

const char* kTemplate = R"({
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16",
            "Tags": [{"Key": "env", "Value": "prod"}]}},
    "Group": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "web", "VpcId": {"Ref": "Vpc"}}},
    "Role": {"Type": "AWS::IAM::Role", "Properties": {"AssumeRolePolicyDocument": {"Version": "2012-10-17",
             "Statement": [{"Effect": "Allow", "Principal": {"Service": "ec2.amazonaws.com"}, "Action": "sts:AssumeRole"}]}}}
  }
})";

// CloudFormation's own tags on an EC2 resource, with `more`.
Json CfnTags(const std::string& stack_id, const std::string& logical, Json more) {
  more["aws:cloudformation:stack-name"] = "app";
  more["aws:cloudformation:stack-id"] = stack_id;
  more["aws:cloudformation:logical-id"] = logical;
  return more;
}

}  // namespace

TEST_CASE("EC2 and IAM resources carry the stack's tags at create and after update-stack --tags",
          "[cli][stacks][tags]") {
  Cli cli("ec2_iam");
  const std::string t = cli.Write("t.json", kTemplate);
  cli.Json("create-stack --stack-name app --capabilities CAPABILITY_IAM --template-body file://" + t +
           " --tags Key=team,Value=web Key=env,Value=dev");
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  const std::string id = cli.StackId("app");
  const std::string vpc = cli.PhysicalId("app", "Vpc");
  const std::string group = cli.PhysicalId("app", "Group");
  const std::string role = cli.PhysicalId("app", "Role");
  // The template's own tag wins over the stack's (the VPC's env).
  CHECK(cli.Ec2Tags(vpc) == CfnTags(id, "Vpc", {{"team", "web"}, {"env", "prod"}}));
  CHECK(cli.Ec2Tags(group) == CfnTags(id, "Group", {{"team", "web"}, {"env", "dev"}}));
  CHECK(cli.Json("world call ec2 DescribeSecurityGroups '{\"GroupIds\":[\"" + group + "\"]}'")
            ["SecurityGroups"][0]["Tags"]
            .size() == 5);
  CHECK(cli.RoleTags(role) == Json::parse(R"([{"Key": "team", "Value": "web"}, {"Key": "env", "Value": "dev"}])"));

  cli.Json("update-stack --stack-name app --use-previous-template --capabilities CAPABILITY_IAM"
           " --tags Key=team,Value=data Key=cost,Value=42");
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(cli.Ec2Tags(vpc) == CfnTags(id, "Vpc", {{"team", "data"}, {"cost", "42"}, {"env", "prod"}}));
  CHECK(cli.Ec2Tags(group) == CfnTags(id, "Group", {{"team", "data"}, {"cost", "42"}}));
  CHECK(cli.RoleTags(role) == Json::parse(R"([{"Key": "team", "Value": "data"}, {"Key": "cost", "Value": "42"}])"));
}
