// CloudFormation's operation IDs and pre-deployment validation through
// `moonstack serve`, driven by boto3: CreateStack's and UpdateStack's
// OperationId, the events that carry it, DescribeStacks' LastOperations,
// DescribeEvents, and change sets that fail early validation
// (stack/early_validation.h) with nothing created.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

namespace {

// Waits for a stack to leave its *_IN_PROGRESS status (virtual time: fast).
const char* kWait = R"(
import time
def settle(name):
    for _ in range(400):
        s = cf.describe_stacks(StackName=name)['Stacks'][0]
        if not s['StackStatus'].endswith('_IN_PROGRESS'):
            return s
        time.sleep(0.05)
    raise Exception('stack %s never settled' % name)
)";

}  // namespace

TEST_CASE("serve: every stack operation has an ID that its events carry and LastOperations lists newest first",
          "[server][operations]") {
  Server server("operation_ids", "0");
  json r = server.Python(std::string(kWait) + R"(
bad = {'Resources': {
  'Good': {'Type': 'AWS::SSM::Parameter', 'Properties': {'Type': 'String', 'Value': 'v'}},
  'Bad': {'Type': 'AWS::SSM::Parameter', 'Properties': {'Type': 'String', 'Value': 'v', 'AllowedPattern': '^z$'}}}}
out = {}
created = cf.create_stack(StackName='ops', TemplateBody=json.dumps(bad))
create_op = created['OperationId']
s = settle('ops')
out['status'] = s['StackStatus']
ops = s['LastOperations']
out['last'] = [o['OperationType'] for o in ops]
out['create_is_last'] = ops[1]['OperationId'] == create_op
rollback_op = ops[0]['OperationId']
events = list(reversed(cf.describe_stack_events(StackName='ops')['StackEvents']))
out['events'] = [(e['LogicalResourceId'], e['ResourceStatus'],
                  'create' if e['OperationId'] == create_op else 'rollback' if e['OperationId'] == rollback_op else '?')
                 for e in events]
# DeletionTime: when the rollback began deleting what the create made (AWS shows it from ROLLBACK_IN_PROGRESS on).
began = [e['Timestamp'] for e in events if e['ResourceStatus'] == 'ROLLBACK_IN_PROGRESS'][0]
out['deletion_time'] = [s.get('DeletionTime') == began,
                        [x for x in cf.list_stacks()['StackSummaries'] if x['StackName'] == 'ops'][0].get('DeletionTime') == began]
# DescribeEvents: every operation's events, newest first, typed; an operation alone; the failures alone.
all_events = cf.describe_events(StackName='ops')['OperationEvents']
out['all'] = [(e['OperationType'], e['EventType'], e['LogicalResourceId'], e.get('ResourceStatus'),
               e.get('OperationStatus')) for e in reversed(all_events)]
one = cf.describe_events(OperationId=create_op)['OperationEvents']
out['one'] = [sorted(set(e['OperationId'] for e in one)) == [create_op], len(one)]
failed = cf.describe_events(StackName='ops', Filters={'FailedEvents': True})['OperationEvents']
out['failed'] = [(e['EventType'], e['LogicalResourceId'], e['ResourceStatus']) for e in failed]
out['unknown_operation'] = error(cf.describe_events, OperationId='8a3f4b7e-0000-4000-8000-000000000000')
out['nothing_named'] = error(cf.describe_events)
cf.delete_stack(StackName='ops')
s = settle(created['StackId'])
out['after_delete'] = [o['OperationType'] for o in s['LastOperations']]
summary = [x for x in cf.list_stacks()['StackSummaries'] if x['StackName'] == 'ops'][0]
out['summary'] = [o['OperationType'] for o in summary['LastOperations']]
# An operation the stack's LastOperations no longer lists, by its ID alone.
older = cf.describe_events(OperationId=create_op)['OperationEvents']
out['older'] = [sorted(set((e['OperationId'], e['OperationType']) for e in older)) == [(create_op, 'CREATE_STACK')],
                len(older)]
good = {'Resources': {'Good': bad['Resources']['Good']}}
created = cf.create_stack(StackName='ops2', TemplateBody=json.dumps(good))
settle('ops2')
good['Resources']['Good']['Properties']['Value'] = 'w'
updated = cf.update_stack(StackName='ops2', TemplateBody=json.dumps(good))
s = settle('ops2')
out['update'] = [[o['OperationType'] for o in s['LastOperations']],
                 s['LastOperations'][0]['OperationId'] == updated['OperationId'],
                 updated['OperationId'] != created['OperationId'], 'DeletionTime' in s]
first = cf.describe_events(OperationId=created['OperationId'])['OperationEvents']
out['first_of_updated'] = [sorted(set(e['OperationType'] for e in first)), first[0]['ResourceStatus'], len(first)]
import urllib.request
urllib.request.urlopen(urllib.request.Request(cf.meta.endpoint_url + '/moonstack/reset', method='POST')).read()
out['after_reset'] = error(cf.describe_events, OperationId=created['OperationId'])
print(json.dumps(out))
)");
  CHECK(r["status"] == "ROLLBACK_COMPLETE");
  CHECK(r["last"] == json::array({"ROLLBACK", "CREATE_STACK"}));
  CHECK(r["create_is_last"] == true);
  CHECK(r["deletion_time"] == json::array({true, true}));
  CHECK(r["events"] == json::parse(R"([
    ["ops", "CREATE_IN_PROGRESS", "create"], ["Good", "CREATE_IN_PROGRESS", "create"],
    ["Bad", "CREATE_IN_PROGRESS", "create"], ["Good", "CREATE_IN_PROGRESS", "create"],
    ["Good", "CREATE_COMPLETE", "create"], ["Bad", "CREATE_FAILED", "create"],
    ["ops", "ROLLBACK_IN_PROGRESS", "rollback"], ["Bad", "DELETE_COMPLETE", "rollback"],
    ["Good", "DELETE_IN_PROGRESS", "rollback"], ["Good", "DELETE_COMPLETE", "rollback"],
    ["ops", "ROLLBACK_COMPLETE", "rollback"]])"));
  CHECK(r["all"] == json::parse(R"([
    ["CREATE_STACK", "STACK_EVENT", "ops", "CREATE_IN_PROGRESS", "IN_PROGRESS"],
    ["CREATE_STACK", "PROGRESS", "Good", "CREATE_IN_PROGRESS", null],
    ["CREATE_STACK", "PROGRESS", "Bad", "CREATE_IN_PROGRESS", null],
    ["CREATE_STACK", "PROGRESS", "Good", "CREATE_IN_PROGRESS", null],
    ["CREATE_STACK", "PROGRESS", "Good", "CREATE_COMPLETE", null],
    ["CREATE_STACK", "PROVISIONING_ERROR", "Bad", "CREATE_FAILED", null],
    ["ROLLBACK", "STACK_EVENT", "ops", "ROLLBACK_IN_PROGRESS", "IN_PROGRESS"],
    ["ROLLBACK", "PROGRESS", "Bad", "DELETE_COMPLETE", null],
    ["ROLLBACK", "PROGRESS", "Good", "DELETE_IN_PROGRESS", null],
    ["ROLLBACK", "PROGRESS", "Good", "DELETE_COMPLETE", null],
    ["ROLLBACK", "STACK_EVENT", "ops", "ROLLBACK_COMPLETE", "SUCCEEDED"]])"));
  CHECK(r["one"] == json::parse(R"([true, 6])"));
  CHECK(r["failed"] == json::parse(R"([["PROVISIONING_ERROR", "Bad", "CREATE_FAILED"]])"));
  CHECK(r["unknown_operation"]["Message"] == "Operation ID does not exist");
  CHECK(r["nothing_named"]["Message"] == "One of ChangeSetName, OperationId or StackName must be specified");
  CHECK(r["after_delete"] == json::array({"DELETE_STACK"}));
  CHECK(r["summary"] == json::array({"DELETE_STACK"}));  // ListStacks' summaries carry them too
  CHECK(r["update"] == json::parse(R"([["UPDATE_STACK"], true, true, false])"));
  CHECK(r["older"] == json::parse(R"([true, 6])"));  // the deleted stack's create, as before its delete
  CHECK(r["first_of_updated"] == json::parse(R"([["CREATE_STACK"], "CREATE_COMPLETE", 5])"));
  CHECK(r["after_reset"]["Message"] == "Operation ID does not exist");
}

