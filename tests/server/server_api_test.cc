// `moonstack serve`, the rest of the API: update-stack, the resource and
// export queries, GetTemplateSummary, NextToken pages, /moonstack/reset and
// cfn-signal's PUT to a wait-condition handle URL — driven by the real aws
// CLI and boto3.
#include <catch2/catch.hpp>

#include <fstream>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

namespace {

// kTemplate plus a second group and the VPC exported as "net-vpc".
const std::string kUpdatedTemplate = TwoGroupsTemplate(/*exported=*/true);

const char* kImportingTemplate = R"({
  "Resources": {
    "Group": {"Type": "AWS::EC2::SecurityGroup",
              "Properties": {"GroupDescription": "app", "VpcId": {"Fn::ImportValue": "net-vpc"}}}
  }
})";

}  // namespace

TEST_CASE("the aws CLI updates a stack and reads its resources, exports and imports", "[server]") {
  Server server("update");
  const std::string dir = server.dir();
  std::ofstream(dir + "/t2.json") << kUpdatedTemplate;
  std::ofstream(dir + "/app.json") << kImportingTemplate;

  const std::string id = server.AwsJson("create-stack --stack-name net --template-body file://" + dir + "/t.json")["StackId"];
  REQUIRE(server.Aws("wait stack-create-complete --stack-name net").exit_code == 0);

  Run same = server.Aws("update-stack --stack-name net --template-body file://" + dir + "/t.json");
  CHECK(same.exit_code == 255);
  CHECK(same.out.find("An error occurred (ValidationError) when calling the UpdateStack operation: "
                      "No updates are to be performed.") != std::string::npos);

  json updated = server.AwsJson("update-stack --stack-name net --template-body file://" + dir + "/t2.json");
  CHECK(updated["StackId"] == id);
  Run wait = server.Aws("wait stack-update-complete --stack-name net");
  INFO(wait.out);
  REQUIRE(wait.exit_code == 0);
  json stack = server.AwsJson("describe-stacks --stack-name net")["Stacks"][0];
  CHECK(stack["StackStatus"] == "UPDATE_COMPLETE");
  CHECK(stack.contains("LastUpdatedTime"));
  const std::string vpc = stack["Outputs"][0]["OutputValue"];

  json detail = server.AwsJson("describe-stack-resource --stack-name net --logical-resource-id Group2");
  const json& d = detail["StackResourceDetail"];
  CHECK(d["StackId"] == id);
  CHECK(d["StackName"] == "net");
  CHECK(d["LogicalResourceId"] == "Group2");
  CHECK(d["ResourceType"] == "AWS::EC2::SecurityGroup");
  CHECK(d["ResourceStatus"] == "CREATE_COMPLETE");
  CHECK(d["DriftInformation"]["StackResourceDriftStatus"] == "NOT_CHECKED");
  CHECK(d.contains("LastUpdatedTimestamp"));
  Run missing = server.Aws("describe-stack-resource --stack-name net --logical-resource-id Nope");
  CHECK(missing.exit_code == 255);
  CHECK(missing.out.find("(ValidationError) when calling the DescribeStackResource operation: "
                         "Resource Nope does not exist for stack net") != std::string::npos);

  json summaries = server.AwsJson("list-stack-resources --stack-name net")["StackResourceSummaries"];
  REQUIRE(summaries.size() == 3);
  for (const json& r : summaries) {
    CHECK(r["ResourceStatus"].get<std::string>().find("_COMPLETE") != std::string::npos);
    if (r["LogicalResourceId"] == "Vpc") CHECK(r["PhysicalResourceId"] == vpc);
  }

  json exports = server.AwsJson("list-exports")["Exports"];
  CHECK(exports == json::array({{{"ExportingStackId", id}, {"Name", "net-vpc"}, {"Value", vpc}}}));

  Run none = server.Aws("list-imports --export-name net-vpc");
  CHECK(none.exit_code == 255);
  CHECK(none.out.find("(ValidationError) when calling the ListImports operation: "
                      "Export 'net-vpc' is not imported by any stack.") != std::string::npos);
  server.AwsJson("create-stack --stack-name app --template-body file://" + dir + "/app.json");
  REQUIRE(server.Aws("wait stack-create-complete --stack-name app").exit_code == 0);
  CHECK(server.AwsJson("list-imports --export-name net-vpc")["Imports"] == json::array({"app"}));

  json summary = server.AwsJson("get-template-summary --template-body file://" + dir + "/t2.json");
  CHECK(summary["Description"] == "a network");
  REQUIRE(summary["Parameters"].size() == 1);
  CHECK(summary["Parameters"][0]["ParameterKey"] == "Cidr");
  CHECK(summary["Parameters"][0]["ParameterType"] == "String");
  CHECK(summary["Parameters"][0]["DefaultValue"] == "10.0.0.0/16");
  CHECK(summary["ResourceTypes"] == json::array({"AWS::EC2::VPC", "AWS::EC2::SecurityGroup"}));
  CHECK(summary["Version"] == "2010-09-09");
  CHECK(!summary.contains("Capabilities"));
  CHECK(server.AwsJson("get-template-summary --stack-name app")["ResourceTypes"] ==
        json::array({"AWS::EC2::SecurityGroup"}));

  json app = server.AwsJson("update-termination-protection --enable-termination-protection --stack-name app");
  CHECK(app["StackId"].get<std::string>().find(":stack/app/") != std::string::npos);
  CHECK(server.AwsJson("describe-stacks --stack-name app")["Stacks"][0]["EnableTerminationProtection"] == true);
  Run protected_delete = server.Aws("delete-stack --stack-name app");
  CHECK(protected_delete.exit_code == 255);
  CHECK(protected_delete.out.find("Stack [app] cannot be deleted while TerminationProtection is enabled") !=
        std::string::npos);
  server.AwsJson("update-termination-protection --no-enable-termination-protection --stack-name app");
  CHECK(server.AwsJson("describe-stacks --stack-name app")["Stacks"][0]["EnableTerminationProtection"] == false);
}

