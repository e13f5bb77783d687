// host/lua marshalling: ms::Value <-> Lua, both ways.
#include <catch2/catch.hpp>

#include <string>

#include "lua/runtime.h"
#include "test_util.h"

using ms::Value;
using ms::test::Doc;
using namespace ms::lua;

namespace {

struct Fixture {
  std::unique_ptr<Runtime> rt;
  Ref identity;

  Fixture() {
    ms::Status status;
    rt = Runtime::Create(RuntimeOptions{}, &status);
    REQUIRE(status.ok());
    identity = Function("return function(...) return ... end");
  }
  ~Fixture() {
    identity.Reset();
    for (auto& r : refs) r.Reset();
  }

  Ref Function(const std::string& code) {
    CallOptions o;
    o.results = Results::kRefs;
    CallResult r = rt->Eval(code, "=fixture", o);
    INFO((r.ok() ? std::string() : r.error->Diagnostic()));
    REQUIRE(r.ok());
    return std::move(r.refs[0]);
  }

  // v -> Lua -> Value.
  Value RoundTrip(const Value& v, MarshalOptions mo = {}) {
    CallOptions o;
    o.marshal = mo;
    CallResult r = rt->Call(identity, {v}, o);
    INFO((r.ok() ? std::string() : r.error->Diagnostic()));
    REQUIRE(r.ok());
    return r.value();
  }

  // fn(v) with fn given as Lua source.
  CallResult Apply(const std::string& fn, const Value& v, MarshalOptions mo = {}) {
    refs.push_back(Function("return " + fn));
    CallOptions o;
    o.marshal = mo;
    return rt->Call(refs.back(), {v}, o);
  }

  Value Returned(const std::string& code) {
    CallResult r = rt->Eval(code, "=returned");
    INFO(code);
    INFO((r.ok() ? std::string() : r.error->Diagnostic()));
    REQUIRE(r.ok());
    return r.value();
  }

  std::string ReturnError(const std::string& code) {
    CallResult r = rt->Eval(code, "=returned");
    INFO(code);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->kind == LuaErrorKind::kMarshal);
    return r.error->message;
  }

  std::vector<Ref> refs;
};

}  // namespace

TEST_CASE("documents survive a round trip through Lua", "[lua]") {
  Fixture f;
  for (const char* json : {
           R"(null)", R"(true)", R"(false)", R"("text")", R"("")", R"(1)", R"(-7)", R"(1.5)",
           R"([])", R"({})", R"([1,"a",true,null,[],{}])",
           R"({"b":1,"a":{"z":[1,2,{"y":null}],"c":"d"}})",
           R"({"Tags":[{"Key":"Name","Value":"web"}],"Count":2,"Enabled":false,"Empty":[],"Map":{}})",
           R"({"n":1.0,"m":[1.10,1e3,-0,2.50],"big":12345678901234567890,"tiny":1e-7})",
           R"([null,null])",
       }) {
    INFO(json);
    Value v = Doc(json);
    Value back = f.RoundTrip(v);
    CHECK(back.ToJson() == v.ToJson());
    CHECK(back == v);
  }
}

TEST_CASE("strings keep embedded NULs both ways", "[lua]") {
  Fixture f;
  Value v = Value::String(std::string("a\0b\0", 4));
  CHECK(f.RoundTrip(v).str() == std::string("a\0b\0", 4));
  CallResult r = f.Apply("function(s) return #s, s .. '\\0' end", v);
  REQUIRE(r.ok());
  CHECK(r.values[0].str() == "4");
  CHECK(r.values[1].str() == std::string("a\0b\0\0", 5));
}

TEST_CASE("null is moonstack.null in Lua", "[lua]") {
  Fixture f;
  CallResult r = f.Apply(
      "function(t) return t.a == moonstack.null, t.b[2] == moonstack.null, #t.b, "
      "tostring(moonstack.null), moonstack.kind(t.a) end",
      Doc(R"({"a":null,"b":[1,null,3]})"));
  REQUIRE(r.ok());
  CHECK(r.values[0].as_bool());
  CHECK(r.values[1].as_bool());
  CHECK(r.values[2].str() == "3");
  CHECK(r.values[3].str() == "null");
  CHECK(r.values[4].str() == "null");
  CHECK(f.Returned("return moonstack.null").is_null());
  CHECK(f.Returned("return nil").is_null());
  CHECK(f.Returned("return { a = moonstack.null }").ToJson() == R"({"a":null})");
  CHECK(f.Returned("return require('moonstack') == moonstack").as_bool());
}

