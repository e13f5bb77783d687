// Provider tooling: `moonstack provider new` and `provider test` (the
// contract test kit) run as a user runs them; custom resources and stub types
// through the Lua provider host; --stub-unknown-types in validate-template.
#include <catch2/catch.hpp>

#include "test_util.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include "lua/provider_host.h"

namespace fs = std::filesystem;
using ms::HookCall;
using ms::HookOutcome;
using ms::Value;
using ms::lua::LuaProviderRuntime;
using ms::lua::ProviderPaths;

namespace {

const std::string kSource = MOONSTACK_SOURCE_DIR;
const std::string kFixtures = kSource + "/tests/host/providers/";

using Run = ms::test::CommandResult;

Run Moonstack(const std::string& args) {
  std::string cmd = std::string(MOONSTACK_BINARY) + " " + args + " 2>&1";
  return ms::test::RunCommand(cmd);
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A fresh directory per test case (ctest runs cases in parallel).
std::string TempDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("moonstack_tooling_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string LastLine(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

}  // namespace

// --- provider new / provider test ----------------------------------------------------

TEST_CASE("provider new scaffolds a provider that passes provider test as it is", "[cli][tooling]") {
  const std::string dir = TempDir("new");
  Run r = Moonstack("provider new Acme::Thing::Widget --dir " + dir);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(fs::is_regular_file(dir + "/acme/thing/widget.lua"));
  CHECK(fs::is_regular_file(dir + "/acme/thing/tests/widget.lua"));

  r = Moonstack("provider test " + dir + "/acme/thing/widget.lua");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(Has(r.out, "ok   provider loads (Acme::Thing::Widget)\n"));
  CHECK(Has(r.out, "ok   update 2 (Mode: some) rolls back (update with old and new swapped)\n"));
  CHECK(Has(r.out, "ok   update 3 (Name: replace) replaces the resource\n"));
  CHECK(Has(r.out, "ok   updates cover every declared update kind (none: Size; some: Mode; replace: Name)\n"));
  CHECK(Has(r.out, "ok   delete leaves nothing in the world\n"));
  CHECK(Has(r.out, "ok   create re-called with the same progress creates nothing more\n"));
  CHECK(LastLine(r.out) == "23 passed, 0 failed");

  // The scaffold is also a provider the host loads.
  r = Moonstack("provider describe Acme::Thing::Widget --providers " + dir);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["Attributes"] == nlohmann::json::array({"WidgetId", "Arn"}));
  fs::remove_all(dir);
}

TEST_CASE("provider new refuses to overwrite and checks the type name", "[cli][tooling]") {
  const std::string dir = TempDir("new_refuse");
  REQUIRE(Moonstack("provider new Acme::Thing::Widget --dir " + dir).exit_code == 0);
  std::ofstream(dir + "/acme/thing/widget.lua") << "-- mine\n";
  Run r = Moonstack("provider new Acme::Thing::Widget --dir " + dir);
  CHECK(r.exit_code == 1);
  CHECK(r.out == "moonstack: " + dir + "/acme/thing/widget.lua already exists; not overwriting it\n");
  std::ifstream in(dir + "/acme/thing/widget.lua");
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(kept == "-- mine\n");

  for (const std::string bad : {"Acme::Widget", "A::Thing::Widget", "Acme::Thing::Wid-get", "Acme::Thing::Widget::X"}) {
    r = Moonstack("provider new " + bad + " --dir " + dir);
    CHECK(r.exit_code == 1);
    CHECK(r.out == "moonstack: invalid type name \"" + bad +
                       "\": expected Organization::Service::Resource, three parts of 2 to 64 letters or digits "
                       "(AWS's rule for resource type names)\n");
  }
  fs::remove_all(dir);
}

TEST_CASE("provider test names the failing check and exits 1", "[cli][tooling]") {
  Run r = Moonstack("provider test " + kFixtures + "contract_bad/leaky.lua");
  INFO(r.out);
  CHECK(r.exit_code == 1);
  CHECK(Has(r.out, "ok   update 1 (Name: replace) replaces the resource\n"));
  CHECK(Has(r.out, "FAIL delete leaves nothing in the world: left test.leaky/leaky-a, test.leaky/leaky-b\n"));
  // Neither a read hook nor a verify: nothing would tell a no-op from a create.
  CHECK(Has(r.out, "FAIL the kit can see what the hooks did (a read hook, or the fixture's verify): the provider "
                   "has no read hook and the fixture no verify: a create or update that does nothing would pass\n"));
  // Its create overwrites a resource of the same name: two stack resources, one physical resource.
  CHECK(Has(r.out, "FAIL a second create with the same properties fails with AlreadyExists or makes another "
                   "resource: it returned the same id leaky-a: answer AlreadyExists (HandlerErrorCode) when the "
                   "resource exists\n"));
  CHECK(Has(r.out, "skip an update of the deleted resource fails with NotFound: skipped: the provider has no update "
                   "hook\n"));
  CHECK(LastLine(r.out) == "8 passed, 3 failed, 3 skipped");

  r = Moonstack("provider test " + kFixtures + "contract_bad/noattr.lua");
  INFO(r.out);
  CHECK(r.exit_code == 1);
  CHECK(Has(r.out, "FAIL create returns every declared attribute: missing Arn\n"));
  CHECK(Has(r.out, "FAIL update 1 (Size: none) updates in place: Size cannot be 2\n"));
  CHECK(Has(r.out, "FAIL updates cover every declared update kind (none: Size): no update exercises replace (Name)\n"));
  CHECK(Has(r.out, "ok   delete leaves nothing in the world\n"));
  CHECK(LastLine(r.out) == "6 passed, 5 failed, 3 skipped");
}

TEST_CASE("provider test without a fixture names the path it expected", "[cli][tooling]") {
  Run r = Moonstack("provider test " + kFixtures + "base/widget.lua");
  CHECK(r.exit_code == 2);
  CHECK(r.out == "moonstack: no contract-test fixture for " + kFixtures + "base/widget.lua: expected " + kFixtures +
                     "base/tests/widget.lua (see lua-sdk/README.md, \"Contract tests\")\n");
  r = Moonstack("provider test " + kFixtures + "nope.lua");
  CHECK(r.exit_code == 2);
  CHECK(r.out == "moonstack: cannot read provider file " + kFixtures + "nope.lua\n");
}

TEST_CASE("the example and custom-resource providers pass their contract tests", "[cli][tooling]") {
  Run r = Moonstack("provider test " + kSource + "/examples/providers/server.lua");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(Has(r.out, "ok   update 3 (InstanceType: some) updates in place\n"));
  CHECK(Has(r.out, "skip update 5 (Tenancy: unsupported): skipped: the engine fails an unsupported update without "
                   "calling a hook\n"));

  r = Moonstack("provider test " + kSource + "/providers/aws/cloudformation/custom_resource.lua");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(Has(r.out, "ok   update 2 (Name: none) updates, returning a new physical id (the old one is deleted in "
                   "cleanup)\n"));
  CHECK(Has(r.out, "ok   delete leaves nothing in the world\n"));
}

// --- custom resources through the Lua host --------------------------------------------

namespace {

// The custom-resource provider alone (a copy, so other built-in providers do
// not matter here) and the test handlers (custom/echo.lua).
ProviderPaths CustomPaths(const std::string& dir) {
  fs::create_directories(dir + "/cfn");
  fs::copy_file(kSource + "/providers/aws/cloudformation/custom_resource.lua", dir + "/cfn/custom_resource.lua",
                fs::copy_options::overwrite_existing);
  ProviderPaths p;
  p.sdk_dir = kSource + "/lua-sdk";
  p.dirs = {dir + "/cfn", kFixtures + "custom_handlers"};
  return p;
}

std::unique_ptr<LuaProviderRuntime> Load(const ProviderPaths& paths) {
  std::unique_ptr<LuaProviderRuntime> rt;
  ms::Status s = LuaProviderRuntime::Create(paths, ms::lua::Limits(), &rt);
  INFO(s.message());
  REQUIRE(s.ok());
  return rt;
}

HookCall Hook(ms::Hook hook, const std::string& type, const Value& props) {
  HookCall c;
  c.hook = hook;
  c.type = type;
  c.ctx.stack_name = "st";
  c.ctx.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/st/11111111-1111-4111-8111-111111111111";
  c.ctx.logical_id = "Cr";
  c.ctx.region = "us-east-1";
  c.ctx.account_id = "123456789012";
  c.ctx.now_ms = 1700000000000;
  c.properties = props;
  return c;
}

std::string Attr(const HookOutcome& o, const std::string& name) {
  const Value* v = o.attributes.find(name);
  REQUIRE(v != nullptr);
  REQUIRE(v->is_string());
  return v->str();
}

const std::regex kUuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

}  // namespace

TEST_CASE("custom resources: requests with stringified properties, Data as attributes", "[lua][providers][custom]") {
  const std::string dir = TempDir("custom");
  auto rt = Load(CustomPaths(dir));
  const ms::TypeSchema* schema = rt->Schema("Custom::Echo");
  REQUIRE(schema != nullptr);
  CHECK(schema->type == "AWS::CloudFormation::CustomResource");
  CHECK(schema->accepts_undeclared_properties);
  CHECK(rt->Schema("Custom::") == nullptr);
  std::unique_ptr<ms::ProviderSession> session;
  REQUIRE(rt->NewSession(&session).ok());
  REQUIRE(session->Schema("Custom::Other") != nullptr);

  Value raw = Value::MakeMap();
  raw.set("ServiceToken", Value::String("arn:aws:lambda:us-east-1:123456789012:function:echo"));
  raw.set("Name", Value::String("a"));
  raw.set("Count", Value::Integer(3));
  raw.set("Enabled", Value::Bool(true));
  raw.set("Ratio", Value::Double(1.5));
  raw.set("Flags", Value::MakeList({Value::Bool(false), Value::Integer(2)}));
  ms::HookContext vctx;
  vctx.logical_id = "Cr";
  Value props;
  ms::Status s = session->Validate("Custom::Echo", vctx, raw, &props);
  INFO(s.message());
  REQUIRE(s.ok());
  CHECK(session->Validate("Custom::Echo", vctx, Value::MakeMap(), &props).message() ==
        "Properties validation failed for resource Cr with message: #: required key [ServiceToken] not found");
  REQUIRE(session->Validate("Custom::Echo", vctx, raw, &props).ok());

  // Create: CloudFormation's request, every scalar a string.
  HookOutcome o = session->Call(Hook(ms::Hook::kCreate, "Custom::Echo", props));
  INFO(o.reason);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(o.physical_id == "echo-a");
  CHECK(Attr(o, "RequestType") == "Create");
  CHECK(Attr(o, "ResourceType") == "Custom::Echo");
  CHECK(Attr(o, "LogicalResourceId") == "Cr");
  CHECK(Attr(o, "PhysicalResourceId") == "");
  CHECK(Attr(o, "Count") == "3");
  CHECK(Attr(o, "Enabled") == "true");
  CHECK(Attr(o, "Ratio") == "1.5");
  CHECK(o.attributes.find("Flags")->ToJson() == R"(["false","2"])");
  const std::string request_id = Attr(o, "RequestId");
  CHECK(std::regex_match(request_id, kUuid));
  CHECK(Attr(o, "ResponseURL").rfind("https://cloudformation-custom-resource-response-useast1.s3.amazonaws.com/"
                                     "arn%3Aaws%3Acloudformation%3Aus-east-1%3A123456789012%3Astack%2Fst%2F",
                                     0) == 0);
  // Deterministic: the same request has the same RequestId.
  CHECK(Attr(session->Call(Hook(ms::Hook::kCreate, "Custom::Echo", props)), "RequestId") == request_id);

  // Update answered with another physical ID: the resource was replaced.
  Value renamed = props;
  renamed.set("Name", Value::String("b"));
  renamed.set("Count", Value::Integer(4));
  HookCall update = Hook(ms::Hook::kUpdate, "Custom::Echo", renamed);
  update.physical_id = "echo-a";
  update.old_properties = props;
  update.changed = {"Count", "Name"};
  o = session->Call(update);
  INFO(o.reason);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(o.physical_id == "echo-b");
  CHECK(Attr(o, "RequestType") == "Update");
  CHECK(Attr(o, "PhysicalResourceId") == "echo-a");
  CHECK(Attr(o, "Count") == "4");
  CHECK(Attr(o, "OldCount") == "3");
  CHECK(Attr(o, "RequestId") != request_id);

  // Same physical ID: an update in place (no id in the outcome).
  Value recount = props;
  recount.set("Count", Value::Integer(5));
  update.properties = recount;
  update.changed = {"Count"};
  o = session->Call(update);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(o.physical_id.empty());
  CHECK(Attr(o, "Count") == "5");

  // ServiceToken cannot change.
  Value moved = props;
  moved.set("ServiceToken", Value::String("echo"));
  update.properties = moved;
  update.changed = {"ServiceToken"};
  o = session->Call(update);
  CHECK(o.kind == HookOutcome::Kind::kFailed);
  CHECK(o.reason == "Modifying service token is not allowed.");

  HookCall del = Hook(ms::Hook::kDelete, "Custom::Echo", renamed);
  del.physical_id = "echo-b";
  o = session->Call(del);
  CHECK(o.kind == HookOutcome::Kind::kDone);
  fs::remove_all(dir);
}

TEST_CASE("custom resources: FAILED responses, missing handlers and silence fail as on AWS",
          "[lua][providers][custom]") {
  const std::string dir = TempDir("custom_fail");
  auto rt = Load(CustomPaths(dir));
  std::unique_ptr<ms::ProviderSession> session;
  REQUIRE(rt->NewSession(&session).ok());
  auto props = [](const std::string& token, const std::string& flag) {
    Value v = Value::MakeMap();
    v.set("ServiceToken", Value::String(token));
    v.set("Name", Value::String("x"));
    if (!flag.empty()) v.set(flag, Value::Bool(true));
    return v;
  };

  HookOutcome o = session->Call(Hook(ms::Hook::kCreate, "AWS::CloudFormation::CustomResource", props("echo", "Fail")));
  REQUIRE(o.kind == HookOutcome::Kind::kFailed);
  const std::string prefix = "Received response status [FAILED] from custom resource. Message returned: asked to fail "
                             "(RequestId: ";
  CHECK(o.reason.rfind(prefix, 0) == 0);
  CHECK(std::regex_match(o.reason.substr(prefix.size()), std::regex("[0-9a-f-]{36}\\)")));

  o = session->Call(Hook(ms::Hook::kCreate, "Custom::Echo",
                         props("arn:aws:lambda:us-east-1:123456789012:function:nope", "")));
  REQUIRE(o.kind == HookOutcome::Kind::kFailed);
  CHECK(o.reason == "Template error: Function nope doesn't exist");
  o = session->Call(Hook(ms::Hook::kCreate, "Custom::Echo", props("arn:aws:sns:us-east-1:123456789012:echo", "")));
  CHECK(o.kind == HookOutcome::Kind::kDone);

  // No response: CloudFormation waits for the timeout (virtual time), then fails.
  Value silent = props("echo", "Silent");
  silent.set("ServiceTimeout", Value::Integer(60));
  HookCall call = Hook(ms::Hook::kCreate, "Custom::Echo", silent);
  o = session->Call(call);
  REQUIRE(o.kind == HookOutcome::Kind::kInProgress);
  CHECK(o.after_seconds == 60);
  call.ctx.progress = o.progress;
  o = session->Call(call);
  REQUIRE(o.kind == HookOutcome::Kind::kFailed);
  CHECK(std::regex_match(o.reason, std::regex(
      "CloudFormation did not receive a response from your Custom Resource\\. Please check your logs for requestId "
      "\\[[0-9a-f-]{36}\\]\\. If you are using the Python cfn-response module, you may need to update your Lambda "
      "function code so that CloudFormation can attach the updated version\\.")));
  fs::remove_all(dir);
}

// --- stub types ---------------------------------------------------------------------------

TEST_CASE("stub types: unknown types accepted, deterministic IDs, placeholder attributes", "[lua][providers][stub]") {
  ProviderPaths paths;
  paths.sdk_dir = kSource + "/lua-sdk";
  paths.dirs = {kFixtures + "custom_handlers"};  // no providers at all
  CHECK(Load(paths)->Schema("Acme::Queue::Thing") == nullptr);

  paths.stub_unknown_types = true;
  auto rt = Load(paths);
  const ms::TypeSchema* schema = rt->Schema("Acme::Queue::Thing");
  REQUIRE(schema != nullptr);
  CHECK(schema->source == "moonstack.stub (Acme::Queue::Thing)");
  CHECK(schema->accepts_undeclared_properties);
  // AWS's catalog knows it: the generic provider's schema, AWS's attributes.
  const ms::TypeSchema* topic = rt->Schema("AWS::SNS::Topic");
  REQUIRE(topic != nullptr);
  CHECK(topic->source == "generic provider for AWS::SNS::Topic");
  CHECK(topic->HasAttribute("TopicArn"));
  CHECK_FALSE(topic->HasAttribute("Bogus"));
  CHECK(topic->FindProperty("TopicName")->update == ms::UpdateBehavior::kReplace);  // create-only
  CHECK(topic->FindProperty("DisplayName")->update == ms::UpdateBehavior::kNone);
  CHECK(rt->Schema("Not::A") == nullptr);

  std::unique_ptr<ms::ProviderSession> session;
  REQUIRE(rt->NewSession(&session).ok());
  Value props = Value::MakeMap();
  props.set("Anything", Value::Integer(1));
  props.set("Nested", Value::MakeList({Value::String("x")}));
  Value coerced;
  REQUIRE(session->Validate("Acme::Queue::Thing", {}, props, &coerced).ok());
  CHECK(coerced.ToJson() == props.ToJson());

  HookCall create = Hook(ms::Hook::kCreate, "Acme::Queue::Thing", props);
  HookOutcome o = session->Call(create);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(std::regex_match(o.physical_id, std::regex("st-Cr-[A-Z0-9]{13}")));
  CHECK(session->Call(create).physical_id == o.physical_id);
  HookCall other = create;
  other.properties.set("Anything", Value::Integer(2));
  CHECK(session->Call(other).physical_id != o.physical_id);

  HookCall update = Hook(ms::Hook::kUpdate, "Acme::Queue::Thing", other.properties);
  update.physical_id = o.physical_id;
  update.old_properties = props;
  update.changed = {"Anything"};
  ms::UpdateBehavior b;
  REQUIRE(session->DecideUpdate("Acme::Queue::Thing", "Anything", Value::Integer(1), Value::Integer(2), {}, &b).ok());
  CHECK(b == ms::UpdateBehavior::kNone);
  CHECK(session->Call(update).kind == HookOutcome::Kind::kDone);
  HookCall del = Hook(ms::Hook::kDelete, "Acme::Queue::Thing", props);
  del.physical_id = o.physical_id;
  CHECK(session->Call(del).kind == HookOutcome::Kind::kDone);

  // A type AWS knows but no provider implements: served by providers/lib/generic.lua,
  // which is not on this runtime's path.
  o = session->Call(Hook(ms::Hook::kCreate, "AWS::Kinesis::Stream", Value::MakeMap()));
  CHECK(o.kind == HookOutcome::Kind::kFailed);
  CHECK(o.reason == "No provider for resource type AWS::Kinesis::Stream");
  paths.dirs = {kSource + "/providers"};
  auto builtin = Load(paths);
  std::unique_ptr<ms::ProviderSession> with_generic;
  REQUIRE(builtin->NewSession(&with_generic).ok());
  o = with_generic->Call(Hook(ms::Hook::kCreate, "AWS::Kinesis::Stream", Value::MakeMap()));
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  // A generic type's Ref is its schema's primary identifier (the stream's name), its Arn in Kinesis' format.
  CHECK(Attr(o, "Arn") == "arn:aws:kinesis:us-east-1:123456789012:stream/" + o.physical_id);

  o = session->Call(Hook(ms::Hook::kCreate, "Not::A", Value::MakeMap()));
  CHECK(o.kind == HookOutcome::Kind::kFailed);
  CHECK(o.reason == "No provider for resource type Not::A");
}

TEST_CASE("validate-template --stub-unknown-types accepts types no provider implements", "[cli][tooling][stub]") {
  const std::string body =
      "'{\"Resources\":{\"Q\":{\"Type\":\"Acme::Queue::Thing\",\"Properties\":{\"Size\":3}},"
      "\"T\":{\"Type\":\"AWS::SNS::Topic\",\"Properties\":{\"TopicName\":{\"Fn::GetAtt\":[\"Q\",\"Anything\"]}}}}}'";
  Run r = Moonstack("validate-template --template-body " + body);
  CHECK(r.exit_code == 255);
  CHECK(Has(r.out, "Template format error: Unrecognized resource types: [Acme::Queue::Thing]"));
  r = Moonstack("validate-template --stub-unknown-types --template-body " + body);
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["Parameters"].empty());
  r = Moonstack("graph --stub-unknown-types --format mermaid --template-body " + body);
  CHECK(Has(r.out, "  T --> Q\n"));

