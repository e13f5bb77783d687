// LuaProviderRuntime: discovery, overrides, schemas and hook calls over the
// lua-sdk, with the providers in tests/host/providers/.
#include <catch2/catch.hpp>

#include "lua/provider_host.h"

using ms::HookCall;
using ms::HookOutcome;
using ms::Value;
using ms::lua::LuaProviderRuntime;
using ms::lua::ProviderPaths;

namespace {

const std::string kSource = MOONSTACK_SOURCE_DIR;
const std::string kFixtures = kSource + "/tests/host/providers/";

ProviderPaths Paths(std::vector<std::string> dirs) {
  ProviderPaths p;
  p.sdk_dir = kSource + "/lua-sdk";
  for (const std::string& d : dirs) p.dirs.push_back(kFixtures + d);
  return p;
}

std::unique_ptr<LuaProviderRuntime> Load(std::vector<std::string> dirs) {
  std::unique_ptr<LuaProviderRuntime> rt;
  ms::Status s = LuaProviderRuntime::Create(Paths(dirs), ms::lua::Limits(), &rt);
  INFO(s.message());
  REQUIRE(s.ok());
  return rt;
}

Value Props(const std::string& json_like_name, int64_t size) {
  Value v = Value::MakeMap();
  v.set("Name", Value::String(json_like_name));
  v.set("Size", Value::Integer(size));
  return v;
}

HookCall Create(const Value& props) {
  HookCall c;
  c.hook = ms::Hook::kCreate;
  c.type = "Test::Demo::Widget";
  c.ctx.stack_name = "st";
  c.ctx.logical_id = "W";
  c.properties = props;
  return c;
}

}  // namespace

TEST_CASE("providers are found, lib/ is shared code, schemas come from the declaration", "[lua][providers]") {
  auto rt = Load({"base"});
  CHECK(rt->Types() == std::vector<std::string>{"Test::Demo::Widget"});
  CHECK(rt->notes().empty());
  const ms::TypeSchema* s = rt->Schema("Test::Demo::Widget");
  REQUIRE(s != nullptr);
  CHECK(s->source == kFixtures + "base/widget.lua");
  CHECK(s->attributes == std::vector<std::string>{"Arn", "Size"});
  CHECK(s->primary_identifier == "Arn");
  REQUIRE(s->properties.size() == 5);
  CHECK(s->properties[0].name == "Name");
  CHECK(s->properties[0].required);
  CHECK(s->properties[0].update == ms::UpdateBehavior::kReplace);
  CHECK(s->properties[1].update == ms::UpdateBehavior::kNone);
  CHECK(s->properties[2].update == ms::UpdateBehavior::kSome);
  CHECK(s->properties[3].conditional);
}

TEST_CASE("a later directory overrides a provider and says so", "[lua][providers]") {
  auto rt = Load({"base", "override"});
  CHECK(rt->Schema("Test::Demo::Widget")->source == kFixtures + "override/widget.lua");
  REQUIRE(rt->notes().size() == 1);
  CHECK(rt->notes()[0] == "provider for Test::Demo::Widget from " + kFixtures + "override/widget.lua overrides " +
                              kFixtures + "base/widget.lua");
  std::unique_ptr<ms::ProviderSession> session;
  REQUIRE(rt->NewSession(&session).ok());
  HookOutcome o = session->Call(Create(Props("x", 1)));
  CHECK(o.physical_id == "override-x");
}

TEST_CASE("one directory declaring a type twice is an error naming both files", "[lua][providers]") {
  std::unique_ptr<LuaProviderRuntime> rt;
  ms::Status s = LuaProviderRuntime::Create(Paths({"dup"}), ms::lua::Limits(), &rt);
  CHECK(s.message() == kFixtures + "dup/b.lua: declares Test::Demo::Twin, already declared by " + kFixtures +
                           "dup/a.lua");
  s = LuaProviderRuntime::Create(Paths({"missing"}), ms::lua::Limits(), &rt);
  CHECK(s.message() == kFixtures + "missing: no such provider directory");
}

