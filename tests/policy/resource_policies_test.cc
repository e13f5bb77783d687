// UpdatePolicy and CreationPolicy validation (engine/policy/resource_policies.h):
// each error with its exact message, the spellings that are valid (strings
// for booleans and integers), Unknown values left alone, and types without
// policies ignored.
#include <catch2/catch.hpp>

#include <string>

#include "eval/evaluator.h"
#include "eval/parameters.h"
#include "eval/validate.h"
#include "policy/policy_values.h"
#include "policy/resource_policies.h"
#include "template/parse.h"

namespace {

const char* kAsg = "AWS::AutoScaling::AutoScalingGroup";

ms::Value Json(const std::string& text) {
  ms::Value v;
  if (text.empty()) return v;
  INFO(text);
  REQUIRE(ms::ParseJson(text, &v).ok());
  return v;
}

// The message of checking these policies ("" when valid).
std::string Check(const std::string& type, const std::string& update_policy, const std::string& creation_policy = "") {
  const ms::Status s = ms::CheckResourcePolicies("R", type, Json(update_policy), Json(creation_policy));
  return s.ok() ? "" : s.message();
}

std::string Rolling(const std::string& members) {
  return Check(kAsg, R"({"AutoScalingRollingUpdate": {)" + members + "}}");
}

const std::string kPauseTimeError =
    "Invalid Autoscaling rolling update policy: PauseTime must be in the ISO8601 time period format and must be "
    "no greater than PT3600S seconds, e.g. \"PT5M30S\" specifies a pause time of 5 minutes and 30 seconds.";

}  // namespace

TEST_CASE("valid policies pass, booleans and integers spelled as strings too", "[policy]") {
  // Seed 004's own examples.
  CHECK(Check(kAsg, R"({"AutoScalingScheduledAction": {"IgnoreUnmodifiedGroupSizeProperties": "true"},
                        "AutoScalingRollingUpdate": {"MinInstancesInService": "1", "MaxBatchSize": "2",
                                                     "WaitOnResourceSignals": "true", "PauseTime": "PT10M"}})") == "");
  CHECK(Check(kAsg, R"({"AutoScalingReplacingUpdate": {"WillReplace": "true"}})",
              R"({"ResourceSignal": {"Count": "3", "Timeout": "PT10M"},
                  "AutoScalingCreationPolicy": {"MinSuccessfulInstancesPercent": 50}})") == "");
  CHECK(Rolling(R"("MaxBatchSize": 100, "MinInstancesInService": 0, "MinSuccessfulInstancesPercent": 0,
                   "MinActiveInstancesPercent": 100, "PauseTime": "PT1H", "WaitOnResourceSignals": true,
                   "SuspendProcesses": ["Launch", "Terminate", "HealthCheck", "ReplaceUnhealthy", "AZRebalance",
                                        "AlarmNotification", "ScheduledActions", "AddToLoadBalancer",
                                        "InstanceRefresh"])") == "");
  CHECK(Rolling(R"("MaxBatchSize": 1, "PauseTime": "PT59M60S")") == "");
  CHECK(Check("AWS::Lambda::Alias", R"({"CodeDeployLambdaAliasUpdate": {"ApplicationName": "app",
             "DeploymentGroupName": "dg", "BeforeAllowTrafficHook": "pre", "AfterAllowTrafficHook": "post"}})") == "");
  CHECK(Check("AWS::ElastiCache::ReplicationGroup", R"({"UseOnlineResharding": true})") == "");
  CHECK(Check("AWS::OpenSearchService::Domain", R"({"EnableVersionUpgrade": "false"})") == "");
  CHECK(Check("AWS::Elasticsearch::Domain", R"({"EnableVersionUpgrade": true})") == "");
  CHECK(Check("AWS::AppStream::Fleet", R"({"StopBeforeUpdate": {"Type": true}, "StartAfterUpdate": "true"})",
              R"({"StartFleet": true})") == "");
  CHECK(Check("AWS::EC2::Instance", "", R"({"ResourceSignal": {"Timeout": "PT5M"}})") == "");
  CHECK(Check("AWS::CloudFormation::WaitCondition", "", R"({"ResourceSignal": {"Count": 2}})") == "");
  CHECK(Check(kAsg, R"({"Allow": {"Update": "false", "Replace": true}})") == "");
  CHECK(Check(kAsg, "", "") == "");
}

