// Scheduler overhead: N trivial hook calls (a fake provider answering kDone at
// once) through the scheduler in virtual time, 4 workers, shaped like a
// stack's DAG: a root fans out to W branches, each branch a chain of calls
// (every call's callback submits the next one), so each lock-step round
// carries up to W calls. Prints calls/s and µs per call round trip.
// Target: < 5 µs per call.
//
//   bench_scheduler [N=20000] [W=100] [workers=4]
//
// Also runs a pure chain (W = 1: one call per round, every call a thread
// hand-off) as the worst case, with N/10 calls.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "run/clock.h"
#include "run/scheduler.h"

#include "bench_support.h"

namespace {

class TrivialSession : public bench::PassThroughSession {
 public:
  const ms::TypeSchema* Schema(std::string_view) override { return nullptr; }
  ms::HookOutcome Call(const ms::HookCall& call) override {
    ms::HookOutcome o;
    o.kind = ms::HookOutcome::Kind::kDone;
    o.physical_id = call.ctx.logical_id;
    return o;
  }
};

class TrivialRuntime : public ms::ProviderRuntime {
 public:
  ms::Status NewSession(std::unique_ptr<ms::ProviderSession>* out) override {
    *out = std::make_unique<TrivialSession>();
    return ms::Status::OK();
  }
  std::vector<std::string> Types() const override { return {"Bench::Fake::Thing"}; }
  const ms::TypeSchema* Schema(std::string_view) const override { return nullptr; }
};

ms::HookCall MakeCall(int i) {
  ms::HookCall c;
  c.type = "Bench::Fake::Thing";
  c.ctx.stack_name = "bench";
  c.ctx.logical_id = "R" + std::to_string(i);
  return c;
}

struct Result {
  double seconds;
  uint64_t calls;
};

// Root call, then `width` chains sharing the remaining n - 1 calls.
Result RunPattern(int n, int width, int workers) {
  TrivialRuntime rt;
  auto clock = ms::NewVirtualClock(0);
  ms::Scheduler s(&rt, clock.get(), ms::SchedulerOptions{workers, 64});
  int submitted = 0;
  std::function<void()> step = [&] {
    if (submitted >= n) return;
    s.Call(MakeCall(submitted++), [&](const ms::HookOutcome&) { step(); });
  };
  auto start = std::chrono::steady_clock::now();
  s.Call(MakeCall(submitted++), [&](const ms::HookOutcome&) {
    for (int b = 0; b < width; ++b) step();
  });
  ms::Status st = s.Run();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!st.ok()) {
    std::fprintf(stderr, "Run failed: %s\n", st.message().c_str());
    std::exit(1);
  }
  return {secs, s.calls_completed()};
}

void Print(const char* name, const Result& r) {
  std::printf("%-28s %7llu calls  %8.1f ms  %10.0f calls/s  %6.2f us/call\n", name,
              static_cast<unsigned long long>(r.calls), r.seconds * 1e3, r.calls / r.seconds,
              r.seconds * 1e6 / r.calls);
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20000;
  int width = argc > 2 ? std::atoi(argv[2]) : 100;
  int workers = argc > 3 ? std::atoi(argv[3]) : 4;
  if (n < 1 || width < 1 || workers < 1) {
    std::fprintf(stderr, "usage: bench_scheduler [N>=1] [W>=1] [workers>=1]\n");
    return 2;
  }
  RunPattern(1000, width, workers);  // warm-up
  std::printf("virtual clock, %d workers, max_concurrency 64\n", workers);
  char name[64];
  std::snprintf(name, sizeof name, "fan-out %d x chains", width);
  Print(name, RunPattern(n, width, workers));
  Print("chain (1 call per round)", RunPattern(std::max(1, n / 10), 1, workers));
  return 0;
}
