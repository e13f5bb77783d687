// UpdateStack's Tags through the CLI (virtual time): new stack tags replace
// the stack's and re-tag its taggable resources in place (an SQS queue and an
// SSM parameter here; the wait condition handle is not taggable and stays
// as it is), omitted they stay, a change set shows the re-tagging as Scope
// Tags, and a failed update puts the old tags back everywhere. Stack tag
// keys with the reserved aws: prefix are refused as AWS refuses them.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using Json = nlohmann::json;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("stack_tags_cli", name) {}

  std::string PhysicalId(const std::string& stack, const std::string& logical) const {
    return Json("describe-stack-resource --stack-name " + stack + " --logical-resource-id " + logical)
        ["StackResourceDetail"]["PhysicalResourceId"];
  }
  // The queue's tags in the simulated SQS, CloudFormation's aws:* ones left out.
  ::Json QueueTags(const std::string& stack) const {
    auto tags = Json("world call sqs ListQueueTags '{\"QueueUrl\":\"" + PhysicalId(stack, "Jobs") + "\"}'")["Tags"];
    ::Json out = ::Json::object();
    for (auto& [k, v] : tags.items()) {
      if (k.rfind("aws:", 0) != 0) out[k] = v;
    }
    return out;
  }
  // The parameter's tags in the simulated SSM, likewise.
  ::Json ParameterTags(const std::string& stack) const {
    auto list = Json("world call ssm ListTagsForResource '{\"ResourceType\":\"Parameter\",\"ResourceId\":\"" +
                     PhysicalId(stack, "Param") + "\"}'")["TagList"];
    ::Json out = ::Json::object();
    for (const auto& t : list) {
      const std::string key = t["Key"];
      if (key.rfind("aws:", 0) != 0) out[key] = t["Value"];
    }
    return out;
  }
  ::Json StackTags(const std::string& stack) const {
    return Json("describe-stacks --stack-name " + stack)["Stacks"][0]["Tags"];
  }
};

const char* kTemplate = R"({
  "Resources": {
    "Jobs": {"Type": "AWS::SQS::Queue", "Properties": {"Tags": [{"Key": "own", "Value": "q"}]}},
    "Param": {"Type": "AWS::SSM::Parameter", "DependsOn": "Jobs", "Properties": {"Type": "String", "Value": "v"}},
    "Handle": {"Type": "AWS::CloudFormation::WaitConditionHandle"}
  }
})";

}  // namespace