  // AWS types keep their attribute checks.
  const std::string bad_attr =
      "'{\"Resources\":{\"T\":{\"Type\":\"AWS::SNS::Topic\"},"
      "\"U\":{\"Type\":\"AWS::SNS::Topic\",\"Properties\":{\"TopicName\":{\"Fn::GetAtt\":[\"T\",\"Nope\"]}}}}}'";
  r = Moonstack("validate-template --stub-unknown-types --template-body " + bad_attr);
  CHECK(r.exit_code == 255);
  CHECK(Has(r.out, "Template error: resource T does not support attribute type Nope in Fn::GetAtt"));
}

TEST_CASE("the custom-resource example template validates", "[cli][tooling][custom]") {
  const std::string args =
      " --providers " + kSource + "/examples --template-file " + kSource + "/examples/templates/custom-resource.yaml";
  Run r = Moonstack("validate-template" + args);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["Parameters"][0]["ParameterKey"] == "SuffixLength");
  r = Moonstack("graph --format mermaid" + args);
  CHECK(Has(r.out, "  Logs --> Suffix\n"));
}

TEST_CASE("the custom-resource example's handler answers through the host", "[lua][providers][custom]") {
  const std::string dir = TempDir("custom_example");
  ProviderPaths paths = CustomPaths(dir);
  paths.dirs = {kSource + "/providers", dir + "/cfn", kSource + "/examples"};
  auto rt = Load(paths);
  std::unique_ptr<ms::ProviderSession> session;
  REQUIRE(rt->NewSession(&session).ok());
  Value props = Value::MakeMap();
  props.set("ServiceToken", Value::String("arn:aws:lambda:us-east-1:123456789012:function:random-string"));
  props.set("Length", Value::Integer(8));
  props.set("Lowercase", Value::Bool(true));
  HookOutcome o = session->Call(Hook(ms::Hook::kCreate, "Custom::RandomString", props));
  INFO(o.reason);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(std::regex_match(Attr(o, "Value"), std::regex("[a-z0-9]{8}")));
  CHECK(Attr(o, "Length") == "8");
  CHECK(std::regex_match(o.physical_id, std::regex("random-[0-9a-f]{12}")));

  Value longer = props;
  longer.set("Length", Value::Integer(12));
  HookCall update = Hook(ms::Hook::kUpdate, "Custom::RandomString", longer);
  update.physical_id = o.physical_id;
  update.old_properties = props;
  update.changed = {"Length"};
  HookOutcome u = session->Call(update);
  REQUIRE(u.kind == HookOutcome::Kind::kDone);
  CHECK(Attr(u, "Value").size() == 12);
  CHECK(u.physical_id != o.physical_id);  // a new string: replaced, the old one deleted in cleanup

  longer.set("Length", Value::Integer(500));
  update.properties = longer;
  u = session->Call(update);
  CHECK(u.kind == HookOutcome::Kind::kFailed);
  CHECK(u.reason.rfind("Received response status [FAILED] from custom resource. Message returned: Length must be a "
                       "whole number from 1 to 128, got 500 (RequestId: ",
                       0) == 0);
  fs::remove_all(dir);
}

