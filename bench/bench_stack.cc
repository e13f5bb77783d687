// Whole-stack benchmark: create-stack and delete-stack through StackService
// (validation, then the operation: DAG walk, scheduler, store checkpoints),
// with a light C++ fake provider, on a file-backed SQLite store in WAL mode
// (ms::OpenStore, as the CLI uses it) in a temp directory.
//
// 1. Virtual time, generated stacks of 1,000 and 10,000 resources: a layered
//    DAG (20 layers; every resource of layer k > 0 names 1-3 resources of
//    layer k-1 through Ref / Fn::GetAtt in its properties). Each size runs in
//    a forked child so peak RSS (VmHWM, reset between phases through
//    /proc/self/clear_refs) belongs to that size and phase only. Prints wall
//    time of create and delete, split into the synchronous half (StartCreate /
//    StartDelete: template validation, first checkpoint) and the operation
//    (Run), CPU time (all threads, the engine loop thread, and how long that
//    thread waited for a CPU: on a shared machine wall - cpu is mostly that),
//    peak RSS, provider calls and events written.
//    Targets at 10,000 resources: create <= 1.0 s, delete <= 1.0 s, peak RSS
//    <= 300 MB.
//
// 2. Real time (RealClock), ~200 resources (10 layers x 20), 50 ms of
//    provider latency per create, workers 8, max_concurrency 256. The latency
//    is modelled the way providers are meant to model it: the first create
//    call answers kInProgress with after_seconds = 0.05 and the second call
//    answers done — the worker is free meanwhile, so this measures whether the
//    ENGINE overlaps independent work (timers, not threads, carry the wait).
//    Prints makespan (Run's wall time), the DAG's critical path (sum of
//    latencies along its longest chain) and their ratio. Target: makespan <=
//    1.10 x critical path. For contrast it also runs the same DAG with the
//    provider sleeping 50 ms in the worker (bounded by the 8 workers: no
//    target, shown only to make the difference visible).
//
//   bench_stack [--virtual-only | --real-only] [--no-fork] [--repeat=R] [--max-concurrency=M] [N ...]
//
// N defaults to 1000 10000; the real-time run is repeated R times (default 5,
// each in its own child) because one run on a shared machine is noisy.
// --no-fork runs everything in this process (for perf / callgrind; peaks are
// then still reset per phase but share the heap). --max-concurrency sets the
// virtual-time runs' calls in flight (default 64, SchedulerOptions' default; the
// CLI and serve run 1,024 in flight and one worker per core but one).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.h"
#include "eval/validate.h"
#include "run/clock.h"
#include "stack/stack_service.h"
#include "store/schema.h"
#include "template/template.h"

namespace {

using namespace bench;  // NOLINT: the shared helpers (bench_support.h)

constexpr const char* kType = "Bench::Light::Thing";

// --- the light provider -----------------------------------------------------------

// How create models latency (delete is always immediate).
enum class Latency { kNone, kInProgress, kSleep };

// One type whose create returns an ID and one attribute (Arn). With latency
// kInProgress the first create call answers "in progress, look again after
// latency_s" and the second answers done; with kSleep the call sleeps.
class LightProviders : public ms::ProviderRuntime {
 public:
  explicit LightProviders(Latency mode = Latency::kNone, double latency_s = 0) : mode_(mode), latency_s_(latency_s) {
    schema_.type = kType;
    schema_.source = "bench";
    schema_.accepts_undeclared_properties = true;
    schema_.accepts_any_attribute = true;
  }
  ms::Status NewSession(std::unique_ptr<ms::ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return {kType}; }
  const ms::TypeSchema* Schema(std::string_view type) const override { return type == kType ? &schema_ : nullptr; }

  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> next_id{0};
  const Latency mode_;
  const double latency_s_;

 private:
  ms::TypeSchema schema_;
};

class LightSession : public PassThroughSession {
 public:
  explicit LightSession(LightProviders* p) : p_(p) {}
  const ms::TypeSchema* Schema(std::string_view type) override { return p_->Schema(type); }
  ms::HookOutcome Call(const ms::HookCall& call) override {
    p_->calls.fetch_add(1, std::memory_order_relaxed);
    ms::HookOutcome o;
    if (call.hook != ms::Hook::kCreate) return o;  // delete: done at once
    if (p_->mode_ == Latency::kInProgress && call.ctx.progress.is_null()) {
      o.kind = ms::HookOutcome::Kind::kInProgress;
      o.after_seconds = p_->latency_s_;
      o.physical_id = NewId(call);
      o.progress = ms::Value::MakeMap();
      o.progress.set("id", ms::Value::String(o.physical_id));
      return o;
    }
    if (p_->mode_ == Latency::kSleep) std::this_thread::sleep_for(std::chrono::duration<double>(p_->latency_s_));
    const ms::Value* saved = call.ctx.progress.is_map() ? call.ctx.progress.find("id") : nullptr;
    o.physical_id = saved != nullptr ? saved->str() : NewId(call);
    o.attributes = ms::Value::MakeMap();
    o.attributes.set("Arn", ms::Value::String("arn:bench:" + o.physical_id));
    return o;
  }