TEST_CASE("update-stack --tags on an unchanged template re-tags the taggable resources", "[cli][stacks][tags]") {
  Cli cli("retag");
  const std::string t = cli.Write("t.json", kTemplate);
  cli.Json("create-stack --stack-name app --template-body file://" + t + " --tags Key=team,Value=web");
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  CHECK(cli.QueueTags("app") == Json::parse(R"({"own": "q", "team": "web"})"));
  const size_t created = cli.Events("app", 0).size();

  cli.Json("update-stack --stack-name app --use-previous-template --tags Key=team,Value=data Key=cost,Value=42");
  CHECK(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(cli.Events("app", created) == std::vector<std::string>{
                                          "app UPDATE_IN_PROGRESS User Initiated",
                                          "Jobs UPDATE_IN_PROGRESS ",
                                          "Jobs UPDATE_COMPLETE ",
                                          "Param UPDATE_IN_PROGRESS ",
                                          "Param UPDATE_COMPLETE ",
                                          "app UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                                          "app UPDATE_COMPLETE ",
                                      });
  CHECK(cli.QueueTags("app") == Json::parse(R"({"cost": "42", "own": "q", "team": "data"})"));
  CHECK(cli.ParameterTags("app") == Json::parse(R"({"cost": "42", "team": "data"})"));
  CHECK(cli.StackTags("app") == Json::parse(R"([{"Key": "team", "Value": "data"}, {"Key": "cost", "Value": "42"}])"));

  // Without --tags the stack keeps them: nothing to do.
  ms::test::CommandResult same = cli("update-stack --stack-name app --use-previous-template");
  CHECK(same.exit_code == 255);
  CHECK(same.out == "\nAn error occurred (ValidationError) when calling the UpdateStack operation: "
                    "No updates are to be performed.\n");
  // The same tags in another order are no change either.
  ms::test::CommandResult reordered =
      cli("update-stack --stack-name app --use-previous-template --tags Key=cost,Value=42 Key=team,Value=data");
  CHECK(reordered.exit_code == 255);
  CHECK(cli.StackTags("app") == Json::parse(R"([{"Key": "team", "Value": "data"}, {"Key": "cost", "Value": "42"}])"));
  CHECK(cli.QueueTags("app") == Json::parse(R"({"cost": "42", "own": "q", "team": "data"})"));

  // Invalid stack tags are refused as at create, before anything starts.
  const std::string long_key(129, 'k');
  ms::test::CommandResult too_long =
      cli("update-stack --stack-name app --use-previous-template --tags Key=" + long_key + ",Value=1");
  CHECK(too_long.exit_code == 255);
  CHECK(too_long.out == "\nAn error occurred (ValidationError) when calling the UpdateStack operation: 1 validation "
                        "error detected: Value '" + long_key + "' at 'tags.1.member.key' failed to satisfy "
                        "constraint: Member must have length less than or equal to 128\n");
  CHECK(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(cli.StackTags("app") == Json::parse(R"([{"Key": "team", "Value": "data"}, {"Key": "cost", "Value": "42"}])"));
}

TEST_CASE("a change set for new stack tags lists the taggable resources as Modify, Scope Tags", "[cli][stacks][tags]") {
  Cli cli("change_set");
  const std::string t = cli.Write("t.json", kTemplate);
  cli.Json("create-stack --stack-name app --template-body file://" + t + " --tags Key=team,Value=web");
  cli.Json("create-change-set --stack-name app --change-set-name retag --use-previous-template"
           " --tags Key=team,Value=data");
  auto cs = cli.Json("describe-change-set --stack-name app --change-set-name retag");
  CHECK(cs["Status"] == "CREATE_COMPLETE");
  CHECK(cs["Tags"] == Json::parse(R"([{"Key": "team", "Value": "data"}])"));
  const Json detail = Json::parse(R"([{"Target": {"Attribute": "Tags", "RequiresRecreation": "Never"},
                                        "Evaluation": "Static", "ChangeSource": "DirectModification"}])");
  REQUIRE(cs["Changes"].size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const Json& rc = cs["Changes"][i]["ResourceChange"];
    CHECK(rc["LogicalResourceId"] == (i == 0 ? "Jobs" : "Param"));
    CHECK(rc["Action"] == "Modify");
    CHECK(rc["Replacement"] == "False");
    CHECK(rc["Scope"] == Json::parse(R"(["Tags"])"));
    CHECK(rc["Details"] == detail);
  }
  // Without --tags an unchanged template is no change.
  cli.Json("create-change-set --stack-name app --change-set-name none --use-previous-template");
  CHECK(cli.Json("describe-change-set --stack-name app --change-set-name none")["Status"] == "FAILED");

  cli("execute-change-set --stack-name app --change-set-name retag");
  CHECK(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(cli.StackTags("app") == Json::parse(R"([{"Key": "team", "Value": "data"}])"));
  CHECK(cli.QueueTags("app") == Json::parse(R"({"own": "q", "team": "data"})"));
}

TEST_CASE("a failed update puts the stack's and its resources' old tags back", "[cli][stacks][tags]") {
  Cli cli("rollback");
  const std::string t = cli.Write("t.json", kTemplate);
  const std::string fail = cli.Write("fail.lua", R"(fail({ logical_id = "Param", action = "update" }, { message = "no" }))");
  cli.Json("create-stack --stack-name app --template-body file://" + t + " --tags Key=team,Value=web");
  const size_t created = cli.Events("app", 0).size();
  cli.Json("update-stack --stack-name app --use-previous-template --tags Key=team,Value=data Key=cost,Value=42"
           " --scenario " + fail);
  CHECK(cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(cli.Events("app", created) ==
        std::vector<std::string>{
            "app UPDATE_IN_PROGRESS User Initiated",
            "Jobs UPDATE_IN_PROGRESS ",
            "Jobs UPDATE_COMPLETE ",
            "Param UPDATE_IN_PROGRESS ",
            "Param UPDATE_FAILED no",
            "app UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [Param]. ",
            "Jobs UPDATE_IN_PROGRESS ",
            "Param UPDATE_COMPLETE ",
            "Jobs UPDATE_COMPLETE ",
            "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
            "app UPDATE_ROLLBACK_COMPLETE ",
        });
  CHECK(cli.StackTags("app") == Json::parse(R"([{"Key": "team", "Value": "web"}])"));
  CHECK(cli.QueueTags("app") == Json::parse(R"({"own": "q", "team": "web"})"));
  CHECK(cli.ParameterTags("app") == Json::parse(R"({"team": "web"})"));
}

TEST_CASE("new stack tags reach a nested stack and its resources", "[cli][stacks][tags][nested]") {
  Cli cli("nested");
  const char* child = R"({"Resources": {"Jobs": {"Type": "AWS::SQS::Queue"}}})";
  cli("world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'");
  cli.Write("put.json", Json{{"Bucket", "tmpl"}, {"Key", "child.json"}, {"Body", child}}.dump());
  cli.Json("world call s3 PutObject \"$(cat put.json)\"");
  const std::string t = cli.Write("parent.json", R"({"Resources": {"Child": {"Type": "AWS::CloudFormation::Stack",
    "Properties": {"TemplateURL": "https://tmpl.s3.amazonaws.com/child.json"}}}})");
  cli.Json("create-stack --stack-name app --template-body file://" + t + " --tags Key=team,Value=web");
  const std::string child_id = cli.PhysicalId("app", "Child");
  CHECK(cli.QueueTags(child_id) == Json::parse(R"({"team": "web"})"));

  cli.Json("update-stack --stack-name app --use-previous-template --tags Key=team,Value=data");
  CHECK(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(cli.StackTags(child_id) == Json::parse(R"([{"Key": "team", "Value": "data"}])"));
  CHECK(cli.QueueTags(child_id) == Json::parse(R"({"team": "data"})"));
}

