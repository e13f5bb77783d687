// host/lambda/runner: one invocation in a real python3 / node subprocess —
// the handler's result and Lambda's error shapes, the context and
// environment a function gets, Timeout (killed), a missing interpreter,
// code from a zip, and a ResponseURL served by the invocation itself.
#include <catch2/catch.hpp>

#include <signal.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "lambda/runner.h"
#include "lambda_test_support.h"
#include "test_util.h"

using ms::lambda::Invocation;
using ms::lambda::Outcome;
using nlohmann::json;

namespace {

Invocation Python(const std::string& code) { return ms::test::PythonInvocation("fn", code); }

Invocation Node(const std::string& code) {
  Invocation inv = Python(code);
  inv.runtime = "nodejs20.x";
  return inv;
}

json Payload(const Outcome& o) {
  INFO(o.error << "\n" << o.log);
  REQUIRE(o.ran);
  return json::parse(o.payload);
}

}  // namespace

TEST_CASE("lambda runner: a python handler gets the event, Lambda's context and environment", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  setenv("MOONSTACK_TEST_HOST_ONLY", "secret", 1);
  Invocation inv = Python(R"(
import os
def handler(event, context):
    print("hello from", context.function_name)
    return {"event": event, "name": context.function_name, "arn": context.invoked_function_arn,
            "memory": context.memory_limit_in_mb, "request": context.aws_request_id,
            "stream": context.log_stream_name, "remaining_ok": 0 < context.get_remaining_time_in_millis() <= 3000,
            "env": {k: os.environ.get(k) for k in ["AWS_LAMBDA_FUNCTION_NAME", "AWS_REGION", "GREETING",
                                                    "MOONSTACK_TEST_HOST_ONLY", "HOME", "AWS_ENDPOINT_URL"]}}
)");
  inv.event_json = R"({"a": [1, "two"]})";
  inv.environment = {{"GREETING", "hi"}, {"AWS_REGION", "eu-west-1"}};  // a reserved one is Lambda's
  const Outcome o = ms::lambda::Run(inv);
  const json p = Payload(o);
  CHECK_FALSE(o.function_error);
  CHECK(p["event"] == json::parse(R"({"a": [1, "two"]})"));
  CHECK(p["name"] == "fn");
  CHECK(p["arn"] == inv.function_arn);
  CHECK(p["memory"] == "128");
  CHECK(p["request"] == inv.request_id);
  CHECK(p["stream"] == inv.log_stream_name);
  CHECK(p["remaining_ok"] == true);
  CHECK(p["env"] == json::parse(R"({"AWS_LAMBDA_FUNCTION_NAME": "fn", "AWS_REGION": "us-east-1", "GREETING": "hi",
                                    "MOONSTACK_TEST_HOST_ONLY": null, "HOME": null, "AWS_ENDPOINT_URL": null})"));
  CHECK(o.log == "hello from fn\n");
  CHECK(o.max_memory_mb > 0);
  CHECK(o.handler_ms > 0);
  CHECK(o.duration_ms >= o.handler_ms);
}

TEST_CASE("lambda runner: a known server endpoint reaches the function with credentials", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Invocation inv = Python(
      "import os\ndef handler(e, c):\n    return [os.environ.get(k) for k in ['AWS_ENDPOINT_URL', 'AWS_ACCESS_KEY_ID']]");
  inv.endpoint_url = "http://127.0.0.1:4581";
  const json p = Payload(ms::lambda::Run(inv));
  CHECK(p[0] == "http://127.0.0.1:4581");
  CHECK(p[1].is_string());
}

TEST_CASE("lambda runner: the interpreter's site-packages are importable (boto3 when installed)", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  if (ms::test::RunCommand("python3 -c 'import boto3' 2>/dev/null").exit_code != 0) {
    WARN("skipped: boto3 is not installed for python3");
    return;
  }
  const json p = Payload(ms::lambda::Run(Python("import boto3\ndef handler(e, c):\n    return boto3.__name__\n")));
  CHECK(p == "boto3");
}

