// Resource import under `moonstack serve`, driven by boto3: an SQS queue and
// an SSM parameter made with boto3's own sqs and ssm clients are imported
// into a stack with an IMPORT change set (ResourcesToImport in the Query
// protocol's map encoding), boto3's stack_import_complete waiter sees the
// stack through, and AWS's refusals come back as ValidationErrors.
#include <catch2/catch.hpp>

#include <fstream>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

TEST_CASE("boto3 imports a queue and a parameter into a stack through an IMPORT change set",
          "[server][changeset][import]") {
  Server server("import");
  json r = server.Python(R"(
URL = cf.meta.endpoint_url
sqs = boto3.client('sqs', endpoint_url=URL, region_name='us-east-1')
ssm = boto3.client('ssm', endpoint_url=URL, region_name='us-east-1')
out = {}
url = sqs.create_queue(QueueName='adopted')['QueueUrl']
ssm.put_parameter(Name='/adopted/p', Type='String', Value='v1')
base = {'Resources': {'X': {'Type': 'AWS::SSM::Parameter',
                            'Properties': {'Type': 'String', 'Name': '/base/x', 'Value': 'keep'}}}}
cf.create_stack(StackName='base', TemplateBody=json.dumps(base))
cf.get_waiter('stack_create_complete').wait(StackName='base', WaiterConfig={'Delay': 1})
tmpl = json.loads(json.dumps(base))
tmpl['Resources']['Q'] = {'Type': 'AWS::SQS::Queue', 'DeletionPolicy': 'Retain',
                          'Properties': {'QueueName': 'adopted'}}
tmpl['Resources']['P'] = {'Type': 'AWS::SSM::Parameter', 'DeletionPolicy': 'Retain',
                          'Properties': {'Type': 'String', 'Name': '/adopted/p', 'Value': 'v1'}}
to_import = [{'ResourceType': 'AWS::SQS::Queue', 'LogicalResourceId': 'Q', 'ResourceIdentifier': {'QueueUrl': url}},
             {'ResourceType': 'AWS::SSM::Parameter', 'LogicalResourceId': 'P',
              'ResourceIdentifier': {'Name': '/adopted/p'}}]

unprotected = json.loads(json.dumps(tmpl))
del unprotected['Resources']['P']['DeletionPolicy']
out['refused'] = error(cf.create_change_set, StackName='base', ChangeSetName='imp', ChangeSetType='IMPORT',
                       ResourcesToImport=to_import, TemplateBody=json.dumps(unprotected))
out['after_refusal'] = cf.list_change_sets(StackName='base')['Summaries']

cs = cf.create_change_set(StackName='base', ChangeSetName='imp', ChangeSetType='IMPORT',
                          ResourcesToImport=to_import, TemplateBody=json.dumps(tmpl))
cf.get_waiter('change_set_create_complete').wait(ChangeSetName=cs['Id'], WaiterConfig={'Delay': 1})
d = cf.describe_change_set(ChangeSetName=cs['Id'])
out['change_set'] = [d['Status'], d['ExecutionStatus'], d['Changes']]
cf.execute_change_set(ChangeSetName=cs['Id'])
cf.get_waiter('stack_import_complete').wait(StackName='base', WaiterConfig={'Delay': 1})
out['status'] = cf.describe_stacks(StackName='base')['Stacks'][0]['StackStatus']
events = cf.describe_stack_events(StackName='base')['StackEvents'][::-1]
start = next(i for i, e in enumerate(events) if e['ResourceStatus'] == 'IMPORT_IN_PROGRESS')
out['events'] = [[e['LogicalResourceId'], e['ResourceStatus'], e.get('ResourceStatusReason', '')]
                 for e in events[start:]]
out['resources'] = sorted([r['LogicalResourceId'], r['PhysicalResourceId'], r['ResourceStatus']]
                          for r in cf.describe_stack_resources(StackName='base')['StackResources'])
out['listed'] = [s['StackName'] for s in cf.list_stacks(StackStatusFilter=['IMPORT_COMPLETE'])['StackSummaries']]
out['url'] = url
print(json.dumps(out))
)");
  CHECK(r["refused"] == json{{"Code", "ValidationError"},
                             {"Message", "The following resources to import [P] must have DeletionPolicy attribute "
                                         "specified in the template."},
                             {"Status", 400}});
  CHECK(r["after_refusal"].empty());
  const std::string url = r["url"];
  CHECK(r["change_set"] == json::parse(R"(["CREATE_COMPLETE", "AVAILABLE", [
    {"Type": "Resource", "ResourceChange": {"Action": "Import", "LogicalResourceId": "Q",
      "PhysicalResourceId": ")" + url + R"(", "ResourceType": "AWS::SQS::Queue", "Scope": [], "Details": []}},
    {"Type": "Resource", "ResourceChange": {"Action": "Import", "LogicalResourceId": "P",
      "PhysicalResourceId": "/adopted/p", "ResourceType": "AWS::SSM::Parameter", "Scope": [], "Details": []}}]])"));
  CHECK(r["status"] == "IMPORT_COMPLETE");
  CHECK(r["events"] == json::parse(R"([
    ["base", "IMPORT_IN_PROGRESS", "User Initiated"],
    ["Q", "IMPORT_IN_PROGRESS", "Resource import started."],
    ["Q", "IMPORT_COMPLETE", "Resource import completed."],
    ["P", "IMPORT_IN_PROGRESS", "Resource import started."],
    ["P", "IMPORT_COMPLETE", "Resource import completed."],
    ["base", "IMPORT_COMPLETE", ""]])"));
  CHECK(r["resources"] == json::parse(R"([["P", "/adopted/p", "IMPORT_COMPLETE"], ["Q", ")" + url +
                                      R"(", "IMPORT_COMPLETE"], ["X", "/base/x", "CREATE_COMPLETE"]])"));
  CHECK(r["listed"] == json{"base"});
}