TEST_CASE("stack tag keys with the aws: prefix are refused as AWS refuses them", "[cli][stacks][tags]") {
  Cli cli("reserved");
  const std::string t = cli.Write("t.json", R"({"Resources": {"H": {"Type": "AWS::CloudFormation::WaitConditionHandle"}}})");
  const std::string refused = "aws: prefixed tag key names are not allowed for external use.\n";
  for (const char* key : {"aws:team", "AWS:cloudformation:stack-name"}) {
    INFO(key);
    ms::test::CommandResult create =
        cli("create-stack --stack-name app --template-body file://" + t + " --tags Key=" + key + ",Value=1");
    CHECK(create.exit_code == 255);
    CHECK(create.out == "\nAn error occurred (ValidationError) when calling the CreateStack operation: " + refused);
  }
  CHECK(cli("describe-stacks --stack-name app").exit_code == 255);  // nothing made

  // A key that only contains "aws:" is fine; so is a value that starts with it.
  cli.Json("create-stack --stack-name app --template-body file://" + t + " --tags Key=team-aws:x,Value=aws:y");
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  ms::test::CommandResult update =
      cli("update-stack --stack-name app --use-previous-template --tags Key=aws:team,Value=1");
  CHECK(update.exit_code == 255);
  CHECK(update.out == "\nAn error occurred (ValidationError) when calling the UpdateStack operation: " + refused);
  ms::test::CommandResult change_set = cli("create-change-set --stack-name app --change-set-name c"
                                           " --use-previous-template --tags Key=aws:team,Value=1");
  CHECK(change_set.exit_code == 255);
  CHECK(change_set.out == "\nAn error occurred (ValidationError) when calling the CreateChangeSet operation: " +
                              refused);
  CHECK(cli.Json("describe-stacks --stack-name app")["Stacks"][0]["Tags"] ==
        Json::parse(R"([{"Key": "team-aws:x", "Value": "aws:y"}])"));
  // The length limits come first, every violation listed, as before.
  const std::string long_value(257, 'v');
  ms::test::CommandResult both =
      cli("update-stack --stack-name app --use-previous-template --tags Key=aws:team,Value=" + long_value);
  CHECK(both.out == "\nAn error occurred (ValidationError) when calling the UpdateStack operation: 1 validation "
                    "error detected: Value '" + long_value + "' at 'tags.1.member.value' failed to satisfy "
                    "constraint: Member must have length less than or equal to 256\n");
}
