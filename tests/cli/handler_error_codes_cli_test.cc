// CloudFormation's handler error codes, as a provider's P.fail(message, code)
// gives them: a delete answering NotFound found its resource gone (done);
// NetworkFailure, Throttling, ServiceInternalError and ResourceConflict are
// retried with a backoff, five times in a row at most; other codes are
// terminal. A failure with a code reads as CloudFormation shows a registry
// type's: `Resource handler returned message: "..." (RequestToken: <uuid>,
// HandlerErrorCode: X)`. Through the moonstack binary, virtual time.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <regex>
#include <string>
#include <vector>

namespace {

// Test::Flaky::Thing: its create fails with Code the first Failures times
// (counted in the world), and its delete answers NotFound when Gone is set.
const char* kProvider = R"(
local P = require("moonstack.provider")
local world = require("moonstack.world")
return P.define {
  type = "Test::Flaky::Thing",
  properties = {
    P.string "Code" { update = "replace" },
    P.integer "Failures" { update = "replace", default = 0 },
    P.boolean "Gone" { update = "replace", default = false },
  },
  create = function(ctx, props)
    local rec = world.get("test", ctx.logical_id) or { calls = 0, first = world.now_ms() }
    local seen = rec.calls + 1
    world.put("test", ctx.logical_id, { calls = seen, first = rec.first, at = world.now_ms() })
    if seen <= props.Failures then P.fail("Rate exceeded", props.Code) end
    return { id = ctx.logical_id .. "-thing" }
  end,
  delete = function(ctx, id, props)
    if props.Gone then P.fail("Thing " .. id .. " not found", "NotFound") end
  end,
}
)";

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("handler_codes_cli", name) {
    std::filesystem::create_directories(dir + "/providers");
    Write("providers/flaky.lua", kProvider);
  }
  std::string Create(const std::string& props) const {
    const std::string t = Write("t.json", R"({"Resources": {"A": {"Type": "Test::Flaky::Thing", "Properties": )" + props + "}}}");
    (*this)("create-stack --stack-name s --providers " + dir + "/providers --template-body file://" + t);
    return Status("s");
  }
  nlohmann::json Calls() const { return Json("world show A --kind test")["Data"]; }
  // The CREATE_FAILED event's reason.
  std::string FailedReason() const {
    for (const std::string& e : Events("s", 0)) {
      if (e.rfind("A CREATE_FAILED ", 0) == 0) return e.substr(16);
    }
    return "";
  }
};

// AWS's wording, with the request token (a UUID) matched by shape.
bool IsHandlerReason(const std::string& reason, const std::string& message, const std::string& code) {
  static const std::regex kShape(
      R"re(Resource handler returned message: "(.*)" \(RequestToken: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}, HandlerErrorCode: (\w+)\))re");
  std::smatch m;
  return std::regex_match(reason, m, kShape) && m[1] == message && m[2] == code;
}

}  // namespace

TEST_CASE("handler error codes: Throttling is retried with a backoff, then the create goes through", "[cli][handler]") {
  Cli cli("throttled");
  CHECK(cli.Create(R"({"Code": "Throttling", "Failures": 3})") == "CREATE_COMPLETE");
  CHECK(cli.Calls()["calls"] == 4);
  CHECK(cli.Calls()["at"].get<int64_t>() - cli.Calls()["first"].get<int64_t>() == 35000);  // after 5 + 10 + 20 seconds
  CHECK(cli.Events("s", 0) == std::vector<std::string>{"s CREATE_IN_PROGRESS User Initiated", "A CREATE_IN_PROGRESS ",
                                                       "A CREATE_IN_PROGRESS Resource creation Initiated",
                                                       "A CREATE_COMPLETE ", "s CREATE_COMPLETE "});
}

TEST_CASE("handler error codes: a sixth retriable failure in a row stands", "[cli][handler]") {
  Cli cli("gives_up");
  CHECK(cli.Create(R"({"Code": "NetworkFailure", "Failures": 6})") == "ROLLBACK_COMPLETE");
  CHECK(cli.Calls()["calls"] == 6);
  CHECK(IsHandlerReason(cli.FailedReason(), "Rate exceeded", "NetworkFailure"));
}

TEST_CASE("handler error codes: a terminal code fails at once", "[cli][handler]") {
  Cli cli("terminal");
  CHECK(cli.Create(R"({"Code": "InvalidRequest", "Failures": 1})") == "ROLLBACK_COMPLETE");
  CHECK(cli.Calls()["calls"] == 1);
  INFO(cli.FailedReason());
  CHECK(IsHandlerReason(cli.FailedReason(), "Rate exceeded", "InvalidRequest"));
}

TEST_CASE("handler error codes: a code that is not a handler error code leaves the message as it is", "[cli][handler]") {
  Cli cli("service_code");
  CHECK(cli.Create(R"({"Code": "DependencyViolation", "Failures": 1})") == "ROLLBACK_COMPLETE");
  CHECK(cli.FailedReason() == "Rate exceeded");
}

TEST_CASE("handler error codes: a delete answering NotFound is a completed delete", "[cli][handler]") {
  Cli cli("gone");
  REQUIRE(cli.Create(R"({"Gone": true})") == "CREATE_COMPLETE");
  REQUIRE(cli("delete-stack --stack-name s --providers " + cli.dir + "/providers").exit_code == 0);
  const nlohmann::json stacks = cli.Json("list-stacks")["StackSummaries"];
  REQUIRE(stacks.size() == 1);
  CHECK(stacks[0]["StackStatus"] == "DELETE_COMPLETE");
  const std::vector<std::string> events = cli.Events(stacks[0]["StackId"], 0);
  CHECK(std::vector<std::string>(events.end() - 4, events.end()) ==
        std::vector<std::string>{"s DELETE_IN_PROGRESS User Initiated", "A DELETE_IN_PROGRESS ", "A DELETE_COMPLETE ",
                                 "s DELETE_COMPLETE "});
}
