// Custom resources answered from outside moonstack, as a Lambda function
// answers them: the handler (here, the test's Python) reads the pending
// requests from GET /moonstack/custom-resource-requests and PUTs its
// response to the request's ResponseURL (providers/sim/custom_resources.lua).
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

// The handler's side: the requests waiting for an answer.
const std::string kPending = R"(
import time, urllib.request
base = cf.meta.endpoint_url
def pending():
    with urllib.request.urlopen(base + '/moonstack/custom-resource-requests') as f:
        return json.load(f)['Requests']
)";

TEST_CASE("boto3: a custom resource answered through its ResponseURL: create, failed update, rollback, delete",
          "[server]") {
  Server server("custom_external", "0.01");
  json r = server.Python(kPending + R"(
def next_request():
    for _ in range(300):
        reqs = pending()
        if reqs:
            return reqs[0]
        time.sleep(0.05)
    raise Exception('no request came')
def respond(req, status, data=None, reason=None, physical=None):
    body = {'Status': status, 'StackId': req['StackId'], 'RequestId': req['RequestId'],
            'LogicalResourceId': req['LogicalResourceId'],
            'PhysicalResourceId': physical or req.get('PhysicalResourceId', 'ext-1')}
    if data is not None: body['Data'] = data
    if reason is not None: body['Reason'] = reason
    put = urllib.request.Request(req['ResponseURL'], data=json.dumps(body).encode(), method='PUT')
    with urllib.request.urlopen(put) as f:
        return f.status
def template(name):
    return json.dumps({'Resources': {'Thing': {'Type': 'Custom::Thing', 'Properties': {
        'ServiceToken': 'arn:aws:lambda:us-east-1:123456789012:function:external-handler', 'Name': name}}},
        'Outputs': {'Greeting': {'Value': {'Fn::GetAtt': ['Thing', 'Greeting']}}}})
def status():
    return cf.describe_stacks(StackName='ext')['Stacks'][0]['StackStatus']
def settle():
    while status().endswith('IN_PROGRESS'):
        time.sleep(0.05)
out = {}
cf.create_stack(StackName='ext', TemplateBody=template('world'))
req = next_request()
out['create'] = {k: req[k] for k in ('RequestType', 'LogicalResourceId', 'ResourceType', 'ResourceProperties')}
out['url'] = req['ResponseURL'].startswith(base + '/moonstack/custom-resource-response/')
out['put'] = respond(req, 'SUCCESS', data={'Greeting': 'hello ' + req['ResourceProperties']['Name']})
settle()
stack = cf.describe_stacks(StackName='ext')['Stacks'][0]
out['created'] = [stack['StackStatus'], stack['Outputs'][0]['OutputValue']]
out['physical'] = cf.describe_stack_resource(StackName='ext', LogicalResourceId='Thing')['StackResourceDetail']['PhysicalResourceId']

cf.update_stack(StackName='ext', TemplateBody=template('there'))
req = next_request()
out['update'] = [req['RequestType'], req['ResourceProperties']['Name'], req['OldResourceProperties']['Name']]
respond(req, 'FAILED', reason='nope')
req = next_request()   # the rollback: an Update back to the old properties
out['rollback'] = [req['RequestType'], req['ResourceProperties']['Name'], req['OldResourceProperties']['Name']]
respond(req, 'SUCCESS', data={'Greeting': 'hello world'})
settle()
events = cf.describe_stack_events(StackName='ext')['StackEvents']
out['reason'] = [e.get('ResourceStatusReason', '') for e in events
                 if e['LogicalResourceId'] == 'Thing' and e['ResourceStatus'] == 'UPDATE_FAILED'][0]
out['after_update'] = status()

cf.delete_stack(StackName='ext')
req = next_request()
out['delete'] = [req['RequestType'], req['PhysicalResourceId']]
respond(req, 'SUCCESS')
for _ in range(300):
    s = cf.list_stacks()['StackSummaries'][0]['StackStatus']
    if s == 'DELETE_COMPLETE': break
    time.sleep(0.05)
out['deleted'] = s
try:
    respond(req, 'SUCCESS')
    out['again'] = 'accepted'
except urllib.error.HTTPError as e:
    out['again'] = e.code
out['left'] = pending()
print(json.dumps(out))
)");
  CHECK(r["create"] == json{{"RequestType", "Create"},
                            {"LogicalResourceId", "Thing"},
                            {"ResourceType", "Custom::Thing"},
                            {"ResourceProperties",
                             {{"ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:external-handler"},
                              {"Name", "world"}}}});
  CHECK(r["url"] == true);
  CHECK(r["put"] == 200);
  CHECK(r["created"] == json{"CREATE_COMPLETE", "hello world"});
  CHECK(r["physical"] == "ext-1");
  CHECK(r["update"] == json{"Update", "there", "world"});
  CHECK(r["rollback"] == json{"Update", "world", "there"});
  const std::string reason = r["reason"];
  CHECK(reason.rfind("Received response status [FAILED] from custom resource. Message returned: nope (RequestId: ", 0) ==
        0);
  CHECK(r["after_update"] == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(r["delete"] == json{"Delete", "ext-1"});
  CHECK(r["deleted"] == "DELETE_COMPLETE");
  CHECK(r["again"] == 403);  // answered already
  CHECK(r["left"] == json::array());
}

TEST_CASE("a reset stops an operation waiting for a custom resource's response", "[server]") {
  Server server("custom_reset", "1");
  json r = server.Python(kPending + R"(
waiting = json.dumps({'Resources': {'Thing': {'Type': 'Custom::Thing', 'Properties': {
    'ServiceToken': 'arn:aws:lambda:us-east-1:123456789012:function:external-handler'}}}})
out = {}
cf.create_stack(StackName='ext', TemplateBody=waiting)
for _ in range(300):
    if pending(): break
    time.sleep(0.05)
out['pending'] = len(pending())
# The operation waits for a response that will never come (an hour, in real time).
start = time.time()
reset = urllib.request.urlopen(urllib.request.Request(base + '/moto-api/reset', method='POST'))
out['reset'] = [reset.status, json.loads(reset.read())]
out['reset_seconds'] = time.time() - start
out['stacks'] = cf.describe_stacks()['Stacks']
out['left'] = pending()
# Nothing of the stopped operation is left behind: the name is free, its lock released.
cf.create_stack(StackName='ext', TemplateBody=template)
cf.get_waiter('stack_create_complete').wait(StackName='ext', WaiterConfig={'Delay': 1})
out['again'] = cf.describe_stacks(StackName='ext')['Stacks'][0]['StackStatus']
print(json.dumps(out))
)");
  CHECK(r["pending"] == 1);
  CHECK(r["reset"] == json::array({200, {{"status", "ok"}}}));
  CHECK(r["reset_seconds"].get<double>() < 2);
  CHECK(r["stacks"] == json::array());
  CHECK(r["left"] == json::array());
  CHECK(r["again"] == "CREATE_COMPLETE");
  const Server::Exit exit = server.Terminate();
  CHECK(exit.seconds < 2);
  CHECK(WEXITSTATUS(exit.status) == 0);
}
