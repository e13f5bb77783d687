// A seed 000 run driven entirely through boto3 against `moonstack serve`:
// run 4 (Instance1 removed, Instance3 added, Instance2 unchanged), with the
// exact events AWS produced for it.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

TEST_CASE("seed 000 run 4 through boto3: one instance added, one removed in cleanup", "[server][update]") {
  Server server("seed_run4");
  json r = server.Python(R"(
def instances(*names):
    return json.dumps({
        'Parameters': {'ImageId': {'Type': 'String'}, 'InstanceType': {'Type': 'String'}},
        'Resources': {n: {'Type': 'AWS::EC2::Instance', 'Properties': {
            'ImageId': {'Ref': 'ImageId'}, 'InstanceType': {'Ref': 'InstanceType'}}} for n in names}})
params = [{'ParameterKey': 'ImageId', 'ParameterValue': 'ami-0123456789abcdef0'},
          {'ParameterKey': 'InstanceType', 'ParameterValue': 't2.micro'}]
def events(since):
    out = []
    for page in cf.get_paginator('describe_stack_events').paginate(StackName='run4'):
        out += page['StackEvents']
    out.reverse()
    return [e['LogicalResourceId'] + ' ' + e['ResourceStatus'] + ' ' + e.get('ResourceStatusReason', '')
            for e in out][since:]
wait = {'Delay': 1, 'MaxAttempts': 60}
sid = cf.create_stack(StackName='run4', TemplateBody=instances('Instance1', 'Instance2'), Parameters=params)['StackId']
cf.get_waiter('stack_create_complete').wait(StackName='run4', WaiterConfig=wait)
before = {r['LogicalResourceId']: r['PhysicalResourceId']
          for r in cf.describe_stack_resources(StackName='run4')['StackResources']}
n = len(events(0))
same = cf.update_stack(StackName='run4', TemplateBody=instances('Instance2', 'Instance3'),
                       Parameters=[{'ParameterKey': 'ImageId', 'UsePreviousValue': True},
                                   {'ParameterKey': 'InstanceType', 'UsePreviousValue': True}])['StackId'] == sid
cf.get_waiter('stack_update_complete').wait(StackName='run4', WaiterConfig=wait)
after = {r['LogicalResourceId']: r['PhysicalResourceId']
         for r in cf.describe_stack_resources(StackName='run4')['StackResources']}
print(json.dumps({'same_id': same, 'events': events(n), 'before': before, 'after': after,
                  'status': cf.describe_stacks(StackName='run4')['Stacks'][0]['StackStatus']}))
)");
  CHECK(r["same_id"] == true);  // "The stack id returned was the same as the initial stack."
  CHECK(r["status"] == "UPDATE_COMPLETE");
  CHECK(r["events"] == json{
                           "run4 UPDATE_IN_PROGRESS User Initiated",
                           "Instance3 CREATE_IN_PROGRESS ",
                           "Instance3 CREATE_IN_PROGRESS Resource creation Initiated",
                           "Instance3 CREATE_COMPLETE ",
                           "run4 UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                           "Instance1 DELETE_IN_PROGRESS ",
                           "Instance1 DELETE_COMPLETE ",
                           "run4 UPDATE_COMPLETE ",
                       });
  CHECK(r["after"].size() == 2);
  CHECK(r["after"]["Instance2"] == r["before"]["Instance2"]);  // untouched
  CHECK(r["after"].contains("Instance3"));
}