TEST_CASE("serve: a change set whose bucket name is taken or whose properties the schema refuses fails early "
          "validation and creates nothing",
          "[server][operations]") {
  Server server("early_validation", "0");
  json r = server.Python(std::string(kWait) + R"(
s3 = client('s3', 'x')
logs = client('logs', 'x')
iam = client('iam', 'x')
s3.create_bucket(Bucket='taken-bucket')
t = {'Resources': {
  'Bucket': {'Type': 'AWS::S3::Bucket', 'Properties': {'BucketName': 'taken-bucket'}},
  'Logs': {'Type': 'AWS::Logs::LogGroup', 'Properties': {'LogGroupName': 'app', 'RetentionInDays': 42}}}}
out = {}
cs = cf.create_change_set(StackName='ev', ChangeSetName='first', ChangeSetType='CREATE', TemplateBody=json.dumps(t))
d = cf.describe_change_set(ChangeSetName=cs['Id'])
out['change_set'] = [d['Status'], d['ExecutionStatus'], d['StatusReason']]
ev = cf.describe_events(ChangeSetName='first', StackName='ev')['OperationEvents']
out['events'] = [{k: e.get(k) for k in ('OperationType', 'OperationStatus', 'EventType', 'LogicalResourceId',
                                        'ResourceType', 'ValidationName', 'ValidationFailureMode',
                                        'ValidationStatus', 'ValidationStatusReason', 'ValidationPath')}
                 for e in ev]
out['same_operation'] = len(set(e['OperationId'] for e in ev)) == 1
out['stack'] = [cf.describe_stacks(StackName='ev')['Stacks'][0]['StackStatus'],
                [e['ResourceStatus'] for e in cf.describe_stack_events(StackName='ev')['StackEvents']]]
out['execute'] = error(cf.execute_change_set, ChangeSetName=cs['Id'])['Message'] == (
    'ChangeSet [%s] cannot be executed in its current status of [FAILED]' % cs['Id'])
out['log_groups'] = [g['logGroupName'] for g in logs.describe_log_groups()['logGroups']]
# Fixed, it passes; executed, it creates both.
t['Resources']['Bucket']['Properties']['BucketName'] = 'free-bucket'
t['Resources']['Logs']['Properties']['RetentionInDays'] = 30
cs = cf.create_change_set(StackName='ev', ChangeSetName='second', ChangeSetType='CREATE', TemplateBody=json.dumps(t))
d = cf.describe_change_set(ChangeSetName=cs['Id'])
out['fixed'] = [d['Status'], d['ExecutionStatus'], d.get('StatusReason')]
out['fixed_events'] = [(e['EventType'], e.get('OperationStatus')) for e in
                       cf.describe_events(ChangeSetName=cs['Id'])['OperationEvents']]
cf.execute_change_set(ChangeSetName=cs['Id'])
out['created'] = settle('ev')['StackStatus']
# An UPDATE change set adding a role whose name IAM holds fails the same way; the stack is untouched.
iam.create_role(RoleName='taken-role', AssumeRolePolicyDocument='{"Version":"2012-10-17","Statement":[]}')
t['Resources']['Role'] = {'Type': 'AWS::IAM::Role', 'Properties': {'RoleName': 'taken-role',
    'AssumeRolePolicyDocument': {'Version': '2012-10-17', 'Statement': []}}}
cs = cf.create_change_set(StackName='ev', ChangeSetName='third', TemplateBody=json.dumps(t),
                          Capabilities=['CAPABILITY_NAMED_IAM'])
d = cf.describe_change_set(ChangeSetName=cs['Id'])
out['update'] = [d['Status'], d['StatusReason']]
failed = cf.describe_events(StackName='ev', Filters={'FailedEvents': True})['OperationEvents']
out['failed'] = [(e['OperationType'], e['EventType'], e.get('LogicalResourceId'), e.get('ValidationStatusReason'))
                 for e in failed]
s = cf.describe_stacks(StackName='ev')['Stacks'][0]
out['after'] = [s['StackStatus'], [o['OperationType'] for o in s['LastOperations']]]
print(json.dumps(out))
)");
  const std::string both = "The following hook(s)/validation failed: [AWS::EarlyValidation::ResourceExistenceCheck, "
                           "AWS::EarlyValidation::PropertyValidation]. To troubleshoot Early Validation errors, use "
                           "the DescribeEvents API for detailed failure information.";
  CHECK(r["change_set"] == json::array({"FAILED", "UNAVAILABLE", both}));
  CHECK(r["events"] == json::parse(R"([
    {"OperationType": "CREATE_CHANGESET", "OperationStatus": "FAILED", "EventType": "STACK_EVENT",
     "LogicalResourceId": null, "ResourceType": null, "ValidationName": null, "ValidationFailureMode": null,
     "ValidationStatus": null, "ValidationStatusReason": null, "ValidationPath": null},
    {"OperationType": "CREATE_CHANGESET", "OperationStatus": null, "EventType": "VALIDATION_ERROR",
     "LogicalResourceId": "Logs", "ResourceType": "AWS::Logs::LogGroup", "ValidationName": "PROPERTY_VALIDATION",
     "ValidationFailureMode": "FAIL", "ValidationStatus": "FAILED",
     "ValidationStatusReason": "#/RetentionInDays: failed validation constraint for keyword [enum]",
     "ValidationPath": "/Resources/Logs/Properties/RetentionInDays"},
    {"OperationType": "CREATE_CHANGESET", "OperationStatus": null, "EventType": "VALIDATION_ERROR",
     "LogicalResourceId": "Bucket", "ResourceType": "AWS::S3::Bucket", "ValidationName": "NAME_CONFLICT_VALIDATION",
     "ValidationFailureMode": "FAIL", "ValidationStatus": "FAILED",
     "ValidationStatusReason": "Resource of type 'AWS::S3::Bucket' with identifier 'taken-bucket' already exists.",
     "ValidationPath": "/Resources/Bucket"}])"));
  CHECK(r["same_operation"] == true);
  CHECK(r["stack"] == json::parse(R"(["REVIEW_IN_PROGRESS", ["REVIEW_IN_PROGRESS"]])"));
  CHECK(r["execute"] == true);
  CHECK(r["log_groups"] == json::array());
  CHECK(r["fixed"] == json::parse(R"(["CREATE_COMPLETE", "AVAILABLE", null])"));
  CHECK(r["fixed_events"] == json::parse(R"([["STACK_EVENT", "SUCCEEDED"]])"));
  CHECK(r["created"] == "CREATE_COMPLETE");
  CHECK(r["update"] == json::array({"FAILED",
                                    "The following hook(s)/validation failed: "
                                    "[AWS::EarlyValidation::ResourceExistenceCheck]. To troubleshoot Early "
                                    "Validation errors, use the DescribeEvents API for detailed failure information."}));
  CHECK(r["failed"] == json::parse(R"([
    ["CREATE_CHANGESET", "STACK_EVENT", null, null],
    ["CREATE_CHANGESET", "VALIDATION_ERROR", "Role", "Resource of type 'AWS::IAM::Role' with identifier 'taken-role' already exists."],
    ["CREATE_CHANGESET", "STACK_EVENT", null, null],
    ["CREATE_CHANGESET", "VALIDATION_ERROR", "Logs", "#/RetentionInDays: failed validation constraint for keyword [enum]"],
    ["CREATE_CHANGESET", "VALIDATION_ERROR", "Bucket", "Resource of type 'AWS::S3::Bucket' with identifier 'taken-bucket' already exists."]])"));
  CHECK(r["after"] == json::parse(R"(["CREATE_COMPLETE", ["CREATE_STACK"]])"));
}

