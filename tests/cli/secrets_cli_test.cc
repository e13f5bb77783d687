// Secrets Manager through the CLI: a secret's Ref is its ARN, its generated
// password reaches another resource through {{resolve:secretsmanager:...}}
// while events show only the reference; a new value updates in place, a new
// name replaces; ssm-secure outside AWS's places is refused synchronously.
#include <catch2/catch.hpp>

#include "cli_fixture.h"
#include "stack_outputs.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <regex>
#include <string>

namespace {

// Name / Value as template parameters so one template serves create and update.
const char* kSecret = R"({
  "Parameters": {"Name": {"Type": "String", "Default": "app-db"}, "Value": {"Type": "String", "Default": ""}},
  "Conditions": {"Generated": {"Fn::Equals": [{"Ref": "Value"}, ""]}},
  "Resources": {
    "Db": {"Type": "AWS::SecretsManager::Secret", "Properties": {"Name": {"Ref": "Name"},
      "SecretString": {"Fn::If": ["Generated", {"Ref": "AWS::NoValue"}, {"Ref": "Value"}]},
      "GenerateSecretString": {"Fn::If": ["Generated", {"SecretStringTemplate": "{\"username\":\"admin\"}",
        "GenerateStringKey": "password", "PasswordLength": 20, "ExcludePunctuation": true}, {"Ref": "AWS::NoValue"}]}}},
    "Copy": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "/copy", "Type": "String",
      "Value": {"Fn::Sub": "{{resolve:secretsmanager:${Db}:SecretString:password}}"}}}
  },
  "Outputs": {"Arn": {"Value": {"Ref": "Db"}}, "Id": {"Value": {"Fn::GetAtt": ["Db", "Id"]}}}
})";

// The secret alone, its value a parameter.
const char* kSecretOnly = R"({
  "Parameters": {"Name": {"Type": "String", "Default": "app-db"}, "Value": {"Type": "String"}},
  "Resources": {"Db": {"Type": "AWS::SecretsManager::Secret",
    "Properties": {"Name": {"Ref": "Name"}, "SecretString": {"Ref": "Value"}}}},
  "Outputs": {"Arn": {"Value": {"Ref": "Db"}}}
})";

nlohmann::json Call(const ms::test::CliFixture& cli, const std::string& service, const std::string& action,
                    const std::string& params) {
  return cli.Json("world call " + service + " " + action + " '" + params + "'");
}

}  // namespace

TEST_CASE("secrets: Ref is the ARN, the password reaches a resource, events show only the reference", "[cli][secrets]") {
  ms::test::CliFixture cli("secrets_cli", "create");
  std::string t = cli.Write("t.json", kSecret);
  cli.Json("create-stack --stack-name app --template-body file://" + t);
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  auto stack = cli.Json("describe-stacks --stack-name app")["Stacks"][0];
  const std::string arn = ms::test::Output(stack, "Arn");
  CHECK(std::regex_match(arn, std::regex("arn:aws:secretsmanager:us-east-1:123456789012:secret:app-db-[A-Za-z0-9]{6}")));
  CHECK(ms::test::Output(stack, "Id") == arn);

  const std::string value = Call(cli, "secretsmanager", "GetSecretValue", "{\"SecretId\":\"app-db\"}")["SecretString"];
  std::smatch m;
  REQUIRE(std::regex_match(value, m, std::regex(R"re(\{"username":"admin","password":"([A-Za-z0-9]{20})"\})re")));
  const std::string password = m[1];
  CHECK(Call(cli, "ssm", "GetParameter", "{\"Name\":\"/copy\"}")["Parameter"]["Value"] == password);

  auto events = cli.Json("describe-stack-events --stack-name app")["StackEvents"];
  int copy_events = 0;
  for (const auto& e : events) {
    const std::string props = e.value("ResourceProperties", "");
    CHECK(props.find(password) == std::string::npos);
    if (e["LogicalResourceId"] == "Copy") {
      ++copy_events;
      CHECK(props.find("{{resolve:secretsmanager:" + arn + ":SecretString:password}}") != std::string::npos);
    }
  }
  CHECK(copy_events == 3);
  CHECK(cli.Events("app", 0) == std::vector<std::string>{
      "app CREATE_IN_PROGRESS User Initiated", "Db CREATE_IN_PROGRESS ", "Db CREATE_IN_PROGRESS Resource creation Initiated",
      "Db CREATE_COMPLETE ", "Copy CREATE_IN_PROGRESS ", "Copy CREATE_IN_PROGRESS Resource creation Initiated",
      "Copy CREATE_COMPLETE ", "app CREATE_COMPLETE "});

  REQUIRE(cli("delete-stack --stack-name app").exit_code == 0);
  CHECK(cli.Json("world list --kind secretsmanager.secret")["Records"].empty());
}

