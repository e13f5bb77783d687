// Under `moonstack serve`, a function's own SDK calls reach the simulated
// cloud: a custom resource whose inline Python handler creates an EC2
// security group with boto3 (AWS_ENDPOINT_URL and credentials set by the
// runner) and returns its ID; the group is there for describe_security_groups
// from outside, and the stack's delete removes it through the same function.
#include <catch2/catch.hpp>

#include "../lambda/lambda_test_support.h"
#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

const std::string kScript = R"(
import time
code = '''import boto3, cfnresponse
def handler(event, context):
    ec2 = boto3.client('ec2')
    try:
        if event['RequestType'] == 'Create':
            group = ec2.create_security_group(GroupName=event['ResourceProperties']['Name'], Description='from a function')
            cfnresponse.send(event, context, cfnresponse.SUCCESS, {'GroupId': group['GroupId']}, group['GroupId'])
        elif event['RequestType'] == 'Delete':
            ec2.delete_security_group(GroupId=event['PhysicalResourceId'])
            cfnresponse.send(event, context, cfnresponse.SUCCESS, {}, event['PhysicalResourceId'])
        else:
            cfnresponse.send(event, context, cfnresponse.SUCCESS, {}, event['PhysicalResourceId'])
    except Exception as e:
        cfnresponse.send(event, context, cfnresponse.FAILED, {}, reason=str(e))
'''
template = json.dumps({'Resources': {
    'Fn': {'Type': 'AWS::Lambda::Function', 'Properties': {'FunctionName': 'sdk-fn', 'Runtime': 'python3.12',
           'Handler': 'index.handler', 'Role': 'arn:aws:iam::123456789012:role/r', 'Timeout': 30,
           'Code': {'ZipFile': code}}},
    'Group': {'Type': 'Custom::Group', 'Properties': {'ServiceToken': {'Fn::GetAtt': ['Fn', 'Arn']},
              'Name': 'made-by-a-function'}}},
    'Outputs': {'GroupId': {'Value': {'Fn::GetAtt': ['Group', 'GroupId']}}}})
ec2 = boto3.client('ec2', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')

def settle():
    for _ in range(600):
        try:
            stack = cf.describe_stacks(StackName='s')['Stacks'][0]
        except botocore.exceptions.ClientError:
            return 'GONE', []
        if not stack['StackStatus'].endswith('IN_PROGRESS'):
            return stack['StackStatus'], stack.get('Outputs', [])
        time.sleep(0.05)
    return 'TIMEOUT', []

def groups():
    found = ec2.describe_security_groups(Filters=[{'Name': 'group-name', 'Values': ['made-by-a-function']}])
    return [g['GroupId'] for g in found['SecurityGroups']]

lambda_role('r')
cf.create_stack(StackName='s', TemplateBody=template)
created, outputs = settle()
reasons = [e.get('ResourceStatusReason', '') for e in cf.describe_stack_events(StackName='s')['StackEvents']
           if e['ResourceStatus'].endswith('FAILED')] if created != 'CREATE_COMPLETE' else []
fn_log = []
if created != 'CREATE_COMPLETE':
    try:
        lg = boto3.client('logs', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
        fn_log = [e['message'] for e in lg.filter_log_events(logGroupName='/aws/lambda/sdk-fn')['events']]
    except Exception as e:
        fn_log = [repr(e)]
after_create = groups()
cf.delete_stack(StackName='s')
deleted, _ = settle()
print(json.dumps({'created': created, 'reasons': reasons, 'log': fn_log, 'outputs': outputs, 'after_create': after_create,
                  'deleted': deleted, 'after_delete': groups()}))
)";

}  // namespace

TEST_CASE("serve: a function creates and deletes an EC2 security group through boto3", "[server][lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("lambda_sdk_calls");
  const json r = server.Python(kScript);
  INFO(r.dump());
  CHECK(r["created"] == "CREATE_COMPLETE");
  REQUIRE(r["outputs"].size() == 1);
  const std::string group_id = r["outputs"][0]["OutputValue"];
  CHECK(group_id.rfind("sg-", 0) == 0);
  CHECK(r["after_create"] == json::array({group_id}));
  CHECK(r["deleted"] == "GONE");
  CHECK(r["after_delete"] == json::array());
}
