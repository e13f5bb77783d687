// update-stack as a user runs it, against the built-in providers in virtual
// time: the aws CLI's shapes and messages (seed 000 runs 1-4, 7).
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("update_cli", name) {}
};

const char* kNet = R"({
  "Parameters": {"Cidr": {"Type": "String"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "Cidr"}}},
    "Group": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "g", "VpcId": {"Ref": "Vpc"}}}
  },
  "Outputs": {"VpcId": {"Value": {"Ref": "Vpc"}}}
})";

}  // namespace

TEST_CASE("update-stack: errors, a replacement cascade, use-previous values", "[cli][stacks][update]") {
  Cli cli("cascade");
  std::string t = cli.Write("t.json", kNet);
  Run missing = cli("update-stack --stack-name app --template-body file://" + t);
  CHECK(missing.exit_code == 255);
  CHECK(missing.out == "\nAn error occurred (ValidationError) when calling the UpdateStack operation: "
                       "Stack [app] does not exist\n");

  const std::string id = cli.Json("create-stack --stack-name app --template-body file://" + t +
                                  " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16")["StackId"];
  const std::string vpc = cli.Json("describe-stacks --stack-name app")["Stacks"][0]["Outputs"][0]["OutputValue"];
  const size_t created = cli.Events("app", 0).size();

  Run same = cli("update-stack --stack-name app --use-previous-template "
                 "--parameters ParameterKey=Cidr,UsePreviousValue=true");
  CHECK(same.exit_code == 255);
  CHECK(same.out == "\nAn error occurred (ValidationError) when calling the UpdateStack operation: "
                    "No updates are to be performed.\n");

  auto updated = cli.Json("update-stack --stack-name app --use-previous-template "
                          "--parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16");
  CHECK(updated["StackId"] == id);
  CHECK(cli("wait stack-update-complete --stack-name app").exit_code == 0);
  const std::string replacing =
      "UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.";
  CHECK(cli.Events("app", created) == std::vector<std::string>{
                                          "app UPDATE_IN_PROGRESS User Initiated",
                                          "Vpc " + replacing,
                                          "Vpc UPDATE_IN_PROGRESS Resource creation Initiated",
                                          "Vpc UPDATE_COMPLETE ",
                                          "Group " + replacing,
                                          "Group UPDATE_IN_PROGRESS Resource creation Initiated",
                                          "Group UPDATE_COMPLETE ",
                                          "app UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                                          "Group DELETE_IN_PROGRESS ",
                                          "Group DELETE_COMPLETE ",
                                          "Vpc DELETE_IN_PROGRESS ",
                                          "Vpc DELETE_COMPLETE ",
                                          "app UPDATE_COMPLETE ",
                                      });
  auto stack = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  CHECK(stack["StackStatus"] == "UPDATE_COMPLETE");
  CHECK(stack["Parameters"][0]["ParameterValue"] == "10.1.0.0/16");
  const std::string new_vpc = stack["Outputs"][0]["OutputValue"];
  CHECK(new_vpc != vpc);
  // The old VPC is gone from the world.
  std::vector<std::string> live;
  const nlohmann::json vpcs = cli.Json("world list --kind ec2.vpc");
  for (const auto& r : vpcs["Records"]) {
    if (r.value("Live", false)) live.push_back(r.value("Id", ""));
  }
  CHECK(live == std::vector<std::string>{new_vpc});
  CHECK(cli.Json("describe-stack-resource --stack-name app --logical-resource-id Vpc")["StackResourceDetail"]
                ["PhysicalResourceId"] == new_vpc);
}

TEST_CASE("deploy updates an existing stack, parameters not overridden keep their values", "[cli][stacks][update]") {
  Cli cli("deploy");
  std::string t = cli.Write("t.json", kNet);
  Run created = cli("deploy --template-file " + t + " --stack-name web --parameter-overrides Cidr=10.0.0.0/16");
  INFO(created.out);
  REQUIRE(created.exit_code == 0);
  Run same = cli("deploy --template-file " + t + " --stack-name web --no-fail-on-empty-changeset");
  CHECK(same.exit_code == 0);
  // As aws cloudformation deploy prints it: the change set wait, then the empty change set.
  CHECK(same.out == "\nWaiting for changeset to be created..\n\nNo changes to deploy. Stack web is up to date\n");
  std::string t2 = cli.Write("t2.json", std::string(kNet).replace(std::string(kNet).find("\"g\""), 3, "\"web\""));
  Run updated = cli("deploy --template-file " + t2 + " --stack-name web");
  INFO(updated.out);
  CHECK(updated.exit_code == 0);
  CHECK(updated.out.find("Successfully created/updated stack - web") != std::string::npos);
  auto stack = cli.Json("describe-stacks --stack-name web")["Stacks"][0];
  CHECK(stack["StackStatus"] == "UPDATE_COMPLETE");
  CHECK(stack["Parameters"][0]["ParameterValue"] == "10.0.0.0/16");
}

