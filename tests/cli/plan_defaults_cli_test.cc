// A create-only property the template leaves to its default is no change,
// also when another property is unknown at planning time (it depends on a
// resource this update replaces): `plan` and a change set say what the run
// then does — an update in place, no replacement. (The deployed properties
// hold the default, the provider's validation filled it in; the planner
// cannot validate a value with unknown parts, so it fills the defaults from
// the schema.)
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <string>

namespace {

// Test::Default::Thing: Kind is create-only with a default; Label changes in
// place; Name is create-only, its attribute Id changes with it.
const char* kProvider = R"(
local P = require("moonstack.provider")
return P.define {
  type = "Test::Default::Thing",
  properties = {
    P.string "Name" { update = "replace" },
    P.string "Kind" { update = "replace", default = "standard" },
    P.string "Label" { update = "none" },
  },
  attributes = { "Id" },
  create = function(ctx, props)
    return { id = ctx.logical_id .. "-" .. (props.Name or "x"), attributes = { Id = (props.Name or "x") .. "-id" } }
  end,
  update = function(ctx, id, props) return { attributes = { Id = (props.Name or "x") .. "-id" } } end,
  delete = function() end,
}
)";

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("plan_defaults_cli", name) {
    std::filesystem::create_directories(dir + "/providers");
    Write("providers/thing.lua", kProvider);
  }
  std::string Template(const std::string& b_name) const {
    return Write("t-" + b_name + ".json", R"({"Resources": {
      "B": {"Type": "Test::Default::Thing", "Properties": {"Name": ")" + b_name + R"("}},
      "A": {"Type": "Test::Default::Thing", "Properties": {"Label": {"Fn::GetAtt": ["B", "Id"]}}}}})");
  }
  std::string Providers() const { return " --providers " + dir + "/providers"; }
};

}  // namespace

TEST_CASE("plan: a create-only property left to its default is no change beside an unknown value", "[cli][plan]") {
  Cli cli("unknown_beside_default");
  cli("create-stack --stack-name s" + cli.Providers() + " --template-body file://" + cli.Template("one"));
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  const std::string next = cli.Template("two");

  nlohmann::json plan = cli.Json("plan --output json --stack-name s" + cli.Providers() + " --template-body file://" + next);
  nlohmann::json a;
  for (const auto& c : plan["Changes"]) {
    if (c["ResourceChange"]["LogicalResourceId"] == "A") a = c["ResourceChange"];
  }
  REQUIRE(a.is_object());
  CHECK(a["Action"] == "Modify");
  CHECK(a["Replacement"] == "False");
  REQUIRE(a["Details"].size() == 1);
  CHECK(a["Details"][0]["Target"]["Name"] == "Label");

  cli("create-change-set --stack-name s --change-set-name cs" + cli.Providers() + " --template-body file://" + next);
  nlohmann::json cs = cli.Json("describe-change-set --stack-name s --change-set-name cs");
  for (const auto& c : cs["Changes"]) {
    if (c["ResourceChange"]["LogicalResourceId"] == "A") CHECK(c["ResourceChange"]["Replacement"] == "False");
  }

  // And the run does that: A updated in place, its physical ID kept.
  const std::string before = cli.Json("describe-stack-resource --stack-name s --logical-resource-id A")
                                 ["StackResourceDetail"]["PhysicalResourceId"];
  cli("update-stack --stack-name s" + cli.Providers() + " --template-body file://" + next);
  CHECK(cli.Status("s") == "UPDATE_COMPLETE");
  CHECK(cli.Json("describe-stack-resource --stack-name s --logical-resource-id A")["StackResourceDetail"]
            ["PhysicalResourceId"] == before);
}
