// serve writes the provider log — what hooks write with ctx.log and print —
// to its log (stderr): INFO and up, DEBUG lines too with --debug; the lines
// are stored with the stack as under the CLI (`moonstack logs`).
#include "server/server_fixture.h"

#include <regex>
#include <sstream>

using namespace ms::test::server;

namespace {

// A provider dir outside the server's directory (made fresh by Server).
std::string Providers(const std::string& name) {
  const std::string dir = (fs::temp_directory_path() / ("moonstack_server_" + name + "_providers")).string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir + "/log_thing.lua") << R"(local P = require("moonstack.provider")
return P.define {
  type = "Test::Log::Thing",
  properties = { P.string "Name" { update = "replace" } },
  create = function(ctx, props)
    ctx.log.info("creating", props.Name)
    ctx.log.debug("size", 3)
    print("printed " .. props.Name)
    return { id = ctx.logical_id .. "-thing" }
  end,
  delete = function(ctx, id) end,
}
)";
  return dir;
}

// serve.log's provider log lines, their timestamp checked and cut off.
std::vector<std::string> LoggedLines(const std::string& dir) {
  std::ifstream in(dir + "/serve.log");
  static const std::regex kLine(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (.*)$)");
  std::vector<std::string> out;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, kLine)) out.push_back(m[1]);
  }
  return out;
}

void CreateAndWait(const Server& server) {
  std::ofstream(server.dir() + "/t.json")
      << R"({"Resources": {"A": {"Type": "Test::Log::Thing", "Properties": {"Name": "a"}}}})";
  server.Python(R"(
cf.create_stack(StackName='s', TemplateBody=template)
cf.get_waiter('stack_create_complete').wait(StackName='s', WaiterConfig={'Delay': 1})
print(json.dumps({}))
)");
}

}  // namespace

TEST_CASE("serve writes the provider log to its log, DEBUG lines with --debug", "[server][logs]") {
  {
    Server server("provider_log", "0", {"--providers", Providers("provider_log")});
    CreateAndWait(server);
    server.Terminate();
    CHECK(LoggedLines(server.dir()) == std::vector<std::string>{"s A create INFO creating\ta",
                                                                "s A create INFO printed a"});
  }
  Server server("provider_log_debug", "0", {"--providers", Providers("provider_log_debug"), "--debug"});
  CreateAndWait(server);
  server.Terminate();
  CHECK(LoggedLines(server.dir()) == std::vector<std::string>{"s A create INFO creating\ta",
                                                              "s A create DEBUG size\t3",
                                                              "s A create INFO printed a"});
}
