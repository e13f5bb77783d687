// host/lambda's warm execution environments (execution_environment.h,
// environment_pool.h): the second invocation of a function reuses the first
// one's process (module-level state persists, Init runs once, the same log
// stream), a new code or configuration gets a fresh one, a timed-out or
// crashed invocation's environment is gone, idle ones are bounded and reaped.
// And through sim.lambda's Invoke: REPORT's Init Duration on a cold start only.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "lambda/environment_pool.h"
#include "lambda/runner.h"
#include "lambda_test_support.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"
#include "test_util.h"

using ms::lambda::Invocation;
using ms::lambda::Outcome;
using nlohmann::json;

namespace {

// Counts its invocations in a module-level variable; reports it, its pid
// and its TMPDIR. `{"sleep": s}` sleeps, `{"exit": true}` ends the process.
constexpr const char* kCounter =
    "import os, time\n"
    "count = 0\n"
    "print('init ran')\n"
    "def handler(e, c):\n"
    "    global count\n"
    "    count += 1\n"
    "    if e.get('sleep'): time.sleep(e['sleep'])\n"
    "    if e.get('exit'): os._exit(3)\n"
    "    return {'count': count, 'pid': os.getpid(), 'tmp': os.environ['TMPDIR'], 'stream': c.log_stream_name}\n";

Invocation Counter(const std::string& event = "{}") {
  Invocation inv = ms::test::PythonInvocation("counter", kCounter);
  inv.event_json = event;
  return inv;
}

json Result(const Outcome& o) {
  INFO(o.error << "\n" << o.log << "\n" << o.payload);
  REQUIRE(o.ran);
  REQUIRE_FALSE(o.function_error);
  return json::parse(o.payload);
}

bool ProcessGone(int pid) { return kill(pid, 0) != 0; }

// The pool starts empty and with its usual limits in each test.
struct FreshPool {
  FreshPool() { Reset(); }
  ~FreshPool() { Reset(); }
  static void Reset() {
    ms::lambda::ClearEnvironments();
    ms::lambda::SetPoolLimits(ms::lambda::PoolLimits{});
  }
};

// A Lua runtime over a world of its own, with the simulated cloud.
struct SimRuntime {
  ms::World world;
  std::unique_ptr<ms::lua::Runtime> rt;
  std::unique_ptr<ms::lua::WorldBinding> binding;
  SimRuntime() {
    ms::lua::RuntimeOptions o;
    o.module_roots = {std::string(MOONSTACK_SOURCE_DIR) + "/lua-sdk",
                      std::string(MOONSTACK_SOURCE_DIR) + "/providers"};
    ms::Status s;
    rt = ms::lua::Runtime::Create(o, &s);
    REQUIRE(rt);
    REQUIRE(ms::lua::WorldBinding::Install(rt.get(), &world, &binding).ok());
    REQUIRE(rt->Eval(ms::test::LambdaRoleLua("r")).ok());  // the functions' execution role
  }
};

}  // namespace

TEST_CASE("warm environments: module state persists and Init runs once", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  FreshPool fresh;
  const Outcome first = ms::lambda::Run(Counter());
  const json a = Result(first);
  CHECK(first.cold_start);
  CHECK(first.init_ms > 0);
  CHECK(first.log.find("init ran") != std::string::npos);
  CHECK(a["count"] == 1);

  Invocation again = Counter();
  again.log_stream_name = "2024/01/31/[$LATEST]00000000000000000000000000000002";  // a warm one keeps its own
  const Outcome second = ms::lambda::Run(again);
  const json b = Result(second);
  CHECK_FALSE(second.cold_start);
  CHECK(second.init_ms == 0);
  CHECK(second.log.find("init ran") == std::string::npos);  // Init did not run again
  CHECK(b["count"] == 2);
  CHECK(b["pid"] == a["pid"]);
  CHECK(b["tmp"] == a["tmp"]);
  CHECK(second.log_stream_name == first.log_stream_name);
  CHECK(b["stream"] == Counter().log_stream_name);
  CHECK(ms::lambda::IdleEnvironmentCount() == 1);
}

