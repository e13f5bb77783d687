// Custom resources backed by a Lambda function of the same stack, whose
// inline code runs locally (python3 with cfnresponse, node with
// cfn-response): create, an update answered with a new PhysicalResourceId
// (a replacement: the old one gets a Delete in cleanup), a FAILED response
// (its exact reason, then rollback), delete; a function that times out; a
// missing interpreter; --no-lambda; the function's log group (and `moonstack
// logs`); Invoke through `world call`. Through the
// moonstack binary, in virtual time.
#include <catch2/catch.hpp>

#include "cli_fixture.h"
#include "../lambda/lambda_test_support.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

namespace {

// Each handler logs "request <RequestType> <PhysicalResourceId or -> <RequestId>",
// answers with PhysicalResourceId "res-<Value>" (Delete: the one it got) and
// Data {Upper}, and answers FAILED when Mode is "fail".
const char* kPython = R"(import cfnresponse
def handler(event, context):
    props = event['ResourceProperties']
    kind = event['RequestType']
    print('request', kind, event.get('PhysicalResourceId', '-'), event['RequestId'])
    if kind != 'Delete' and props.get('Mode') == 'fail':
        cfnresponse.send(event, context, cfnresponse.FAILED, {}, event.get('PhysicalResourceId'),
                         reason='value ' + props['Value'] + ' refused')
        return
    physical = event['PhysicalResourceId'] if kind == 'Delete' else 'res-' + props['Value']
    cfnresponse.send(event, context, cfnresponse.SUCCESS, {'Upper': props['Value'].upper()}, physical)
)";

const char* kNode = R"(const response = require('cfn-response');
exports.handler = function (event, context) {
  const props = event.ResourceProperties, kind = event.RequestType;
  console.log('request ' + kind + ' ' + (event.PhysicalResourceId || '-') + ' ' + event.RequestId);
  if (kind !== 'Delete' && props.Mode === 'fail') {
    return response.send(event, context, response.FAILED, {}, event.PhysicalResourceId);
  }
  const physical = kind === 'Delete' ? event.PhysicalResourceId : 'res-' + props.Value;
  response.send(event, context, response.SUCCESS, { Upper: props.Value.toUpperCase() }, physical);
};
)";

std::string JsonString(const std::string& s) { return nlohmann::json(s).dump(); }

// A function `name` with `code` and a custom resource Res it backs.
std::string Template(const std::string& runtime, const std::string& code, const std::string& extra_props = "",
                     int timeout = 3) {
  return R"({
  "Parameters": {"Value": {"Type": "String", "Default": "one"}, "Mode": {"Type": "String", "Default": "ok"}},
  "Resources": {
    "Fn": {"Type": "AWS::Lambda::Function", "Properties": {
      "FunctionName": "cr-fn", "Runtime": ")" + runtime + R"(", "Handler": "index.handler",
      "Role": "arn:aws:iam::123456789012:role/lambda", "Timeout": )" + std::to_string(timeout) + R"(,
      "Code": {"ZipFile": )" + JsonString(code) + R"(}}},
    "Res": {"Type": "Custom::Thing", "Properties": {
      "ServiceToken": {"Fn::GetAtt": ["Fn", "Arn"]}, "Value": {"Ref": "Value"}, "Mode": {"Ref": "Mode"})" +
         extra_props + R"(}}
  },
  "Outputs": {"Upper": {"Value": {"Fn::GetAtt": ["Res", "Upper"]}}}
})";
}

