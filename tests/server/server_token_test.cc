// `moonstack serve` and ClientRequestToken: a retried CreateStack, UpdateStack
// or DeleteStack is answered as the first request was and starts nothing; a
// token used for another action or stack is TokenAlreadyExistsException —
// as boto3 sees them.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

TEST_CASE("a request retried with its ClientRequestToken starts nothing, a token reused elsewhere is refused",
          "[server]") {
  Server server("token");
  json r = server.Python(R"(
def failure(fn, **kw):
    try:
        fn(**kw)
    except botocore.exceptions.ClientError as e:
        return [type(e).__name__, e.response['Error']['Code'], e.response['Error']['Message'],
                e.response['ResponseMetadata']['HTTPStatusCode']]
    return None

def started(name, status):
    # The operations started on the stack: its "User Initiated" events with that status, and their tokens.
    events = cf.describe_stack_events(StackName=name)['StackEvents']
    return [e.get('ClientRequestToken') for e in events
            if e['ResourceStatus'] == status and e.get('ResourceStatusReason') == 'User Initiated']

wait = {'Delay': 1}
out = {}
out['create'] = cf.create_stack(StackName='web', TemplateBody=template, ClientRequestToken='create-1')['StackId']
out['create_retry'] = cf.create_stack(StackName='web', TemplateBody=template, ClientRequestToken='create-1')['StackId']
cf.get_waiter('stack_create_complete').wait(StackName='web', WaiterConfig=wait)
out['create_retry_done'] = cf.create_stack(StackName='web', TemplateBody=template,
                                           ClientRequestToken='create-1')['StackId']
out['create_started'] = started('web', 'CREATE_IN_PROGRESS')
out['create_tokens'] = sorted(set(e.get('ClientRequestToken') for e in
                                  cf.describe_stack_events(StackName='web')['StackEvents']))
out['no_token'] = failure(cf.create_stack, StackName='web', TemplateBody=template)
out['other_stack'] = failure(cf.create_stack, StackName='other', TemplateBody=template, ClientRequestToken='create-1')
out['other_exists'] = failure(cf.describe_stacks, StackName='other')

new_cidr = [{'ParameterKey': 'Cidr', 'ParameterValue': '10.1.0.0/16'}]
out['noop'] = failure(cf.update_stack, StackName='web', UsePreviousTemplate=True, ClientRequestToken='noop-1')
out['noop_retry'] = failure(cf.update_stack, StackName='web', UsePreviousTemplate=True, ClientRequestToken='noop-1')
out['update_other_action'] = failure(cf.update_stack, StackName='web', UsePreviousTemplate=True,
                                     Parameters=new_cidr, ClientRequestToken='create-1')
out['update'] = cf.update_stack(StackName='web', UsePreviousTemplate=True, Parameters=new_cidr,
                                ClientRequestToken='update-1')['StackId']
out['update_retry'] = cf.update_stack(StackName='web', UsePreviousTemplate=True, Parameters=new_cidr,
                                      ClientRequestToken='update-1')['StackId']
cf.get_waiter('stack_update_complete').wait(StackName='web', WaiterConfig=wait)
out['update_retry_done'] = cf.update_stack(StackName='web', UsePreviousTemplate=True, Parameters=new_cidr,
                                           ClientRequestToken='update-1')['StackId']
out['update_started'] = started('web', 'UPDATE_IN_PROGRESS')

out['delete_other_action'] = failure(cf.delete_stack, StackName='web', ClientRequestToken='update-1')
cf.delete_stack(StackName='web', ClientRequestToken='delete-1')
cf.delete_stack(StackName='web', ClientRequestToken='delete-1')
cf.get_waiter('stack_delete_complete').wait(StackName=out['create'], WaiterConfig=wait)
out['delete_retry_done'] = failure(cf.delete_stack, StackName='web', ClientRequestToken='delete-1')
out['delete_started'] = started(out['create'], 'DELETE_IN_PROGRESS')
out['stacks'] = [s['StackName'] for s in cf.list_stacks()['StackSummaries']]
try:
    cf.create_stack(StackName='again', TemplateBody=template, ClientRequestToken='delete-1')
except cf.exceptions.TokenAlreadyExistsException as e:
    out['modeled'] = type(e).__name__
print(json.dumps(out))
)");
  const std::string id = r["create"];
  CHECK(r["create_retry"] == id);
  CHECK(r["create_retry_done"] == id);
  CHECK(r["create_started"] == json::array({"create-1"}));
  CHECK(r["create_tokens"] == json::array({"create-1"}));  // every event of the operation carries it
  CHECK(r["no_token"] ==
        json::array({"AlreadyExistsException", "AlreadyExistsException", "Stack [web] already exists", 400}));
  const json token_exists = json::array(
      {"TokenAlreadyExistsException", "TokenAlreadyExistsException", "A client request token already exists.", 400});
  CHECK(r["other_stack"] == token_exists);
  CHECK(r["other_exists"] ==
        json::array({"ClientError", "ValidationError", "Stack with id other does not exist", 400}));

  // A refused request used no token: its retry is refused the same way.
  const json no_updates = json::array({"ClientError", "ValidationError", "No updates are to be performed.", 400});
  CHECK(r["noop"] == no_updates);
  CHECK(r["noop_retry"] == no_updates);
  CHECK(r["update_other_action"] == token_exists);
  CHECK(r["update"] == id);
  CHECK(r["update_retry"] == id);
  CHECK(r["update_retry_done"] == id);
  CHECK(r["update_started"] == json::array({"update-1"}));

  CHECK(r["delete_other_action"] == token_exists);
  CHECK(r["delete_retry_done"] == nullptr);  // answered as the first delete was: no error
  CHECK(r["delete_started"] == json::array({"delete-1"}));
  CHECK(r["stacks"] == json::array({"web"}));  // 'other' was never created
  CHECK(r["modeled"] == "TokenAlreadyExistsException");
}
