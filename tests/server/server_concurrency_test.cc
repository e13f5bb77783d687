// `moonstack serve` running operations on different stacks in parallel
// (serve --workers N), refusing a second operation on a busy stack as AWS
// does, and answering requests while an operation waits — driven by boto3
// from several Python threads.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

TEST_CASE("twenty stacks created concurrently through boto3 all complete, their operations overlapping",
          "[server]") {
  // 10 real ms per simulated second; 3 workers: the 20 operations overlap,
  // never more than 3 at a time. Each VPC takes 30 simulated seconds (a
  // scenario latency: 0.3 s here), so every operation lasts long enough to
  // overlap the next whatever the machine's load.
  const std::string scenario = (fs::temp_directory_path() / "moonstack_concurrency_latency.lua").string();
  std::ofstream(scenario) << "latency({ type = \"AWS::EC2::VPC\", action = \"create\" }, 30)\n";
  Server server("concurrent", "0.01", {"--workers", "3", "--scenario", scenario});
  json r = server.Python(R"(
import threading
from concurrent.futures import ThreadPoolExecutor

def create(i):
    # A client per thread: boto3 sessions are not thread-safe.
    c = boto3.session.Session().client('cloudformation', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
    name = 'stack-%02d' % i
    sid = c.create_stack(StackName=name, TemplateBody=template, ClientRequestToken='token-%02d' % i)['StackId']
    c.get_waiter('stack_create_complete').wait(StackName=name, WaiterConfig={'Delay': 1, 'MaxAttempts': 60})
    events = []
    for page in c.get_paginator('describe_stack_events').paginate(StackName=name):
        events += page['StackEvents']
    return {'name': name, 'id': sid,
            'status': c.describe_stacks(StackName=name)['Stacks'][0]['StackStatus'],
            'events': [[e['LogicalResourceId'], e['ResourceStatus'], e.get('ResourceStatusReason', ''),
                        e.get('ClientRequestToken', ''), e['StackId'],
                        int(e['Timestamp'].timestamp() * 1000)] for e in events]}

with ThreadPoolExecutor(max_workers=20) as pool:
    stacks = list(pool.map(create, range(20)))
print(json.dumps(stacks))
)");
  REQUIRE(r.size() == 20);
  // Each stack's operation: from its first resource event to its last event.
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (size_t i = 0; i < r.size(); ++i) {
    const json& s = r[i];
    INFO(s.dump());
    CHECK(s["status"] == "CREATE_COMPLETE");
    const json& events = s["events"];  // newest first
    std::vector<std::string> sequence;
    for (const json& e : events) {
      sequence.push_back(e[0].get<std::string>() + " " + e[1].get<std::string>() + " " + e[2].get<std::string>());
      CHECK(e[3] == "token-" + std::string(i < 10 ? "0" : "") + std::to_string(i));  // the operation's token
      CHECK(e[4] == s["id"]);
    }
    const std::string name = s["name"];
    CHECK(sequence == std::vector<std::string>{
                          name + " CREATE_COMPLETE ",
                          "Group CREATE_COMPLETE ",
                          "Group CREATE_IN_PROGRESS Resource creation Initiated",
                          "Group CREATE_IN_PROGRESS ",
                          "Vpc CREATE_COMPLETE ",
                          "Vpc CREATE_IN_PROGRESS Resource creation Initiated",
                          "Vpc CREATE_IN_PROGRESS ",
                          name + " CREATE_IN_PROGRESS User Initiated",
                      });
    if (events.size() == 8) spans.emplace_back(events[6][5].get<int64_t>(), events[0][5].get<int64_t>());
  }
  REQUIRE(spans.size() == 20);
  // The most operations running at one instant: more than one (they ran in
  // parallel), at most the 3 workers.
  int most = 0;
  for (const auto& [start, end] : spans) {
    int running = 0;
    for (const auto& [s, e] : spans) running += s <= start && start < e ? 1 : 0;
    most = std::max(most, running);
  }
  CHECK(most > 1);
  CHECK(most <= 3);
}

TEST_CASE("the server refuses an update of a stack whose create is in progress, and creates others meanwhile",
          "[server]") {
  // 50 real ms per simulated second: the wait condition's 600 s timeout is 30 real seconds.
  Server server("busy", "0.05");
  json r = server.Python(R"(
import time, urllib.request
body = json.dumps({
  'Resources': {
    'Handle': {'Type': 'AWS::CloudFormation::WaitConditionHandle'},
    'Wait': {'Type': 'AWS::CloudFormation::WaitCondition',
             'Properties': {'Handle': {'Ref': 'Handle'}, 'Timeout': '600', 'Count': '1'}}}})
out = {}
out['id'] = cf.create_stack(StackName='waiting', TemplateBody=body)['StackId']
try:
    cf.update_stack(StackName='waiting', TemplateBody=template)
except botocore.exceptions.ClientError as e:
    out['update'] = [type(e).__name__, e.response['Error']['Code'], e.response['Error']['Message'],
                     e.response['ResponseMetadata']['HTTPStatusCode']]
# Another stack is created while 'waiting' waits for its signal.
cf.create_stack(StackName='other', TemplateBody=template)
started = time.time()
while time.time() - started < 10:
    if cf.describe_stacks(StackName='other')['Stacks'][0]['StackStatus'] != 'CREATE_IN_PROGRESS':
        break
    time.sleep(0.1)
out['other'] = cf.describe_stacks(StackName='other')['Stacks'][0]['StackStatus']
out['waiting'] = cf.describe_stacks(StackName='waiting')['Stacks'][0]['StackStatus']
url = [r for r in cf.list_stack_resources(StackName='waiting')['StackResourceSummaries']
       if r['LogicalResourceId'] == 'Handle'][0]['PhysicalResourceId']
local = url.replace('https://cloudformation-waitcondition-us-east-1.s3.amazonaws.com', cf.meta.endpoint_url)
signal = json.dumps({'Status': 'SUCCESS', 'Reason': 'done', 'UniqueId': '1', 'Data': 'x'}).encode()
urllib.request.urlopen(urllib.request.Request(local, data=signal, method='PUT', headers={'Content-Type': ''}))
cf.get_waiter('stack_create_complete').wait(StackName='waiting', WaiterConfig={'Delay': 1})
out['updated'] = cf.update_stack(StackName='waiting', TemplateBody=template)['StackId']
cf.get_waiter('stack_update_complete').wait(StackName='waiting', WaiterConfig={'Delay': 1})
out['final'] = cf.describe_stacks(StackName='waiting')['Stacks'][0]['StackStatus']
print(json.dumps(out))
)");
  const std::string id = r["id"];
  CHECK(r["update"] == json::array({"ClientError", "ValidationError",
                                    "Stack:" + id + " is in CREATE_IN_PROGRESS state and can not be updated.", 400}));
  CHECK(r["other"] == "CREATE_COMPLETE");
  CHECK(r["waiting"] == "CREATE_IN_PROGRESS");
  CHECK(r["updated"] == id);
  CHECK(r["final"] == "UPDATE_COMPLETE");
}
