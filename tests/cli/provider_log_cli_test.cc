// The provider log: what hooks write with ctx.log and print, stamped with
// the operation's clock, the stack, logical ID, hook and level — stored with
// the stack (`moonstack logs --stack-name S [--resource R]`), shown live by
// create-stack/deploy with -v (--debug: DEBUG lines and tracebacks too), a
// hook's runtime error at its file:line on stderr while the stack's status
// reason stays the error's text. Bounded per operation. Through the
// moonstack binary, virtual time from 2100-01-01 (a world clock record).
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <sstream>
#include <string>
#include <vector>

namespace {

// Test::Log::Thing: its create logs at each level and prints; Crash makes it
// index nil (line 14), Fail makes it P.fail (line 15), Lines prints that
// many more lines, Long prints one line: "x" and that many "é" (2 bytes each).
const char* kProvider = R"(local P = require("moonstack.provider")
return P.define {
  type = "Test::Log::Thing",
  properties = {
    P.string "Name" { update = "replace" },
    P.boolean "Crash" { update = "replace", default = false },
    P.boolean "Fail" { update = "replace", default = false },
    P.integer "Lines" { update = "replace", default = 0 },
    P.integer "Long" { update = "replace", default = 0 },
  },
  create = function(ctx, props)
    ctx.log.info("creating", props.Name)
    ctx.log:debug("size", 3)
    if props.Crash then local t = nil; return t.x end
    if props.Fail then P.fail("Quota reached", "ServiceLimitExceeded") end
    print("printed " .. props.Name)
    P.log(ctx).warn("slow")
    for i = 1, props.Lines do print("line " .. i) end
    if props.Long > 0 then print("x" .. string.rep("\195\169", props.Long)) end
    return { id = ctx.logical_id .. "-thing" }
  end,
  delete = function(ctx, id) ctx.log.info("deleting", id) end,
}
)";

constexpr const char* kT = "2100-01-01T00:00:00.000Z";

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("provider_log_cli", name) {
    std::filesystem::create_directories(dir + "/providers");
    Write("providers/log_thing.lua", kProvider);
    // The virtual clock starts where the world's clock record says.
    Json("world load " + Write("clock.lua", R"(world.put("moonstack", "clock", { now_ms = 4102444800000 }))"));
  }
  // A template of Test::Log::Thing resources: logical ID -> properties (JSON);
  // each depends on the one before, so they run in order.
  std::string Template(const std::vector<std::pair<std::string, std::string>>& resources) const {
    std::string body = R"({"Resources": {)";
    std::string before;
    for (const auto& [id, props] : resources) {
      if (!before.empty()) body += ", ";
      body += "\"" + id + R"(": {"Type": "Test::Log::Thing", "Properties": )" + props +
              (before.empty() ? "" : R"(, "DependsOn": ")" + before + "\"") + "}";
      before = id;
    }
    return Write("t.json", body + "}}");
  }
  std::string Providers() const { return "--providers " + dir + "/providers"; }
};

// The lines of `text` that start with the clock's date: the log's.
std::vector<std::string> LogLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("2100-", 0) == 0) out.push_back(line);
  }
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string At(const std::string& rest) { return std::string(kT) + " " + rest; }

}  // namespace