TEST_CASE("lambda runner: a python exception is Lambda's error object", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  const Outcome o = ms::lambda::Run(Python("def handler(e, c):\n    raise ValueError('bad input')\n"));
  const json p = Payload(o);
  CHECK(o.function_error);
  CHECK(p["errorType"] == "ValueError");
  CHECK(p["errorMessage"] == "bad input");
  CHECK(p["stackTrace"].is_array());
  CHECK(o.log.find("[ERROR] ValueError: bad input") != std::string::npos);

  const json missing = Payload(ms::lambda::Run(Python("def other(e, c):\n    return 1\n")));
  CHECK(missing == json::parse(R"({"errorMessage": "Handler 'handler' missing on module 'index'",
      "errorType": "Runtime.HandlerNotFound", "requestId": "", "stackTrace": []})"));
}

TEST_CASE("lambda runner: Timeout kills the function, with Lambda's message", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Invocation inv = Python("import os, time\ndef handler(e, c):\n    print('pid', os.getpid())\n    time.sleep(30)\n");
  inv.timeout_seconds = 1;
  const Outcome o = ms::lambda::Run(inv);
  const json p = Payload(o);
  CHECK(o.timed_out);
  CHECK(o.function_error);
  CHECK(p == json{{"errorType", "Sandbox.Timedout"},
                  {"errorMessage", "RequestId: " + inv.request_id + " Error: Task timed out after 1.00 seconds"}});
  CHECK(o.duration_ms >= 1000);
  CHECK(o.duration_ms < 2500);
  // Killed: the process it printed is gone.
  REQUIRE(o.log.rfind("pid ", 0) == 0);
  const int pid = std::stoi(o.log.substr(4));
  CHECK(kill(pid, 0) != 0);
}

TEST_CASE("lambda runner: a missing interpreter is an error naming it and the runtime", "[lambda]") {
  const std::string empty = (std::filesystem::temp_directory_path() / "moonstack_lambda_no_interpreters").string();
  std::filesystem::create_directories(empty);
  Invocation inv = Python("def handler(e, c):\n    return 1\n");
  inv.search_path = empty;
  Outcome o = ms::lambda::Run(inv);
  CHECK_FALSE(o.ran);
  CHECK(o.error == "Runtime python3.12 needs python3, which is not on PATH (" + empty + ")");
  inv.runtime = "nodejs20.x";
  CHECK(ms::lambda::Run(inv).error == "Runtime nodejs20.x needs node, which is not on PATH (" + empty + ")");
  inv.runtime = "java21";
  CHECK(ms::lambda::Run(inv).error == "moonstack runs the python3.x and nodejs runtimes only, not java21");
}

TEST_CASE("lambda runner: --no-lambda runs nothing", "[lambda]") {
  ms::lambda::SetExecutionEnabled(false);
  const Outcome o = ms::lambda::Run(Python("def handler(e, c):\n    return 1\n"));
  ms::lambda::SetExecutionEnabled(true);
  CHECK_FALSE(o.ran);
  CHECK(o.error == "Lambda execution is turned off (--no-lambda)");
}

TEST_CASE("lambda runner: code from a zip archive", "[lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  const std::string dir = (std::filesystem::temp_directory_path() / "moonstack_lambda_zip").string();
  std::filesystem::create_directories(dir);
  const auto made = ms::test::RunCommand(
      "cd " + dir + " && python3 -c \"import zipfile; z = zipfile.ZipFile('code.zip', 'w', zipfile.ZIP_DEFLATED); "
      "z.writestr('app/main.py', 'def go(e, c):\\n    return {\\\"zipped\\\": e[\\\"n\\\"] * 2}\\n'); "
      "z.writestr('app/__init__.py', ''); z.close()\" 2>&1");
  REQUIRE(made.exit_code == 0);
  Invocation inv = Python("");
  inv.zip = ms::test::ReadFile(dir + "/code.zip");
  inv.handler = "app/main.go";
  inv.event_json = R"({"n": 21})";
  CHECK(Payload(ms::lambda::Run(inv)) == json{{"zipped", 42}});
  if (!ms::test::HaveInterpreter("node")) return;
  REQUIRE(ms::test::RunCommand("cd " + dir + " && python3 -c \"import zipfile; z = zipfile.ZipFile('node.zip', 'w', "
                               "zipfile.ZIP_DEFLATED); z.writestr('lib/app.js', 'exports.go = async (e) => ({zipped: "
                               "e.n * 2});'); z.close()\"").exit_code == 0);
  Invocation js = Node("");
  js.zip = ms::test::ReadFile(dir + "/node.zip");
  js.handler = "lib/app.go";
  js.event_json = R"({"n": 4})";
  CHECK(Payload(ms::lambda::Run(js)) == json{{"zipped", 8}});
}

