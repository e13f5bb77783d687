// Auto Scaling groups and their UpdatePolicy (seed 004) as a user runs them
// through the moonstack binary, in virtual time: a rolling update, a batch
// that never signals and the rollback, WillReplace, a scheduled action under
// IgnoreUnmodifiedGroupSizeProperties, `world call autoscaling …`. The world
// afterwards holds exactly the instances the events say.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("autoscaling_cli", name) {}

  std::string Physical(const std::string& stack, const std::string& logical) const {
    return Json("describe-stack-resource --stack-name " + stack + " --logical-resource-id " + logical)
        ["StackResourceDetail"]["PhysicalResourceId"];
  }
  nlohmann::json Group(const std::string& name) const {
    auto groups = Json("world call autoscaling DescribeAutoScalingGroups '{\"AutoScalingGroupNames\":[\"" + name +
                       "\"]}'")["AutoScalingGroups"];
    return groups.empty() ? nlohmann::json() : groups[0];
  }
  // "<launch configuration> <lifecycle state>" -> count, over the group's instances.
  std::map<std::string, int> Instances(const std::string& group) const {
    std::map<std::string, int> out;
    const nlohmann::json g = Group(group);  // kept alive for the loop
    for (const auto& i : g["Instances"]) {
      out[i["LaunchConfigurationName"].get<std::string>() + " " + i["LifecycleState"].get<std::string>()]++;
    }
    return out;
  }
  std::string InstanceState(const std::string& id) const {
    return Json("world call ec2 DescribeInstances '{\"InstanceIds\":[\"" + id + "\"]}'")
        ["Reservations"][0]["Instances"][0]["State"]["Name"];
  }
  // The resource's events as "STATUS reason", oldest first, from `from` on.
  std::vector<std::string> ResourceEvents(const std::string& stack, const std::string& logical, size_t from = 0) const {
    std::vector<std::string> out;
    for (const std::string& e : Events(stack, 0)) {
      if (e.rfind(logical + " ", 0) == 0) out.push_back(e.substr(logical.size() + 1));
    }
    return std::vector<std::string>(out.begin() + static_cast<long>(std::min(from, out.size())), out.end());
  }
};

// A launch configuration whose instances signal Web (Script=signal) or not,
// and a group of four under a rolling update policy.
const char* kRolling = R"({
  "Parameters": {"Type": {"Type": "String", "Default": "t3.micro"},
                 "Script": {"Type": "String", "Default": "signal"},
                 "Grace": {"Type": "String", "Default": "0"}},
  "Conditions": {"Signals": {"Fn::Equals": [{"Ref": "Script"}, "signal"]}},
  "Resources": {
    "Config": {"Type": "AWS::AutoScaling::LaunchConfiguration", "Properties": {
      "ImageId": "ami-0123456789abcdef0", "InstanceType": {"Ref": "Type"},
      "UserData": {"Fn::Base64": {"Fn::If": ["Signals",
        {"Fn::Sub": "#!/bin/bash\n/opt/aws/bin/cfn-signal -e $? --stack ${AWS::StackName} --resource Web\n"},
        "#!/bin/bash\necho silent\n"]}}}},
    "Web": {"Type": "AWS::AutoScaling::AutoScalingGroup",
      "UpdatePolicy": {
        "AutoScalingScheduledAction": {"IgnoreUnmodifiedGroupSizeProperties": "true"},
        "AutoScalingRollingUpdate": {"MaxBatchSize": "2", "MinInstancesInService": "2",
                                     "WaitOnResourceSignals": "true", "PauseTime": "PT5M",
                                     "SuspendProcesses": ["AlarmNotification", "ScheduledActions"]}},
      "Properties": {"LaunchConfigurationName": {"Ref": "Config"}, "MinSize": "1", "MaxSize": "6",
                     "DesiredCapacity": "4", "HealthCheckGracePeriod": {"Ref": "Grace"},
                     "AvailabilityZones": ["us-east-1a", "us-east-1b"]}}
  }
})";

}  // namespace

