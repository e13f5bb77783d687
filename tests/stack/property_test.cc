// Property-based test of the stack lifecycle: with fixed seeds, random DAG
// templates are created, updated (once or twice, with random additions,
// removals, in-place / some-interruption / replacement changes and injected
// failures and slow hooks that get cancelled) and deleted, in virtual time,
// against the scripted fake of property_fakes.h. After every operation:
//
//  1. the operation ends (RunOperation returns OK) in a terminal stack status;
//  2. the events form chains of allowed transitions (CheckStackTransition for
//     the stack, CheckResourceTransition per logical ID) — see EventWalker for
//     how cleanup events are read;
//  3. no orphans: the fake's alive set equals the physical IDs the stack still
//     accounts for (records not DELETE_COMPLETE, old physical IDs of
//     replacements, and those its events announce as left in the world:
//     DELETE_SKIPPED, or DELETE_FAILED with no later DELETE_COMPLETE, i.e.
//     retained or disassociated);
//  4. after UPDATE_ROLLBACK_COMPLETE the resources (logical IDs, physical IDs,
//     properties) equal those before the update;
//  5. after DELETE_COMPLETE every record is DELETE_COMPLETE or DELETE_SKIPPED
//     (so, by 3, nothing is alive but what was retained or disassociated).
//
// Each iteration has its own seed (kBaseSeed + i), so a failure names the seed
// to replay: MOONSTACK_PROP_SEED=<seed> runs only that one and prints its
// templates and events.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include "property_fakes.h"
#include "stack/stack_service.h"
#include "store/schema.h"
#include "store/stack_tables.h"

using ms::ResourceStatus;
using ms::StackRecord;
using ms::StackService;
using ms::StackStatus;
using ms::Status;

