// `moonstack serve`'s change set actions, driven by boto3 (its waiters
// change_set_create_complete, stack_create_complete, stack_update_complete)
// and by the real aws CLI's `cloudformation deploy`, which creates, waits
// for and executes a change set.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include <fstream>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

namespace {

// The fixture's template (kTemplate) plus a second group.
const std::string kMore = TwoGroupsTemplate(/*exported=*/false);

// `aws cloudformation <args>` against the server, its botocore waiters
// polling every second: deploy asks for a 30 s delay between DescribeStacks
// calls, and the first one comes right after ExecuteChangeSet, before the
// operation (run in the background) can have finished. The command is the
// real aws CLI's; only time.sleep's argument changes.
Run FastAws(const Server& server, const std::string& args) {
  const std::string dir = server.dir() + "/fast_waiters";
  fs::create_directories(dir);
  std::ofstream(dir + "/sitecustomize.py")
      << "import botocore.waiter\n"
         "_wait = botocore.waiter.Waiter.wait\n"
         "def wait(self, **kwargs):\n"
         "    kwargs['WaiterConfig'] = dict(kwargs.get('WaiterConfig') or {}, Delay=1)\n"
         "    return _wait(self, **kwargs)\n"
         "botocore.waiter.Waiter.wait = wait\n";
  return Sh("PYTHONPATH=" + dir + " " + server.Env() + "aws cloudformation " + args +
            " --endpoint-url http://127.0.0.1:" + std::to_string(server.port()));
}

}  // namespace

