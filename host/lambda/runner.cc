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
#include <memory>
#include <sstream>

#include "lambda/child_process.h"
#include "lambda/environment_pool.h"
#include "lambda/execution_environment.h"
#include "lambda/harness.h"

namespace ms::lambda {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::atomic<bool> g_enabled{true};

std::mutex g_sdk_mu;
std::string g_node_sdk_path;  // SetNodeSdkPath
std::function<std::string()> g_default_endpoint;  // SetDefaultEndpoint

// The endpoint the function's SDK calls go to: the invocation's, else the
// command's own (SetDefaultEndpoint), else none.
std::string EndpointFor(const Invocation& inv) {
  if (!inv.endpoint_url.empty()) return inv.endpoint_url;
  std::function<std::string()> endpoint;
  {
    std::lock_guard<std::mutex> lock(g_sdk_mu);
    endpoint = g_default_endpoint;
  }
  return endpoint ? endpoint() : "";
}

// Address space an interpreter reserves beyond what it uses. Lambda limits
// resident memory, not address space: node's V8 reserves ~1 GiB before
// running anything (node 20 does not start under 1000 MiB), and a python
// function with a boto3 client peaks at ~114 MiB of address space with
// ~70 MiB resident — at exactly 128 MiB its allocations failed now and then.
// The resident set is held to MemorySize by the environment instead.
constexpr size_t kInterpreterReservedBytes = size_t{1024} << 20;

bool WriteFile(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// A new directory of the environment's own ("" when none can be made); the
// environment removes it when it goes.
fs::path MakeEnvironmentDir() {
  const char* base = getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/moonstack-lambda-XXXXXX";
  return mkdtemp(pattern.data()) != nullptr ? fs::path(pattern) : fs::path();
}

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

// A runtime's version: "python3.12" -> "3.12", "nodejs20.x" -> "20.x".
std::string RuntimeVersion(const std::string& runtime) {
  const size_t digit = runtime.find_first_of("0123456789");
  return digit == std::string::npos ? std::string() : runtime.substr(digit);
}

// What Lambda puts in a function's environment (the reserved variables of
// "Defined runtime environment variables"), then the function's own.
std::vector<std::string> LambdaEnvironment(const Invocation& inv, const std::string& endpoint, const fs::path& dir,
                                           const std::string& log_group) {
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
      // Lambda's PATH and LD_LIBRARY_PATH end with a layer's /opt/bin and
      // /opt/lib ("Defined runtime environment variables").
      {"PATH", "/usr/local/bin:/usr/bin:/bin:" + (dir / "opt" / "bin").string()},
      {"LD_LIBRARY_PATH", (dir / "task").string() + ":" + (dir / "task" / "lib").string() + ":" +
                              (dir / "opt" / "lib").string()},
  };
  std::set<std::string> taken;
  auto add = [&](const std::string& name, const std::string& value) {
    env.push_back(name + "=" + value);
    taken.insert(name);
  };
  for (const auto& [name, value] : reserved) add(name, value);
  if (python) {
    add("PYTHONDONTWRITEBYTECODE", "1");
  } else {
    // The layers' modules (/opt/nodejs/node20/node_modules, then
    // /opt/nodejs/node_modules), the harness's (cfn-response), then the
    // SDK, as Lambda's NODE_PATH goes on with /var/runtime/node_modules.
    const std::string sdk = NodeSdkPath();
    const std::string version = RuntimeVersion(inv.runtime);  // "20.x"
    const std::string major = version.substr(0, version.find('.'));
    const fs::path nodejs = dir / "opt" / "nodejs";
    add("NODE_PATH", (nodejs / ("node" + major) / "node_modules").string() + ":" + (nodejs / "node_modules").string() +
                         ":" + (dir / "runtime" / "node_modules").string() + (sdk.empty() ? "" : ":" + sdk));
  }
  if (!endpoint.empty()) {
    // The function's SDK calls go to `moonstack serve` (or the command's
    // own endpoint), signed with credentials it accepts (Lambda gives the
    // execution role's).
    add("AWS_ENDPOINT_URL", endpoint);
    // A function of another account than the default signs as that
    // account (serve takes a 12-digit key ID for the account).
    add("AWS_ACCESS_KEY_ID", inv.account.size() == 12 && inv.account != "123456789012" ? inv.account
                                                                                      : "ASIAMOONSTACKLAMBDA0");
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

// Lambda's error when the process ended without answering (a crash, an
// exit from the handler).
std::string ExitErrorPayload(const Exchange& ex, const Invocation& inv) {
  const std::string how = ex.signal != 0 ? "signal: " + std::string(ex.signal == 9 ? "killed" : "terminated")
                                         : "exit status " + std::to_string(ex.exit_code);
  // Lambda names a kill for memory Runtime.OutOfMemory (python, node alike).
  return ErrorPayload(ex.out_of_memory ? "Runtime.OutOfMemory" : "Runtime.ExitError",
                      "RequestId: " + inv.request_id + " Error: Runtime exited with error: " + how);
}

// The harness's answer folded into the outcome.
void ReadAnswer(const json& answer, Outcome* o) {
  o->function_error = !answer.value("ok", false);
  o->payload = answer.contains("payload") ? answer["payload"].dump() : "null";
  o->handler_ms = answer.value("handler_ms", 0.0);
  for (const json& body : answer.value("responses", json::array())) {
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

void SetDefaultEndpoint(std::function<std::string()> endpoint) {
  std::lock_guard<std::mutex> lock(g_sdk_mu);
  g_default_endpoint = std::move(endpoint);
}

void SetNodeSdkPath(const std::string& node_modules) {
  std::lock_guard<std::mutex> lock(g_sdk_mu);
  g_node_sdk_path = node_modules;
}

std::string NodeSdkPath() {
  std::lock_guard<std::mutex> lock(g_sdk_mu);
  return g_node_sdk_path;
}
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

namespace {

constexpr size_t kMaxLogBytes = size_t{1} << 20;  // per invocation; more is dropped

// What makes environments interchangeable: the same function, code and
// configuration, last changed at the same time (a new code or configuration
// version, or a re-created function, never gets an old environment), and
// the same interpreter and endpoint.
std::string EnvironmentKey(const Invocation& inv, const std::string& program, const std::string& endpoint) {
  std::string key = inv.function_arn + '\n' + inv.last_modified + '\n' + inv.runtime + '\n' + inv.handler + '\n' + program + '\n' +
                    std::to_string(inv.timeout_seconds) + '\n' + std::to_string(inv.memory_mb) + '\n' +
                    inv.region + '\n' + inv.account + '\n' + endpoint + '\n';
  for (const auto& [name, value] : inv.environment) key += name + '=' + value + '\n';
  const size_t code = std::hash<std::string>()(inv.zip.empty() ? inv.inline_code : inv.zip);
  key += std::to_string(code) + (inv.zip.empty() ? ":inline" : ":zip");
  for (const std::string& layer : inv.layers) key += "\nlayer:" + std::to_string(std::hash<std::string>()(layer));
  return key;
}

// A cold start: the environment's directory and harness process, up to the
// end of Init (its ready message). Returns null and sets `o` when the
// invocation ends there (it did not start, timed out, crashed, or Init
// failed).
std::unique_ptr<ExecutionEnvironment> StartEnvironment(const Invocation& inv, const std::string& endpoint,
                                                       const Interpreter& resolved, Clock::time_point deadline,
                                                       Outcome* o) {
  const bool python = InterpreterFor(inv.runtime) == "python3";
  const fs::path dir = MakeEnvironmentDir();
  if (dir.empty()) {
    *o = NotRun("cannot create a temporary directory for the execution environment");
    return nullptr;
  }
  const fs::path runtime_dir = dir / "runtime", task_dir = dir / "task";
  for (const auto& [name, text] : python ? PythonHarness() : NodeHarness()) WriteFile(runtime_dir / name, text);
  fs::create_directories(task_dir);
  fs::create_directories(dir / "tmp");
  std::string zip_path;
  if (!inv.zip.empty()) {
    zip_path = (dir / "code.zip").string();
    WriteFile(zip_path, inv.zip);
  } else {
    // CloudFormation writes inline ZipFile code as index.py / index.js.
    WriteFile(task_dir / (python ? "index.py" : "index.js"), inv.inline_code);
  }
  // The layers, extracted by the harness into opt/ in order.
  json layers = json::array();
  for (size_t i = 0; i < inv.layers.size(); ++i) {
    const std::string path = (dir / ("layer-" + std::to_string(i + 1) + ".zip")).string();
    WriteFile(path, inv.layers[i]);
    layers.push_back(path);
  }
  fs::create_directories(dir / "opt");
  // python3.12 -> "3.12": a layer's packages are in opt/python/lib/python3.12/site-packages.
  const std::string python_version = python ? RuntimeVersion(inv.runtime) : "";
  const json init = {{"handler", inv.handler},
                     {"task_dir", task_dir.string()},
                     {"zip", zip_path},
                     {"layers", layers},
                     {"opt_dir", (dir / "opt").string()},
                     {"python_version", python_version},
                     {"site_packages", resolved.site_packages}};
  WriteFile(dir / "init.json", init.dump());

  ChildSpec spec;
  spec.argv = {resolved.path};
  if (python) {
    spec.argv.push_back("-u");  // output reaches the log even when the call is killed
    if (!resolved.site_packages.empty()) spec.argv.push_back("-S");  // the harness adds them (ResolveInterpreter)
  } else {
    spec.argv.push_back("--max-old-space-size=" + std::to_string(inv.memory_mb));
  }
  spec.argv.push_back((runtime_dir / (python ? "bootstrap.py" : "bootstrap.js")).string());
  spec.argv.push_back((dir / "init.json").string());
  spec.env = LambdaEnvironment(inv, endpoint, dir, "/aws/lambda/" + inv.function_name);
  spec.cwd = task_dir.string();
  spec.address_space_bytes = (size_t{static_cast<size_t>(inv.memory_mb)} << 20) + kInterpreterReservedBytes;
  LongLivedChild child;
  std::string error;
  if (!StartChild(spec, &child, &error)) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    *o = NotRun("cannot start " + resolved.path + ": " + error);
    return nullptr;
  }
  auto env = std::make_unique<ExecutionEnvironment>(child, dir, inv.log_stream_name, int64_t{inv.memory_mb} * 1024);
  const Clock::time_point begin = Clock::now();
  const Exchange ready = env->Receive(deadline, kMaxLogBytes);
  o->ran = true;
  o->cold_start = true;
  o->init_ms = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
  o->log = ready.log;
  o->log_stream_name = env->log_stream();
  if (ready.timed_out) return env;  // the caller reports the timeout
  const json message = json::parse(ready.answer, nullptr, /*allow_exceptions=*/false);
  if (!ready.answered || !message.is_object()) {
    o->function_error = true;
    o->payload = ExitErrorPayload(ready, inv);
    return nullptr;
  }
  if (message.contains("error") && !message["error"].is_null()) {  // Init failed: Lambda reports its error
    o->function_error = true;
    o->payload = message["error"].dump();
    return nullptr;
  }
  return env;
}

Outcome TimedOut(const Invocation& inv, Outcome o) {
  o.timed_out = o.function_error = true;
  o.payload = ErrorPayload("Sandbox.Timedout", "RequestId: " + inv.request_id + " Error: " +
                                                   TimeoutMessage(inv.timeout_seconds));
  return o;
}

}  // namespace

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
  json event = json::parse(inv.event_json, nullptr, /*allow_exceptions=*/false);
  if (event.is_discarded()) return NotRun("The event is not JSON");

  // Lambda's Timeout counts from the start: Init included on a cold start.
  const Clock::time_point begin = Clock::now();
  const Clock::time_point deadline = begin + std::chrono::seconds(inv.timeout_seconds);
  const std::string endpoint = EndpointFor(inv);
  const std::string key = EnvironmentKey(inv, resolved.path, endpoint);
  Outcome o;
  std::unique_ptr<ExecutionEnvironment> env = TakeEnvironment(key);
  if (env) {
    o.ran = true;
    o.log_stream_name = env->log_stream();
  } else {
    env = StartEnvironment(inv, endpoint, resolved, deadline, &o);
    if (!env) return o;
  }
  auto elapsed_ms = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - begin).count(); };
  if (Clock::now() >= deadline) {  // Init used all of it
    o.duration_ms = elapsed_ms();
    return TimedOut(inv, o);
  }
  const json request = {
      {"event", event},
      {"capture_response_url", inv.capture_response_url},
      {"deadline_epoch_ms", EpochMs() + std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count()},
      {"context",
       {{"function_name", inv.function_name},
        {"function_version", "$LATEST"},
        {"invoked_function_arn", inv.function_arn},
        {"memory_limit_in_mb", std::to_string(inv.memory_mb)},
        {"aws_request_id", inv.request_id},
        {"log_group_name", "/aws/lambda/" + inv.function_name},
        {"log_stream_name", env->log_stream()}}},
  };
  const Exchange ex = env->Call(request.dump(), deadline, kMaxLogBytes - std::min(kMaxLogBytes, o.log.size()));
  o.log += ex.log;
  if (ex.log_truncated) o.log += "\n[moonstack: output beyond 1 MiB dropped]\n";
  o.duration_ms = elapsed_ms();
  // Lambda's Max Memory Used never shows more than MemorySize.
  o.max_memory_mb = ex.out_of_memory ? inv.memory_mb : std::min<int64_t>(inv.memory_mb, (env->PeakRssKib() + 1023) / 1024);
  // A timed-out or crashed invocation's environment goes with it (`env`'s
  // destructor kills the process group); a clean one is kept warm.
  if (ex.timed_out) return TimedOut(inv, o);
  const json answer = json::parse(ex.answer, nullptr, /*allow_exceptions=*/false);
  if (!ex.answered || !answer.is_object()) {
    o.function_error = true;
    o.payload = ExitErrorPayload(ex, inv);
    return o;
  }
  ReadAnswer(answer, &o);
  ReturnEnvironment(key, std::move(env));
  return o;
}

}  // namespace ms::lambda
