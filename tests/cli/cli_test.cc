// The moonstack binary: validate-template and graph as a user runs them.
#include <catch2/catch.hpp>

#include "test_util.h"
#include <cstdio>
#include <nlohmann/json.hpp>
#include <map>
#include <string>

namespace {

using Run = ms::test::CommandResult;

Run Moonstack(const std::string& args) {
  std::string cmd = std::string(MOONSTACK_BINARY) + " " + args + " 2>&1";
  return ms::test::RunCommand(cmd);
}

const std::string kExample = std::string(MOONSTACK_SOURCE_DIR) + "/examples/templates/web-vpc.yaml";

}  // namespace

TEST_CASE("validate-template prints the aws CLI's JSON shape", "[cli]") {
  Run r = Moonstack("validate-template --template-body file://" + kExample);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["Parameters"].size() == 4);
  CHECK(j["Parameters"][0]["ParameterKey"] == "EnvName");
  CHECK(j["Parameters"][0]["DefaultValue"] == "demo");
  CHECK(j["Parameters"][0]["NoEcho"] == false);
  CHECK(j["Description"] == "A VPC with a public subnet, a security group and a web server instance.");
  CHECK(j["Capabilities"] == nlohmann::json::array({"CAPABILITY_IAM"}));
  CHECK(j["CapabilitiesReason"] ==
        "The following resource(s) require capabilities: [AWS::IAM::Role, AWS::IAM::InstanceProfile]");
}

TEST_CASE("validate-template --template-file and inline bodies work too", "[cli]") {
  CHECK(Moonstack("validate-template --template-file " + kExample).exit_code == 0);
  Run r = Moonstack("validate-template --template-body '{\"Resources\":{\"T\":{\"Type\":\"AWS::SNS::Topic\"}}}'");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["Parameters"].empty());
}

TEST_CASE("validate-template fails as the aws CLI does", "[cli]") {
  Run r = Moonstack("validate-template --template-body '{\"Resources\": {}}'");
  CHECK(r.exit_code == 255);
  CHECK(r.out ==
        "\nAn error occurred (ValidationError) when calling the ValidateTemplate operation: Template format "
        "error: At least one Resources member must be defined.\n");
  r = Moonstack("validate-template --template-body '{\"Resources\": {\"A\": }}'");
  CHECK(r.exit_code == 255);
  CHECK(r.out.find("Template format error: JSON not well-formed. (line 1, column 22)") != std::string::npos);
  r = Moonstack("validate-template");
  CHECK(r.exit_code == 255);
  CHECK(r.out.find("Either Template URL or Template Body must be specified.") != std::string::npos);
}

TEST_CASE("graph prints dot and mermaid", "[cli]") {
  Run r = Moonstack("graph --template-body file://" + kExample);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("digraph stack {", 0) == 0);
  CHECK(r.out.find("\"WebServer\" -> \"WebProfile\";") != std::string::npos);
  r = Moonstack("graph --template-file " + kExample + " --format mermaid");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("  PublicSubnet --> Vpc\n") != std::string::npos);
  CHECK(Moonstack("graph --template-file " + kExample + " --format png").exit_code != 0);
}

TEST_CASE("moonstack --help lists the commands", "[cli]") {
  Run r = Moonstack("--help");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("validate-template") != std::string::npos);
  CHECK(r.out.find("graph") != std::string::npos);
  r = Moonstack("graph --help");
  CHECK(r.out.find("--format") != std::string::npos);
}

TEST_CASE("validate-template knows the types of --providers directories", "[cli]") {
  const std::string dir = std::string(MOONSTACK_SOURCE_DIR) + "/examples/providers";
  const std::string tmpl =
      "'{\"Resources\":{\"S\":{\"Type\":\"Example::Compute::Server\",\"Properties\":{\"ImageId\":\"ami-1\"}},"
      "\"T\":{\"Type\":\"AWS::SNS::Topic\",\"Properties\":{\"TopicName\":{\"Fn::GetAtt\":[\"S\",\"%s\"]}}}}}'";
  auto with = [&](const std::string& attr) {
    std::string body = tmpl;
    body.replace(body.find("%s"), 2, attr);
    return body;
  };
  Run r = Moonstack("validate-template --template-body " + with("PrivateIp"));
  CHECK(r.exit_code == 255);
  CHECK(r.out.find("Template format error: Unrecognized resource types: [Example::Compute::Server]") !=
        std::string::npos);
  r = Moonstack("validate-template --providers " + dir + " --template-body " + with("PrivateIp"));
  INFO(r.out);
  CHECK(r.exit_code == 0);
  r = Moonstack("validate-template --providers " + dir + " --template-body " + with("PublicIp"));
  CHECK(r.out.find("Template error: resource S does not support attribute type PublicIp in Fn::GetAtt") !=
        std::string::npos);
}

TEST_CASE("provider list and describe show the providers", "[cli]") {
  const std::string dir = std::string(MOONSTACK_SOURCE_DIR) + "/examples/providers";
  Run r = Moonstack("provider list --providers " + dir);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> sources;
  for (const auto& p : j["Providers"]) sources[p["Type"]] = p["Source"];
  CHECK(sources["Example::Compute::Server"] == dir + "/server.lua");
  CHECK(sources["AWS::EC2::Instance"] == std::string(MOONSTACK_SOURCE_DIR) + "/providers/aws/ec2/instance.lua");
  CHECK(sources.count("AWS::IAM::Role") == 1);
  r = Moonstack("provider describe Example::Compute::Server --providers " + dir);
  REQUIRE(r.exit_code == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j["Properties"][0] == nlohmann::json({{"Name", "ImageId"}, {"Type", "string"}, {"Required", true},
                                              {"UpdateRequires", "Replacement"}}));
  CHECK(j["Properties"][1]["UpdateRequires"] == "Conditional");
  CHECK(j["Attributes"] == nlohmann::json::array({"InstanceId", "PrivateIp"}));
  r = Moonstack("provider describe Nope::Nope::Nope --providers " + dir);
  CHECK(r.exit_code == 255);
  CHECK(r.out.find("No provider for resource type Nope::Nope::Nope") != std::string::npos);
}

TEST_CASE("the custom-provider example validates with its provider", "[cli]") {
  const std::string root = MOONSTACK_SOURCE_DIR;
  Run r = Moonstack("validate-template --providers " + root + "/examples/providers --template-file " + root +
                    "/examples/templates/custom-server.yaml");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["Parameters"][0]["ParameterKey"] == "Size");
  r = Moonstack("graph --providers " + root + "/examples/providers --template-file " + root +
                "/examples/templates/custom-server.yaml --format mermaid");
  CHECK(r.out.find("  Alarm --> Web\n") != std::string::npos);
}