TEST_CASE("boto3 creates, waits for, describes and executes change sets", "[server][changeset]") {
  Server server("change_sets");
  std::ofstream(server.dir() + "/more.json") << kMore;
  json r = server.Python(R"(
out = {}
created = cf.create_change_set(StackName='net', ChangeSetName='create', ChangeSetType='CREATE',
                               TemplateBody=template, Description='first')
out['created'] = created
out['review'] = cf.describe_stacks(StackName='net')['Stacks'][0]['StackStatus']
cf.get_waiter('change_set_create_complete').wait(ChangeSetName='create', StackName='net',
                                                 WaiterConfig={'Delay': 1})
d = cf.describe_change_set(ChangeSetName=created['Id'])
out['create_changes'] = [(c['Type'], c['ResourceChange']['Action'], c['ResourceChange']['LogicalResourceId'],
                          c['ResourceChange']['Scope'], c['ResourceChange']['Details']) for c in d['Changes']]
out['create_status'] = [d['Status'], d['ExecutionStatus'], d['ChangeSetType'] if 'ChangeSetType' in d else None,
                        d['Description'], d['StackName'], d['StackId'] == created['StackId']]
out['execute'] = cf.execute_change_set(ChangeSetName='create', StackName='net')['ResponseMetadata']['HTTPStatusCode']
cf.get_waiter('stack_create_complete').wait(StackName='net', WaiterConfig={'Delay': 1})
out['created_status'] = cf.describe_stacks(StackName='net')['Stacks'][0]['StackStatus']

more = open(')" + server.dir() + R"(/more.json').read()
update = cf.create_change_set(StackName='net', ChangeSetName='update', TemplateBody=more,
                              Parameters=[{'ParameterKey': 'Cidr', 'ParameterValue': '10.1.0.0/16'}])
cf.get_waiter('change_set_create_complete').wait(ChangeSetName='update', StackName='net',
                                                 WaiterConfig={'Delay': 1})
d = cf.describe_change_set(ChangeSetName='update', StackName='net')
out['update_changes'] = [c['ResourceChange'] for c in d['Changes']]
# The change set's template, by ARN and by name with its stack; the stack's is still the first.
out['cs_template'] = [cf.get_template(ChangeSetName=update['Id'])['TemplateBody'] == json.loads(more),
                      cf.get_template(ChangeSetName='update', StackName='net')['TemplateBody'] == json.loads(more),
                      cf.get_template(StackName='net')['TemplateBody'] == json.loads(template)]
out['cs_template_missing'] = error(cf.get_template, ChangeSetName='nope', StackName='net')
for c in out['update_changes']:
    c.pop('PhysicalResourceId', None)
cf.execute_change_set(ChangeSetName=update['Id'])
cf.get_waiter('stack_update_complete').wait(StackName='net', WaiterConfig={'Delay': 1})
out['updated_status'] = cf.describe_stacks(StackName='net')['Stacks'][0]['StackStatus']
out['summaries'] = [(s['ChangeSetName'], s['Status'], s['ExecutionStatus'])
                    for s in cf.list_change_sets(StackName='net')['Summaries']]

empty = cf.create_change_set(StackName='net', ChangeSetName='empty', UsePreviousTemplate=True,
                             Parameters=[{'ParameterKey': 'Cidr', 'UsePreviousValue': True}])
try:
    cf.get_waiter('change_set_create_complete').wait(ChangeSetName=empty['Id'], WaiterConfig={'Delay': 1})
    out['empty_waiter'] = 'passed'
except botocore.exceptions.WaiterError as e:
    out['empty_waiter'] = [e.last_response['Status'], e.last_response['StatusReason']]
out['not_executable'] = error(cf.execute_change_set, ChangeSetName=empty['Id'])
out['missing'] = error(cf.describe_change_set, ChangeSetName='nope', StackName='net')
out['no_stack'] = error(cf.describe_change_set, ChangeSetName='nope', StackName='gone')
out['duplicate'] = error(cf.create_change_set, StackName='net', ChangeSetName='update', UsePreviousTemplate=True)
out['exists'] = error(cf.create_change_set, StackName='net', ChangeSetName='c', ChangeSetType='CREATE',
                      TemplateBody=template)
cf.delete_change_set(ChangeSetName='empty', StackName='net')
out['after_delete'] = [s['ChangeSetName'] for s in cf.list_change_sets(StackName='net')['Summaries']]
print(json.dumps(out))
)");
  CHECK(r["created"]["Id"].get<std::string>().rfind("arn:aws:cloudformation:us-east-1:123456789012:changeSet/create/",
                                                      0) == 0);
  CHECK(r["review"] == "REVIEW_IN_PROGRESS");
  CHECK(r["create_changes"] == json::parse(R"([["Resource", "Add", "Vpc", [], []],
                                                ["Resource", "Add", "Group", [], []]])"));
  CHECK(r["create_status"] == json::parse(R"(["CREATE_COMPLETE", "AVAILABLE", null, "first", "net", true])"));
  CHECK(r["execute"] == 200);
  CHECK(r["created_status"] == "CREATE_COMPLETE");
  CHECK(r["update_changes"] == json::parse(R"([
    {"Action": "Modify", "LogicalResourceId": "Vpc", "ResourceType": "AWS::EC2::VPC", "Replacement": "True",
     "Scope": ["Properties"], "Details": [
       {"Target": {"Attribute": "Properties", "Name": "CidrBlock", "RequiresRecreation": "Always"},
        "Evaluation": "Static", "ChangeSource": "ParameterReference", "CausingEntity": "Cidr"}]},
    {"Action": "Modify", "LogicalResourceId": "Group", "ResourceType": "AWS::EC2::SecurityGroup",
     "Replacement": "Conditional", "Scope": ["Properties"], "Details": [
       {"Target": {"Attribute": "Properties", "Name": "VpcId", "RequiresRecreation": "Always"},
        "Evaluation": "Dynamic", "ChangeSource": "ResourceReference", "CausingEntity": "Vpc"}]},
    {"Action": "Add", "LogicalResourceId": "Group2", "ResourceType": "AWS::EC2::SecurityGroup",
     "Scope": [], "Details": []}])"));
  CHECK(r["cs_template"] == json::parse("[true, true, true]"));
  CHECK(r["cs_template_missing"]["Code"] == "ChangeSetNotFound");
  CHECK(r["updated_status"] == "UPDATE_COMPLETE");
  CHECK(r["summaries"] == json::parse(R"([["create", "CREATE_COMPLETE", "EXECUTE_COMPLETE"],
                                          ["update", "CREATE_COMPLETE", "EXECUTE_COMPLETE"]])"));
  CHECK(r["empty_waiter"] ==
        json::array({"FAILED",
                     "The submitted information didn't contain changes. Submit different information to create a "
                     "change set."}));
  CHECK(r["not_executable"]["Code"] == "InvalidChangeSetStatus");
  CHECK(r["not_executable"]["Message"].get<std::string>().find("cannot be executed in its current status of [FAILED]") !=
        std::string::npos);
  CHECK(r["missing"]["Code"] == "ChangeSetNotFound");
  CHECK(r["missing"]["Message"] == "ChangeSet [nope] does not exist");
  CHECK(r["missing"]["Status"] == 404);  // the model's httpStatusCode for ChangeSetNotFoundException
  CHECK(r["no_stack"]["Message"] == "Stack [gone] does not exist");
  CHECK(r["no_stack"]["Status"] == 400);
  CHECK(r["duplicate"]["Code"] == "AlreadyExistsException");
  CHECK(r["exists"]["Message"] == "Stack [net] already exists and cannot be created again with the changeSet [c].");
  CHECK(r["after_delete"] == json::array({"create", "update"}));
}

