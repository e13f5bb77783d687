// The CLI tests' fixture: the built `moonstack` run in a fresh directory of
// its own, with its state file there (MOONSTACK_STATE), as a user runs it.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_util.h"

namespace ms::test {

class CliFixture {
 public:
  // A fresh directory moonstack_<suite>_<name> under the temp directory.
  CliFixture(const std::string& suite, const std::string& name)
      : dir((std::filesystem::temp_directory_path() / ("moonstack_" + suite + "_" + name)).string()) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }

  // `moonstack <args>`; its stderr joins stdout unless with_stderr is false.
  CommandResult operator()(const std::string& args, bool with_stderr = true) const {
    std::string cmd = "cd " + dir + " && " + env + " MOONSTACK_STATE=" + dir + "/state.db " + MOONSTACK_BINARY + " " +
                      args + (with_stderr ? " 2>&1" : " 2>/dev/null");
    return RunCommand(cmd);
  }
  // A command that succeeds, and the JSON it prints.
  nlohmann::json Json(const std::string& args) const {
    CommandResult r = (*this)(args, false);
    INFO(args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  }
  // Writes a file in the directory; its path.
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  }
  // Makes IAM role `name` in the default account, trusting Lambda (the
  // execution role a function names must exist and let Lambda assume it).
  void MakeLambdaRole(const std::string& name) const {
    Json("world call iam CreateRole '{\"RoleName\": \"" + name + "\", \"AssumeRolePolicyDocument\": " +
         kLambdaTrustPolicy + "}'");
  }
  std::string Status(const std::string& stack) const {
    return Json("describe-stacks --stack-name " + stack)["Stacks"][0]["StackStatus"];
  }
  // "Logical STATUS reason" per event, oldest first, from `from` on.
  std::vector<std::string> Events(const std::string& stack, size_t from) const {
    auto events = Json("describe-stack-events --stack-name " + stack)["StackEvents"];
    std::vector<std::string> seq;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      seq.push_back((*it)["LogicalResourceId"].get<std::string>() + " " +
                    (*it)["ResourceStatus"].get<std::string>() + " " + it->value("ResourceStatusReason", ""));
    }
    return std::vector<std::string>(seq.begin() + static_cast<long>(std::min(from, seq.size())), seq.end());
  }

  const std::string dir;
  // Variables every command gets ("NAME=value ..."), e.g. MOONSTACK_START_TIME.
  std::string env;
};

}  // namespace ms::test