TEST_CASE("autoscaling: a rolling update replaces every instance, the old ones are terminated", "[cli][autoscaling]") {
  Cli cli("rolling");
  const std::string t = cli.Write("t.json", kRolling);
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  const std::string group = cli.Physical("s", "Web");
  const std::string lc1 = cli.Physical("s", "Config");
  std::vector<std::string> old;
  const nlohmann::json before = cli.Group(group);
  for (const auto& i : before["Instances"]) old.push_back(i["InstanceId"]);
  REQUIRE(old.size() == 4);
  CHECK(cli.Instances(group) == std::map<std::string, int>{{lc1 + " InService", 4}});

  cli.Json("update-stack --stack-name s --use-previous-template --parameters ParameterKey=Type,ParameterValue=t3.small "
           "ParameterKey=Script,UsePreviousValue=true ParameterKey=Grace,UsePreviousValue=true");
  CHECK(cli.Status("s") == "UPDATE_COMPLETE");
  const std::string lc2 = cli.Physical("s", "Config");
  CHECK(lc2 != lc1);
  CHECK(cli.Physical("s", "Web") == group);  // the same group, its instances replaced
  CHECK(cli.Instances(group) == std::map<std::string, int>{{lc2 + " InService", 4}});
  for (const std::string& id : old) CHECK(cli.InstanceState(id) == "terminated");
  nlohmann::json g = cli.Group(group);
  CHECK(g["MinSize"] == 1);
  CHECK(g["DesiredCapacity"] == 4);
  CHECK(g["SuspendedProcesses"].empty());  // suspended for the update only
  Run gone = cli("world call autoscaling DescribeLaunchConfigurations '{\"LaunchConfigurationNames\":[\"" + lc1 + "\"]}'");
  CHECK(nlohmann::json::parse(gone.out)["LaunchConfigurations"].empty());  // the old configuration deleted in cleanup
}

TEST_CASE("autoscaling: a batch that never signals fails the update, the rollback restores the old instances",
          "[cli][autoscaling]") {
  Cli cli("failing");
  const std::string t = cli.Write("t.json", kRolling);
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  const std::string group = cli.Physical("s", "Web");
  const std::string lc1 = cli.Physical("s", "Config");
  Run update = cli("update-stack --stack-name s --use-previous-template --parameters "
                   "ParameterKey=Type,ParameterValue=t3.small ParameterKey=Script,ParameterValue=silent "
                   "ParameterKey=Grace,UsePreviousValue=true");
  INFO(update.out);
  CHECK(cli.Status("s") == "UPDATE_ROLLBACK_COMPLETE");
  std::vector<std::string> failed;
  for (const std::string& e : cli.ResourceEvents("s", "Web")) {
    if (e.rfind("UPDATE_FAILED", 0) == 0) failed.push_back(e);
  }
  CHECK(failed == std::vector<std::string>{"UPDATE_FAILED Received 0 SUCCESS signal(s) out of 4. Unable to satisfy 100% "
                                           "MinSuccessfulInstancesPercent requirement"});
  // The rollback moved the group back and replaced the failed batch.
  CHECK(cli.Physical("s", "Config") == lc1);
  CHECK(cli.Group(group)["LaunchConfigurationName"] == lc1);
  CHECK(cli.Instances(group) == std::map<std::string, int>{{lc1 + " InService", 4}});
  CHECK(cli.Group(group)["SuspendedProcesses"].empty());  // resumed after the failure too
}