TEST_CASE("warm environments: a new code or configuration version gets a fresh environment", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  FreshPool fresh;
  const json a = Result(ms::lambda::Run(Counter()));

  Invocation new_code = Counter();
  new_code.inline_code += "# version 2\n";
  const Outcome code_changed = ms::lambda::Run(new_code);
  CHECK(code_changed.cold_start);
  CHECK(Result(code_changed)["count"] == 1);

  Invocation new_config = Counter();
  new_config.environment = {{"STAGE", "2"}};
  const Outcome config_changed = ms::lambda::Run(new_config);
  CHECK(config_changed.cold_start);
  const json c = Result(config_changed);
  CHECK(c["count"] == 1);
  CHECK(c["pid"] != a["pid"]);
  CHECK(c["tmp"] != a["tmp"]);  // each environment has its own directory

  Invocation new_timeout = Counter();
  new_timeout.timeout_seconds = 4;
  CHECK(ms::lambda::Run(new_timeout).cold_start);

  // The first version's environment is still there for it.
  const Outcome back = ms::lambda::Run(Counter());
  CHECK_FALSE(back.cold_start);
  CHECK(Result(back)["count"] == 2);
}

TEST_CASE("warm environments: a timed-out invocation kills its environment", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  FreshPool fresh;
  Invocation inv = Counter();
  inv.timeout_seconds = 1;
  const json a = Result(ms::lambda::Run(inv));
  inv.event_json = R"({"sleep": 5})";
  const Outcome slow = ms::lambda::Run(inv);
  CHECK(slow.timed_out);
  CHECK_FALSE(slow.cold_start);
  CHECK(json::parse(slow.payload) ==
        json{{"errorType", "Sandbox.Timedout"},
             {"errorMessage", "RequestId: " + inv.request_id + " Error: Task timed out after 1.00 seconds"}});
  CHECK(ProcessGone(a["pid"].get<int>()));
  CHECK(ms::lambda::IdleEnvironmentCount() == 0);

  inv.event_json = "{}";
  const Outcome next = ms::lambda::Run(inv);
  CHECK(next.cold_start);
  CHECK(Result(next)["count"] == 1);
}

TEST_CASE("warm environments: a crashed invocation's environment is not reused", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  FreshPool fresh;
  const json a = Result(ms::lambda::Run(Counter()));
  const Outcome crashed = ms::lambda::Run(Counter(R"({"exit": true})"));
  CHECK(crashed.function_error);
  CHECK(json::parse(crashed.payload) ==
        json{{"errorType", "Runtime.ExitError"},
             {"errorMessage", "RequestId: 11111111-2222-4333-8444-555555555555 Error: Runtime exited with error: "
                              "exit status 3"}});
  CHECK(ProcessGone(a["pid"].get<int>()));
  const Outcome next = ms::lambda::Run(Counter());
  CHECK(next.cold_start);
  CHECK(Result(next)["count"] == 1);
}

TEST_CASE("warm environments: an Init error is reported and not kept", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  FreshPool fresh;
  Invocation inv = Counter();
  inv.inline_code = "raise RuntimeError('broken at import')\n";
  const Outcome o = ms::lambda::Run(inv);
  REQUIRE(o.ran);
  CHECK(o.function_error);
  CHECK(o.cold_start);
  CHECK(json::parse(o.payload)["errorMessage"] == "broken at import");
  CHECK(ms::lambda::IdleEnvironmentCount() == 0);
  CHECK(ms::lambda::Run(inv).cold_start);
}

