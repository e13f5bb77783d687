// Runs one Lambda invocation locally: the function's code in a real python3
// or node process, through a harness of ours per runtime (harness/bootstrap.py,
// harness/bootstrap.js) that loads the handler, builds Lambda's event and
// context, and reports the result or the error as Lambda reports it. The
// process is a warm execution environment (execution_environment.h): after a
// clean invocation it stays up in environment_pool.h and the next invocation
// of the same function, code and configuration reuses it (module-level state
// persists, Init runs once), as Lambda reuses execution environments. The simulated Lambda (providers/sim/lambda.lua) calls this
// through the Lua binding host/lua/lambda_binding.*.
//
// Containment, per environment: a temporary directory of its own (the code in
// task/, the harness in runtime/, TMPDIR in tmp/; removed with it), per
// invocation the function's Timeout as a wall-clock limit (the process group
// is killed, the environment gone; a crash ends it too),
// its MemorySize as the address-space limit (node: plus the 1 GiB V8
// reserves up front, and --max-old-space-size=MemorySize), and an
// environment holding only what Lambda gives a function
// (LambdaEnvironment below) plus the function's Environment variables.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ms::lambda {

struct Invocation {
  std::string function_name;
  std::string function_arn;
  std::string runtime;  // "python3.12", "nodejs20.x", ...
  std::string handler;  // "index.handler"
  std::string region = "us-east-1";
  // The function's account: its SDK calls are signed with it as the access
  // key ID, which `serve` reads as the account (query_request.h). Empty:
  // the default account's dummy key.
  std::string account;
  int timeout_seconds = 3;
  int memory_mb = 128;
  std::string inline_code;  // Code.ZipFile: written as index.py / index.js
  std::string zip;          // or a zip archive's bytes (code from S3)
  // The function's layers' zip archives, in its Layers order: extracted
  // into the environment's opt/ (Lambda's /opt), a later one's files over
  // an earlier one's; opt/python (and its lib/pythonX.Y/site-packages) on
  // sys.path after the code, opt/nodejs/node_modules (and
  // nodejs/nodeNN/node_modules) on NODE_PATH, opt/bin on PATH, opt/lib on
  // LD_LIBRARY_PATH, as Lambda sets them up.
  std::vector<std::string> layers;
  std::vector<std::pair<std::string, std::string>> environment;  // Environment.Variables
  std::string event_json = "{}";
  std::string request_id;
  std::string log_stream_name;
  // When the function's code or configuration last changed (its
  // LastModified): with the code and settings themselves, what keeps a
  // changed or re-created function from reusing an older one's environments.
  std::string last_modified;
  // moonstack serve's base URL when one runs: the function's SDK calls go
  // there (AWS_ENDPOINT_URL, dummy credentials). Empty: SetDefaultEndpoint's.
  std::string endpoint_url;
  // The harness serves the event's ResponseURL itself and reports the
  // bodies PUT to it (custom resources in embedded mode).
  bool capture_response_url = false;
  // Where python3 and node are looked up ($PATH when empty).
  std::string search_path;
};

struct Outcome {
  // False: the function did not run (no interpreter, execution turned
  // off, ...); `error` says why.
  bool ran = false;
  std::string error;
  // The handler's result, or Lambda's error object ({errorMessage,
  // errorType, stackTrace|trace}), as JSON text.
  std::string payload = "null";
  bool function_error = false;
  bool timed_out = false;
  std::string log;  // what the function printed
  std::vector<std::string> responses;  // bodies PUT to the ResponseURL (capture_response_url)
  double duration_ms = 0;  // the whole invocation, Init included on a cold start
  double handler_ms = 0;   // the handler alone (as the harness measured it)
  bool cold_start = false;  // a new environment ran Init for this invocation
  double init_ms = 0;       // its Init: process start to the handler loaded (cold starts)
  std::string log_stream_name;  // the environment's stream (a warm one keeps its first invocation's)
  int64_t max_memory_mb = 0;
};

// Turns execution on or off for the process (`--no-lambda`): while off, Run
// returns ran = false with kDisabledReason.
void SetExecutionEnabled(bool enabled);
bool ExecutionEnabled();
inline constexpr const char* kDisabledReason = "Lambda execution is turned off (--no-lambda)";

// Where the AWS SDK for JavaScript v3 is (a node_modules directory, as
// /var/runtime/node_modules is on Lambda; scripts/install_node_sdk.sh
// installs it): put on NODE_PATH after the harness's own modules for nodejs
// functions. "" (the default): none.
void SetNodeSdkPath(const std::string& node_modules);
std::string NodeSdkPath();

// Where a function's SDK calls go when its invocation names no endpoint_url
// (embedded mode, no `moonstack serve`): asked before each invocation, ""
// for none. A command's session sets it (server/function_endpoint.h) and
// unsets it (nullptr) when it closes.
void SetDefaultEndpoint(std::function<std::string()> endpoint);

// The interpreter a runtime needs ("python3", "node"), or "" for a runtime
// moonstack does not run (java21, provided.al2023, ...).
std::string InterpreterFor(const std::string& runtime);

// Lambda's "Task timed out after 3.00 seconds".
std::string TimeoutMessage(int timeout_seconds);

Outcome Run(const Invocation& invocation);

}  // namespace ms::lambda
