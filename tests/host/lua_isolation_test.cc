// One lua_State serves every provider, custom handler and stack of a worker:
// nothing one of them writes into a shared table (the libraries, the string
// metatable, package.loaded, the SDK's and the simulated services' modules,
// ctx.world, ctx.log) may change what another, or a later stack, sees.
// Providers: the built-in ones (for sim/ and the custom-resource provider)
// and tests/host/providers/isolation/ (A patches, B observes, handlers).
#include <catch2/catch.hpp>

#include "lua/provider_host.h"

using ms::HookOutcome;
using ms::Value;

namespace {

const std::string kSource = MOONSTACK_SOURCE_DIR;

// The built-in providers and the isolation fixtures, in one session: one
// pooled lua_State, as a worker has.
struct Isolation {
  std::unique_ptr<ms::lua::LuaProviderRuntime> runtime;
  std::unique_ptr<ms::ProviderSession> session;

  Isolation() {
    ms::lua::ProviderPaths paths;
    paths.sdk_dir = kSource + "/lua-sdk";
    paths.dirs = {kSource + "/providers", kSource + "/tests/host/providers/isolation"};
    ms::Status s = ms::lua::LuaProviderRuntime::Create(paths, ms::lua::Limits(), &runtime);
    INFO(s.message());
    REQUIRE(s.ok());
    REQUIRE(runtime->NewSession(&session).ok());
  }

  HookOutcome Create(const std::string& type, const std::string& stack, const Value& props) {
    ms::HookCall c;
    c.hook = ms::Hook::kCreate;
    c.type = type;
    c.ctx.stack_name = stack;
    c.ctx.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/" + stack +
                     "/11111111-1111-4111-8111-111111111111";
    c.ctx.logical_id = "R";
    c.ctx.region = "us-east-1";
    c.ctx.account_id = "123456789012";
    c.ctx.now_ms = 1700000000000;
    c.properties = props;
    return session->Call(c);
  }

  // What provider A (Patcher) or B (Observer) sees, from a create in `stack`.
  std::string Seen(const std::string& type, const std::string& stack) {
    HookOutcome o = Create(type, stack, Value::MakeMap());
    INFO(o.diagnostic);
    REQUIRE(o.kind == HookOutcome::Kind::kDone);
    return o.attributes.find("Seen")->str();
  }

  // A's create making the write `patch` names (lib/isolation.lua).
  HookOutcome Patch(const std::string& patch, const std::string& stack) {
    Value props = Value::MakeMap();
    props.set("Patch", Value::String(patch));
    return Create("Test::Isolation::Patcher", stack, props);
  }

  // A custom resource whose handler is custom/<handler>.lua.
  HookOutcome Custom(const std::string& handler, const std::string& patch, const std::string& stack) {
    Value raw = Value::MakeMap();
    raw.set("ServiceToken", Value::String("arn:aws:lambda:us-east-1:123456789012:function:" + handler));
    if (!patch.empty()) raw.set("Patch", Value::String(patch));
    ms::HookContext vctx;
    vctx.logical_id = "R";
    Value props;
    REQUIRE(session->Validate("Custom::Isolation", vctx, raw, &props).ok());
    return Create("Custom::Isolation", stack, props);
  }
};

const char kObserved[] =
    "format=a-1;upper=ABC;meta=true;insert=1;concat=a,b;floor=2;time=1700000000;band=2;wrap=co;kind=object;"
    "define=function;absent=false;copy=1;severity=3;services=23;ssm=function;now=1700000000000;world=function;pairs=a;"
    "leaked=nil;module_leaked=nil";

// A's write is refused with `reason`; B, then A in the next stack, see what
// they saw before.
void RefusedAndUnseen(const std::string& patch, const std::string& reason) {
  INFO(patch);
  Isolation iso;
  REQUIRE(iso.Seen("Test::Isolation::Observer", "s1") == kObserved);
  HookOutcome o = iso.Patch(patch, "s1");
  CHECK(o.kind == HookOutcome::Kind::kFailed);
  CHECK(o.reason == reason);
  CHECK(iso.Seen("Test::Isolation::Observer", "s2") == kObserved);
  CHECK(iso.Seen("Test::Isolation::Patcher", "s2") == kObserved);
}

}  // namespace

TEST_CASE("isolation: a write into a library table fails and nobody sees it", "[lua][isolation]") {
  RefusedAndUnseen("string", "attempt to modify read-only table string (field 'format')");
  RefusedAndUnseen("table", "attempt to modify read-only table table (field 'insert')");
  RefusedAndUnseen("table_rawset", "attempt to modify read-only table table (field 'concat')");
  RefusedAndUnseen("math", "attempt to modify read-only table math (field 'floor')");
  RefusedAndUnseen("os", "attempt to modify read-only table os (field 'time')");
  RefusedAndUnseen("bit", "attempt to modify read-only table bit (field 'band')");
  RefusedAndUnseen("coroutine", "attempt to modify read-only table coroutine (field 'wrap')");
  RefusedAndUnseen("moonstack", "attempt to modify read-only table moonstack (field 'kind')");
}

