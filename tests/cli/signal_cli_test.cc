// signal-resource and CreationPolicy signals as a user meets them: a
// scenario that signals, a simulated instance whose boot script runs
// cfn-signal, and signal-resource's refusals with the aws CLI's error shape.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("signal_cli", name) {}
  nlohmann::json Stack(const std::string& name) const { return Json("describe-stacks --stack-name " + name)["Stacks"][0]; }
  // "Logical STATUS[ reason]" of the resource's events, oldest first.
  std::vector<std::string> Events(const std::string& stack, const std::string& logical) const {
    nlohmann::json events = Json("describe-stack-events --stack-name " + stack)["StackEvents"];
    std::vector<std::string> out;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if ((*it)["LogicalResourceId"] != logical) continue;
      std::string reason = it->value("ResourceStatusReason", "");
      out.push_back(logical + " " + (*it)["ResourceStatus"].get<std::string>() + (reason.empty() ? "" : " " + reason));
    }
    return out;
  }
};

std::string Error(const std::string& message) {
  return "\nAn error occurred (ValidationError) when calling the SignalResource operation: " + message + "\n";
}

const char* kVpcWaiting = R"({"Resources": {"Net": {"Type": "AWS::EC2::VPC",
  "CreationPolicy": {"ResourceSignal": {"Count": 2, "Timeout": "PT10M"}},
  "Properties": {"CidrBlock": "10.0.0.0/16"}}}})";

}  // namespace

TEST_CASE("signal-resource: a scenario's signals complete the create, refusals", "[cli][signal]") {
  Cli cli("scenario");
  cli.Write("t.json", kVpcWaiting);
  const std::string scenario = cli.Write("signal.lua", R"(
on({ logical_id = "Net", reason = "Resource creation Initiated" }, function(event, aws)
  for _, id in ipairs({ "i-1", "i-2" }) do
    aws.cloudformation.SignalResource {
      StackName = event.StackName, LogicalResourceId = "Net", UniqueId = id, Status = "SUCCESS",
    }
  end
end)
)");
  Run create = cli("create-stack --stack-name s --template-body file://t.json --scenario " + scenario);
  INFO(create.out);
  REQUIRE(create.exit_code == 0);
  CHECK(cli.Stack("s")["StackStatus"] == "CREATE_COMPLETE");
  CHECK(cli.Events("s", "Net") == std::vector<std::string>{
                                     "Net CREATE_IN_PROGRESS",
                                     "Net CREATE_IN_PROGRESS Resource creation Initiated",
                                     "Net CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-1",
                                     "Net CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-2",
                                     "Net CREATE_COMPLETE",
                                 });

  const std::string id = cli.Stack("s")["StackId"];
  Run late = cli("signal-resource --stack-name s --logical-resource-id Net --unique-id i-3 --status SUCCESS");
  CHECK(late.exit_code == 255);
  CHECK(late.out == Error("Stack " + id + " is in CREATE_COMPLETE state and cannot be signaled"));
  Run missing = cli("signal-resource --stack-name nope --logical-resource-id Net --unique-id i-3 --status SUCCESS");
  CHECK(missing.exit_code == 255);
  CHECK(missing.out == Error("Stack with id nope does not exist"));
  Run bad = cli("signal-resource --stack-name s --logical-resource-id Net --unique-id i-3 --status MAYBE");
  CHECK(bad.exit_code == 255);
  CHECK(bad.out == Error("1 validation error detected: Value 'MAYBE' at 'status' failed to satisfy constraint: "
                         "Member must satisfy enum value set: [SUCCESS, FAILURE]"));
  Run no_id = cli("signal-resource --stack-name s --logical-resource-id Net --status SUCCESS");
  CHECK(no_id.out == Error("1 validation error detected: Value null at 'uniqueId' failed to satisfy constraint: "
                           "Member must not be null"));
}

TEST_CASE("signal-resource: a FAILURE signal from a scenario rolls the stack back", "[cli][signal]") {
  Cli cli("failure");
  cli.Write("t.json", kVpcWaiting);
  const std::string scenario = cli.Write("signal.lua", R"(
on({ logical_id = "Net", reason = "Resource creation Initiated" }, function(event, aws)
  aws.cloudformation.SignalResource { StackName = event.StackId, LogicalResourceId = "Net", UniqueId = "i-9",
    Status = "FAILURE" }
end)
)");
  REQUIRE(cli("create-stack --stack-name f --template-body file://t.json --scenario " + scenario).exit_code == 0);
  CHECK(cli.Stack("f")["StackStatus"] == "ROLLBACK_COMPLETE");
  CHECK(cli.Events("f", "Net")[2] == "Net CREATE_FAILED Received FAILURE signal with UniqueId i-9");
}

TEST_CASE("an instance whose UserData runs cfn-signal signals its CreationPolicy once booted", "[cli][signal]") {
  Cli cli("boot");
  cli.Write("t.json", R"({"Resources": {"Web": {"Type": "AWS::EC2::Instance",
    "CreationPolicy": {"ResourceSignal": {"Timeout": "PT5M"}},
    "Properties": {"ImageId": "ami-12345678", "InstanceType": "t3.micro",
      "UserData": {"Fn::Base64": {"Fn::Sub":
        "#!/bin/bash\n/opt/aws/bin/cfn-signal -e $? --stack ${AWS::StackName} --resource Web --region ${AWS::Region}\n"}}}}}})");
  REQUIRE(cli("create-stack --stack-name b --template-body file://t.json").exit_code == 0);
  CHECK(cli.Stack("b")["StackStatus"] == "CREATE_COMPLETE");
  const std::string instance = cli.Json("describe-stack-resource --stack-name b --logical-resource-id Web")
                                   ["StackResourceDetail"]["PhysicalResourceId"];
  std::vector<std::string> events = cli.Events("b", "Web");
  REQUIRE(events.size() == 4);
  CHECK(events[2] == "Web CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId " + instance);
  CHECK(events[3] == "Web CREATE_COMPLETE");

  // With the boot script turned off, nobody signals: the create times out.
  Run off = cli("world load " + cli.Write("config.lua", R"(world.put("config", "ec2", { run_user_data = false }))"));
  INFO(off.out);
  REQUIRE(off.exit_code == 0);
  REQUIRE(cli("create-stack --stack-name b2 --template-body file://t.json").exit_code == 0);
  CHECK(cli.Stack("b2")["StackStatus"] == "ROLLBACK_COMPLETE");
  CHECK(cli.Events("b2", "Web")[2] ==
        "Web CREATE_FAILED Failed to receive 1 resource signal(s) within the specified duration");
}