TEST_CASE("update-stack: an instance type change is stop/modify/start on EBS, replacement on instance store",
          "[cli][stacks][update]") {
  Cli cli("instance_type");
  const char* tmpl = R"({"Parameters": {"Type": {"Type": "String"}, "Image": {"Type": "String"}},
    "Resources": {"Server": {"Type": "AWS::EC2::Instance",
                             "Properties": {"ImageId": {"Ref": "Image"}, "InstanceType": {"Ref": "Type"}}}}})";
  std::string t = cli.Write("t.json", tmpl);
  cli.Json("create-stack --stack-name ebs --template-body file://" + t +
           " --parameters ParameterKey=Type,ParameterValue=t3.micro ParameterKey=Image,ParameterValue=ami-12345678");
  const std::string before = cli.Json("describe-stack-resource --stack-name ebs --logical-resource-id Server")
                                 ["StackResourceDetail"]["PhysicalResourceId"];
  size_t from = cli.Events("ebs", 0).size();
  cli.Json("update-stack --stack-name ebs --use-previous-template --parameters "
           "ParameterKey=Type,ParameterValue=t3.large ParameterKey=Image,UsePreviousValue=true");
  CHECK(cli.Events("ebs", from) == std::vector<std::string>{
                                       "ebs UPDATE_IN_PROGRESS User Initiated",
                                       "Server UPDATE_IN_PROGRESS ",
                                       "Server UPDATE_COMPLETE ",
                                       "ebs UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                                       "ebs UPDATE_COMPLETE ",
                                   });
  auto instance = cli.Json("world show " + before + " --kind ec2.instance")["Data"];
  CHECK(instance["InstanceType"] == "t3.large");  // the same instance, resized
  CHECK(instance["State"]["Name"] == "running");

  const std::string store =
      cli.Json("world call ec2 RegisterImage '{\"Name\":\"s\",\"RootDeviceType\":\"instance-store\"}'")["ImageId"];
  cli.Json("create-stack --stack-name store --template-body file://" + t +
           " --parameters ParameterKey=Type,ParameterValue=t3.micro ParameterKey=Image,ParameterValue=" + store);
  from = cli.Events("store", 0).size();
  cli.Json("update-stack --stack-name store --use-previous-template --parameters "
           "ParameterKey=Type,ParameterValue=t3.large ParameterKey=Image,UsePreviousValue=true");
  auto events = cli.Events("store", from);
  REQUIRE(events.size() >= 2);
  CHECK(events[1] ==
        "Server UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.");
}

namespace {

// A group whose description changes (a replacement) and a second group
// added by the update, with a failure scripted by the scenario.
const char* kGroups = R"({
  "Parameters": {"Text": {"Type": "String"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}},
    "Group": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": {"Ref": "Text"}, "VpcId": {"Ref": "Vpc"}}}
  }
})";
const char* kGroupsPlus = R"({
  "Parameters": {"Text": {"Type": "String"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}},
    "Group": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": {"Ref": "Text"}, "VpcId": {"Ref": "Vpc"}}},
    "Extra": {"Type": "AWS::EC2::SecurityGroup", "DependsOn": "Group",
              "Properties": {"GroupDescription": "extra", "VpcId": {"Ref": "Vpc"}}}
  }
})";

std::string Error(const std::string& op, const std::string& message) {
  return "\nAn error occurred (ValidationError) when calling the " + op + " operation: " + message + "\n";
}

}  // namespace