TEST_CASE("serve: CreateStack and UpdateStack fail pre-deployment validation before anything is made or changed",
          "[server][operations]") {
  Server server("early_validation_stacks", "0");
  json r = server.Python(std::string(kWait) + R"(
s3 = client('s3', 'x')
sqs = client('sqs', 'x')
s3.create_bucket(Bucket='taken-bucket')
t = {'Resources': {
  'Bucket': {'Type': 'AWS::S3::Bucket', 'Properties': {'BucketName': 'taken-bucket'}},
  'Queue': {'Type': 'AWS::SQS::Queue'},
  'Logs': {'Type': 'AWS::Logs::LogGroup', 'Properties': {'RetentionInDays': 42}}}}
out = {}
created = cf.create_stack(StackName='direct', TemplateBody=json.dumps(t))
s = settle('direct')
out['status'] = [s['StackStatus'], s.get('StackStatusReason'), [o['OperationType'] for o in s['LastOperations']],
                 s['LastOperations'][1]['OperationId'] == created['OperationId']]
out['events'] = [(e['LogicalResourceId'], e['ResourceStatus'], e.get('ResourceStatusReason'))
                 for e in reversed(cf.describe_stack_events(StackName='direct')['StackEvents'])]
out['detailed'] = [e.get('DetailedStatus') for e in reversed(cf.describe_stack_events(StackName='direct')['StackEvents'])]
failed = cf.describe_events(OperationId=created['OperationId'], Filters={'FailedEvents': True})['OperationEvents']
out['failed'] = [(e['EventType'], e['LogicalResourceId'], e.get('ValidationName'), e.get('ValidationPath'))
                 for e in failed]
out['queues'] = sqs.list_queues().get('QueueUrls', [])
out['resources'] = cf.list_stack_resources(StackName='direct')['StackResourceSummaries']
# An update that would add a bucket whose name is taken stops before it changes anything.
good = {'Resources': {'Queue': {'Type': 'AWS::SQS::Queue', 'Properties': {'VisibilityTimeout': 30}}}}
cf.create_stack(StackName='upd', TemplateBody=json.dumps(good))
settle('upd')
before = len(cf.describe_stack_events(StackName='upd')['StackEvents'])
good['Resources']['Queue']['Properties']['VisibilityTimeout'] = 60
good['Resources']['Bucket'] = t['Resources']['Bucket']
updated = cf.update_stack(StackName='upd', TemplateBody=json.dumps(good))
s = settle('upd')
out['update_status'] = [s['StackStatus'], [o['OperationType'] for o in s['LastOperations']]]
events = list(reversed(cf.describe_stack_events(StackName='upd')['StackEvents']))[before:]
out['update_events'] = [(e['LogicalResourceId'], e['ResourceStatus'], e.get('ResourceStatusReason'))
                        for e in events]
url = sqs.get_queue_url(QueueName=[r for r in cf.list_stack_resources(StackName='upd')['StackResourceSummaries']
                                   if r['LogicalResourceId'] == 'Queue'][0]['PhysicalResourceId'].split('/')[-1])['QueueUrl']
out['visibility'] = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=['VisibilityTimeout'])['Attributes']
print(json.dumps(out))
)");
  const std::string failed = "Validation failed with 2 error(s). Call DescribeEvents to retrieve the full list of "
                             "issues with resource and property details, resolve each error, then retry the operation.";
  const std::string rollback = "Validation failure detected. See the operation's FAILED event for details.";
  CHECK(r["status"] == json::parse(R"(["ROLLBACK_COMPLETE", null, ["ROLLBACK", "CREATE_STACK"], true])"));
  CHECK(r["events"] == json::array({json::array({"direct", "CREATE_IN_PROGRESS", "User Initiated"}),
                                    json::array({"direct", "CREATE_FAILED", failed}),
                                    json::array({"direct", "ROLLBACK_IN_PROGRESS", rollback}),
                                    json::array({"direct", "ROLLBACK_COMPLETE", nullptr})}));
  CHECK(r["detailed"] == json::parse(R"([null, "VALIDATION_FAILED", null, null])"));
  CHECK(r["failed"] == json::parse(R"([
    ["PROVISIONING_ERROR", "direct", null, null],
    ["VALIDATION_ERROR", "Logs", "PROPERTY_VALIDATION", "/Resources/Logs/Properties/RetentionInDays"],
    ["VALIDATION_ERROR", "Bucket", "NAME_CONFLICT_VALIDATION", "/Resources/Bucket"]])"));
  CHECK(r["queues"] == json::array());
  CHECK(r["resources"] == json::array());
  const std::string one = "Validation failed with 1 error(s). Call DescribeEvents to retrieve the full list of "
                          "issues with resource and property details, resolve each error, then retry the operation.";
  CHECK(r["update_status"] == json::parse(R"(["UPDATE_ROLLBACK_COMPLETE", ["ROLLBACK", "UPDATE_STACK"]])"));
  CHECK(r["update_events"] == json::array({json::array({"upd", "UPDATE_IN_PROGRESS", "User Initiated"}),
                                           json::array({"upd", "UPDATE_FAILED", one}),
                                           json::array({"upd", "UPDATE_ROLLBACK_IN_PROGRESS", rollback}),
                                           json::array({"upd", "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", nullptr}),
                                           json::array({"upd", "UPDATE_ROLLBACK_COMPLETE", nullptr})}));
  CHECK(r["visibility"] == json::parse(R"({"VisibilityTimeout": "30"})"));
}

