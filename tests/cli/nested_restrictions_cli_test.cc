// Seed 003's update restrictions across two stack boundaries
// (stack/outer_restrictions.h): a restriction on the root's
// AWS::CloudFormation::Stack resource holds in the child's child too, and
// an explicit Allow at any depth inside it — the resource's own, or that of
// the Stack resource between them — conflicts with it, the reason naming
// both. Three levels: app -> Child -> Grand (which holds the queue Q).
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

// Env=prod renames the grandchild's queue: a replacement, two levels down.
const char* kRoot = R"({
  "Parameters": {"Env": {"Type": "String", "Default": "dev"}},
  "Resources": {
    "Child": {"Type": "AWS::CloudFormation::Stack", %ROOT_POLICY% "Properties": {
      "TemplateURL": "https://tmpl.s3.amazonaws.com/child.json", "Parameters": {"Prefix": {"Ref": "Env"}}}}
  }
})";

const char* kChild = R"({
  "Parameters": {"Prefix": {"Type": "String"}},
  "Resources": {
    "Grand": {"Type": "AWS::CloudFormation::Stack", %CHILD_POLICY% "Properties": {
      "TemplateURL": "https://tmpl.s3.amazonaws.com/grand.json", "Parameters": {"Prefix": {"Ref": "Prefix"}}}}
  }
})";

const char* kGrand = R"({
  "Parameters": {"Prefix": {"Type": "String"}},
  "Resources": {"Q": {"Type": "AWS::SQS::Queue", %GRAND_POLICY% "Properties": {"QueueName": {"Fn::Sub": "${Prefix}-q"}}}}
})";

std::string With(std::string text, const std::string& slot, const std::string& policy) {
  text.replace(text.find(slot), slot.size(), policy);
  return text;
}

void Put(const ms::test::CliFixture& cli, const std::string& key, const std::string& body) {
  cli.Write("put.json", json{{"Bucket", "tmpl"}, {"Key", key}, {"Body", body}}.dump());
  cli.Json("world call s3 PutObject \"$(cat put.json)\"");
}

std::string PhysicalId(const ms::test::CliFixture& cli, const std::string& stack, const std::string& logical) {
  return cli.Json("describe-stack-resource --stack-name " + stack + " --logical-resource-id " + logical)
      ["StackResourceDetail"]["PhysicalResourceId"];
}

std::vector<std::string> Queues(const ms::test::CliFixture& cli) {
  std::vector<std::string> out;
  const json listed = cli.Json("world list --kind sqs.queue");
  for (const auto& r : listed["Records"]) out.push_back(r["Id"]);
  return out;
}

const char* kNoPolicy = "";
const char* kForbidsReplace = R"("UpdatePolicy": {"Allow": {"Replace": false}},)";
const char* kAllowsReplace = R"("UpdatePolicy": {"Allow": {"Replace": true}},)";

}  // namespace

TEST_CASE("nested restrictions cli: a root Stack resource's restriction holds in its grandchild, and conflicts "
          "with an Allow at any depth name both",
          "[cli][nested][policy]") {
  struct Case {
    const char* name;
    const char* child_policy;  // on the child's Grand resource
    const char* grand_policy;  // on the grandchild's Q
    std::string reason;        // Q's
  };
  const std::string conflict = "Conflicting update restrictions for resource Q: ";
  const std::string outer = ", the UpdatePolicy of its grandparent stack's resource Child restricts it "
                            "(Allow.Replace is false)";
  for (const Case& k :
       {Case{"outer_holds", kNoPolicy, kNoPolicy, "replace is restricted for resource."},
        Case{"own_allow", kNoPolicy, kAllowsReplace,
             conflict + "its UpdatePolicy allows replace (Allow.Replace is true)" + outer},
        Case{"middle_allow", kAllowsReplace, kNoPolicy,
             conflict + "the UpdatePolicy of its parent stack's resource Grand allows replace (Allow.Replace is "
                        "true)" + outer}}) {
    INFO(k.name);
    ms::test::CliFixture cli("nested_restrictions_cli", k.name);
    cli("world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'");
    Put(cli, "child.json", With(kChild, "%CHILD_POLICY%", k.child_policy));
    Put(cli, "grand.json", With(kGrand, "%GRAND_POLICY%", k.grand_policy));
    const std::string root = cli.Write("root.json", With(kRoot, "%ROOT_POLICY%", kNoPolicy));
    cli.Json("create-stack --stack-name app --template-body file://" + root);
    REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
    const std::string child = PhysicalId(cli, "app", "Child");
    const std::string grand = PhysicalId(cli, child, "Grand");
    const std::string child_name = cli.Json("describe-stacks --stack-name " + child)["Stacks"][0]["StackName"];
    const std::string grand_name = cli.Json("describe-stacks --stack-name " + grand)["Stacks"][0]["StackName"];
    const size_t app_from = cli.Events("app", 0).size(), child_from = cli.Events(child, 0).size(),
                 grand_from = cli.Events(grand, 0).size();

    // The restriction comes with the update, on the root's Stack resource only.
    cli.Write("root.json", With(kRoot, "%ROOT_POLICY%", kForbidsReplace));
    cli.Json("update-stack --stack-name app --template-body file://" + root +
             " --parameters ParameterKey=Env,ParameterValue=prod --disable-rollback");

    // The seed's own ending: every level stops UPDATE_FAILED, the queue untouched.
    const std::string q_failed = "The following resource(s) failed to update: [Q]. ";
    const std::string grand_failed = "The following resource(s) failed to update: [Grand]. ";
    CHECK(cli.Events(grand, grand_from) ==
          std::vector<std::string>{grand_name + " UPDATE_IN_PROGRESS User Initiated", "Q UPDATE_FAILED " + k.reason,
                                   grand_name + " UPDATE_FAILED " + q_failed});
    CHECK(cli.Events(child, child_from) ==
          std::vector<std::string>{child_name + " UPDATE_IN_PROGRESS User Initiated", "Grand UPDATE_IN_PROGRESS ",
                                   "Grand UPDATE_FAILED Embedded stack " + grand +
                                       " was not successfully updated. Currently in UPDATE_FAILED with reason: " +
                                       q_failed,
                                   child_name + " UPDATE_FAILED " + grand_failed});
    CHECK(cli.Events("app", app_from) ==
          std::vector<std::string>{"app UPDATE_IN_PROGRESS User Initiated", "Child UPDATE_IN_PROGRESS ",
                                   "Child UPDATE_FAILED Embedded stack " + child +
                                       " was not successfully updated. Currently in UPDATE_FAILED with reason: " +
                                       grand_failed,
                                   "app UPDATE_FAILED The following resource(s) failed to update: [Child]. "});
    CHECK(Queues(cli) == std::vector<std::string>{"us-east-1:dev-q"});
  }
}

