// `moonstack serve` reloads a provider whose file changed before the next
// operation that uses it (host/lua/provider_host.cc, LuaProviderSession::Own;
// the session pool tells kept sessions a new operation starts): an edit is
// seen by every worker's session without a restart, a file that no longer
// loads fails that operation with its file:line, and fixing it makes the next
// operation work.
#include <catch2/catch.hpp>

#include <fstream>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

namespace {

// Test::Reload::Thing, whose attribute Version says which version of the
// file answered. `padding` changes the file's size too.
std::string ThingProvider(const std::string& version, const std::string& padding = "") {
  return "local P = require('moonstack.provider')\n"
         "-- version " + version + padding + "\n"
         "return P.define {\n"
         "  type = 'Test::Reload::Thing',\n"
         "  properties = { P.string 'Name' { required = true, update = 'none' } },\n"
         "  attributes = { 'Version' },\n"
         "  create = function(ctx, props)\n"
         "    return { id = ctx.logical_id .. '-' .. props.Name, attributes = { Version = '" + version + "' } }\n"
         "  end,\n"
         "  update = function(ctx, id, new, old) return { attributes = { Version = '" + version + "' } } end,\n"
         "  delete = function() end,\n"
         "}\n";
}

// Two independent things: created and updated in parallel by two workers,
// each with its own Lua state.
const char* kThings = R"({
  "Parameters": {"Name": {"Type": "String"}},
  "Resources": {
    "A": {"Type": "Test::Reload::Thing", "Properties": {"Name": {"Ref": "Name"}}},
    "B": {"Type": "Test::Reload::Thing", "Properties": {"Name": {"Ref": "Name"}}}
  },
  "Outputs": {"VersionA": {"Value": {"Fn::GetAtt": ["A", "Version"]}},
              "VersionB": {"Value": {"Fn::GetAtt": ["B", "Version"]}}}
})";

// Creates (first) or updates the stack `things` with Name=`name` and waits for
// the end: the stack's status, reason, outputs, resources (logical id ->
// [physical id, status]) and the status reasons of its failed events.
json Deploy(const Server& server, const std::string& name, bool create) {
  return server.Python(std::string(create ? "cf.create_stack" : "cf.update_stack") +
                       "(StackName='things', TemplateBody=open('" + server.dir() + R"(/things.json').read(),
    Parameters=[{'ParameterKey': 'Name', 'ParameterValue': ')" + name + R"('}])
import time
for _ in range(400):
    s = cf.describe_stacks(StackName='things')['Stacks'][0]
    if not s['StackStatus'].endswith('_IN_PROGRESS'):
        break
    time.sleep(0.05)
resources = {r['LogicalResourceId']: [r['PhysicalResourceId'], r['ResourceStatus']]
             for r in cf.describe_stack_resources(StackName='things')['StackResources']}
failed = [e.get('ResourceStatusReason', '') for e in cf.describe_stack_events(StackName='things')['StackEvents']
          if e['ResourceStatus'].endswith('_FAILED')]
print(json.dumps({'Status': s['StackStatus'], 'Reason': s.get('StackStatusReason', ''),
                  'Outputs': {o['OutputKey']: o['OutputValue'] for o in s.get('Outputs', [])},
                  'Resources': resources, 'Failed': failed}))
)");
}

}  // namespace

