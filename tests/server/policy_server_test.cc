// Stack policies over the Query API with boto3: SetStackPolicy /
// GetStackPolicy in the service model's shapes, StackPolicyBody on
// CreateStack, StackPolicyDuringUpdateBody and StackPolicyBody on
// UpdateStack, AWS's errors; and an UpdatePolicy restriction (seed 003)
// refusing UpdateStack synchronously.
#include "server/server_fixture.h"

using namespace ms::test::server;

TEST_CASE("boto3 sets and gets stack policies, UpdateStack refused by an UpdatePolicy restriction", "[server][policy]") {
  Server server("policy");
  json r = server.Python(R"(
allow = json.dumps({'Statement': [{'Effect': 'Allow', 'Action': 'Update:*', 'Principal': '*', 'Resource': '*'}]})
deny = json.dumps({'Statement': [{'Effect': 'Deny', 'Action': 'Update:*', 'Principal': '*', 'Resource': '*'}]})
waiter = cf.get_waiter('stack_create_complete')
out = {}
cf.create_stack(StackName='plain', TemplateBody=template)
cf.create_stack(StackName='guarded', TemplateBody=template, StackPolicyBody=allow)
waiter.wait(StackName='plain', WaiterConfig={'Delay': 1})
waiter.wait(StackName='guarded', WaiterConfig={'Delay': 1})
out['none'] = 'StackPolicyBody' in cf.get_stack_policy(StackName='plain')
out['created_with'] = cf.get_stack_policy(StackName='guarded')['StackPolicyBody']
out['set'] = [k for k in cf.set_stack_policy(StackName='plain', StackPolicyBody=deny) if k != 'ResponseMetadata']
out['after_set'] = cf.get_stack_policy(StackName='plain')['StackPolicyBody']
out['invalid'] = error(cf.set_stack_policy, StackName='plain', StackPolicyBody='{"Statement": []}')
out['not_json'] = error(cf.set_stack_policy, StackName='plain', StackPolicyBody='abc')
out['principal'] = error(cf.set_stack_policy, StackName='plain', StackPolicyBody=json.dumps(
    {'Statement': [{'Effect': 'Deny', 'Action': 'Update:*', 'Principal': 'me', 'Resource': '*'}]}))
out['both'] = error(cf.set_stack_policy, StackName='plain', StackPolicyBody=allow, StackPolicyURL='https://b.s3.amazonaws.com/p.json')
out['url'] = error(cf.create_stack, StackName='other', TemplateBody=template, StackPolicyURL='https://b.s3.amazonaws.com/p.json')
out['missing'] = error(cf.get_stack_policy, StackName='nope')
out['during_invalid'] = error(cf.update_stack, StackName='plain', TemplateBody=template,
    Parameters=[{'ParameterKey': 'Cidr', 'ParameterValue': '10.9.0.0/16'}], StackPolicyDuringUpdateBody='nope')
out['after_errors'] = cf.get_stack_policy(StackName='plain')['StackPolicyBody']

restricted = json.loads(template)
restricted['Resources']['Vpc']['UpdatePolicy'] = {'Allow': {'Replace': False}}
events = len(cf.describe_stack_events(StackName='plain')['StackEvents'])
out['restricted'] = error(cf.update_stack, StackName='plain', TemplateBody=json.dumps(restricted),
    Parameters=[{'ParameterKey': 'Cidr', 'ParameterValue': '10.9.0.0/16'}])
out['status'] = cf.describe_stacks(StackName='plain')['Stacks'][0]['StackStatus']
out['events_unchanged'] = len(cf.describe_stack_events(StackName='plain')['StackEvents']) == events

cf.update_stack(StackName='guarded', TemplateBody=template, StackPolicyBody=deny,
    Parameters=[{'ParameterKey': 'Cidr', 'ParameterValue': '10.9.0.0/16'}])
cf.get_waiter('stack_update_complete').wait(StackName='guarded', WaiterConfig={'Delay': 1})
out['replaced_by_update'] = cf.get_stack_policy(StackName='guarded')['StackPolicyBody']
print(json.dumps(out))
)");
  const std::string allow = R"({"Statement": [{"Effect": "Allow", "Action": "Update:*", "Principal": "*", "Resource": "*"}]})";
  const std::string deny = R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "*"}]})";
  auto validation = [](const std::string& message) {
    return json{{"Code", "ValidationError"}, {"Message", message}, {"Status", 400}};
  };
  const json invalid = validation("Error validating stack policy: Invalid stack policy");
  CHECK(r["none"] == false);
  CHECK(r["created_with"] == allow);
  CHECK(r["set"] == json::array());  // SetStackPolicy has no output
  CHECK(r["after_set"] == deny);
  CHECK(r["invalid"] == invalid);
  CHECK(r["not_json"] == invalid);
  CHECK(r["principal"] == invalid);
  CHECK(r["both"] == validation("You cannot specify both StackPolicyURL and StackPolicyBody"));
  CHECK(r["url"] == validation("moonstack does not fetch StackPolicyURL: pass the policy as StackPolicyBody (the aws "
                               "CLI: --stack-policy-body file://PATH)"));
  CHECK(r["missing"] == validation("Stack with id nope does not exist"));
  CHECK(r["during_invalid"] == invalid);
  CHECK(r["after_errors"] == deny);
  CHECK(r["restricted"] ==
        validation("Update of resource Vpc is restricted by its UpdatePolicy (Allow.Replace is false)"));
  CHECK(r["status"] == "CREATE_COMPLETE");
  CHECK(r["events_unchanged"] == true);
  CHECK(r["replaced_by_update"] == deny);
}
