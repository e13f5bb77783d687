// Stack names from the command line: a name that is no stack name is refused
// with AWS's message before anything is written (the lock file was once
// opened at a path made of the raw name), and workflow commands leave no
// lock file behind.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("stack_name_cli", name) {}
};

const char* kTemplate =
    R"({"Resources": {"Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}}}})";

std::string CreateError(const std::string& value, const std::string& constraint) {
  return "\nAn error occurred (ValidationError) when calling the CreateStack operation: 1 validation error detected: "
         "Value '" + value + "' at 'stackName' failed to satisfy constraint: " + constraint + "\n";
}

const std::string kPattern = "Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*";

size_t FilesIn(const fs::path& dir) {
  if (!fs::exists(dir)) return 0;
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("create-stack and deploy refuse a name that is no stack name before touching the disk", "[cli][stacks]") {
  Cli cli("refused");
  const std::string t = cli.Write("t.json", kTemplate);
  const std::string absolute = cli.dir + "/absolute";
  for (const std::string& name : std::vector<std::string>{"../escaped", absolute, "a/b", "."}) {
    INFO(name);
    Run r = cli("create-stack --stack-name '" + name + "' --template-body file://" + t);
    CHECK(r.exit_code == 255);
    CHECK(r.out == CreateError(name, kPattern));
  }
  Run deploy = cli("deploy --stack-name ../escaped --template-file " + t);
  CHECK(deploy.exit_code == 255);
  CHECK(deploy.out.find("Value '../escaped' at 'stackName' failed to satisfy constraint") != std::string::npos);
  CHECK_FALSE(fs::exists(cli.dir + "/escaped"));
  CHECK_FALSE(fs::exists(absolute));
  CHECK(FilesIn(cli.dir + "/state.db.locks") == 0);

  const std::string long_name(300, 'a');  // past the file system's 255 too: once a store error
  Run r = cli("create-stack --stack-name " + long_name + " --template-body file://" + t);
  CHECK(r.exit_code == 255);
  CHECK(r.out == CreateError(long_name, "Member must have length less than or equal to 128"));

  // A name or ID elsewhere: describe and delete say what AWS says.
  Run describe = cli("describe-stacks --stack-name a/b");
  CHECK(describe.out == "\nAn error occurred (ValidationError) when calling the DescribeStacks operation: 1 validation "
                        "error detected: Value 'a/b' at 'stackName' failed to satisfy constraint: Member must "
                        "satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*\n");
  Run del = cli("delete-stack --stack-name " + long_name);
  CHECK(del.exit_code == 255);
  CHECK(del.out == "\nAn error occurred (ValidationError) when calling the DeleteStack operation: Stack name cannot "
                   "exceed 128 characters\n");
}

TEST_CASE("create/delete churn leaves no lock file behind", "[cli][stacks]") {
  Cli cli("churn");
  const std::string t = cli.Write("t.json", kTemplate);
  for (int i = 0; i < 4; ++i) {
    const std::string name = "churn" + std::to_string(i);
    REQUIRE(cli("create-stack --stack-name " + name + " --template-body file://" + t).exit_code == 0);
    REQUIRE(cli("delete-stack --stack-name " + name).exit_code == 0);
  }
  CHECK(cli.Json("list-stacks --stack-status-filter DELETE_COMPLETE")["StackSummaries"].size() == 4);
  CHECK(FilesIn(cli.dir + "/state.db.locks") == 0);
}
