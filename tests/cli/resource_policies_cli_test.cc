// UpdatePolicy and CreationPolicy validated as a user meets it: validate-template
// refuses what is wrong in the template itself; create-stack, update-stack and
// create-change-set refuse what is wrong once Ref, Fn::If (with AWS::NoValue)
// and Fn::FindInMap are evaluated with the parameters — synchronously, with
// nothing created or changed. The messages are engine/policy/resource_policies.h's.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>

namespace {

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("resource_policies_cli", name) {}

  // `command` fails with this ValidationError.
  void Refused(const std::string& command, const std::string& operation, const std::string& message) const {
    Run r = (*this)(command);
    INFO(command);
    CHECK(r.exit_code == 255);
    CHECK(r.out == "\nAn error occurred (ValidationError) when calling the " + operation + " operation: " + message +
                       "\n");
  }
  bool Exists(const std::string& stack) const { return (*this)("describe-stacks --stack-name " + stack).exit_code == 0; }
};

const std::string kPauseTimeError =
    "Invalid Autoscaling rolling update policy: PauseTime must be in the ISO8601 time period format and must be "
    "no greater than PT3600S seconds, e.g. \"PT5M30S\" specifies a pause time of 5 minutes and 30 seconds.";

// An Auto Scaling group whose rolling update reads its parameters, a mapping
// and two conditions.
const char* kGroup = R"({
  "Parameters": {
    "Batch": {"Type": "String", "Default": "2"},
    "Env": {"Type": "String", "Default": "dev"},
    "Signals": {"Type": "String", "Default": "yes"},
    "Suspend": {"Type": "String", "Default": "no"}
  },
  "Mappings": {"Pause": {"dev": {"Time": "PT5M"}, "prod": {"Time": "PT2H"}}},
  "Conditions": {
    "Signals": {"Fn::Equals": [{"Ref": "Signals"}, "yes"]},
    "Suspend": {"Fn::Equals": [{"Ref": "Suspend"}, "yes"]}
  },
  "Resources": {
    "Group": {
      "Type": "AWS::AutoScaling::AutoScalingGroup",
      "UpdatePolicy": {"AutoScalingRollingUpdate": {
        "MaxBatchSize": {"Ref": "Batch"},
        "PauseTime": {"Fn::FindInMap": ["Pause", {"Ref": "Env"}, "Time"]},
        "MinSuccessfulInstancesPercent": "50",
        "WaitOnResourceSignals": {"Fn::If": ["Signals", "true", "false"]},
        "SuspendProcesses": {"Fn::If": ["Suspend", ["HealthCheck", "Reboot"], {"Ref": "AWS::NoValue"}]}
      }},
      "Properties": {"MinSize": "0", "MaxSize": "2", "AvailabilityZones": ["us-east-1a"]}
    }
  }
})";

}  // namespace

TEST_CASE("validate-template refuses a bad policy written in the template", "[cli][policy]") {
  Cli cli("validate");
  cli.Write("pause.json", R"({"Resources": {"G": {"Type": "AWS::AutoScaling::AutoScalingGroup",
    "UpdatePolicy": {"AutoScalingRollingUpdate": {"PauseTime": "PT61M"}},
    "Properties": {"MinSize": "0", "MaxSize": "1"}}}})");
  cli.Refused("validate-template --template-body file://pause.json", "ValidateTemplate", kPauseTimeError);
  cli.Write("creation.json", R"({"Resources": {"G": {"Type": "AWS::AutoScaling::AutoScalingGroup",
    "CreationPolicy": {"ResourceSignal": {"Count": 1}, "AutoScalingCreationPolicy": {"MinSuccessfulInstancesPercent": 101}},
    "Properties": {"MinSize": "0", "MaxSize": "1"}}}})");
  cli.Refused("validate-template --template-body file://creation.json", "ValidateTemplate",
              "Invalid CreationPolicy for resource G: AutoScalingCreationPolicy.MinSuccessfulInstancesPercent must "
              "be an integer from 0 to 100");
  // What depends on parameters is checked when they are known: this passes.
  cli.Write("group.json", kGroup);
  CHECK(cli("validate-template --template-body file://group.json").exit_code == 0);
}

TEST_CASE("create-stack refuses a policy made bad by its parameters, nothing is created", "[cli][policy]") {
  Cli cli("create");
  cli.Write("group.json", kGroup);
  const std::string create = "create-stack --stack-name g --template-body file://group.json --parameters ";
  // Ref to a parameter.
  cli.Refused(create + "ParameterKey=Batch,ParameterValue=0", "CreateStack",
              "Invalid Autoscaling rolling update policy: MaxBatchSize must be an integer from 1 to 100");
  // Fn::FindInMap.
  cli.Refused(create + "ParameterKey=Env,ParameterValue=prod", "CreateStack", kPauseTimeError);
  // Fn::If: WaitOnResourceSignals false under MinSuccessfulInstancesPercent.
  cli.Refused(create + "ParameterKey=Signals,ParameterValue=no", "CreateStack",
              "Invalid Autoscaling rolling update policy: MinSuccessfulInstancesPercent requires "
              "WaitOnResourceSignals to be true");
  // Fn::If whose other branch is AWS::NoValue (the default leaves SuspendProcesses out).
  cli.Refused(create + "ParameterKey=Suspend,ParameterValue=yes", "CreateStack",
              "Invalid Autoscaling rolling update policy: SuspendProcesses has an unknown process Reboot (valid: "
              "Launch, Terminate, HealthCheck, ReplaceUnhealthy, AZRebalance, AlarmNotification, ScheduledActions, "
              "AddToLoadBalancer, InstanceRefresh)");
  CHECK_FALSE(cli.Exists("g"));
  CHECK(cli.Json("list-stacks")["StackSummaries"].empty());

  // The same template with good values passes validation (a change set
  // creates nothing but checks what create-stack checks).
  Run ok = cli("create-change-set --stack-name g --change-set-name c --change-set-type CREATE "
               "--template-body file://group.json --parameters ParameterKey=Batch,ParameterValue=100");
  INFO(ok.out);
  CHECK(ok.exit_code == 0);
}