struct Cli : ms::test::CliFixture {
  // With the functions' execution role, "lambda".
  explicit Cli(const std::string& name) : CliFixture("lambda_custom_resource_cli", name) { MakeLambdaRole("lambda"); }
  std::string Physical(const std::string& logical) const {
    return Json("describe-stack-resource --stack-name s --logical-resource-id " + logical)
        ["StackResourceDetail"]["PhysicalResourceId"];
  }
  std::string Output() const {
    return Json("describe-stacks --stack-name s")["Stacks"][0]["Outputs"][0]["OutputValue"];
  }
  // "<status> <physical id>" of Res's events from `from` on, oldest first.
  std::vector<std::string> ResEvents(size_t from) const {
    std::vector<std::string> out;
    const nlohmann::json events = Json("describe-stack-events --stack-name s")["StackEvents"];
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if ((*it)["LogicalResourceId"] != "Res") continue;
      out.push_back((*it)["ResourceStatus"].get<std::string>() + " " + (*it)["PhysicalResourceId"].get<std::string>());
    }
    return std::vector<std::string>(out.begin() + static_cast<long>(std::min(from, out.size())), out.end());
  }
  std::string Reason(const std::string& status) const {
    const nlohmann::json events = Json("describe-stack-events --stack-name s")["StackEvents"];
    for (const auto& e : events) {
      if (e["LogicalResourceId"] == "Res" && e["ResourceStatus"] == status) return e.value("ResourceStatusReason", "");
    }
    return "";
  }
  // The messages of /aws/lambda/cr-fn holding `text`, oldest first.
  std::vector<std::string> Log(const std::string& text) const {
    std::vector<std::string> out;
    const nlohmann::json r = Json(R"(world call logs FilterLogEvents '{"logGroupName": "/aws/lambda/cr-fn"}')");
    for (const auto& e : r["events"]) {
      const std::string m = e["message"];
      if (m.find(text) != std::string::npos) out.push_back(m);
    }
    return out;
  }
  // The log stream of the first event holding `text`.
  std::string StreamOf(const std::string& text) const {
    const nlohmann::json r = Json(R"(world call logs FilterLogEvents '{"logGroupName": "/aws/lambda/cr-fn"}')");
    for (const auto& e : r["events"]) {
      if (e["message"].get<std::string>().find(text) != std::string::npos) return e["logStreamName"];
    }
    return "";
  }
  // The handler's "request ..." lines, without their RequestIds.
  std::vector<std::string> Requests() const {
    std::vector<std::string> out;
    for (const std::string& line : Log("request ")) out.push_back(line.substr(0, line.rfind(' ')));
    return out;
  }
  std::string LastRequestId() const {
    const auto lines = Log("request ");
    return lines.empty() ? "" : lines.back().substr(lines.back().rfind(' ') + 1);
  }
};

// Create, replacement by Update, a FAILED update rolled back, delete.
// `failed_reason`: what the function sends as Reason ("" for cfn-response's,
// which names the invocation's log stream).
void Lifecycle(const std::string& name, const std::string& runtime, const std::string& code,
               const std::string& failed_reason) {
  Cli cli(name);
  const std::string t = cli.Write("t.json", Template(runtime, code));
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  CHECK(cli.Physical("Res") == "res-one");
  CHECK(cli.Output() == "ONE");

  size_t from = cli.ResEvents(0).size();
  cli.Json("update-stack --stack-name s --template-body file://" + t +
           " --parameters ParameterKey=Value,ParameterValue=two");
  CHECK(cli.Status("s") == "UPDATE_COMPLETE");
  CHECK(cli.Output() == "TWO");
  CHECK(cli.ResEvents(from) == std::vector<std::string>{"UPDATE_IN_PROGRESS res-one", "UPDATE_COMPLETE res-two",
                                                        "DELETE_IN_PROGRESS res-one", "DELETE_COMPLETE res-one"});

  from = cli.ResEvents(0).size();
  cli("update-stack --stack-name s --template-body file://" + t +
      " --parameters ParameterKey=Value,ParameterValue=three ParameterKey=Mode,ParameterValue=fail");
  CHECK(cli.Status("s") == "UPDATE_ROLLBACK_COMPLETE");
  const std::vector<std::string> requests = cli.Requests();
  REQUIRE(requests.size() >= 5);
  CHECK(std::vector<std::string>(requests.begin(), requests.begin() + 5) ==
        std::vector<std::string>{"request Create -", "request Update res-one", "request Delete res-one",
                                 "request Update res-two", "request Update res-two"});
  const std::string failed_id = cli.Log("request Update res-two")[0];
  const std::string reason = !failed_reason.empty() ? failed_reason
      : "See the details in CloudWatch Log Stream: " + cli.StreamOf("request Update res-two");
  CHECK(cli.Reason("UPDATE_FAILED") == "Received response status [FAILED] from custom resource. Message returned: " +
                                           reason + " (RequestId: " + failed_id.substr(failed_id.rfind(' ') + 1) + ")");
  CHECK(cli.Physical("Res") == "res-two");

  CHECK(cli("delete-stack --stack-name s").exit_code == 0);
  CHECK(cli.Requests().back() == "request Delete res-two");
  CHECK(cli("describe-stacks --stack-name s").out.find("does not exist") != std::string::npos);
}

}  // namespace

