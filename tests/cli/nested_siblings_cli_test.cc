// Sibling nested stacks run side by side, as AWS runs them: each child's
// operation is a fiber whose scheduler is a guest of its parent's
// (run/scheduler.h), so in virtual time two children whose tables each take
// 5 simulated seconds to become ACTIVE start at the same instant and end
// at the same instant, instead of one after the other; and the
// interleaving is the same run after run.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

const char* kParent = R"({
  "Resources": {
    "A": {"Type": "AWS::CloudFormation::Stack", "Properties": {
      "TemplateURL": "https://tmpl.s3.amazonaws.com/child.json", "Parameters": {"Name": "table-a"}}},
    "B": {"Type": "AWS::CloudFormation::Stack", "Properties": {
      "TemplateURL": "https://tmpl.s3.amazonaws.com/child.json", "Parameters": {"Name": "table-b"}}}
  }
})";

// A DynamoDB table is CREATING for 5 simulated seconds (sim/dynamodb.lua).
const char* kChild = R"({
  "Parameters": {"Name": {"Type": "String"}},
  "Resources": {"T": {"Type": "AWS::DynamoDB::Table", "Properties": {
    "TableName": {"Ref": "Name"}, "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}]}}}
})";

// "Logical STATUS reason @timestamp" per event of `stack`, oldest first.
std::vector<std::string> TimedEvents(const ms::test::CliFixture& cli, const std::string& stack) {
  auto events = cli.Json("describe-stack-events --stack-name " + stack)["StackEvents"];
  std::vector<std::string> out;
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    out.push_back((*it)["LogicalResourceId"].get<std::string>() + " " + (*it)["ResourceStatus"].get<std::string>() +
                  " " + it->value("ResourceStatusReason", "") + "@" + (*it)["Timestamp"].get<std::string>());
  }
  return out;
}

std::string At(const std::string& timed) { return timed.substr(timed.rfind('@') + 1); }
std::string Untimed(const std::string& timed) { return timed.substr(0, timed.rfind('@')); }

struct Run {
  std::vector<std::string> parent, a, b;
};

Run CreateParent(const std::string& name) {
  ms::test::CliFixture cli("nested_siblings_cli", name);
  cli("world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'");
  cli.Write("put.json", json{{"Bucket", "tmpl"}, {"Key", "child.json"}, {"Body", kChild}}.dump());
  cli.Json("world call s3 PutObject \"$(cat put.json)\"");
  const std::string t = cli.Write("parent.json", kParent);
  cli.Json("create-stack --stack-name app --template-body file://" + t);
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  auto child = [&](const char* logical) {
    return cli.Json(std::string("describe-stack-resource --stack-name app --logical-resource-id ") + logical)
        ["StackResourceDetail"]["PhysicalResourceId"].get<std::string>();
  };
  return Run{TimedEvents(cli, "app"), TimedEvents(cli, child("A")), TimedEvents(cli, child("B"))};
}

}  // namespace

TEST_CASE("nested siblings cli: two children start at the same virtual instant and run side by side",
          "[cli][nested]") {
  const Run run = CreateParent("side_by_side");
  std::vector<std::string> parent;
  for (const std::string& e : run.parent) parent.push_back(Untimed(e));
  CHECK(parent == std::vector<std::string>{"app CREATE_IN_PROGRESS User Initiated", "A CREATE_IN_PROGRESS ",
                                           "B CREATE_IN_PROGRESS ",
                                           "A CREATE_IN_PROGRESS Resource creation Initiated",
                                           "B CREATE_IN_PROGRESS Resource creation Initiated",
                                           "A CREATE_COMPLETE ", "B CREATE_COMPLETE ", "app CREATE_COMPLETE "});
  REQUIRE(run.a.size() == 5);
  REQUIRE(run.b.size() == 5);
  for (size_t i = 0; i < 5; ++i) {
    INFO(run.a[i] << " / " << run.b[i]);
    CHECK(At(run.a[i]) == At(run.b[i]));  // each step of A at the instant B takes it
  }
  CHECK(Untimed(run.a[1]) == "T CREATE_IN_PROGRESS ");
  CHECK(Untimed(run.a[3]) == "T CREATE_COMPLETE ");
  // The table's 5 simulated seconds pass once for both, not twice.
  CHECK(At(run.a[3]) > At(run.a[1]));
  CHECK(At(run.parent[5]) == At(run.parent[6]));  // A and B complete together
  CHECK(At(run.parent[5]) == At(run.a[4]));

  // Deterministic: the same interleaving and timestamps' order on another run.
  const Run again = CreateParent("side_by_side_again");
  REQUIRE(again.parent.size() == run.parent.size());
  for (size_t i = 0; i < run.parent.size(); ++i) {
    CHECK(Untimed(again.parent[i]) == Untimed(run.parent[i]));
  }
}