TEST_CASE("autoscaling: WillReplace makes a new group, the old one is deleted in cleanup, or kept on failure",
          "[cli][autoscaling]") {
  Cli cli("replace");
  std::string tmpl = kRolling;
  const std::string from = R"("UpdatePolicy": {)";
  tmpl.replace(tmpl.find(from), from.size(),
               R"("CreationPolicy": {"ResourceSignal": {"Count": "4", "Timeout": "PT5M"}},
                  "UpdatePolicy": {"AutoScalingReplacingUpdate": {"WillReplace": "true"},)");
  const std::string t = cli.Write("t.json", tmpl);
  // The group's instances really boot and signal: no automatic signals.
  cli.Json("world load " + cli.Write("config.lua",
                                      R"(world.put("config", "cloudformation", { creation_policy_auto_signal_types = {} }))"));
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  const std::string first = cli.Physical("s", "Web");

  cli.Json("update-stack --stack-name s --use-previous-template --parameters ParameterKey=Type,ParameterValue=t3.small "
           "ParameterKey=Script,UsePreviousValue=true ParameterKey=Grace,UsePreviousValue=true");
  CHECK(cli.Status("s") == "UPDATE_COMPLETE");
  const std::string second = cli.Physical("s", "Web");
  CHECK(second != first);
  CHECK(cli.Group(first).is_null());
  const std::string lc2 = cli.Physical("s", "Config");
  CHECK(cli.Instances(second) == std::map<std::string, int>{{lc2 + " InService", 4}});
  std::vector<std::string> web = cli.ResourceEvents("s", "Web");
  CHECK(std::count(web.begin(), web.end(),
                   "UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; hence creating one.") == 1);

  // A replacement whose instances never signal: the new group goes, the old one stays.
  cli.Json("update-stack --stack-name s --use-previous-template --parameters ParameterKey=Type,ParameterValue=t3.medium "
           "ParameterKey=Script,ParameterValue=silent ParameterKey=Grace,UsePreviousValue=true");
  CHECK(cli.Status("s") == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(cli.Physical("s", "Web") == second);
  CHECK(cli.Instances(second) == std::map<std::string, int>{{lc2 + " InService", 4}});
  const std::vector<std::string> after = cli.ResourceEvents("s", "Web", web.size());
  CHECK(std::count(after.begin(), after.end(), "UPDATE_FAILED Failed to receive 4 resource signal(s) within the specified duration") == 1);
  const auto groups = cli.Json("world call autoscaling DescribeAutoScalingGroups '{}'")["AutoScalingGroups"];
  REQUIRE(groups.size() == 1);  // the failed replacement was deleted
  CHECK(groups[0]["AutoScalingGroupName"] == second);
}

TEST_CASE("autoscaling: IgnoreUnmodifiedGroupSizeProperties keeps the capacity a scheduled action set",
          "[cli][autoscaling]") {
  Cli cli("scheduled");
  std::string tmpl = kRolling;
  const std::string end = R"(
  }
})";
  tmpl.replace(tmpl.rfind(end), end.size(), R"(,
    "Peak": {"Type": "AWS::AutoScaling::ScheduledAction", "Properties": {
      "AutoScalingGroupName": {"Ref": "Web"}, "DesiredCapacity": "5", "StartTime": "2020-01-01T00:00:00Z"}}
  }
})");
  const std::string t = cli.Write("t.json", tmpl);
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  REQUIRE(cli.Status("s") == "CREATE_COMPLETE");
  const std::string group = cli.Physical("s", "Web");
  CHECK(cli.Group(group)["DesiredCapacity"] == 5);  // the action's time has come: it ran
  cli.Json("update-stack --stack-name s --use-previous-template --parameters ParameterKey=Grace,ParameterValue=60 "
           "ParameterKey=Type,UsePreviousValue=true ParameterKey=Script,UsePreviousValue=true");
  CHECK(cli.Status("s") == "UPDATE_COMPLETE");
  nlohmann::json g = cli.Group(group);
  CHECK(g["HealthCheckGracePeriod"] == 60);
  CHECK(g["DesiredCapacity"] == 5);  // the template's unchanged "4" is not sent
}

