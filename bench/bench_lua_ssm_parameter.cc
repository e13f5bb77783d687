// The cost of one real built-in provider's calls, end to end through the
// host: AWS::SSM::Parameter (providers/aws/ssm/parameter.lua) against the
// simulated Parameter Store (providers/sim/ssm.lua, world records included).
// Per resource: the pre-deployment name check (a read of the parameter's
// name, which is not there yet: stack/early_validation.h), Validate (both
// on the operation's thread before the first create) and create (a worker
// does it), each LuaProviderSession's whole path:
// ctx and properties into Lua, the lua-sdk, the provider, the sim action and
// world.put, the outcome back. The world's changes are taken every 128 calls,
// as checkpoints would. This is the per-resource provider work behind
// bench/serve_vs_moto.py's 1,000-parameter stack.
//
//   bench_lua_ssm_parameter [N]   (default 5,000 resources)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lua_bench_support.h"

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  bench::LuaProviders lua = bench::OpenLuaProviders("providers");
  ms::ProviderSession* session = lua.session.get();

  const int n = argc > 1 ? std::atoi(argv[1]) : 5000;
  if (n < 1) {
    std::fprintf(stderr, "usage: bench_lua_ssm_parameter [N>=1]\n");
    return 2;
  }
  std::vector<ms::HookCall> calls(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    ms::HookCall& call = calls[static_cast<size_t>(i)];
    call.hook = ms::Hook::kCreate;
    call.type = "AWS::SSM::Parameter";
    call.ctx.stack_name = "bench";
    call.ctx.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/bench/fdc753a9-8d1d-43bf-9540-e6f817572ed5";
    call.ctx.logical_id = "P" + std::to_string(i);
    call.ctx.region = "us-east-1";
    call.ctx.account_id = "123456789012";
    ms::Value props = ms::Value::MakeMap();
    props.set("Name", ms::Value::String("/bench/param-" + std::to_string(i)));
    props.set("Type", ms::Value::String("String"));
    props.set("Value", ms::Value::String("value-" + std::to_string(i)));
    call.properties = std::move(props);
  }

  auto t_read = Clock::now();
  for (const ms::HookCall& call : calls) {
    ms::HookCall read;
    read.hook = ms::Hook::kRead;
    read.type = call.type;
    read.physical_id = call.properties.find("Name")->str();
    read.properties = call.properties;
    read.ctx = call.ctx;
    ms::HookOutcome o = session->Call(read);
    if (o.kind != ms::HookOutcome::Kind::kFailed || o.error_code != "NotFound") {  // not there: the check passes
      std::fprintf(stderr, "the name check found the parameter, or failed: %d %s %s\n", int(o.kind), o.reason.c_str(), o.diagnostic.c_str());
      return 1;
    }
  }
  auto t0 = Clock::now();
  for (ms::HookCall& call : calls) {
    ms::Value coerced;
    ms::Status v = session->Validate(call.type, call.ctx, call.properties, &coerced);
    if (!v.ok()) {
      std::fprintf(stderr, "validate failed: %s\n", v.message().c_str());
      return 1;
    }
    call.properties = std::move(coerced);
  }
  auto t1 = Clock::now();
  for (int i = 0; i < n; ++i) {
    ms::HookOutcome o = session->Call(calls[static_cast<size_t>(i)]);
    if (o.kind != ms::HookOutcome::Kind::kDone) {
      std::fprintf(stderr, "create failed: %s\n", o.diagnostic.c_str());
      return 1;
    }
    if (i % 128 == 127) lua.runtime->world()->TakeChanges();
  }
  auto t2 = Clock::now();
  auto us = [n](Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count() / n; };
  std::printf("bench_lua_ssm_parameter: %d AWS::SSM::Parameter resources: name check %.2f us, Validate %.2f us, "
              "create %.2f us each (world records: %zu)\n",
              n, us(t0 - t_read), us(t1 - t0), us(t2 - t1), lua.runtime->world()->size());
  return 0;
}