TEST_CASE("lambda runner: a node handler — async, callback, error, context", "[lambda]") {
  if (!ms::test::HaveInterpreter("node")) return;
  Invocation inv = Node(R"(
exports.handler = async (event, context) => {
  console.log('hello from', context.functionName);
  return { event, name: context.functionName, memory: context.memoryLimitInMB, request: context.awsRequestId,
           remainingOk: context.getRemainingTimeInMillis() > 0, env: process.env.GREETING || null,
           home: process.env.HOME || null };
};)");
  inv.event_json = R"({"k": "v"})";
  inv.environment = {{"GREETING", "hi"}};
  const Outcome o = ms::lambda::Run(inv);
  CHECK(Payload(o) == json::parse(R"({"event": {"k": "v"}, "name": "fn", "memory": "128",
      "request": "11111111-2222-4333-8444-555555555555", "remainingOk": true, "env": "hi", "home": null})"));
  CHECK(o.log == "hello from fn\n");

  const Outcome cb = ms::lambda::Run(Node("exports.handler = (e, c, callback) => { callback(null, 7); };"));
  CHECK(Payload(cb) == 7);
  const Outcome err = ms::lambda::Run(Node("exports.handler = async () => { throw new TypeError('nope'); };"));
  const json p = Payload(err);
  CHECK(err.function_error);
  CHECK(p["errorType"] == "TypeError");
  CHECK(p["errorMessage"] == "nope");
}

TEST_CASE("lambda runner: node starts under the memory limit and is timed out too", "[lambda]") {
  if (!ms::test::HaveInterpreter("node")) return;
  Invocation inv = Node("exports.handler = () => new Promise(() => setInterval(() => {}, 1000));");
  inv.timeout_seconds = 1;
  const Outcome o = ms::lambda::Run(inv);
  CHECK(o.timed_out);
  CHECK(Payload(o)["errorMessage"] == "RequestId: " + inv.request_id + " Error: Task timed out after 1.00 seconds");
}

TEST_CASE("lambda runner: cfnresponse and cfn-response PUT to a ResponseURL the invocation serves", "[lambda]") {
  const std::string event = R"({"RequestType": "Create", "ResponseURL": "https://example.invalid/x",
      "StackId": "arn:aws:cloudformation:us-east-1:123456789012:stack/s/1", "RequestId": "r-1",
      "LogicalResourceId": "Res", "ResourceProperties": {}})";
  if (ms::test::HaveInterpreter("python3")) {
    Invocation inv = Python(R"(
import cfnresponse
def handler(event, context):
    cfnresponse.send(event, context, cfnresponse.SUCCESS, {"Answer": "42"}, "phys-1")
)");
    inv.event_json = event;
    inv.capture_response_url = true;
    const Outcome o = ms::lambda::Run(inv);
    INFO(o.log);
    REQUIRE(o.responses.size() == 1);
    CHECK(json::parse(o.responses[0]) == json::parse(R"({"Status": "SUCCESS",
        "Reason": "See the details in CloudWatch Log Stream: 2024/01/31/[$LATEST]0123456789abcdef0123456789abcdef",
        "PhysicalResourceId": "phys-1", "StackId": "arn:aws:cloudformation:us-east-1:123456789012:stack/s/1",
        "RequestId": "r-1", "LogicalResourceId": "Res", "NoEcho": false, "Data": {"Answer": "42"}})"));
  }
  if (ms::test::HaveInterpreter("node")) {
    Invocation inv = Node(R"(
const response = require('cfn-response');
exports.handler = function (event, context) {
  response.send(event, context, response.FAILED, {}, 'phys-2');
};)");
    inv.event_json = event;
    inv.capture_response_url = true;
    const Outcome o = ms::lambda::Run(inv);
    INFO(o.log);
    REQUIRE(o.responses.size() == 1);
    const json body = json::parse(o.responses[0]);
    CHECK(body["Status"] == "FAILED");
    CHECK(body["PhysicalResourceId"] == "phys-2");
    CHECK_FALSE(o.function_error);
  }
}