TEST_CASE("autoscaling: a launch hook of LifecycleHookSpecificationList holds the group's first instances until "
          "CompleteLifecycleAction", "[cli][autoscaling][hooks]") {
  Cli cli("launch_hook");
  const std::string t = cli.Write("t.json", R"({
  "Resources": {
    "Config": {"Type": "AWS::AutoScaling::LaunchConfiguration", "Properties": {
      "ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro"}},
    "Web": {"Type": "AWS::AutoScaling::AutoScalingGroup", "Properties": {
      "LaunchConfigurationName": {"Ref": "Config"}, "MinSize": "2", "MaxSize": "2",
      "AvailabilityZones": ["us-east-1a"],
      "LifecycleHookSpecificationList": [{"LifecycleHookName": "ready",
        "LifecycleTransition": "autoscaling:EC2_INSTANCE_LAUNCHING", "HeartbeatTimeout": 7200}]}}
  }
})");
  // What a launch hook's handler does: record the waiting states, then let
  // each instance go on.
  const std::string scenario = cli.Write("ready.lua", R"(
on({ logical_id = "Web", reason = "Resource creation Initiated" }, function(event, aws)
  local g = aws.autoscaling.DescribeAutoScalingGroups { AutoScalingGroupNames = { event.PhysicalResourceId } }.AutoScalingGroups[1]
  local states = {}
  for _, i in ipairs(g.Instances) do
    states[#states + 1] = i.LifecycleState
    aws.autoscaling.CompleteLifecycleAction { AutoScalingGroupName = g.AutoScalingGroupName, LifecycleHookName = "ready",
      LifecycleActionResult = "CONTINUE", InstanceId = i.InstanceId }
  end
  world.put("test", "held", { states = table.concat(states, ",") })
end)
)");
  cli.Json("create-stack --stack-name s --template-body file://" + t + " --scenario " + scenario);
  CHECK(cli.Status("s") == "CREATE_COMPLETE");
  CHECK(cli.Json("world show held --kind test")["Data"]["states"] == "Pending:Wait,Pending:Wait");
  CHECK(cli.Instances(cli.Physical("s", "Web")) == std::map<std::string, int>{{cli.Physical("s", "Config") + " InService", 2}});
  CHECK(cli.Json("world call autoscaling DescribeLifecycleHooks '{\"AutoScalingGroupName\":\"" + cli.Physical("s", "Web") +
                 "\"}'")["LifecycleHooks"][0]["HeartbeatTimeout"] == 7200);
}

TEST_CASE("autoscaling: world call changes a stack's group out of band, with AWS's errors", "[cli][autoscaling][world]") {
  Cli cli("world");
  const std::string t = cli.Write("t.json", kRolling);
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  const std::string group = cli.Physical("s", "Web");
  cli.Json("world call autoscaling SetDesiredCapacity '{\"AutoScalingGroupName\":\"" + group + "\",\"DesiredCapacity\":6}'");
  CHECK(cli.Group(group)["Instances"].size() == 6);
  Run bad = cli("world call autoscaling SetDesiredCapacity '{\"AutoScalingGroupName\":\"" + group + "\",\"DesiredCapacity\":7}'");
  CHECK(bad.exit_code == 255);
  CHECK(bad.out == "\nAn error occurred (ValidationError) when calling the SetDesiredCapacity operation: New "
                   "SetDesiredCapacity value 7 is above max value 6 for the AutoScalingGroup.\n");
  cli.Json("world call autoscaling SuspendProcesses '{\"AutoScalingGroupName\":\"" + group +
           "\",\"ScalingProcesses\":[\"Launch\"]}'");
  const std::string victim = cli.Group(group)["Instances"][0]["InstanceId"];
  cli.Json("world call autoscaling TerminateInstanceInAutoScalingGroup '{\"InstanceId\":\"" + victim +
           "\",\"ShouldDecrementDesiredCapacity\":false}'");
  nlohmann::json g = cli.Group(group);
  CHECK(g["Instances"][0]["LifecycleState"] == "Terminating");
  CHECK(g["Instances"].size() == 6);  // Launch suspended: no replacement
  CHECK(g["SuspendedProcesses"][0]["ProcessName"] == "Launch");
  REQUIRE(cli("delete-stack --stack-name s").exit_code == 0);
  CHECK(cli.Group(group).is_null());
  CHECK(cli.InstanceState(victim) == "terminated");
}

