// StackSets through `moonstack serve` with boto3: a set's instances are real
// stacks in their regions and accounts (engine/stackset/), its operations
// asynchronous with a result per account and region.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

// Helpers for the scripts: clients per region, an operation waited for.
const std::string kHelpers = R"(
import time, re
def client(region):
    return boto3.client('cloudformation', endpoint_url=cf.meta.endpoint_url, region_name=region)
def wait_op(name, op_id):
    for _ in range(600):
        op = cf.describe_stack_set_operation(StackSetName=name, OperationId=op_id)['StackSetOperation']
        if op['Status'] not in ('QUEUED', 'RUNNING', 'STOPPING'):
            return op
        time.sleep(0.05)
    raise Exception('operation did not end')
def results(name, op_id):
    return {r['Region']: [r['Account'], r['Status'], r.get('StatusReason', '')]
            for r in cf.list_stack_set_operation_results(StackSetName=name, OperationId=op_id)['Summaries']}
def instances(name):
    return {i['Region']: [i['Status'], i['StackInstanceStatus']['DetailedStatus'], i.get('StatusReason', ''),
                          i['DriftStatus']]
            for i in cf.list_stack_instances(StackSetName=name)['Summaries']}
)";

// A queue per instance; in us-west-2 (a region condition) its name is one
// SQS refuses, so that instance's stack fails.
const std::string kFailsInWest = R"({
  "Parameters": {"Name": {"Type": "String", "Default": "jobs"}},
  "Conditions": {"InWest": {"Fn::Equals": [{"Ref": "AWS::Region"}, "us-west-2"]}},
  "Resources": {"Queue": {"Type": "AWS::SQS::Queue",
                          "Properties": {"QueueName": {"Fn::If": ["InWest", "bad name!", {"Ref": "Name"}]}}}},
  "Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Queue", "QueueName"]}}}
})";

const std::string kWorks = R"({
  "Parameters": {"Name": {"Type": "String", "Default": "jobs"}},
  "Resources": {"Queue": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": {"Ref": "Name"}}}},
  "Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Queue", "QueueName"]}}}
})";

}  // namespace

