// SignalResource through boto3 against `moonstack serve` (scaled time): the
// create of a resource with a CreationPolicy waits until two signals arrive,
// then the stack_create_complete waiter returns; AWS's refusals.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

TEST_CASE("boto3: signal_resource while the create waits for its CreationPolicy", "[server][signal]") {
  // 0.01: the engine's 5-second looks take 50 ms; the PT1H timeout 36 s.
  Server server("signal", "0.01");
  json r = server.Python(R"(
import time
body = json.dumps({'Resources': {'Net': {'Type': 'AWS::EC2::VPC',
    'CreationPolicy': {'ResourceSignal': {'Count': 2, 'Timeout': 'PT1H'}},
    'Properties': {'CidrBlock': '10.0.0.0/16'}}}})
def events(name):
    out = []
    for page in cf.get_paginator('describe_stack_events').paginate(StackName=name):
        out += page['StackEvents']
    out.reverse()
    return [e['LogicalResourceId'] + ' ' + e['ResourceStatus'] + ' ' + e.get('ResourceStatusReason', '')
            for e in out]
out = {}
stack_id = cf.create_stack(StackName='s', TemplateBody=body)['StackId']
out['stack_id'] = stack_id
while 'Net CREATE_IN_PROGRESS Resource creation Initiated' not in events('s'):
    time.sleep(0.05)
out['bad_status'] = error(cf.signal_resource, StackName='s', LogicalResourceId='Net', UniqueId='i-1', Status='MAYBE')
out['no_resource'] = error(cf.signal_resource, StackName='s', LogicalResourceId='Nope', UniqueId='i-1',
                           Status='SUCCESS')
out['no_stack'] = error(cf.signal_resource, StackName='nope', LogicalResourceId='Net', UniqueId='i-1',
                        Status='SUCCESS')
cf.signal_resource(StackName='s', LogicalResourceId='Net', UniqueId='i-1', Status='SUCCESS')
cf.signal_resource(StackName='s', LogicalResourceId='Net', UniqueId='i-1', Status='SUCCESS')  # counted once
time.sleep(0.5)  # 50 simulated seconds: one signal is not enough
out['waiting'] = cf.describe_stacks(StackName='s')['Stacks'][0]['StackStatus']
cf.signal_resource(StackName=stack_id, LogicalResourceId='Net', UniqueId='i-2', Status='SUCCESS')
cf.get_waiter('stack_create_complete').wait(StackName='s', WaiterConfig={'Delay': 1, 'MaxAttempts': 30})
out['status'] = cf.describe_stacks(StackName='s')['Stacks'][0]['StackStatus']
out['events'] = [e for e in events('s') if e.startswith('Net ')]
out['late'] = error(cf.signal_resource, StackName='s', LogicalResourceId='Net', UniqueId='i-3', Status='SUCCESS')
print(json.dumps(out))
)");
  const std::string id = r["stack_id"];
  CHECK(r["bad_status"] == json{{"Code", "ValidationError"},
                                {"Message", "1 validation error detected: Value 'MAYBE' at 'status' failed to satisfy "
                                            "constraint: Member must satisfy enum value set: [SUCCESS, FAILURE]"},
                                {"Status", 400}});
  CHECK(r["no_resource"]["Message"] == "Resource Nope does not exist for stack s");
  CHECK(r["no_stack"]["Message"] == "Stack with id nope does not exist");
  CHECK(r["waiting"] == "CREATE_IN_PROGRESS");
  CHECK(r["status"] == "CREATE_COMPLETE");
  CHECK(r["events"] == json{
                           "Net CREATE_IN_PROGRESS ",
                           "Net CREATE_IN_PROGRESS Resource creation Initiated",
                           "Net CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-1",
                           "Net CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-2",
                           "Net CREATE_COMPLETE ",
                       });
  CHECK(r["late"]["Message"] == "Stack " + id + " is in CREATE_COMPLETE state and cannot be signaled");
}