TEST_CASE("secrets: a new value updates in place, a new name replaces", "[cli][secrets]") {
  ms::test::CliFixture cli("secrets_cli", "update");
  std::string t = cli.Write("t.json", kSecretOnly);
  cli.Json("create-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Value,ParameterValue=one");
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  const std::string arn = ms::test::Output(cli.Json("describe-stacks --stack-name app")["Stacks"][0], "Arn");

  size_t seen = cli.Events("app", 0).size();
  cli.Json("update-stack --stack-name app --use-previous-template --parameters ParameterKey=Value,ParameterValue=two");
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(cli.Events("app", seen) == std::vector<std::string>{
      "app UPDATE_IN_PROGRESS User Initiated", "Db UPDATE_IN_PROGRESS ", "Db UPDATE_COMPLETE ",
      "app UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ", "app UPDATE_COMPLETE "});
  CHECK(Call(cli, "secretsmanager", "GetSecretValue", "{\"SecretId\":\"" + arn + "\"}")["SecretString"] == "two");
  CHECK(Call(cli, "secretsmanager", "GetSecretValue",
             "{\"SecretId\":\"app-db\",\"VersionStage\":\"AWSPREVIOUS\"}")["SecretString"] == "one");

  seen = cli.Events("app", 0).size();
  cli.Json("update-stack --stack-name app --use-previous-template --parameters ParameterKey=Name,ParameterValue=app-db2 "
           "ParameterKey=Value,UsePreviousValue=true");
  REQUIRE(cli.Status("app") == "UPDATE_COMPLETE");
  auto events = cli.Events("app", seen);
  CHECK(events[1] ==
        "Db UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.");
  auto secrets = cli.Json("world list --kind secretsmanager.secret")["Records"];
  REQUIRE(secrets.size() == 1);
  CHECK(std::regex_match(secrets[0]["Id"].get<std::string>(), std::regex(".*:secret:app-db2-[A-Za-z0-9]{6}")));
}

TEST_CASE("secrets: a missing secret fails the resource with Secrets Manager's text", "[cli][secrets]") {
  ms::test::CliFixture cli("secrets_cli", "missing");
  std::string t = cli.Write("t.json", R"({"Resources": {"P": {"Type": "AWS::SSM::Parameter", "Properties": {
    "Type": "String", "Value": "{{resolve:secretsmanager:nope:SecretString:password}}"}}}})");
  cli("create-stack --stack-name app --template-body file://" + t);
  CHECK(cli.Status("app") == "ROLLBACK_COMPLETE");
  auto events = cli.Events("app", 0);
  CHECK(std::find(events.begin(), events.end(), "P CREATE_FAILED Secrets Manager can't find the specified secret.") !=
        events.end());
}

TEST_CASE("secrets: ssm-secure resolves in an allowed place and is refused elsewhere", "[cli][secrets]") {
  ms::test::CliFixture cli("secrets_cli", "ssm_secure");
  Call(cli, "ssm", "PutParameter", R"({"Name":"/pw","Type":"SecureString","Value":"hunter2"})");
  std::string bad = cli.Write("bad.json", R"({"Resources": {"P": {"Type": "AWS::SSM::Parameter", "Properties": {
    "Type": "String", "Value": "{{resolve:ssm-secure:/pw:1}}"}}}})");
  auto r = cli("create-stack --stack-name bad --template-body file://" + bad);
  CHECK(r.exit_code != 0);
  CHECK(r.out.find("SSM Secure reference is not supported in: [AWS::SSM::Parameter/Properties/Value]") !=
        std::string::npos);
  CHECK(cli("describe-stacks --stack-name bad").exit_code != 0);

  std::string good = cli.Write("good.json", R"({"Resources": {"U": {"Type": "AWS::IAM::User", "Properties": {
    "LoginProfile": {"Password": "{{resolve:ssm-secure:/pw}}"}}}}})");
  cli.Json("create-stack --stack-name good --capabilities CAPABILITY_IAM --template-body file://" + good);
  CHECK(cli.Status("good") == "CREATE_COMPLETE");
  const auto events = cli.Json("describe-stack-events --stack-name good");  // kept: the loop reads into it
  for (const auto& e : events["StackEvents"]) {
    CHECK(e.value("ResourceProperties", "").find("hunter2") == std::string::npos);
  }
}