TEST_CASE("unknown keys are refused at each level, naming the valid ones", "[policy]") {
  CHECK(Check(kAsg, R"({"AutoScalingRollingUpdates": {}})") ==
        "Invalid UpdatePolicy for resource R: UpdatePolicy has an unknown key AutoScalingRollingUpdates for "
        "AWS::AutoScaling::AutoScalingGroup (valid: AutoScalingReplacingUpdate, AutoScalingRollingUpdate, "
        "AutoScalingScheduledAction, Allow)");
  CHECK(Rolling(R"("MaxBatch": 2)") ==
        "Invalid Autoscaling rolling update policy: AutoScalingRollingUpdate has an unknown key MaxBatch (valid: "
        "MaxBatchSize, MinActiveInstancesPercent, MinInstancesInService, MinSuccessfulInstancesPercent, PauseTime, "
        "SuspendProcesses, WaitOnResourceSignals)");
  CHECK(Check(kAsg, R"({"AutoScalingReplacingUpdate": {"Replace": true}})") ==
        "Invalid UpdatePolicy for resource R: AutoScalingReplacingUpdate has an unknown key Replace (valid: "
        "WillReplace)");
  CHECK(Check(kAsg, R"({"AutoScalingScheduledAction": {"Ignore": true}})") ==
        "Invalid UpdatePolicy for resource R: AutoScalingScheduledAction has an unknown key Ignore (valid: "
        "IgnoreUnmodifiedGroupSizeProperties)");
  CHECK(Check(kAsg, R"({"UseOnlineResharding": true})") ==
        "Invalid UpdatePolicy for resource R: UpdatePolicy has an unknown key UseOnlineResharding for "
        "AWS::AutoScaling::AutoScalingGroup (valid: AutoScalingReplacingUpdate, AutoScalingRollingUpdate, "
        "AutoScalingScheduledAction, Allow)");
  CHECK(Check("AWS::ElastiCache::ReplicationGroup", R"({"EnableVersionUpgrade": true})") ==
        "Invalid UpdatePolicy for resource R: UpdatePolicy has an unknown key EnableVersionUpgrade for "
        "AWS::ElastiCache::ReplicationGroup (valid: UseOnlineResharding, Allow)");
  CHECK(Check("AWS::OpenSearchService::Domain", R"({"UseOnlineResharding": true})") ==
        "Invalid UpdatePolicy for resource R: UpdatePolicy has an unknown key UseOnlineResharding for "
        "AWS::OpenSearchService::Domain (valid: EnableVersionUpgrade, Allow)");
  CHECK(Check("AWS::Lambda::Alias", R"({"CodeDeployLambdaAliasUpdate": {"ApplicationName": "a",
             "DeploymentGroupName": "d", "Hook": "h"}})") ==
        "Invalid UpdatePolicy for resource R: CodeDeployLambdaAliasUpdate has an unknown key Hook (valid: "
        "AfterAllowTrafficHook, ApplicationName, BeforeAllowTrafficHook, DeploymentGroupName)");
  CHECK(Check("AWS::AppStream::Fleet", R"({"StopBeforeUpdates": true})") ==
        "Invalid UpdatePolicy for resource R: UpdatePolicy has an unknown key StopBeforeUpdates for "
        "AWS::AppStream::Fleet (valid: StopBeforeUpdate, StartAfterUpdate, Allow)");
  CHECK(Check("AWS::AppStream::Fleet", R"({"StopBeforeUpdate": {"Value": true}})") ==
        "Invalid UpdatePolicy for resource R: StopBeforeUpdate has an unknown key Value (valid: Type)");
  CHECK(Check(kAsg, R"({"Allow": {"Delete": false}})") ==
        "Invalid UpdatePolicy for resource R: Allow has an unknown key Delete (valid: Update, Replace)");
  // CreationPolicy
  CHECK(Check(kAsg, "", R"({"ResourceSignals": {}})") ==
        "Invalid CreationPolicy for resource R: CreationPolicy has an unknown key ResourceSignals for "
        "AWS::AutoScaling::AutoScalingGroup (valid: ResourceSignal, AutoScalingCreationPolicy)");
  CHECK(Check(kAsg, "", R"({"ResourceSignal": {"Counts": 2}})") ==
        "Invalid CreationPolicy for resource R: ResourceSignal has an unknown key Counts (valid: Count, Timeout)");
  CHECK(Check(kAsg, "", R"({"AutoScalingCreationPolicy": {"MinSuccessfulInstances": 2}})") ==
        "Invalid CreationPolicy for resource R: AutoScalingCreationPolicy has an unknown key MinSuccessfulInstances "
        "(valid: MinSuccessfulInstancesPercent)");
  CHECK(Check("AWS::EC2::Instance", "", R"({"AutoScalingCreationPolicy": {}})") ==
        "Invalid CreationPolicy for resource R: CreationPolicy has an unknown key AutoScalingCreationPolicy for "
        "AWS::EC2::Instance (valid: ResourceSignal)");
  CHECK(Check("AWS::AppStream::Fleet", "", R"({"ResourceSignal": {}})") ==
        "Invalid CreationPolicy for resource R: CreationPolicy has an unknown key ResourceSignal for "
        "AWS::AppStream::Fleet (valid: StartFleet)");
}