TEST_CASE("empty arrays and objects keep their kind", "[lua]") {
  Fixture f;
  CHECK(f.RoundTrip(Doc("[]")).is_list());
  CHECK(f.RoundTrip(Doc("{}")).is_map());
  // Marks survive Lua code adding to and removing from the table.
  CallResult r = f.Apply("function(t) t.list[1] = nil t.map.k = nil return t end",
                         Doc(R"({"list":[1],"map":{"k":1}})"));
  REQUIRE(r.ok());
  CHECK(r.value().ToJson() == R"({"list":[],"map":{}})");
  // Tables built in Lua: an unmarked empty table is an object.
  CHECK(f.Returned("return {}").ToJson() == "{}");
  CHECK(f.Returned("return moonstack.array{}").ToJson() == "[]");
  CHECK(f.Returned("return moonstack.array()").ToJson() == "[]");
  CHECK(f.Returned("return moonstack.object{}").ToJson() == "{}");
  CHECK(f.Returned("return { 1, 2, 'x' }").ToJson() == R"([1,2,"x"])");
  CHECK(f.Returned("return { b = 1, a = 2, c = { true } }").ToJson() == R"({"a":2,"b":1,"c":[true]})");
  CHECK(f.Returned("return moonstack.kind({}), moonstack.kind({1}), moonstack.kind(moonstack.array{}), "
                   "moonstack.kind({a=1, 1}) == nil, moonstack.kind(print) == nil")
            .str() == "object");
  r = f.rt->Eval("return moonstack.kind({}), moonstack.kind({1}), moonstack.kind(moonstack.array{}),"
                 " moonstack.kind({a=1, 1}) == nil, moonstack.kind(print) == nil");
  REQUIRE(r.ok());
  CHECK(r.values[1].str() == "array");
  CHECK(r.values[2].str() == "array");
  CHECK(r.values[3].as_bool());
  CHECK(r.values[4].as_bool());
}

TEST_CASE("map key order survives Lua, copies included", "[lua]") {
  Fixture f;
  Value v = Doc(R"({"Zeta":1,"Alpha":2,"Mid":{"y":1,"x":2}})");
  CHECK(f.RoundTrip(v).ToJson() == v.ToJson());
  // New keys come after the document's, sorted; removed keys are gone.
  CallResult r = f.Apply("function(t) t.New2 = 1 t.New1 = 2 t.Alpha = nil return t end", v);
  REQUIRE(r.ok());
  CHECK(r.value().ToJson() == R"({"Zeta":1,"Mid":{"y":1,"x":2},"New1":2,"New2":1})");
  // A copy that keeps the metatable (as the SDK's copies do) keeps the order.
  r = f.Apply(
      "function(t) local c = setmetatable({}, getmetatable(t)) "
      "for k, v in pairs(t) do c[k] = v end return c end",
      v);
  REQUIRE(r.ok());
  CHECK(r.value().ToJson() == v.ToJson());
}

TEST_CASE("numbers: integers and floats, and the text of whole floats", "[lua]") {
  Fixture f;
  // Lua sees doubles.
  CallResult r = f.Apply("function(t) return t.i + 1, t.f * 2, t.w + 0, math.type == nil end",
                         Doc(R"({"i":1,"f":1.5,"w":1.0})"));
  REQUIRE(r.ok());
  CHECK(r.values[0].str() == "2");
  CHECK(r.values[1].str() == "3");
  CHECK(r.values[2].str() == "1");  // a bare number is canonical: 1.0 -> 1
  // Inside a table the text survives while the value is unchanged ...
  CHECK(f.RoundTrip(Doc(R"({"w":1.0,"l":[1.0,2.50]})")).ToJson() == R"({"w":1.0,"l":[1.0,2.50]})");
  // ... and a changed value takes the canonical text.
  r = f.Apply("function(t) t.w = t.w + 1 t.l[2] = 3.5 return t end", Doc(R"({"w":1.0,"l":[1.0,2.50]})"));
  REQUIRE(r.ok());
  CHECK(r.value().ToJson() == R"({"w":2,"l":[1.0,3.5]})");
  // A top-level number is canonical.
  CHECK(f.RoundTrip(Doc("1.0")).str() == "1");
  CHECK(f.RoundTrip(Doc("1.5")).str() == "1.5");
  CHECK(f.RoundTrip(Doc("1e3")).str() == "1000");
  // Numbers made in Lua.
  CHECK(f.Returned("return 1").str() == "1");
  CHECK(f.Returned("return 1.5").str() == "1.5");
  CHECK(f.Returned("return 2^53").str() == "9007199254740992");
  CHECK(f.Returned("return 1e20").str() == "1e+20");
  CHECK(f.Returned("return 0.1 + 0.2").str() == "0.30000000000000004");
  CHECK(f.Returned("return -0.0").str() == "0");
  CHECK(f.ReturnError("return 0/0") == "result 1: cannot convert nan to a number");
  CHECK(f.ReturnError("return { x = 1/0 }") == "result 1.x: cannot convert an infinite number");
}

TEST_CASE("stringify_scalars hands booleans and numbers over as strings", "[lua]") {
  Fixture f;
  MarshalOptions mo;
  mo.stringify_scalars = true;
  CallResult r = f.Apply(
      "function(t) return type(t.b), t.b, type(t.n), t.n, t.f, t.l[1], t.s, t.z == moonstack.null end",
      Doc(R"({"b":true,"n":10,"f":1.50,"l":[false],"s":"x","z":null})"), mo);
  REQUIRE(r.ok());
  CHECK(r.values[0].str() == "string");
  CHECK(r.values[1].str() == "true");
  CHECK(r.values[2].str() == "string");
  CHECK(r.values[3].str() == "10");
  CHECK(r.values[4].str() == "1.50");
  CHECK(r.values[5].str() == "false");
  CHECK(r.values[6].str() == "x");
  CHECK(r.values[7].as_bool());
  CHECK(f.RoundTrip(Doc(R"({"b":false,"n":[1,2.0]})"), mo).ToJson() == R"({"b":"false","n":["1","2.0"]})");
}

