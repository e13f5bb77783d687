#include "lambda/runner.h"

#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lambda/child_process.h"
#include "lambda/harness.h"

namespace ms::lambda {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::atomic<bool> g_enabled{true};

// What node's V8 reserves before running anything (measured: node 20 does
// not start under 1000 MiB of address space, whatever its heap).
constexpr size_t kNodeReservedBytes = size_t{1024} << 20;

bool WriteFile(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The invocation's own directory, removed when it goes out of scope.
class TempDir {
 public:
  TempDir() {
    const char* base = getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/moonstack-lambda-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

Outcome NotRun(std::string why) {
  Outcome o;
  o.error = std::move(why);
  return o;
}

std::string ErrorPayload(const std::string& type, const std::string& message) {
  return json{{"errorType", type}, {"errorMessage", message}}.dump();
}

int64_t EpochMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch()).count();
}

// What Lambda puts in a function's environment (the reserved variables of
// "Defined runtime environment variables"), then the function's own.
std::vector<std::string> LambdaEnvironment(const Invocation& inv, const fs::path& dir, const std::string& log_group) {
  std::vector<std::string> env;
  const bool python = InterpreterFor(inv.runtime) == "python3";
  const std::vector<std::pair<std::string, std::string>> reserved = {
      {"AWS_LAMBDA_FUNCTION_NAME", inv.function_name},
      {"AWS_LAMBDA_FUNCTION_VERSION", "$LATEST"},
      {"AWS_LAMBDA_FUNCTION_MEMORY_SIZE", std::to_string(inv.memory_mb)},
      {"AWS_LAMBDA_LOG_GROUP_NAME", log_group},
      {"AWS_LAMBDA_LOG_STREAM_NAME", inv.log_stream_name},
      {"AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand"},
      {"AWS_EXECUTION_ENV", "AWS_Lambda_" + inv.runtime},
      {"AWS_REGION", inv.region},
      {"AWS_DEFAULT_REGION", inv.region},
      {"_HANDLER", inv.handler},
      {"LAMBDA_TASK_ROOT", (dir / "task").string()},
      {"LAMBDA_RUNTIME_DIR", (dir / "runtime").string()},
      {"TMPDIR", (dir / "tmp").string()},
      {"TZ", ":UTC"},
      {"LANG", "en_US.UTF-8"},
      {"PATH", "/usr/local/bin:/usr/bin:/bin"},
      {python ? "PYTHONDONTWRITEBYTECODE" : "NODE_PATH",
       python ? "1" : (dir / "runtime" / "node_modules").string()},
  };
  std::set<std::string> taken;
  auto add = [&](const std::string& name, const std::string& value) {
    env.push_back(name + "=" + value);
    taken.insert(name);
  };
  for (const auto& [name, value] : reserved) add(name, value);
  if (!inv.endpoint_url.empty()) {
    // The function's SDK calls go to `moonstack serve`, signed with
    // credentials it accepts (Lambda gives the execution role's).
    add("AWS_ENDPOINT_URL", inv.endpoint_url);
    add("AWS_ACCESS_KEY_ID", "ASIAMOONSTACKLAMBDA0");
    add("AWS_SECRET_ACCESS_KEY", "moonstack-lambda-secret");
    add("AWS_SESSION_TOKEN", "moonstack-lambda-session");
  }
  // The function's own variables, never over Lambda's (Lambda refuses a
  // function that sets a reserved one).
  for (const auto& [name, value] : inv.environment) {
    if (taken.count(name) == 0) env.push_back(name + "=" + value);
  }
  return env;
}

// The harness's report (result.json) folded into the outcome; a process
// that ended without one crashed (exit code, signal) as Lambda reports it.
void ReadResult(const fs::path& path, const ChildResult& child, const Invocation& inv, Outcome* o) {
  json result = json::parse(ReadFile(path), nullptr, /*allow_exceptions=*/false);
  if (result.is_discarded() || !result.is_object()) {
    const std::string how = child.signal != 0 ? "signal: " + std::string(child.signal == 9 ? "killed" : "terminated")
                                              : "exit status " + std::to_string(child.exit_code);
    o->function_error = true;
    o->payload = ErrorPayload("Runtime.ExitError",
                              "RequestId: " + inv.request_id + " Error: Runtime exited with error: " + how);
    return;
  }
  o->function_error = !result.value("ok", false);
  o->payload = result.contains("payload") ? result["payload"].dump() : "null";
  o->handler_ms = result.value("handler_ms", 0.0);
  for (const json& body : result.value("responses", json::array())) {
    if (body.is_string()) o->responses.push_back(body.get<std::string>());
  }
}

// The interpreter binary itself, and for python its site-packages
// directories. `program` may be a wrapper that starts it (a pyenv shim is a
// shell script costing ~0.3 s per start). Python then runs with -S: the
// harness puts site-packages on sys.path itself, without running the .pth
// files `site` would (tens of ms per start on some machines; Lambda's
// python has none either). Asked once per program path and process.
struct Interpreter {
  std::string path;
  std::vector<std::string> site_packages;
};

Interpreter ResolveInterpreter(const std::string& program, bool python) {
  static std::mutex mu;
  static auto* resolved = new std::map<std::string, Interpreter>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = resolved->find(program);
  if (it != resolved->end()) return it->second;
  ChildSpec ask;
  ask.argv = {program, python ? "-c" : "-e",
              python ? "import sys, site; print(sys.executable); print('\\n'.join(site.getsitepackages()))"
                     : "console.log(process.execPath)"};
  ask.env = {"PATH=/usr/local/bin:/usr/bin:/bin"};
  ask.wall_limit = std::chrono::seconds(10);
  const ChildResult r = RunChild(ask);
  Interpreter found{program, {}};
  std::vector<std::string> lines;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  if (r.exit_code == 0 && !lines.empty() && lines[0][0] == '/' && access(lines[0].c_str(), X_OK) == 0) {
    found.path = lines[0];
    found.site_packages.assign(lines.begin() + 1, lines.end());
  }
  (*resolved)[program] = found;
  return found;
}

}  // namespace

void SetExecutionEnabled(bool enabled) { g_enabled = enabled; }
bool ExecutionEnabled() { return g_enabled; }

std::string InterpreterFor(const std::string& runtime) {
  if (runtime.rfind("python3", 0) == 0) return "python3";
  if (runtime.rfind("nodejs", 0) == 0) return "node";
  return "";
}

std::string TimeoutMessage(int timeout_seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "Task timed out after %d.00 seconds", timeout_seconds);
  return text;
}

