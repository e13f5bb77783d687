// The CLI's --region: a stack lives in the region it was created in
// (records/stack_scope.h), and a region AWS does not have is refused with
// AWS's answer to a request scoped to one.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <string>

namespace {

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("regions_cli", name) {}
};

const char* kTemplate = R"({"Resources": {"Topic": {"Type": "AWS::SNS::Topic"}},
  "Outputs": {"Region": {"Value": {"Ref": "AWS::Region"}, "Export": {"Name": "where"}}}})";

}  // namespace

TEST_CASE("regions through --region: a stack per region of one name, listed and exported in its own region", "[cli][regions]") {
  Cli cli("two");
  const std::string t = cli.Write("t.json", kTemplate);
  REQUIRE(cli("create-stack --stack-name web --template-body file://" + t).exit_code == 0);
  REQUIRE(cli("create-stack --stack-name web --region eu-west-1 --template-body file://" + t).exit_code == 0);
  nlohmann::json east = cli.Json("list-exports")["Exports"];
  nlohmann::json west = cli.Json("list-exports --region eu-west-1")["Exports"];
  REQUIRE(east.size() == 1);
  REQUIRE(west.size() == 1);
  CHECK(east[0]["Value"] == "us-east-1");
  CHECK(west[0]["Value"] == "eu-west-1");
  CHECK(west[0]["ExportingStackId"].get<std::string>().rfind("arn:aws:cloudformation:eu-west-1:", 0) == 0);
  REQUIRE(cli("delete-stack --stack-name web --region eu-west-1").exit_code == 0);
  nlohmann::json listed = cli.Json("list-stacks")["StackSummaries"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["StackStatus"] == "CREATE_COMPLETE");
  nlohmann::json gone = cli.Json("list-stacks --region eu-west-1")["StackSummaries"];
  REQUIRE(gone.size() == 1);
  CHECK(gone[0]["StackStatus"] == "DELETE_COMPLETE");
}

TEST_CASE("regions through --region: a region AWS does not have is refused with AWS's message", "[cli][regions]") {
  Cli cli("bad");
  ms::test::CommandResult r = cli("list-stacks --region us-moon-1");
  CHECK(r.exit_code == 255);
  CHECK(r.out == "\nAn error occurred (SignatureDoesNotMatch) when calling the ListStacks operation: Credential "
                 "should be scoped to a valid region, not 'us-moon-1'. \n");
}