TEST_CASE("rollback-stack after update-stack --disable-rollback, its refusals", "[cli][stacks][update]") {
  Cli cli("rollback_stack");
  const std::string t = cli.Write("t.json", kGroups), u = cli.Write("u.json", kGroupsPlus);
  const std::string fail = cli.Write("fail.lua", R"(fail({ logical_id = "Extra", action = "create" }, { message = "no" }))");
  cli.Json("create-stack --stack-name app --template-body file://" + t + " --parameters ParameterKey=Text,ParameterValue=a");
  Run early = cli("rollback-stack --stack-name app");
  CHECK(early.exit_code == 255);
  CHECK(early.out == Error("RollbackStack", "RollbackStack cannot be called from current stack status"));
  const size_t before = cli.Events("app", 0).size();
  cli.Json("update-stack --stack-name app --template-body file://" + u +
           " --parameters ParameterKey=Text,ParameterValue=b --disable-rollback --scenario " + fail);
  CHECK(cli.Json("describe-stacks --stack-name app")["Stacks"][0]["StackStatus"] == "UPDATE_FAILED");
  const size_t failed = cli.Events("app", 0).size();
  auto rolled = cli.Json("rollback-stack --stack-name app");
  CHECK(rolled["StackId"] == cli.Json("describe-stacks --stack-name app")["Stacks"][0]["StackId"]);
  CHECK(cli.Events("app", failed) == std::vector<std::string>{
                                         "app UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
                                         "Group UPDATE_COMPLETE ",
                                         "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                         "Extra DELETE_COMPLETE ",
                                         "Group DELETE_IN_PROGRESS ",
                                         "Group DELETE_COMPLETE ",
                                         "app UPDATE_ROLLBACK_COMPLETE ",
                                     });
  CHECK(failed > before);
  auto stack = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  CHECK(stack["Parameters"][0]["ParameterValue"] == "a");
  // Only the create's two security groups' worth is left: the VPC's default and Group.
  auto groups = cli.Json("world list --kind ec2.security_group")["Records"];
  int live = 0;
  for (const auto& g : groups) live += g["Live"].get<bool>() ? 1 : 0;
  CHECK(live == 2);
}

TEST_CASE("continue-update-rollback after a rollback step failed, cancel-update-stack refusals",
          "[cli][stacks][update]") {
  Cli cli("continue");
  // Extra fails to create; the rollback of the VPC's in-place tag update
  // fails once (the scenario's rule fires once), so the stack stops
  // UPDATE_ROLLBACK_FAILED and continue-update-rollback gets through.
  const std::string t2 = cli.Write("t2.json", R"({
    "Resources": {"Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16",
                          "Tags": [{"Key": "v", "Value": "1"}]}}}})");
  const std::string u2 = cli.Write("u2.json", R"({
    "Resources": {"Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16",
                          "Tags": [{"Key": "v", "Value": "2"}]}},
                  "Extra": {"Type": "AWS::EC2::SecurityGroup", "DependsOn": "Vpc",
                            "Properties": {"GroupDescription": "extra", "VpcId": {"Ref": "Vpc"}}}}})");
  const std::string fail = cli.Write("fail.lua", R"(
fail({ logical_id = "Extra", action = "create" }, { message = "no" })
fail({ logical_id = "Vpc", action = "rollback" }, { message = "the VPC is busy" }))");
  cli.Json("create-stack --stack-name net --template-body file://" + t2);
  Run early = cli("continue-update-rollback --stack-name net");
  CHECK(early.exit_code == 255);
  CHECK(early.out == Error("ContinueUpdateRollback", "ContinueUpdateRollback cannot be called from current stack status"));
  Run cancel = cli("cancel-update-stack --stack-name net");
  CHECK(cancel.exit_code == 255);
  CHECK(cancel.out == Error("CancelUpdateStack", "CancelUpdateStack cannot be called from current stack status"));

  cli.Json("update-stack --stack-name net --template-body file://" + u2 + " --scenario " + fail);
  auto stack = cli.Json("describe-stacks --stack-name net")["Stacks"][0];
  CHECK(stack["StackStatus"] == "UPDATE_ROLLBACK_FAILED");
  CHECK(stack["StackStatusReason"] == "The following resource(s) failed to update: [Vpc]. ");
  const size_t failed = cli.Events("net", 0).size();
  Run cont = cli("continue-update-rollback --stack-name net");
  CHECK(cont.exit_code == 0);
  CHECK(cont.out.empty());  // no output, as the aws CLI prints none
  CHECK(cli.Events("net", failed) == std::vector<std::string>{
                                         "net UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
                                         "Vpc UPDATE_IN_PROGRESS ",
                                         "Vpc UPDATE_COMPLETE ",
                                         "net UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                         "Extra DELETE_COMPLETE ",
                                         "net UPDATE_ROLLBACK_COMPLETE ",
                                     });
  // The VPC's tags are the create's again (beside CloudFormation's aws:cloudformation:* ones).
  const std::string vpc = cli.Json("describe-stack-resource --stack-name net --logical-resource-id Vpc")
                              ["StackResourceDetail"]["PhysicalResourceId"];
  auto rec = cli.Json("world show " + vpc + " --kind ec2.vpc")["Data"];
  nlohmann::json own = nlohmann::json::array();
  for (const auto& tag : rec["Tags"]) {
    if (tag["Key"].get<std::string>().rfind("aws:cloudformation:", 0) != 0) own.push_back(tag);
  }
  CHECK(own == nlohmann::json::parse(R"([{"Key": "v", "Value": "1"}])"));
  CHECK(rec["Tags"].size() == 4);
}

