// CDK's Provider framework (aws-cdk-lib/custom-resources `Provider`) against
// `moonstack serve`: the committed cloud assembly of
// examples/cdk/provider-framework (v1, v2, v3; scripts/cdk_synth.sh). The
// custom resource's ServiceToken is the framework's Node.js function, whose
// code is a CDK file asset published here to the simulated S3 (as
// `cdk deploy` publishes it), and which calls the user's inline-Python
// onEvent function through the Lambda API with the AWS SDK v3 on NODE_PATH
// (scripts/install_node_sdk.sh), then PUTs the response to the ResponseURL.
// Create, an update with a new PhysicalResourceId (the old one deleted in
// cleanup), an update onEvent fails (rolled back), delete: the exact events.
//
// Needs node and the SDK: $MOONSTACK_NODE_SDK, else
// scripts/install_node_sdk.sh (the npm registry, once); skipped with the
// reason without them.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <regex>

#include "../lambda/lambda_test_support.h"
#include "cdk/install_script.h"
#include "cli/cli_fixture.h"
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

const std::string kAssembly = std::string(MOONSTACK_SOURCE_DIR) + "/tests/cdk/fixtures/assembly/provider-framework/";
const std::string kBootstrap = std::string(MOONSTACK_SOURCE_DIR) + "/tests/cdk/fixtures/bootstrap/bootstrap.yaml";

// The node_modules directory holding the AWS SDK v3, or "" with `why` set.
std::string FindNodeSdk(std::string* why) {
  if (const char* given = std::getenv("MOONSTACK_NODE_SDK"); given != nullptr && *given != '\0') return given;
  return ms::test::RunInstallScript("install_node_sdk.sh", "AWS SDK for node", why, 60);
}