TEST_CASE("provider log: logs --stack-name prints each hook's ctx.log and print lines, --resource one's", "[cli][logs]") {
  Cli cli("stored");
  const std::string t = cli.Template({{"A", R"({"Name": "a"})"}, {"B", R"({"Name": "b"})"}});
  cli.Json("create-stack --stack-name s " + cli.Providers() + " --template-body file://" + t);
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  ms::test::CommandResult r = cli("logs --stack-name s", false);
  CHECK(r.exit_code == 0);
  CHECK(Lines(r.out) == std::vector<std::string>{
                           At("s A create INFO creating\ta"), At("s A create DEBUG size\t3"),
                           At("s A create INFO printed a"), At("s A create WARN slow"),
                           At("s B create INFO creating\tb"), At("s B create DEBUG size\t3"),
                           At("s B create INFO printed b"), At("s B create WARN slow")});
  r = cli("logs --stack-name s --resource B", false);
  CHECK(Lines(r.out) == std::vector<std::string>{At("s B create INFO creating\tb"), At("s B create DEBUG size\t3"),
                                                 At("s B create INFO printed b"), At("s B create WARN slow")});
  // JSON: the same line, its fields named.
  nlohmann::json j = cli.Json("logs --stack-name s --resource A --output json");
  CHECK(j["ProviderLogLines"][0] == nlohmann::json{{"Timestamp", kT}, {"StackName", "s"}, {"Operation", 1},
                                                   {"LogicalResourceId", "A"}, {"Hook", "create"},
                                                   {"Level", "INFO"}, {"Message", "creating\ta"}});
  // The next operation's lines follow; a deleted stack's log is read by its ID.
  const std::string id = cli.Json("describe-stacks --stack-name s")["Stacks"][0]["StackId"];
  cli("delete-stack --stack-name s " + cli.Providers());
  REQUIRE(cli.Json("list-stacks")["StackSummaries"][0]["StackStatus"] == "DELETE_COMPLETE");
  r = cli("logs --stack-name " + id + " --resource A", false);
  CHECK(Lines(r.out) == std::vector<std::string>{At("s A create INFO creating\ta"), At("s A create DEBUG size\t3"),
                                                 At("s A create INFO printed a"), At("s A create WARN slow"),
                                                 At("s A delete INFO deleting\tA-thing")});
  r = cli("logs --stack-name nope");
  CHECK(r.exit_code == 255);
  CHECK(r.out.find("Stack with id nope does not exist") != std::string::npos);
}

TEST_CASE("provider log: create-stack and deploy show it live with -v, DEBUG lines with --debug", "[cli][logs]") {
  Cli cli("live");
  const std::string t = cli.Template({{"A", R"({"Name": "a"})"}});
  ms::test::CommandResult quiet = cli("create-stack --stack-name q " + cli.Providers() + " --template-body file://" + t);
  CHECK(LogLines(quiet.out).empty());
  ms::test::CommandResult v =
      cli("create-stack --stack-name v -v " + cli.Providers() + " --template-body file://" + t);
  CHECK(LogLines(v.out) ==
        std::vector<std::string>{At("v A create INFO creating\ta"), At("v A create INFO printed a"),
                                 At("v A create WARN slow")});
  ms::test::CommandResult debug =
      cli("create-stack --stack-name d --debug " + cli.Providers() + " --template-body file://" + t);
  CHECK(LogLines(debug.out) == std::vector<std::string>{At("d A create INFO creating\ta"),
                                                        At("d A create DEBUG size\t3"),
                                                        At("d A create INFO printed a"), At("d A create WARN slow")});
  // deploy: the log's lines among its progress lines, before the resource completes.
  ms::test::CommandResult deploy = cli("deploy -v --stack-name w " + cli.Providers() + " --template-file " + t);
  CHECK(deploy.exit_code == 0);
  const size_t logged = deploy.out.find(At("w A create WARN slow"));
  const size_t complete = deploy.out.find("A" + std::string(28, ' ') + "CREATE_COMPLETE");
  CHECK(logged != std::string::npos);
  CHECK(complete != std::string::npos);
  CHECK(logged < complete);
}

