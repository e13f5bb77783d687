// The provider log gets what every provider or scenario Lua function running
// in an operation writes, not only the create/update/delete hooks: a
// scenario's handlers (print and its `log`), a property's update function
// (DecideUpdate), drift detection's `read` calls and an import's. Each line
// names its stack, logical ID, function and level. Through the moonstack
// binary, virtual time from 2100-01-01 (a world clock record).
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <sstream>
#include <string>
#include <vector>

namespace {

// Test::LogSrc::Thing: Name's update function prints what it decides on, its
// read prints what it looks at (and a DEBUG line); identified by its Name.
const char* kProvider = R"(local P = require("moonstack.provider")
return P.define {
  type = "Test::LogSrc::Thing",
  primary_identifier = "Name",
  properties = {
    P.string "Name" { update = function(old, new) print("deciding " .. tostring(new)); return "none" end },
  },
  create = function(ctx, props) return { id = props.Name } end,
  update = function(ctx, id, new, old) return {} end,
  read = function(ctx, id, props)
    print("reading " .. id)
    ctx.log.debug("read by", ctx.logical_id)
    return { properties = { Name = id } }
  end,
  delete = function() end,
}
)";

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("provider_log_sources_cli", name) {
    std::filesystem::create_directories(dir + "/providers");
    Write("providers/thing.lua", kProvider);
    Json("world load " + Write("clock.lua", R"(world.put("moonstack", "clock", { now_ms = 4102444800000 }))"));
  }
  std::string Providers() const { return "--providers " + dir + "/providers"; }
  std::string Template(const std::string& name, const std::string& extra = "") const {
    return Write("t.json", R"({"Resources": {"A": {"Type": "Test::LogSrc::Thing", "Properties": {"Name": ")" + name +
                               "\"}}" + extra + "}}");
  }
  // `logs --stack-name S`, each line without its timestamp.
  std::vector<std::string> Log(const std::string& stack) const {
    ms::test::CommandResult r = (*this)("logs --stack-name " + stack, false);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    std::vector<std::string> out;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      REQUIRE(line.rfind("2100-01-01T", 0) == 0);
      out.push_back(line.substr(line.find(' ') + 1));
    }
    return out;
  }
};

}  // namespace

TEST_CASE("provider log: a scenario's print and log lines are in the operation's log, by logical ID", "[cli][logs]") {
  Cli cli("scenario");
  const std::string s = cli.Write("s.lua", R"(
    on({ logical_id = "A", status = "CREATE_COMPLETE" }, function(event)
      print("saw " .. event.LogicalResourceId .. " " .. event.ResourceStatus)
      log.warn("careful", 2)
    end)
  )");
  ms::test::CommandResult r =
      cli("create-stack --stack-name s " + cli.Providers() + " --scenario " + s + " --template-body file://" +
          cli.Template("a"));
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(cli.Log("s") == std::vector<std::string>{"s A scenario INFO saw A CREATE_COMPLETE",
                                                 "s A scenario WARN careful\t2"});
  // Its print is on stderr without -v, as the command's own script's.
  CHECK(r.out.find("s A scenario INFO saw A CREATE_COMPLETE") != std::string::npos);
}

TEST_CASE("provider log: a property's update function (DecideUpdate) logs under decide_update", "[cli][logs]") {
  Cli cli("decide");
  cli.Json("create-stack --stack-name s " + cli.Providers() + " --template-body file://" + cli.Template("a"));
  cli.Json("update-stack --stack-name s " + cli.Providers() + " --template-body file://" + cli.Template("b"));
  REQUIRE(cli.Status("s") == "UPDATE_COMPLETE");
  CHECK(cli.Log("s") == std::vector<std::string>{"s A decide_update INFO deciding b"});
}

TEST_CASE("provider log: drift detection's and an import's read calls log under read", "[cli][logs]") {
  Cli cli("read");
  cli.Json("create-stack --stack-name s " + cli.Providers() + " --template-body file://" + cli.Template("a"));
  cli.Json("detect-stack-drift --stack-name s " + cli.Providers());
  CHECK(cli.Log("s") == std::vector<std::string>{"s A read INFO reading a", "s A read DEBUG read by\tA"});

  // B, made outside any stack, imported: the change set's look-up is not an
  // operation; the import's own read is.
  const std::string extra =
      R"(, "B": {"Type": "Test::LogSrc::Thing", "DeletionPolicy": "Retain", "Properties": {"Name": "b"}})";
  const std::string to_import = cli.Write(
      "i.json", R"([{"ResourceType": "Test::LogSrc::Thing", "LogicalResourceId": "B", "ResourceIdentifier": {"Name": "b"}}])");
  cli.Json("create-change-set --stack-name s --change-set-name imp --change-set-type IMPORT " + cli.Providers() +
           " --template-body file://" + cli.Template("a", extra) + " --resources-to-import file://" + to_import);
  REQUIRE(cli("execute-change-set --stack-name s --change-set-name imp " + cli.Providers()).exit_code == 0);
  REQUIRE(cli.Status("s") == "IMPORT_COMPLETE");
  CHECK(cli.Log("s") == std::vector<std::string>{"s A read INFO reading a", "s A read DEBUG read by\tA",
                                                 "s B read INFO reading b", "s B read DEBUG read by\tB"});
}
