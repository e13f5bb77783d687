// `moonstack world`: the simulated cloud inspected and changed out of band,
// persisted in the state file between commands.
#include <catch2/catch.hpp>

#include "test_util.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using Run = ms::test::CommandResult;

// Each test case its own state directory: ctest runs cases in parallel.
std::string g_case = "default";
std::string StateDir() {
  return (std::filesystem::temp_directory_path() / ("moonstack_world_cli_" + g_case)).string();
}

Run World(const std::string& args, bool with_stderr = true) {
  std::string cmd = std::string(MOONSTACK_BINARY) + " world " + args + " --state " + StateDir() + "/state.db" +
                    (with_stderr ? " 2>&1" : " 2>/dev/null");
  return ms::test::RunCommand(cmd);
}

void Fresh(const std::string& name) {
  g_case = name;
  std::filesystem::remove_all(StateDir());
  std::filesystem::create_directories(StateDir());
}

std::string WriteScript(const std::string& name, const std::string& text) {
  std::string path = StateDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("world load, list and show persist records between commands", "[cli][world]") {
  Fresh("load");
  std::string script = WriteScript("seed.lua", R"(
    world.put("ec2.security_group", "sg-1", { GroupName = "web" })
    world.put("ec2.instance", "i-1", { InstanceType = "t2.micro" }, { refs = { "sg-1" } })
  )");
  Run load = World("load " + script);
  INFO(load.out);
  REQUIRE(load.exit_code == 0);
  CHECK(nlohmann::json::parse(load.out)["RecordsChanged"] == 2);

  Run list = World("list --kind ec2.instance");
  REQUIRE(list.exit_code == 0);
  auto records = nlohmann::json::parse(list.out)["Records"];
  REQUIRE(records.size() == 1);
  CHECK(records[0]["Id"] == "i-1");
  CHECK(records[0]["Live"] == true);

  Run show = World("show i-1");
  REQUIRE(show.exit_code == 0);
  auto j = nlohmann::json::parse(show.out);
  CHECK(j["Kind"] == "ec2.instance");
  CHECK(j["Refs"] == nlohmann::json::array({"sg-1"}));
  CHECK(j["Data"]["InstanceType"] == "t2.micro");

  REQUIRE(World("reset").exit_code == 0);
  CHECK(nlohmann::json::parse(World("list").out)["Records"].empty());
}

TEST_CASE("world errors read as the aws CLI's", "[cli][world]") {
  Fresh("errors");
  Run missing = World("show i-nope");
  CHECK(missing.exit_code == 255);
  CHECK(missing.out == "\nAn error occurred (ValidationError) when calling the ShowWorld operation: "
                       "No world record with id i-nope\n");
  Run service = World("call nosuch DoThing '{}'");
  CHECK(service.exit_code == 255);
  CHECK(service.out ==
        "\nAn error occurred (UnknownService) when calling the DoThing operation: Unknown service nosuch\n");
  Run json = World("call ec2 DescribeInstances '{'");
  CHECK(json.exit_code == 255);
  CHECK(json.out.find("Error parsing parameter: Invalid JSON:") != std::string::npos);
  // A script that fails saves nothing.
  std::string bad = WriteScript("bad.lua", "world.put('a', 'b', {})\nerror('stop here')\n");
  Run failed = World("load " + bad);
  CHECK(failed.exit_code == 255);
  CHECK(failed.out.find("stop here") != std::string::npos);
  CHECK(nlohmann::json::parse(World("list", false).out)["Records"].empty());
}

TEST_CASE("world call sets up seed 000's situations with AWS's actions and messages", "[cli][world]") {
  Fresh("seed000");
  auto call = [](const std::string& action, const std::string& json) {
    Run r = World("call ec2 " + action + " '" + json + "'", false);
    INFO(action << " " << json << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  };
  const std::string vpc = call("CreateVpc", R"({"CidrBlock":"10.0.0.0/16"})")["Vpc"]["VpcId"];
  const std::string subnet =
      call("CreateSubnet", R"({"VpcId":")" + vpc + R"(","CidrBlock":"10.0.1.0/24"})")["Subnet"]["SubnetId"];
  const std::string sg = call("CreateSecurityGroup",
                              R"({"GroupName":"web","Description":"web","VpcId":")" + vpc + R"("})")["GroupId"];
  // An instance outside any stack holding the group (test 37).
  const std::string instance = call("RunInstances", R"({"ImageId":"ami-12345678","MinCount":1,"MaxCount":1,)"
                                                    R"("SubnetId":")" + subnet + R"(","SecurityGroupIds":[")" +
                                                        sg + R"("]})")["Instances"][0]["InstanceId"];
  Run del = World("call ec2 DeleteSecurityGroup '{\"GroupId\":\"" + sg + "\"}'");
  CHECK(del.exit_code == 255);
  CHECK(del.out == "\nAn error occurred (DependencyViolation) when calling the DeleteSecurityGroup operation: "
                   "resource " + sg + " has a dependent object\n");
  // Terminated out of band (test 34): it can no longer be stopped.
  auto terminated = call("TerminateInstances", R"({"InstanceIds":[")" + instance + R"("]})");
  CHECK(terminated["TerminatingInstances"][0]["CurrentState"]["Name"] == "shutting-down");
  Run stop = World("call ec2 StopInstances '{\"InstanceIds\":[\"" + instance + "\"]}'");
  CHECK(stop.exit_code == 255);
  CHECK(stop.out == "\nAn error occurred (IncorrectInstanceState) when calling the StopInstances operation: "
                    "This instance '" + instance + "' is not in a state from which it can be stopped.\n");
  // An instance ID where an image ID belongs (tests 33, 36).
  Run bad_image = World("call ec2 RunInstances '{\"ImageId\":\"i-d8d4a266\",\"MinCount\":1,\"MaxCount\":1}'");
  CHECK(bad_image.out == "\nAn error occurred (InvalidAMIID.Malformed) when calling the RunInstances operation: "
                         "Invalid id: \"i-d8d4a266\" (expecting \"ami-...\")\n");
  // An instance-store image (test 6's replacement case).
  auto image = call("RegisterImage", R"({"Name":"store","RootDeviceType":"instance-store"})");
  auto described = call("DescribeImages", R"({"ImageIds":[")" + std::string(image["ImageId"]) + R"("]})");
  CHECK(described["Images"][0]["RootDeviceType"] == "instance-store");
  // Everything persisted in the state file.
  Run show = World("show " + instance, false);
  CHECK(nlohmann::json::parse(show.out)["Kind"] == "ec2.instance");
}

