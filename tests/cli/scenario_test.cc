// `--scenario FILE.lua`: scripted faults, latency and out-of-band reactions
// during a stack workflow, run through the real binary with the built-in
// providers and the simulated cloud, in virtual time (deterministic).
#include <catch2/catch.hpp>

#include "test_util.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

struct Run {
  int exit_code;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Each test case its own state directory: ctest runs cases in parallel.
std::string g_case = "default";
std::string Dir() {
  return (std::filesystem::temp_directory_path() / ("moonstack_scenario_" + g_case)).string();
}

void Fresh(const std::string& name) {
  g_case = name;
  std::filesystem::remove_all(Dir());
  std::filesystem::create_directories(Dir());
}

std::string Write(const std::string& name, const std::string& text) {
  std::string path = Dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// moonstack ARGS --state <case dir>/state.db
Run Moonstack(const std::string& args) {
  const std::string err_file = Dir() + "/stderr.txt";
  std::string cmd = std::string(MOONSTACK_BINARY) + " " + args + " --state " + Dir() + "/state.db 2>" + err_file;
  ms::test::CommandResult r = ms::test::RunCommand(cmd);
  return {r.exit_code, r.out, Slurp(err_file)};
}

Run Create(const std::string& template_path, const std::string& scenario = "", const std::string& extra = "") {
  return Moonstack("create-stack --stack-name scn --template-body file://" + template_path +
                   (scenario.empty() ? "" : " --scenario " + scenario) + extra);
}

// "2026-11-22T10:28:07.123000+00:00" -> ms since the epoch.
int64_t ParseTimestamp(const std::string& s) {
  std::tm tm{};
  int ms = 0;
  REQUIRE(std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                      &tm.tm_min, &tm.tm_sec, &ms) == 7);
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + ms;
}

struct Event {
  std::string logical_id, status, reason, physical_id;
  int64_t ms;
};

// The stack's events, oldest first.
std::vector<Event> Events(const std::string& stack = "scn") {
  Run r = Moonstack("describe-stack-events --stack-name " + stack);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const json doc = json::parse(r.out);  // kept: a range-for over a temporary's member dangles
  std::vector<Event> out;
  for (const json& e : doc["StackEvents"]) {
    out.push_back({e["LogicalResourceId"], e["ResourceStatus"], e.value("ResourceStatusReason", ""),
                   e.value("PhysicalResourceId", ""), ParseTimestamp(e["Timestamp"])});
  }
  return std::vector<Event>(out.rbegin(), out.rend());
}

// "Logical STATUS[ reason]" per event, oldest first; only `logical_id`'s when given.
std::vector<std::string> Lines(const std::vector<Event>& events, const std::string& logical_id = "") {
  std::vector<std::string> out;
  for (const Event& e : events) {
    if (!logical_id.empty() && e.logical_id != logical_id) continue;
    out.push_back(e.logical_id + " " + e.status + (e.reason.empty() ? "" : " " + e.reason));
  }
  return out;
}

std::string StackStatus(const std::string& stack = "scn") {
  Run r = Moonstack("describe-stacks --stack-name " + stack);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out)["Stacks"][0]["StackStatus"];
}

std::string PhysicalId(const std::string& logical_id) {
  Run r = Moonstack("describe-stack-resource --stack-name scn --logical-resource-id " + logical_id);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out)["StackResourceDetail"]["PhysicalResourceId"];
}

// The simulated instance's state name (`moonstack world show ID`).
std::string InstanceState(const std::string& id) {
  Run r = Moonstack("world show " + id + " --kind ec2.instance");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out)["Data"]["State"]["Name"];
}

const char* kDefaultMessage = "Resource handler returned message: \"Injected failure\"";

// A security group and one instance in it.
const char* kOneInstance = R"({
  "Resources": {
    "WebGroup": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "web"}},
    "Instance2": {"Type": "AWS::EC2::Instance", "Properties": {
      "ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro",
      "SecurityGroupIds": [{"Fn::GetAtt": ["WebGroup", "GroupId"]}]}}
  }
})";

