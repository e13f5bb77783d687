// moonstack.lambda_runner (host/lua/lambda_binding): installed with
// moonstack.world, and a function's run time is not the Lua call's — a call
// whose deadline is 300 ms runs a function that takes 800 ms and then still
// has its own 300 ms; and Invoke holds no world lock while the function runs.
#include <catch2/catch.hpp>

#include <thread>

#include "lambda_test_support.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"

namespace {

// A runtime over `world` with moonstack.world (and so moonstack.lambda_runner).
struct Bound {
  std::unique_ptr<ms::lua::Runtime> rt;
  std::unique_ptr<ms::lua::WorldBinding> binding;
};

Bound Bind(ms::World* world, const ms::lua::RuntimeOptions& o) {
  Bound b;
  ms::Status s;
  b.rt = ms::lua::Runtime::Create(o, &s);
  REQUIRE(b.rt);
  REQUIRE(ms::lua::WorldBinding::Install(b.rt.get(), world, &b.binding).ok());
  return b;
}

}  // namespace

TEST_CASE("lambda binding: the function's time is outside the Lua call's deadline", "[lambda][lua]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  ms::World world;
  ms::lua::RuntimeOptions o;
  o.limits.deadline = std::chrono::milliseconds(300);
  Bound b = Bind(&world, o);
  ms::lua::Runtime* rt = b.rt.get();
  auto r = rt->Eval(R"(
    local runner = require("moonstack.lambda_runner")
    local out = runner.run { function_name = "slow", runtime = "python3.12", handler = "index.handler",
      inline_code = "import time\ndef handler(e, c):\n    time.sleep(0.8)\n    return {'slept': True}\n",
      event = '{}', request_id = "r", timeout = 5 }
    local decoded = runner.decode_json(out.payload)
    for _ = 1, 200000 do end  -- Lua work after the call: the count hook looks at the clock again
    return tostring(out.ran) .. " " .. tostring(decoded.slept) .. " " .. tostring(out.duration_ms >= 800)
  )");
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r.value().str() == "true true true");
  // The deadline still holds for the Lua code itself.
  auto spin = rt->Eval("local t = os.clock() while true do end");
  CHECK_FALSE(spin.ok());
}

TEST_CASE("lambda binding: sim.lambda's Invoke leaves the world unlocked while the function runs", "[lambda][lua]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  ms::World world;
  ms::lua::RuntimeOptions o;
  o.module_roots = {std::string(MOONSTACK_SOURCE_DIR) + "/lua-sdk", std::string(MOONSTACK_SOURCE_DIR) + "/providers"};
  Bound b = Bind(&world, o);
  ms::lua::Runtime* rt = b.rt.get();
  auto created = rt->Eval(R"(
    require("sim").call("lambda", "CreateFunction", { FunctionName = "slow", Runtime = "python3.12",
      Handler = "index.handler", Role = "arn:aws:iam::123456789012:role/r",
      Code = { ZipFile = "import time\ndef handler(e, c):\n    time.sleep(1)\n    return 'done'\n" } }))");
  INFO(created.status().message());
  REQUIRE(created.ok());
  std::string payload;
  std::thread invoker([&] {
    auto r = rt->Eval("return require('sim').call('lambda', 'Invoke', { FunctionName = 'slow' }).Payload");
    payload = r.ok() ? r.value().str() : r.status().message();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the function is running now
  const auto begin = std::chrono::steady_clock::now();
  { auto lock = world.Lock(); }
  const auto waited = std::chrono::steady_clock::now() - begin;
  invoker.join();
  CHECK(payload == "\"done\"");
  CHECK(waited < std::chrono::milliseconds(200));
}