TEST_CASE("wrong types are refused", "[policy]") {
  CHECK(Check(kAsg, R"("rolling")") == "Invalid UpdatePolicy for resource R: UpdatePolicy must be an object");
  CHECK(Check(kAsg, "", "[1]") == "Invalid CreationPolicy for resource R: CreationPolicy must be an object");
  CHECK(Check(kAsg, R"({"AutoScalingRollingUpdate": "yes"})") ==
        "Invalid Autoscaling rolling update policy: AutoScalingRollingUpdate must be an object");
  CHECK(Check(kAsg, R"({"AutoScalingReplacingUpdate": true})") ==
        "Invalid UpdatePolicy for resource R: AutoScalingReplacingUpdate must be an object");
  CHECK(Check(kAsg, R"({"AutoScalingReplacingUpdate": {"WillReplace": "yes"}})") ==
        "Invalid UpdatePolicy for resource R: AutoScalingReplacingUpdate.WillReplace must be a boolean");
  CHECK(Check(kAsg, R"({"AutoScalingScheduledAction": {"IgnoreUnmodifiedGroupSizeProperties": 1}})") ==
        "Invalid UpdatePolicy for resource R: AutoScalingScheduledAction.IgnoreUnmodifiedGroupSizeProperties must "
        "be a boolean");
  CHECK(Rolling(R"("WaitOnResourceSignals": "sometimes")") ==
        "Invalid Autoscaling rolling update policy: WaitOnResourceSignals must be a boolean");
  CHECK(Rolling(R"("MaxBatchSize": "two")") ==
        "Invalid Autoscaling rolling update policy: MaxBatchSize must be an integer from 1 to 100");
  CHECK(Rolling(R"("MinInstancesInService": 1.5)") ==
        "Invalid Autoscaling rolling update policy: MinInstancesInService must be an integer of at least 0");
  CHECK(Rolling(R"("SuspendProcesses": "Launch")") ==
        "Invalid Autoscaling rolling update policy: SuspendProcesses must be a list of Auto Scaling process names");
  CHECK(Check("AWS::ElastiCache::ReplicationGroup", R"({"UseOnlineResharding": "yes"})") ==
        "Invalid UpdatePolicy for resource R: UseOnlineResharding must be a boolean");
  CHECK(Check("AWS::Elasticsearch::Domain", R"({"EnableVersionUpgrade": {}})") ==
        "Invalid UpdatePolicy for resource R: EnableVersionUpgrade must be a boolean");
  CHECK(Check("AWS::AppStream::Fleet", R"({"StartAfterUpdate": "later"})") ==
        "Invalid UpdatePolicy for resource R: StartAfterUpdate must be a boolean");
  CHECK(Check("AWS::AppStream::Fleet", R"({"StopBeforeUpdate": {"Type": "Boolean"}})") ==
        "Invalid UpdatePolicy for resource R: StopBeforeUpdate.Type must be a boolean");
  CHECK(Check("AWS::AppStream::Fleet", "", R"({"StartFleet": "soon"})") ==
        "Invalid CreationPolicy for resource R: StartFleet must be a boolean");
  CHECK(Check("AWS::Lambda::Alias", R"({"CodeDeployLambdaAliasUpdate": {"ApplicationName": ["a"],
             "DeploymentGroupName": "d"}})") ==
        "Invalid UpdatePolicy for resource R: CodeDeployLambdaAliasUpdate.ApplicationName must be a string");
  CHECK(Check(kAsg, "", R"({"ResourceSignal": "PT5M"})") ==
        "Invalid CreationPolicy for resource R: ResourceSignal must be an object");
  CHECK(Check(kAsg, R"({"Allow": {"Update": "no"}})") ==
        "Invalid UpdatePolicy for resource R: Allow.Update must be a boolean");
  CHECK(Check("AWS::S3::Bucket", R"({"Allow": {"Replace": 0}})") ==
        "Invalid UpdatePolicy for resource R: Allow.Replace must be a boolean");
}