TEST_CASE("isolation: the string metatable cannot be reached to change string methods", "[lua][isolation]") {
  RefusedAndUnseen("string_metatable", "attempt to modify read-only table string (field 'upper')");
  RefusedAndUnseen("string_metatable_index",
                   "attempt to modify read-only table string metatable (field '__index')");
}

TEST_CASE("isolation: package.loaded and package.preload are read-only", "[lua][isolation]") {
  RefusedAndUnseen("package_loaded", "attempt to modify read-only table package.loaded (field 'moonstack.provider')");
  RefusedAndUnseen("package_preload", "attempt to modify read-only table package.preload (field 'lib.absent')");
}

TEST_CASE("isolation: the SDK's modules, their nested tables, and moonstack.world are read-only", "[lua][isolation]") {
  RefusedAndUnseen("sdk_module", "attempt to modify read-only table moonstack.provider (field 'deep_copy')");
  RefusedAndUnseen("sdk_nested", "attempt to modify read-only table moonstack.provider.SEVERITY (field 'replace')");
  RefusedAndUnseen("world_module", "attempt to modify read-only table moonstack.world (field 'now_ms')");
}

TEST_CASE("isolation: the simulated services' modules and ctx.world are read-only", "[lua][isolation]") {
  RefusedAndUnseen("sim_module", "attempt to modify read-only table sim.ssm (field 'GetParameter')");
  RefusedAndUnseen("sdk_insert", "attempt to modify read-only table sim.SERVICES");
  RefusedAndUnseen("ctx_world", "attempt to modify read-only table ctx.world.ssm (field 'GetParameter')");
}

TEST_CASE("isolation: the host's logger every hook's ctx.log is shares is read-only", "[lua][isolation]") {
  RefusedAndUnseen("ctx_log", "attempt to modify read-only table ctx.log (field 'info')");
}

TEST_CASE("isolation: a provider's globals, and a load()ed chunk's, are its own", "[lua][isolation]") {
  for (const char* patch : {"globals", "load"}) {
    INFO(patch);
    Isolation iso;
    HookOutcome o = iso.Patch(patch, "s1");
    INFO(o.diagnostic);
    REQUIRE(o.kind == HookOutcome::Kind::kDone);
    CHECK(iso.Seen("Test::Isolation::Observer", "s2") == kObserved);
  }
  // A's own writes stay A's (as its module-level locals would), a loaded
  // chunk's do not reach A either.
  Isolation iso;
  REQUIRE(iso.Patch("globals", "s1").kind == HookOutcome::Kind::kDone);
  CHECK(iso.Seen("Test::Isolation::Patcher", "s2").find("meta=patched") != std::string::npos);
  Isolation loaded;
  REQUIRE(loaded.Patch("load", "s1").kind == HookOutcome::Kind::kDone);
  CHECK(loaded.Seen("Test::Isolation::Patcher", "s2") == kObserved);
}

TEST_CASE("isolation: a custom handler's writes reach no other handler, provider or stack", "[lua][isolation]") {
  Isolation iso;
  HookOutcome before = iso.Custom("observe", "", "s1");
  REQUIRE(before.kind == HookOutcome::Kind::kDone);
  const std::string seen = before.attributes.find("Seen")->str();

  // A handler that raises is a Lambda that never answered: CloudFormation
  // waits (in progress); the refused write does not happen.
  for (const char* patch : {"string", "string_metatable", "table", "sdk_module", "package_loaded"}) {
    INFO(patch);
    CHECK(iso.Custom("patch", patch, "s2").kind == HookOutcome::Kind::kInProgress);
  }
  // Its own globals are its own.
  HookOutcome globals = iso.Custom("patch", "globals", "s3");
  INFO(globals.diagnostic);
  CHECK(globals.kind == HookOutcome::Kind::kDone);

  CHECK(iso.Custom("observe", "", "s4").attributes.find("Seen")->str() == seen);
  CHECK(iso.Seen("Test::Isolation::Observer", "s4") == kObserved);
}

TEST_CASE("isolation: after a handler tried to break the string library, SSM parameters still deploy",
          "[lua][isolation]") {
  Isolation iso;
  CHECK(iso.Custom("patch", "string_all", "s1").kind == HookOutcome::Kind::kInProgress);
  Value props = Value::MakeMap();
  props.set("Name", Value::String("/app/level"));
  props.set("Type", Value::String("String"));
  props.set("Value", Value::String("debug"));
  ms::HookContext vctx;
  vctx.logical_id = "P";
  Value coerced;
  REQUIRE(iso.session->Validate("AWS::SSM::Parameter", vctx, props, &coerced).ok());
  HookOutcome o = iso.Create("AWS::SSM::Parameter", "s2", coerced);
  INFO(o.diagnostic);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(o.physical_id == "/app/level");
  std::string value;
  REQUIRE(iso.session->SsmParameter("/app/level", "us-east-1", "123456789012", &value));
  CHECK(value == "debug");
}