TEST_CASE("serve: a change set that would delete a bucket holding objects warns of it and stays executable",
          "[server][operations]") {
  Server server("early_validation_buckets", "0");
  json r = server.Python(std::string(kWait) + R"(
s3 = client('s3', 'x')
t = {'Resources': {
  'Gone': {'Type': 'AWS::S3::Bucket', 'Properties': {'BucketName': 'gone-bucket'}},
  'Kept': {'Type': 'AWS::S3::Bucket', 'DeletionPolicy': 'Retain', 'Properties': {'BucketName': 'kept-bucket'}},
  'Empty': {'Type': 'AWS::S3::Bucket', 'Properties': {'BucketName': 'empty-bucket'}},
  'Param': {'Type': 'AWS::SSM::Parameter', 'Properties': {'Type': 'String', 'Value': 'v'}}}}
cf.create_stack(StackName='buckets', TemplateBody=json.dumps(t))
settle('buckets')
for b in ('gone-bucket', 'kept-bucket'):
    s3.put_object(Bucket=b, Key='k', Body=b'data')
left = {'Resources': {'Param': t['Resources']['Param']}}
cs = cf.create_change_set(StackName='buckets', ChangeSetName='drop', TemplateBody=json.dumps(left))
d = cf.describe_change_set(ChangeSetName=cs['Id'])
out = {'change_set': [d['Status'], d['ExecutionStatus'], d.get('StatusReason')]}
out['events'] = [{k: e.get(k) for k in ('OperationStatus', 'EventType', 'LogicalResourceId', 'ValidationName',
                                        'ValidationFailureMode', 'ValidationStatusReason', 'ValidationPath')}
                 for e in cf.describe_events(ChangeSetName=cs['Id'])['OperationEvents']]
print(json.dumps(out))
)");
  CHECK(r["change_set"] == json::parse(R"(["CREATE_COMPLETE", "AVAILABLE", null])"));
  CHECK(r["events"] == json::parse(R"([
    {"OperationStatus": "SUCCEEDED", "EventType": "STACK_EVENT", "LogicalResourceId": null, "ValidationName": null,
     "ValidationFailureMode": null, "ValidationStatusReason": null, "ValidationPath": null},
    {"OperationStatus": null, "EventType": "VALIDATION_ERROR", "LogicalResourceId": "Gone",
     "ValidationName": "BUCKET_EMPTINESS_VALIDATION", "ValidationFailureMode": "WARN",
     "ValidationStatusReason": "The bucket 'gone-bucket' is not empty. You must either delete all objects and versions or use the deletion policy to retain it, otherwise the delete operation will fail.",
     "ValidationPath": "/Resources/Gone"}])"));
}
