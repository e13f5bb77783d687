// update-stack as a user runs it, against the built-in providers in virtual
// time: the aws CLI's shapes and messages (seed 000 runs 1-4, 7).
#include <catch2/catch.hpp>

#include "test_util.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;

struct Cli {
  std::string dir;
  explicit Cli(const std::string& name) : dir((fs::temp_directory_path() / ("moonstack_update_cli_" + name)).string()) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  Run operator()(const std::string& args, bool with_stderr = true) const {
    std::string cmd = "cd " + dir + " && MOONSTACK_STATE=" + dir + "/state.db " + MOONSTACK_BINARY + " " + args +
                      (with_stderr ? " 2>&1" : " 2>/dev/null");
    return ms::test::RunCommand(cmd);
  }
  nlohmann::json Json(const std::string& args) const {
    Run r = (*this)(args, false);
    INFO(args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  }
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  }
  // "Logical STATUS reason" per event, oldest first, from `from` on.
  std::vector<std::string> Events(const std::string& stack, size_t from) const {
    auto events = Json("describe-stack-events --stack-name " + stack)["StackEvents"];
    std::vector<std::string> seq;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      seq.push_back((*it)["LogicalResourceId"].get<std::string>() + " " +
                    (*it)["ResourceStatus"].get<std::string>() + " " + it->value("ResourceStatusReason", ""));
    }
    return std::vector<std::string>(seq.begin() + static_cast<long>(from), seq.end());
  }
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
      "UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one";
  CHECK(cli.Events("app", created) == std::vector<std::string>{
                                          "app UPDATE_IN_PROGRESS User Initiated",
                                          "Vpc " + replacing,
                                          "Vpc UPDATE_IN_PROGRESS Resource creation initiated",
                                          "Vpc UPDATE_COMPLETE ",
                                          "Group " + replacing,
                                          "Group UPDATE_IN_PROGRESS Resource creation initiated",
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

TEST_CASE("deploy updates an existing stack; parameters not overridden keep their values", "[cli][stacks][update]") {
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
        "Server UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one");
}
