// What the tests of CDK's Provider framework share (cdk_provider_test.cc:
// onEvent only; cdk_provider_waiter_test.cc: with isComplete, through the
// framework's Step Functions waiter): the node SDK they need, the
// framework's asset published to the simulated S3 (for boto3 under serve,
// and as a `moonstack world load` script in embedded mode), one event as a
// line, and the boto3 script that deploys an app's v1, v2, v3 and deletes
// it, recording each step's events.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "../lambda/lambda_test_support.h"
#include "cdk/install_script.h"
#include "cli/cli_fixture.h"
#include "server/server_fixture.h"
#include "test_util.h"

namespace ms::test::cdk {

inline const std::string kAssemblies = std::string(MOONSTACK_SOURCE_DIR) + "/tests/cdk/fixtures/assembly/";
inline const std::string kBootstrap = std::string(MOONSTACK_SOURCE_DIR) + "/tests/cdk/fixtures/bootstrap/bootstrap.yaml";

// The node_modules directory holding the AWS SDK v3, or "" with `why` set.
inline std::string FindNodeSdk(std::string* why) {
  if (const char* given = std::getenv("MOONSTACK_NODE_SDK"); given != nullptr && *given != '\0') return given;
  return ms::test::RunInstallScript("install_node_sdk.sh", "AWS SDK for node", why, 60);
}

// Whether node, python3 and the SDK are there (the SDK then on
// MOONSTACK_NODE_SDK, for the moonstack processes the test starts); else
// prints why the test is skipped.
inline bool ReadyToRun(const std::string& test) {
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

// "<Logical> <STATUS>[ <physical ID, the custom resource's>][ | <reason's first line>]".
inline std::string EventLine(const nlohmann::json& e, const std::string& custom = "Greeting") {
  const std::string logical = e["LogicalResourceId"], physical = e.value("PhysicalResourceId", "");
  const std::string reason = e.value("ResourceStatusReason", "");
  std::string out = logical + " " + e["ResourceStatus"].get<std::string>();
  if (logical == custom && !physical.empty()) out += " " + physical;
  return reason.empty() ? out : out + " | " + reason.substr(0, reason.find('\n'));
}

// Python that zips the app's file assets (as cdk-assets publishes a
// directory) and hands each to `put(key, bytes)`.
inline std::string ZipAssetsPython(const std::string& app, const std::string& stack) {
  return "import io, json, os, zipfile\n"
         "def publish_assets(put):\n"
         "    A = '" + kAssemblies + app + "/v1/'\n"
         "    for asset in json.load(open(A + '" + stack + ".assets.json'))['files'].values():\n"
         "        if asset['source']['packaging'] != 'zip': continue\n"
         "        buf = io.BytesIO()\n"
         "        with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:\n"
         "            for f in sorted(os.listdir(A + asset['source']['path'])):\n"
         "                z.write(os.path.join(A + asset['source']['path'], f), f)\n"
         "        put(list(asset['destinations'].values())[0]['objectKey'], buf.getvalue())\n";
}

// A `moonstack world load` script putting the app's assets into the
// simulated S3 (the bootstrap bucket); its path, in `dir`.
inline std::string PublishAssetScript(const std::string& dir, const std::string& app, const std::string& stack) {
  std::ofstream(dir + "/publish.py") <<
      ZipAssetsPython(app, stack) +
      "import base64\n"
      "publish_assets(lambda key, body: print('sim.call(\"s3\", \"PutObject\", {Bucket = "
      "\"cdk-hnb659fds-assets-123456789012-us-east-1\", '\n"
      "    'Key = \"%s\", Body = require(\"sim.s3_body\").decode_base64(\"%s\")})' % (key, base64.b64encode(body).decode())))\n";
  ms::test::server::Run r = ms::test::server::Sh("python3 " + dir + "/publish.py");
  REQUIRE(r.exit_code == 0);
  std::ofstream(dir + "/publish.lua") << r.out;
  return dir + "/publish.lua";
}

// A world call made after each step (`moonstack world call <service>
// <action> <params>`, or POST /moonstack/world/call under serve): what the
// step left in the simulated cloud, as step["probe"] (the result, or
// {"Code"} of its error).
struct Probe {
  std::string service, action, params;  // params: JSON text
};

// The steps: "create" (v1), "update" (v2), "failed_update" (v3), the first
// `versions` of them.
inline const char* const kSteps[] = {"create", "update", "failed_update"};

// The boto3 script (server_fixture.h's Python) that bootstraps, publishes
// the app's assets, creates its stack from v1, updates it to v2 (then v3)
// and deletes it; it prints {bootstrap, create, update, failed_update:
// {status, outputs, events, probe}, failed_reason: [UPDATE_FAILED reasons of
// `custom`], delete: {status, events, probe}, log: [the messages of `log_group`]}.
inline std::string DeployScript(const std::string& app, const std::string& stack, const std::string& custom,
                                const std::string& log_group, int versions = 3, const Probe& probe = {}) {
  return ZipAssetsPython(app, stack) + R"(
import time
A = ')" + kAssemblies + app + R"(/'
STACK, CUSTOM = ')" + stack + "', '" + custom + R"('
PROBE = ')" + probe.service + "', '" + probe.action + "', '" + probe.params + R"('
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
                 e.get('ResourceStatusReason', '')) for e in new if e['LogicalResourceId'] in (CUSTOM, STACK)]

def line(logical, status, physical, reason):  # as EventLine in the test
    out = logical + ' ' + status + (' ' + physical if logical == CUSTOM and physical else '')
    return out + (' | ' + reason.split('\n')[0] if reason else '')

def reasons(stack_id, status):
    return [e.get('ResourceStatusReason', '') for e in cf.describe_stack_events(StackName=stack_id)['StackEvents']
            if e['LogicalResourceId'] == CUSTOM and e['ResourceStatus'] == status]

cf.create_stack(StackName='CDKToolkit', TemplateBody=open(')" + kBootstrap + R"(').read(),
                Capabilities=['CAPABILITY_NAMED_IAM'])
result = {'bootstrap': settle('CDKToolkit')[0]}
publish_assets(lambda key, body: s3.put_object(Bucket='cdk-hnb659fds-assets-123456789012-us-east-1', Key=key, Body=body))

def probe():
    if not PROBE[0]:
        return None
    import urllib.request, urllib.error
    body = json.dumps({'Service': PROBE[0], 'Action': PROBE[1], 'Params': json.loads(PROBE[2])}).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(cf.meta.endpoint_url + '/moonstack/world/call', data=body,
                                                           method='POST',
                                                           headers={'Content-Type': 'application/json'})) as r:
            return json.load(r)['Result']
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        try:
            return {'Code': json.loads(text)['Code']}
        except ValueError:
            return {'Code': 'HTTP %d' % e.code, 'Body': text}