TEST_CASE("boto3: a stack set over three regions, one failing, with and without failure tolerance",
          "[server][stacksets]") {
  Server server("stack_sets", "0");
  json r = server.Python(kHelpers + "failing = '''" + kFailsInWest + "'''\nworks = '''" + kWorks + "'''\n" + R"(
out = {}
regions = ['us-east-1', 'us-west-2', 'eu-west-1']
created = cf.create_stack_set(StackSetName='queues', TemplateBody=failing, Description='queues everywhere',
                              Parameters=[{'ParameterKey': 'Name', 'ParameterValue': 'jobs'}],
                              Tags=[{'Key': 'team', 'Value': 'blue'}])
out['set_id'] = re.fullmatch(r'queues:[0-9a-f-]{36}', created['StackSetId']) is not None
s = cf.describe_stack_set(StackSetName='queues')['StackSet']
out['set'] = {k: s[k] for k in ('StackSetName', 'Description', 'Status', 'Parameters', 'Capabilities', 'Tags',
              'AdministrationRoleARN', 'ExecutionRoleName', 'PermissionModel', 'StackSetDriftDetectionDetails',
              'ManagedExecution', 'Regions')}
out['arn'] = s['StackSetARN'] == 'arn:aws:cloudformation:us-east-1:123456789012:stackset/' + s['StackSetId']

# No tolerance: us-west-2 fails, eu-west-1 is never attempted.
op_id = cf.create_stack_instances(StackSetName='queues', Accounts=['123456789012'], Regions=regions,
                                  OperationPreferences={'RegionConcurrencyType': 'SEQUENTIAL',
                                                        'RegionOrder': regions})['OperationId']
op = wait_op('queues', op_id)
out['strict'] = {'status': op['Status'], 'action': op['Action'], 'failed': op['StatusDetails'],
                 'prefs': op['OperationPreferences'], 'results': results('queues', op_id),
                 'instances': instances('queues')}
out['gate'] = [r.get('AccountGateResult') for r in
               cf.list_stack_set_operation_results(StackSetName='queues', OperationId=op_id)['Summaries']]
east = cf.describe_stack_instance(StackSetName='queues', StackInstanceAccount='123456789012',
                                  StackInstanceRegion='us-east-1')['StackInstance']
out['east_stack'] = re.fullmatch(r'arn:aws:cloudformation:us-east-1:123456789012:stack/StackSet-queues-[0-9a-f-]{36}/[0-9a-f-]{36}',
                                 east['StackId']) is not None
out['east_last_op'] = east['LastOperationId'] == op_id
stack = client('us-east-1').describe_stacks(StackName=east['StackId'])['Stacks'][0]
out['east'] = [stack['StackStatus'], stack['Tags'], stack['Parameters'], stack['Outputs'][0]['OutputValue']]

# Tolerance 1 per region, the three regions in parallel: every region is
# attempted, the operation SUCCEEDED with one failed instance.
wait_op('queues', cf.delete_stack_instances(StackSetName='queues', Accounts=['123456789012'], Regions=regions,
                                           RetainStacks=False)['OperationId'])
out['after_delete'] = cf.list_stack_instances(StackSetName='queues')['Summaries']
op_id = cf.create_stack_instances(StackSetName='queues', Accounts=['123456789012'], Regions=regions,
                                  OperationId='tolerant-1',
                                  OperationPreferences={'RegionConcurrencyType': 'PARALLEL',
                                                        'FailureToleranceCount': 1, 'MaxConcurrentCount': 2})['OperationId']
op = wait_op('queues', op_id)
out['tolerant'] = {'id': op_id, 'status': op['Status'], 'failed': op['StatusDetails'],
                   'results': results('queues', op_id), 'instances': instances('queues')}
out['listed_ops'] = [[o['Action'], o['Status']] for o in cf.list_stack_set_operations(StackSetName='queues')['Summaries']]
out['same_op_id'] = error(cf.create_stack_instances, StackSetName='queues', Accounts=['123456789012'],
                          Regions=['us-east-1'], OperationId='tolerant-1')

# The set fixed: updated in us-west-2 only, the other instances are OUTDATED.
op_id = cf.update_stack_set(StackSetName='queues', TemplateBody=works,
                            Parameters=[{'ParameterKey': 'Name', 'UsePreviousValue': True}],
                            Regions=['us-west-2'], Accounts=['123456789012'])['OperationId']
op = wait_op('queues', op_id)
out['update'] = {'status': op['Status'], 'action': op['Action'], 'results': results('queues', op_id),
                 'instances': instances('queues')}
# Then the others, us-east-1 with its own queue name.
op_id = cf.update_stack_instances(StackSetName='queues', Accounts=['123456789012'], Regions=['us-east-1', 'eu-west-1'],
                                  ParameterOverrides=[{'ParameterKey': 'Name', 'ParameterValue': 'east-jobs'}])['OperationId']
op = wait_op('queues', op_id)
out['update_instances'] = {'status': op['Status'], 'results': results('queues', op_id), 'instances': instances('queues')}
east = cf.describe_stack_instance(StackSetName='queues', StackInstanceAccount='123456789012',
                                  StackInstanceRegion='us-east-1')['StackInstance']
out['overrides'] = east['ParameterOverrides']
out['east_queue'] = client('us-east-1').describe_stacks(StackName=east['StackId'])['Stacks'][0]['Outputs'][0]['OutputValue']
out['missing_instance'] = error(cf.update_stack_instances, StackSetName='queues', Accounts=['123456789012'],
                                Regions=['ap-south-1'])

# Deleting: refused while instances remain; us-east-1's stack retained.
out['not_empty'] = error(cf.delete_stack_set, StackSetName='queues')
west_stack = cf.describe_stack_instance(StackSetName='queues', StackInstanceAccount='123456789012',
                                        StackInstanceRegion='us-west-2')['StackInstance']['StackId']
op_id = cf.delete_stack_instances(StackSetName='queues', Accounts=['123456789012'], Regions=['us-east-1'],
                                  RetainStacks=True)['OperationId']
op = wait_op('queues', op_id)
out['retained'] = [op['Status'], op['RetainStacks'],
                   client('us-east-1').describe_stacks(StackName=east['StackId'])['Stacks'][0]['StackStatus'],
                   sorted(instances('queues'))]
op_id = cf.delete_stack_instances(StackSetName='queues', Accounts=['123456789012'], Regions=['us-west-2', 'eu-west-1'],
                                  RetainStacks=False)['OperationId']
op = wait_op('queues', op_id)
out['deleted'] = [op['Status'], results('queues', op_id),
                  client('us-west-2').describe_stacks(StackName=west_stack)['Stacks'][0]['StackStatus'],
                  cf.list_stack_instances(StackSetName='queues')['Summaries']]
cf.delete_stack_set(StackSetName='queues')
out['gone'] = error(cf.describe_stack_set, StackSetName='queues')
out['listed'] = [[x['StackSetName'], x['Status']] for x in cf.list_stack_sets()['Summaries']]
out['listed_active'] = cf.list_stack_sets(Status='ACTIVE')['Summaries']
print(json.dumps(out))
)");
  CHECK(r["set_id"] == true);
  CHECK(r["arn"] == true);
  CHECK(r["set"] == json::parse(R"({"StackSetName": "queues", "Description": "queues everywhere", "Status": "ACTIVE",
      "Parameters": [{"ParameterKey": "Name", "ParameterValue": "jobs"}], "Capabilities": [],
      "Tags": [{"Key": "team", "Value": "blue"}],
      "AdministrationRoleARN": "arn:aws:iam::123456789012:role/AWSCloudFormationStackSetAdministrationRole",
      "ExecutionRoleName": "AWSCloudFormationStackSetExecutionRole", "PermissionModel": "SELF_MANAGED",
      "StackSetDriftDetectionDetails": {"DriftStatus": "NOT_CHECKED", "TotalStackInstancesCount": 0,
          "DriftedStackInstancesCount": 0, "InSyncStackInstancesCount": 0, "InProgressStackInstancesCount": 0,
          "FailedStackInstancesCount": 0},
      "ManagedExecution": {"Active": false}, "Regions": []})"));
  INFO(r.dump(2));
  CHECK(r["strict"]["status"] == "FAILED");
  CHECK(r["strict"]["action"] == "CREATE");
  CHECK(r["strict"]["failed"] == json{{"FailedStackInstancesCount", 1}});
  CHECK(r["strict"]["prefs"] == json::parse(R"({"RegionConcurrencyType": "SEQUENTIAL",
      "RegionOrder": ["us-east-1", "us-west-2", "eu-west-1"]})"));
  CHECK(r["strict"]["results"]["us-east-1"] == json::parse(R"(["123456789012", "SUCCEEDED", ""])"));
  CHECK(r["strict"]["results"]["us-west-2"][1] == "FAILED");
  CHECK(r["strict"]["results"]["us-west-2"][2] ==
        "ResourceLogicalId:Queue, ResourceType:AWS::SQS::Queue, ResourceStatusReason:Can only include alphanumeric "
        "characters, hyphens, or underscores. 1 to 80 in length.");
  CHECK(r["strict"]["results"]["eu-west-1"] ==
        json::parse(R"(["123456789012", "CANCELLED", "Cancelled since failure tolerance has exceeded"])"));
  CHECK(r["strict"]["instances"]["us-east-1"] == json::parse(R"(["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"])"));
  CHECK(r["strict"]["instances"]["us-west-2"] ==
        json({"OUTDATED", "FAILED", r["strict"]["results"]["us-west-2"][2], "NOT_CHECKED"}));
  CHECK(r["strict"]["instances"]["eu-west-1"] ==
        json::parse(R"(["OUTDATED", "CANCELLED", "Cancelled since failure tolerance has exceeded", "NOT_CHECKED"])"));
  CHECK(r["gate"][0] == json::parse(R"({"Status": "SKIPPED",
      "StatusReason": "Function not found: arn:aws:lambda:us-east-1:123456789012:function:AWSCloudFormationStackSetAccountGate"})"));
  CHECK(r["gate"][2].is_null());  // cancelled: no gate ran
  CHECK(r["east_stack"] == true);
  CHECK(r["east_last_op"] == true);
  CHECK(r["east"] == json::parse(R"(["CREATE_COMPLETE", [{"Key": "team", "Value": "blue"}],
      [{"ParameterKey": "Name", "ParameterValue": "jobs"}], "jobs"])"));
  CHECK(r["after_delete"] == json::array());

  CHECK(r["tolerant"]["id"] == "tolerant-1");
  CHECK(r["tolerant"]["status"] == "SUCCEEDED");
  CHECK(r["tolerant"]["failed"] == json{{"FailedStackInstancesCount", 1}});
  CHECK(r["tolerant"]["results"]["us-east-1"][1] == "SUCCEEDED");
  CHECK(r["tolerant"]["results"]["us-west-2"][1] == "FAILED");
  CHECK(r["tolerant"]["results"]["eu-west-1"][1] == "SUCCEEDED");
  CHECK(r["tolerant"]["instances"]["eu-west-1"] == json::parse(R"(["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"])"));
  CHECK(r["listed_ops"] == json::parse(R"([["CREATE", "SUCCEEDED"], ["DELETE", "SUCCEEDED"], ["CREATE", "FAILED"]])"));
  CHECK(r["same_op_id"]["Code"] == "OperationIdAlreadyExistsException");
  CHECK(r["same_op_id"]["Status"] == 409);

  CHECK(r["update"]["status"] == "SUCCEEDED");
  CHECK(r["update"]["action"] == "UPDATE");
  CHECK(r["update"]["results"] == json::parse(R"({"us-west-2": ["123456789012", "SUCCEEDED", ""]})"));
  CHECK(r["update"]["instances"]["us-west-2"] == json::parse(R"(["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"])"));
  CHECK(r["update"]["instances"]["us-east-1"] == json::parse(R"(["OUTDATED", "SUCCEEDED", "", "NOT_CHECKED"])"));
  CHECK(r["update"]["instances"]["eu-west-1"] == json::parse(R"(["OUTDATED", "SUCCEEDED", "", "NOT_CHECKED"])"));
  CHECK(r["update_instances"]["status"] == "SUCCEEDED");
  CHECK(r["update_instances"]["instances"] == json::parse(R"({
      "us-east-1": ["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"], "us-west-2": ["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"],
      "eu-west-1": ["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"]})"));
  CHECK(r["overrides"] == json::parse(R"([{"ParameterKey": "Name", "ParameterValue": "east-jobs"}])"));
  CHECK(r["east_queue"] == "east-jobs");
  CHECK(r["missing_instance"] == json::parse(R"({"Code": "StackInstanceNotFoundException",
      "Message": "Stack instance in account 123456789012 and region ap-south-1 not found for StackSet queues",
      "Status": 404})"));

  CHECK(r["not_empty"] == json::parse(R"({"Code": "StackSetNotEmptyException", "Message": "StackSet is not empty",
                                          "Status": 409})"));
  CHECK(r["retained"] == json::parse(R"(["SUCCEEDED", true, "UPDATE_COMPLETE", ["eu-west-1", "us-west-2"]])"));
  CHECK(r["deleted"] == json::parse(R"(["SUCCEEDED", {"us-west-2": ["123456789012", "SUCCEEDED", ""],
      "eu-west-1": ["123456789012", "SUCCEEDED", ""]}, "DELETE_COMPLETE", []])"));
  CHECK(r["gone"] == json::parse(R"({"Code": "StackSetNotFoundException", "Message": "StackSet queues not found",
                                     "Status": 404})"));
  CHECK(r["listed"] == json::parse(R"([["queues", "DELETED"]])"));
  CHECK(r["listed_active"] == json::array());
}

