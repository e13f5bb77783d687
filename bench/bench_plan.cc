// Update planner benchmark (engine/plan): a deployed stack of N resources
// (default 10,000) in a layered DAG (20 layers; every resource of layer k > 0
// names 1-3 resources of layer k-1 through Ref / Fn::GetAtt), planned against
//   1. the same template and parameters: no-op detection ("No updates are to
//      be performed."), and
//   2. a template where 1% of the resources have a changed property (an
//      in-place update; their GetAtt dependents become Dynamic changes).
// Each is timed including the parsing of both templates (what update-stack
// pays) and with both templates already parsed (PlanInput::old_template /
// new_template). Best of R runs (default 5). Targets at 10,000: <= 100 ms each.
//
//   bench_plan [--repeat=R] [N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "eval/evaluator.h"
#include "graph/graph.h"
#include "plan/planner.h"
#include "template/template_cache.h"
#include "stack/stack_environment.h"
#include "template/template.h"

namespace {

using Clock = std::chrono::steady_clock;

class BenchProviders : public ms::ProviderRuntime {
 public:
  BenchProviders() {
    schema_.type = "Bench::Fake::Thing";
    for (const char* n : {"Name", "Source", "Sources"}) {
      ms::PropertySchema p;
      p.name = n;
      p.type = "string";
      p.update = ms::UpdateBehavior::kNone;
      schema_.properties.push_back(p);
    }
    ms::PropertySchema size;
    size.name = "Size";
    size.type = "string";
    size.update = ms::UpdateBehavior::kReplace;
    schema_.properties.push_back(size);
    schema_.attributes = {"Arn"};
  }
  ms::Status NewSession(std::unique_ptr<ms::ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return {"Bench::Fake::Thing"}; }
  const ms::TypeSchema* Schema(std::string_view t) const override { return t == "Bench::Fake::Thing" ? &schema_ : nullptr; }

 private:
  ms::TypeSchema schema_;
};

class BenchSession : public ms::ProviderSession {
 public:
  explicit BenchSession(BenchProviders* p) : p_(p) {}
  const ms::TypeSchema* Schema(std::string_view t) override { return p_->Schema(t); }
  ms::Status Validate(std::string_view, const ms::HookContext&, const ms::Value& in, ms::Value* out) override {
    *out = in;
    return ms::Status::OK();
  }
  ms::Status DecideUpdate(std::string_view, std::string_view, const ms::Value&, const ms::Value&,
                          const ms::HookContext&, ms::UpdateBehavior* out) override {
    *out = ms::UpdateBehavior::kNone;
    return ms::Status::OK();
  }
  ms::HookOutcome Call(const ms::HookCall&) override { return {}; }

 private:
  BenchProviders* p_;
};

ms::Status BenchProviders::NewSession(std::unique_ptr<ms::ProviderSession>* out) {
  *out = std::make_unique<BenchSession>(this);
  return ms::Status::OK();
}

// The layered template; resources whose index % 100 == 7 get `changed` as
// their Name suffix (1%).
std::string MakeTemplate(int n, const std::string& changed) {
  const int layers = 20;
  const int per_layer = std::max(1, n / layers);
  std::string t = R"({"Parameters": {"Size": {"Type": "String", "Default": "s"}}, "Resources": {)";
  for (int i = 0; i < n; ++i) {
    const int layer = std::min(i / per_layer, layers - 1);
    if (i > 0) t += ",";
    t += "\"R" + std::to_string(i) + R"(": {"Type": "Bench::Fake::Thing", "Properties": {"Name": "r)" + std::to_string(i) +
         (i % 100 == 7 ? changed : "") + R"(", "Size": {"Ref": "Size"})";
    if (layer > 0) {
      const int base = (layer - 1) * per_layer;
      const int a = base + (i * 7) % per_layer, b = base + (i * 13) % per_layer;
      t += R"(, "Source": {"Ref": "R)" + std::to_string(a) + "\"}";
      if (i % 3 == 0) t += R"(, "Sources": {"Fn::GetAtt": ["R)" + std::to_string(b) + R"(", "Arn"]})";
    }
    t += "}}";
  }
  return t + "}}";
}

struct Deployed {
  ms::StackRecord stack;
  std::vector<ms::ResourceRecord> resources;
};

// The stack as a create leaves it: evaluated properties, physical IDs, Arns.
bool Deploy(const std::string& body, Deployed* d) {
  d->stack.id = "arn:aws:cloudformation:us-east-1:123456789012:stack/bench/1";
  d->stack.name = "bench";
  d->stack.template_body = body;
  d->stack.parameters = {{"Size", "s", false, ""}};
  ms::Template t;
  ms::ParameterValues params;
  ms::Status s = ms::LoadTemplate(body, &t);
  if (s.ok()) s = ms::ResolveParameters(t, {}, {}, &params);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return false;
  }
  ms::StackEnvironment env(nullptr, nullptr, nullptr);
  ms::PseudoParameters pseudo;
  ms::Evaluator ev(t, params, pseudo, env);
  if (!ev.EvaluateConditions().ok()) return false;
  ms::DependencyGraph g;
  s = ms::DependencyGraph::Build(t, nullptr, nullptr, &g);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return false;
  }
  d->resources.reserve(g.size());
  for (int node : g.order()) {
    const ms::ResourceDecl& decl = g.resource(node);
    ms::ResourceRecord r;
    r.logical_id = decl.logical_id;
    r.type = decl.type;
    r.status = ms::ResourceStatus::kCreateComplete;
    r.physical_id = decl.logical_id + "-1";
    if (!ev.Evaluate(decl.properties, ms::Section::kResourceProperties, &r.properties).ok()) return false;
    r.attributes = ms::Value::MakeMap({{"Arn", ms::Value::String("arn:" + r.physical_id)}});
    d->resources.push_back(std::move(r));
    env.SetResource(&d->resources.back());
  }
  return true;
}

