// `moonstack serve` driven by the real aws CLI and boto3 (the machine's
// python3) with --endpoint-url: the Query API's requests, XML responses and
// errors as botocore parses them, and workflows running in the background
// while waiters poll.
#include <catch2/catch.hpp>

#include "test_util.h"

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

TEST_CASE("the aws CLI validates, creates, waits for, describes and deletes a stack", "[server]") {
  Server server("cli");
  const std::string body = "--template-body file://" + server.dir() + "/t.json";

  json v = server.AwsJson("validate-template " + body);
  CHECK(v["Description"] == "a network");
  REQUIRE(v["Parameters"].size() == 1);
  CHECK(v["Parameters"][0] == json{{"ParameterKey", "Cidr"}, {"DefaultValue", "10.0.0.0/16"},
                                   {"NoEcho", false}, {"Description", "the VPC's range"}});

  json created = server.AwsJson("create-stack --stack-name web " + body);
  const std::string id = created["StackId"];
  CHECK(id.rfind("arn:aws:cloudformation:us-east-1:123456789012:stack/web/", 0) == 0);
  Run wait = server.Aws("wait stack-create-complete --stack-name web");
  INFO(wait.out);
  REQUIRE(wait.exit_code == 0);

  json stacks = server.AwsJson("describe-stacks --stack-name web")["Stacks"];
  REQUIRE(stacks.size() == 1);
  const json& s = stacks[0];
  CHECK(s["StackId"] == id);
  CHECK(s["StackName"] == "web");
  CHECK(s["Description"] == "a network");
  CHECK(s["StackStatus"] == "CREATE_COMPLETE");
  CHECK(s["DisableRollback"] == false);
  CHECK(s["Parameters"] == json::array({{{"ParameterKey", "Cidr"}, {"ParameterValue", "10.0.0.0/16"}}}));
  REQUIRE(s["Outputs"].size() == 1);
  CHECK(s["Outputs"][0]["OutputKey"] == "VpcId");
  const std::string vpc = s["Outputs"][0]["OutputValue"];
  CHECK(vpc.rfind("vpc-", 0) == 0);
  CHECK(s["DriftInformation"]["StackDriftStatus"] == "NOT_CHECKED");
  CHECK(s["Tags"] == json::array());

  json events = server.AwsJson("describe-stack-events --stack-name web")["StackEvents"];
  REQUIRE(events.size() == 8);  // newest first: the stack 2, each resource 3 (IN_PROGRESS twice)
  CHECK(events.front()["LogicalResourceId"] == "web");
  CHECK(events.front()["ResourceStatus"] == "CREATE_COMPLETE");
  CHECK(events.back()["ResourceStatus"] == "CREATE_IN_PROGRESS");
  CHECK(events.back()["ResourceStatusReason"] == "User Initiated");
  CHECK(events.back()["ResourceType"] == "AWS::CloudFormation::Stack");
  CHECK(events.back()["PhysicalResourceId"] == id);
  bool vpc_complete = false;
  for (const json& e : events) {
    CHECK(e["StackId"] == id);
    if (e["LogicalResourceId"] == "Vpc" && e["ResourceStatus"] == "CREATE_COMPLETE") {
      vpc_complete = true;
      CHECK(e["PhysicalResourceId"] == vpc);
      CHECK(e["ResourceType"] == "AWS::EC2::VPC");
    }
  }
  CHECK(vpc_complete);

  json resources = server.AwsJson("describe-stack-resources --stack-name web")["StackResources"];
  REQUIRE(resources.size() == 2);
  for (const json& r : resources) {
    CHECK(r["ResourceStatus"] == "CREATE_COMPLETE");
    CHECK(r["StackId"] == id);
  }
  json by_physical = server.AwsJson("describe-stack-resources --physical-resource-id " + vpc)["StackResources"];
  CHECK(by_physical.size() == 2);

  json tmpl = server.AwsJson("get-template --stack-name web");
  CHECK(tmpl["TemplateBody"] == json::parse(kTemplate));
  CHECK(tmpl["StagesAvailable"] == json::array({"Original", "Processed"}));

  server.AwsJson("delete-stack --stack-name web");
  wait = server.Aws("wait stack-delete-complete --stack-name " + id);
  INFO(wait.out);
  REQUIRE(wait.exit_code == 0);
  json summaries = server.AwsJson("list-stacks --stack-status-filter DELETE_COMPLETE")["StackSummaries"];
  REQUIRE(summaries.size() == 1);
  CHECK(summaries[0]["StackId"] == id);
  CHECK(summaries[0]["TemplateDescription"] == "a network");
  CHECK(summaries[0].contains("DeletionTime"));
  CHECK(server.AwsJson("describe-stacks")["Stacks"] == json::array());

  Run gone = server.Aws("describe-stacks --stack-name web");
  CHECK(gone.exit_code == 255);
  CHECK(gone.out.find("An error occurred (ValidationError) when calling the DescribeStacks operation: "
                      "Stack with id web does not exist") != std::string::npos);
}