// A security group and two independent instances in it.
const char* kTwoInstances = R"({
  "Resources": {
    "WebGroup": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "web"}},
    "Instance1": {"Type": "AWS::EC2::Instance", "Properties": {
      "ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro",
      "SecurityGroupIds": [{"Fn::GetAtt": ["WebGroup", "GroupId"]}]}},
    "Instance2": {"Type": "AWS::EC2::Instance", "Properties": {
      "ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro",
      "SecurityGroupIds": [{"Fn::GetAtt": ["WebGroup", "GroupId"]}]}}
  }
})";

}  // namespace

TEST_CASE("scenario: failing a logical ID once rolls the create back", "[scenario]") {
  Fresh("fail_once");
  std::string t = Write("t.json", kOneInstance);
  std::string s = Write("s.lua", "fail({ logical_id = 'Instance2' })\n");
  Run r = Create(t, s);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(Lines(Events()) == std::vector<std::string>{
                               "scn CREATE_IN_PROGRESS User Initiated",
                               "WebGroup CREATE_IN_PROGRESS",
                               "WebGroup CREATE_IN_PROGRESS Resource creation Initiated",
                               "WebGroup CREATE_COMPLETE",
                               "Instance2 CREATE_IN_PROGRESS",
                               std::string("Instance2 CREATE_FAILED ") + kDefaultMessage,
                               "scn ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Instance2]. ",
                               "Instance2 DELETE_COMPLETE",
                               "WebGroup DELETE_IN_PROGRESS",
                               "WebGroup DELETE_COMPLETE",
                               "scn ROLLBACK_COMPLETE",
                           });
  // The failure was injected instead of the call: no instance was launched.
  Run world = Moonstack("world list --kind ec2.instance");
  REQUIRE(world.exit_code == 0);
  CHECK(json::parse(world.out)["Records"].empty());
}

TEST_CASE("scenario: a failure's message and code are the resource's status reason", "[scenario]") {
  Fresh("fail_message");
  std::string t = Write("t.json", kOneInstance);
  std::string s = Write("s.lua", R"(
    fail({ type = "AWS::EC2::Instance", action = "create" }, { message = "Instance2 is not welcome here" })
  )");
  REQUIRE(Create(t, s, " --disable-rollback").exit_code == 0);
  CHECK(StackStatus() == "CREATE_FAILED");
  CHECK(Lines(Events(), "Instance2") == std::vector<std::string>{
                                            "Instance2 CREATE_IN_PROGRESS",
                                            "Instance2 CREATE_FAILED Instance2 is not welcome here",
                                        });

  // A code without a message: the handler-message shape with the code.
  Fresh("fail_code");
  t = Write("t.json", kOneInstance);
  s = Write("s.lua", "fail({ logical_id = 'Instance2' }, { code = 'NotStabilized' })\n");
  REQUIRE(Create(t, s).exit_code == 0);
  std::string reason;
  for (const Event& e : Events()) {
    if (e.logical_id == "Instance2" && e.status == "CREATE_FAILED") reason = e.reason;
  }
  CHECK_THAT(reason, Catch::Matches(R"(Resource handler returned message: "Injected failure" )"
                                    R"(\(RequestToken: [0-9a-f-]{36}, HandlerErrorCode: NotStabilized\))"));
}

