// The good corpus templates listed in deploy_cases.tsv deploy in the default
// simulated world (virtual time) and delete cleanly; the file says why the
// others are not listed.
#include <catch2/catch.hpp>

#include "test_util.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;

struct Cli {
  std::string state;
  Run operator()(const std::string& args) const {
    std::string cmd = "MOONSTACK_STATE=" + state + " " + MOONSTACK_BINARY + " " + args + " 2>&1";
    return ms::test::RunCommand(cmd);
  }
  nlohmann::json Json(const std::string& args) const {
    Run r = (*this)(args);
    INFO(args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  }
};

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("good corpus templates deploy in the default world and delete cleanly", "[corpus][deploy]") {
  const std::string dir = (fs::temp_directory_path() / "moonstack_corpus_deploy").string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  Cli cli{dir + "/state.db"};
  // What the templates' AWS-specific parameters name: made out of band first.
  const std::string vpc = cli.Json("world call ec2 CreateVpc '{\"CidrBlock\":\"10.9.0.0/16\"}'")["Vpc"]["VpcId"];
  const std::string subnet = cli.Json("world call ec2 CreateSubnet '{\"VpcId\":\"" + vpc +
                                      "\",\"CidrBlock\":\"10.9.1.0/24\"}'")["Subnet"]["SubnetId"];

  std::ifstream cases(std::string(MOONSTACK_SOURCE_DIR) + "/tests/corpus/deploy_cases.tsv");
  REQUIRE(cases);
  std::string line;
  int n = 0;
  while (std::getline(cases, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    const std::string path = std::string(MOONSTACK_SHARED_DIR) + "/corpus/" + line.substr(0, tab);
    std::string params = tab == std::string::npos ? "" : line.substr(tab + 1);
    params = Replace(Replace(params, "${VPC}", vpc), "${SUBNET}", subnet);
    const std::string name = "corpus" + std::to_string(++n);
    INFO(path);
    Run create = cli("create-stack --stack-name " + name + " --template-body file://" + path +
                     " --capabilities CAPABILITY_IAM CAPABILITY_NAMED_IAM CAPABILITY_AUTO_EXPAND" +
                     (params.empty() ? "" : " --parameters " + params));
    INFO(create.out);
    REQUIRE(create.exit_code == 0);
    auto stack = cli.Json("describe-stacks --stack-name " + name)["Stacks"][0];
    INFO(stack.dump());
    CHECK(stack["StackStatus"] == "CREATE_COMPLETE");
    REQUIRE(cli("delete-stack --stack-name " + name).exit_code == 0);
    auto summaries = cli.Json("list-stacks --stack-status-filter DELETE_COMPLETE")["StackSummaries"];
    CHECK(summaries.size() == static_cast<size_t>(n));
  }
  CHECK(n >= 20);
}
