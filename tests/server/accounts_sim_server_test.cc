// The simulated cloud per account through serve (providers/sim/world.lua):
// boto3 clients of two accounts (12-digit access key IDs) create the same
// SQS queue, SSM parameter, IAM role and security group side by side and
// each lists only its own; an S3 bucket name one account holds is refused
// to the other with S3's BucketAlreadyExists, and its objects with Access
// Denied unless the bucket policy grants them; a stack of one account that
// names a resource only the other has fails as on AWS.
#include <catch2/catch.hpp>

#include "../lambda/lambda_test_support.h"
#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

TEST_CASE("boto3: two accounts' SQS, SSM, IAM, EC2 and S3 resources side by side", "[server][regions][accounts]") {
  Server server("accounts_sim", "0");
  json r = server.Python(R"(
A, B = '111111111111', '222222222222'
out = {}
sqs = {k: client('sqs', k) for k in (A, B, 'AKIDEXAMPLE')}
out['queues'] = [sqs[k].create_queue(QueueName='jobs')['QueueUrl'] for k in (A, B)]
out['queues_listed'] = [sqs[k].list_queues().get('QueueUrls', []) for k in (A, B, 'AKIDEXAMPLE')]
sqs[A].send_message(QueueUrl=out['queues'][0], MessageBody='for a')
out['b_messages'] = sqs[B].receive_message(QueueUrl=out['queues'][1]).get('Messages', [])
out['a_messages'] = [m['Body'] for m in sqs[A].receive_message(QueueUrl=out['queues'][0])['Messages']]
out['b_sends_to_a'] = error(sqs[B].send_message, QueueUrl=out['queues'][0], MessageBody='x')

ssm = {k: client('ssm', k) for k in (A, B)}
for k in (A, B): ssm[k].put_parameter(Name='/app/db', Value='db-of-' + k, Type='String')
ssm[A].put_parameter(Name='/app/only-a', Value='1', Type='String')
out['parameters'] = [ssm[k].get_parameter(Name='/app/db')['Parameter']['Value'] for k in (A, B)]
out['parameters_listed'] = [sorted(p['Name'] for p in ssm[k].describe_parameters()['Parameters']) for k in (A, B)]
out['b_reads_a_only'] = error(ssm[B].get_parameter, Name='/app/only-a')

trust = json.dumps({'Version': '2012-10-17', 'Statement': []})
iam = {k: client('iam', k) for k in (A, B)}
out['roles'] = [iam[k].create_role(RoleName='app', AssumeRolePolicyDocument=trust)['Role']['Arn'] for k in (A, B)]
iam[A].create_role(RoleName='only-a', AssumeRolePolicyDocument=trust)
out['roles_listed'] = [[x['Arn'] for x in iam[k].list_roles()['Roles']] for k in (A, B)]
out['role_other_region'] = client('iam', A, 'eu-west-1').get_role(RoleName='only-a')['Role']['Arn']
out['b_role_only_a'] = error(iam[B].get_role, RoleName='only-a')

ec2 = {k: client('ec2', k) for k in (A, B)}
groups = [ec2[k].create_security_group(GroupName='web', Description='web')['GroupId'] for k in (A, B)]
out['groups_distinct'] = groups[0] != groups[1]
out['groups_listed'] = [[(g['GroupId'] == groups[i], g['OwnerId']) for g in ec2[k].describe_security_groups(
    Filters=[{'Name': 'group-name', 'Values': ['web']}])['SecurityGroups']] for i, k in enumerate((A, B))]
out['b_group_of_a'] = error(ec2[B].describe_security_groups, GroupIds=[groups[0]])
out['b_group_of_a']['Message'] = out['b_group_of_a']['Message'].replace(groups[0], 'SG')

s3 = {k: client('s3', k) for k in (A, B)}
s3[A].create_bucket(Bucket='taken-name')
out['b_bucket'] = error(s3[B].create_bucket, Bucket='taken-name')
out['a_again'] = s3[A].create_bucket(Bucket='taken-name')['Location']
out['buckets'] = [[b['Name'] for b in s3[k].list_buckets()['Buckets']] for k in (A, B)]
s3[A].put_object(Bucket='taken-name', Key='shared/x', Body=b'x')
out['b_head'] = error(s3[B].head_bucket, Bucket='taken-name')
out['b_get'] = error(s3[B].get_object, Bucket='taken-name', Key='shared/x')
s3[A].put_bucket_policy(Bucket='taken-name', Policy=json.dumps({'Version': '2012-10-17', 'Statement': [
    {'Effect': 'Allow', 'Principal': {'AWS': 'arn:aws:iam::' + B + ':root'}, 'Action': 's3:GetObject',
     'Resource': 'arn:aws:s3:::taken-name/shared/*'}]}))
out['b_get_granted'] = s3[B].get_object(Bucket='taken-name', Key='shared/x')['Body'].read().decode()
out['b_put_not_granted'] = error(s3[B].put_object, Bucket='taken-name', Key='shared/y', Body=b'y')
out['b_policy'] = error(s3[B].get_bucket_policy, Bucket='taken-name')
print(json.dumps(out))
)");
  CHECK(r["queues"] == json::parse(R"(["https://sqs.us-east-1.amazonaws.com/111111111111/jobs",
                                       "https://sqs.us-east-1.amazonaws.com/222222222222/jobs"])"));
  CHECK(r["queues_listed"] == json::parse(R"([["https://sqs.us-east-1.amazonaws.com/111111111111/jobs"],
                                              ["https://sqs.us-east-1.amazonaws.com/222222222222/jobs"], []])"));
  CHECK(r["b_messages"] == json::parse("[]"));
  CHECK(r["a_messages"] == json::parse(R"(["for a"])"));
  CHECK(r["b_sends_to_a"]["Code"] == "QueueDoesNotExist");  // the code serve answers SQS's JSON protocol with
  CHECK(r["b_sends_to_a"]["Message"] == "The specified queue does not exist.");
  CHECK(r["parameters"] == json::parse(R"(["db-of-111111111111", "db-of-222222222222"])"));
  CHECK(r["parameters_listed"] == json::parse(R"([["/app/db", "/app/only-a"], ["/app/db"]])"));
  CHECK(r["b_reads_a_only"] == json::parse(R"({"Code": "ParameterNotFound", "Message": "", "Status": 400})"));
  CHECK(r["roles"] == json::parse(R"(["arn:aws:iam::111111111111:role/app", "arn:aws:iam::222222222222:role/app"])"));
  CHECK(r["roles_listed"] == json::parse(R"([["arn:aws:iam::111111111111:role/app", "arn:aws:iam::111111111111:role/only-a"],
                                             ["arn:aws:iam::222222222222:role/app"]])"));
  CHECK(r["role_other_region"] == "arn:aws:iam::111111111111:role/only-a");
  CHECK(r["b_role_only_a"] == json::parse(R"({"Code": "NoSuchEntity",
      "Message": "The role with name only-a cannot be found.", "Status": 404})"));
  CHECK(r["groups_distinct"] == true);
  CHECK(r["groups_listed"] == json::parse(R"([[[true, "111111111111"]], [[true, "222222222222"]]])"));
  CHECK(r["b_group_of_a"] == json::parse(R"({"Code": "InvalidGroup.NotFound",
      "Message": "The security group 'SG' does not exist", "Status": 400})"));
  CHECK(r["b_bucket"] == json::parse(R"({"Code": "BucketAlreadyExists", "Message":
      "The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.",
      "Status": 409})"));
  CHECK(r["a_again"] == "/taken-name");
  CHECK(r["buckets"] == json::parse(R"([["taken-name"], []])"));
  // Another account's bucket: S3's 403 (a HEAD has no body: botocore names it by the status),
  // then what the bucket policy grants, and nothing more.
  CHECK(r["b_head"] == json::parse(R"({"Code": "403", "Message": "Forbidden", "Status": 403})"));
  CHECK(r["b_get"] == json::parse(R"({"Code": "AccessDenied", "Message": "Access Denied", "Status": 403})"));
  CHECK(r["b_get_granted"] == "x");
  CHECK(r["b_put_not_granted"] == json::parse(R"({"Code": "AccessDenied", "Message": "Access Denied", "Status": 403})"));
  CHECK(r["b_policy"] == json::parse(R"({"Code": "AccessDenied", "Message": "Access Denied", "Status": 403})"));
}