def template(v):
    return open(A + v + '/' + STACK + '.template.json').read()

stack_id = cf.create_stack(StackName=STACK, TemplateBody=template('v1'), Capabilities=['CAPABILITY_IAM'])['StackId']
for step, v in (('create', None), ('update', 'v2'), ('failed_update', 'v3'))[:)" + std::to_string(versions) + R"(]:
    if v:
        cf.update_stack(StackName=stack_id, TemplateBody=template(v), Capabilities=['CAPABILITY_IAM'])
    status, outputs = settle(stack_id)
    result[step] = {'status': status, 'outputs': outputs, 'events': events(stack_id), 'probe': probe()}
result['failed_reason'] = reasons(stack_id, 'UPDATE_FAILED')
cf.delete_stack(StackName=stack_id)
result['delete'] = {'status': settle(stack_id)[0], 'events': events(stack_id), 'probe': probe()}
LOG = ')" + log_group + R"('
result['log'] = [e['message'] for e in (logs.filter_log_events(logGroupName=LOG)['events'] if LOG else [])
                 if not e['message'].startswith(('START', 'END', 'REPORT'))]
print(json.dumps(result))
)";
}

// DeployScript's steps in embedded mode, with the CLI in `cli`'s directory
// (the functions' SDK calls reach the command's own endpoint): the same
// result shape, so a test checks both modes alike.
inline nlohmann::json DeployEmbedded(const ms::test::CliFixture& cli, const std::string& app, const std::string& stack,
                                     const std::string& custom, const std::string& log_group, int versions = 3,
                                     const Probe& probe = {}) {
  nlohmann::json result;
  cli.Json("create-stack --stack-name CDKToolkit --capabilities CAPABILITY_NAMED_IAM --template-body file://" +
           kBootstrap);
  result["bootstrap"] = cli.Status("CDKToolkit");
  cli.Json("world load " + PublishAssetScript(cli.dir, app, stack));
  auto deploy = [&](const std::string& verb, const std::string& v) {
    return cli(verb + " --stack-name " + stack + " --capabilities CAPABILITY_IAM --template-body file://" +
               kAssemblies + app + "/" + v + "/" + stack + ".template.json", /*with_stderr=*/false);
  };
  const std::string stack_id = nlohmann::json::parse(deploy("create-stack", "v1").out)["StackId"];
  result["stack_id"] = stack_id;
  size_t from = 0;
  result["failed_reason"] = nlohmann::json::array();
  auto step = [&](bool with_outputs) {  // the step's status, outputs and events, oldest first
    nlohmann::json out;
    const nlohmann::json described = cli.Json("describe-stacks --stack-name " + stack_id)["Stacks"][0];
    out["status"] = described["StackStatus"];
    if (with_outputs) {
      out["outputs"] = nlohmann::json::object();
      for (const auto& o : described.value("Outputs", nlohmann::json::array())) out["outputs"][o["OutputKey"].get<std::string>()] = o["OutputValue"];
    }
    const nlohmann::json all = cli.Json("describe-stack-events --stack-name " + stack_id)["StackEvents"];
    out["events"] = nlohmann::json::array();
    for (size_t i = all.size() - from; i-- > 0;) {
      const nlohmann::json& e = all[i];
      if (e["LogicalResourceId"] != custom && e["LogicalResourceId"] != stack) continue;
      out["events"].push_back(EventLine(e, custom));
      if (e["ResourceStatus"] == "UPDATE_FAILED") result["failed_reason"].push_back(e["ResourceStatusReason"]);
    }
    from = all.size();
    out["probe"] = nullptr;
    if (!probe.service.empty()) {
      const CommandResult r = cli("world call " + probe.service + " " + probe.action + " '" + probe.params + "'");
      if (r.exit_code == 0) {
        out["probe"] = nlohmann::json::parse(r.out);
      } else {  // "An error occurred (<Code>) when calling ..."
        const size_t open = r.out.find("An error occurred (") + 19;
        out["probe"] = {{"Code", r.out.substr(open, r.out.find(')', open) - open)}};
      }
    }
    return out;
  };
  for (int v = 1; v <= versions; ++v) {
    if (v > 1) deploy("update-stack", "v" + std::to_string(v));
    result[kSteps[v - 1]] = step(true);
  }
  cli("delete-stack --stack-name " + stack);
  result["delete"] = step(false);
  result["log"] = nlohmann::json::array();
  if (log_group.empty()) return result;
  const nlohmann::json log = cli.Json("world call logs FilterLogEvents '{\"logGroupName\": \"" + log_group + "\"}'");
  for (const auto& e : log["events"]) {
    const std::string m = e["message"];
    if (m.rfind("START", 0) != 0 && m.rfind("END", 0) != 0 && m.rfind("REPORT", 0) != 0) result["log"].push_back(m);
  }
  return result;
}

}  // namespace ms::test::cdk