TEST_CASE("PauseTime: an ISO 8601 duration of at most PT1H (AWS's message)", "[policy]") {
  for (const char* bad : {"PT", "10M", "PT10", "PT1H1S", "PT61M", "PT3601S", "P1D", "PT5m", "soon"}) {
    INFO(bad);
    CHECK(Rolling(std::string(R"("PauseTime": ")") + bad + "\"") == kPauseTimeError);
  }
  CHECK(Rolling(R"("PauseTime": 300)") == kPauseTimeError);
  CHECK(Rolling(R"("PauseTime": "PT0S")") == "");
  CHECK(Rolling(R"("PauseTime": "PT3600S")") == "");
}

TEST_CASE("MaxBatchSize 1-100, percentages 0-100", "[policy]") {
  for (const char* bad : {"0", "101", "-1", "\"0\"", "\"101\""}) {
    INFO(bad);
    CHECK(Rolling(std::string(R"("MaxBatchSize": )") + bad) ==
          "Invalid Autoscaling rolling update policy: MaxBatchSize must be an integer from 1 to 100");
  }
  CHECK(Rolling(R"("MaxBatchSize": "100")") == "");
  CHECK(Rolling(R"("MinSuccessfulInstancesPercent": 101)") ==
        "Invalid Autoscaling rolling update policy: MinSuccessfulInstancesPercent must be an integer from 0 to 100");
  CHECK(Rolling(R"("MinActiveInstancesPercent": -5)") ==
        "Invalid Autoscaling rolling update policy: MinActiveInstancesPercent must be an integer from 0 to 100");
  CHECK(Rolling(R"("MinInstancesInService": -1)") ==
        "Invalid Autoscaling rolling update policy: MinInstancesInService must be an integer of at least 0");
  CHECK(Check(kAsg, "", R"({"AutoScalingCreationPolicy": {"MinSuccessfulInstancesPercent": "150"}})") ==
        "Invalid CreationPolicy for resource R: AutoScalingCreationPolicy.MinSuccessfulInstancesPercent must be an "
        "integer from 0 to 100");
}