TEST_CASE("warm environments: node keeps module state between invocations too", "[lambda]") {
  if (!ms::test::HaveInterpreter("node")) return;
  FreshPool fresh;
  Invocation inv = Counter();
  inv.runtime = "nodejs20.x";
  inv.inline_code =
      "let count = 0;\n"
      "exports.handler = async (e, c) => ({ count: ++count, pid: process.pid });\n";
  const Outcome first = ms::lambda::Run(inv);
  const Outcome second = ms::lambda::Run(inv);
  CHECK(first.cold_start);
  CHECK_FALSE(second.cold_start);
  CHECK(Result(first)["count"] == 1);
  CHECK(Result(second)["count"] == 2);
  CHECK(Result(second)["pid"] == Result(first)["pid"]);
  // A callback handler, then context.succeed, in the same environment.
  inv.inline_code = "let n = 0;\nexports.handler = (e, c, cb) => { n++; setTimeout(() => cb(null, n), 10); };\n";
  CHECK(Result(ms::lambda::Run(inv)) == 1);
  CHECK(Result(ms::lambda::Run(inv)) == 2);
}

TEST_CASE("warm environments: the pool is bounded and reaps idle ones", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  FreshPool fresh;
  ms::lambda::PoolLimits limits;
  limits.per_key = 1;
  limits.total = 2;
  limits.idle = std::chrono::milliseconds(300);
  ms::lambda::SetPoolLimits(limits);
  // Two at once of the same function: two environments, one kept.
  Outcome a, b;
  std::thread t([&] { a = ms::lambda::Run(Counter(R"({"sleep": 0.3})")); });
  b = ms::lambda::Run(Counter(R"({"sleep": 0.3})"));
  t.join();
  CHECK(a.cold_start);
  CHECK(b.cold_start);
  CHECK(ms::lambda::IdleEnvironmentCount() == 1);
  // Two other functions: the least recently used one goes for the third.
  Invocation other = Counter(), third = Counter();
  other.inline_code += "# other\n";
  third.inline_code += "# third\n";
  const int first_pid = Result(ms::lambda::Run(Counter()))["pid"];
  ms::lambda::Run(other);
  ms::lambda::Run(third);
  CHECK(ms::lambda::IdleEnvironmentCount() == 2);
  CHECK(ProcessGone(first_pid));
  // Idle past the limit: reaped without another invocation.
  const int third_pid = Result(ms::lambda::Run(third))["pid"];
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  CHECK(ms::lambda::IdleEnvironmentCount() == 0);
  CHECK(ProcessGone(third_pid));
}

TEST_CASE("warm environments: sim.lambda's REPORT has Init Duration on a cold start only", "[lambda][lua]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  FreshPool fresh;
  SimRuntime sim;
  auto r = sim.rt->Eval(R"(
    local sim = require("sim")
    sim.call("lambda", "CreateFunction", { FunctionName = "warm", Runtime = "python3.12",
      Handler = "index.handler", Role = "arn:aws:iam::123456789012:role/r",
      Code = { ZipFile = "n = 0\ndef handler(e, c):\n    global n\n    n += 1\n    return n\n" } })
    local payloads = {}
    for i = 1, 2 do payloads[i] = sim.call("lambda", "Invoke", { FunctionName = "warm" }).Payload end
    local streams = sim.call("logs", "DescribeLogStreams", { logGroupName = "/aws/lambda/warm" }).logStreams
    local events = sim.call("logs", "FilterLogEvents", { logGroupName = "/aws/lambda/warm" }).events
    local reports = {}
    for _, e in ipairs(events) do
      if e.message:find("^REPORT") then
        reports[#reports + 1] = e.message:find("Init Duration: ", 1, true) and "cold" or "warm"
      end
    end
    return table.concat(payloads, ",") .. " " .. #streams .. " " .. table.concat(reports, ",")
  )");
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r.value().str() == "1,2 1 cold,warm");
}