Outcome Run(const Invocation& inv) {
  if (!ExecutionEnabled()) return NotRun(kDisabledReason);
  const std::string interpreter = InterpreterFor(inv.runtime);
  if (interpreter.empty()) {
    return NotRun("moonstack runs the python3.x and nodejs runtimes only, not " +
                  (inv.runtime.empty() ? std::string("a function without a Runtime") : inv.runtime));
  }
  const char* host_path = getenv("PATH");
  const std::string search = !inv.search_path.empty() ? inv.search_path : (host_path ? host_path : "");
  const std::string found = FindOnPath(interpreter, search);
  if (found.empty()) {
    return NotRun("Runtime " + inv.runtime + " needs " + interpreter + ", which is not on PATH (" + search + ")");
  }
  const Interpreter resolved = ResolveInterpreter(found, interpreter == "python3");
  const std::string& program = resolved.path;
  json event = json::parse(inv.event_json, nullptr, /*allow_exceptions=*/false);
  if (event.is_discarded()) return NotRun("The event is not JSON");

  TempDir dir;
  if (dir.path().empty()) return NotRun("cannot create a temporary directory for the invocation");
  const bool python = interpreter == "python3";
  const fs::path runtime_dir = dir.path() / "runtime", task_dir = dir.path() / "task";
  for (const auto& [name, text] : python ? PythonHarness() : NodeHarness()) WriteFile(runtime_dir / name, text);
  fs::create_directories(task_dir);
  fs::create_directories(dir.path() / "tmp");
  std::string zip_path;
  if (!inv.zip.empty()) {
    zip_path = (dir.path() / "code.zip").string();
    WriteFile(zip_path, inv.zip);
  } else {
    // CloudFormation writes inline ZipFile code as index.py / index.js.
    WriteFile(task_dir / (python ? "index.py" : "index.js"), inv.inline_code);
  }
  const std::string log_group = "/aws/lambda/" + inv.function_name;
  const json spec = {
      {"handler", inv.handler},
      {"task_dir", task_dir.string()},
      {"zip", zip_path},
      {"event", event},
      {"capture_response_url", inv.capture_response_url},
      {"deadline_epoch_ms", EpochMs() + int64_t{inv.timeout_seconds} * 1000},
      {"result_path", (dir.path() / "result.json").string()},
      {"site_packages", resolved.site_packages},
      {"context",
       {{"function_name", inv.function_name},
        {"function_version", "$LATEST"},
        {"invoked_function_arn", inv.function_arn},
        {"memory_limit_in_mb", std::to_string(inv.memory_mb)},
        {"aws_request_id", inv.request_id},
        {"log_group_name", log_group},
        {"log_stream_name", inv.log_stream_name}}},
  };
  WriteFile(dir.path() / "spec.json", spec.dump());

  ChildSpec child;
  child.argv = {program};
  if (python) {
    child.argv.push_back("-u");  // output reaches the log even when the call is killed
    if (!resolved.site_packages.empty()) child.argv.push_back("-S");  // the harness adds them (ResolveInterpreter)
  } else {
    child.argv.push_back("--max-old-space-size=" + std::to_string(inv.memory_mb));
  }
  child.argv.push_back((runtime_dir / (python ? "bootstrap.py" : "bootstrap.js")).string());
  child.argv.push_back((dir.path() / "spec.json").string());
  child.env = LambdaEnvironment(inv, dir.path(), log_group);
  child.cwd = task_dir.string();
  child.address_space_bytes = (size_t{static_cast<size_t>(inv.memory_mb)} << 20) + (python ? 0 : kNodeReservedBytes);
  child.wall_limit = std::chrono::seconds(inv.timeout_seconds);
  const ChildResult r = RunChild(child);
  if (!r.started) return NotRun("cannot start " + program + ": " + r.start_error);

  Outcome o;
  o.ran = true;
  o.log = r.output;
  if (r.output_truncated) o.log += "\n[moonstack: output beyond 1 MiB dropped]\n";
  o.duration_ms = static_cast<double>(r.elapsed.count()) / 1000.0;
  o.max_memory_mb = (r.max_rss_kib + 1023) / 1024;
  if (r.timed_out) {
    o.timed_out = o.function_error = true;
    o.payload = ErrorPayload("Sandbox.Timedout",
                             "RequestId: " + inv.request_id + " Error: " + TimeoutMessage(inv.timeout_seconds));
    return o;
  }
  ReadResult(dir.path() / "result.json", r, inv, &o);
  return o;
}

}  // namespace ms::lambda
