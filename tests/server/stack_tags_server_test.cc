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

TEST_CASE("boto3: EC2 and IAM resources carry the stack's tags, aws: stack tag keys are refused", "[server][tags]") {
  Server server("stack_tags_ec2_iam", "0");
  json r = server.Python(R"(
import time
ec2 = boto3.client('ec2', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
iam = boto3.client('iam', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
trust = {'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Principal': {'Service': 'ec2.amazonaws.com'},
                                                 'Action': 'sts:AssumeRole'}]}
body = json.dumps({'Resources': {
    'Vpc': {'Type': 'AWS::EC2::VPC', 'Properties': {'CidrBlock': '10.0.0.0/16'}},
    'Group': {'Type': 'AWS::EC2::SecurityGroup', 'Properties': {'GroupDescription': 'g', 'VpcId': {'Ref': 'Vpc'}}},
    'Role': {'Type': 'AWS::IAM::Role', 'Properties': {'AssumeRolePolicyDocument': trust}}}})
def wait(waiter):  # polled every 20 ms: a waiter's Delay is a second at least
    for _ in range(500):
        if not cf.describe_stacks(StackName='app')['Stacks'][0]['StackStatus'].endswith('_IN_PROGRESS'):
            return
        time.sleep(0.02)
def physical(logical):
    return cf.describe_stack_resource(StackName='app', LogicalResourceId=logical)['StackResourceDetail']['PhysicalResourceId']
def state():
    group = physical('Group')
    tags = ec2.describe_tags(Filters=[{'Name': 'resource-id', 'Values': [group]}])['Tags']
    described = ec2.describe_security_groups(GroupIds=[group])['SecurityGroups'][0]['Tags']
    return {'group': sorted([t['Key'], t['Value']] for t in tags if t['ResourceType'] == 'security-group'),
            'described': len(described),
            'role': iam.list_role_tags(RoleName=physical('Role'))['Tags']}
out = {}
out['refused'] = error(cf.create_stack, StackName='app', TemplateBody=body, Tags=[{'Key': 'aws:team', 'Value': 'x'}])
cf.create_stack(StackName='app', TemplateBody=body, Capabilities=['CAPABILITY_IAM'], Tags=[{'Key': 'team', 'Value': 'web'}])
wait('stack_create_complete')
out['stack_id'] = cf.describe_stacks(StackName='app')['Stacks'][0]['StackId']
out['created'] = state()
cf.update_stack(StackName='app', UsePreviousTemplate=True, Capabilities=['CAPABILITY_IAM'],
                Tags=[{'Key': 'team', 'Value': 'data'}])
wait('stack_update_complete')
out['updated'] = state()
print(json.dumps(out))
)");
  CHECK(r["refused"] == json::parse(R"({"Code": "ValidationError", "Status": 400,
                                        "Message": "aws: prefixed tag key names are not allowed for external use."})"));
  const std::string id = r["stack_id"];
  auto group_tags = [&](const std::string& team) {
    return json::array({json::array({"aws:cloudformation:logical-id", "Group"}),
                        json::array({"aws:cloudformation:stack-id", id}),
                        json::array({"aws:cloudformation:stack-name", "app"}), json::array({"team", team})});
  };
  CHECK(r["created"]["group"] == group_tags("web"));
  CHECK(r["created"]["described"] == 4);
  CHECK(r["created"]["role"] == json::parse(R"([{"Key": "team", "Value": "web"}])"));
  CHECK(r["updated"]["group"] == group_tags("data"));
  CHECK(r["updated"]["role"] == json::parse(R"([{"Key": "team", "Value": "data"}])"));
}
