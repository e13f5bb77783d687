// Whole-stack update benchmark (issue 5): update-stack through StackService
// on a deployed stack, with a light C++ fake provider, on a file-backed
// SQLite store in WAL mode (ms::OpenStore) in a temp directory, virtual time.
//
// The stack is bench_stack's layered DAG (20 layers; every resource of layer
// k > 0 names 1-3 resources of layer k-1 through Ref / Fn::GetAtt Arn), first
// created (not timed), then:
//   1. no-op: StartUpdate with the same template, timed until it answers
//      "No updates are to be performed.";
//   2. 1% of the resources changed, spread evenly over the layers (every
//      100th resource): half in place (Name: update kNone, or Tier: kSome),
//      half replaced (Size: kReplace). A replaced resource gets a new physical
//      ID and Arn, so its dependents (Dep*: kNone) are updated in place
//      through the Ref / GetAtt that changed; dependents of in-place updates
//      see the same Ref and Arn and are left alone. Timed: StartUpdate
//      (validation, planning, first checkpoint) and Run (the update and its
//      cleanup, which deletes the replaced resources). Checks UPDATE_COMPLETE
//      and that the provider saw exactly the expected creates / updates /
//      deletes; prints how many resources the plan touches (PlanChangeSet,
//      timed separately: validation + planning without the checkpoint).
// Prints wall and CPU time (all threads and the engine loop thread), peak RSS
// (VmHWM reset per phase), provider calls and events written.
// Targets at 10,000 resources: no-op <= 100 ms, planning (StartUpdate) <=
// 100 ms, whole update (StartUpdate + Run) <= 1.0 s.
//
//   bench_update [--no-fork] [N ...]
//
// N defaults to 1000 10000, each in a forked child (its own peak RSS);
// --no-fork runs them in this process (for callgrind).
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
#include <set>
#include <string>
#include <vector>

#include "bench_support.h"
#include "run/clock.h"
#include "stack/change_sets.h"
#include "stack/stack_service.h"
#include "store/schema.h"

namespace {

using namespace bench;  // NOLINT: the shared helpers (bench_support.h)

constexpr const char* kType = "Bench::Update::Thing";

// --- the fake provider ------------------------------------------------------------

// One type with declared properties and their update behaviours; create
// makes a new ID (and Arn), update keeps it, delete forgets it. Every hook
// answers at once. Counts calls per hook.
class UpdateProviders : public ms::ProviderRuntime {
 public:
  UpdateProviders() {
    schema_.type = kType;
    schema_.source = "bench";
    auto add = [&](const char* name, ms::UpdateBehavior b) {
      ms::PropertySchema p;
      p.name = name;
      p.type = name[0] == 'S' ? "integer" : "string";
      p.update = b;
      schema_.properties.push_back(p);
    };
    add("Name", ms::UpdateBehavior::kNone);
    add("Tier", ms::UpdateBehavior::kSome);
    add("Size", ms::UpdateBehavior::kReplace);
    for (const char* d : {"Dep0", "Dep1", "Dep2"}) add(d, ms::UpdateBehavior::kNone);
    schema_.attributes = {"Arn"};
  }
  ms::Status NewSession(std::unique_ptr<ms::ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return {kType}; }
  const ms::TypeSchema* Schema(std::string_view type) const override { return type == kType ? &schema_ : nullptr; }

  std::atomic<uint64_t> creates{0}, updates{0}, deletes{0}, others{0}, next_id{0};
  uint64_t Calls() const { return creates + updates + deletes + others; }
  void Reset() { creates = updates = deletes = others = 0; }