 private:
  std::string NewId(const ms::HookCall& call) {
    return call.ctx.logical_id + "-" + std::to_string(p_->next_id.fetch_add(1, std::memory_order_relaxed) + 1);
  }
  LightProviders* p_;
};

ms::Status LightProviders::NewSession(std::unique_ptr<ms::ProviderSession>* out) {
  *out = std::make_unique<LightSession>(this);
  return ms::Status::OK();
}

// --- the generated template ------------------------------------------------------

// The layered DAG (bench_support.h) and its template: every resource names
// its parents, in turn by Ref and by Fn::GetAtt Arn.
struct Dag : bench::LayeredDag {
  std::string json;

  Dag(int n, int layers) : LayeredDag(n, layers) {
    json.reserve(static_cast<size_t>(n) * 200);
    json += R"({"AWSTemplateFormatVersion":"2010-09-09","Description":"bench_stack layered DAG","Resources":{)";
    for (int i = 0; i < n; ++i) {
      if (i) json += ",";
      json += "\"" + Name(i) + "\":{\"Type\":\"" + kType + "\",\"Properties\":{\"Name\":\"" + Name(i) +
              "\",\"Size\":8";
      const std::vector<int>& ps = parents[i];
      for (size_t k = 0; k < ps.size(); ++k) {
        json += ",\"Dep" + std::to_string(k) + "\":";
        json += k % 2 == 0 ? "{\"Ref\":\"" + Name(ps[k]) + "\"}" : "{\"Fn::GetAtt\":[\"" + Name(ps[k]) + "\",\"Arn\"]}";
      }
      json += "}}";
    }
    json += R"(},"Outputs":{"First":{"Value":{"Ref":"L0R0"}}}})";
  }
};

// Sum of latencies along the longest chain (latency the same for every create).
double CriticalPathSeconds(const Dag& d, double latency_s) {
  std::vector<double> finish(d.parents.size(), 0);
  double best = 0;
  for (size_t i = 0; i < d.parents.size(); ++i) {  // parents always have smaller indices
    double start = 0;
    for (int p : d.parents[i]) start = std::max(start, finish[p]);
    finish[i] = start + latency_s;
    best = std::max(best, finish[i]);
  }
  return best;
}

// --- process figures ----------------------------------------------------------------

// CPU time over a phase: all threads, and the thread that runs the operation
// (the engine loop, where the walk, evaluation and the store commits run).
struct CpuMark {
  double process = CpuSeconds(RUSAGE_SELF), thread = CpuSeconds(RUSAGE_THREAD), queued = RunQueueSeconds();
};

struct Phase {
  double start_s = 0, run_s = 0;
  double cpu_s = 0, loop_cpu_s = 0;  // all threads; the calling (engine loop) thread
  double loop_queued_s = 0;          // the loop thread, runnable but not running
  long peak_kb = -1, rss_before_kb = -1;
  uint64_t calls = 0;
  int64_t events = 0;
};

void PrintPhase(const char* name, const Phase& p, double target_s, bool peak_reset, bool targets) {
  const double total = p.start_s + p.run_s;
  std::printf("  %-6s wall %8.3f s", name, total);
  if (targets) std::printf(" (target <= %.1f s: %s)", target_s, total <= target_s ? "met" : "MISSED");
  std::printf("   = start %7.3f s + run %7.3f s\n", p.start_s, p.run_s);
  std::printf("         cpu %.3f s (engine loop thread %.3f s, workers %.3f s); loop thread waited %.3f s for a CPU\n",
              p.cpu_s, p.loop_cpu_s, p.cpu_s - p.loop_cpu_s, p.loop_queued_s);
  std::printf("         peak RSS %7.1f MB%s", Mb(p.peak_kb), peak_reset ? "" : " (since process start)");
  if (targets) std::printf(" (target <= 300 MB: %s)", Mb(p.peak_kb) <= 300 ? "met" : "MISSED");
  std::printf("   [RSS before %.1f MB]\n", Mb(p.rss_before_kb));
  std::printf("         provider calls %llu, events written %lld\n", static_cast<unsigned long long>(p.calls),
              static_cast<long long>(p.events));
}

// Scheduler options of the virtual-time runs (the CLI's defaults unless given).
ms::SchedulerOptions g_virtual_scheduler;

void RunVirtual(int n) {
  const int kLayers = 20;
  auto g0 = SteadyClock::now();
  Dag dag(n, kLayers);
  const double gen_s = Secs(g0, SteadyClock::now());

  TempStore store("bench_stack");
  ms::World world;
  LightProviders providers;
  auto clock = ms::NewVirtualClock(1700000000000);
  ms::OperationContext ctx;
  ctx.db = store.db.get();
  ctx.world = &world;
  ctx.providers = &providers;
  ctx.clock = clock.get();
  ctx.scheduler = g_virtual_scheduler;
  ms::StackService service(ctx);

  // Profile aid: validate-template alone (the bulk of StartCreate).
  double validate_s = 0;
  {
    ms::Template t;
    ms::TemplateSummary summary;
    auto v0 = SteadyClock::now();
    Die(ms::ValidateTemplate(dag.json, &t, &summary, &providers), "ValidateTemplate");
    validate_s = Secs(v0, SteadyClock::now());
  }

  std::printf("%d resources, %d layers, %zu dependency edges, template %.1f KB (generated in %.1f ms)\n", n,
              kLayers, dag.edges, dag.json.size() / 1024.0, gen_s * 1e3);

  // create
  Phase create;
  create.rss_before_kb = StatusKb("VmRSS");
  const bool reset = ResetPeakRss();
  ms::CreateStackInput in;
  in.stack_name = "bench";
  in.template_body = dag.json;
  std::string id;
  CpuMark c0;
  auto t0 = SteadyClock::now();
  Die(service.StartCreate(in, &id), "StartCreate");
  auto t1 = SteadyClock::now();
  Die(service.Run(id), "Run (create)");
  auto t2 = SteadyClock::now();
  CpuMark c1;
  create.cpu_s = c1.process - c0.process;
  create.loop_cpu_s = c1.thread - c0.thread;
  create.loop_queued_s = c1.queued - c0.queued;
  create.start_s = Secs(t0, t1);
  create.run_s = Secs(t1, t2);
  create.peak_kb = StatusKb("VmHWM");
  create.calls = providers.calls.exchange(0);
  create.events = store.Events(id);
  ms::StackRecord rec;
  Die(service.FindStack(id, &rec), "FindStack");
  const std::string create_status = ms::StackStatusName(rec.status);
  const uint64_t bytes_after_create = store.Bytes();

  // delete
  Phase del;
  del.rss_before_kb = StatusKb("VmRSS");
  ResetPeakRss();
  std::string del_id;
  CpuMark c3;
  auto t3 = SteadyClock::now();
  Die(service.StartDelete({"bench", {}, ""}, &del_id), "StartDelete");
  auto t4 = SteadyClock::now();
  Die(service.Run(del_id), "Run (delete)");
  auto t5 = SteadyClock::now();
  CpuMark c4;
  del.cpu_s = c4.process - c3.process;
  del.loop_cpu_s = c4.thread - c3.thread;
  del.loop_queued_s = c4.queued - c3.queued;
  del.start_s = Secs(t3, t4);
  del.run_s = Secs(t4, t5);
  del.peak_kb = StatusKb("VmHWM");
  del.calls = providers.calls.exchange(0);
  del.events = store.Events(id) - create.events;
  Die(service.FindStack(id, &rec), "FindStack");
  const std::string delete_status = ms::StackStatusName(rec.status);

  const bool targets = n == 10000;
  PrintPhase("create", create, 1.0, reset, targets);
  std::printf("         -> %s; of start: ValidateTemplate alone %.3f s; store %.1f MB (db + wal)\n",
              create_status.c_str(), validate_s, bytes_after_create / 1048576.0);
  PrintPhase("delete", del, 1.0, reset, targets);
  std::printf("         -> %s; virtual clock advanced %lld ms\n", delete_status.c_str(),
              static_cast<long long>(clock->NowMs() - 1700000000000));
  if (create_status != "CREATE_COMPLETE" || delete_status != "DELETE_COMPLETE") {
    std::printf("  ERROR: unexpected final status\n");
  }
  std::fflush(stdout);
}

// --- 2. real time ---------------------------------------------------------------------

// Wall time (since the operation started) at which each resource first went
// CREATE_IN_PROGRESS and went CREATE_COMPLETE, from the events as the
// operation records them (on its own thread).
class Timeline : public ms::OperationObserver {
 public:
  explicit Timeline(const Dag& dag) : started_(dag.parents.size(), -1), done_(dag.parents.size(), -1) {}
  void Begin() { t0_ = SteadyClock::now(); }
  void OnEvent(const ms::StackEvent& e) override {
    const size_t r = e.logical_id.find('R');
    if (e.logical_id.empty() || e.logical_id[0] != 'L' || r == std::string::npos) return;
    const size_t i = std::strtoul(e.logical_id.c_str() + r + 1, nullptr, 10);
    if (i >= done_.size()) return;
    const double t = Secs(t0_, SteadyClock::now());
    if (e.status == "CREATE_IN_PROGRESS" && started_[i] < 0) started_[i] = t;
    if (e.status == "CREATE_COMPLETE") done_[i] = t;
  }
  std::vector<double> started_, done_;