// Sleeps until the wall clock's second changes.
static void NextSecond() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto next = std::chrono::duration_cast<std::chrono::seconds>(now) + std::chrono::seconds(1);
  std::this_thread::sleep_for(next - now + std::chrono::milliseconds(20));
}

TEST_CASE("aws cloudformation deploy creates and updates a stack through change sets", "[server][changeset]") {
  Server server("deploy", "0");
  const std::string t = server.dir() + "/t.json", more = server.dir() + "/more.json";
  std::ofstream(more) << kMore;
  Run created = FastAws(server, "deploy --template-file " + t + " --stack-name net");
  INFO(created.out);
  REQUIRE(created.exit_code == 0);
  CHECK(created.out ==
        "\nWaiting for changeset to be created..\nWaiting for stack create/update to complete\n"
        "Successfully created/updated stack - net\n");
  CHECK(server.AwsJson("describe-stacks --stack-name net")["Stacks"][0]["StackStatus"] == "CREATE_COMPLETE");

  // The aws CLI names its change sets after the second it runs in
  // (awscli-cloudformation-package-deploy-<epoch>): two deploys in one second
  // would collide, on AWS as here.
  NextSecond();
  Run same = FastAws(server, "deploy --template-file " + t + " --stack-name net --no-fail-on-empty-changeset");
  CHECK(same.exit_code == 0);
  CHECK(same.out == "\nWaiting for changeset to be created..\n\nNo changes to deploy. Stack net is up to date\n");

  NextSecond();
  Run updated =
      FastAws(server, "deploy --template-file " + more + " --stack-name net --parameter-overrides Cidr=10.2.0.0/16");
  INFO(updated.out);
  REQUIRE(updated.exit_code == 0);
  json stack = server.AwsJson("describe-stacks --stack-name net")["Stacks"][0];
  CHECK(stack["StackStatus"] == "UPDATE_COMPLETE");
  CHECK(stack["Parameters"][0]["ParameterValue"] == "10.2.0.0/16");
  json summaries = server.AwsJson("list-change-sets --stack-name net")["Summaries"];
  REQUIRE(summaries.size() == 3);
  CHECK(summaries[0]["ExecutionStatus"] == "EXECUTE_COMPLETE");
  CHECK(summaries[1]["Status"] == "FAILED");
  CHECK(summaries[2]["ExecutionStatus"] == "EXECUTE_COMPLETE");
  CHECK(server.AwsJson("list-stack-resources --stack-name net")["StackResourceSummaries"].size() == 3);
}

// AWS answers DeleteChangeSet of a change set it does not have with success
// when the stack exists; the CDK relies on it before every deploy of a
// deployed stack ("Removing existing change set with name
// cdk-deploy-change-set if it exists"). A missing stack stays an error.
TEST_CASE("DeleteChangeSet of an unknown change set succeeds on an existing stack", "[server][changeset]") {
  Server server("change_set_delete_unknown");
  json r = server.Python(R"(
out = {}
cf.create_change_set(StackName='net', ChangeSetName='create', ChangeSetType='CREATE', TemplateBody=template)
cf.get_waiter('change_set_create_complete').wait(ChangeSetName='create', StackName='net', WaiterConfig={'Delay': 1})
out['by_name'] = cf.delete_change_set(ChangeSetName='cdk-deploy-change-set', StackName='net')['ResponseMetadata']['HTTPStatusCode']
out['left'] = [s['ChangeSetName'] for s in cf.list_change_sets(StackName='net')['Summaries']]
out['no_stack'] = error(cf.delete_change_set, ChangeSetName='cdk-deploy-change-set', StackName='gone')
out['no_stack_name'] = error(cf.delete_change_set, ChangeSetName='cdk-deploy-change-set')
print(json.dumps(out))
)");
  CHECK(r["by_name"] == 200);
  CHECK(r["left"] == json::array({"create"}));
  CHECK(r["no_stack"]["Code"] == "ValidationError");
  CHECK(r["no_stack"]["Message"] == "Stack [gone] does not exist");
  CHECK(r["no_stack_name"]["Message"] == "StackName must be specified if ChangeSetName is not specified as an ARN.");
}