 private:
  ms::TypeSchema schema_;
};

class UpdateSession : public PassThroughSession {
 public:
  explicit UpdateSession(UpdateProviders* p) : p_(p) {}
  const ms::TypeSchema* Schema(std::string_view type) override { return p_->Schema(type); }
  ms::HookOutcome Call(const ms::HookCall& call) override {
    ms::HookOutcome o;
    switch (call.hook) {
      case ms::Hook::kCreate:
        p_->creates++;
        o.physical_id = call.ctx.logical_id + "-" + std::to_string(++p_->next_id);
        break;
      case ms::Hook::kUpdate:
        p_->updates++;
        o.physical_id = call.physical_id;  // in place: same resource
        break;
      case ms::Hook::kDelete:
        p_->deletes++;
        return o;
      default:
        p_->others++;
        return o;
    }
    o.attributes = ms::Value::MakeMap();
    o.attributes.set("Arn", ms::Value::String("arn:bench:" + o.physical_id));
    return o;
  }

 private:
  UpdateProviders* p_;
};

ms::Status UpdateProviders::NewSession(std::unique_ptr<ms::ProviderSession>* out) {
  *out = std::make_unique<UpdateSession>(this);
  return ms::Status::OK();
}

// --- the templates --------------------------------------------------------------

enum Change : char { kSame, kInPlaceNone, kInPlaceSome, kReplace };

// bench_stack's shape (bench_support.h).
using Dag = LayeredDag;

std::string Name(const Dag& d, int i) { return d.Name(i); }

// The template with each resource's change applied (Dep0, Dep2: Ref; Dep1: GetAtt Arn).
std::string TemplateJson(const Dag& d, const std::vector<Change>& change) {
  std::string j;
  j.reserve(static_cast<size_t>(d.n) * 220);
  j += R"({"AWSTemplateFormatVersion":"2010-09-09","Description":"bench_update layered DAG","Resources":{)";
  for (int i = 0; i < d.n; ++i) {
    const Change c = change[i];
    if (i) j += ",";
    j += "\"" + Name(d, i) + "\":{\"Type\":\"" + kType + "\",\"Properties\":{\"Name\":\"" + Name(d, i) +
         (c == kInPlaceNone ? "-v2" : "") + "\",\"Tier\":\"" + (c == kInPlaceSome ? "gold" : "basic") +
         "\",\"Size\":" + (c == kReplace ? "16" : "8");
    for (size_t k = 0; k < d.parents[i].size(); ++k) {
      const std::string p = Name(d, d.parents[i][k]);
      j += ",\"Dep" + std::to_string(k) + "\":";
      j += k % 2 == 0 ? "{\"Ref\":\"" + p + "\"}" : "{\"Fn::GetAtt\":[\"" + p + "\",\"Arn\"]}";
    }
    j += "}}";
  }
  j += R"(},"Outputs":{"First":{"Value":{"Ref":"L0R0"}}}})";
  return j;
}

// Wall, CPU (process; calling thread = engine loop) and the calling thread's
// wait for a CPU over a phase.
struct Measure {
  SteadyClock::time_point t0 = SteadyClock::now();
  double cpu0 = CpuSeconds(RUSAGE_SELF), thread0 = CpuSeconds(RUSAGE_THREAD), queued0 = RunQueueSeconds();
  double wall = 0, cpu = 0, loop_cpu = 0, queued = 0;
  void Stop() {
    wall = Secs(t0, SteadyClock::now());
    cpu = CpuSeconds(RUSAGE_SELF) - cpu0;
    loop_cpu = CpuSeconds(RUSAGE_THREAD) - thread0;
    queued = RunQueueSeconds() - queued0;
  }
};

const char* Verdict(double v, double target) { return v <= target ? "met" : "MISSED"; }

// --- the benchmark ------------------------------------------------------------------

void RunSize(int n) {
  const bool targets = n == 10000;
  Dag dag(n, 20);

  // Every 100th resource (offset 50) changes: alternately replaced and in
  // place (the in-place ones alternately Name / Tier).
  std::vector<Change> same(n, kSame), changed(n, kSame);
  std::vector<char> replaced(n, 0), in_place(n, 0);
  for (int k = 0, i = 50; i < n; ++k, i += 100) {
    changed[i] = k % 2 == 0 ? kReplace : (k % 4 == 1 ? kInPlaceNone : kInPlaceSome);
    (changed[i] == kReplace ? replaced : in_place)[i] = 1;
  }
  // Expected provider calls: a create and (cleanup) a delete per replaced
  // resource; an update per in-place change and per dependent of a replaced
  // resource that is not itself replaced.
  uint64_t n_replaced = 0, n_in_place = 0, want_updates = 0, cascaded = 0;
  for (int i = 0; i < n; ++i) {
    n_replaced += replaced[i];
    n_in_place += in_place[i];
    if (replaced[i]) continue;
    bool parent_replaced = false;
    for (int p : dag.parents[i]) parent_replaced |= replaced[p] != 0;
    if (in_place[i] || parent_replaced) ++want_updates;
    if (parent_replaced && !in_place[i]) ++cascaded;
  }
  const std::string body = TemplateJson(dag, same);
  const std::string body2 = TemplateJson(dag, changed);

  TempStore store("bench_update");
  ms::World world;
  UpdateProviders providers;
  auto clock = ms::NewVirtualClock(1700000000000);
  ms::OperationContext ctx;
  ctx.db = store.db.get();
  ctx.world = &world;
  ctx.providers = &providers;
  ctx.clock = clock.get();
  ms::StackService service(ctx);

  std::printf("%d resources, 20 layers, %zu dependency edges, template %.1f KB\n", n, dag.edges,
              body.size() / 1024.0);

  // The deployed stack (not timed).
  ms::CreateStackInput in;
  in.stack_name = "bench";
  in.template_body = body;
  std::string id;
  Measure mc;
  Die(service.StartCreate(in, &id), "StartCreate");
  Die(service.Run(id), "Run (create)");
  mc.Stop();
  ms::StackRecord rec;
  Die(service.FindStack(id, &rec), "FindStack");
  if (rec.status != ms::StackStatus::kCreateComplete) {
    std::printf("  ERROR: create ended %s\n", ms::StackStatusName(rec.status));
    std::exit(1);
  }
  std::printf("  (create, untimed: %.3f s)\n", mc.wall);
  providers.Reset();

  // 1. no-op
  ms::UpdateStackInput up;
  up.stack_name = "bench";
  up.template_body = body;
  std::string up_id;
  ResetPeakRss();
  Measure m0;
  ms::Status noop = service.StartUpdate(up, &up_id);
  m0.Stop();
  if (noop.ok() || noop.message() != "No updates are to be performed.") {
    std::printf("  ERROR: no-op update answered %s\n", noop.ok() ? "OK" : noop.message().c_str());
    std::exit(1);
  }
  std::printf("  no-op    %8.1f ms", m0.wall * 1e3);
  if (targets) std::printf(" (target <= 100 ms: %s)", Verdict(m0.wall, 0.1));
  std::printf("  cpu %.1f ms (waited %.1f ms for a CPU), peak RSS %.1f MB, provider calls %llu -> \"%s\"\n",
              m0.cpu * 1e3, m0.queued * 1e3, StatusKb("VmHWM") / 1024.0, static_cast<unsigned long long>(providers.Calls()), noop.message().c_str());

  // What the plan touches (planning without the checkpoint, timed on its own).
  ms::ChangeSetPlanInput pin;
  pin.stack_name = "bench";
  pin.change_set_name = "bench";
  pin.type = "UPDATE";
  pin.template_body = body2;
  ms::ChangeSetPlan cs;
  Measure mp;
  Die(ms::PlanChangeSet(ctx, pin, &cs), "PlanChangeSet");
  mp.Stop();
  size_t modify = 0, replace = 0, dynamic = 0;
  for (const ms::ResourcePlan& r : cs.plan.resources) {
    if (r.action != ms::ChangeAction::kModify) continue;
    ++modify;
    replace += r.replacement == ms::Replacement::kTrue;
    dynamic += r.dynamic;
  }

  // 2. the 1% update
  up.template_body = body2;
  const int64_t events0 = store.Events(id);
  ResetPeakRss();
  Measure ms_, mall;
  Die(service.StartUpdate(up, &up_id), "StartUpdate");
  ms_.Stop();
  Measure mr;
  Die(service.Run(up_id), "Run (update)");
  mr.Stop();
  mall.Stop();
  const long peak = StatusKb("VmHWM");
  Die(service.FindStack(id, &rec), "FindStack");
  const std::string status = ms::StackStatusName(rec.status);
  const int64_t events = store.Events(id) - events0;

  std::printf("  changed: %llu in place + %llu replaced; plan touches %zu resources (Modify: %zu "
              "Replacement True, %zu Dynamic), PlanChangeSet %.1f ms\n",
              static_cast<unsigned long long>(n_in_place), static_cast<unsigned long long>(n_replaced),
              modify, replace, dynamic, mp.wall * 1e3);
  std::printf("  plan     %8.1f ms", ms_.wall * 1e3);
  if (targets) std::printf(" (target <= 100 ms: %s)", Verdict(ms_.wall, 0.1));
  std::printf("  StartUpdate: validate, plan, first checkpoint; cpu %.1f ms (waited %.1f ms)\n", ms_.cpu * 1e3,
              ms_.queued * 1e3);
  std::printf("  update   %8.3f s ", mall.wall);
  if (targets) std::printf(" (target <= 1.0 s: %s)", Verdict(mall.wall, 1.0));
  std::printf("  = start %.3f s + run %.3f s\n", ms_.wall, mr.wall);
  std::printf("           cpu %.3f s (engine loop thread %.3f s, workers %.3f s; loop thread waited %.3f s for a "
              "CPU), peak RSS %.1f MB\n",
              mall.cpu, mall.loop_cpu, mall.cpu - mall.loop_cpu, mall.queued, peak / 1024.0);
  std::printf("           provider calls %llu: create %llu, update %llu, delete %llu (expected %llu / %llu / %llu; "
              "%llu updates cascaded from replacements); events written %lld -> %s\n",
              static_cast<unsigned long long>(providers.Calls()), static_cast<unsigned long long>(providers.creates),
              static_cast<unsigned long long>(providers.updates), static_cast<unsigned long long>(providers.deletes),
              static_cast<unsigned long long>(n_replaced), static_cast<unsigned long long>(want_updates),
              static_cast<unsigned long long>(n_replaced), static_cast<unsigned long long>(cascaded),
              static_cast<long long>(events), status.c_str());
  if (status != "UPDATE_COMPLETE" || providers.creates != n_replaced || providers.deletes != n_replaced ||
      providers.updates != want_updates || providers.others != 0) {
    std::printf("  ERROR: unexpected final status or provider calls\n");
    std::fflush(stdout);
    std::exit(1);
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool fork_it = true;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--no-fork") {
      fork_it = false;
    } else if (int n = std::atoi(a.c_str()); n >= 200) {
      sizes.push_back(n);
    } else {
      std::fprintf(stderr, "usage: bench_update [--no-fork] [N>=200 ...]\n");
      return 2;
    }
  }
  if (sizes.empty()) sizes = {1000, 10000};
  std::printf("== update-stack, virtual time, file store (WAL), light provider, %d workers / %d in flight\n",
              ms::SchedulerOptions().workers, ms::SchedulerOptions().max_concurrency);
  int failed = 0;
  for (int n : sizes) {
    std::fflush(stdout);
    if (!fork_it) {
      RunSize(n);
      continue;
    }
    pid_t pid = fork();
    if (pid == 0) {
      RunSize(n);
      std::fflush(stdout);
      _exit(0);
    }
    int st = 0;
    if (pid > 0) waitpid(pid, &st, 0);
    if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      std::printf("  (run of %d failed)\n", n);
      ++failed;
    }
  }
  return failed == 0 ? 0 : 1;
}