TEST_CASE("boto3: a stack set operation in progress refuses another, and StopStackSetOperation stops it",
          "[server][stacksets]") {
  // A custom resource answered from outside holds the first instance's create
  // until the script answers it (custom_resource_server_test.cc).
  Server server("stack_sets_stop", "0.01");
  json r = server.Python(kHelpers + R"(
import urllib.request
base = cf.meta.endpoint_url
def next_request():
    for _ in range(300):
        with urllib.request.urlopen(base + '/moonstack/custom-resource-requests') as f:
            reqs = json.load(f)['Requests']
        if reqs:
            return reqs[0]
        time.sleep(0.05)
    raise Exception('no request came')
def respond(req):
    body = {'Status': 'SUCCESS', 'StackId': req['StackId'], 'RequestId': req['RequestId'],
            'LogicalResourceId': req['LogicalResourceId'], 'PhysicalResourceId': 'gate-1'}
    put = urllib.request.Request(req['ResponseURL'], data=json.dumps(body).encode(), method='PUT')
    urllib.request.urlopen(put).close()
gate = json.dumps({'Resources': {'Gate': {'Type': 'Custom::Gate', 'Properties': {
    'ServiceToken': 'arn:aws:lambda:us-east-1:123456789012:function:external-gate'}}}})
out = {}
cf.create_stack_set(StackSetName='gated', TemplateBody=gate)
op_id = cf.create_stack_instances(StackSetName='gated', Accounts=['123456789012'],
                                  Regions=['us-east-1', 'us-west-2'])['OperationId']
req = next_request()   # the first instance's create waits for its answer
arn = cf.describe_stack_set(StackSetName='gated')['StackSet']['StackSetARN']
out['busy'] = error(cf.create_stack_instances, StackSetName='gated', Accounts=['123456789012'], Regions=['eu-west-1'])
out['busy_message'] = out['busy']['Message'] == 'Another Operation on StackSet ' + arn + ' is in progress'
out['busy_delete'] = error(cf.delete_stack_set, StackSetName='gated')['Code']
op = cf.describe_stack_set_operation(StackSetName='gated', OperationId=op_id)['StackSetOperation']
out['running'] = [op['Status'], results('gated', op_id), instances('gated')]
cf.stop_stack_set_operation(StackSetName='gated', OperationId=op_id)
out['stopping'] = cf.describe_stack_set_operation(StackSetName='gated', OperationId=op_id)['StackSetOperation']['Status']
respond(req)
op = wait_op('gated', op_id)
out['stopped'] = [op['Status'], results('gated', op_id), instances('gated')]
out['stop_again'] = error(cf.stop_stack_set_operation, StackSetName='gated', OperationId=op_id)
out['unknown_op'] = error(cf.describe_stack_set_operation, StackSetName='gated', OperationId='nope')
print(json.dumps(out))
)");
  INFO(r.dump(2));
  CHECK(r["busy"]["Code"] == "OperationInProgressException");
  CHECK(r["busy"]["Status"] == 409);
  CHECK(r["busy_message"] == true);
  CHECK(r["busy_delete"] == "OperationInProgressException");
  CHECK(r["running"] == json::parse(R"(["RUNNING",
      {"us-east-1": ["123456789012", "RUNNING", ""], "us-west-2": ["123456789012", "PENDING", ""]},
      {"us-east-1": ["OUTDATED", "RUNNING", "", "NOT_CHECKED"], "us-west-2": ["OUTDATED", "PENDING", "", "NOT_CHECKED"]}])"));
  CHECK(r["stopping"] == "STOPPING");
  CHECK(r["stopped"] == json::parse(R"(["STOPPED",
      {"us-east-1": ["123456789012", "SUCCEEDED", ""],
       "us-west-2": ["123456789012", "CANCELLED", "Cancelled since the operation was stopped"]},
      {"us-east-1": ["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"],
       "us-west-2": ["OUTDATED", "CANCELLED", "Cancelled since the operation was stopped", "NOT_CHECKED"]}])"));
  CHECK(r["stop_again"]["Code"] == "InvalidOperationException");
  CHECK(r["unknown_op"] == json::parse(R"({"Code": "OperationNotFoundException", "Message": "Operation nope not found",
                                           "Status": 404})"));
}