TEST_CASE("update-stack and create-change-set refuse a bad policy, the stack is unchanged", "[cli][policy]") {
  Cli cli("update");
  cli.Write("v1.json", R"({"Resources": {"P": {"Type": "AWS::SSM::Parameter",
    "Properties": {"Type": "String", "Value": "one"}}}})");
  // The update adds a group whose batch size is a parameter.
  cli.Write("v2.json", R"({"Parameters": {"Batch": {"Type": "Number"}},
    "Resources": {"P": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "two"}},
      "Group": {"Type": "AWS::AutoScaling::AutoScalingGroup",
        "UpdatePolicy": {"AutoScalingRollingUpdate": {"MaxBatchSize": {"Ref": "Batch"}}},
        "Properties": {"MinSize": "0", "MaxSize": "2", "AvailabilityZones": ["us-east-1a"]}}}})");
  cli.Json("create-stack --stack-name s --template-body file://v1.json");
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  const size_t events = cli.Events("s", 0).size();

  const std::string message = "Invalid Autoscaling rolling update policy: MaxBatchSize must be an integer from 1 to 100";
  const std::string v2 = " --template-body file://v2.json --parameters ParameterKey=Batch,ParameterValue=";
  cli.Refused("update-stack --stack-name s" + v2 + "101", "UpdateStack", message);
  cli.Refused("create-change-set --stack-name s --change-set-name c" + v2 + "0", "CreateChangeSet", message);
  CHECK(cli.Status("s") == "CREATE_COMPLETE");
  CHECK(cli.Events("s", 0).size() == events);
  CHECK(cli.Json("list-change-sets --stack-name s")["Summaries"].empty());
  CHECK(cli.Json("describe-stack-resources --stack-name s")["StackResources"].size() == 1);

  Run ok = cli("create-change-set --stack-name s --change-set-name c" + v2 + "100");
  INFO(ok.out);
  CHECK(ok.exit_code == 0);
}

TEST_CASE("seed 003's Allow must be a boolean once evaluated", "[cli][policy]") {
  Cli cli("allow");
  cli.Write("t.json", R"({"Parameters": {"Allow": {"Type": "String"}},
    "Resources": {"P": {"Type": "AWS::SSM::Parameter",
      "UpdatePolicy": {"Allow": {"Update": {"Ref": "Allow"}, "Replace": true}},
      "Properties": {"Type": "String", "Value": "v"}}}})");
  cli.Refused("create-stack --stack-name s --template-body file://t.json "
              "--parameters ParameterKey=Allow,ParameterValue=maybe",
              "CreateStack", "Invalid UpdatePolicy for resource P: Allow.Update must be a boolean");
  CHECK_FALSE(cli.Exists("s"));
  cli.Json("create-stack --stack-name s --template-body file://t.json "
           "--parameters ParameterKey=Allow,ParameterValue=false");
  CHECK(cli.Status("s") == "CREATE_COMPLETE");
}

TEST_CASE("a policy on a type that has none is ignored, as AWS does", "[cli][policy]") {
  Cli cli("ignored");
  cli.Write("t.json", R"({"Resources": {"P": {"Type": "AWS::SSM::Parameter",
    "UpdatePolicy": {"AutoScalingRollingUpdate": {"MaxBatchSize": 500, "PauseTime": "PT2H"}},
    "CreationPolicy": {"AutoScalingCreationPolicy": {"MinSuccessfulInstancesPercent": 300}},
    "Properties": {"Type": "String", "Value": "v"}}}})");
  cli.Json("create-stack --stack-name s --template-body file://t.json");
  CHECK(cli.Status("s") == "CREATE_COMPLETE");
}

TEST_CASE("a policy naming another resource passes: its value is not known before it exists", "[cli][policy]") {
  Cli cli("references");
  cli.Write("t.json", R"({"Resources": {
    "App": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "v"}},
    "Alias": {"Type": "AWS::Lambda::Alias",
      "UpdatePolicy": {"CodeDeployLambdaAliasUpdate": {"ApplicationName": {"Ref": "App"},
                                                       "DeploymentGroupName": {"Fn::GetAtt": ["App", "Value"]}}},
      "Properties": {"FunctionName": "f", "FunctionVersion": "1", "Name": "live"}}}})");
  CHECK(cli("validate-template --template-body file://t.json").exit_code == 0);
  Run ok = cli("create-change-set --stack-name a --change-set-name c --change-set-type CREATE "
               "--template-body file://t.json");
  INFO(ok.out);
  CHECK(ok.exit_code == 0);
}
