// moonstack.lambda_runner (host/lua/lambda_binding): installed with
// moonstack.world, and a function's run time is not the Lua call's — a call
// whose deadline is 300 ms runs a function that takes 800 ms and then still
// has its own 300 ms.
#include <catch2/catch.hpp>

#include "lambda_test_support.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"

TEST_CASE("lambda binding: the function's time is outside the Lua call's deadline", "[lambda][lua]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  ms::World world;
  ms::lua::RuntimeOptions o;
  o.limits.deadline = std::chrono::milliseconds(300);
  ms::Status s;
  auto rt = ms::lua::Runtime::Create(o, &s);
  REQUIRE(rt);
  std::unique_ptr<ms::lua::WorldBinding> binding;
  REQUIRE(ms::lua::WorldBinding::Install(rt.get(), &world, &binding).ok());
  auto r = rt->Eval(R"(
    local runner = require("moonstack.lambda_runner")
    local out = runner.run { function_name = "slow", runtime = "python3.12", handler = "index.handler",
      inline_code = "import time\ndef handler(e, c):\n    time.sleep(0.8)\n    return {'slept': True}\n",
      event = '{}', request_id = "r", timeout = 5 }
    local decoded = runner.decode_json(out.payload)
    return tostring(out.ran) .. " " .. tostring(decoded.slept) .. " " .. tostring(out.duration_ms >= 800)
  )");
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r.value().str() == "true true true");
  // The deadline still holds for the Lua code itself.
  auto spin = rt->Eval("local t = os.clock() while true do end");
  CHECK_FALSE(spin.ok());
}