TEST_CASE("boto3: a SERVICE_MANAGED stack set deploys to the simulated organization's accounts",
          "[server][stacksets]") {
  Server server("stack_sets_org", "0");
  json r = server.Python(kHelpers + R"(
topic = json.dumps({'Resources': {'Topic': {'Type': 'AWS::SNS::Topic'}},
                    'Outputs': {'Arn': {'Value': {'Ref': 'Topic'}}}})
out = {}
cf.create_stack_set(StackSetName='org', TemplateBody=topic, PermissionModel='SERVICE_MANAGED',
                    AutoDeployment={'Enabled': True, 'RetainStacksOnAccountRemoval': False})
op_id = cf.create_stack_instances(StackSetName='org', DeploymentTargets={'OrganizationalUnitIds': ['ou-moon-workloads']},
                                  Regions=['eu-west-1'],
                                  OperationPreferences={'MaxConcurrentPercentage': 100,
                                                        'FailureTolerancePercentage': 100})['OperationId']
op = wait_op('org', op_id)
out['op'] = [op['Status'], op['DeploymentTargets'], 'AdministrationRoleARN' in op]
out['results'] = sorted([r['Account'], r['Status'], r['OrganizationalUnitId']] for r in
                        cf.list_stack_set_operation_results(StackSetName='org', OperationId=op_id)['Summaries'])
s = cf.describe_stack_set(StackSetName='org')['StackSet']
out['set'] = {k: s.get(k) for k in ('PermissionModel', 'AutoDeployment', 'OrganizationalUnitIds', 'Regions',
                                     'AdministrationRoleARN')}
summaries = cf.list_stack_instances(StackSetName='org', StackInstanceAccount='222222222222')['Summaries']
out['instance'] = [[i['Account'], i['Region'], i['Status'], i['OrganizationalUnitId']] for i in summaries]
stack_id = summaries[0]['StackId']
out['stack_account'] = stack_id.split(':')[4]
# Another account's stack: the administrator's clients do not see it, as on AWS.
out['other_account'] = error(client('eu-west-1').describe_stacks, StackName=stack_id)['Message'] == \
    'Stack with id ' + stack_id + ' does not exist'
out['summary'] = [[x['StackSetName'], x['PermissionModel'], x['DriftStatus'], x['AutoDeployment']]
                  for x in cf.list_stack_sets()['Summaries']]
out['by_accounts'] = error(cf.create_stack_instances, StackSetName='org', Accounts=['111111111111'], Regions=['eu-west-1'])
out['unknown_ou'] = error(cf.create_stack_instances, StackSetName='org',
                          DeploymentTargets={'OrganizationalUnitIds': ['ou-moon-nowhere1']}, Regions=['eu-west-1'])
# Errors of the set's own actions.
out['exists'] = error(cf.create_stack_set, StackSetName='org', TemplateBody=topic)
out['bad_name'] = error(cf.create_stack_set, StackSetName='no_underscores', TemplateBody=topic)
out['long_name'] = error(cf.create_stack_set, StackSetName='a' * 129, TemplateBody=topic)['Message']
out['missing'] = error(cf.describe_stack_set, StackSetName='nope')
out['missing_instance'] = error(cf.describe_stack_instance, StackSetName='org', StackInstanceAccount='333333333333',
                                StackInstanceRegion='eu-west-1')['Code']
out['bad_template'] = error(cf.create_stack_set, StackSetName='broken', TemplateBody='{"Resources": {}}')['Code']
print(json.dumps(out))
)");
  INFO(r.dump(2));
  CHECK(r["op"] == json::parse(R"(["SUCCEEDED", {"OrganizationalUnitIds": ["ou-moon-workloads"]}, false])"));
  CHECK(r["results"] == json::parse(R"([["111111111111", "SUCCEEDED", "ou-moon-workloads"],
                                         ["222222222222", "SUCCEEDED", "ou-moon-workloads"]])"));
  CHECK(r["set"] == json::parse(R"({"PermissionModel": "SERVICE_MANAGED",
      "AutoDeployment": {"Enabled": true, "RetainStacksOnAccountRemoval": false},
      "OrganizationalUnitIds": ["ou-moon-workloads"], "Regions": ["eu-west-1"], "AdministrationRoleARN": null})"));
  CHECK(r["instance"] == json::parse(R"([["222222222222", "eu-west-1", "CURRENT", "ou-moon-workloads"]])"));
  CHECK(r["stack_account"] == "222222222222");
  CHECK(r["other_account"] == true);
  CHECK(r["summary"] == json::parse(R"([["org", "SERVICE_MANAGED", "NOT_CHECKED",
      {"Enabled": true, "RetainStacksOnAccountRemoval": false}]])"));
  CHECK(r["by_accounts"] == json::parse(R"({"Code": "ValidationError",
      "Message": "StackSets with SERVICE_MANAGED permission model can only have OrganizationalUnit as target",
      "Status": 400})"));
  CHECK(r["unknown_ou"]["Code"] == "ValidationError");
  CHECK(r["exists"] == json::parse(R"({"Code": "NameAlreadyExistsException", "Message": "StackSet org already exists",
                                       "Status": 409})"));
  CHECK(r["bad_name"] == json::parse(R"({"Code": "ValidationError",
      "Message": "1 validation error detected: Value 'no_underscores' at 'stackSetName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*",
      "Status": 400})"));
  CHECK(r["long_name"] == "1 validation error detected: Value '" + std::string(129, 'a') +
                              "' at 'stackSetName' failed to satisfy constraint: Member must have length less than or "
                              "equal to 128");
  CHECK(r["missing"] == json::parse(R"({"Code": "StackSetNotFoundException", "Message": "StackSet nope not found",
                                        "Status": 404})"));
  CHECK(r["missing_instance"] == "StackInstanceNotFoundException");
  CHECK(r["bad_template"] == "ValidationError");
}