namespace {

// "UPDATE_IN_PROGRESS <reason>" for each reason.
std::vector<std::string> InProgress(const std::vector<std::string>& reasons) {
  std::vector<std::string> out;
  for (const std::string& r : reasons) out.push_back("UPDATE_IN_PROGRESS " + r);
  return out;
}

std::string List(const std::vector<std::string>& ids) {
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + ids[i];
  return out + "]";
}

// The group's instance IDs, launch order.
std::vector<std::string> Ids(const Cli& cli, const std::string& group) {
  std::vector<std::string> out;
  const nlohmann::json g = cli.Group(group);
  for (const auto& i : g["Instances"]) out.push_back(i["InstanceId"]);
  return out;
}

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const char* kInitiated =
    "Rolling update initiated. Terminating 4 obsolete instance(s) in batches of 2, while keeping at least 2 "
    "instance(s) in service. Waiting on resource signals with a timeout of PT5M when new instances are added to the "
    "autoscaling group.";
const char* kWaiting2 = "New instance(s) added to autoscaling group - Waiting on 2 resource signal(s) with a timeout of PT5M.";

}  // namespace

TEST_CASE("autoscaling: the rolling update's events, batch by batch, as deploy shows them", "[cli][autoscaling][events]") {
  Cli cli("events");
  const std::string t = cli.Write("t.json", kRolling);
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  const std::string group = cli.Physical("s", "Web");
  const std::vector<std::string> old = Ids(cli, group);
  const size_t from = cli.ResourceEvents("s", "Web").size();
  cli.Json("update-stack --stack-name s --use-previous-template --parameters ParameterKey=Type,ParameterValue=t3.small "
           "ParameterKey=Script,UsePreviousValue=true ParameterKey=Grace,UsePreviousValue=true");
  const std::vector<std::string> now = Ids(cli, group);
  REQUIRE(now.size() == 4);
  const std::vector<std::string> expected = Concat(
      Concat({"UPDATE_IN_PROGRESS "},
             InProgress({kInitiated,
                         "Terminating instance(s) " + List({old[0], old[1]}) + "; replacing with 2 new instance(s).",
                         "Successfully terminated instance(s) " + List({old[0], old[1]}) + " (Progress 50%).", kWaiting2,
                         "Received SUCCESS signal with UniqueId " + now[0], "Received SUCCESS signal with UniqueId " + now[1],
                         "Terminating instance(s) " + List({old[2], old[3]}) + "; replacing with 2 new instance(s).",
                         "Successfully terminated instance(s) " + List({old[2], old[3]}) + " (Progress 100%).", kWaiting2,
                         "Received SUCCESS signal with UniqueId " + now[2],
                         "Received SUCCESS signal with UniqueId " + now[3]})),
      {"UPDATE_COMPLETE "});
  CHECK(cli.ResourceEvents("s", "Web", from) == expected);
}