TEST_CASE("a scenario's cancel_update() cancels the update in flight, it rolls back", "[cli][stacks][update]") {
  Cli cli("cancel");
  const std::string t = cli.Write("t.json", kGroups), u = cli.Write("u.json", kGroupsPlus);
  const std::string cancel = cli.Write("cancel.lua", R"(
latency({ logical_id = "Extra", action = "create" }, 30)
on({ logical_id = "Extra", status = "CREATE_IN_PROGRESS" }, function() cancel_update() end))");
  cli.Json("create-stack --stack-name app --template-body file://" + t + " --parameters ParameterKey=Text,ParameterValue=a");
  const size_t before = cli.Events("app", 0).size();
  cli.Json("update-stack --stack-name app --template-body file://" + u +
           " --parameters ParameterKey=Text,ParameterValue=b --scenario " + cancel);
  CHECK(cli.Events("app", before) ==
        std::vector<std::string>{
            "app UPDATE_IN_PROGRESS User Initiated",
            "Group UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence "
            "creating one.",
            "Group UPDATE_IN_PROGRESS Resource creation Initiated",
            "Group UPDATE_COMPLETE ",
            "Extra CREATE_IN_PROGRESS ",
            "Extra CREATE_FAILED Resource creation cancelled",
            "app UPDATE_ROLLBACK_IN_PROGRESS Stack update cancelled",
            "Group UPDATE_COMPLETE ",
            "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
            "Extra DELETE_COMPLETE ",
            "Group DELETE_IN_PROGRESS ",
            "Group DELETE_COMPLETE ",
            "app UPDATE_ROLLBACK_COMPLETE ",
        });
}

TEST_CASE("run 35: an instance stopped out of band is updated and running afterwards", "[cli][stacks][update]") {
  Cli cli("run35");
  const std::string t = cli.Write("t.json", R"({
    "Parameters": {"ImageId": {"Type": "String"}, "InstanceType": {"Type": "String"}},
    "Resources": {
      "Instance1": {"Type": "AWS::EC2::Instance", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}},
      "Instance2": {"Type": "AWS::EC2::Instance", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}}}})");
  const std::string u = cli.Write("u.json", R"({
    "Parameters": {"ImageId": {"Type": "String"}, "InstanceType": {"Type": "String"}},
    "Resources": {
      "Instance2": {"Type": "AWS::EC2::Instance", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}},
      "Instance3": {"Type": "AWS::EC2::Instance", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}}}})");
  cli.Json("create-stack --stack-name s35 --template-body file://" + t +
           " --parameters ParameterKey=ImageId,ParameterValue=ami-0123456789abcdef0 "
           "ParameterKey=InstanceType,ParameterValue=t2.micro");
  const std::string i2 = cli.Json("describe-stack-resource --stack-name s35 --logical-resource-id Instance2")
                             ["StackResourceDetail"]["PhysicalResourceId"];
  // Stopped by hand, outside the stack.
  cli.Json("world call ec2 StopInstances '{\"InstanceIds\": [\"" + i2 + "\"]}'");
  const size_t before = cli.Events("s35", 0).size();
  cli.Json("update-stack --stack-name s35 --template-body file://" + u +
           " --parameters ParameterKey=ImageId,UsePreviousValue=true ParameterKey=InstanceType,ParameterValue=t2.small");
  CHECK(cli.Events("s35", before) == std::vector<std::string>{
                                         "s35 UPDATE_IN_PROGRESS User Initiated",
                                         "Instance2 UPDATE_IN_PROGRESS ",
                                         "Instance3 CREATE_IN_PROGRESS ",
                                         "Instance3 CREATE_IN_PROGRESS Resource creation Initiated",
                                         "Instance2 UPDATE_COMPLETE ",
                                         "Instance3 CREATE_COMPLETE ",
                                         "s35 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                                         "Instance1 DELETE_IN_PROGRESS ",
                                         "Instance1 DELETE_COMPLETE ",
                                         "s35 UPDATE_COMPLETE ",
                                     });
  // Same physical instance, its new type, and running: the update started it.
  auto data = cli.Json("world show " + i2 + " --kind ec2.instance")["Data"];
  CHECK(data["InstanceType"] == "t2.small");
  CHECK(data["State"]["Name"] == "running");
}