TEST_CASE("boto3: a stack of one account naming another account's resources or templates fails as on AWS", "[server][regions][accounts]") {
  Server server("accounts_sim_stacks", "0");
  json r = server.Python(R"(
A, B = '111111111111', '222222222222'
out = {}
client('ssm', A).put_parameter(Name='/app/only-a', Value='v', Type='String')
group = client('ec2', A).create_security_group(GroupName='web', Description='web')['GroupId']
queue = client('sqs', A).create_queue(QueueName='only-a')['QueueUrl']
cfa, cfb = client('cloudformation', A), client('cloudformation', B)
ssm_body = json.dumps({'Parameters': {'P': {'Type': 'AWS::SSM::Parameter::Value<String>', 'Default': '/app/only-a'}},
                       'Resources': {'T': {'Type': 'AWS::SNS::Topic'}}})
sg_body = json.dumps({'Parameters': {'G': {'Type': 'AWS::EC2::SecurityGroup::Id', 'Default': group}},
                      'Resources': {'T': {'Type': 'AWS::SNS::Topic'}}})
def events(name):
    try:
        cfb.get_waiter('stack_create_complete').wait(StackName=name, WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
    except botocore.exceptions.WaiterError:
        pass
    return [[e['LogicalResourceId'], e['ResourceStatus'], e.get('ResourceStatusReason', '').replace(group, 'SG')]
            for e in cfb.describe_stack_events(StackName=name)['StackEvents'][::-1]]
out['b_ssm'] = error(cfb.create_stack, StackName='s', TemplateBody=ssm_body)
# An AWS-specific parameter value is checked when the workflow starts (operation.cc).
cfb.create_stack(StackName='sg', TemplateBody=sg_body)
out['b_sg'] = events('sg')
# In the account that has them, the same templates deploy.
for name, body in (('ssm', ssm_body), ('sg', sg_body)):
    cfa.create_stack(StackName=name, TemplateBody=body)
    cfa.get_waiter('stack_create_complete').wait(StackName=name, WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
out['a_statuses'] = [cfa.describe_stacks(StackName=n)['Stacks'][0]['StackStatus'] for n in ('ssm', 'sg')]
# A resource that names another account's queue: the queue policy cannot find it.
policy_body = json.dumps({'Resources': {'Policy': {'Type': 'AWS::SQS::QueuePolicy', 'Properties': {
    'Queues': [queue], 'PolicyDocument': {'Version': '2012-10-17', 'Statement': []}}}}})
cfb.create_stack(StackName='policy', TemplateBody=policy_body)
out['b_policy'] = events('policy')
# A template in B's own bucket: B's stack reads it by its TemplateURL.
s3b = client('s3', B)
s3b.create_bucket(Bucket='b-templates')
s3b.put_object(Bucket='b-templates', Key='t.json', Body=json.dumps({'Resources': {'T': {'Type': 'AWS::SNS::Topic'}}}))
cfb.create_stack(StackName='by-url', TemplateURL='https://b-templates.s3.amazonaws.com/t.json')
out['b_by_url'] = [e[1] for e in events('by-url') if e[0] == 'by-url']
# A's bucket: B reads neither a template nor a snippet there until A's policy grants it.
s3a = client('s3', A)
s3a.create_bucket(Bucket='a-templates')
s3a.put_object(Bucket='a-templates', Key='t.json', Body=json.dumps({'Resources': {'T': {'Type': 'AWS::SNS::Topic'}}}))
s3a.put_object(Bucket='a-templates', Key='r.json', Body=json.dumps({'T': {'Type': 'AWS::SNS::Topic'}}))
include_body = json.dumps({'Resources': {'Fn::Transform': {'Name': 'AWS::Include',
                                                           'Parameters': {'Location': 's3://a-templates/r.json'}}}})
a_url = 'https://a-templates.s3.amazonaws.com/t.json'
out['b_a_url'] = error(cfb.create_stack, StackName='a-url', TemplateURL=a_url)
out['b_a_include'] = error(cfb.create_stack, StackName='a-include', TemplateBody=include_body,
                           Capabilities=['CAPABILITY_AUTO_EXPAND'])
out['b_refused_stacks'] = [s['StackName'] for s in cfb.list_stacks()['StackSummaries'] if s['StackName'].startswith('a-')]
s3a.put_bucket_policy(Bucket='a-templates', Policy=json.dumps({'Version': '2012-10-17', 'Statement': [
    {'Effect': 'Allow', 'Principal': {'AWS': B}, 'Action': 's3:GetObject', 'Resource': 'arn:aws:s3:::a-templates/*'}]}))
cfb.create_stack(StackName='a-url', TemplateURL=a_url)
cfb.create_stack(StackName='a-include', TemplateBody=include_body, Capabilities=['CAPABILITY_AUTO_EXPAND'])
out['b_granted'] = [[e[1] for e in events(n) if e[0] == n] for n in ('a-url', 'a-include')]
# GetTemplate's stages through the API: the stack's, and a change set's.
out['stages'] = [cfb.get_template(StackName='a-include', **stage)['TemplateBody']
                 for stage in ({}, {'TemplateStage': 'Processed'}, {'TemplateStage': 'Original'})]
cfb.create_change_set(StackName='cs-include', ChangeSetName='c', ChangeSetType='CREATE', TemplateBody=include_body)
out['cs_stages'] = [cfb.get_template(StackName='cs-include', ChangeSetName='c', **stage)['TemplateBody']
                    for stage in ({}, {'TemplateStage': 'Original'})]
out['bad_stage'] = error(cfb.get_template, StackName='a-include', TemplateStage='Both')
# GetTemplateSummary declares an include without reading it (an object nobody may read).
summary = cfb.get_template_summary(TemplateBody=json.dumps({'Resources': {
    'Queue': {'Type': 'AWS::SQS::Queue'}, 'Role': {'Type': 'AWS::IAM::Role', 'Properties': {'RoleName': 'r'}},
    'Fn::Transform': {'Name': 'AWS::Include', 'Parameters': {'Location': 's3://a-templates/none.json'}}}}))
out['summary'] = {k: summary.get(k) for k in ('ResourceTypes', 'DeclaredTransforms', 'Capabilities')}
print(json.dumps(out))
)");
  CHECK(r["b_ssm"] == json::parse(R"({"Code": "ValidationError",
      "Message": "Unable to fetch parameters [/app/only-a] from parameter store for this account.", "Status": 400})"));
  CHECK(r["b_sg"] == json::parse(R"([
      ["sg", "CREATE_IN_PROGRESS", "User Initiated"],
      ["sg", "ROLLBACK_IN_PROGRESS", "Parameter validation failed: parameter value SG for parameter name G does not exist"],
      ["sg", "ROLLBACK_COMPLETE", ""]])"));
  CHECK(r["a_statuses"] == json::parse(R"(["CREATE_COMPLETE", "CREATE_COMPLETE"])"));
  CHECK(r["b_policy"] == json::parse(R"([
      ["policy", "CREATE_IN_PROGRESS", "User Initiated"],
      ["Policy", "CREATE_IN_PROGRESS", ""],
      ["Policy", "CREATE_FAILED", "The specified queue does not exist."],
      ["policy", "ROLLBACK_IN_PROGRESS", "The following resource(s) failed to create: [Policy]. "],
      ["Policy", "DELETE_COMPLETE", ""],
      ["policy", "ROLLBACK_COMPLETE", ""]])"));
  CHECK(r["b_by_url"] == json::parse(R"(["CREATE_IN_PROGRESS", "CREATE_COMPLETE"])"));
  // The stack's account reads the object (host s3_object): not the bucket's owner.
  CHECK(r["b_a_url"] == json::parse(R"({"Code": "ValidationError", "Message":
      "S3 error: Access Denied For more information check http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html",
      "Status": 400})"));
  CHECK(r["b_a_include"] == json::parse(R"({"Code": "ValidationError",
      "Message": "Transform AWS::Include failed with: Access Denied", "Status": 400})"));
  CHECK(r["b_refused_stacks"] == json::parse("[]"));
  CHECK(r["b_granted"] == json::parse(R"([["CREATE_IN_PROGRESS", "CREATE_COMPLETE"], ["CREATE_IN_PROGRESS", "CREATE_COMPLETE"]])"));
  const json processed = json::parse(R"({"Resources": {"T": {"Type": "AWS::SNS::Topic"}}})");
  const json original = json::parse(R"({"Resources": {"Fn::Transform": {"Name": "AWS::Include",
                                                      "Parameters": {"Location": "s3://a-templates/r.json"}}}})");
  CHECK(r["stages"] == json::array({processed, processed, original}));
  CHECK(r["cs_stages"] == json::array({processed, original}));
  CHECK(r["summary"] == json::parse(R"({"ResourceTypes": ["AWS::SQS::Queue", "AWS::IAM::Role"],
                                        "DeclaredTransforms": ["AWS::Include"], "Capabilities": null})"));
  CHECK(r["bad_stage"] == json::parse(R"({"Code": "ValidationError", "Message": "1 validation error detected: Value 'Both' at 'templateStage' failed to satisfy constraint: Member must satisfy enum value set: [Original, Processed]", "Status": 400})"));
}