TEST_CASE("MinSuccessfulInstancesPercent needs WaitOnResourceSignals, MinActiveInstancesPercent a PauseTime", "[policy]") {
  CHECK(Rolling(R"("MinSuccessfulInstancesPercent": 50, "WaitOnResourceSignals": false, "PauseTime": "PT5M")") ==
        "Invalid Autoscaling rolling update policy: MinSuccessfulInstancesPercent requires WaitOnResourceSignals to "
        "be true");
  CHECK(Rolling(R"("MinSuccessfulInstancesPercent": 50, "WaitOnResourceSignals": "False")") ==
        "Invalid Autoscaling rolling update policy: MinSuccessfulInstancesPercent requires WaitOnResourceSignals to "
        "be true");
  // WaitOnResourceSignals defaults to false (resource_policies.h says why).
  CHECK(Rolling(R"("MinSuccessfulInstancesPercent": 50)") ==
        "Invalid Autoscaling rolling update policy: MinSuccessfulInstancesPercent requires WaitOnResourceSignals to "
        "be true");
  CHECK(Rolling(R"("MinSuccessfulInstancesPercent": 50, "WaitOnResourceSignals": true)") == "");
  CHECK(Rolling(R"("MinSuccessfulInstancesPercent": 50, "WaitOnResourceSignals": true, "PauseTime": "PT5M")") == "");
  CHECK(Rolling(R"("MinActiveInstancesPercent": 50, "WaitOnResourceSignals": false)") ==
        "Invalid Autoscaling rolling update policy: MinActiveInstancesPercent requires PauseTime");
  CHECK(Rolling(R"("MinActiveInstancesPercent": 50, "WaitOnResourceSignals": false, "PauseTime": "PT1M")") == "");
  CHECK(Rolling(R"("MinActiveInstancesPercent": 50)") ==
        "Invalid Autoscaling rolling update policy: MinActiveInstancesPercent requires PauseTime");
  CHECK(Rolling(R"("MinActiveInstancesPercent": 50, "WaitOnResourceSignals": true)") == "");  // PauseTime PT1H
}

TEST_CASE("SuspendProcesses names Auto Scaling processes", "[policy]") {
  CHECK(Rolling(R"("SuspendProcesses": ["HealthCheck", "Reboot"])") ==
        "Invalid Autoscaling rolling update policy: SuspendProcesses has an unknown process Reboot (valid: Launch, "
        "Terminate, HealthCheck, ReplaceUnhealthy, AZRebalance, AlarmNotification, ScheduledActions, "
        "AddToLoadBalancer, InstanceRefresh)");
  CHECK(Rolling(R"("SuspendProcesses": ["launch"])").find("unknown process launch (valid:") != std::string::npos);
  CHECK(Rolling(R"("SuspendProcesses": [{"a": 1}])").find(R"(unknown process {"a":1} (valid:)") != std::string::npos);
  CHECK(Rolling(R"("SuspendProcesses": [])") == "");
}

TEST_CASE("CodeDeployLambdaAliasUpdate needs ApplicationName and DeploymentGroupName", "[policy]") {
  CHECK(Check("AWS::Lambda::Alias", R"({"CodeDeployLambdaAliasUpdate": {"DeploymentGroupName": "d"}})") ==
        "Invalid UpdatePolicy for resource R: CodeDeployLambdaAliasUpdate.ApplicationName is required");
  CHECK(Check("AWS::Lambda::Alias", R"({"CodeDeployLambdaAliasUpdate": {"ApplicationName": "a"}})") ==
        "Invalid UpdatePolicy for resource R: CodeDeployLambdaAliasUpdate.DeploymentGroupName is required");
  CHECK(Check("AWS::Lambda::Alias", R"({"CodeDeployLambdaAliasUpdate": "app"})") ==
        "Invalid UpdatePolicy for resource R: CodeDeployLambdaAliasUpdate must be an object");
}

TEST_CASE("a policy on a type that has none is ignored, except seed 003's Allow", "[policy]") {
  // AWS ignores policies on types that do not support them (see resource_policies.h).
  CHECK(Check("AWS::EC2::Instance", R"({"AutoScalingRollingUpdate": {"MaxBatchSize": 500, "PauseTime": "PT2H"}})") ==
        "");
  CHECK(Check("AWS::S3::Bucket", R"({"Anything": 1})", R"({"ResourceSignal": {"Counts": 1}})") == "");
  CHECK(Check("AWS::SQS::Queue", R"({"Allow": {"Update": "maybe"}})") ==
        "Invalid UpdatePolicy for resource R: Allow.Update must be a boolean");
}