TEST_CASE("lambda custom resource: inline Python with cfnresponse, through its lifecycle", "[cli][lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Lifecycle("python", "python3.12", kPython, "value three refused");
}

TEST_CASE("lambda custom resource: inline Node with cfn-response, through its lifecycle", "[cli][lambda]") {
  if (!ms::test::HaveInterpreter("node")) return;
  Lifecycle("node", "nodejs24.x", kNode, "");  // cfn-response's Reason names the invocation's log stream
}

TEST_CASE("lambda custom resource: the function's log group holds its output and Lambda's lines", "[cli][lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Cli cli("logs");
  const std::string t = cli.Write("t.json", Template("python3.12", kPython));
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  const nlohmann::json r = cli.Json(R"(world call logs FilterLogEvents '{"logGroupName": "/aws/lambda/cr-fn"}')");
  std::vector<std::string> messages;
  for (const auto& e : r["events"]) messages.push_back(e["message"]);
  REQUIRE(messages.size() >= 5);
  const std::string request_id = messages[0].substr(std::string("START RequestId: ").size(), 36);
  CHECK(messages[0] == "START RequestId: " + request_id + " Version: $LATEST");
  CHECK(messages[1].rfind("request Create - ", 0) == 0);
  CHECK(std::find(messages.begin(), messages.end(), "Response body:") != messages.end());
  CHECK(messages[messages.size() - 2] == "END RequestId: " + request_id);
  CHECK(std::regex_match(messages.back(), std::regex("REPORT RequestId: " + request_id +
                                                     "\tDuration: [0-9]+\\.[0-9]{2} ms\tBilled Duration: [0-9]+ ms"
                                                     "\tMemory Size: 128 MB\tMax Memory Used: [0-9]+ MB\tInit Duration: [0-9]+\\.[0-9]{2} ms")));
  // `moonstack logs NAME`: the same events, a line each: "<time> <stream> <message>".
  const ms::test::CommandResult printed = cli("logs cr-fn --filter START");
  CHECK(printed.exit_code == 0);
  CHECK(std::regex_match(printed.out, std::regex("[0-9-]{10}T[0-9:]{8}\\.[0-9]{3}Z [0-9/]{10}/\\[\\$LATEST\\][0-9a-f]{32} "
                                                 "START RequestId: " + request_id + " Version: \\$LATEST\n")));
  CHECK(cli("logs no-such-fn").out.find("The specified log group does not exist.") != std::string::npos);
}

TEST_CASE("lambda custom resource: a function that times out is killed and never answers", "[cli][lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Cli cli("timeout");
  const std::string t = cli.Write(
      "t.json", Template("python3.12", "import time\ndef handler(event, context):\n    time.sleep(30)\n",
                         R"(, "ServiceTimeout": "60")", /*timeout=*/1));
  cli("create-stack --stack-name s --template-body file://" + t);
  CHECK(cli.Status("s") == "ROLLBACK_COMPLETE");
  const std::vector<std::string> timed_out = cli.Log("Task timed out after 1.00 seconds");
  REQUIRE(timed_out.size() == 1);
  CHECK(std::regex_match(timed_out[0], std::regex("[0-9-]{10}T[0-9:.]+Z [0-9a-f-]{36} Task timed out after 1\\.00 seconds")));
  CHECK(std::regex_match(cli.Reason("CREATE_FAILED"),
                         std::regex("CloudFormation did not receive a response from your Custom Resource\\. Please "
                                    "check your logs for requestId \\[[0-9a-f-]{36}\\]\\..*")));
}

TEST_CASE("lambda custom resource: a missing interpreter fails the resource naming it", "[cli][lambda]") {
  Cli cli("no_python");
  const std::string t = cli.Write("t.json", Template("python3.12", kPython));
  const std::string empty = cli.dir + "/empty-path";
  std::filesystem::create_directories(empty);
  cli("create-stack --stack-name s --template-body file://" + t + " --no-lambda");  // a first stack: not run
  CHECK(cli.Reason("CREATE_FAILED") == "Function cr-fn was not run: Lambda execution is turned off (--no-lambda)");
  CHECK(cli("delete-stack --stack-name s").exit_code == 0);
  const ms::test::CommandResult r = ms::test::RunCommand(
      "cd " + cli.dir + " && PATH=" + empty + " MOONSTACK_STATE=" + cli.dir + "/state.db " + MOONSTACK_BINARY +
      " create-stack --stack-name s --template-body file://" + t + " 2>&1");
  INFO(r.out);
  CHECK(cli.Status("s") == "ROLLBACK_COMPLETE");
  CHECK(cli.Reason("CREATE_FAILED") ==
        "Function cr-fn was not run: Runtime python3.12 needs python3, which is not on PATH (" + empty + ")");
}