TEST_CASE("scenario: times counts matching calls, only the first ones fail", "[scenario]") {
  // delete-stack sends both instances' deletes at once (nothing orders
  // them); `times` says how many of them fail.
  for (int times : {1, 2}) {
    Fresh("times_delete_" + std::to_string(times));
    std::string t = Write("t.json", kTwoInstances);
    REQUIRE(Create(t).exit_code == 0);
    const std::string i1 = PhysicalId("Instance1"), i2 = PhysicalId("Instance2");
    std::string s = Write("s.lua", "fail({ type = 'AWS::EC2::Instance', action = 'delete' }, { times = " +
                                       std::to_string(times) + ", message = 'injected' })\n");
    Run d = Moonstack("delete-stack --stack-name scn --scenario " + s);
    INFO(d.err);
    REQUIRE(d.exit_code == 0);
    CHECK(StackStatus() == "DELETE_FAILED");
    std::vector<Event> events = Events();
    std::vector<std::string> failed, deleted;
    for (const Event& e : events) {
      if (e.status == "DELETE_FAILED" && e.logical_id != "scn") {
        CHECK(e.reason == "injected");
        failed.push_back(e.logical_id);
      }
      if (e.status == "DELETE_COMPLETE") deleted.push_back(e.logical_id);
    }
    // The security group waits for its dependents: it is never deleted.
    CHECK(Lines(events, "WebGroup").back() == "WebGroup CREATE_COMPLETE");
    if (times == 1) {
      REQUIRE(failed.size() == 1);
      REQUIRE(deleted.size() == 1);
      CHECK(std::set<std::string>{failed[0], deleted[0]} == std::set<std::string>{"Instance1", "Instance2"});
      CHECK(Lines(events, "scn").back() ==
            "scn DELETE_FAILED The following resource(s) failed to delete: [" + failed[0] + "]. ");
      // What failed was never asked to terminate: it still runs.
      CHECK(InstanceState(failed[0] == "Instance1" ? i1 : i2) == "running");
      CHECK(InstanceState(deleted[0] == "Instance1" ? i1 : i2) == "terminated");
    } else {
      CHECK(failed.size() == 2);
      CHECK(deleted.empty());
      CHECK(Lines(events, "scn").back() ==
            "scn DELETE_FAILED The following resource(s) failed to delete: [Instance1, Instance2]. ");
      CHECK(InstanceState(i1) == "running");
      CHECK(InstanceState(i2) == "running");
    }
    // A later delete-stack without the scenario finishes the job.
    Run again = Moonstack("delete-stack --stack-name scn");
    INFO(again.err);
    REQUIRE(again.exit_code == 0);
    CHECK(InstanceState(i1) == "terminated");
    CHECK(InstanceState(i2) == "terminated");
  }
}

TEST_CASE("scenario: calls are counted as they are sent, across actions", "[scenario]") {
  // Both instances' creates are sent together after the security group.
  // times = 1: one create fails; the other instance, launched, is cancelled
  // and its rollback delete (a matching call too) goes through.
  Fresh("times_create_1");
  std::string t = Write("t.json", kTwoInstances);
  std::string s = Write("s.lua", "fail({ type = 'AWS::EC2::Instance' }, { message = 'injected' })\n");
  REQUIRE(Create(t, s).exit_code == 0);
  CHECK(StackStatus() == "ROLLBACK_COMPLETE");
  std::vector<Event> events = Events();
  std::string failed, cancelled;
  for (const Event& e : events) {
    if (e.status == "CREATE_FAILED" && e.reason == "injected") failed = e.logical_id;
    if (e.status == "CREATE_FAILED" && e.reason == "Resource creation cancelled") cancelled = e.logical_id;
  }
  REQUIRE(std::set<std::string>{failed, cancelled} == std::set<std::string>{"Instance1", "Instance2"});
  std::vector<std::string> lines = Lines(events, cancelled);
  CHECK(std::vector<std::string>(lines.end() - 2, lines.end()) ==
        std::vector<std::string>{cancelled + " DELETE_IN_PROGRESS", cancelled + " DELETE_COMPLETE"});
  CHECK(Lines(events, failed) == std::vector<std::string>{failed + " CREATE_IN_PROGRESS", failed + " CREATE_FAILED injected",
                                                          failed + " DELETE_COMPLETE"});
  Run world = Moonstack("world list --kind ec2.instance");
  auto records = json::parse(world.out)["Records"];
  REQUIRE(records.size() == 1);
  CHECK(InstanceState(records[0]["Id"]) == "terminated");

  // times = 2: both creates fail before anything is launched (the second
  // answer arrives after the first has cancelled it), so nothing is deleted.
  Fresh("times_create_2");
  t = Write("t.json", kTwoInstances);
  s = Write("s.lua", "fail({ type = 'AWS::EC2::Instance' }, { times = 2, message = 'injected' })\n");
  REQUIRE(Create(t, s).exit_code == 0);
  CHECK(StackStatus() == "ROLLBACK_COMPLETE");
  events = Events();
  for (const char* id : {"Instance1", "Instance2"}) {
    lines = Lines(events, id);
    REQUIRE(lines.size() == 3);
    CHECK(lines.back() == std::string(id) + " DELETE_COMPLETE");
  }
  world = Moonstack("world list --kind ec2.instance");
  CHECK(json::parse(world.out)["Records"].empty());
}

