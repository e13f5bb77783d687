// The simulated Step Functions over its AWS protocol (JSON, target prefix
// AWSStepFunctions) and AWS::StepFunctions::StateMachine: a machine from a
// template whose DefinitionString is an Fn::Join (as CDK writes it), an
// execution through boto3 that runs Pass, Choice and Fail states, Step
// Functions' errors, the definition updated in place (a Definition object),
// the machine gone with the stack.
#include "server_fixture.h"

namespace ms::test::server {

TEST_CASE("serve: Step Functions state machines from a stack, executions through boto3", "[server][aws][states]") {
  Server s("states", "0");
  const json r = s.Python(R"(
import time
sfn = boto3.client('stepfunctions', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')

def settle(name):
    for _ in range(400):
        stack = cf.describe_stacks(StackName=name)['Stacks'][0]
        if not stack['StackStatus'].endswith('IN_PROGRESS'):
            return stack['StackStatus'], {o['OutputKey']: o['OutputValue'] for o in stack.get('Outputs', [])}
        time.sleep(0.05)

def stack_template(definition):
    return json.dumps({'Resources': {'Machine': {'Type': 'AWS::StepFunctions::StateMachine', 'Properties': dict(
        definition, RoleArn='arn:aws:iam::123456789012:role/sfn', StateMachineName='greeter')}},
        'Outputs': {'Arn': {'Value': {'Ref': 'Machine'}}, 'Name': {'Value': {'Fn::GetAtt': ['Machine', 'Name']}}}})

joined = {'DefinitionString': {'Fn::Join': ['', [
    '{"StartAt":"Greet","States":{"Greet":{"Type":"Pass","Parameters":{"greeting.$":"$.name"},"ResultPath":"$.out",',
    '"Next":"Known?"},"Known?":{"Type":"Choice","Choices":[{"Variable":"$.name","StringEquals":"world","Next":"Done"}],',
    '"Default":"Unknown"},"Done":{"Type":"Succeed","OutputPath":"$.out"},',
    '"Unknown":{"Type":"Fail","Error":"Unknown","Cause":"', {'Ref': 'AWS::Region'}, '"}}}']]}}
cf.create_stack(StackName='sfn', TemplateBody=stack_template(joined))
result = {'create': settle('sfn')}
arn = result['create'][1]['Arn']
ok = sfn.start_execution(stateMachineArn=arn, name='first', input='{"name": "world"}')['executionArn']
bad = sfn.start_execution(stateMachineArn=arn, input='{"name": "moon"}')['executionArn']
def brief(e):
    return {k: e.get(k) for k in ('name', 'status', 'output', 'error', 'cause')}
result['ok'] = brief(sfn.describe_execution(executionArn=ok))
result['bad'] = brief(sfn.describe_execution(executionArn=bad))
result['listed'] = sorted(e['status'] for e in sfn.list_executions(stateMachineArn=arn)['executions'])
result['errors'] = [
    error(sfn.start_execution, stateMachineArn=arn, name='first'),
    error(sfn.describe_execution, executionArn=arn.replace('stateMachine', 'execution') + ':nope'),
    error(sfn.create_state_machine, name='broken', roleArn='arn:aws:iam::123456789012:role/sfn', definition='{"StartAt":"X","States":{}}'),
]
cf.update_stack(StackName='sfn', TemplateBody=stack_template(
    {'Definition': {'StartAt': 'Only', 'States': {'Only': {'Type': 'Pass', 'Result': 'replaced', 'End': True}}}}))
result['update'] = settle('sfn')[0]
result['definition'] = sfn.describe_state_machine(stateMachineArn=arn)['definition']
e = sfn.start_execution(stateMachineArn=arn, input='{}')['executionArn']
result['after_update'] = sfn.describe_execution(executionArn=e)['output']
cf.delete_stack(StackName='sfn')
for _ in range(400):
    if error(cf.describe_stacks, StackName='sfn'):
        break
    time.sleep(0.05)
result['after_delete'] = error(sfn.describe_state_machine, stateMachineArn=arn)
print(json.dumps(result))
)");
  INFO(r.dump(1));
  const std::string arn = "arn:aws:states:us-east-1:123456789012:stateMachine:greeter";
  CHECK(r["create"] == json::array({"CREATE_COMPLETE", {{"Arn", arn}, {"Name", "greeter"}}}));
  CHECK(r["ok"] == json({{"name", "first"}, {"status", "SUCCEEDED"}, {"output", R"({"greeting":"world"})"},
                         {"error", nullptr}, {"cause", nullptr}}));
  CHECK(r["bad"]["status"] == "FAILED");
  CHECK(r["bad"]["error"] == "Unknown");
  CHECK(r["bad"]["cause"] == "us-east-1");  // the Fn::Join's Ref, resolved
  CHECK(r["listed"] == json::array({"FAILED", "SUCCEEDED"}));
  CHECK(r["errors"][0] == json({{"Code", "ExecutionAlreadyExists"}, {"Message", "Execution Already Exists: '"
                                "arn:aws:states:us-east-1:123456789012:execution:greeter:first'"}, {"Status", 400}}));
  CHECK(r["errors"][1] == json({{"Code", "ExecutionDoesNotExist"}, {"Message", "Execution Does Not Exist: '"
                                "arn:aws:states:us-east-1:123456789012:execution:greeter:nope'"}, {"Status", 400}}));
  CHECK(r["errors"][2] == json({{"Code", "InvalidDefinition"}, {"Message", "Invalid State Machine Definition: "
                                "'MISSING_TRANSITION_TARGET: StartAt names no state'"}, {"Status", 400}}));
  CHECK(r["update"] == "UPDATE_COMPLETE");
  CHECK(r["definition"] == R"({"StartAt":"Only","States":{"Only":{"End":true,"Result":"replaced","Type":"Pass"}}})");
  CHECK(r["after_update"] == R"("replaced")");
  CHECK(r["after_delete"] == json({{"Code", "StateMachineDoesNotExist"}, {"Message", "State Machine Does Not Exist: '" +
                                    arn + "'"}, {"Status", 400}}));
}

}  // namespace ms::test::server