TEST_CASE("boto3 pages stack events and stack lists by NextToken, and /moonstack/reset forgets everything",
          "[server]") {
  Server server("pages");
  json r = server.Python("STATE = '" + server.dir() + "/state.db'\n" + R"(
handles = {'H%d' % i: {'Type': 'AWS::CloudFormation::WaitConditionHandle'} for i in range(40)}
big = json.dumps({'Resources': handles})
small = json.dumps({'Resources': {'H': {'Type': 'AWS::CloudFormation::WaitConditionHandle'}}})
out = {}
cf.create_stack(StackName='big', TemplateBody=big)
for i in range(104):
    cf.create_stack(StackName='s%d' % i, TemplateBody=small)
waiter = cf.get_waiter('stack_create_complete')
waiter.wait(StackName='big', WaiterConfig={'Delay': 1})
waiter.wait(StackName='s103', WaiterConfig={'Delay': 1})
first = cf.describe_stack_events(StackName='big')
out['first_page'] = len(first['StackEvents'])
out['has_token'] = 'NextToken' in first
events = []
for page in cf.get_paginator('describe_stack_events').paginate(StackName='big'):
    events += [e['EventId'] for e in page['StackEvents']]
out['events'] = len(events)
out['distinct_events'] = len(set(events))
out['bad_token'] = error(cf.describe_stack_events, StackName='big', NextToken='nope')
stacks = []
pages = 0
for page in cf.get_paginator('list_stacks').paginate():
    pages += 1
    stacks += [s['StackName'] for s in page['StackSummaries']]
out['stacks'] = len(stacks)
out['distinct_stacks'] = len(set(stacks))
out['stack_pages'] = pages
out['newest'] = stacks[0]
handle = cf.describe_stack_resource(StackName='s0', LogicalResourceId='H')['StackResourceDetail']['PhysicalResourceId']

change_set = cf.create_change_set(StackName='s0', ChangeSetName='later', TemplateBody=big)['Id']
cf.get_waiter('change_set_create_complete').wait(ChangeSetName=change_set, WaiterConfig={'Delay': 1})

import urllib.request
reset = urllib.request.urlopen(urllib.request.Request(cf.meta.endpoint_url + '/moonstack/reset', method='POST'))
out['reset'] = [reset.status, json.loads(reset.read())]
out['after'] = cf.list_stacks()['StackSummaries']
out['gone'] = error(cf.describe_stacks, StackName='s0')
out['change_set_gone'] = error(cf.describe_change_set, ChangeSetName=change_set)
import sqlite3
db = sqlite3.connect(STATE)
out['rows_left'] = {t: db.execute('SELECT COUNT(*) FROM ' + t).fetchone()[0]
                    for t in ('stacks', 'stack_templates', 'resources', 'events', 'exports', 'change_sets')}
path = handle[handle.index('.com/') + 4:]
try:
    urllib.request.urlopen(urllib.request.Request(cf.meta.endpoint_url + path, data=b'{"Status":"SUCCESS","UniqueId":"1","Data":"x","Reason":"r"}', method='PUT'))
    out['signal'] = 200
except urllib.error.HTTPError as e:
    out['signal'] = [e.code, e.read().decode()]
print(json.dumps(out))
)");
  CHECK(r["first_page"] == 100);
  CHECK(r["has_token"] == true);
  CHECK(r["events"] == 122);  // the stack 2, each of the 40 handles 3
  CHECK(r["distinct_events"] == 122);
  CHECK(r["bad_token"]["Code"] == "ValidationError");
  CHECK(r["stacks"] == 105);
  CHECK(r["distinct_stacks"] == 105);
  CHECK(r["stack_pages"] == 2);
  CHECK(r["newest"] == "s103");
  CHECK(r["reset"] == json::array({200, {{"status", "reset"}}}));
  CHECK(r["after"] == json::array());
  CHECK(r["gone"]["Message"] == "Stack with id s0 does not exist");
  CHECK(r["change_set_gone"]["Code"] == "ChangeSetNotFound");
  CHECK(r["rows_left"] == json{{"stacks", 0}, {"stack_templates", 0}, {"resources", 0}, {"events", 0},
                               {"exports", 0}, {"change_sets", 0}});
  // The world was cleared with the stacks: the handle is gone, as S3 answers.
  REQUIRE(r["signal"].is_array());
  CHECK(r["signal"][0] == 403);
  CHECK(r["signal"][1].get<std::string>().find("<Code>AccessDenied</Code>") != std::string::npos);
}