TEST_CASE("boto3: a stack set operation stopped by a server restart runs on from where it was",
          "[server][stacksets][interrupt]") {
  const std::string kGate = kHelpers + R"(
import urllib.request
base = cf.meta.endpoint_url
def next_request():
    for _ in range(300):
        with urllib.request.urlopen(base + '/moonstack/custom-resource-requests') as f:
            reqs = json.load(f)['Requests']
        if reqs:
            return reqs[0]
        time.sleep(0.05)
    raise Exception('no request came')
)";
  json first;
  {
    Server server("stack_sets_restart", "0.01");
    first = server.Python(kGate + R"(
gate = json.dumps({'Resources': {'Gate': {'Type': 'Custom::Gate', 'Properties': {
    'ServiceToken': 'arn:aws:lambda:us-east-1:123456789012:function:external-gate'}}}})
cf.create_stack_set(StackSetName='gated', TemplateBody=gate)
op_id = cf.create_stack_instances(StackSetName='gated', Accounts=['123456789012'],
                                  Regions=['us-east-1', 'us-west-2'], OperationId='across-restart')['OperationId']
next_request()
print(json.dumps({'results': results('gated', op_id)}))
)");
    Server::Exit exit = server.Terminate();
    CHECK_FALSE(exit.killed);
  }
  CHECK(first["results"] == json::parse(R"({"us-east-1": ["123456789012", "RUNNING", ""],
                                            "us-west-2": ["123456789012", "PENDING", ""]})"));
  Server again("stack_sets_restart", "0.01", {}, /*fresh=*/false);
  json r = again.Python(kGate + R"(
def respond(req):
    body = {'Status': 'SUCCESS', 'StackId': req['StackId'], 'RequestId': req['RequestId'],
            'LogicalResourceId': req['LogicalResourceId'], 'PhysicalResourceId': 'gate-' + req['StackId'].split(':')[3]}
    url = base + '/moonstack/custom-resource-response/' + req['ResponseURL'].rsplit('/', 1)[1]
    urllib.request.urlopen(urllib.request.Request(url, data=json.dumps(body).encode(), method='PUT')).close()
out = {}
first = next_request()     # us-east-1's create, resumed
respond(first)
for _ in range(300):       # then us-west-2's
    req = next_request()
    if req['RequestId'] != first['RequestId']:
        break
    time.sleep(0.05)
respond(req)
op = wait_op('gated', 'across-restart')
out['op'] = [op['Status'], results('gated', 'across-restart'), instances('gated')]
print(json.dumps(out))
)");
  INFO(r.dump(2));
  CHECK(r["op"] == json::parse(R"(["SUCCEEDED",
      {"us-east-1": ["123456789012", "SUCCEEDED", ""], "us-west-2": ["123456789012", "SUCCEEDED", ""]},
      {"us-east-1": ["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"], "us-west-2": ["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"]}])"));
}