namespace {

constexpr uint32_t kBaseSeed = 20261122;
constexpr int kIterations = 240;

// ---------------------------------------------------------------- templates

struct Spec {
  std::string name;
  int rep = 0, some = 0, none = 0;  // values of Rep / Some / Plain (changed to change them)
  std::vector<std::string> rep_refs, some_refs, none_refs, depends;
  bool retain = false;          // DeletionPolicy Retain
  bool replace_retain = false;  // UpdateReplacePolicy Retain
  int create_seconds = 0, update_seconds = 0, delete_fails_times = 0;
  std::string create_fails, update_fails, rollback_fails;
};

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

std::string RefList(const std::vector<std::string>& refs) {
  std::string out = "[";
  for (size_t i = 0; i < refs.size(); ++i) out += (i ? ", " : "") + std::string("{\"Ref\": ") + Quote(refs[i]) + "}";
  return out + "]";
}

std::string Render(const std::vector<Spec>& specs) {
  std::ostringstream o;
  o << "{\"Resources\": {";
  for (size_t i = 0; i < specs.size(); ++i) {
    const Spec& s = specs[i];
    o << (i ? ",\n" : "\n") << "  " << Quote(s.name) << ": {\"Type\": \"Test::Prop::Thing\"";
    if (s.retain) o << ", \"DeletionPolicy\": \"Retain\"";
    if (s.replace_retain) o << ", \"UpdateReplacePolicy\": \"Retain\"";
    if (!s.depends.empty()) {
      o << ", \"DependsOn\": [";
      for (size_t d = 0; d < s.depends.size(); ++d) o << (d ? ", " : "") << Quote(s.depends[d]);
      o << "]";
    }
    o << ", \"Properties\": {\"Rep\": " << s.rep << ", \"Some\": " << s.some << ", \"Plain\": " << s.none;
    if (!s.rep_refs.empty()) o << ", \"RepRef\": " << RefList(s.rep_refs);
    if (!s.some_refs.empty()) o << ", \"SomeRef\": " << RefList(s.some_refs);
    if (!s.none_refs.empty()) o << ", \"PlainRef\": " << RefList(s.none_refs);
    if (s.create_seconds) o << ", \"CreateSeconds\": " << s.create_seconds;
    if (s.update_seconds) o << ", \"UpdateSeconds\": " << s.update_seconds;
    if (s.delete_fails_times) o << ", \"DeleteFailsTimes\": " << s.delete_fails_times;
    if (!s.create_fails.empty()) o << ", \"CreateFails\": " << Quote(s.create_fails);
    if (!s.update_fails.empty()) o << ", \"UpdateFails\": " << Quote(s.update_fails);
    if (!s.rollback_fails.empty()) o << ", \"RollbackFails\": " << Quote(s.rollback_fails);
    o << "}}";
  }
  o << "\n}}";
  return o.str();
}

struct Gen {
  std::mt19937 rng;
  int next_name = 0;
  explicit Gen(uint32_t seed) : rng(seed) {}

  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng); }
  template <typename T>
  T& Pick(std::vector<T>& v) { return v[static_cast<size_t>(Int(0, static_cast<int>(v.size()) - 1))]; }

  // An edge to one of the earlier resources, in one of the four forms.
  void AddEdge(Spec& s, const std::vector<Spec>& earlier) {
    if (earlier.empty()) return;
    const std::string& to = earlier[static_cast<size_t>(Int(0, static_cast<int>(earlier.size()) - 1))].name;
    std::vector<std::string>* lists[] = {&s.rep_refs, &s.some_refs, &s.none_refs, &s.depends};
    std::vector<std::string>& l = *lists[Int(0, 3)];
    if (std::find(l.begin(), l.end(), to) == l.end()) l.push_back(to);
  }

  Spec NewResource(const std::vector<Spec>& earlier) {
    Spec s;
    s.name = "R" + std::to_string(next_name++);
    s.rep = Int(0, 3), s.some = Int(0, 3), s.none = Int(0, 3);
    const int edges = Int(0, 3);
    for (int e = 0; e < edges; ++e) AddEdge(s, earlier);
    s.retain = Chance(0.12);
    s.replace_retain = Chance(0.08);
    s.create_seconds = Chance(0.4) ? 10 * Int(1, 3) : 0;
    s.update_seconds = Chance(0.3) ? 10 * Int(1, 3) : 0;
    s.delete_fails_times = Chance(0.1) ? Int(1, 3) : 0;
    s.rollback_fails = Chance(0.04) ? "rollback of " + s.name + " refused" : "";
    return s;
  }

  std::vector<Spec> NewTemplate() {
    std::vector<Spec> specs;
    const int n = Int(2, 12);
    for (int i = 0; i < n; ++i) specs.push_back(NewResource(specs));
    if (Chance(0.2)) Pick(specs).create_fails = "Invalid request (injected create failure)";
    return specs;
  }

  static void Forget(std::vector<std::string>& l, const std::string& name) {
    l.erase(std::remove(l.begin(), l.end(), name), l.end());
  }

  std::vector<Spec> Updated(std::vector<Spec> specs) {
    for (Spec& s : specs) s.create_fails.clear(), s.update_fails.clear();  // the last run's injections
    // Removals (at least one resource stays).
    for (size_t i = 0; i < specs.size() && specs.size() > 1;) {
      if (!Chance(0.15)) {
        ++i;
        continue;
      }
      const std::string gone = specs[i].name;
      specs.erase(specs.begin() + static_cast<long>(i));
      for (Spec& s : specs) {
        Forget(s.rep_refs, gone), Forget(s.some_refs, gone), Forget(s.none_refs, gone), Forget(s.depends, gone);
      }
    }
    // Modifications of each update kind.
    for (size_t i = 0; i < specs.size(); ++i) {
      if (!Chance(0.4)) continue;
      Spec& s = specs[i];
      switch (Int(0, 6)) {
        case 0: ++s.rep; break;
        case 1: ++s.some; break;
        case 2: ++s.none; break;
        case 3: AddEdge(s, std::vector<Spec>(specs.begin(), specs.begin() + static_cast<long>(i))); break;
        case 4: s.retain = !s.retain, ++s.none; break;
        case 5: s.replace_retain = !s.replace_retain, ++s.rep; break;
        case 6: s.update_seconds = s.update_seconds ? 0 : 20, s.create_seconds = Chance(0.5) ? 20 : 0; break;
      }
    }
    // Additions, with edges to anything before them.
    const int added = Int(0, 3);
    for (int a = 0; a < added; ++a) specs.push_back(NewResource(specs));
    // Injected failures.
    if (Chance(0.45)) {
      Spec& s = Pick(specs);
      if (Chance(0.5)) {
        s.create_fails = "Invalid request (injected create failure)";
        if (Chance(0.5)) ++s.rep;  // make it a replacement, so the create runs
      } else {
        s.update_fails = "Update refused (injected update failure)";
      }
    }
    return specs;
  }
};