TEST_CASE("a signal PUT to a wait-condition handle URL on the server completes the wait condition", "[server]") {
  // 50 real ms per simulated second: the 600 s timeout is 30 real seconds.
  Server server("signal", "0.05");
  json r = server.Python(R"(
import time, urllib.request
body = json.dumps({
  'Resources': {
    'Handle': {'Type': 'AWS::CloudFormation::WaitConditionHandle'},
    'Wait': {'Type': 'AWS::CloudFormation::WaitCondition',
             'Properties': {'Handle': {'Ref': 'Handle'}, 'Timeout': '600', 'Count': '1'}}},
  'Outputs': {'Data': {'Value': {'Fn::GetAtt': ['Wait', 'Data']}},
              'Url': {'Value': {'Ref': 'Handle'}}}})
cf.create_stack(StackName='waiting', TemplateBody=body)
url = None
for _ in range(200):
    # The resource is listed once its create starts (the operation runs on the server's thread).
    found = [r for r in cf.list_stack_resources(StackName='waiting')['StackResourceSummaries']
             if r['LogicalResourceId'] == 'Handle']
    res = found[0] if found else {'ResourceStatus': 'NONE'}
    if res['ResourceStatus'] == 'CREATE_COMPLETE':
        url = res['PhysicalResourceId']
        break
    time.sleep(0.05)
out = {'url': url}
out['waiting'] = cf.describe_stacks(StackName='waiting')['Stacks'][0]['StackStatus']
# cfn-signal's request, sent to the server: the handle URL with its host swapped.
local = url.replace('https://cloudformation-waitcondition-us-east-1.s3.amazonaws.com', cf.meta.endpoint_url)
signal = json.dumps({'Status': 'SUCCESS', 'Reason': 'configured', 'UniqueId': 'web1', 'Data': 'hello'}).encode()
res = urllib.request.urlopen(urllib.request.Request(local, data=signal, method='PUT', headers={'Content-Type': ''}))
out['put'] = res.status
cf.get_waiter('stack_create_complete').wait(StackName='waiting', WaiterConfig={'Delay': 1})
stack = cf.describe_stacks(StackName='waiting')['Stacks'][0]
out['status'] = stack['StackStatus']
out['outputs'] = {o['OutputKey']: o['OutputValue'] for o in stack['Outputs']}
print(json.dumps(out))
)");
  const std::string url = r["url"];
  CHECK(url.rfind("https://cloudformation-waitcondition-us-east-1.s3.amazonaws.com/arn%3Aaws%3Acloudformation%3A"
                  "us-east-1%3A123456789012%3Astack/waiting/", 0) == 0);
  CHECK(r["waiting"] == "CREATE_IN_PROGRESS");
  CHECK(r["put"] == 200);
  CHECK(r["status"] == "CREATE_COMPLETE");
  CHECK(json::parse(r["outputs"]["Data"].get<std::string>()) == json{{"web1", "hello"}});
  CHECK(r["outputs"]["Url"] == url);
}

