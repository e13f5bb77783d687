// TemplateURL through `serve` with boto3: CreateStack, UpdateStack,
// CreateChangeSet, ValidateTemplate and GetTemplateSummary read the
// template from the simulated S3 (objects put with `world call` before the
// server starts); AWS's errors for a missing bucket or key and a malformed
// URL; a file:// URL is refused (a server never reads local files).
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "server_fixture.h"

namespace {

using ms::test::server::Server;
using json = nlohmann::json;

// The server test directory's state, prepared before the server starts.
std::string PrepareState(const std::string& name, const std::vector<std::pair<std::string, std::string>>& objects) {
  const std::string dir = (std::filesystem::temp_directory_path() / ("moonstack_server_" + name)).string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string env = "MOONSTACK_STATE=" + dir + "/state.db ";
  REQUIRE(ms::test::RunCommand(env + MOONSTACK_BINARY + " world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'").exit_code == 0);
  for (const auto& [key, body] : objects) {
    std::ofstream(dir + "/put.json") << json{{"Bucket", "tmpl"}, {"Key", key}, {"Body", body}}.dump();
    REQUIRE(ms::test::RunCommand(env + MOONSTACK_BINARY + " world call s3 PutObject \"$(cat " + dir + "/put.json)\"")
                .exit_code == 0);
  }
  return dir;
}

}  // namespace

TEST_CASE("template url server: every action reads the simulated S3, AWS's errors", "[server][template_url]") {
  const char* one = R"({"Parameters": {"N": {"Type": "String", "Default": "a"}},
                        "Resources": {"Q": {"Type": "AWS::SQS::Queue"}}})";
  const char* two = R"({"Parameters": {"N": {"Type": "String", "Default": "a"}},
                        "Resources": {"Q": {"Type": "AWS::SQS::Queue"}, "R": {"Type": "AWS::SQS::Queue"}}})";
  const std::string dir = PrepareState("template_url", {{"one.json", one}, {"dir/two.json", two}});
  Server server("template_url", "0", {}, /*fresh=*/false);
  json r = server.Python(R"(
one = 'https://tmpl.s3.amazonaws.com/one.json'
two = 'https://s3.us-east-1.amazonaws.com/tmpl/dir/two.json'
out = {}
out['validate'] = [p['ParameterKey'] for p in cf.validate_template(TemplateURL=one)['Parameters']]
out['summary'] = cf.get_template_summary(TemplateURL=two)['ResourceTypes']
cf.create_stack(StackName='s', TemplateURL=one)
cf.get_waiter('stack_create_complete').wait(StackName='s', WaiterConfig={'Delay': 1})
cf.create_change_set(StackName='s', ChangeSetName='cs', TemplateURL=two)
cf.get_waiter('change_set_create_complete').wait(StackName='s', ChangeSetName='cs', WaiterConfig={'Delay': 1})
out['changes'] = [c['ResourceChange']['LogicalResourceId'] for c in
                  cf.describe_change_set(StackName='s', ChangeSetName='cs')['Changes']]
cf.update_stack(StackName='s', TemplateURL=two)
cf.get_waiter('stack_update_complete').wait(StackName='s', WaiterConfig={'Delay': 1})
out['resources'] = sorted(x['LogicalResourceId'] for x in cf.list_stack_resources(StackName='s')['StackResourceSummaries'])
out['no_bucket'] = error(cf.create_stack, StackName='t', TemplateURL='https://nope.s3.amazonaws.com/one.json')
out['no_key'] = error(cf.validate_template, TemplateURL='https://tmpl.s3.amazonaws.com/nope.json')
out['bad_url'] = error(cf.create_stack, StackName='t', TemplateURL='https://example.com/one.json')
out['file'] = error(cf.create_stack, StackName='t', TemplateURL='file:///etc/hostname')
out['s3'] = error(cf.update_stack, StackName='s', TemplateURL='s3://tmpl/one.json')
print(json.dumps(out))
)");
  CHECK(r["validate"] == json{"N"});
  CHECK(r["summary"] == json{"AWS::SQS::Queue"});
  CHECK(r["changes"] == json{"R"});
  CHECK(r["resources"] == json{"Q", "R"});
  const std::string help =
      " For more information check http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html";
  CHECK(r["no_bucket"] == json{{"Code", "ValidationError"},
                               {"Message", "S3 error: The specified bucket does not exist" + help},
                               {"Status", 400}});
  CHECK(r["no_key"]["Message"] == "S3 error: The specified key does not exist." + help);
  CHECK(r["bad_url"]["Message"] == "TemplateURL must be a supported URL.");
  CHECK(r["file"]["Message"] == "TemplateURL must be a supported URL.");
  CHECK(r["s3"]["Message"] == "S3 error: Domain name specified in tmpl is not a valid S3 domain");
}

TEST_CASE("template url server: a nested stack names its parent and root in ListStacks and DescribeStacks",
          "[server][template_url][nested]") {
  const char* child = R"({"Resources": {"Q": {"Type": "AWS::SQS::Queue"}},
                          "Outputs": {"Url": {"Value": {"Ref": "Q"}}}})";
  const std::string dir = PrepareState("nested_summary", {{"child.json", child}});
  Server server("nested_summary", "0", {}, /*fresh=*/false);
  json r = server.Python(R"(
parent = json.dumps({'Resources': {'Child': {'Type': 'AWS::CloudFormation::Stack',
    'Properties': {'TemplateURL': 'https://tmpl.s3.amazonaws.com/child.json'}}}})
root_id = cf.create_stack(StackName='p', TemplateBody=parent)['StackId']
cf.get_waiter('stack_create_complete').wait(StackName='p', WaiterConfig={'Delay': 1})
out = {'root': root_id, 'summaries': {}}
for s in cf.list_stacks()['StackSummaries']:
    out['summaries'][s['StackId']] = [s.get('ParentId'), s.get('RootId')]
child_id = cf.describe_stack_resource(StackName='p', LogicalResourceId='Child')['StackResourceDetail']['PhysicalResourceId']
d = cf.describe_stacks(StackName=child_id)['Stacks'][0]
out['child'] = [child_id, d.get('ParentId'), d.get('RootId')]
print(json.dumps(out))
)");
  const std::string root = r["root"];
  const json& c = r["child"];
  CHECK(c[1] == root);
  CHECK(c[2] == root);
  CHECK(r["summaries"].size() == 2);
  CHECK(r["summaries"][root] == json{nullptr, nullptr});  // a root stack has neither
  CHECK(r["summaries"][c[0].get<std::string>()] == json{root, root});
}