// ---------------------------------------------------------------- checking

struct Harness {
  std::unique_ptr<ms::Database> db;
  ms::World world;
  ms::testing::PropFakeProviders providers;
  std::unique_ptr<ms::Clock> clock = ms::NewVirtualClock(1700000000000);
  std::unique_ptr<StackService> service;

  bool Open() {
    if (!ms::OpenStore(":memory:", &db).ok()) return false;
    ms::OperationContext ctx;
    ctx.db = db.get();
    ctx.world = &world;
    ctx.providers = &providers;
    ctx.clock = clock.get();
    ctx.scheduler.workers = 1;  // the same interleaving every run: a seed replays exactly
    service = std::make_unique<StackService>(ctx);
    return true;
  }
};

// Walks a stack's events, oldest first, operation by operation.
//
// Assumptions about the events (DESIGN.md; update_operation.cc):
//  - consecutive events with the same status are a reason change, which the
//    transition tables allow explicitly (X -> X edges);
//  - events between a *_CLEANUP_IN_PROGRESS stack event and the next stack
//    event are cleanup events: they do not change the resource's visible
//    status. They form their own chain per logical ID, starting from the
//    visible status at the start of cleanup. When cleanup ends, a logical ID
//    that is no longer a resource of the stack is gone (a later update may
//    create it anew); one that still is keeps its visible status (its cleanup
//    was about an old physical resource).
struct EventWalker {
  std::optional<StackStatus> stack;
  std::map<std::string, std::optional<ResourceStatus>> visible;
  bool in_cleanup = false;
  std::map<std::string, ResourceStatus> cleanup;
  std::map<std::string, std::string> last_delete;  // physical ID -> its last DELETE_* status
  size_t consumed = 0;

  // Returns "" or what went wrong.
  std::string Feed(const std::vector<ms::StackEvent>& oldest_first, const std::set<std::string>& resources_now) {
    for (; consumed < oldest_first.size(); ++consumed) {
      const ms::StackEvent& e = oldest_first[consumed];
      if (e.type == "AWS::CloudFormation::Stack") {
        StackStatus to;
        if (!ms::ParseStackStatus(e.status, &to)) return "unknown stack status " + e.status;
        Status s = ms::CheckStackTransition(stack, to);
        if (!s.ok()) return "event " + std::to_string(consumed) + ": " + s.message();
        if (in_cleanup) {
          for (const auto& [logical, status] : cleanup) {
            if (!resources_now.count(logical)) visible.erase(logical);
          }
          cleanup.clear();
        }
        in_cleanup = to == StackStatus::kUpdateCompleteCleanupInProgress ||
                     to == StackStatus::kUpdateRollbackCompleteCleanupInProgress;
        stack = to;
        continue;
      }
      ResourceStatus to;
      if (!ms::ParseResourceStatus(e.status, &to)) return "unknown resource status " + e.status;
      std::optional<ResourceStatus> from;
      if (in_cleanup && cleanup.count(e.logical_id)) {
        from = cleanup[e.logical_id];
      } else if (visible.count(e.logical_id)) {
        from = visible[e.logical_id];
      }
      Status s = ms::CheckResourceTransition(from, to);
      if (!s.ok()) return "event " + std::to_string(consumed) + " (" + e.logical_id + "): " + s.message();
      if (in_cleanup) {
        cleanup[e.logical_id] = to;
      } else {
        visible[e.logical_id] = to;
      }
      if (!e.physical_id.empty() && (to == ResourceStatus::kDeleteComplete || to == ResourceStatus::kDeleteFailed ||
                                     to == ResourceStatus::kDeleteSkipped)) {
        last_delete[e.physical_id] = e.status;
      }
    }
    return "";
  }
};