TEST_CASE("boto3: DetectStackSetDrift checks each instance's stack and fills the set's and instances' drift fields",
          "[server][stacksets][drift]") {
  // The queue's VisibilityTimeout is in the template: a change of it is drift.
  const std::string timed = R"({
    "Parameters": {"Name": {"Type": "String", "Default": "jobs"}},
    "Resources": {"Queue": {"Type": "AWS::SQS::Queue",
                            "Properties": {"QueueName": {"Ref": "Name"}, "VisibilityTimeout": 30}}},
    "Outputs": {"QueueName": {"Value": {"Fn::GetAtt": ["Queue", "QueueName"]}}}
  })";
  Server server("stack_sets_drift", "0");
  json r = server.Python(kHelpers + "works = '''" + timed + "'''\n" + R"(
out = {}
cf.create_stack_set(StackSetName='watched', TemplateBody=works)
wait_op('watched', cf.create_stack_instances(StackSetName='watched', Accounts=['123456789012'],
                                             Regions=['us-east-1', 'us-west-2'],
                                             OperationPreferences={'RegionConcurrencyType': 'PARALLEL'})['OperationId'])
# The us-west-2 queue changed out of band, through the simulated SQS.
west = cf.describe_stack_instance(StackSetName='watched', StackInstanceAccount='123456789012',
                                  StackInstanceRegion='us-west-2')['StackInstance']['StackId']
queue = client('us-west-2').describe_stack_resources(StackName=west)['StackResources'][0]['PhysicalResourceId']
sqs = boto3.client('sqs', endpoint_url=cf.meta.endpoint_url, region_name='us-west-2')
sqs.set_queue_attributes(QueueUrl=queue, Attributes={'VisibilityTimeout': '60'})

op_id = cf.detect_stack_set_drift(StackSetName='watched', OperationId='drift-1')['OperationId']
op = wait_op('watched', op_id)
out['op'] = [op_id, op['Action'], op['Status'], results('watched', op_id)]
d = op['StackSetDriftDetectionDetails']
out['op_details'] = [d['DriftStatus'], d['DriftDetectionStatus'], 'LastDriftCheckTimestamp' in d]
s = cf.describe_stack_set(StackSetName='watched')['StackSet']['StackSetDriftDetectionDetails']
out['set_details'] = {k: v for k, v in s.items() if k != 'LastDriftCheckTimestamp'}
out['set_checked'] = 'LastDriftCheckTimestamp' in s
out['summary'] = [[x['DriftStatus'], 'LastDriftCheckTimestamp' in x] for x in cf.list_stack_sets()['Summaries']]
out['instances'] = instances('watched')
out['instance_checked'] = 'LastDriftCheckTimestamp' in cf.describe_stack_instance(
    StackSetName='watched', StackInstanceAccount='123456789012', StackInstanceRegion='us-west-2')['StackInstance']
out['drifted_only'] = [i['Region'] for i in cf.list_stack_instances(
    StackSetName='watched', Filters=[{'Name': 'DRIFT_STATUS', 'Values': 'DRIFTED'}])['Summaries']]
# The stack's own drift status is the one DetectStackDrift shows.
out['stack_drift'] = client('us-west-2').describe_stacks(StackName=west)['Stacks'][0]['DriftInformation']['StackDriftStatus']
# Changes made through CloudFormation to the instance's stack directly are not drift (AWS's StackSets guide).
client('us-west-2').update_stack(StackName=west, UsePreviousTemplate=True,
                                 Parameters=[{'ParameterKey': 'Name', 'ParameterValue': 'renamed'}])
for _ in range(300):
    if client('us-west-2').describe_stacks(StackName=west)['Stacks'][0]['StackStatus'].endswith('COMPLETE'):
        break
    time.sleep(0.05)
op = wait_op('watched', cf.detect_stack_set_drift(StackSetName='watched')['OperationId'])
out['after_direct_update'] = [op['Status'], instances('watched')['us-west-2'][3],
    cf.describe_stack_set(StackSetName='watched')['StackSet']['StackSetDriftDetectionDetails']['DriftStatus']]
# The next stack set operation brings the instance back to the set's parameters.
op = wait_op('watched', cf.update_stack_instances(StackSetName='watched', Accounts=['123456789012'],
                                                  Regions=['us-west-2'])['OperationId'])
out['reconciled'] = [op['Status'],
    client('us-west-2').describe_stacks(StackName=west)['Stacks'][0]['Outputs'][0]['OutputValue']]

out['missing'] = error(cf.detect_stack_set_drift, StackSetName='nope')
out['call_as_self'] = cf.describe_stack_set(StackSetName='watched', CallAs='SELF')['StackSet']['StackSetName']
out['delegated'] = error(cf.list_stack_sets, CallAs='DELEGATED_ADMIN')
out['bad_call_as'] = error(cf.describe_stack_set, StackSetName='watched', CallAs='ME')
print(json.dumps(out))
)");
  INFO(r.dump(2));
  CHECK(r["op"] == json::parse(R"(["drift-1", "DETECT_DRIFT", "SUCCEEDED",
      {"us-east-1": ["123456789012", "SUCCEEDED", ""], "us-west-2": ["123456789012", "SUCCEEDED", ""]}])"));
  CHECK(r["op_details"] == json::parse(R"(["DRIFTED", "COMPLETED", true])"));
  CHECK(r["set_details"] == json::parse(R"({"DriftStatus": "DRIFTED", "DriftDetectionStatus": "COMPLETED",
      "TotalStackInstancesCount": 2, "DriftedStackInstancesCount": 1, "InSyncStackInstancesCount": 1,
      "InProgressStackInstancesCount": 0, "FailedStackInstancesCount": 0})"));
  CHECK(r["set_checked"] == true);
  CHECK(r["summary"] == json::parse(R"([["DRIFTED", true]])"));
  CHECK(r["instances"] == json::parse(R"({"us-east-1": ["CURRENT", "SUCCEEDED", "", "IN_SYNC"],
                                          "us-west-2": ["CURRENT", "SUCCEEDED", "", "DRIFTED"]})"));
  CHECK(r["instance_checked"] == true);
  CHECK(r["drifted_only"] == json::parse(R"(["us-west-2"])"));
  CHECK(r["stack_drift"] == "DRIFTED");
  CHECK(r["after_direct_update"] == json::parse(R"(["SUCCEEDED", "IN_SYNC", "IN_SYNC"])"));
  CHECK(r["reconciled"] == json::parse(R"(["SUCCEEDED", "jobs"])"));
  CHECK(r["missing"] == json::parse(R"({"Code": "StackSetNotFoundException", "Message": "StackSet nope not found",
                                        "Status": 404})"));
  CHECK(r["call_as_self"] == "watched");
  CHECK(r["delegated"] == json::parse(R"({"Code": "ValidationError",
      "Message": "Account used is not a delegated administrator", "Status": 400})"));
  CHECK(r["bad_call_as"] == json::parse(R"({"Code": "ValidationError",
      "Message": "1 validation error detected: Value 'ME' at 'callAs' failed to satisfy constraint: Member must satisfy enum value set: [SELF, DELEGATED_ADMIN]",
      "Status": 400})"));
}

