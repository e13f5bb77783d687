// One writer per state file (store/state_lock.h): a command that only reads
// never resumes a crashed operation; the next writer does, with the
// providers recorded for that operation; and a state file a server holds is
// refused to every other writer, with a message naming it.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli/cli_fixture.h"
#include "server/server_fixture.h"

namespace {

namespace fs = std::filesystem;

const char* kServerTemplate = R"({
  "Resources": {"Box": {"Type": "Example::Compute::Server", "Properties": {"ImageId": "ami-0123456789abcdef0"}}}
})";

}  // namespace

TEST_CASE("a reader never resumes a crashed operation, a writer resumes it with its recorded providers",
          "[cli][state]") {
  ms::test::CliFixture cli("state", "recorded_providers");
  const std::string providers = cli.dir + "/my-providers";
  fs::create_directories(providers);
  fs::copy_file(std::string(MOONSTACK_SOURCE_DIR) + "/examples/providers/server.lua", providers + "/server.lua");
  cli.Write("t.json", kServerTemplate);
  // Killed right after its first checkpoint: the stack stays CREATE_IN_PROGRESS.
  auto killed = ms::test::RunCommand("cd " + cli.dir + " && MOONSTACK_STATE=" + cli.dir +
                                     "/state.db MOONSTACK_CRASH_AFTER_COMMITS=1 " + MOONSTACK_BINARY +
                                     " create-stack --stack-name box2 --template-file t.json --providers " +
                                     providers + " 2>&1");
  REQUIRE(killed.exit_code == 137);
  // Readers (with no --providers, which could not load the type) leave it be.
  for (int i = 0; i < 2; ++i) CHECK(cli.Status("box2") == "CREATE_IN_PROGRESS");
  cli.Json("describe-stack-events --stack-name box2");
  cli.Json("list-stacks");
  // The directory is gone: a writer says so and leaves the stack resumable.
  fs::rename(providers, cli.dir + "/moved");
  auto refused = cli("recover");
  INFO(refused.out);
  CHECK(refused.exit_code == 0);
  CHECK(refused.out.find("cannot resume the operation on stack box2 (CREATE_IN_PROGRESS): it runs with the "
                         "providers in " + providers + ", which is not a directory") != std::string::npos);
  CHECK(cli.Status("box2") == "CREATE_IN_PROGRESS");
  // Back in place: a writer with no --providers of its own resumes it with them.
  fs::rename(cli.dir + "/moved", providers);
  auto recovered = cli.Json("recover");
  CHECK(recovered["Resumed"].size() == 1);
  CHECK(cli.Status("box2") == "CREATE_COMPLETE");
}

TEST_CASE("a state file a server writes is refused to other writers (world call goes to the server), readable by readers", "[cli][state]") {
  ms::test::server::Server server("state_writer", "0");
  const std::string state = server.dir() + "/state.db";
  auto cli = [&](const std::string& args) {
    return ms::test::RunCommand(std::string(MOONSTACK_BINARY) + " " + args + " --state " + state + " 2>&1");
  };
  for (const std::string& writer :
       {std::string("create-stack --stack-name x --template-body '{\"Resources\":{}}'"), std::string("recover")}) {
    auto r = cli(writer);
    INFO(writer << "\n" << r.out);
    CHECK(r.exit_code != 0);
    CHECK(r.out.find("The state file " + state + " is in use by another moonstack process (pid ") !=
          std::string::npos);
    CHECK(r.out.find(": moonstack serve on 127.0.0.1:" + std::to_string(server.port()) +
                     "): one process writes a state file at a time; send this request to that server "
                     "(--endpoint-url), or stop it first") != std::string::npos);
  }
  // An out-of-band change is the server's to make: world call sends it there.
  auto vpc = cli("world call ec2 CreateVpc '{\"CidrBlock\":\"10.0.0.0/16\"}'");
  INFO(vpc.out);
  CHECK(vpc.exit_code == 0);
  CHECK(vpc.out.find("\"CidrBlock\": \"10.0.0.0/16\"") != std::string::npos);
  auto read = cli("list-stacks");
  INFO(read.out);
  CHECK(read.exit_code == 0);
  // A second server on the same state file does not start.
  auto second = ms::test::RunCommand(std::string(MOONSTACK_BINARY) + " serve --port " +
                                     std::to_string(ms::test::server::FreePort()) + " --state " + state + " 2>&1");
  CHECK(second.exit_code != 0);
  CHECK(second.out.find("is in use by another moonstack process") != std::string::npos);
}

TEST_CASE("a server restarted on a state file with an operation that never ends listens at once", "[cli][state]") {
  const std::string providers = (fs::temp_directory_path() / "moonstack_state_forever_providers").string();
  fs::remove_all(providers);
  fs::create_directories(providers);
  std::ofstream(providers + "/forever.lua") << R"(local P = require("moonstack.provider")
return P.define {
  type = "Test::Forever::Thing",
  properties = { P.string "Name" { update = "replace" } },
  create = function(ctx, props) return P.in_progress { after = 0, context = { n = 1 }, id = "f-1" } end,
  delete = function(ctx, id, props) return nil end,
}
)";
  const std::vector<std::string> extra = {"--providers", providers};
  std::string state;
  {
    ms::test::server::Server first("state_forever", "1", extra);
    state = first.dir() + "/state.db";
    first.AwsJson(R"(create-stack --stack-name f --template-body '{"Resources":{"F":{"Type":"Test::Forever::Thing"}}}')");
    for (int i = 0; i < 100 && first.AwsJson("describe-stacks --stack-name f")["Stacks"][0]["StackStatus"] !=
                                   "CREATE_IN_PROGRESS"; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    first.Kill();  // the create of F is journaled in progress
  }
  // The next server resumes it (F answers "in progress" for two hours of
  // real time) and answers requests meanwhile: it started (the fixture
  // waits for /moonstack/health), and the stack is still being created.
  ms::test::server::Server second("state_forever", "1", extra, /*fresh=*/false);
  CHECK(second.AwsJson("describe-stacks --stack-name f")["Stacks"][0]["StackStatus"] == "CREATE_IN_PROGRESS");
  const auto exit = second.Terminate();  // the resumed operation stops at its next checkpoint
  CHECK_FALSE(exit.killed);
  CHECK(exit.seconds < 3);
}