struct Snapshot {
  std::map<std::string, std::pair<std::string, std::string>> resources;  // logical -> (physical, properties)
  bool operator==(const Snapshot& o) const { return resources == o.resources; }
};

struct Iteration {
  explicit Iteration(uint32_t s) : seed(s) {}
  uint32_t seed;
  Harness h;
  EventWalker walker;
  std::string id;
  std::ostringstream trace;  // templates and events, for the failure message

  std::vector<ms::StackEvent> Events() {
    std::vector<ms::StackEvent> events;
    h.service->Events(id, &events);
    return std::vector<ms::StackEvent>(events.rbegin(), events.rend());
  }
  std::vector<ms::ResourceRecord> Records() {
    std::vector<ms::ResourceRecord> rs;
    h.service->Resources(id, &rs);
    return rs;
  }
  Snapshot Snap() {
    Snapshot s;
    for (const auto& r : Records()) s.resources[r.logical_id] = {r.physical_id, r.properties.ToJson()};
    return s;
  }
  StackStatus CurrentStatus() {
    StackRecord s;
    h.service->FindStack(id, &s);
    return s.status;
  }

  // Runs the operation just started and checks properties 1-3.
  std::string RunAndCheck(const char* what) {
    const size_t from = walker.consumed;
    Status s = h.service->Run(id);
    std::vector<ms::StackEvent> events = Events();
    for (size_t i = from; i < events.size(); ++i) {
      trace << "  " << events[i].logical_id << " " << events[i].status << " " << events[i].physical_id
            << (events[i].reason.empty() ? "" : " | " + events[i].reason) << "\n";
    }
    if (!s.ok()) return std::string(what) + ": Run failed: " + s.message();
    const StackStatus status = CurrentStatus();
    trace << "  => " << ms::StackStatusName(status) << "\n";
    if (!ms::IsTerminal(status)) return std::string(what) + ": not terminal: " + ms::StackStatusName(status);

    std::vector<ms::ResourceRecord> records = Records();
    std::set<std::string> logical_now;
    for (const auto& r : records) logical_now.insert(r.logical_id);
    std::string bad = walker.Feed(events, logical_now);
    if (!bad.empty()) return std::string(what) + ": " + bad;

    std::set<std::string> expected;
    for (const auto& r : records) {
      if (!r.physical_id.empty() && r.status != ResourceStatus::kDeleteComplete) expected.insert(r.physical_id);
      if (!r.old_physical_id.empty()) expected.insert(r.old_physical_id);
    }
    for (const auto& [physical, last] : walker.last_delete) {
      if (last != "DELETE_COMPLETE") expected.insert(physical);
    }
    const std::set<std::string> live = h.providers.live();
    if (live != expected) {
      std::string msg = std::string(what) + ": alive set differs; alive-but-unaccounted:";
      for (const auto& p : live) if (!expected.count(p)) msg += " " + p;
      msg += "; accounted-but-gone:";
      for (const auto& p : expected) if (!live.count(p)) msg += " " + p;
      return msg;
    }
    return "";
  }