TEST_CASE("scenario: polls are matched only with phase = poll", "[scenario]") {
  Fresh("phase_poll");
  std::string t = Write("t.json", kOneInstance);
  std::string s = Write("s.lua", R"(
    fail({ logical_id = "Instance2", phase = "poll" }, { message = "never reached running" })
  )");
  REQUIRE(Create(t, s).exit_code == 0);
  CHECK(StackStatus() == "ROLLBACK_COMPLETE");
  // The first call launched the instance; the check after it failed, and the
  // rollback terminated what was launched.
  CHECK(Lines(Events(), "Instance2") == std::vector<std::string>{
                                            "Instance2 CREATE_IN_PROGRESS",
                                            "Instance2 CREATE_IN_PROGRESS Resource creation Initiated",
                                            "Instance2 CREATE_FAILED never reached running",
                                            "Instance2 DELETE_IN_PROGRESS",
                                            "Instance2 DELETE_COMPLETE",
                                        });
  Run world = Moonstack("world list --kind ec2.instance");
  auto records = json::parse(world.out)["Records"];
  REQUIRE(records.size() == 1);
  CHECK(InstanceState(records[0]["Id"]) == "terminated");
}

TEST_CASE("scenario: on(event) terminates an instance out of band when it completes", "[scenario]") {
  Fresh("terminate");
  std::string t = Write("t.json", kTwoInstances);
  std::string s = Write("s.lua", R"(
    on({ logical_id = "Instance2", status = "CREATE_COMPLETE" }, function(event, aws)
      aws.ec2.TerminateInstances { InstanceIds = { event.PhysicalResourceId } }
      print("terminated " .. event.PhysicalResourceId .. " at " .. event.Timestamp)
    end)
  )");
  Run r = Create(t, s);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(StackStatus() == "CREATE_COMPLETE");  // CloudFormation does not watch its resources
  const std::string i1 = PhysicalId("Instance1"), i2 = PhysicalId("Instance2");
  CHECK(r.err.find("terminated " + i2 + " at 20") != std::string::npos);
  const std::string state = InstanceState(i2);
  CHECK((state == "shutting-down" || state == "terminated"));
  CHECK(InstanceState(i1) == "running");

  // The handler ran once: a later workflow with no scenario deletes the stack.
  Run d = Moonstack("delete-stack --stack-name scn");
  INFO(d.err);
  REQUIRE(d.exit_code == 0);
  const std::string stack_id = json::parse(r.out)["StackId"];  // a deleted stack is found by ID only
  CHECK(Lines(Events(stack_id)).back() == "scn DELETE_COMPLETE");
  CHECK(InstanceState(i1) == "terminated");
  CHECK(InstanceState(i2) == "terminated");
}