TEST_CASE("serve reloads an edited provider before the next operation, and a broken edit fails only that operation",
          "[server][reload]") {
  const fs::path providers = fs::temp_directory_path() / "moonstack_reload_providers";
  fs::remove_all(providers);
  fs::create_directories(providers / "test" / "reload");
  const std::string file = (providers / "test" / "reload" / "thing.lua").string();
  std::ofstream(file) << ThingProvider("v1");

  Server server("provider_reload", "0.001", {"--providers", providers.string(), "--workers", "2"});
  std::ofstream(server.dir() + "/things.json") << kThings;

  json created = Deploy(server, "one", true);
  INFO(created.dump());
  REQUIRE(created["Status"] == "CREATE_COMPLETE");
  CHECK(created["Outputs"] == json{{"VersionA", "v1"}, {"VersionB", "v1"}});

  // v2: both workers' sessions (each loaded v1) answer with the new code.
  std::ofstream(file) << ThingProvider("v2", " (edited)");
  json v2 = Deploy(server, "two", false);
  INFO(v2.dump());
  REQUIRE(v2["Status"] == "UPDATE_COMPLETE");
  CHECK(v2["Outputs"] == json{{"VersionA", "v2"}, {"VersionB", "v2"}});
  CHECK(v2["Resources"]["A"] == json{"A-one", "UPDATE_COMPLETE"});

  // A syntax error on line 3: the update fails with the file's line, and what
  // is deployed stays as v2 left it.
  std::ofstream(file) << "local P = require('moonstack.provider')\n-- broken\nreturn P.define { = }\n";
  json broken = Deploy(server, "three", false);
  INFO(broken.dump());
  CHECK(broken["Status"] == "UPDATE_ROLLBACK_COMPLETE");
  bool names_line = false;
  for (const json& reason : broken["Failed"]) {
    // Lua shortens a long file name from the left ("...").
    const std::string text = reason.get<std::string>(), tail = "/test/reload/thing.lua:3: unexpected symbol near '='";
    names_line = names_line || (text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0);
  }
  CHECK(names_line);
  CHECK(broken["Outputs"] == json{{"VersionA", "v2"}, {"VersionB", "v2"}});
  CHECK(broken["Resources"]["A"][0] == "A-one");
  CHECK(broken["Resources"]["B"][0] == "B-one");

  // Fixed: the next operation loads it and works.
  std::ofstream(file) << ThingProvider("v3", " (fixed)");
  json fixed = Deploy(server, "four", false);
  INFO(fixed.dump());
  CHECK(fixed["Status"] == "UPDATE_COMPLETE");
  CHECK(fixed["Outputs"] == json{{"VersionA", "v3"}, {"VersionB", "v3"}});
  fs::remove_all(providers);
}

TEST_CASE("serve sees an attribute an edited provider adds: Fn::GetAtt of it validates without a restart",
          "[server][reload]") {
  const fs::path providers = fs::temp_directory_path() / "moonstack_reload_attribute_providers";
  fs::remove_all(providers);
  fs::create_directories(providers / "test" / "reload");
  const std::string file = (providers / "test" / "reload" / "thing.lua").string();
  std::ofstream(file) << ThingProvider("v1");

  Server server("provider_reload_attribute", "0.001", {"--providers", providers.string()});
  std::ofstream(server.dir() + "/things.json") << kThings;
  json created = Deploy(server, "one", true);
  INFO(created.dump());
  REQUIRE(created["Status"] == "CREATE_COMPLETE");

  // v2 declares a second attribute, Extra; the template's new output reads it.
  std::string v2 = ThingProvider("v2", " (Extra added)");
  const std::string attrs = "attributes = { 'Version' }", update_attrs = "attributes = { Version = 'v2' }";
  v2.replace(v2.find(attrs), attrs.size(), "attributes = { 'Version', 'Extra' }");
  v2.replace(v2.rfind(update_attrs), update_attrs.size(), "attributes = { Version = 'v2', Extra = 'more' }");
  std::ofstream(file) << v2;
  json with_extra = json::parse(kThings);
  with_extra["Outputs"]["ExtraA"] = json{{"Value", json{{"Fn::GetAtt", json{"A", "Extra"}}}}};
  std::ofstream(server.dir() + "/things.json") << with_extra.dump();
  json updated = Deploy(server, "two", false);
  INFO(updated.dump());
  CHECK(updated["Status"] == "UPDATE_COMPLETE");
  CHECK(updated["Outputs"] == json{{"VersionA", "v2"}, {"VersionB", "v2"}, {"ExtraA", "more"}});
  fs::remove_all(providers);
}