TEST_CASE("warm environments: one environment answers many custom-resource requests", "[lambda]") {
  // Each ResponseURL served by its own listening thread would pile up
  // threads, each a stack of the function's 128 MB address space: the
  // environment serves them all from one.
  for (const char* runtime : {"python3.12", "nodejs20.x"}) {
    const bool python = std::string(runtime) == "python3.12";
    if (!ms::test::HaveInterpreter(python ? "python3" : "node")) continue;
    FreshPool fresh;
    Invocation inv = Counter();
    inv.runtime = runtime;
    inv.capture_response_url = true;
    inv.inline_code = python ? "import cfnresponse\n"
                               "def handler(e, c):\n"
                               "    cfnresponse.send(e, c, cfnresponse.SUCCESS, {}, e['Id'])\n"
                             : "const r = require('cfn-response');\n"
                               "exports.handler = (e, c) => r.send(e, c, r.SUCCESS, {}, e.Id);\n";
    for (int i = 0; i < 25; ++i) {
      inv.event_json = json{{"ResponseURL", "https://example.com/r"}, {"StackId", "s"}, {"RequestId", "q"},
                            {"LogicalResourceId", "R"}, {"Id", "res-" + std::to_string(i)}}
                           .dump();
      const Outcome o = ms::lambda::Run(inv);
      INFO(runtime << " invocation " << i << "\n" << o.log);
      REQUIRE(o.ran);
      CHECK(o.cold_start == (i == 0));
      REQUIRE(o.responses.size() == 1);
      CHECK(json::parse(o.responses[0])["PhysicalResourceId"] == "res-" + std::to_string(i));
    }
  }
}

TEST_CASE("warm environments: an updated or re-created function gets fresh environments", "[lambda][lua]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  FreshPool fresh;
  SimRuntime sim;
  // The same code and settings each time: only LastModified tells the
  // versions apart, as a new RevisionId does on Lambda.
  auto r = sim.rt->Eval(R"(
    local sim, world = require("sim"), require("moonstack.world")
    local fn = { FunctionName = "again", Runtime = "python3.12", Handler = "index.handler", Timeout = 3,
      Role = "arn:aws:iam::123456789012:role/r",
      Code = { ZipFile = "n = 0\ndef handler(e, c):\n    global n\n    n += 1\n    return n\n" } }
    local function invoke() return sim.call("lambda", "Invoke", { FunctionName = "again" }).Payload end
    local seen = {}
    sim.call("lambda", "CreateFunction", fn)
    seen[#seen + 1] = invoke()
    seen[#seen + 1] = invoke()
    world.set_now_ms(world.now_ms() + 1000)
    sim.call("lambda", "UpdateFunctionConfiguration", { FunctionName = "again", Timeout = 3 })
    seen[#seen + 1] = invoke()
    seen[#seen + 1] = invoke()
    world.set_now_ms(world.now_ms() + 1000)
    sim.call("lambda", "DeleteFunction", { FunctionName = "again" })
    sim.call("lambda", "CreateFunction", fn)
    seen[#seen + 1] = invoke()
    return table.concat(seen, ",")
  )");
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r.value().str() == "1,2,1,2,1");
}

TEST_CASE("warm environments: a host that dies takes its environments and their directories along", "[lambda]") {
  // A host process that keeps a warm environment and then ends without its
  // exit handlers (as a crash or SIGKILL would): the environment sees EOF on
  // its stdin, removes its directory and ends.
  for (const char* runtime : {"python3.12", "nodejs20.x"}) {
    const bool python = std::string(runtime) == "python3.12";
    if (!ms::test::HaveInterpreter(python ? "python3" : "node")) continue;
    int report[2];
    REQUIRE(pipe(report) == 0);
    const pid_t host = fork();
    if (host == 0) {
      close(report[0]);
      Invocation inv = Counter();
      inv.runtime = runtime;
      inv.inline_code = python ? "import os\ndef handler(e, c):\n    return [os.getpid(), os.environ['TMPDIR']]\n"
                               : "exports.handler = async () => [process.pid, process.env.TMPDIR];\n";
      const Outcome o = ms::lambda::Run(inv);
      const std::string line = o.payload + "\n";
      (void)!write(report[1], line.data(), line.size());
      _exit(0);  // no atexit: the pool is not cleared
    }
    close(report[1]);
    std::string text;
    char buf[512];
    for (ssize_t n; (n = read(report[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
    close(report[0]);
    waitpid(host, nullptr, 0);
    INFO(runtime << ": " << text);
    const json got = json::parse(text);
    const int pid = got[0];
    const std::filesystem::path tmp = got[1].get<std::string>();
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) {
      gone = ProcessGone(pid) && !std::filesystem::exists(tmp.parent_path());
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(gone);
  }
}
