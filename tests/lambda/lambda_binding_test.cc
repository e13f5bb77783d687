// host/lua/lambda_binding: installed with moonstack.world; a function's run
// time is not the Lua call's — a call whose deadline is 300 ms runs a
// function that takes 800 ms and then still has its own 300 ms; Invoke holds
// no world lock while the function runs; and the runner is sim.lambda's
// alone: a provider file that requires it, or code asking for it, gets a
// clear error.
#include <catch2/catch.hpp>

#include <thread>

#include "lambda_test_support.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"
#include "test_util.h"

namespace {

// A runtime over `world` with moonstack.world (and so moonstack.lambda).
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

ms::lua::RuntimeOptions WithProviders() {
  ms::lua::RuntimeOptions o;
  o.module_roots = {std::string(MOONSTACK_SOURCE_DIR) + "/lua-sdk", std::string(MOONSTACK_SOURCE_DIR) + "/providers"};
  return o;
}

TEST_CASE("lambda binding: the function's time is outside the Lua call's deadline", "[lambda][lua]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  ms::World world;
  ms::lua::RuntimeOptions o = WithProviders();
  o.limits.deadline = std::chrono::milliseconds(300);
  Bound b = Bind(&world, o);
  ms::lua::Runtime* rt = b.rt.get();
  REQUIRE(rt->Eval(ms::test::LambdaRoleLua("r") + R"(
    require("sim").call("lambda", "CreateFunction", { FunctionName = "slow", Runtime = "python3.12",
      Handler = "index.handler", Role = "arn:aws:iam::123456789012:role/r", Timeout = 5,
      Code = { ZipFile = "import time\ndef handler(e, c):\n    time.sleep(0.8)\n    return {'slept': True}\n" } }))").ok());
  auto r = rt->Eval(R"(
    local out = require("sim").call("lambda", "Invoke", { FunctionName = "slow" })
    for _ = 1, 200000 do end  -- Lua work after the call: the hook the watchdog installed during it finds the call in time
    return out.Payload
  )");
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r.value().str() == R"({"slept":true})");
  // The deadline still holds for the Lua code itself.
  auto spin = rt->Eval("local t = os.clock() while true do end");
  CHECK_FALSE(spin.ok());
}

TEST_CASE("lambda binding: the runner is the simulated Lambda's alone", "[lambda][lua]") {
  ms::World world;
  Bound b = Bind(&world, WithProviders());
  ms::lua::Runtime* rt = b.rt.get();
  const std::string reserved =
      "moonstack.lambda_runner is reserved to the simulated Lambda service: run a function through "
      "sim.lambda's Invoke (ctx.world.lambda.Invoke)";
  // A provider file that requires it does not load.
  auto provider = rt->Eval(R"(
    local code = 'local runner = require("moonstack.lambda_runner")\n'
      .. 'return require("moonstack.provider").define { type = "Test::Sneaky::Thing" }\n'
    local ok, err = pcall(require("moonstack.host").load, code, "providers/test/sneaky.lua")
    return tostring(ok) .. "|" .. tostring(err)
  )");
  INFO(provider.status().message());
  REQUIRE(provider.ok());
  CHECK(provider.value().str() == "false|" + reserved);
  // Nor can code ask moonstack.lambda for it, from a chunk of its own or one
  // named after another file.
  auto asked = rt->Eval(R"lua(
    local ok, err = pcall(function() return require("moonstack.lambda").runner() end)
    local forged = load("return require('moonstack.lambda').runner()", "=providers/sim/lambda_invoke.lua")
    local ok2, err2 = pcall(forged)
    return tostring(ok) .. "|" .. tostring(err) .. "|" .. tostring(ok2) .. "|" .. tostring(err2)
  )lua");
  REQUIRE(asked.ok());
  CHECK(asked.value().str() == "false|" + reserved + "|false|" + reserved);
  // What anyone may ask: whether functions run here.
  auto enabled = rt->Eval("return tostring(require('moonstack.lambda').enabled())");
  REQUIRE(enabled.ok());
  CHECK(enabled.value().str() == "true");
}

TEST_CASE("lambda binding: sim.lambda's Invoke leaves the world unlocked while the function runs", "[lambda][lua]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  ms::World world;
  Bound b = Bind(&world, WithProviders());
  ms::lua::Runtime* rt = b.rt.get();
  auto created = rt->Eval(ms::test::LambdaRoleLua("r") + R"(
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