TEST_CASE("Unknown values (not evaluated yet) are not checked, nor what depends on them", "[policy]") {
  const ms::Value unknown = ms::Value::Unknown({"P"});
  ms::Value rolling = ms::Value::MakeMap();
  rolling.set("MaxBatchSize", unknown);
  rolling.set("PauseTime", unknown);
  rolling.set("WaitOnResourceSignals", unknown);
  rolling.set("MinSuccessfulInstancesPercent", ms::Value::Integer(50));
  rolling.set("MinActiveInstancesPercent", ms::Value::Integer(50));
  ms::Value processes = ms::Value::MakeList();
  processes.mutable_list().push_back(unknown);
  rolling.set("SuspendProcesses", processes);
  ms::Value update = ms::Value::MakeMap();
  update.set("AutoScalingRollingUpdate", rolling);
  ms::Value allow = ms::Value::MakeMap();
  allow.set("Update", unknown);
  update.set("Allow", allow);
  CHECK(ms::CheckResourcePolicies("R", kAsg, update, ms::Value()).ok());
  CHECK(ms::CheckResourcePolicies("R", kAsg, unknown, unknown).ok());

  // A known bad value next to unknown ones is still refused.
  rolling.set("MaxBatchSize", ms::Value::Integer(0));
  update.set("AutoScalingRollingUpdate", rolling);
  CHECK(ms::CheckResourcePolicies("R", kAsg, update, ms::Value()).message() ==
        "Invalid Autoscaling rolling update policy: MaxBatchSize must be an integer from 1 to 100");
}

TEST_CASE("policy values: booleans and integers as CloudFormation spells them", "[policy]") {
  bool b = false;
  CHECK((ms::ReadPolicyBool(Json("true"), &b) && b));
  CHECK((ms::ReadPolicyBool(Json(R"("FALSE")"), &b) && !b));
  CHECK_FALSE(ms::ReadPolicyBool(Json(R"("yes")"), &b));
  CHECK_FALSE(ms::ReadPolicyBool(Json("1"), &b));
  int64_t n = 0;
  CHECK((ms::ReadPolicyInteger(Json(R"("2")"), &n) && n == 2));
  CHECK((ms::ReadPolicyInteger(Json("-3"), &n) && n == -3));
  CHECK_FALSE(ms::ReadPolicyInteger(Json("2.5"), &n));
  CHECK_FALSE(ms::ReadPolicyInteger(Json("true"), &n));
}

TEST_CASE("CheckEvaluatedPolicies: with the parameters' values, only resources whose Condition holds", "[policy]") {
  ms::Template t;
  REQUIRE(ms::LoadTemplate(R"({"Parameters": {"Make": {"Type": "String"}, "Batch": {"Type": "String"}},
    "Conditions": {"Make": {"Fn::Equals": [{"Ref": "Make"}, "yes"]}},
    "Resources": {"G": {"Type": "AWS::AutoScaling::AutoScalingGroup", "Condition": "Make",
      "UpdatePolicy": {"AutoScalingRollingUpdate": {"MaxBatchSize": {"Ref": "Batch"}}},
      "Properties": {"MinSize": "0", "MaxSize": "1"}}}})",
                           &t)
              .ok());
  auto check = [&](const std::string& make, const std::string& batch) {
    ms::ParameterValues values;
    REQUIRE(ms::ResolveParameters(t, {{"Make", make}, {"Batch", batch}}, {}, &values).ok());
    ms::PseudoParameters pseudo;
    ms::EvalEnvironment env;
    ms::Evaluator ev(t, values, pseudo, env);
    REQUIRE(ev.EvaluateConditions().ok());
    const ms::Status s = ms::CheckEvaluatedPolicies(ev);
    return s.ok() ? std::string() : s.message();
  };
  CHECK(check("yes", "0") == "Invalid Autoscaling rolling update policy: MaxBatchSize must be an integer from 1 to 100");
  CHECK(check("yes", "5") == "");
  CHECK(check("no", "0") == "");  // G is not created: its policy is not read
}