struct Timing {
  double ms = 1e300;
  ms::Plan plan;
};

Timing Time(int repeat, const Deployed& d, const std::string& body, BenchProviders* providers,
            ms::ProviderSession* session, bool preparsed) {
  Timing best;
  std::shared_ptr<const ms::Template> old_t, new_t;
  if (preparsed) {
    auto o = std::make_shared<ms::Template>();
    auto n = std::make_shared<ms::Template>();
    if (!ms::LoadTemplate(d.stack.template_body, o.get()).ok() || !ms::LoadTemplate(body, n.get()).ok()) std::exit(1);
    old_t = o;
    new_t = n;
  }
  for (int i = 0; i < repeat; ++i) {
    ms::PlanInput in;
    in.stack = &d.stack;
    in.resources = &d.resources;
    in.template_body = body;
    in.old_template = old_t;
    in.new_template = new_t;
    in.pseudo.stack_name = "bench";
    in.runtime = providers;
    in.session = session;
    ms::Plan p;
    ms::ClearTemplateCache();  // "parsing both templates" parses them every time
    auto start = Clock::now();
    ms::Status s = ms::MakePlan(in, &p);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (!s.ok()) {
      std::fprintf(stderr, "plan failed: %s\n", s.message().c_str());
      std::exit(1);
    }
    if (ms < best.ms) {
      best.ms = ms;
      best.plan = std::move(p);
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 10000, repeat = 5;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--repeat=", 9) == 0) {
      repeat = std::max(1, std::atoi(argv[i] + 9));
    } else {
      n = std::max(1, std::atoi(argv[i]));
    }
  }
  const std::string body = MakeTemplate(n, "");
  const std::string changed = MakeTemplate(n, "-v2");
  Deployed d;
  if (!Deploy(body, &d)) {
    std::fprintf(stderr, "deploy failed\n");
    return 1;
  }
  BenchProviders providers;
  std::unique_ptr<ms::ProviderSession> session;
  if (!providers.NewSession(&session).ok()) return 1;

  std::printf("bench_plan: %d resources, best of %d (target <= 100 ms at 10,000)\n", n, repeat);
  for (bool preparsed : {false, true}) {
    const char* how = preparsed ? "templates pre-parsed" : "parsing both templates";
    Timing noop = Time(repeat, d, body, &providers, session.get(), preparsed);
    std::printf("  no-op detection (%s): %8.2f ms  empty=%s\n", how, noop.ms, noop.plan.empty() ? "yes" : "NO");
    Timing one = Time(repeat, d, changed, &providers, session.get(), preparsed);
    std::printf("  1%% changed      (%s): %8.2f ms  modify=%zu (dynamic dependents included) add=%zu remove=%zu\n", how,
                one.ms, one.plan.Count(ms::ChangeAction::kModify), one.plan.Count(ms::ChangeAction::kAdd),
                one.plan.Count(ms::ChangeAction::kRemove));
  }
  return 0;
}
