// Nested-stack benchmark: a parent of C AWS::CloudFormation::Stack resources
// (default 100), each a child stack of R resources (default 100: 10,000 in
// all), created and then deleted through StackService in virtual time, with
// bench_stack's light C++ fake provider, on a file-backed SQLite store in WAL
// mode (ms::OpenStore) in a temp directory. The children's template is a
// file:// TemplateURL (OperationContext::allow_file_template_urls, as the
// embedded CLI reads one), each child a layered DAG (bench_support.h, 5
// layers) taking the parent's `Index` parameter; the parent reads each
// child's output with Fn::GetAtt (its Outputs).
//
// Everything the engine does for a nested stack is in the figures: the
// child's StartCreate (its template read, parsed — the text is shared by
// the TemplateCache — validated, its record committed), its operation on
// the parent's operation thread (stack/NESTED.md), its checkpoints, the
// parent's journal of the nested resource; delete likewise.
//
// Prints wall time of create and delete (StartCreate/StartDelete + Run), CPU
// time (all threads; the calling thread, where every stack's operation
// runs), peak RSS, provider calls, the stacks made, the events written
// across all of them, the virtual clock's advance. Targets at 100 x 100:
// create <= 2 s, delete <= 2 s.
//
//   bench_nested [CHILDREN [RESOURCES_PER_CHILD]]
#include <sys/resource.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "bench_support.h"
#include "run/clock.h"
#include "stack/stack_service.h"
#include "store/stack_tables.h"

namespace {

using namespace bench;  // NOLINT: the shared helpers (bench_support.h)

constexpr const char* kType = "Bench::Light::Thing";
constexpr const char* kNestedType = "AWS::CloudFormation::Stack";

// The light type and AWS::CloudFormation::Stack (whose hooks the engine
// runs itself: the provider only validates its properties, as the registry
// schema would).
class LightProviders : public ms::ProviderRuntime {
 public:
  LightProviders() {
    for (ms::TypeSchema* s : {&light_, &nested_}) {
      s->source = "bench";
      s->accepts_undeclared_properties = true;
      s->accepts_any_attribute = true;
    }
    light_.type = kType;
    nested_.type = kNestedType;
  }
  ms::Status NewSession(std::unique_ptr<ms::ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return {kType, kNestedType}; }
  const ms::TypeSchema* Schema(std::string_view type) const override {
    if (type == kType) return &light_;
    return type == kNestedType ? &nested_ : nullptr;
  }
  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> next_id{0};

 private:
  ms::TypeSchema light_, nested_;
};

class LightSession : public PassThroughSession {
 public:
  explicit LightSession(LightProviders* p) : p_(p) {}
  const ms::TypeSchema* Schema(std::string_view type) override { return p_->Schema(type); }
  ms::HookOutcome Call(const ms::HookCall& call) override {
    p_->calls.fetch_add(1, std::memory_order_relaxed);
    ms::HookOutcome o;
    if (call.hook != ms::Hook::kCreate) return o;  // delete: done at once
    o.physical_id = call.ctx.logical_id + "-" + std::to_string(p_->next_id.fetch_add(1) + 1);
    o.attributes = ms::Value::MakeMap();
    o.attributes.set("Arn", ms::Value::String("arn:bench:" + o.physical_id));
    return o;
  }

 private:
  LightProviders* p_;
};

ms::Status LightProviders::NewSession(std::unique_ptr<ms::ProviderSession>* out) {
  *out = std::make_unique<LightSession>(this);
  return ms::Status::OK();
}

// The child: a layered DAG of `n` light resources, named after the parent's
// Index parameter, with an output.
std::string ChildTemplate(int n) {
  LayeredDag dag(n, 5);
  std::string json = R"({"Parameters":{"Index":{"Type":"String"}},"Resources":{)";
  for (int i = 0; i < n; ++i) {
    if (i) json += ",";
    json += "\"" + dag.Name(i) + "\":{\"Type\":\"" + kType + "\",\"Properties\":{\"Name\":{\"Fn::Sub\":\"${Index}-" +
            dag.Name(i) + "\"}";
    const std::vector<int>& ps = dag.parents[i];
    for (size_t k = 0; k < ps.size(); ++k) {
      json += ",\"Dep" + std::to_string(k) + "\":";
      json += k % 2 == 0 ? "{\"Ref\":\"" + dag.Name(ps[k]) + "\"}"
                         : "{\"Fn::GetAtt\":[\"" + dag.Name(ps[k]) + "\",\"Arn\"]}";
    }
    json += "}}";
  }
  json += R"(},"Outputs":{"First":{"Value":{"Ref":"L0R0"}}}})";
  return json;
}

// The parent: `children` nested stacks, independent of each other, and an
// output reading the last one's.
std::string ParentTemplate(int children, const std::string& url) {
  std::string json = R"({"Resources":{)";
  for (int i = 0; i < children; ++i) {
    if (i) json += ",";
    json += "\"Child" + std::to_string(i) + "\":{\"Type\":\"" + kNestedType + "\",\"Properties\":{\"TemplateURL\":\"" +
            url + "\",\"Parameters\":{\"Index\":\"" + std::to_string(i) + "\"}}}";
  }
  json += R"(},"Outputs":{"Last":{"Value":{"Fn::GetAtt":["Child)" + std::to_string(children - 1) +
          R"(","Outputs.First"]}}}})";
  return json;
}

struct Phase {
  double start_s = 0, run_s = 0, cpu_s = 0, loop_cpu_s = 0, loop_queued_s = 0;
  long peak_kb = -1;
  uint64_t calls = 0;
};

