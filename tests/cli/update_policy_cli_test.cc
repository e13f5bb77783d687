// What a provider sees of a resource's UpdatePolicy and CreationPolicy, and
// how it reports progress (seed 004), through the real binary with a
// provider of the test's own (--providers):
//   - ctx.update_policy is evaluated (Ref, Fn::If with AWS::NoValue), in the
//     update-behaviour function at plan time and in every hook;
//   - an update rollback sees the policy of the template rolled back to;
//   - P.in_progress{reason = ...} records one event per reason while the
//     resource stays *_IN_PROGRESS.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_fixture.h"

namespace {

// Test::Policy::Probe: Size's update is a replacement when the UpdatePolicy
// says {Replace: {Enabled: true}}, else in place. Each hook reports what it
// saw as progress events ("policy <json>"); an update of Fail: true fails.
const char* kProbe = R"(
local P = require("moonstack.provider")
local function seen(ctx, what)
  local function j(v)
    if v == nil then return "none" end
    if type(v) ~= "table" then return tostring(v) end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    local out = {}
    for _, k in ipairs(keys) do out[#out + 1] = k .. "=" .. j(v[k]) end
    return "{" .. table.concat(out, ",") .. "}"
  end
  return what .. " policy " .. j(ctx.update_policy) .. " old " .. j(ctx.old_update_policy)
    .. " creation " .. j(ctx.creation_policy)
end
local function step(ctx, what, done)
  if ctx.progress == nil then
    return P.in_progress { after = 10, context = { n = 1 }, reason = { seen(ctx, what), what .. " step 1 of 2" } }
  end
  return done()
end
return P.define {
  type = "Test::Policy::Probe",
  properties = {
    Size = { type = "string", update = function(old, new, ctx)
      local r = ctx.update_policy and ctx.update_policy.Replace
      return (r and r.Enabled == true) and "replace" or "none"
    end },
    Fail = { type = "boolean", update = "none" },
  },
  attributes = {},
  create = function(ctx, props)
    return step(ctx, "create", function() return { id = "probe-" .. ctx.logical_id .. "-" .. (props.Size or "") } end)
  end,
  update = function(ctx, id, new, old)
    return step(ctx, "update", function()
      if new.Fail then P.fail("Injected update failure") end
    end)
  end,
  rollback = function(ctx, id, restore, current)
    return step(ctx, "rollback", function() end)
  end,
  delete = function(ctx, id) end,
  leaves_partial_updates = true,
}
)";

std::string Template(const std::string& size, const std::string& enabled, bool fail) {
  return R"({
  "Parameters": {"Enabled": {"Type": "String", "Default": ")" + enabled + R"("}},
  "Conditions": {"On": {"Fn::Equals": [{"Ref": "Enabled"}, "true"]}},
  "Resources": {
    "Probe": {
      "Type": "Test::Policy::Probe",
      "Properties": {"Size": ")" + size + R"(", "Fail": )" + (fail ? "true" : "false") + R"(},
      "CreationPolicy": {"AutoScalingCreationPolicy": {"MinSuccessfulInstancesPercent": {"Ref": "Enabled"}}},
      "UpdatePolicy": {
        "Replace": {"Enabled": {"Fn::If": ["On", true, false]}},
        "Batch": {"Fn::If": ["On", {"Ref": "AWS::NoValue"}, 2]}
      }
    }
  }
})";
}

struct Probe : ms::test::CliFixture {
  Probe(const std::string& name) : CliFixture("update_policy", name) {
    std::filesystem::create_directories(dir + "/providers");
    Write("providers/probe.lua", kProbe);
  }
  ms::test::CommandResult Run(const std::string& cmd, const std::string& stack, const std::string& body) {
    Write("t.json", body);
    return (*this)(cmd + " --providers " + dir + "/providers --stack-name " + stack +
                   " --template-body file://" + dir + "/t.json");
  }
};

}  // namespace

TEST_CASE("hooks see the UpdatePolicy and CreationPolicy evaluated, and report progress as events",
          "[cli][update_policy]") {
  Probe t("create");
  REQUIRE(t.Run("create-stack", "probe", Template("1", "false", false)).exit_code == 0);
  CHECK(t.Events("probe", 0) == std::vector<std::string>{
                                    "probe CREATE_IN_PROGRESS User Initiated",
                                    "Probe CREATE_IN_PROGRESS ",
                                    "Probe CREATE_IN_PROGRESS Resource creation Initiated",
                                    "Probe CREATE_IN_PROGRESS create policy {Batch=2,Replace={Enabled=false}} old none "
                                    "creation {AutoScalingCreationPolicy={MinSuccessfulInstancesPercent=false}}",
                                    "Probe CREATE_IN_PROGRESS create step 1 of 2",
                                    "Probe CREATE_COMPLETE ",
                                    "probe CREATE_COMPLETE ",
                                });
}