TEST_CASE("provider log: a hook's runtime error at its file:line on stderr and in the log, the reason unchanged", "[cli][logs]") {
  Cli cli("runtime_error");
  const std::string t = cli.Template({{"A", R"({"Name": "a", "Crash": true})"}});
  ms::test::CommandResult r = cli("create-stack --stack-name s " + cli.Providers() + " --template-body file://" + t);
  // Without -v: the error alone, where the provider's file raised it.
  CHECK(LogLines(r.out) == std::vector<std::string>{
                               At("s A create ERROR log_thing.lua:14: attempt to index local 't' (a nil value)")});
  CHECK(cli.Events("s", 0)[2] == "A CREATE_FAILED attempt to index local 't' (a nil value)");
  // logs: the lines before it too; --debug: the Lua traceback below it.
  ms::test::CommandResult logs = cli("logs --stack-name s", false);
  CHECK(Lines(logs.out) == std::vector<std::string>{
                               At("s A create INFO creating\ta"), At("s A create DEBUG size\t3"),
                               At("s A create ERROR log_thing.lua:14: attempt to index local 't' (a nil value)")});
  std::vector<std::string> traced = Lines(cli("logs --stack-name s --debug", false).out);
  REQUIRE(traced.size() > 4);
  CHECK(traced[3] == "stack traceback:");
  const std::string frame = "providers/log_thing.lua:14: in function 'fn'";  // the path as Lua cuts it
  CHECK(traced[4].rfind("\t", 0) == 0);
  CHECK(traced[4].compare(traced[4].size() - frame.size(), frame.size(), frame) == 0);
  // deploy's error output has it too.
  ms::test::CommandResult deploy = cli("deploy --stack-name w " + cli.Providers() + " --template-file " + t);
  CHECK(deploy.exit_code == 255);
  CHECK(LogLines(deploy.out) == std::vector<std::string>{
                                    At("w A create ERROR log_thing.lua:14: attempt to index local 't' (a nil value)")});
}

TEST_CASE("provider log: P.fail is a WARN at the provider's line, not the SDK's, with its code", "[cli][logs]") {
  Cli cli("p_fail");
  const std::string t = cli.Template({{"A", R"({"Name": "a", "Fail": true})"}});
  ms::test::CommandResult r = cli("create-stack --stack-name s " + cli.Providers() + " --template-body file://" + t);
  CHECK(LogLines(r.out).empty());  // a deliberate failure: its event says it
  CHECK(Lines(cli("logs --stack-name s", false).out) ==
        std::vector<std::string>{At("s A create INFO creating\ta"), At("s A create DEBUG size\t3"),
                                 At("s A create WARN log_thing.lua:15: Quota reached (ServiceLimitExceeded)")});
}

TEST_CASE("provider log: an operation keeps 1,000 lines and says how many it dropped, a long line is cut", "[cli][logs]") {
  Cli cli("bounded");
  // A: 4 lines + 1,500; past the cap, B's 5 lines, C's 2 and the rollback's
  // deletes of B and A (1 each) are dropped; C's crash is kept: it says why.
  const std::string t = cli.Template({{"A", R"({"Name": "a", "Lines": 1500})"},
                                      {"B", R"({"Name": "b", "Long": 3000})"},
                                      {"C", R"({"Name": "c", "Crash": true})"}});
  cli("create-stack --stack-name s " + cli.Providers() + " --template-body file://" + t);
  REQUIRE(cli.Status("s") == "ROLLBACK_COMPLETE");
  std::vector<std::string> lines = Lines(cli("logs --stack-name s", false).out);
  REQUIRE(lines.size() == 1002);
  CHECK(lines[999] == At("s A create INFO line 996"));
  CHECK(lines[1000] == At("s C create ERROR log_thing.lua:14: attempt to index local 't' (a nil value)"));
  CHECK(lines[1001] == At("s - - WARN ... 513 lines dropped"));
  // Alone, B's long line is cut at 4,096 bytes, back to a character's start.
  Cli one("bounded_line");
  const std::string t1 = one.Template({{"B", R"({"Name": "b", "Long": 3000})"}});
  one.Json("create-stack --stack-name s " + one.Providers() + " --template-body file://" + t1);
  lines = Lines(one("logs --stack-name s", false).out);
  REQUIRE(lines.size() == 5);
  std::string cut = "x";
  for (int i = 0; i < 2047; ++i) cut += "\xc3\xa9";
  CHECK(lines[4] == At("s B create INFO " + cut + " ..."));
}
