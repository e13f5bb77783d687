// A custom resource whose handler answers an Update with another
// PhysicalResourceId replaced the resource, as CloudFormation takes it: the
// old one gets a Delete in cleanup; when the update fails, rollback points
// back to the old one and deletes the new one. Through the moonstack binary
// with the shipped examples/custom/random-string.lua handler.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <string>
#include <vector>

namespace {

const std::string kProviders = std::string(MOONSTACK_SOURCE_DIR) + "/examples";

// Suffix (a random string; its Length decides its physical ID) and After,
// which depends on it and fails when Fail is "yes".
const char* kTemplate = R"({
  "Parameters": {"Length": {"Type": "String", "Default": "8"}, "Fail": {"Type": "String", "Default": "no"}},
  "Conditions": {"Failing": {"Fn::Equals": [{"Ref": "Fail"}, "yes"]}},
  "Resources": {
    "Suffix": {"Type": "Custom::RandomString", "Properties": {
      "ServiceToken": {"Fn::Sub": "arn:aws:lambda:${AWS::Region}:${AWS::AccountId}:function:random-string"},
      "Length": {"Ref": "Length"}}},
    "After": {"Type": "Custom::RandomString", "Properties": {
      "ServiceToken": {"Fn::Sub": "arn:aws:lambda:${AWS::Region}:${AWS::AccountId}:function:random-string"},
      "Length": {"Fn::If": ["Failing", "0", {"Fn::GetAtt": ["Suffix", "Length"]}]}}}
  }
})";

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("custom_replacement_cli", name) {}
  std::string Physical(const std::string& logical) const {
    return Json("describe-stack-resource --stack-name s --logical-resource-id " + logical)
        ["StackResourceDetail"]["PhysicalResourceId"];
  }
  // "<logical> <status> <physical id>" of Suffix's events from `from` on, oldest first.
  std::vector<std::string> SuffixEvents(size_t from) const {
    std::vector<std::string> out;
    const nlohmann::json events = Json("describe-stack-events --stack-name s")["StackEvents"];
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if ((*it)["LogicalResourceId"] != "Suffix") continue;
      out.push_back((*it)["ResourceStatus"].get<std::string>() + " " + (*it)["PhysicalResourceId"].get<std::string>());
    }
    return std::vector<std::string>(out.begin() + static_cast<long>(std::min(from, out.size())), out.end());
  }
};

}  // namespace

TEST_CASE("custom resource: a new PhysicalResourceId from Update is a replacement, the old one deleted in cleanup",
          "[cli][custom]") {
  Cli cli("replaced");
  const std::string t = cli.Write("t.json", kTemplate);
  cli.Json("create-stack --stack-name s --providers " + kProviders + " --template-body file://" + t);
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  const std::string first = cli.Physical("Suffix");
  const size_t from = cli.SuffixEvents(0).size();
  cli.Json("update-stack --stack-name s --providers " + kProviders + " --template-body file://" + t +
           " --parameters ParameterKey=Length,ParameterValue=10");
  CHECK(cli.Status("s") == "UPDATE_COMPLETE");
  const std::string second = cli.Physical("Suffix");
  CHECK(second != first);
  CHECK(cli.SuffixEvents(from) == std::vector<std::string>{"UPDATE_IN_PROGRESS " + first, "UPDATE_COMPLETE " + second,
                                                           "DELETE_IN_PROGRESS " + first, "DELETE_COMPLETE " + first});
}

TEST_CASE("custom resource: a replacement by Update is undone by rollback, which deletes the new one", "[cli][custom]") {
  Cli cli("rolled_back");
  const std::string t = cli.Write("t.json", kTemplate);
  cli.Json("create-stack --stack-name s --providers " + kProviders + " --template-body file://" + t);
  const std::string first = cli.Physical("Suffix");
  const size_t from = cli.SuffixEvents(0).size();
  cli("update-stack --stack-name s --providers " + kProviders + " --template-body file://" + t +
      " --parameters ParameterKey=Length,ParameterValue=10 ParameterKey=Fail,ParameterValue=yes");
  CHECK(cli.Status("s") == "UPDATE_ROLLBACK_COMPLETE");
  const std::vector<std::string> events = cli.SuffixEvents(from);
  REQUIRE(events.size() == 5);
  const std::string second = events[1].substr(events[1].find(' ') + 1);
  CHECK(second != first);
  CHECK(events == std::vector<std::string>{"UPDATE_IN_PROGRESS " + first, "UPDATE_COMPLETE " + second,
                                           "UPDATE_COMPLETE " + first, "DELETE_IN_PROGRESS " + second,
                                           "DELETE_COMPLETE " + second});
  CHECK(cli.Physical("Suffix") == first);
}

TEST_CASE("custom resource: a ServiceToken change fails, and its rollback sends nothing and completes", "[cli][custom]") {
  Cli cli("service_token");
  std::string tmpl = kTemplate;
  const std::string token = "function:random-string\"}";
  REQUIRE(tmpl.find(token) != std::string::npos);
  tmpl.replace(tmpl.find(token), token.size(), "function:${Fn}\"}");
  const std::string params = R"("Parameters": {)";
  tmpl.replace(tmpl.find(params), params.size(), R"("Parameters": {"Fn": {"Type": "String", "Default": "random-string"},)");
  const std::string t = cli.Write("t.json", tmpl);
  cli.Json("create-stack --stack-name s --providers " + kProviders + " --template-body file://" + t);
  const std::string first = cli.Physical("Suffix");
  const size_t from = cli.SuffixEvents(0).size();
  cli("update-stack --stack-name s --providers " + kProviders + " --template-body file://" + t +
      " --parameters ParameterKey=Fn,ParameterValue=elsewhere");
  CHECK(cli.Status("s") == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(cli.SuffixEvents(from) == std::vector<std::string>{"UPDATE_IN_PROGRESS " + first, "UPDATE_FAILED " + first,
                                                           "UPDATE_IN_PROGRESS " + first, "UPDATE_COMPLETE " + first});
  const nlohmann::json events = cli.Json("describe-stack-events --stack-name s")["StackEvents"];
  bool refused = false;
  for (const auto& e : events) {
    if (e["ResourceStatus"] == "UPDATE_FAILED") refused = e["ResourceStatusReason"] == "Modifying service token is not allowed.";
  }
  CHECK(refused);
}