  std::string Run() {
    Gen gen(seed);
    if (!h.Open()) return "cannot open store";
    std::vector<Spec> specs = gen.NewTemplate();
    const std::string name = "p" + std::to_string(seed);

    // --- create
    ms::CreateStackInput in;
    in.stack_name = name;
    in.template_body = Render(specs);
    trace << "create:\n" << in.template_body << "\n";
    Status s = h.service->StartCreate(in, &id);
    if (!s.ok()) return "StartCreate: " + s.message();
    std::string bad = RunAndCheck("create");
    if (!bad.empty()) return bad;

    // --- updates (only from a stack that can be updated)
    const int updates = gen.Int(1, 2);
    for (int u = 0; u < updates; ++u) {
      const StackStatus st = CurrentStatus();
      if (st != StackStatus::kCreateComplete && st != StackStatus::kUpdateComplete &&
          st != StackStatus::kUpdateRollbackComplete) {
        break;
      }
      std::vector<Spec> next = gen.Updated(specs);
      const Snapshot before = Snap();
      ms::UpdateStackInput up;
      up.stack_name = name;
      up.template_body = Render(next);
      trace << "update " << u << ":\n" << up.template_body << "\n";
      std::string ignored;
      s = h.service->StartUpdate(up, &ignored);
      if (!s.ok()) {
        if (s.message() == "No updates are to be performed.") continue;
        return "StartUpdate: " + s.message();
      }
      bad = RunAndCheck("update");
      if (!bad.empty()) return bad;
      const StackStatus after = CurrentStatus();
      if (after == StackStatus::kUpdateComplete) {
        specs = next;
      } else if (after == StackStatus::kUpdateRollbackComplete) {
        if (!(Snap() == before)) {
          std::string msg = "update: UPDATE_ROLLBACK_COMPLETE but resources differ from before the update:";
          Snapshot now = Snap();
          for (const auto& [l, v] : before.resources) {
            auto it = now.resources.find(l);
            if (it == now.resources.end()) msg += " [" + l + " missing]";
            else if (it->second != v) msg += " [" + l + ": " + v.first + " " + v.second + " -> " + it->second.first + " " + it->second.second + "]";
          }
          for (const auto& [l, v] : now.resources) if (!before.resources.count(l)) msg += " [" + l + " extra]";
          return msg;
        }
        for (const auto& r : Records()) {
          if (!r.old_physical_id.empty()) return "update: " + r.logical_id + " keeps old_physical_id after rollback";
        }
      } else {
        break;  // UPDATE_ROLLBACK_FAILED: delete it as it is
      }
    }

    // --- delete, again while it fails: each physical resource fails at most 3
    // deletes and each failed delete-stack gets at least one of them further,
    // so 3 per resource (12 at most, plus those added by updates) is enough.
    for (int attempt = 0; attempt < 3 * 20; ++attempt) {
      std::string sid;
      s = h.service->StartDelete({name, {}, ""}, &sid);
      if (!s.ok()) return "StartDelete: " + s.message();
      if (sid.empty()) return "StartDelete: nothing to delete";
      bad = RunAndCheck("delete");
      if (!bad.empty()) return bad;
      if (CurrentStatus() == StackStatus::kDeleteComplete) break;
    }
    if (CurrentStatus() != StackStatus::kDeleteComplete) return "delete: still not DELETE_COMPLETE after 60 tries";
    for (const auto& r : Records()) {
      if (r.status != ResourceStatus::kDeleteComplete && r.status != ResourceStatus::kDeleteSkipped) {
        return "delete: " + r.logical_id + " is " + ms::ResourceStatusName(r.status) + " after DELETE_COMPLETE";
      }
    }
    return "";
  }
};

// TODO(engine bugs): seeds whose run currently finds an engine bug. They are
// kept out so the suite stays green; remove them once the bugs are fixed
// (MOONSTACK_PROP_SEED=<seed> replays one with its templates and events).
// Seeds that exposed engine bugs are kept out here while a bug is open (none
// now: the four this test found — Retain on CREATE_FAILED / UPDATE_FAILED
// resources, records a failed update left behind, an update rollback whose
// calls were queued after a dropped call and never sent — are fixed).
const std::set<uint32_t> kKnownBad = {};

}  // namespace

TEST_CASE("property: random templates, updates, failures and cancels keep the lifecycle invariants", "[property]") {
  const char* only = std::getenv("MOONSTACK_PROP_SEED");
  std::vector<uint32_t> seeds;
  if (only != nullptr) {
    seeds.push_back(static_cast<uint32_t>(std::strtoul(only, nullptr, 10)));
  } else {
    for (int i = 0; i < kIterations; ++i) seeds.push_back(kBaseSeed + static_cast<uint32_t>(i));
  }
  int ran = 0;
  for (uint32_t seed : seeds) {
    if (only == nullptr && kKnownBad.count(seed)) continue;
    Iteration it(seed);
    const std::string bad = it.Run();
    if (only != nullptr) WARN(it.trace.str());
    INFO("seed " << seed << "\n" << it.trace.str());
    if (!bad.empty()) std::fprintf(stderr, "property seed %u: %s\n", seed, bad.c_str());  // a one-line summary
    CHECK(bad == "");
    ++ran;
  }
  CHECK(ran >= (only != nullptr ? 1 : 200));
}
