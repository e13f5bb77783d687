// The account a request is for comes from its access key ID when that is
// 12 digits (as LocalStack reads it), else 123456789012: stacks are per
// account as they are per region (records/stack_scope.h), the stack ARN
// carries the account, STS GetCallerIdentity answers it; and the simulated
// services' endpoints refuse a credential scope's unknown region as
// CloudFormation's does (base/regions.h). And NotificationARNs through the
// Query API: shown, kept by an update without them, removed by an empty list.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

TEST_CASE("boto3: a 12-digit access key ID is the account, stacks are per account", "[server][regions]") {
  Server server("accounts", "0");
  json r = server.Python(R"(
one, two, other = (client('cloudformation', k) for k in ('111111111111', '222222222222', 'AKIDEXAMPLE'))
body = json.dumps({'Resources': {'Topic': {'Type': 'AWS::SNS::Topic'}},
                   'Outputs': {'Out': {'Value': {'Ref': 'Topic'}, 'Export': {'Name': 'shared'}}}})
def wait(c, name='web'):
    c.get_waiter('stack_create_complete').wait(StackName=name, WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
out = {}
topic = 'arn:aws:sns:us-east-1:111111111111:ops'
ids = [c.create_stack(StackName='web', TemplateBody=body, NotificationARNs=[topic])['StackId'] for c in (one, two, other)]
for c in (one, two, other): wait(c)
out['accounts'] = [i.split(':')[4] for i in ids]
out['listed'] = [[s['StackId'].split(':')[4] for s in c.list_stacks()['StackSummaries']] for c in (one, two, other)]
out['topics'] = [c.describe_stacks(StackName='web')['Stacks'][0]['Outputs'][0]['OutputValue'].split(':')[4]
                 for c in (one, two, other)]
out['exports'] = [[e['ExportingStackId'].split(':')[4] for e in c.list_exports()['Exports']] for c in (one, two)]
out['other_account_arn'] = error(one.describe_stacks, StackName=ids[1])
out['notifications'] = one.describe_stacks(StackName='web')['Stacks'][0]['NotificationARNs']
# UpdateStack's NotificationARNs=[] (sent as an empty member list) removes them; none given keeps them.
one.update_stack(StackName='web', UsePreviousTemplate=True, Tags=[{'Key': 'k', 'Value': 'v'}])
one.get_waiter('stack_update_complete').wait(StackName='web', WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
out['kept'] = one.describe_stacks(StackName='web')['Stacks'][0]['NotificationARNs']
one.update_stack(StackName='web', UsePreviousTemplate=True, NotificationARNs=[], Tags=[])
one.get_waiter('stack_update_complete').wait(StackName='web', WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
out['removed'] = one.describe_stacks(StackName='web')['Stacks'][0]['NotificationARNs']
out['sts'] = [client('sts', k).get_caller_identity()['Account'] for k in ('333333333333', 'AKIDEXAMPLE')]
out['sqs_bad_region'] = error(client('sqs', '111111111111', 'us-moon-1').list_queues)
out['sts_bad_region'] = error(client('sts', 'AKIDEXAMPLE', 'eu-moon-2').get_caller_identity)
one.delete_stack(StackName='web')
one.get_waiter('stack_delete_complete').wait(StackName='web', WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
out['after_delete'] = [c.describe_stacks(StackName='web')['Stacks'][0]['StackStatus'] for c in (two, other)]
print(json.dumps(out))
)");
  CHECK(r["accounts"] == json::parse(R"(["111111111111", "222222222222", "123456789012"])"));
  CHECK(r["listed"] == json::parse(R"([["111111111111"], ["222222222222"], ["123456789012"]])"));
  CHECK(r["topics"] == json::parse(R"(["111111111111", "222222222222", "123456789012"])"));  // the sim's ARNs
  CHECK(r["exports"] == json::parse(R"([["111111111111"], ["222222222222"]])"));
  CHECK(r["other_account_arn"]["Code"] == "ValidationError");
  CHECK(r["other_account_arn"]["Message"].get<std::string>().rfind(
            "Stack with id arn:aws:cloudformation:us-east-1:222222222222:stack/web/", 0) == 0);
  CHECK(r["notifications"] == json::parse(R"(["arn:aws:sns:us-east-1:111111111111:ops"])"));
  CHECK(r["kept"] == json::parse(R"(["arn:aws:sns:us-east-1:111111111111:ops"])"));
  CHECK(r["removed"] == json::parse("[]"));
  CHECK(r["sts"] == json::parse(R"(["333333333333", "123456789012"])"));
  CHECK(r["sqs_bad_region"] == json::parse(R"({"Code": "SignatureDoesNotMatch",
      "Message": "Credential should be scoped to a valid region, not 'us-moon-1'. ", "Status": 403})"));
  CHECK(r["sts_bad_region"] == json::parse(R"({"Code": "SignatureDoesNotMatch",
      "Message": "Credential should be scoped to a valid region, not 'eu-moon-2'. ", "Status": 403})"));
  CHECK(r["after_delete"] == json::parse(R"(["CREATE_COMPLETE", "CREATE_COMPLETE"])"));
}