void Print(const char* name, const Phase& p, double target_s, bool targets) {
  const double total = p.start_s + p.run_s;
  std::printf("  %-6s wall %7.3f s", name, total);
  if (targets) std::printf(" (target <= %.1f s: %s)", target_s, total <= target_s ? "met" : "MISSED");
  std::printf("   = start %.3f s + run %.3f s\n", p.start_s, p.run_s);
  std::printf("         cpu %.3f s (operation thread %.3f s, workers %.3f s); the operation thread waited %.3f s "
              "for a CPU\n         peak RSS %.1f MB; provider calls %llu\n",
              p.cpu_s, p.loop_cpu_s, p.cpu_s - p.loop_cpu_s, p.loop_queued_s, Mb(p.peak_kb),
              static_cast<unsigned long long>(p.calls));
}

}  // namespace

int main(int argc, char** argv) {
  const int children = argc > 1 ? std::atoi(argv[1]) : 100;
  const int per_child = argc > 2 ? std::atoi(argv[2]) : 100;
  if (children < 1 || per_child < 5) {
    std::fprintf(stderr, "usage: bench_nested [CHILDREN>=1 [RESOURCES_PER_CHILD>=5]]\n");
    return 2;
  }
  TempStore store("bench_nested");
  const std::string child_path = (store.dir / "child.json").string();
  {
    std::ofstream f(child_path);
    f << ChildTemplate(per_child);
  }
  const std::string parent = ParentTemplate(children, "file://" + child_path);

  ms::World world;
  LightProviders providers;
  auto clock = ms::NewVirtualClock(1700000000000);
  ms::OperationContext ctx;
  ctx.db = store.db.get();
  ctx.world = &world;
  ctx.providers = &providers;
  ctx.clock = clock.get();
  ctx.allow_file_template_urls = true;
  ms::StackService service(ctx);

  std::printf("== virtual time, file store (WAL), light provider: a parent of %d nested stacks of %d resources "
              "(%d in all), %d workers / %d in flight\n",
              children, per_child, children * per_child, ctx.scheduler.workers, ctx.scheduler.max_concurrency);

  auto measure = [&](Phase* p, auto start, auto run) {
    ResetPeakRss();
    const double cpu0 = CpuSeconds(RUSAGE_SELF), thread0 = CpuSeconds(RUSAGE_THREAD), queued0 = RunQueueSeconds();
    auto t0 = SteadyClock::now();
    std::string id = start();
    auto t1 = SteadyClock::now();
    run(id);
    auto t2 = SteadyClock::now();
    p->start_s = Secs(t0, t1);
    p->run_s = Secs(t1, t2);
    p->cpu_s = CpuSeconds(RUSAGE_SELF) - cpu0;
    p->loop_cpu_s = CpuSeconds(RUSAGE_THREAD) - thread0;
    p->loop_queued_s = RunQueueSeconds() - queued0;
    p->peak_kb = StatusKb("VmHWM");
    p->calls = providers.calls.exchange(0);
    return id;
  };

  Phase create, del;
  const std::string id = measure(
      &create,
      [&] {
        ms::CreateStackInput in;
        in.stack_name = "parent";
        in.template_body = parent;
        std::string out;
        Die(service.StartCreate(in, &out), "StartCreate");
        return out;
      },
      [&](const std::string& stack_id) { Die(service.Run(stack_id), "Run (create)"); });
  const int64_t create_ms = clock->NowMs() - 1700000000000;

  // What the create made: the children (through the parent's resources) and the events of every stack.
  ms::StackRecord rec;
  Die(service.FindStack(id, &rec), "FindStack");
  const std::string create_status = ms::StackStatusName(rec.status);
  std::vector<ms::ResourceRecord> resources;
  Die(service.Resources(id, &resources), "Resources");
  std::vector<std::string> child_ids;
  int complete_children = 0;
  for (const ms::ResourceRecord& r : resources) {
    if (r.type != kNestedType) continue;
    child_ids.push_back(r.physical_id);
    ms::StackRecord child;
    if (service.FindStack(r.physical_id, &child).ok() && child.status == ms::StackStatus::kCreateComplete) {
      ++complete_children;
    }
  }
  int64_t create_events = store.Events(id);
  for (const std::string& c : child_ids) create_events += store.Events(c);

  measure(
      &del,
      [&] {
        std::string out;
        Die(service.StartDelete({"parent", {}, ""}, &out), "StartDelete");
        return out;
      },
      [&](const std::string& stack_id) { Die(service.Run(stack_id), "Run (delete)"); });
  Die(service.FindStack(id, &rec), "FindStack");
  const std::string delete_status = ms::StackStatusName(rec.status);
  int deleted_children = 0;
  int64_t all_events = store.Events(id);
  for (const std::string& c : child_ids) {
    ms::StackRecord child;
    if (service.FindStack(c, &child).ok() && child.status == ms::StackStatus::kDeleteComplete) ++deleted_children;
    all_events += store.Events(c);
  }

  const bool targets = children == 100 && per_child == 100;
  Print("create", create, 2.0, targets);
  std::printf("         -> %s, %d/%zu children CREATE_COMPLETE, %lld events in all stacks, virtual clock +%lld ms\n",
              create_status.c_str(), complete_children, child_ids.size(), static_cast<long long>(create_events),
              static_cast<long long>(create_ms));
  Print("delete", del, 2.0, targets);
  std::printf("         -> %s, %d/%zu children DELETE_COMPLETE, %lld events, virtual clock +%lld ms\n",
              delete_status.c_str(), deleted_children, child_ids.size(),
              static_cast<long long>(all_events - create_events),
              static_cast<long long>(clock->NowMs() - 1700000000000 - create_ms));
  if (create_status != "CREATE_COMPLETE" || delete_status != "DELETE_COMPLETE" ||
      complete_children != children || deleted_children != children) {
    std::printf("  ERROR: unexpected final status\n");
    return 1;
  }
  return 0;
}
