// UpdateStack's Tags through boto3 against `moonstack serve`: Tags=[] (which
// botocore sends as a bare "Tags=", and the aws CLI cannot send) removes
// every stack tag, from the stack and from its taggable resources; Tags
// omitted keeps them.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

TEST_CASE("boto3: update_stack Tags=[] removes the stack's tags, omitted keeps them", "[server][tags]") {
  Server server("stack_tags", "0");
  json r = server.Python(R"(
sqs = boto3.client('sqs', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
body = json.dumps({'Resources': {'Jobs': {'Type': 'AWS::SQS::Queue'}}})
def wait(waiter):
    cf.get_waiter(waiter).wait(StackName='app', WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
def state():
    stack = cf.describe_stacks(StackName='app')['Stacks'][0]
    url = cf.describe_stack_resource(StackName='app', LogicalResourceId='Jobs')['StackResourceDetail']['PhysicalResourceId']
    queue = sqs.list_queue_tags(QueueUrl=url).get('Tags', {})
    return {'status': stack['StackStatus'], 'tags': stack.get('Tags'),
            'queue': {k: v for k, v in queue.items() if not k.startswith('aws:')}}
out = {}
cf.create_stack(StackName='app', TemplateBody=body, Tags=[{'Key': 'team', 'Value': 'web'}])
wait('stack_create_complete')
out['created'] = state()
out['omitted'] = error(cf.update_stack, StackName='app', UsePreviousTemplate=True)
cf.update_stack(StackName='app', UsePreviousTemplate=True, Tags=[])
wait('stack_update_complete')
out['emptied'] = state()
print(json.dumps(out))
)");
  CHECK(r["created"] == json::parse(R"({"status": "CREATE_COMPLETE", "tags": [{"Key": "team", "Value": "web"}],
                                        "queue": {"team": "web"}})"));
  CHECK(r["omitted"] == json::parse(R"({"Code": "ValidationError", "Message": "No updates are to be performed.",
                                        "Status": 400})"));
  CHECK(r["emptied"] == json::parse(R"({"status": "UPDATE_COMPLETE", "tags": [], "queue": {}})"));
}
