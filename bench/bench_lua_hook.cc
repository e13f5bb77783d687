// The cost of one provider hook call through the Lua runtime: marshal a
// realistic ~10-property map in, run `create(ctx, props)` (JIT off, deadline
// and memory cap armed: the call watchdog, or the count hook where the memory
// cap is soft), marshal {id, attributes} out.
// Prints µs per call for N calls (default 100,000). Target: <= 5 µs.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lua/runtime.h"
#include "template/parse.h"

using namespace ms::lua;
using Clock = std::chrono::steady_clock;

namespace {

const char kProvider[] = R"lua(
local M = {}
function M.create(ctx, props)
  local id = "subnet-" .. props.CidrBlock:gsub("[./]", "")
  return {
    id = id,
    attributes = {
      SubnetId = id,
      VpcId = props.VpcId,
      AvailabilityZone = props.AvailabilityZone or (ctx.region .. "a"),
    },
  }
end
function M.noop() end
return M
)lua";

const char kProps[] = R"({
  "VpcId": "vpc-0a1b2c3d4e5f67890",
  "CidrBlock": "10.0.1.0/24",
  "AvailabilityZone": "us-east-1a",
  "MapPublicIpOnLaunch": true,
  "AssignIpv6AddressOnCreation": false,
  "Ipv6Native": false,
  "EnableDns64": false,
  "PrivateDnsNameOptionsOnLaunch": {"HostnameType": "ip-name", "EnableResourceNameDnsARecord": false},
  "Ipv4NetmaskLength": 24,
  "Tags": [{"Key": "Name", "Value": "web-a"}, {"Key": "env", "Value": "dev"}]
})";

double Measure(Runtime& rt, const Ref& mod, const char* hook, const std::vector<Arg>& args, int n,
               bool* ok) {
  auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    CallResult r = rt.CallField(mod, hook, args);
    if (!r.ok()) {
      std::fprintf(stderr, "call failed: %s\n", r.error->Diagnostic().c_str());
      *ok = false;
      return 0;
    }
  }
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / n;
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  ms::Value props;
  ms::Status st = ms::ParseJson(kProps, &props);
  if (!st.ok()) {
    std::fprintf(stderr, "props: %s\n", st.message().c_str());
    return 1;
  }
  ms::Value ctx_value = ms::Value::MakeMap();
  ctx_value.set("region", ms::Value::String("us-east-1"));
  ctx_value.set("stack_name", ms::Value::String("bench"));

  {
    RuntimeOptions o;
    ms::Status status;
    auto rt = Runtime::Create(o, &status);
    if (!rt) {
      std::fprintf(stderr, "runtime: %s\n", status.message().c_str());
      return 1;
    }
    CallOptions eval;
    eval.results = Results::kRefs;
    CallResult mod = rt->Eval(kProvider, "=provider", eval);
    CallResult ctx = rt->NewRef(ctx_value);
    if (!mod.ok() || !ctx.ok()) {
      std::fprintf(stderr, "setup failed\n");
      return 1;
    }
    bool ok = true;
    // Warm up, then measure.
    Measure(*rt, mod.refs[0], "create", {ctx.refs[0], props}, n / 10 + 1, &ok);
    double create = Measure(*rt, mod.refs[0], "create", {ctx.refs[0], props}, n, &ok);
    double noop = Measure(*rt, mod.refs[0], "noop", {}, n, &ok);
    if (!ok) return 1;
    CallResult check = rt->CallField(mod.refs[0], "create", {ctx.refs[0], props});
    std::printf("deadline by %s: create(ctx, 10 props) -> {id, 3 attributes}: %.2f us/call"
                "   empty call: %.2f us/call   (%d calls, memory %zu KiB, result %s)\n",
                rt->hard_memory_cap() ? "the call watchdog" : "the count hook", create, noop, n,
                rt->memory_used() / 1024,
                check.value().ToJson().c_str());
  }
  std::printf("target: <= 5 us per create call\n");
  return 0;
}
