// ContinueUpdateRollback, RollbackStack and CancelUpdateStack through boto3
// against `moonstack serve --scenario` (the scenario scripts the failures
// and the slow step a cancel needs), in scaled time.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

std::string ScenarioFile(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / ("moonstack_scenario_" + name + ".lua")).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("boto3: cancel_update_stack, rollback_stack and continue_update_rollback", "[server][update]") {
  // Stack c: Extra's create takes 60 simulated seconds (0.6 s here), time
  // enough to cancel. Stack r: Extra fails (rollback disabled, then
  // rollback_stack). Stack u: Extra fails and the VPC's rollback fails once.
  const std::string scenario = ScenarioFile("rollback_server", R"(
latency({ logical_id = "Slow", action = "create" }, 60)
fail({ logical_id = "Broken", action = "create" }, { always = true, message = "no" })
fail({ logical_id = "Net", action = "rollback" }, { message = "the VPC is busy" })
)");
  Server server("rollback", "0.01", {"--scenario", scenario});
  json r = server.Python(R"(
import time
# The VPC is Vpc, except in stack u (Net: the scenario fails its rollback).
def base(vpc='Vpc', tag='1'):
    return {'Resources': {vpc: {'Type': 'AWS::EC2::VPC', 'Properties': {
        'CidrBlock': '10.0.0.0/16', 'Tags': [{'Key': 'v', 'Value': tag}]}}}}
def plus(name, vpc='Vpc'):
    t = base(vpc, '2')
    t['Resources'][name] = {'Type': 'AWS::EC2::SecurityGroup', 'DependsOn': vpc,
                            'Properties': {'GroupDescription': 'x', 'VpcId': {'Ref': vpc}}}
    return json.dumps(t)
def wait(name, waiter):
    cf.get_waiter(waiter).wait(StackName=name, WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
def status(name):
    return cf.describe_stacks(StackName=name)['Stacks'][0]['StackStatus']
def events(name, since):
    out = []
    for page in cf.get_paginator('describe_stack_events').paginate(StackName=name):
        out += page['StackEvents']
    out.reverse()
    return [e['LogicalResourceId'] + ' ' + e['ResourceStatus'] + ' ' + e.get('ResourceStatusReason', '')
            for e in out][since:]
out = {}
for name in ('c', 'r', 'u'):
    cf.create_stack(StackName=name, TemplateBody=json.dumps(base('Net' if name == 'u' else 'Vpc')))
for name in ('c', 'r', 'u'):
    wait(name, 'stack_create_complete')
out['cancel_refused'] = error(cf.cancel_update_stack, StackName='c')
out['rollback_refused'] = error(cf.rollback_stack, StackName='c')
out['continue_refused'] = error(cf.continue_update_rollback, StackName='c')

# cancel: while Slow is being created
n = len(events('c', 0))
cf.update_stack(StackName='c', TemplateBody=plus('Slow'))
while not any(e.startswith('Slow CREATE_IN_PROGRESS') for e in events('c', n)):
    time.sleep(0.05)
cf.cancel_update_stack(StackName='c')
while status('c').endswith('IN_PROGRESS'):
    time.sleep(0.1)
out['c'] = {'status': status('c'), 'events': events('c', n)}

# rollback_stack after a failed update with rollback disabled
n = len(events('r', 0))
cf.update_stack(StackName='r', TemplateBody=plus('Broken'), DisableRollback=True)
while status('r').endswith('IN_PROGRESS'):
    time.sleep(0.1)
out['r_failed'] = status('r')
out['r_id'] = cf.rollback_stack(StackName='r')['StackId'] == cf.describe_stacks(StackName='r')['Stacks'][0]['StackId']
while status('r').endswith('IN_PROGRESS'):
    time.sleep(0.1)
out['r'] = {'status': status('r'), 'events': events('r', n)}

# continue_update_rollback after the VPC's rollback failed
n = len(events('u', 0))
cf.update_stack(StackName='u', TemplateBody=plus('Broken', 'Net'))
while status('u').endswith('IN_PROGRESS'):
    time.sleep(0.1)
out['u_failed'] = status('u')
cf.continue_update_rollback(StackName='u')
while status('u').endswith('IN_PROGRESS'):
    time.sleep(0.1)
out['u'] = {'status': status('u'), 'events': events('u', n)}
print(json.dumps(out))
)");
  auto refused = [](const std::string& action) {
    return json{{"Code", "ValidationError"},
                {"Message", action + " cannot be called from current stack status"},
                {"Status", 400}};
  };
  CHECK(r["cancel_refused"] == refused("CancelUpdateStack"));
  CHECK(r["rollback_refused"] == refused("RollbackStack"));
  CHECK(r["continue_refused"] == refused("ContinueUpdateRollback"));

  CHECK(r["c"]["status"] == "UPDATE_ROLLBACK_COMPLETE");
  const json& c = r["c"]["events"];
  CHECK(c.front() == "c UPDATE_IN_PROGRESS User Initiated");
  CHECK(std::find(c.begin(), c.end(), "c UPDATE_ROLLBACK_IN_PROGRESS Stack update cancelled") != c.end());
  CHECK(std::find(c.begin(), c.end(), "Slow CREATE_FAILED Resource creation cancelled") != c.end());
  CHECK(c.back() == "c UPDATE_ROLLBACK_COMPLETE ");

  CHECK(r["r_failed"] == "UPDATE_FAILED");
  CHECK(r["r_id"] == true);
  CHECK(r["r"]["status"] == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(r["r"]["events"] == json{
                                "r UPDATE_IN_PROGRESS User Initiated",
                                "Vpc UPDATE_IN_PROGRESS ",
                                "Vpc UPDATE_COMPLETE ",
                                "Broken CREATE_IN_PROGRESS ",
                                "Broken CREATE_FAILED no",
                                "r UPDATE_FAILED The following resource(s) failed to create: [Broken]. ",
                                "r UPDATE_ROLLBACK_IN_PROGRESS User Initiated",
                                "Vpc UPDATE_IN_PROGRESS ",
                                "Vpc UPDATE_COMPLETE ",
                                "r UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                "Broken DELETE_COMPLETE ",
                                "r UPDATE_ROLLBACK_COMPLETE ",
                            });

  CHECK(r["u_failed"] == "UPDATE_ROLLBACK_FAILED");
  CHECK(r["u"]["status"] == "UPDATE_ROLLBACK_COMPLETE");
  const json& u = r["u"]["events"];
  CHECK(std::find(u.begin(), u.end(), "Net UPDATE_FAILED the VPC is busy") != u.end());
  CHECK(std::find(u.begin(), u.end(), "u UPDATE_ROLLBACK_FAILED The following resource(s) failed to update: [Net]. ") !=
        u.end());
  CHECK(u.back() == "u UPDATE_ROLLBACK_COMPLETE ");
}