TEST_CASE("lambda: Invoke through world call — payload, FunctionError, log tail", "[cli][lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Cli cli("invoke");
  cli.Json(R"(world call lambda CreateFunction '{"FunctionName": "f", "Runtime": "python3.12", "Handler": "index.handler", "Role": "arn:aws:iam::123456789012:role/lambda", "Code": {"ZipFile": "def handler(e, c):\n    if e.get(\"fail\"):\n        raise RuntimeError(\"asked to\")\n    return {\"twice\": e[\"n\"] * 2}\n"}}')");
  nlohmann::json r = cli.Json(R"(world call lambda Invoke '{"FunctionName": "f", "Payload": "{\"n\": 21}"}')");
  CHECK(r["StatusCode"] == 200);
  CHECK(nlohmann::json::parse(r["Payload"].get<std::string>()) == nlohmann::json{{"twice", 42}});
  CHECK_FALSE(r.contains("FunctionError"));
  r = cli.Json(R"(world call lambda Invoke '{"FunctionName": "f", "Payload": "{\"fail\": true}", "LogType": "Tail"}')");
  CHECK(r["FunctionError"] == "Unhandled");
  CHECK(nlohmann::json::parse(r["Payload"].get<std::string>())["errorMessage"] == "asked to");
  CHECK(r["LogResult"].is_string());
  r = cli.Json(R"(world call lambda Invoke '{"FunctionName": "f", "InvocationType": "Event"}')");
  CHECK(r == nlohmann::json{{"StatusCode", 202}, {"ExecutedVersion", "$LATEST"}});
  const ms::test::CommandResult bad = cli(R"(world call lambda Invoke '{"FunctionName": "f", "Payload": "{nope"}')");
  CHECK(bad.exit_code != 0);
  CHECK(bad.out.find("InvalidRequestContentException") != std::string::npos);
}

TEST_CASE("lambda: --start-time starts virtual time on the day given and a runtime blocked later is created then", "[cli][lambda]") {
  ms::test::CliFixture cli("lambda_custom_resource_cli", "start_time");
  const std::string t = cli.Write("t.json", R"({"Resources": {
    "Role": {"Type": "AWS::IAM::Role", "Properties": {"AssumeRolePolicyDocument": )" +
                                                       std::string(ms::test::kLambdaTrustPolicy) + R"(}},
    "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"Runtime": "python3.6", "Handler": "index.handler",
      "Role": {"Fn::GetAtt": ["Role", "Arn"]}, "Code": {"ZipFile": "x"}}}}})");
  const std::string create = "create-stack --capabilities CAPABILITY_IAM --template-body file://" + t;
  // 2022-07-17: Lambda still created python3.6 functions.
  cli(create + " --stack-name before --start-time 2022-07-17T12:00:00Z");
  const nlohmann::json before = cli.Json("describe-stacks --stack-name before")["Stacks"][0];
  CHECK(before["StackStatus"] == "CREATE_COMPLETE");
  CHECK(before["CreationTime"].get<std::string>().rfind("2022-07-17T12:00:00", 0) == 0);
  // An earlier start on the same state keeps the state's clock: time does not go back.
  cli(create + " --stack-name again --start-time 2020-01-01T00:00:00Z");
  CHECK(cli.Json("describe-stacks --stack-name again")["Stacks"][0]["CreationTime"].get<std::string>() >=
        before["CreationTime"].get<std::string>());
  // From 2022-07-18 it refuses them; so it does today (no --start-time).
  for (const std::string& when : {std::string(" --start-time 2022-07-18T00:00:00Z"), std::string()}) {
    const std::string name = when.empty() ? "today" : "after";
    cli(create + " --stack-name " + name + when);
    CHECK(cli.Status(name) == "ROLLBACK_COMPLETE");
    bool refused = false;
    for (const std::string& e : cli.Events(name, 0)) {
      refused = refused || e == "Fn CREATE_FAILED The runtime parameter of python3.6 is no longer supported for creating "
                                "or updating AWS Lambda functions. We recommend you use the new runtime (python3.14) "
                                "while creating or updating functions.";
    }
    CHECK(refused);
  }
  // A value that is not a time, and a start with real time, are refused before anything runs.
  ms::test::CommandResult bad = cli(create + " --stack-name bad --start-time soon");
  CHECK(bad.exit_code != 0);
  CHECK(bad.out.find("--start-time: 'soon' is not a time (ISO 8601, e.g. 2026-01-01T00:00:00Z)") != std::string::npos);
  bad = cli(create + " --stack-name real --time-scale 1 --start-time 2022-07-17T12:00:00Z");
  CHECK(bad.exit_code != 0);
  CHECK(bad.out.find("--start-time (or MOONSTACK_START_TIME) applies to virtual time (--time-scale 0) only") !=
        std::string::npos);
  CHECK(cli("describe-stacks --stack-name bad").exit_code != 0);
}

