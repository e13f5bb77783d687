// The cost of one provider hook call through the whole provider path:
// LuaProviderSession::Call builds ctx, marshals ten properties, runs the
// lua-sdk's dispatch and result checks, and converts the outcome.
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "lua_bench_support.h"

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  bench::LuaProviders lua = bench::OpenLuaProviders("bench/providers");
  ms::ProviderSession* session = lua.session.get();

  ms::HookCall call;
  call.hook = ms::Hook::kCreate;
  call.type = "Bench::EC2::Subnet";
  call.ctx.stack_name = "bench";
  call.ctx.logical_id = "Subnet";
  call.ctx.region = "us-east-1";
  call.ctx.account_id = "123456789012";
  ms::Value props = ms::Value::MakeMap();
  props.set("VpcId", ms::Value::String("vpc-0a1b2c3d4e5f67890"));
  props.set("CidrBlock", ms::Value::String("10.0.1.0/24"));
  props.set("AvailabilityZone", ms::Value::String("us-east-1a"));
  props.set("MapPublicIpOnLaunch", ms::Value::Bool(true));
  props.set("AssignIpv6AddressOnCreation", ms::Value::Bool(false));
  props.set("Ipv6CidrBlock", ms::Value::String("2600:1f18::/64"));
  props.set("Ipv4NetmaskLength", ms::Value::Integer(24));
  props.set("OutpostArn", ms::Value::String("arn:aws:outposts:us-east-1:123456789012:outpost/op-1"));
  props.set("EnableDns64", ms::Value::Bool(false));
  ms::Value tag = ms::Value::MakeMap();
  tag.set("Key", ms::Value::String("Name"));
  tag.set("Value", ms::Value::String("bench"));
  props.set("Tags", ms::Value::MakeList({tag}));
  call.properties = props;

  const int kCalls = argc > 1 ? std::atoi(argv[1]) : 100000;  // fewer under callgrind
  ms::HookOutcome out;
  auto t0 = Clock::now();
  for (int i = 0; i < kCalls; ++i) out = session->Call(call);
  auto t1 = Clock::now();
  if (out.kind != ms::HookOutcome::Kind::kDone) {
    std::fprintf(stderr, "call failed: %s\n", out.diagnostic.c_str());
    return 1;
  }
  double us = std::chrono::duration<double, std::micro>(t1 - t0).count() / kCalls;
  std::printf("bench_lua_provider_call: create(ctx, 10 props) through LuaProviderSession::Call: %.2f us/call "
              "(%d calls, id %s)\n", us, kCalls, out.physical_id.c_str());
  return 0;
}