TEST_CASE("boto3 gets AWS's error codes and messages from the server", "[server]") {
  Server server("errors");
  json r = server.Python(R"(
out = {}
out['missing'] = error(cf.describe_stacks, StackName='nope')
out['unimplemented'] = error(cf.describe_stack_refactor, StackRefactorId='refactor-1')
out['too_big'] = error(cf.validate_template, TemplateBody='{' + ' ' * 51200 + '}')
out['bad_name'] = error(cf.create_stack, StackName='no_underscores', TemplateBody=template)
out['no_template'] = error(cf.validate_template, TemplateURL='https://example.com/t.json')
cf.create_stack(StackName='web', TemplateBody=template)
out['exists'] = error(cf.create_stack, StackName='web', TemplateBody=template)
cf.get_waiter('stack_create_complete').wait(StackName='web', WaiterConfig={'Delay': 1})
try:
    cf.describe_stacks(StackName='nope')
except cf.exceptions.ClientError as e:
    out['class'] = type(e).__name__
print(json.dumps(out))
)");
  CHECK(r["missing"] == json{{"Code", "ValidationError"}, {"Message", "Stack with id nope does not exist"},
                             {"Status", 400}});
  CHECK(r["unimplemented"] == json{{"Code", "InvalidAction"},
                                   {"Message", "moonstack does not implement DescribeStackRefactor yet"},
                                   {"Status", 400}});
  CHECK(r["too_big"]["Code"] == "ValidationError");
  const std::string big = r["too_big"]["Message"];
  CHECK(big.rfind("1 validation error detected: Value '{ ", 0) == 0);
  CHECK(big.size() > 51200);
  CHECK(big.find("}' at 'templateBody' failed to satisfy constraint: Member must have length less than or equal "
                 "to 51200") != std::string::npos);
  CHECK(r["bad_name"]["Code"] == "ValidationError");
  CHECK(r["bad_name"]["Message"] ==
        "1 validation error detected: Value 'no_underscores' at 'stackName' failed to satisfy constraint: Member "
        "must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*");
  CHECK(r["no_template"]["Code"] == "ValidationError");
  CHECK(r["exists"] == json{{"Code", "AlreadyExistsException"}, {"Message", "Stack [web] already exists"},
                            {"Status", 400}});
  CHECK(r["class"] == "ClientError");
}

TEST_CASE("the server takes the region from the credential scope", "[server]") {
  Server server("region");
  json r = server.Python(R"(
eu = boto3.client('cloudformation', endpoint_url=cf.meta.endpoint_url, region_name='eu-west-1')
sid = eu.create_stack(StackName='net', TemplateBody=template)['StackId']
eu.get_waiter('stack_create_complete').wait(StackName='net', WaiterConfig={'Delay': 1})
eu.delete_stack(StackName='net')
eu.get_waiter('stack_delete_complete').wait(StackName=sid, WaiterConfig={'Delay': 1})
print(json.dumps({'id': sid, 'status': eu.describe_stacks(StackName=sid)['Stacks'][0]['StackStatus']}))
)");
  const std::string id = r["id"];
  CHECK(id.rfind("arn:aws:cloudformation:eu-west-1:123456789012:stack/net/", 0) == 0);
  CHECK(r["status"] == "DELETE_COMPLETE");
}

TEST_CASE("the server answers its health check and refuses oversized bodies", "[server]") {
  Server server("health");
  std::string health = HttpGet(server.port(), "/moonstack/health");
  CHECK(health.rfind("HTTP/1.1 200", 0) == 0);
  std::ofstream(server.dir() + "/big.txt") << "Action=ValidateTemplate&TemplateBody=" << std::string(1100000, 'a');
  Run r = Sh("curl -s -w ' %{http_code}' -X POST --data-binary @" + server.dir() + "/big.txt http://127.0.0.1:" +
             std::to_string(server.port()) + "/");
  CHECK(r.out.find("<Code>RequestEntityTooLarge</Code>") != std::string::npos);
  CHECK(r.out.substr(r.out.size() - 4) == " 413");
}

TEST_CASE("an idle server copies its write-ahead log into the state file", "[server]") {
  Server server("checkpoint");
  server.AwsJson("create-stack --stack-name net --template-body file://" + server.dir() + "/t.json");
  REQUIRE(server.Aws("wait stack-create-complete --stack-name net").exit_code == 0);
  // The state file alone, without its -wal, holds the stack only once the
  // log has been copied in (OperationRunner::Loop: ~200 ms after the last
  // operation). Read a copy of it, as a reader without the log would.
  const std::string copy = server.dir() + "/alone.db";
  std::string stacks;
  for (int i = 0; i < 50 && stacks != "net"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    fs::copy_file(server.dir() + "/state.db", copy, fs::copy_options::overwrite_existing);
    Run r = Sh("python3 -c \"import sqlite3; print(','.join(n for (n,) in sqlite3.connect('" + copy +
               "').execute('SELECT name FROM stacks')))\"");
    REQUIRE(r.exit_code == 0);
    stacks = r.out.substr(0, r.out.find('\n'));
  }
  CHECK(stacks == "net");
}