TEST_CASE("nested restrictions cli: a restriction holding in the grandchild rolls all three levels back",
          "[cli][nested][policy]") {
  ms::test::CliFixture cli("nested_restrictions_cli", "rollback");
  cli("world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'");
  Put(cli, "child.json", With(kChild, "%CHILD_POLICY%", kNoPolicy));
  Put(cli, "grand.json", With(kGrand, "%GRAND_POLICY%", kNoPolicy));
  const std::string root = cli.Write("root.json", With(kRoot, "%ROOT_POLICY%", kNoPolicy));
  cli.Json("create-stack --stack-name app --template-body file://" + root);
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  const std::string child = PhysicalId(cli, "app", "Child");
  const std::string grand = PhysicalId(cli, child, "Grand");
  const std::string child_name = cli.Json("describe-stacks --stack-name " + child)["Stacks"][0]["StackName"];
  const std::string grand_name = cli.Json("describe-stacks --stack-name " + grand)["Stacks"][0]["StackName"];
  const size_t app_from = cli.Events("app", 0).size(), child_from = cli.Events(child, 0).size(),
               grand_from = cli.Events(grand, 0).size();

  cli.Write("root.json", With(kRoot, "%ROOT_POLICY%", kForbidsReplace));
  cli.Json("update-stack --stack-name app --template-body file://" + root +
           " --parameters ParameterKey=Env,ParameterValue=prod");

  const std::string q_failed = "The following resource(s) failed to update: [Q]. ";
  const std::string grand_failed = "The following resource(s) failed to update: [Grand]. ";
  const std::string embedded = " was not successfully updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: ";
  CHECK(cli.Events(grand, grand_from) ==
        std::vector<std::string>{grand_name + " UPDATE_IN_PROGRESS User Initiated",
                                 "Q UPDATE_FAILED replace is restricted for resource.",
                                 grand_name + " UPDATE_ROLLBACK_IN_PROGRESS " + q_failed, "Q UPDATE_COMPLETE ",
                                 grand_name + " UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                 grand_name + " UPDATE_ROLLBACK_COMPLETE "});
  CHECK(cli.Events(child, child_from) ==
        std::vector<std::string>{child_name + " UPDATE_IN_PROGRESS User Initiated", "Grand UPDATE_IN_PROGRESS ",
                                 "Grand UPDATE_FAILED Embedded stack " + grand + embedded + q_failed,
                                 child_name + " UPDATE_ROLLBACK_IN_PROGRESS " + grand_failed,
                                 "Grand UPDATE_IN_PROGRESS ", "Grand UPDATE_COMPLETE ",
                                 child_name + " UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                 child_name + " UPDATE_ROLLBACK_COMPLETE "});
  CHECK(cli.Events("app", app_from) ==
        std::vector<std::string>{"app UPDATE_IN_PROGRESS User Initiated", "Child UPDATE_IN_PROGRESS ",
                                 "Child UPDATE_FAILED Embedded stack " + child + embedded + grand_failed,
                                 "app UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [Child]. ",
                                 "Child UPDATE_IN_PROGRESS ", "Child UPDATE_COMPLETE ",
                                 "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ", "app UPDATE_ROLLBACK_COMPLETE "});
  CHECK(Queues(cli) == std::vector<std::string>{"us-east-1:dev-q"});
}
