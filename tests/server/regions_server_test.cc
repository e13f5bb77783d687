// Stacks are per region (records/stack_scope.h): boto3 clients of two
// regions against one `moonstack serve`, the region read from each
// request's SigV4 credential scope.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

TEST_CASE("boto3: the same stack name in two regions is two stacks, exports per region", "[server][regions]") {
  Server server("regions", "0");
  json r = server.Python(R"(
def client(region):
    return boto3.client('cloudformation', endpoint_url=cf.meta.endpoint_url, region_name=region)
east, west = client('us-east-1'), client('us-west-2')
def body(value):
    return json.dumps({'Resources': {'Topic': {'Type': 'AWS::SNS::Topic'}},
                       'Outputs': {'Out': {'Value': value, 'Export': {'Name': 'shared'}}}})
def wait(c, waiter, name='web'):
    c.get_waiter(waiter).wait(StackName=name, WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
out = {}
east_id = east.create_stack(StackName='web', TemplateBody=body('east'))['StackId']
west_id = west.create_stack(StackName='web', TemplateBody=body('west'))['StackId']
wait(east, 'stack_create_complete'); wait(west, 'stack_create_complete')
out['ids'] = [east_id.split(':')[3], west_id.split(':')[3], east_id != west_id]
out['again'] = error(west.create_stack, StackName='web', TemplateBody=body('x'))
out['listed'] = {n: [(s['StackName'], s['StackId'].split(':')[3]) for s in c.list_stacks()['StackSummaries']]
                 for n, c in [('east', east), ('west', west)]}
out['exports'] = {n: [(e['Name'], e['Value']) for e in c.list_exports()['Exports']] for n, c in [('east', east), ('west', west)]}
out['topics'] = [c.describe_stack_resource(StackName='web', LogicalResourceId='Topic')['StackResourceDetail']['PhysicalResourceId'].split(':')[3]
                 for c in (east, west)]
out['other_region_arn'] = error(east.describe_stacks, StackName=west_id)
out['eu'] = error(client('eu-west-1').describe_stacks, StackName='web')
west.delete_stack(StackName='web'); wait(west, 'stack_delete_complete')
out['after_delete'] = {n: [s['StackStatus'] for s in c.describe_stacks(StackName='web')['Stacks']] if n == 'east'
                       else error(c.describe_stacks, StackName='web') for n, c in [('east', east), ('west', west)]}
out['bad_region'] = error(client('us-moon-1').list_stacks)
print(json.dumps(out))
)");
  CHECK(r["ids"] == json::parse(R"(["us-east-1", "us-west-2", true])"));
  CHECK(r["again"] == json::parse(R"({"Code": "AlreadyExistsException", "Message": "Stack [web] already exists",
                                      "Status": 400})"));
  CHECK(r["listed"] == json::parse(R"({"east": [["web", "us-east-1"]], "west": [["web", "us-west-2"]]})"));
  CHECK(r["exports"] == json::parse(R"({"east": [["shared", "east"]], "west": [["shared", "west"]]})"));
  CHECK(r["topics"] == json::parse(R"(["us-east-1", "us-west-2"])"));  // the simulated cloud's ARNs
  const std::string west_id = "Stack with id arn:aws:cloudformation:us-west-2:";
  CHECK(r["other_region_arn"]["Code"] == "ValidationError");
  CHECK(r["other_region_arn"]["Message"].get<std::string>().rfind(west_id, 0) == 0);
  CHECK(r["eu"] == json::parse(R"({"Code": "ValidationError", "Message": "Stack with id web does not exist",
                                   "Status": 400})"));
  CHECK(r["after_delete"] == json::parse(R"({"east": ["CREATE_COMPLETE"],
      "west": {"Code": "ValidationError", "Message": "Stack with id web does not exist", "Status": 400}})"));
  CHECK(r["bad_region"] == json::parse(R"({"Code": "SignatureDoesNotMatch",
      "Message": "Credential should be scoped to a valid region, not 'us-moon-1'. ", "Status": 403})"));
}
