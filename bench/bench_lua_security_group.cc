// The cost of one AWS::EC2::SecurityGroup's provider calls, end to end
// through the host: providers/aws/ec2/security_group.lua against the
// simulated EC2 (providers/sim/ec2/groups.lua, world records included), as
// bench/bench_security_groups.py's stack runs them: one VPC, then N groups
// in it, each with one ingress rule. Per group: Validate (the operation's
// thread) and create (a worker): ctx and properties into Lua, the lua-sdk,
// the provider, CreateSecurityGroup and AuthorizeSecurityGroupIngress with
// their world records, the outcome back. The world's changes are taken
// every 128 calls, as checkpoints would. It is the worker's share of
// bench_security_groups.py, alone on one thread.
//
//   bench_lua_security_group [N]   (default 10,000 groups)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lua_bench_support.h"

namespace {

ms::HookCall CreateCall(const std::string& type, const std::string& logical_id, ms::Value props) {
  ms::HookCall call;
  call.hook = ms::Hook::kCreate;
  call.type = type;
  call.ctx.stack_name = "bench";
  call.ctx.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/bench/fdc753a9-8d1d-43bf-9540-e6f817572ed5";
  call.ctx.logical_id = logical_id;
  call.ctx.region = "us-east-1";
  call.ctx.account_id = "123456789012";
  call.properties = std::move(props);
  return call;
}

// Validate, then create; exits with the reason on a failure.
ms::HookOutcome Run(ms::ProviderSession* session, ms::HookCall* call) {
  ms::Value coerced;
  ms::Status v = session->Validate(call->type, call->ctx, call->properties, &coerced);
  if (!v.ok()) {
    std::fprintf(stderr, "validate failed: %s\n", v.message().c_str());
    std::exit(1);
  }
  call->properties = std::move(coerced);
  ms::HookOutcome o = session->Call(*call);
  if (o.kind != ms::HookOutcome::Kind::kDone) {
    std::fprintf(stderr, "create failed: %s\n", o.diagnostic.c_str());
    std::exit(1);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  bench::LuaProviders lua = bench::OpenLuaProviders("providers");
  ms::ProviderSession* session = lua.session.get();

  const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  if (n < 1) {
    std::fprintf(stderr, "usage: bench_lua_security_group [N>=1]\n");
    return 2;
  }
  ms::Value vpc_props = ms::Value::MakeMap();
  vpc_props.set("CidrBlock", ms::Value::String("10.0.0.0/16"));
  ms::HookCall vpc_call = CreateCall("AWS::EC2::VPC", "Vpc", std::move(vpc_props));
  const std::string vpc_id = Run(session, &vpc_call).physical_id;

  std::vector<ms::HookCall> calls;
  calls.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    ms::Value rule = ms::Value::MakeMap();
    rule.set("IpProtocol", ms::Value::String("tcp"));
    rule.set("FromPort", ms::Value::Integer(443));
    rule.set("ToPort", ms::Value::Integer(443));
    rule.set("CidrIp", ms::Value::String("10.0.0.0/16"));
    ms::Value ingress = ms::Value::MakeList({std::move(rule)});
    ms::Value props = ms::Value::MakeMap();
    props.set("GroupDescription", ms::Value::String("bench group " + std::to_string(i)));
    props.set("VpcId", ms::Value::String(vpc_id));
    props.set("SecurityGroupIngress", std::move(ingress));
    calls.push_back(CreateCall("AWS::EC2::SecurityGroup", "Sg" + std::to_string(i), std::move(props)));
  }

  Clock::duration validate{}, create{};
  for (int i = 0; i < n; ++i) {
    ms::HookCall& call = calls[static_cast<size_t>(i)];
    auto t0 = Clock::now();
    ms::Value coerced;
    ms::Status v = session->Validate(call.type, call.ctx, call.properties, &coerced);
    auto t1 = Clock::now();
    if (!v.ok()) {
      std::fprintf(stderr, "validate failed: %s\n", v.message().c_str());
      return 1;
    }
    call.properties = std::move(coerced);
    ms::HookOutcome o = session->Call(call);
    auto t2 = Clock::now();
    if (o.kind != ms::HookOutcome::Kind::kDone) {
      std::fprintf(stderr, "create failed: %s\n", o.diagnostic.c_str());
      return 1;
    }
    validate += t1 - t0;
    create += t2 - t1;
    if (i % 128 == 127) lua.runtime->world()->TakeChanges();
  }
  auto us = [n](Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count() / n; };
  std::printf("bench_lua_security_group: %d AWS::EC2::SecurityGroup resources in one VPC: Validate %.2f us, "
              "create %.2f us each (world records: %zu)\n",
              n, us(validate), us(create), lua.runtime->world()->size());
  return 0;
}