TEST_CASE("serve: a function of another account than the default makes its SDK calls in its account", "[server][lambda][accounts]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("accounts_sim_lambda");
  json r = server.Python(R"(
import time
B = '222222222222'
code = '''import boto3, cfnresponse
def handler(event, context):
    sqs = boto3.client('sqs')
    if event['RequestType'] == 'Create':
        url = sqs.create_queue(QueueName='made-by-a-function')['QueueUrl']
        cfnresponse.send(event, context, cfnresponse.SUCCESS, {'Url': url}, url)
    else:
        cfnresponse.send(event, context, cfnresponse.SUCCESS, {}, event['PhysicalResourceId'])
'''
template = json.dumps({'Resources': {
    'Fn': {'Type': 'AWS::Lambda::Function', 'Properties': {'FunctionName': 'sdk-fn', 'Runtime': 'python3.12',
           'Handler': 'index.handler', 'Role': 'arn:aws:iam::222222222222:role/r', 'Timeout': 30,
           'Code': {'ZipFile': code}}},
    'Queue': {'Type': 'Custom::Queue', 'Properties': {'ServiceToken': {'Fn::GetAtt': ['Fn', 'Arn']}}}},
    'Outputs': {'Url': {'Value': {'Fn::GetAtt': ['Queue', 'Url']}}}})
cfb = client('cloudformation', B)
lambda_role('r', B)
cfb.create_stack(StackName='s', TemplateBody=template)
for _ in range(600):
    stack = cfb.describe_stacks(StackName='s')['Stacks'][0]
    if not stack['StackStatus'].endswith('IN_PROGRESS'): break
    time.sleep(0.05)
print(json.dumps({'status': stack['StackStatus'], 'outputs': [o['OutputValue'] for o in stack.get('Outputs', [])],
                  'b_queues': client('sqs', B).list_queues().get('QueueUrls', []),
                  'default_queues': client('sqs', 'AKIDEXAMPLE').list_queues().get('QueueUrls', [])}))
)");
  CHECK(r["status"] == "CREATE_COMPLETE");
  CHECK(r["outputs"] == json::parse(R"(["https://sqs.us-east-1.amazonaws.com/222222222222/made-by-a-function"])"));
  CHECK(r["b_queues"] == json::parse(R"(["https://sqs.us-east-1.amazonaws.com/222222222222/made-by-a-function"])"));
  CHECK(r["default_queues"] == json::parse("[]"));
}