const std::string kScript = R"(
import io, os, time, zipfile
A = ')" + kAssembly + R"('
s3 = boto3.client('s3', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
logs = boto3.client('logs', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')

def settle(name):
    for _ in range(1200):
        try:
            stack = cf.describe_stacks(StackName=name)['Stacks'][0]
        except botocore.exceptions.ClientError:
            return 'GONE', {}
        if not stack['StackStatus'].endswith('IN_PROGRESS'):
            return stack['StackStatus'], {o['OutputKey']: o['OutputValue'] for o in stack.get('Outputs', [])}
        time.sleep(0.05)
    return 'TIMEOUT', {}

# The events since the last call, oldest first (counted, not by EventId:
# moonstack's repeat within a stack in virtual time).
seen = [0]
def events(stack_id):
    pages = cf.get_paginator('describe_stack_events').paginate(StackName=stack_id)
    every = list(reversed([e for page in pages for e in page['StackEvents']]))
    new, seen[0] = every[seen[0]:], len(every)
    return [line(e['LogicalResourceId'], e['ResourceStatus'], e.get('PhysicalResourceId', ''),
                 e.get('ResourceStatusReason', '')) for e in new if e['LogicalResourceId'] in ('Greeting', 'ProviderFramework')]

def line(logical, status, physical, reason):  # as EventLine in the test
    out = logical + ' ' + status + (' ' + physical if logical == 'Greeting' and physical else '')
    return out + (' | ' + reason.split('\n')[0] if reason else '')

def reasons(stack_id, status):
    return [e.get('ResourceStatusReason', '') for e in cf.describe_stack_events(StackName=stack_id)['StackEvents']
            if e['LogicalResourceId'] == 'Greeting' and e['ResourceStatus'] == status]

cf.create_stack(StackName='CDKToolkit', TemplateBody=open(')" + kBootstrap + R"(').read(),
                Capabilities=['CAPABILITY_NAMED_IAM'])
result = {'bootstrap': settle('CDKToolkit')[0]}

# The framework's code, published as cdk-assets publishes a directory asset.
assets = json.load(open(A + 'v1/ProviderFramework.assets.json'))['files']
for asset in assets.values():
    if asset['source']['packaging'] != 'zip':
        continue
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
        src = A + 'v1/' + asset['source']['path']
        for f in sorted(os.listdir(src)):
            z.write(os.path.join(src, f), f)
    dest = list(asset['destinations'].values())[0]
    s3.put_object(Bucket=dest['bucketName'].replace('${AWS::AccountId}', '123456789012').replace('${AWS::Region}', 'us-east-1'),
                  Key=dest['objectKey'], Body=buf.getvalue())

def template(v):
    return open(A + v + '/ProviderFramework.template.json').read()

stack_id = cf.create_stack(StackName='ProviderFramework', TemplateBody=template('v1'),
                           Capabilities=['CAPABILITY_IAM'])['StackId']
for step, v in (('create', None), ('update', 'v2'), ('failed_update', 'v3')):
    if v:
        cf.update_stack(StackName=stack_id, TemplateBody=template(v), Capabilities=['CAPABILITY_IAM'])
    status, outputs = settle(stack_id)
    result[step] = {'status': status, 'outputs': outputs, 'events': events(stack_id)}
result['failed_reason'] = reasons(stack_id, 'UPDATE_FAILED')
cf.delete_stack(StackName=stack_id)
result['delete'] = {'status': settle(stack_id)[0], 'events': events(stack_id)}
result['on_event_log'] = [e['message'] for e in logs.filter_log_events(
    logGroupName='/aws/lambda/cdk-example-greeting-on-event')['events']
    if not e['message'].startswith(('START', 'END', 'REPORT'))]
print(json.dumps(result))
)";

// Whether node, python3 and the SDK are there (the SDK then on
// MOONSTACK_NODE_SDK, for the moonstack processes the test starts); else
// prints why the test is skipped.
bool ReadyToRun(const std::string& test) {
  std::string why;
  if (!ms::test::HaveInterpreter("node") || !ms::test::HaveInterpreter("python3")) {
    why = "node or python3 is not on PATH";
  } else if (const std::string sdk = FindNodeSdk(&why); !sdk.empty()) {
    setenv("MOONSTACK_NODE_SDK", sdk.c_str(), 1);
    return true;
  }
  std::cout << "SKIPPED " << test << ": " << why << std::endl;
  WARN("skipped: " << why);
  return false;
}

// "<Logical> <STATUS>[ <physical ID, Greeting's>][ | <reason's first line>]".
std::string EventLine(const nlohmann::json& e) {
  const std::string logical = e["LogicalResourceId"], physical = e.value("PhysicalResourceId", "");
  const std::string reason = e.value("ResourceStatusReason", "");
  std::string out = logical + " " + e["ResourceStatus"].get<std::string>();
  if (logical == "Greeting" && !physical.empty()) out += " " + physical;
  return reason.empty() ? out : out + " | " + reason.substr(0, reason.find('\n'));
}

// What each step leaves, the same in embedded mode and under serve.
const std::vector<std::vector<std::string>> kExpectedEvents = {
    {"ProviderFramework CREATE_IN_PROGRESS | User Initiated",
     "Greeting CREATE_IN_PROGRESS",
     "Greeting CREATE_IN_PROGRESS greeting-world | Resource creation Initiated",
     "Greeting CREATE_COMPLETE greeting-world",
     "ProviderFramework CREATE_COMPLETE"},
    // v2: onEvent answers the Update with a new PhysicalResourceId; the old
    // resource gets a Delete in cleanup.
    {"ProviderFramework UPDATE_IN_PROGRESS | User Initiated",
     "Greeting UPDATE_IN_PROGRESS greeting-world",
     "Greeting UPDATE_COMPLETE greeting-moon",
     "ProviderFramework UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
     "Greeting DELETE_IN_PROGRESS greeting-world",
     "Greeting DELETE_COMPLETE greeting-world",
     "ProviderFramework UPDATE_COMPLETE"},
    // v3: onEvent raises; the framework answers FAILED with the error; the
    // rollback's Update brings greeting-moon back.
    {"ProviderFramework UPDATE_IN_PROGRESS | User Initiated",
     "Greeting UPDATE_IN_PROGRESS greeting-moon",
     "Greeting UPDATE_FAILED greeting-moon | Received response status [FAILED] from custom resource. Message returned: "
     "Error: no greeting for mars",
     "ProviderFramework UPDATE_ROLLBACK_IN_PROGRESS | The following resource(s) failed to update: [Greeting]. ",
     "Greeting UPDATE_IN_PROGRESS greeting-moon",
     "Greeting UPDATE_COMPLETE greeting-moon",
     "ProviderFramework UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
     "ProviderFramework UPDATE_ROLLBACK_COMPLETE"},
    {"ProviderFramework DELETE_IN_PROGRESS | User Initiated",
     "Greeting DELETE_IN_PROGRESS greeting-moon",
     "Greeting DELETE_COMPLETE greeting-moon",
     "ProviderFramework DELETE_COMPLETE"},
};

// What the onEvent function printed: each request as it got it.
const std::vector<std::string> kOnEventRequests = {
    "Create None world", "Update greeting-world moon", "Delete greeting-world world",
    "Update greeting-moon mars", "Update greeting-moon moon", "Delete greeting-moon moon"};

// The framework's FAILED reason: the function's error, where its log is,
// then the framework's stack trace, and CloudFormation's RequestId.
void CheckFailedReason(const std::string& reason) {
  INFO(reason);
  CHECK(reason.rfind("Received response status [FAILED] from custom resource. Message returned: Error: no greeting "
                     "for mars\n\nLogs: /aws/lambda/cdk-example-greeting-on-event\n\n    at ", 0) == 0);
  CHECK(std::regex_search(reason, std::regex(R"( \(RequestId: [0-9a-f-]{36}\)$)")));
}

// A `moonstack world load` script putting the framework's asset (the
// directory zipped, as cdk-assets publishes it) into the simulated S3.
std::string PublishAssetScript(const std::string& dir) {
  std::ofstream(dir + "/publish.py") <<
             "import base64, io, json, os, zipfile\n"
             "A = '" + kAssembly + "v1/'\n"
             "for asset in json.load(open(A + 'ProviderFramework.assets.json'))['files'].values():\n"
             "    if asset['source']['packaging'] != 'zip': continue\n"
             "    buf = io.BytesIO()\n"
             "    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:\n"
             "        for f in sorted(os.listdir(A + asset['source']['path'])):\n"
             "            z.write(os.path.join(A + asset['source']['path'], f), f)\n"
             "    key = list(asset['destinations'].values())[0]['objectKey']\n"
             "    print('sim.call(\"s3\", \"PutObject\", {Bucket = \"cdk-hnb659fds-assets-123456789012-us-east-1\", '\n"
             "          'Key = \"%s\", Body = require(\"sim.s3_body\").decode_base64(\"%s\")})'\n"
             "          % (key, base64.b64encode(buf.getvalue()).decode()))\n";
  Run r = Sh("python3 " + dir + "/publish.py");
  REQUIRE(r.exit_code == 0);
  std::ofstream(dir + "/publish.lua") << r.out;
  return dir + "/publish.lua";
}

}  // namespace

