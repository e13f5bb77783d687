// Crash recovery: the process is killed with SIGKILL right after each of its
// checkpoints in turn (MOONSTACK_CRASH_AFTER_COMMITS, see store/stack_tables),
// and the next command finds the stack in progress, resumes it to a terminal
// status, and every resource the world holds is accounted for.
#include <catch2/catch.hpp>

#include "test_util.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;

Run Sh(const std::string& cmd) {
  return ms::test::RunCommand(cmd + " 2>&1");
}

const char* kTemplate = R"({
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}},
    "Subnet": {"Type": "AWS::EC2::Subnet", "Properties": {"VpcId": {"Ref": "Vpc"}, "CidrBlock": "10.0.1.0/24"}},
    "Group": {"Type": "AWS::EC2::SecurityGroup",
              "Properties": {"GroupDescription": "web", "VpcId": {"Ref": "Vpc"}}},
    "Server": {"Type": "AWS::EC2::Instance",
               "Properties": {"ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro",
                              "SubnetId": {"Ref": "Subnet"}, "SecurityGroupIds": [{"Ref": "Group"}]}},
    "Second": {"Type": "AWS::EC2::Instance",
               "Properties": {"ImageId": "ami-0123456789abcdef0", "SubnetId": {"Ref": "Subnet"}}}
  }
})";

struct State {
  std::string dir;
  std::string Cmd(const std::string& args) const {
    return std::string(MOONSTACK_BINARY) + " " + args + " --state " + dir + "/state.db";
  }
};

State Fresh(int point, const std::string& what) {
  State s{(fs::temp_directory_path() / ("moonstack_crash_" + what + "_" + std::to_string(point))).string()};
  fs::remove_all(s.dir);
  fs::create_directories(s.dir);
  std::ofstream(s.dir + "/t.json") << kTemplate;
  return s;
}

nlohmann::json Json(const Run& r) {
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

// Live world records that stand for resources a stack may own.
std::set<std::string> LiveResources(const State& s) {
  std::set<std::string> ids;
  for (const char* kind : {"ec2.instance", "ec2.vpc", "ec2.subnet", "ec2.security_group"}) {
    auto list = Json(Sh(s.Cmd(std::string("world list --kind ") + kind)))["Records"];
    for (const auto& r : list) {
      if (!r["Live"].get<bool>()) continue;
      auto rec = Json(Sh(s.Cmd("world show " + r["Id"].get<std::string>() + " --kind " + kind)));
      const auto& data = rec["Data"];
      if (data.value("IsDefault", false) || data.value("GroupName", "") == "default") continue;  // the sim's own
      ids.insert(r["Id"].get<std::string>());
    }
  }
  return ids;
}

// Physical IDs of the stack's resources that still stand for something.
std::set<std::string> StackResources(const State& s, const std::string& stack) {
  std::set<std::string> ids;
  auto list = Json(Sh(s.Cmd("describe-stack-resources --stack-name " + stack)))["StackResources"];
  for (const auto& r : list) {
    const std::string status = r["ResourceStatus"];
    if (status == "DELETE_COMPLETE" || !r.contains("PhysicalResourceId")) continue;
    ids.insert(r["PhysicalResourceId"].get<std::string>());
  }
  return ids;
}

}  // namespace

TEST_CASE("a create killed after any checkpoint recovers to CREATE_COMPLETE, nothing lost", "[cli][crash]") {
  int completed_without_crash = 0, crashed = 0;
  for (int point = 1; point <= 40 && completed_without_crash == 0; ++point) {
    State s = Fresh(point, "create");
    Run create = Sh("MOONSTACK_CRASH_AFTER_COMMITS=" + std::to_string(point) + " " +
                    s.Cmd("create-stack --stack-name web --template-file " + s.dir + "/t.json"));
    INFO("kill point " << point << "\n" << create.out);
    if (create.exit_code == 0) {
      ++completed_without_crash;  // past the last checkpoint: every point was covered
      continue;
    }
    CHECK(create.exit_code == 137);  // SIGKILL
    ++crashed;
    // A reader leaves it as it is (in progress unless the kill came after
    // the last checkpoint); the next writer resumes it.
    const std::string seen = Json(Sh(s.Cmd("describe-stacks --stack-name web")))["Stacks"][0]["StackStatus"];
    CHECK(Json(Sh(s.Cmd("recover")))["Resumed"].size() == (seen == "CREATE_IN_PROGRESS" ? 1u : 0u));
    if (seen != "CREATE_COMPLETE") CHECK(seen == "CREATE_IN_PROGRESS");
    auto stacks = Json(Sh(s.Cmd("describe-stacks --stack-name web")))["Stacks"];
    REQUIRE(stacks.size() == 1);
    CHECK(stacks[0]["StackStatus"] == "CREATE_COMPLETE");
    CHECK(LiveResources(s) == StackResources(s, "web"));
    CHECK(StackResources(s, "web").size() == 5);
  }
  CHECK(completed_without_crash == 1);
  CHECK(crashed >= 5);  // the create has at least that many checkpoints
}

