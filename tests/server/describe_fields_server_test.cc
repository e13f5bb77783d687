// The describe fields of tests/cli/describe_fields_cli_test.cc through
// `moonstack serve` and boto3: RoleARN, ChangeSetId,
// DescribeStackResource's Metadata, DescribeChangeSet's Before/AfterContext
// with --include-property-values only.
#include <catch2/catch.hpp>

#include <fstream>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

namespace {

const char* kV1 = R"({"Resources": {"P": {"Type": "AWS::SSM::Parameter",
  "Properties": {"Type": "String", "Value": "one"}, "Metadata": {"region": {"Ref": "AWS::Region"}}}}})";
const char* kV2 = R"({"Resources": {"P": {"Type": "AWS::SSM::Parameter",
  "Properties": {"Type": "String", "Value": "two"}, "Metadata": {"region": {"Ref": "AWS::Region"}}}}})";

}  // namespace

TEST_CASE("boto3 reads RoleARN, ChangeSetId, Metadata and property values from serve", "[server][describe]") {
  Server server("describe_fields");
  const std::string dir = server.dir();
  std::ofstream(dir + "/v1.json") << kV1;
  std::ofstream(dir + "/v2.json") << kV2;
  // One python process (the aws CLI costs seconds per call); polls instead of waiters.
  json out = server.Python(R"(
import time
def settle(stack):
    while True:
        s = cf.describe_stacks(StackName=stack)['Stacks'][0]
        if not s['StackStatus'].endswith('_IN_PROGRESS'):
            return s
        time.sleep(0.05)
role = 'arn:aws:iam::123456789012:role/cfn-exec'
cf.create_stack(StackName='app', TemplateBody=open(')" + dir + R"(/v1.json').read(), RoleARN=role)
out = {'created': settle('app')}
out['metadata'] = cf.describe_stack_resource(StackName='app', LogicalResourceId='P')['StackResourceDetail'].get('Metadata')
cs = cf.create_change_set(StackName='app', ChangeSetName='next', TemplateBody=open(')" + dir + R"(/v2.json').read())['Id']
while cf.describe_change_set(ChangeSetName=cs)['Status'] != 'CREATE_COMPLETE':
    time.sleep(0.05)
out['plain'] = cf.describe_change_set(ChangeSetName=cs)['Changes'][0]['ResourceChange']
out['values'] = cf.describe_change_set(ChangeSetName=cs, IncludePropertyValues=True)['Changes'][0]['ResourceChange']
cf.execute_change_set(ChangeSetName=cs)
out['updated'] = settle('app')
out['cs'] = cs
print(json.dumps(out, default=str))
)");
  const std::string role = "arn:aws:iam::123456789012:role/cfn-exec";
  CHECK(out["created"]["StackStatus"] == "CREATE_COMPLETE");
  CHECK(out["created"]["RoleARN"] == role);
  CHECK_FALSE(out["created"].contains("ChangeSetId"));
  CHECK(json::parse(out["metadata"].get<std::string>()) == json::parse(R"({"region": "us-east-1"})"));
  CHECK_FALSE(out["plain"].contains("AfterContext"));
  CHECK(json::parse(out["values"]["BeforeContext"].get<std::string>()) ==
        json::parse(R"({"Properties": {"Type": "String", "Value": "one"}})"));
  CHECK(json::parse(out["values"]["AfterContext"].get<std::string>()) ==
        json::parse(R"({"Properties": {"Type": "String", "Value": "two"}})"));
  CHECK(out["updated"]["StackStatus"] == "UPDATE_COMPLETE");
  CHECK(out["updated"]["ChangeSetId"] == out["cs"]);
  CHECK(out["updated"]["RoleARN"] == role);
}