 private:
  SteadyClock::time_point t0_ = SteadyClock::now();
};

struct RealRun {
  double makespan = 0, start = 0;
  double ready_to_start_ms = 0, ready_to_start_max_ms = 0;  // ready (deps complete) -> CREATE_IN_PROGRESS
  double hop_ms = 0, hop_max_ms = 0;                        // CREATE_IN_PROGRESS -> COMPLETE, minus latency
  uint64_t calls = 0;
  int64_t events = 0;
  std::string status;
};

RealRun RunRealOnce(Latency mode, const Dag& dag, double latency_s) {
  TempStore store("bench_stack");
  ms::World world;
  LightProviders providers(mode, latency_s);
  auto clock = ms::NewRealClock();
  Timeline timeline(dag);
  ms::OperationContext ctx;
  ctx.db = store.db.get();
  ctx.world = &world;
  ctx.providers = &providers;
  ctx.clock = clock.get();
  ctx.observer = &timeline;
  ctx.scheduler.workers = 8;
  ctx.scheduler.max_concurrency = 256;
  ms::StackService service(ctx);

  ms::CreateStackInput in;
  in.stack_name = "bench-real";
  in.template_body = dag.json;
  std::string id;
  RealRun out;
  auto t0 = SteadyClock::now();
  Die(service.StartCreate(in, &id), "StartCreate");
  auto t1 = SteadyClock::now();
  timeline.Begin();
  Die(service.Run(id), "Run (create)");
  auto t2 = SteadyClock::now();
  out.start = Secs(t0, t1);
  out.makespan = Secs(t1, t2);
  ms::StackRecord rec;
  Die(service.FindStack(id, &rec), "FindStack");
  out.status = ms::StackStatusName(rec.status);
  out.calls = providers.calls.load();
  out.events = store.Events(id);
  const size_t n = dag.parents.size();
  for (size_t i = 0; i < n; ++i) {
    double ready = 0;
    for (int p : dag.parents[i]) ready = std::max(ready, timeline.done_[p]);
    const double wait = (timeline.started_[i] - ready) * 1e3;
    const double hop = (timeline.done_[i] - timeline.started_[i] - latency_s) * 1e3;
    out.ready_to_start_ms += wait / n;
    out.ready_to_start_max_ms = std::max(out.ready_to_start_max_ms, wait);
    out.hop_ms += hop / n;
    out.hop_max_ms = std::max(out.hop_max_ms, hop);
  }
  return out;
}

// Runs the real-time create `repeat` times (the machine's load shows in single
// runs) and prints each run and the median ratio.
void RunReal(Latency mode, int n, int layers, double latency_s, int repeat, bool fork_it) {
  Dag dag(n, layers);
  const double critical = CriticalPathSeconds(dag, latency_s);
  const bool overlap = mode == Latency::kInProgress;
  std::printf("  %s, critical path %.3f s (%d layers x %.0f ms)\n",
              overlap ? "latency as kInProgress + after_seconds (engine overlap)"
                      : "latency as a sleep in the worker (bounded by 8 workers; no target)",
              critical, layers, latency_s * 1e3);
  std::vector<double> ratios;
  for (int k = 0; k < repeat; ++k) {
    // One child per run: a pipe brings the figures back.
    int fds[2] = {-1, -1};
    RealRun r;
    bool got = false;
    if (fork_it && pipe(fds) == 0) {
      std::fflush(stdout);
      pid_t pid = fork();
      if (pid == 0) {
        close(fds[0]);
        RealRun c = RunRealOnce(mode, dag, latency_s);
        char line[512];
        int len = std::snprintf(line, sizeof line, "%a %a %a %a %a %a %llu %lld %s", c.makespan, c.start,
                                c.ready_to_start_ms, c.ready_to_start_max_ms, c.hop_ms, c.hop_max_ms,
                                static_cast<unsigned long long>(c.calls), static_cast<long long>(c.events),
                                c.status.c_str());
        if (write(fds[1], line, static_cast<size_t>(len)) != len) _exit(1);
        _exit(0);
      }
      close(fds[1]);
      std::string text;
      char buf[512];
      for (ssize_t got_n; (got_n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(got_n));
      close(fds[0]);
      if (pid > 0) waitpid(pid, nullptr, 0);
      unsigned long long calls = 0;
      long long events = 0;
      char status[64] = {0};
      got = std::sscanf(text.c_str(), "%la %la %la %la %la %la %llu %lld %63s", &r.makespan, &r.start,
                        &r.ready_to_start_ms, &r.ready_to_start_max_ms, &r.hop_ms, &r.hop_max_ms, &calls,
                        &events, status) == 9;
      r.calls = calls;
      r.events = events;
      r.status = status;
    }
    if (!got) r = RunRealOnce(mode, dag, latency_s);
    const double ratio = r.makespan / critical;
    ratios.push_back(ratio);
    std::printf("    run %d: makespan %.3f s, ratio %.3f", k + 1, r.makespan, ratio);
    if (overlap) std::printf(" (target <= 1.10: %s)", ratio <= 1.10 ? "met" : "MISSED");
    std::printf("; start %.1f ms; overhead %.1f ms/layer\n", r.start * 1e3, (r.makespan - critical) * 1e3 / layers);
    std::printf("           ready->IN_PROGRESS avg %.2f ms (max %.2f), IN_PROGRESS->COMPLETE minus latency "
                "avg %.2f ms (max %.2f); calls %llu, events %lld -> %s\n",
                r.ready_to_start_ms, r.ready_to_start_max_ms, r.hop_ms, r.hop_max_ms,
                static_cast<unsigned long long>(r.calls), static_cast<long long>(r.events), r.status.c_str());
    std::fflush(stdout);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("    median ratio %.3f over %d runs", ratios[ratios.size() / 2], repeat);
  if (overlap) std::printf(" (target <= 1.10: %s)", ratios[ratios.size() / 2] <= 1.10 ? "met" : "MISSED");
  std::printf("\n");
}

// Runs fn in a forked child (so its peak RSS is its own), or inline.
template <typename Fn>
void Isolated(bool fork_it, Fn fn) {
  std::fflush(stdout);
  if (!fork_it) {
    fn();
    return;
  }
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    fn();
    return;
  }
  if (pid == 0) {
    fn();
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::printf("  (child for this run failed: status %d)\n", status);
}

}  // namespace

int main(int argc, char** argv) {
  bool do_virtual = true, do_real = true, fork_it = true;
  int repeat = 5;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--virtual-only") {
      do_real = false;
    } else if (a == "--real-only") {
      do_virtual = false;
    } else if (a == "--no-fork") {
      fork_it = false;
    } else if (a.rfind("--max-concurrency=", 0) == 0 && std::atoi(a.c_str() + 18) >= 1) {
      g_virtual_scheduler.max_concurrency = std::atoi(a.c_str() + 18);
    } else if (a.rfind("--repeat=", 0) == 0 && std::atoi(a.c_str() + 9) >= 1) {
      repeat = std::atoi(a.c_str() + 9);
    } else if (int n = std::atoi(a.c_str()); n >= 20) {
      sizes.push_back(n);
    } else {
      std::fprintf(stderr, "usage: bench_stack [--virtual-only | --real-only] [--no-fork] [--repeat=R] [--max-concurrency=M] [N>=20 ...]\n");
      return 2;
    }
  }
  if (sizes.empty()) sizes = {1000, 10000};

  if (do_virtual) {
    std::printf("== virtual time, file store (WAL), light provider, %d workers / %d in flight%s\n",
                g_virtual_scheduler.workers, g_virtual_scheduler.max_concurrency,
                g_virtual_scheduler.max_concurrency == ms::SchedulerOptions().max_concurrency ? " (SchedulerOptions defaults)" : "");
    for (int n : sizes) Isolated(fork_it, [n] { RunVirtual(n); });
  }
  if (do_real) {
    const int n = 200, layers = 10;
    const double latency = 0.05;
    std::printf("== real time, %d resources in %d layers, %.0f ms per create, 8 workers / 256 in flight\n", n,
                layers, latency * 1e3);
    RunReal(Latency::kInProgress, n, layers, latency, repeat, fork_it);
    RunReal(Latency::kSleep, n, layers, latency, 1, fork_it);
  }
  return 0;
}