TEST_CASE("POST /moto-api/reset resets as moto's server mode answers it", "[server]") {
  Server server("moto_reset");
  server.AwsJson("create-stack --stack-name gone --template-body file://" + server.dir() + "/t.json");
  json r = server.Python(R"(
import requests
base = cf.meta.endpoint_url
out = {}
reset = requests.post(base + '/moto-api/reset')   # what moto's docs have test harnesses do
out['post'] = [reset.status_code, reset.json()]
wrong = requests.get(base + '/moto-api/reset')
out['get'] = [wrong.status_code, wrong.json()]
out['stacks'] = cf.describe_stacks()['Stacks']
print(json.dumps(out))
)");
  CHECK(r["post"] == json::array({200, {{"status", "ok"}}}));
  CHECK(r["get"] == json::array({400, {{"Error", "Need to POST to reset Moto"}}}));
  CHECK(r["stacks"] == json::array());
}

TEST_CASE("serve in virtual time: the events of a create and an update each have their own EventId", "[server]") {
  // At --time-scale 0 both operations start at the same virtual millisecond;
  // cdk deploy's event poller dedupes by EventId, so a repeated ID hides an
  // event from it.
  Server server("event_ids", "0");
  json r = server.Python(R"(
def template(value):
    return json.dumps({'Resources': {'P%d' % i: {'Type': 'AWS::SSM::Parameter',
                                                 'Properties': {'Type': 'String', 'Value': value}} for i in range(5)}})
cf.create_stack(StackName='e', TemplateBody=template('1'))
cf.get_waiter('stack_create_complete').wait(StackName='e', WaiterConfig={'Delay': 1})
cf.update_stack(StackName='e', TemplateBody=template('2'))
cf.get_waiter('stack_update_complete').wait(StackName='e', WaiterConfig={'Delay': 1})
ids = [e['EventId'] for e in cf.describe_stack_events(StackName='e')['StackEvents']]
print(json.dumps({'events': len(ids), 'distinct': len(set(ids))}))
)");
  CHECK(r["events"] == 30);
  CHECK(r["distinct"] == 30);
}
