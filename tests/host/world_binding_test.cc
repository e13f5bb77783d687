// moonstack.world over the C++ World: the same contract as the in-memory
// double (tests/providers/world_contract.lua), one World shared by runtimes
// on several threads, and a failing atomic action never leaves it locked.
#include <catch2/catch.hpp>

#include <thread>

#include "lua/runtime.h"
#include "lua/world_binding.h"

using ms::World;
using ms::lua::Runtime;
using ms::lua::WorldBinding;

namespace {

const std::string kSource = MOONSTACK_SOURCE_DIR;

struct Bound {
  std::unique_ptr<Runtime> rt;
  std::unique_ptr<WorldBinding> binding;
};

Bound Bind(World* w) {
  ms::lua::RuntimeOptions o;
  o.module_roots = {kSource + "/lua-sdk", kSource + "/tests/providers"};
  Bound b;
  ms::Status s;
  b.rt = Runtime::Create(o, &s);
  REQUIRE(b.rt);
  REQUIRE(WorldBinding::Install(b.rt.get(), w, &b.binding).ok());
  return b;
}

}  // namespace

TEST_CASE("world binding keeps the store contract", "[lua][world]") {
  World w;
  Bound b = Bind(&w);
  auto r = b.rt->Eval("return require('world_contract')(require('moonstack.world'))");
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r.value().as_bool());
  CHECK(w.Find("ec2.vpc", "vpc-1") != nullptr);  // the Lua writes landed in the C++ World
}

TEST_CASE("world binding: workers on two threads share one world, atomically", "[lua][world]") {
  World w;
  const char* kBump = R"(
    local W = require('moonstack.world')
    for i = 1, 500 do
      W.atomic(function()
        local c = W.get('test', 'counter') or { n = 0 }
        c.n = c.n + 1
        W.put('test', 'counter', c)
      end)
    end)";
  std::string errors[2];
  auto worker = [&](int i) {
    Bound b = Bind(&w);
    auto r = b.rt->Eval(kBump);
    if (!r.ok()) errors[i] = r.status().message();
  };
  std::thread t1(worker, 0), t2(worker, 1);
  t1.join();
  t2.join();
  CHECK(errors[0].empty());
  CHECK(errors[1].empty());
  REQUIRE(w.Find("test", "counter") != nullptr);
  CHECK(w.Find("test", "counter")->value().find("n")->ToJson() == "1000");
}

TEST_CASE("world binding: an action past its deadline releases the world", "[lua][world]") {
  World w;
  Bound b = Bind(&w);
  ms::lua::Limits limits;
  limits.deadline = std::chrono::milliseconds(50);
  REQUIRE(b.rt->set_limits(limits).ok());
  auto r = b.rt->Eval("require('moonstack.world').atomic(function() while true do end end)");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->kind == ms::lua::LuaErrorKind::kDeadline);
  // Another thread can take the lock: it was released.
  bool locked = false;
  std::thread other([&] {
    auto lock = w.Lock();
    locked = true;
  });
  other.join();
  CHECK(locked);
}

TEST_CASE("world binding: os.time and os.date read the world's clock", "[lua][world]") {
  World w;
  Bound b = Bind(&w);
  b.binding->set_now_ms(86400 * 1000 * 365LL + 1500);  // 1971-01-01T00:00:01.5Z
  auto r = b.rt->Eval("return os.time(), os.date('!%Y-%m-%dT%H:%M:%SZ'), "
                      "os.time({year = 2000, month = 1, day = 1, hour = 0}) ~= nil");
  REQUIRE(r.ok());
  CHECK(r.values[0].ToJson() == "31536001");
  CHECK(r.values[1].str() == "1971-01-01T00:00:01Z");
  CHECK(r.values[2].as_bool());  // with a table: the standard conversion
}