TEST_CASE("scenario: latency shifts the events by the injected virtual seconds", "[scenario]") {
  // The same create without and with 300 s of latency on Instance2's create.
  auto instance_events = [](const std::string& scenario) {
    std::string t = Write("t.json", kOneInstance);
    std::string s = scenario.empty() ? "" : Write("s.lua", scenario);
    Run r = Create(t, s);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return Events();
  };
  auto at = [](const std::vector<Event>& events, const std::string& line) {
    for (const Event& e : events) {
      if (e.logical_id + " " + e.status + (e.reason.empty() ? "" : " " + e.reason) == line) return e.ms;
    }
    FAIL("no event " + line);
    return int64_t{0};
  };
  Fresh("latency_none");
  std::vector<Event> plain = instance_events("");
  Fresh("latency_300");
  std::vector<Event> slow = instance_events("latency({ logical_id = 'Instance2', action = 'create' }, 300)\n");
  CHECK(Lines(slow) == Lines(plain));

  const std::string start = "Instance2 CREATE_IN_PROGRESS";
  const std::string initiated = "Instance2 CREATE_IN_PROGRESS Resource creation Initiated";
  CHECK(at(plain, initiated) - at(plain, start) == 0);
  CHECK(at(slow, initiated) - at(slow, start) == 300000);
  // Only the first call is delayed (polls are not), so the whole create is 300 s longer.
  const int64_t plain_total = at(plain, "scn CREATE_COMPLETE") - at(plain, "scn CREATE_IN_PROGRESS User Initiated");
  const int64_t slow_total = at(slow, "scn CREATE_COMPLETE") - at(slow, "scn CREATE_IN_PROGRESS User Initiated");
  CHECK(slow_total - plain_total == 300000);
}

TEST_CASE("scenario: delete-stack takes a scenario too", "[scenario]") {
  Fresh("delete");
  std::string t = Write("t.json", kOneInstance);
  REQUIRE(Create(t).exit_code == 0);
  std::string s = Write("s.lua", "fail({ logical_id = 'WebGroup', action = 'delete' }, { message = 'still in use' })\n");
  Run d = Moonstack("delete-stack --stack-name scn --scenario " + s);
  INFO(d.err);
  REQUIRE(d.exit_code == 0);
  CHECK(StackStatus() == "DELETE_FAILED");
  std::vector<std::string> lines = Lines(Events(), "WebGroup");
  REQUIRE(lines.size() >= 2);
  CHECK(lines.back() == "WebGroup DELETE_FAILED still in use");
  CHECK(Lines(Events(), "Instance2").back() == "Instance2 DELETE_COMPLETE");
}

TEST_CASE("scenario: a script that fails to load stops the command before the workflow", "[scenario]") {
  Fresh("syntax");
  std::string t = Write("t.json", kOneInstance);
  std::string s = Write("broken.lua", "fail({ logical_id = 'Instance2' })\non({ status = 'X' }, function()\n");
  Run r = Create(t, s);
  CHECK(r.exit_code == 255);
  CHECK(r.out.empty());  // no StackId: nothing started
  CHECK_THAT(r.err, Catch::StartsWith("\nAn error occurred (ValidationError) when calling the CreateStack operation: "
                                      "Scenario script " + s + ":3: "));
  Run d = Moonstack("describe-stacks --stack-name scn");
  CHECK(d.exit_code == 255);
  CHECK(d.err.find("Stack with id scn does not exist") != std::string::npos);

  // A wrong rule is reported at the script's line.
  s = Write("typo.lua", "\n\nfail({ logicalId = 'Instance2' })\n");
  r = Create(t, s);
  CHECK(r.exit_code == 255);
  CHECK(r.err == "\nAn error occurred (ValidationError) when calling the CreateStack operation: Scenario script " + s +
                     ":3: fail: unknown match key \"logicalId\" (expected action, logical_id, phase, type)\n");

  r = Create(t, Dir() + "/missing.lua");
  CHECK(r.exit_code == 255);
  CHECK(r.err.find("Scenario script " + Dir() + "/missing.lua: cannot read the file") != std::string::npos);
}