TEST_CASE("a delete killed after any checkpoint recovers to DELETE_COMPLETE, nothing left", "[cli][crash]") {
  int completed_without_crash = 0, crashed = 0;
  for (int point = 1; point <= 40 && completed_without_crash == 0; ++point) {
    State s = Fresh(point, "delete");
    Json(Sh(s.Cmd("create-stack --stack-name web --template-file " + s.dir + "/t.json")));
    Run del = Sh("MOONSTACK_CRASH_AFTER_COMMITS=" + std::to_string(point) + " " +
                 s.Cmd("delete-stack --stack-name web"));
    INFO("kill point " << point << "\n" << del.out);
    if (del.exit_code == 0) {
      ++completed_without_crash;
      continue;
    }
    CHECK(del.exit_code == 137);
    ++crashed;
    Json(Sh(s.Cmd("recover")));
    auto stacks = Json(Sh(s.Cmd("list-stacks")))["StackSummaries"];
    REQUIRE(stacks.size() == 1);
    CHECK(stacks[0]["StackStatus"] == "DELETE_COMPLETE");
    CHECK(LiveResources(s).empty());
  }
  CHECK(completed_without_crash == 1);
  CHECK(crashed >= 3);
}

namespace {

// An update that replaces Group, updates Second in place (its type, and its
// groups through the replacement) and adds Bad, whose CIDR is outside the
// VPC: Bad fails after the others are done, and the update rolls back.
const char* kFailingUpdate = R"({
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}},
    "Subnet": {"Type": "AWS::EC2::Subnet", "Properties": {"VpcId": {"Ref": "Vpc"}, "CidrBlock": "10.0.1.0/24"}},
    "Group": {"Type": "AWS::EC2::SecurityGroup",
              "Properties": {"GroupDescription": "web v2", "VpcId": {"Ref": "Vpc"}}},
    "Server": {"Type": "AWS::EC2::Instance",
               "Properties": {"ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro",
                              "SubnetId": {"Ref": "Subnet"}, "SecurityGroupIds": [{"Ref": "Group"}]}},
    "Second": {"Type": "AWS::EC2::Instance",
               "Properties": {"ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.large",
                              "SubnetId": {"Ref": "Subnet"}}},
    "Bad": {"Type": "AWS::EC2::Subnet", "DependsOn": ["Second", "Server"],
            "Properties": {"VpcId": {"Ref": "Vpc"}, "CidrBlock": "10.9.0.0/24"}}
  }
})";

std::string InstanceType(const State& s, const std::string& id) {
  return Json(Sh(s.Cmd("world show " + id + " --kind ec2.instance")))["Data"]["InstanceType"];
}

}  // namespace

TEST_CASE("an update rollback killed after any checkpoint resumes to UPDATE_ROLLBACK_COMPLETE", "[cli][crash]") {
  int completed_without_crash = 0, crashed = 0;
  for (int point = 1; point <= 60 && completed_without_crash == 0; ++point) {
    State s = Fresh(point, "update");
    std::ofstream(s.dir + "/u.json") << kFailingUpdate;
    Json(Sh(s.Cmd("create-stack --stack-name web --template-file " + s.dir + "/t.json")));
    const std::set<std::string> before = StackResources(s, "web");
    Run update = Sh("MOONSTACK_CRASH_AFTER_COMMITS=" + std::to_string(point) + " " +
                    s.Cmd("update-stack --stack-name web --template-file " + s.dir + "/u.json"));
    INFO("kill point " << point << "\n" << update.out);
    if (update.exit_code == 0) {
      ++completed_without_crash;
    } else {
      CHECK(update.exit_code == 137);
      ++crashed;
    }
    // The next command resumes: the update (if it was still going) fails on
    // Bad, and the rollback, wherever it was, ends with the stack as before.
    Json(Sh(s.Cmd("recover")));
    auto stacks = Json(Sh(s.Cmd("describe-stacks --stack-name web")))["Stacks"];
    REQUIRE(stacks.size() == 1);
    CHECK(stacks[0]["StackStatus"] == "UPDATE_ROLLBACK_COMPLETE");
    CHECK(StackResources(s, "web") == before);
    CHECK(LiveResources(s) == before);
    auto resources = Json(Sh(s.Cmd("describe-stack-resources --stack-name web")))["StackResources"];
    for (const auto& r : resources) {
      if (r["LogicalResourceId"] == "Second") CHECK(InstanceType(s, r["PhysicalResourceId"]) == "m1.small");  // the default: t.json names none
    }
  }
  CHECK(completed_without_crash == 1);
  CHECK(crashed >= 8);
}