TEST_CASE("autoscaling: a batch that never signals: the failure's events, then the rollback's with the old policy",
          "[cli][autoscaling][events]") {
  Cli cli("failing_events");
  // MaxBatchSize comes from a parameter: 1 when created, 10 in the failing update.
  std::string tmpl = kRolling;
  const std::string batch = R"("MaxBatchSize": "2", "MinInstancesInService": "2")";
  tmpl.replace(tmpl.find(batch), batch.size(), R"("MaxBatchSize": {"Ref": "Batch"})");
  const std::string params = R"("Parameters": {)";
  tmpl.replace(tmpl.find(params), params.size(), R"("Parameters": {"Batch": {"Type": "String", "Default": "1"},)");
  const std::string desired = R"("DesiredCapacity": "4")";
  tmpl.replace(tmpl.find(desired), desired.size(), R"("DesiredCapacity": "3")");
  const std::string t = cli.Write("t.json", tmpl);
  cli.Json("create-stack --stack-name s --template-body file://" + t);
  const std::string group = cli.Physical("s", "Web");
  const std::string lc1 = cli.Physical("s", "Config");
  const std::vector<std::string> old = Ids(cli, group);
  REQUIRE(old.size() == 3);
  const size_t from = cli.ResourceEvents("s", "Web").size();
  // A scenario records the group's suspended processes when the update starts.
  const std::string scenario = cli.Write("watch.lua", R"(
on({ logical_id = "Web", reason = "Rolling update initiated", once = false }, function(event, aws)
  local g = aws.autoscaling.DescribeAutoScalingGroups { AutoScalingGroupNames = { event.PhysicalResourceId } }.AutoScalingGroups[1]
  local names = {}
  for _, p in ipairs(g.SuspendedProcesses) do names[#names + 1] = p.ProcessName end
  table.sort(names)
  local seen = world.get("test", "suspended") or { during = {} }
  local during = {}
  for _, d in ipairs(seen.during or {}) do during[#during + 1] = d end
  during[#during + 1] = table.concat(names, ",")
  world.put("test", "suspended", { during = during })
end)
)");
  cli("update-stack --stack-name s --use-previous-template --scenario " + scenario + " --parameters "
      "ParameterKey=Type,ParameterValue=t3.small ParameterKey=Script,ParameterValue=silent "
      "ParameterKey=Grace,UsePreviousValue=true ParameterKey=Batch,ParameterValue=10");
  CHECK(cli.Status("s") == "UPDATE_ROLLBACK_COMPLETE");
  std::vector<std::string> events = cli.ResourceEvents("s", "Web", from);
  REQUIRE(events.size() > 8);
  // The update: one batch of 3 (the new policy), no signal within PT5M.
  std::vector<std::string> update(events.begin(), events.begin() + 7);
  CHECK(update == Concat(Concat({"UPDATE_IN_PROGRESS "},
                                InProgress({"Rolling update initiated. Terminating 3 obsolete instance(s) in batches of 3. "
                                            "Waiting on resource signals with a timeout of PT5M when new instances are "
                                            "added to the autoscaling group.",
                                            "Terminating instance(s) " + List(old) + "; replacing with 3 new instance(s).",
                                            "Successfully terminated instance(s) " + List(old) + " (Progress 100%).",
                                            "New instance(s) added to autoscaling group - Waiting on 3 resource signal(s) "
                                            "with a timeout of PT5M.",
                                            "Failed to receive 3 resource signal(s) for the current batch. Each resource "
                                            "signal timeout is counted as a FAILURE."})),
                         {"UPDATE_FAILED Received 0 SUCCESS signal(s) out of 3. Unable to satisfy 100% "
                          "MinSuccessfulInstancesPercent requirement"}));
  // The rollback: the old policy's batches of 1.
  std::vector<std::string> rollback(events.begin() + 7, events.end());
  REQUIRE(rollback.size() >= 2);
  CHECK(rollback[0] == "UPDATE_IN_PROGRESS ");
  CHECK(rollback[1] == "UPDATE_IN_PROGRESS Rolling update initiated. Terminating 3 obsolete instance(s) in batches of 1. "
                       "Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling "
                       "group.");
  int terminating = 0;
  for (const std::string& e : rollback) {
    if (e.rfind("UPDATE_IN_PROGRESS Terminating instance(s) [", 0) == 0) {
      ++terminating;
      CHECK(e.find(',') == std::string::npos);  // one instance per batch
    }
  }
  CHECK(terminating == 3);
  CHECK(rollback.back() == "UPDATE_COMPLETE ");
  CHECK(cli.Instances(group) == std::map<std::string, int>{{lc1 + " InService", 3}});
  // SuspendProcesses: suspended while each rolling update ran, resumed after the failure and after the rollback.
  const nlohmann::json seen = cli.Json("world show suspended --kind test")["Data"];
  CHECK(seen["during"] == nlohmann::json::array({"AlarmNotification,ScheduledActions", "AlarmNotification,ScheduledActions"}));
  CHECK(cli.Group(group)["SuspendedProcesses"].empty());
}