// --- the built-in providers -------------------------------------------------------------

// tests/providers/contract_known_gaps.tsv: provider file -> the checks it still fails.
std::map<std::string, std::set<std::string>> KnownContractGaps() {
  std::map<std::string, std::set<std::string>> gaps;
  std::ifstream in(kSource + "/tests/providers/contract_known_gaps.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (tab != std::string::npos) gaps[line.substr(0, tab)].insert(line.substr(tab + 1));
  }
  return gaps;
}

// The names of the checks a `provider test` run failed ("FAIL name: why").
std::set<std::string> FailedChecks(const std::string& out) {
  std::set<std::string> failed;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("FAIL ", 0) != 0) continue;
    const std::string rest = line.substr(5);
    failed.insert(rest.substr(0, rest.find(':')));
  }
  return failed;
}

TEST_CASE("every built-in provider passes moonstack provider test but its listed gaps", "[cli][tooling][providers]") {
  const std::map<std::string, std::set<std::string>> gaps = KnownContractGaps();
  REQUIRE_FALSE(gaps.empty());
  const fs::path root = kSource + "/providers";
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name == "lib" || name == "sim" || name == "tests" || name == "custom")) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && it->path().extension() == ".lua") {
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 14);
  for (const std::string& file : files) {
    Run r = Moonstack("provider test " + file);
    INFO(file << "\n" << r.out);
    const std::string relative = file.substr(root.string().size() + 1);
    auto known = gaps.find(relative);
    const std::set<std::string> expected = known == gaps.end() ? std::set<std::string>{} : known->second;
    CHECK(FailedChecks(r.out) == expected);
    CHECK(r.exit_code == (expected.empty() ? 0 : 1));
    CHECK(Has(r.out, " passed, " + std::to_string(expected.size()) + " failed"));
  }
}