TEST_CASE("cdk Provider framework: onEvent in Python through create, replacement, failed update and delete",
          "[cdk][server][lambda]") {
  if (!ReadyToRun("cdk Provider framework")) return;
  Server s("cdk_provider", "0");
  const json r = s.Python(kScript);
  INFO(r.dump(1));
  CHECK(r["bootstrap"] == "CREATE_COMPLETE");
  CHECK(r["create"]["status"] == "CREATE_COMPLETE");
  CHECK(r["create"]["outputs"] == json({{"GreetingId", "greeting-world"}, {"Message", "Hello, world!"}}));
  CHECK(r["update"]["status"] == "UPDATE_COMPLETE");
  CHECK(r["update"]["outputs"] == json({{"GreetingId", "greeting-moon"}, {"Message", "Hello, moon!"}}));
  CHECK(r["failed_update"]["status"] == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(r["failed_update"]["outputs"] == json({{"GreetingId", "greeting-moon"}, {"Message", "Hello, moon!"}}));
  CHECK(r["delete"]["status"] == "DELETE_COMPLETE");  // described by its ID
  const std::vector<std::vector<std::string>> steps = {r["create"]["events"], r["update"]["events"],
                                                       r["failed_update"]["events"], r["delete"]["events"]};
  CHECK(steps == kExpectedEvents);
  REQUIRE(r["failed_reason"].size() == 1);
  CheckFailedReason(r["failed_reason"][0]);
  std::vector<std::string> requests;
  for (const json& line : r["on_event_log"]) {
    const std::string m = line;
    if (m.rfind("Create ", 0) == 0 || m.rfind("Update ", 0) == 0 || m.rfind("Delete ", 0) == 0) requests.push_back(m);
  }
  CHECK(requests == kOnEventRequests);
}

TEST_CASE("cdk Provider framework in embedded mode: the framework's SDK calls reach the command's world",
          "[cdk][cli][lambda]") {
  if (!ReadyToRun("cdk Provider framework (embedded)")) return;
  ms::test::CliFixture cli("cdk_provider", "embedded");
  cli.Json("create-stack --stack-name CDKToolkit --capabilities CAPABILITY_NAMED_IAM --template-body file://" +
           kBootstrap);
  REQUIRE(cli.Status("CDKToolkit") == "CREATE_COMPLETE");
  cli.Json("world load " + PublishAssetScript(cli.dir));
  auto deploy = [&](const std::string& verb, const std::string& v) {
    return cli(verb + " --stack-name ProviderFramework --capabilities CAPABILITY_IAM --template-body file://" +
               kAssembly + v + "/ProviderFramework.template.json", /*with_stderr=*/false);
  };
  const std::string stack_id = nlohmann::json::parse(deploy("create-stack", "v1").out)["StackId"];
  std::vector<std::vector<std::string>> steps;
  size_t from = 0;
  std::string failed_reason;
  auto events = [&] {  // the step's, oldest first
    const nlohmann::json all = cli.Json("describe-stack-events --stack-name " + stack_id)["StackEvents"];
    std::vector<std::string> mine;
    for (size_t i = all.size() - from; i-- > 0;) {
      const nlohmann::json& e = all[i];
      if (e["LogicalResourceId"] != "Greeting" && e["LogicalResourceId"] != "ProviderFramework") continue;
      mine.push_back(EventLine(e));
      if (e["ResourceStatus"] == "UPDATE_FAILED") failed_reason = e["ResourceStatusReason"];
    }
    from = all.size();
    return mine;
  };
  CHECK(cli.Status("ProviderFramework") == "CREATE_COMPLETE");
  const nlohmann::json outputs = cli.Json("describe-stacks --stack-name ProviderFramework")["Stacks"][0]["Outputs"];
  CHECK(outputs.dump() == R"([{"OutputKey":"GreetingId","OutputValue":"greeting-world"},)"
                          R"({"OutputKey":"Message","OutputValue":"Hello, world!"}])");
  steps.push_back(events());
  deploy("update-stack", "v2");
  CHECK(cli.Status("ProviderFramework") == "UPDATE_COMPLETE");
  steps.push_back(events());
  deploy("update-stack", "v3");
  CHECK(cli.Status("ProviderFramework") == "UPDATE_ROLLBACK_COMPLETE");
  steps.push_back(events());
  cli("delete-stack --stack-name ProviderFramework");
  CHECK(cli.Status(stack_id) == "DELETE_COMPLETE");
  steps.push_back(events());
  CHECK(steps == kExpectedEvents);
  CheckFailedReason(failed_reason);
  std::vector<std::string> requests;
  const nlohmann::json log = cli.Json(R"(world call logs FilterLogEvents '{"logGroupName": "/aws/lambda/cdk-example-greeting-on-event"}')");
  for (const auto& e : log["events"]) {
    const std::string m = e["message"];
    if (m.rfind("Create ", 0) == 0 || m.rfind("Update ", 0) == 0 || m.rfind("Delete ", 0) == 0) requests.push_back(m);
  }
  CHECK(requests == kOnEventRequests);
}

}  // namespace ms::test::server