TEST_CASE("scenario: scripts run sandboxed, under the usual limits", "[scenario]") {
  Fresh("sandbox");
  std::string t = Write("t.json", kOneInstance);
  const std::string marker = Dir() + "/escaped";
  std::string s = Write("s.lua", "os.execute('touch " + marker + "')\n");
  Run r = Create(t, s);
  CHECK(r.exit_code == 255);
  CHECK_THAT(r.err, Catch::Contains("Scenario script " + s + ":1: attempt to call field 'execute' (a nil value)"));
  CHECK_FALSE(std::filesystem::exists(marker));

  s = Write("loop.lua", "-- spins\nwhile true do end\n");
  r = Create(t, s);
  CHECK(r.exit_code == 255);
  CHECK_THAT(r.err, Catch::Contains("Scenario script " + s + ":2: the script exceeded its deadline of 2 s"));
}

TEST_CASE("scenario: an error in a handler fails the command, naming the script's line", "[scenario]") {
  Fresh("handler_error");
  std::string t = Write("t.json", kOneInstance);
  // An AWS error from the sim, raised inside sim code the handler called.
  std::string s = Write("s.lua", R"(-- line 1
on({ logical_id = "WebGroup", status = "CREATE_COMPLETE" }, function(event, aws)
  aws.ec2.TerminateInstances { InstanceIds = { "i-0000000000000dead" } }
end)
on({ logical_id = "Instance2", status = "CREATE_COMPLETE" }, function() error("never runs") end)
)");
  Run r = Create(t, s);
  CHECK(r.exit_code == 255);
  CHECK_THAT(r.err, Catch::StartsWith("\nAn error occurred (ValidationError) when calling the CreateStack operation: "
                                      "Scenario script " + s + ":3: in the handler of WebGroup CREATE_COMPLETE: "));
  CHECK(r.err.find("i-0000000000000dead") != std::string::npos);
  // The workflow itself ran to its end (the scenario stopped acting).
  CHECK(StackStatus() == "CREATE_COMPLETE");

  Fresh("handler_error_plain");
  t = Write("t.json", kOneInstance);
  s = Write("s.lua", "on({ status = 'CREATE_COMPLETE' }, function(e)\n  local x = e.Nothing.field\nend)\n");
  r = Create(t, s);
  CHECK(r.exit_code == 255);
  CHECK_THAT(r.err, Catch::Contains("Scenario script " + s + ":2: in the handler of WebGroup CREATE_COMPLETE: "
                                    "attempt to index field 'Nothing' (a nil value)"));
}

TEST_CASE("scenario: the example scripts run against their template", "[scenario]") {
  const std::string dir = std::string(MOONSTACK_SOURCE_DIR) + "/examples/scenarios/";
  const std::string t = dir + "two-instances.yaml";

  Fresh("example_terminate");
  Run r = Create(t, dir + "terminate-on-complete.lua");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(StackStatus() == "CREATE_COMPLETE");
  const std::string state = InstanceState(PhysicalId("Instance2"));
  CHECK((state == "shutting-down" || state == "terminated"));

  Fresh("example_fail");
  r = Create(t, dir + "fail-instance.lua");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(StackStatus() == "ROLLBACK_COMPLETE");
  CHECK_THAT(Lines(Events(), "Instance2")[1],
             Catch::StartsWith("Instance2 CREATE_FAILED We currently do not have sufficient t3.micro capacity"));

  Fresh("example_slow");
  r = Create(t, dir + "slow-network.lua");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(StackStatus() == "ROLLBACK_COMPLETE");
  std::vector<Event> events = Events();
  bool stabilize_failure = false;
  for (const Event& e : events) {
    if (e.logical_id == "Instance1" && e.status == "CREATE_FAILED" &&
        e.reason.find("HandlerErrorCode: NotStabilized") != std::string::npos) {
      stabilize_failure = true;
    }
  }
  CHECK(stabilize_failure);
}