TEST_CASE("a provider's update behaviour reads the evaluated UpdatePolicy, a rollback sees the old template's",
          "[cli][update_policy]") {
  Probe t("update");
  REQUIRE(t.Run("create-stack", "probe", Template("1", "false", false)).exit_code == 0);
  const size_t created = t.Events("probe", 0).size();

  // Enabled=false: Replace.Enabled evaluates to false, so Size changes in place.
  REQUIRE(t.Run("update-stack", "probe", Template("2", "false", false)).exit_code == 0);
  std::vector<std::string> in_place = t.Events("probe", created);
  CHECK(in_place == std::vector<std::string>{
                        "probe UPDATE_IN_PROGRESS User Initiated",
                        "Probe UPDATE_IN_PROGRESS ",
                        "Probe UPDATE_IN_PROGRESS update policy {Batch=2,Replace={Enabled=false}} old "
                        "{Batch=2,Replace={Enabled=false}} creation {AutoScalingCreationPolicy={MinSuccessfulInstancesPercent=false}}",
                        "Probe UPDATE_IN_PROGRESS update step 1 of 2",
                        "Probe UPDATE_COMPLETE ",
                        "probe UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                        "probe UPDATE_COMPLETE ",
                    });
  const size_t after_first = created + in_place.size();

  // Enabled=true: Replace.Enabled is true and Batch is AWS::NoValue, so the
  // Size change is a replacement; the new resource's create sees the new policy.
  REQUIRE(t.Run("update-stack", "probe", Template("3", "true", false)).exit_code == 0);
  std::vector<std::string> replaced = t.Events("probe", after_first);
  CHECK(replaced == std::vector<std::string>{
                        "probe UPDATE_IN_PROGRESS User Initiated",
                        "Probe UPDATE_IN_PROGRESS Requested update requires the creation of a new physical resource; "
                        "hence creating one.",
                        "Probe UPDATE_IN_PROGRESS Resource creation Initiated",
                        "Probe UPDATE_IN_PROGRESS create policy {Replace={Enabled=true}} old none creation "
                        "{AutoScalingCreationPolicy={MinSuccessfulInstancesPercent=true}}",
                        "Probe UPDATE_IN_PROGRESS create step 1 of 2",
                        "Probe UPDATE_COMPLETE ",
                        "probe UPDATE_COMPLETE_CLEANUP_IN_PROGRESS ",
                        "Probe DELETE_IN_PROGRESS ",
                        "Probe DELETE_COMPLETE ",
                        "probe UPDATE_COMPLETE ",
                    });
  CHECK(t.Json("describe-stack-resource --stack-name probe --logical-resource-id Probe")["StackResourceDetail"]
              ["PhysicalResourceId"] == "probe-Probe-3");
  const size_t after_second = after_first + replaced.size();

  // A failing update with Enabled=false: the rollback hook sees the policy
  // of the template rolled back to (Enabled=true's) and the failed one's as old.
  REQUIRE(t.Run("update-stack", "probe", Template("3", "false", true)).exit_code == 0);
  CHECK(t.Status("probe") == "UPDATE_ROLLBACK_COMPLETE");
  CHECK(t.Events("probe", after_second) ==
        std::vector<std::string>{
            "probe UPDATE_IN_PROGRESS User Initiated",
            "Probe UPDATE_IN_PROGRESS ",
            "Probe UPDATE_IN_PROGRESS update policy {Batch=2,Replace={Enabled=false}} old {Replace={Enabled=true}} "
            "creation {AutoScalingCreationPolicy={MinSuccessfulInstancesPercent=false}}",
            "Probe UPDATE_IN_PROGRESS update step 1 of 2",
            "Probe UPDATE_FAILED Injected update failure",
            "probe UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [Probe]. ",
            "Probe UPDATE_IN_PROGRESS ",
            "Probe UPDATE_IN_PROGRESS rollback policy {Replace={Enabled=true}} old {Batch=2,Replace={Enabled=false}} "
            "creation {AutoScalingCreationPolicy={MinSuccessfulInstancesPercent=false}}",
            "Probe UPDATE_IN_PROGRESS rollback step 1 of 2",
            "Probe UPDATE_COMPLETE ",
            "probe UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
            "probe UPDATE_ROLLBACK_COMPLETE ",
        });
}

TEST_CASE("a scenario matches a provider's progress event", "[cli][update_policy]") {
  Probe t("scenario");
  // On the progress event, the create's next look fails: the event was seen
  // between the two calls, as scenarios see every event.
  t.Write("s.lua", R"(on({ logical_id = "Probe", reason = "create step 1 of 2" }, function()
  fail({ logical_id = "Probe", phase = "poll" }, { message = "Stopped after step 1" })
end))");
  t.Write("t.json", Template("1", "false", false));
  ms::test::CommandResult r = t("create-stack --providers " + t.dir + "/providers --scenario " + t.dir +
                                "/s.lua --stack-name probe --template-body file://" + t.dir + "/t.json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> events = t.Events("probe", 0);
  REQUIRE(events.size() >= 6);
  CHECK(events[4] == "Probe CREATE_IN_PROGRESS create step 1 of 2");
  CHECK(events[5] == "Probe CREATE_FAILED Stopped after step 1");
  CHECK(t.Status("probe") == "ROLLBACK_COMPLETE");
}