TEST_CASE("hooks run through a session: done, in progress, failed", "[lua][providers]") {
  auto rt = Load({"base"});
  std::unique_ptr<ms::ProviderSession> session;
  REQUIRE(rt->NewSession(&session).ok());

  HookOutcome o = session->Call(Create(Props("a", 3)));
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(o.physical_id == "st-W-a");
  CHECK(o.attributes.find("Arn")->str() == "arn:test:st-W-a");
  CHECK(o.attributes.find("Size")->str() == "3");

  HookCall slow = Create(Props("slow", 1));
  o = session->Call(slow);
  REQUIRE(o.kind == HookOutcome::Kind::kInProgress);
  CHECK(o.after_seconds == 30);
  CHECK(o.progress.find("step")->str() == "1");
  slow.ctx.progress = o.progress;  // the engine calls again with the context
  o = session->Call(slow);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(o.physical_id == "st-W-slow");

  HookCall update;
  update.hook = ms::Hook::kUpdate;
  update.type = "Test::Demo::Widget";
  update.physical_id = "st-W-a";
  update.properties = Props("a", 13);
  update.old_properties = Props("a", 3);
  update.changed = {"Size"};
  o = session->Call(update);
  REQUIRE(o.kind == HookOutcome::Kind::kFailed);
  CHECK(o.reason == "Size 13 is unlucky");
  CHECK(o.diagnostic.find("widget.lua:") != std::string::npos);

  update.properties = Props("a", 4);
  o = session->Call(update);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(o.attributes.find("Size")->str() == "4");
}

TEST_CASE("validation and conditional updates go through the declaration", "[lua][providers]") {
  auto rt = Load({"base"});
  std::unique_ptr<ms::ProviderSession> session;
  REQUIRE(rt->NewSession(&session).ok());
  ms::HookContext ctx;
  ctx.logical_id = "W";

  Value props = Value::MakeMap();
  props.set("Name", Value::String("n"));
  props.set("Fast", Value::String("true"));
  props.set("Size", Value::String("7"));
  Value coerced;
  ms::Status s = session->Validate("Test::Demo::Widget", ctx, props, &coerced);
  INFO(s.message());
  REQUIRE(s.ok());
  CHECK(coerced.find("Fast")->is_bool());
  CHECK(coerced.find("Size")->str() == "7");

  props.set("Color", Value::String("red"));
  CHECK(session->Validate("Test::Demo::Widget", ctx, props, &coerced).message() ==
        "Encountered unsupported property Color");

  ms::UpdateBehavior b;
  REQUIRE(session->DecideUpdate("Test::Demo::Widget", "Mode", Value::String("small"), Value::String("big"), ctx, &b)
              .ok());
  CHECK(b == ms::UpdateBehavior::kReplace);
  REQUIRE(session->DecideUpdate("Test::Demo::Widget", "Mode", Value::String("big"), Value::String("small"), ctx, &b)
              .ok());
  CHECK(b == ms::UpdateBehavior::kNone);

  HookCall unknown = Create(Props("x", 1));
  unknown.type = "Test::Demo::Nope";
  HookOutcome o = session->Call(unknown);
  CHECK(o.kind == HookOutcome::Kind::kFailed);
  CHECK(o.reason == "No provider for resource type Test::Demo::Nope");
}

TEST_CASE("each provider file has its own globals", "[lua][providers]") {
  auto rt = Load({"globals"});
  std::unique_ptr<ms::ProviderSession> session;
  REQUIRE(rt->NewSession(&session).ok());
  HookCall set = Create(Value::MakeMap());
  set.type = "Test::Globals::Setter";
  REQUIRE(session->Call(set).kind == HookOutcome::Kind::kDone);
  HookCall read = Create(Value::MakeMap());
  read.type = "Test::Globals::Reader";
  HookOutcome o = session->Call(read);
  REQUIRE(o.kind == HookOutcome::Kind::kDone);
  CHECK(o.attributes.find("Seen")->str() == "nil/nil");
}