TEST_CASE("lambda: a function's nested settings are checked against the registry schema before Lambda is called", "[cli][lambda]") {
  // AWS::Lambda::Function's provider takes TracingConfig and VpcConfig as
  // plain JSON, Architectures and Layers as lists of strings; the registry's nested enum, types and keys apply, with its messages, and no
  // function is made.
  ms::test::CliFixture cli("lambda_custom_resource_cli", "nested_registry");
  auto stack = [&](const std::string& name, const std::string& settings) {
    const std::string t = cli.Write(name + ".json", R"({"Resources": {
      "Role": {"Type": "AWS::IAM::Role", "Properties": {"AssumeRolePolicyDocument": )" +
                                                       std::string(ms::test::kLambdaTrustPolicy) + R"(}},
      "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"Runtime": "python3.13", "Handler": "index.handler",
        "Role": {"Fn::GetAtt": ["Role", "Arn"]}, "Code": {"ZipFile": "x"}, )" + settings + "}}}}");
    cli("create-stack --capabilities CAPABILITY_IAM --stack-name " + name + " --template-body file://" + t);
    return cli.Events(name, 0);
  };
  const std::string prefix = "Fn CREATE_FAILED Properties validation failed for resource Fn with message: ";
  auto failed_with = [&](const std::vector<std::string>& events, const std::string& message) {
    for (const std::string& e : events) {
      if (e.rfind("Fn CREATE_FAILED", 0) == 0) return e == prefix + message;
    }
    return false;
  };
  CHECK(failed_with(stack("mode", R"("TracingConfig": {"Mode": "Sometimes"})"),
                    "#/TracingConfig/Mode: failed validation constraint for keyword [enum]"));
  CHECK(failed_with(stack("subnets", R"("VpcConfig": {"SubnetIds": "subnet-1", "Extra": 1})"),
                    "#/VpcConfig: extraneous key [Extra] is not permitted\n"
                    "#/VpcConfig/SubnetIds: expected type: JSONArray, found: String"));
  CHECK(cli.Status("subnets") == "ROLLBACK_COMPLETE");
  // Several properties' nested failures are reported together.
  CHECK(failed_with(stack("both", R"("TracingConfig": {"Mode": "Sometimes"}, "VpcConfig": {"SubnetIds": "subnet-1"})"),
                    "#/TracingConfig/Mode: failed validation constraint for keyword [enum]\n"
                    "#/VpcConfig/SubnetIds: expected type: JSONArray, found: String"));
  // The items of lists (Architectures, Layers: lists of strings) are checked too.
  CHECK(failed_with(stack("arch", R"("Architectures": ["arm32"])"),
                    "#/Architectures/0: failed validation constraint for keyword [enum]"));
  CHECK(failed_with(stack("layer", R"("Layers": ["arn:aws:lambda:us-east-1:123456789012:layer:deps"])"),
                    "#/Layers/0: failed validation constraint for keyword [pattern]"));
  CHECK(cli.Json("world list --kind lambda.function")["Records"].empty());
  // Settings the schema allows are taken.
  stack("ok", R"("TracingConfig": {"Mode": "Active"}, "VpcConfig": {"SubnetIds": [], "SecurityGroupIds": []},
                 "Architectures": ["arm64"], "Environment": {"Variables": {"STAGE": "test"}})");
  CHECK(cli.Status("ok") == "CREATE_COMPLETE");
  CHECK(cli.Json("world list --kind lambda.function")["Records"].size() == 1);
}