TEST_CASE("boto3: ImportStacksToStackSet makes existing stacks a SELF_MANAGED set's instances", "[server][stacksets]") {
  Server server("stack_sets_import", "0");
  json r = server.Python(kHelpers + "works = '''" + kWorks + "'''\n" + R"(
out = {}
east = client('us-east-1').create_stack(StackName='jobs-east', TemplateBody=works)['StackId']
west = client('us-west-2').create_stack(StackName='jobs-west', TemplateBody=works,
                                        Parameters=[{'ParameterKey': 'Name', 'ParameterValue': 'west-jobs'}])['StackId']
for region, stack in (('us-east-1', east), ('us-west-2', west)):
    for _ in range(300):
        if client(region).describe_stacks(StackName=stack)['Stacks'][0]['StackStatus'] == 'CREATE_COMPLETE':
            break
        time.sleep(0.05)
cf.create_stack_set(StackSetName='adopted', TemplateBody=works,
                    Parameters=[{'ParameterKey': 'Name', 'ParameterValue': 'jobs'}])
op_id = cf.import_stacks_to_stack_set(StackSetName='adopted', StackIds=[east, west], OperationId='import-1')['OperationId']
op = wait_op('adopted', op_id)
out['op'] = [op_id, op['Action'], op['Status'], results('adopted', op_id)]
out['instances'] = instances('adopted')
out['stack_ids'] = [cf.describe_stack_instance(StackSetName='adopted', StackInstanceAccount='123456789012',
                                               StackInstanceRegion=r)['StackInstance']['StackId'] for r in ('us-east-1', 'us-west-2')] == [east, west]
# The imported stacks are the set's now: the west one took the set's parameter value.
out['west'] = [client('us-west-2').describe_stacks(StackName=west)['Stacks'][0][k] for k in ('StackName', 'StackStatus')] + \
    [client('us-west-2').describe_stacks(StackName=west)['Stacks'][0]['Outputs'][0]['OutputValue']]
out['again'] = error(cf.import_stacks_to_stack_set, StackSetName='adopted', StackIds=[east])
missing = east.replace('jobs-east', 'nope')
out['missing'] = error(cf.import_stacks_to_stack_set, StackSetName='adopted', StackIds=[missing])['Code']
out['missing_message'] = error(cf.import_stacks_to_stack_set, StackSetName='adopted', StackIds=[missing])['Message'] == \
    'Stack with id ' + missing + ' does not exist'
out['too_many'] = error(cf.import_stacks_to_stack_set, StackSetName='adopted', StackIds=[east] * 11)['Code']
broken = client('eu-west-1').create_stack(StackName='broken', TemplateBody=works,
                                          Parameters=[{'ParameterKey': 'Name', 'ParameterValue': 'bad name!'}])['StackId']
for _ in range(300):
    if client('eu-west-1').describe_stacks(StackName=broken)['Stacks'][0]['StackStatus'] == 'ROLLBACK_COMPLETE':
        break
    time.sleep(0.05)
out['rolled_back'] = error(cf.import_stacks_to_stack_set, StackSetName='adopted', StackIds=[broken])
out['no_set'] = error(cf.import_stacks_to_stack_set, StackSetName='nope', StackIds=[east])['Code']
cf.create_stack_set(StackSetName='org', TemplateBody=works, PermissionModel='SERVICE_MANAGED')
out['service_managed'] = error(cf.import_stacks_to_stack_set, StackSetName='org', StackIds=[east])['Code']
# Deleting the instance with RetainStacks keeps the stack, as for any instance.
op = wait_op('adopted', cf.delete_stack_instances(StackSetName='adopted', Accounts=['123456789012'],
                                                  Regions=['us-east-1'], RetainStacks=True)['OperationId'])
out['retained'] = [op['Status'], client('us-east-1').describe_stacks(StackName=east)['Stacks'][0]['StackStatus']]
print(json.dumps(out))
)");
  INFO(r.dump(2));
  CHECK(r["op"] == json::parse(R"(["import-1", "CREATE", "SUCCEEDED",
      {"us-east-1": ["123456789012", "SUCCEEDED", ""], "us-west-2": ["123456789012", "SUCCEEDED", ""]}])"));
  CHECK(r["instances"] == json::parse(R"({"us-east-1": ["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"],
                                          "us-west-2": ["CURRENT", "SUCCEEDED", "", "NOT_CHECKED"]})"));
  CHECK(r["stack_ids"] == true);
  CHECK(r["west"] == json::parse(R"(["jobs-west", "UPDATE_COMPLETE", "jobs"])"));
  CHECK(r["again"] == json::parse(R"({"Code": "ValidationError",
      "Message": "Stack instance in account 123456789012 and region us-east-1 already exists in StackSet adopted",
      "Status": 400})"));
  CHECK(r["missing"] == "StackNotFoundException");
  CHECK(r["missing_message"] == true);
  CHECK(r["too_many"] == "LimitExceededException");
  CHECK(r["rolled_back"] == json::parse(R"({"Code": "ValidationError",
      "Message": "Stack broken is in ROLLBACK_COMPLETE state and can not be imported", "Status": 400})"));
  CHECK(r["no_set"] == "StackSetNotFoundException");
  CHECK(r["service_managed"] == "InvalidOperationException");
  CHECK(r["retained"] == json::parse(R"(["SUCCEEDED", "CREATE_COMPLETE"])"));  // the set changed nothing in it
}