TEST_CASE("values that cannot be converted are errors with a path", "[lua]") {
  Fixture f;
  CHECK(f.ReturnError("return { a = { b = { print } } }") == "result 1.a.b[1]: cannot convert a function value");
  CHECK(f.ReturnError("return 1, coroutine.create(print)") == "result 2: cannot convert a thread value");
  CHECK(f.ReturnError("return { 1, 2, x = 3 }") == "result 1: cannot convert a table with both list and map keys");
  CHECK(f.ReturnError("return { [true] = 1 }") == "result 1: cannot convert a table with a boolean key");
  CHECK(f.ReturnError("return { [1.5] = 1 }") == "result 1: cannot convert a table with key 1.5 (list indexes are 1..n)");
  CHECK(f.ReturnError("return { 1, nil, 3 }").find("holes") != std::string::npos);
  CHECK(f.ReturnError("return setmetatable({ a = 1 }, getmetatable(moonstack.array{}))") ==
        "result 1: cannot convert a list with key \"a\"");
  CHECK(f.ReturnError("return moonstack.object{ 1 }") == "result 1: cannot convert a map with a number key");
  CHECK(f.ReturnError("local t = { a = {} } t.a.back = t return t") ==
        "result 1.a.back: cannot convert a table that contains itself");
  CHECK(f.ReturnError("local t = {} local c = t for i = 1, 150 do c.x = {} c = c.x end return t")
            .find("nested deeper than 100 levels") != std::string::npos);
  // The same table twice (not a cycle) is fine.
  CHECK(f.Returned("local s = { 1 } return { a = s, b = s }").ToJson() == R"({"a":[1],"b":[1]})");
}

TEST_CASE("values that cannot go into Lua are errors", "[lua]") {
  Fixture f;
  Value unknown = Value::MakeMap();
  unknown.set("Id", Value::Unknown({"Instance"}));
  CallResult r = f.rt->Call(f.identity, {Value::String("ok"), unknown});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->kind == LuaErrorKind::kMarshal);
  CHECK(r.error->message == "argument 2: an unknown value (depends on Instance) cannot be passed to Lua");
  Value deep = Value::String("leaf");
  for (int i = 0; i < 150; ++i) deep = Value::MakeList({deep});
  r = f.rt->Call(f.identity, {deep});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "argument 1: value nested deeper than 100 levels");
  // Deep but within the limit is fine.
  Value ok = Value::String("leaf");
  for (int i = 0; i < 90; ++i) ok = Value::MakeList({ok});
  CHECK(f.RoundTrip(ok) == ok);
}

TEST_CASE("refs: Lua values held by the host", "[lua]") {
  Fixture f;
  CallResult ctx = f.rt->NewRef(Doc(R"({"stack_name":"s","region":"us-east-1"})"));
  REQUIRE(ctx.ok());
  Ref hook = f.Function("return { create = function(ctx, props) "
                        "return { id = ctx.stack_name .. '-' .. props.Name, attributes = { Arn = 'arn:' .. ctx.region } } end }");
  CallResult r = f.rt->CallField(hook, "create", {ctx.refs[0], Doc(R"({"Name":"x"})")});
  REQUIRE(r.ok());
  CHECK(r.value().ToJson() == R"({"attributes":{"Arn":"arn:us-east-1"},"id":"s-x"})");
  r = f.rt->CallMethod(ctx.refs[0], "missing", {});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "attempt to call a nil value");
  // A Ref only means something in its own Runtime.
  Fixture other;
  r = other.rt->Call(other.identity, {ctx.refs[0]});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "argument 1: a Ref of another Runtime");
  r = other.rt->Call(f.identity, {});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "the callee is a Ref of another Runtime");
  // Arg::Nil, max_results.
  CallOptions o;
  o.max_results = 1;
  r = f.rt->Call(f.identity, {Arg::Nil(), Value::Bool(true)}, o);
  REQUIRE(r.ok());
  REQUIRE(r.values.size() == 1);
  CHECK(r.values[0].is_null());
}

TEST_CASE_METHOD(Fixture, "an empty map from the engine may be filled as a list or a map", "[lua][marshal]") {
  Value empty = Value::MakeMap();
  CHECK(RoundTrip(empty).ToJson() == "{}");
  CallResult as_list = Apply("function(t) t[#t + 1] = 'x'; return t end", empty);
  REQUIRE(as_list.ok());
  CHECK(as_list.value().ToJson() == R"(["x"])");
  CallResult as_map = Apply("function(t) t.k = 'v'; return t end", empty);
  REQUIRE(as_map.ok());
  CHECK(as_map.value().ToJson() == R"({"k":"v"})");
}