TEST_CASE("world call --account acts in that account: the same queue name in two, each listing its own", "[cli][world]") {
  Fresh("accounts");
  auto call = [](const std::string& args) {
    Run r = World("call " + args, false);
    INFO(args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  };
  CHECK(call("sqs CreateQueue '{\"QueueName\":\"jobs\"}' --account 111111111111")["QueueUrl"] ==
        "https://sqs.us-east-1.amazonaws.com/111111111111/jobs");
  CHECK(call("sqs CreateQueue '{\"QueueName\":\"jobs\"}' --account 222222222222 --region eu-west-1")["QueueUrl"] ==
        "https://sqs.eu-west-1.amazonaws.com/222222222222/jobs");
  CHECK(call("sqs ListQueues '{}' --account 111111111111") ==
        nlohmann::json::parse(R"({"QueueUrls": ["https://sqs.us-east-1.amazonaws.com/111111111111/jobs"]})"));
  CHECK(call("sqs ListQueues '{}' --account 222222222222")["QueueUrls"].empty());  // us-east-1: none there
  CHECK(call("sqs ListQueues '{}' --account 222222222222 --region eu-west-1") ==
        nlohmann::json::parse(R"({"QueueUrls": ["https://sqs.eu-west-1.amazonaws.com/222222222222/jobs"]})"));
  CHECK(call("sqs ListQueues '{}'")["QueueUrls"].empty());  // the default account's
  CHECK(call("sts GetCallerIdentity '{}' --account 222222222222")["Account"] == "222222222222");
  // The records of an account other than the default are kept under "<account>/<kind>".
  auto listed = nlohmann::json::parse(World("list --kind 222222222222/sqs.queue", false).out)["Records"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["Id"] == "eu-west-1:jobs");
  CHECK(nlohmann::json::parse(World("list --kind sqs.queue", false).out)["Records"].empty());
  Run bad = World("call sqs ListQueues '{}' --account 12345");
  CHECK(bad.exit_code == 105);  // CLI11's ValidationError
  CHECK(bad.out == "--account: Invalid account ID '12345': an account ID is 12 digits\nRun with --help for more information.\n");
}

TEST_CASE("world call prints an empty list as an empty array by the action's output shape", "[cli][world]") {
  Fresh("empty_lists");
  auto call = [](const std::string& args) {
    Run r = World("call " + args, false);
    INFO(args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  };
  // Lua has one empty table for [] and {}: the model says which.
  CHECK(call("sqs ListQueues") == nlohmann::json::parse(R"({"QueueUrls": []})"));
  nlohmann::json vpc = call("ec2 CreateVpc '{\"CidrBlock\":\"10.0.0.0/16\"}'")["Vpc"];
  CHECK(vpc["Tags"] == nlohmann::json::array());
  CHECK(vpc["Ipv6CidrBlockAssociationSet"] == nlohmann::json::array());
  // Nested in lists of structures: the VPC's default group's rule lists.
  nlohmann::json groups = call("ec2 DescribeSecurityGroups")["SecurityGroups"];
  REQUIRE(groups.size() == 1);
  CHECK(groups[0]["IpPermissions"][0]["IpRanges"] == nlohmann::json::array());
  CHECK(groups[0]["IpPermissionsEgress"][0]["UserIdGroupPairs"] == nlohmann::json::array());
  // A map the model has stays an object: SQS's attributes of a queue.
  CHECK(call("sqs CreateQueue '{\"QueueName\":\"q\"}'")["QueueUrl"] == "https://sqs.us-east-1.amazonaws.com/123456789012/q");
  nlohmann::json attrs = call("sqs GetQueueAttributes '{\"QueueUrl\":\"https://sqs.us-east-1.amazonaws.com/123456789012/q\",\"AttributeNames\":[\"All\"]}'");
  CHECK(attrs["Attributes"].is_object());
  CHECK(attrs["Attributes"]["VisibilityTimeout"] == "30");
}
