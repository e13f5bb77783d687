// Under `moonstack serve`: a custom resource backed by an inline Python
// function of the stack runs it (the function sees the server as
// AWS_ENDPOINT_URL); with --no-lambda the request waits for a handler
// outside instead (GET /moonstack/custom-resource-requests), as before.
#include <catch2/catch.hpp>

#include "../server/server_fixture.h"
#include "lambda_test_support.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

const std::string kStack = R"(
code = '''import cfnresponse, os
def handler(event, context):
    cfnresponse.send(event, context, cfnresponse.SUCCESS, {'Endpoint': os.environ.get('AWS_ENDPOINT_URL', '')}, 'res-1')
'''
template = json.dumps({'Resources': {
    'Fn': {'Type': 'AWS::Lambda::Function', 'Properties': {'FunctionName': 'serve-fn', 'Runtime': 'python3.12',
           'Handler': 'index.handler', 'Role': 'arn:aws:iam::123456789012:role/r', 'Code': {'ZipFile': code}}},
    'Res': {'Type': 'Custom::Thing', 'Properties': {'ServiceToken': {'Fn::GetAtt': ['Fn', 'Arn']}}}},
    'Outputs': {'Endpoint': {'Value': {'Fn::GetAtt': ['Res', 'Endpoint']}}}})
import time, urllib.request
lambda_role('r')
cf.create_stack(StackName='s', TemplateBody=template)
)";

}  // namespace

TEST_CASE("serve: a custom resource backed by an inline Python function runs it", "[server][lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("lambda_custom_resource");
  const json r = server.Python(kStack + R"(
for _ in range(600):
    stack = cf.describe_stacks(StackName='s')['Stacks'][0]
    if not stack['StackStatus'].endswith('IN_PROGRESS'):
        break
    time.sleep(0.05)
print(json.dumps({'status': stack['StackStatus'], 'outputs': stack.get('Outputs', []), 'base': cf.meta.endpoint_url}))
)");
  CHECK(r["status"] == "CREATE_COMPLETE");
  REQUIRE(r["outputs"].size() == 1);
  CHECK(r["outputs"][0]["OutputValue"] == r["base"]);
}

TEST_CASE("serve --no-lambda: the request waits for a handler outside", "[server][lambda]") {
  Server server("lambda_no_lambda", "0.001", {"--no-lambda"});
  const json r = server.Python(kStack + R"(
base = cf.meta.endpoint_url
for _ in range(600):
    with urllib.request.urlopen(base + '/moonstack/custom-resource-requests') as f:
        reqs = json.load(f)['Requests']
    if reqs:
        break
    time.sleep(0.05)
print(json.dumps({'pending': [q['LogicalResourceId'] for q in reqs],
                  'status': cf.describe_stacks(StackName='s')['Stacks'][0]['StackStatus']}))
)");
  CHECK(r["pending"] == json::array({"Res"}));
  CHECK(r["status"] == "CREATE_IN_PROGRESS");
}
