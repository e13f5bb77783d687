// The scheduler, with C++ fake providers: lock-step determinism under the
// virtual clock, in-progress polling, concurrency limits, session failures,
// Stop, and smoke runs under the scaled and real clocks.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "run/clock.h"
#include "run/scheduler.h"
#include "template/parse.h"

namespace {

using ms::HookCall;
using ms::HookOutcome;
using ms::Scheduler;
using ms::SchedulerOptions;
using ms::Status;
using ms::Value;
using Kind = HookOutcome::Kind;

constexpr int64_t kStart = 1795343287123;  // 2026-11-22T10:28:07.123Z

// Burns a few microseconds of CPU without sleeping: gives calls real,
// varying durations on the workers.
void Spin(int iterations) {
  volatile uint64_t x = 0;
  for (int i = 0; i < iterations; ++i) x = x + static_cast<uint64_t>(i) * 7;
}

// A runtime whose sessions answer with `handler` (called concurrently from
// the workers) and count how many calls run at once.
class FakeRuntime : public ms::ProviderRuntime {
 public:
  using Handler = std::function<HookOutcome(const HookCall&)>;
  explicit FakeRuntime(Handler h) : handler_(std::move(h)) {}

  Status NewSession(std::unique_ptr<ms::ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return {"Test::Fake::Thing"}; }
  const ms::TypeSchema* Schema(std::string_view) const override { return nullptr; }

  // Number of NewSession calls that fail before they start to succeed (-1: all).
  std::atomic<int> failures_left{0};
  std::atomic<int> sessions{0};
  std::atomic<int> active{0};
  std::atomic<int> max_active{0};
  std::atomic<int> calls{0};
  // Random spin per call, seeded per session (set before Run).
  int max_spin = 0;
  uint32_t spin_seed = 1;
  Handler handler_;
};

class FakeSession : public ms::ProviderSession {
 public:
  FakeSession(FakeRuntime* rt, uint32_t seed) : rt_(rt), rng_(seed) {}
  const ms::TypeSchema* Schema(std::string_view) override { return nullptr; }
  // Refuses a property "Invalid" (its value is the message); coerces "Flag"
  // from the string "true" to a boolean.
  Status Validate(std::string_view, const ms::HookContext&, const Value& p, Value* coerced) override {
    if (p.is_map() && p.find("Invalid") != nullptr) return Status::Validation(p.find("Invalid")->str());
    *coerced = p;
    if (p.is_map() && p.find("Flag") != nullptr) coerced->set("Flag", Value::Bool(p.find("Flag")->str() == "true"));
    return Status::OK();
  }
  Status DecideUpdate(std::string_view, std::string_view, const Value&, const Value&, const ms::HookContext&,
                      ms::UpdateBehavior* out) override {
    *out = ms::UpdateBehavior::kNone;
    return Status::OK();
  }
  HookOutcome Call(const HookCall& call) override {
    int now = rt_->active.fetch_add(1) + 1;
    int seen = rt_->max_active.load();
    while (now > seen && !rt_->max_active.compare_exchange_weak(seen, now)) {
    }
    rt_->calls.fetch_add(1);
    if (rt_->max_spin > 0) Spin(static_cast<int>(rng_() % static_cast<uint32_t>(rt_->max_spin)));
    HookOutcome o = rt_->handler_(call);
    rt_->active.fetch_sub(1);
    return o;
  }

 private:
  FakeRuntime* rt_;
  std::mt19937 rng_;
};

Status FakeRuntime::NewSession(std::unique_ptr<ms::ProviderSession>* out) {
  int left = failures_left.load();
  while (left != 0) {
    if (left < 0) return Status::Internal("providers/broken.lua:3: unexpected symbol near 'end'");
    if (failures_left.compare_exchange_weak(left, left - 1)) {
      return Status::Internal("providers/broken.lua:3: unexpected symbol near 'end'");
    }
  }
  int n = sessions.fetch_add(1);
  *out = std::make_unique<FakeSession>(this, spin_seed * 7919u + static_cast<uint32_t>(n));
  return Status::OK();
}

HookOutcome Done(std::string id = "") {
  HookOutcome o;
  o.kind = Kind::kDone;
  o.physical_id = std::move(id);
  return o;
}

HookOutcome InProgress(double after, int64_t step) {
  HookOutcome o;
  o.kind = Kind::kInProgress;
  o.after_seconds = after;
  o.progress = Value::Integer(step);
  return o;
}

HookCall Create(const std::string& logical_id, Value progress = Value()) {
  HookCall c;
  c.hook = ms::Hook::kCreate;
  c.type = "Test::Fake::Thing";
  c.ctx.logical_id = logical_id;
  c.ctx.progress = std::move(progress);
  return c;
}

// Polls a resource to completion: each in-progress outcome is called again
// after its after_seconds, with its progress. `done` gets the final outcome.
void CreateResource(Scheduler& s, const std::string& id, std::function<void(const HookOutcome&)> done,
                    Value progress = Value()) {
  s.Call(Create(id, std::move(progress)), [&s, id, done](const HookOutcome& o) {
    if (o.kind == Kind::kInProgress) {
      Value p = o.progress;
      s.After(o.after_seconds, [&s, id, done, p] { CreateResource(s, id, done, p); });
    } else {
      done(o);
    }
  });
}

// A fake "stack": resource i depends on i/2 and i/3 (a DAG with fan-out and
// joins); each create is in progress for (i % 3) polls of (i % 4 + 1) * 5 s.
// Returns the event log: timestamp, resource, event.
std::vector<std::string> RunDag(int n, int workers, int max_concurrency, int max_spin, uint32_t seed) {
  FakeRuntime rt([](const HookCall& c) {
    int i = std::stoi(c.ctx.logical_id.substr(1));
    int64_t step = c.ctx.progress.is_null() ? 0 : *c.ctx.progress.as_integer();
    if (step < i % 3) return InProgress((i % 4 + 1) * 5.0, step + 1);
    return Done("phys-" + c.ctx.logical_id);
  });
  rt.max_spin = max_spin;
  rt.spin_seed = seed;
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler s(&rt, clock.get(), SchedulerOptions{workers, max_concurrency});

  std::vector<std::string> log;
  auto note = [&](const std::string& what) { log.push_back(ms::FormatTimestamp(clock->NowMs()) + " " + what); };
  std::vector<std::vector<int>> dependents(n);
  std::vector<int> waiting(n, 0);
  for (int i = 1; i < n; ++i) {
    std::vector<int> deps = {i / 2};
    if (i / 3 != i / 2) deps.push_back(i / 3);
    for (int d : deps) dependents[d].push_back(i);
    waiting[i] = static_cast<int>(deps.size());
  }
  std::function<void(int)> start = [&](int i) {
    std::string id = "R" + std::to_string(i);
    note(id + " CREATE_IN_PROGRESS");
    CreateResource(s, id, [&, i, id](const HookOutcome& o) {
      note(id + " CREATE_COMPLETE " + o.physical_id);
      for (int d : dependents[i]) {
        if (--waiting[d] == 0) start(d);
      }
      // A timer set for "now" from a callback: runs in the same round.
      if (i % 7 == 0) s.After(0, [&, id] { note(id + " settled"); });
    });
  };
  start(0);
  REQUIRE(s.Run().ok());
  note("end");
  CHECK(s.calls_completed() == static_cast<uint64_t>(rt.calls.load()));
  return log;
}

}  // namespace

TEST_CASE("lock-step runs are deterministic whatever the workers do", "[scheduler]") {
  const std::vector<std::string> first = RunDag(60, 4, 64, 0, 1);
  REQUIRE(first.size() > 120);
  // Every resource was created, dependencies first.
  for (int i = 0; i < 60; ++i) {
    std::string id = "R" + std::to_string(i) + " CREATE_COMPLETE";
    bool found = false;
    for (const auto& line : first) found = found || line.find(id) != std::string::npos;
    CHECK(found);
  }
  for (int run = 0; run < 50; ++run) {
    // Random call durations, different per run and per worker, and 1 to 4
    // workers: the log must not change.
    auto log = RunDag(60, 1 + run % 4, 64, 20000, static_cast<uint32_t>(run * 31 + 7));
    REQUIRE(log == first);
  }
  // With a cap the rounds differ from the uncapped run, but repeat exactly.
  const std::vector<std::string> capped = RunDag(60, 4, 3, 0, 1);
  for (int run = 0; run < 10; ++run) {
    REQUIRE(RunDag(60, 2 + run % 3, 3, 20000, static_cast<uint32_t>(run + 100)) == capped);
  }
}

TEST_CASE("lock-step runs callbacks in submission order, not completion order", "[scheduler]") {
  // R0 does not return before R1..R7 have: it completes last, whatever the
  // thread timing (it holds one worker; the others run the rest).
  std::mutex mu;
  std::condition_variable cv;
  int others_done = 0;
  std::vector<std::string> completion_order;
  FakeRuntime rt([&](const HookCall& c) {
    std::unique_lock<std::mutex> lk(mu);
    if (c.ctx.logical_id == "R0") {
      cv.wait(lk, [&] { return others_done == 7; });
    } else {
      ++others_done;
      cv.notify_all();
    }
    completion_order.push_back(c.ctx.logical_id);
    return Done(c.ctx.logical_id);
  });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler s(&rt, clock.get(), SchedulerOptions{4, 64});
  std::vector<std::string> order;
  for (int i = 0; i < 8; ++i) {
    s.Call(Create("R" + std::to_string(i)), [&](const HookOutcome& o) { order.push_back(o.physical_id); });
  }
  REQUIRE(s.Run().ok());
  CHECK(completion_order.back() == "R0");
  CHECK(order == std::vector<std::string>{"R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7"});
  CHECK(clock->NowMs() == kStart);  // no timer: time never moved
}

TEST_CASE("a validating call: the worker validates first, runs the hook with the coerced properties", "[scheduler]") {
  std::vector<std::string> seen;  // the properties each hook call got
  FakeRuntime rt([&](const HookCall& c) {
    seen.push_back(c.ctx.logical_id + " " + c.properties.ToJson());
    return Done(c.ctx.logical_id);
  });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler s(&rt, clock.get(), SchedulerOptions{1, 64});
  std::map<std::string, HookOutcome> out;
  auto call = [&](const std::string& id, const std::string& props, bool validate) {
    HookCall c = Create(id);
    REQUIRE(ms::ParseJson(props, &c.properties).ok());
    c.validate = validate;
    s.Call(std::move(c), [&out, id](const HookOutcome& o) { out[id] = o; });
  };
  call("Valid", R"({"Flag":"true"})", true);
  call("Invalid", R"({"Invalid":"Encountered unsupported property Bogus"})", true);
  call("Unvalidated", R"({"Flag":"true","Invalid":"x"})", false);
  REQUIRE(s.Run().ok());
  CHECK(seen == std::vector<std::string>{R"(Valid {"Flag":true})", R"(Unvalidated {"Flag":"true","Invalid":"x"})"});
  CHECK(out["Valid"].kind == Kind::kDone);
  CHECK(out["Valid"].coerced.ToJson() == R"({"Flag":true})");
  CHECK(out["Invalid"].kind == Kind::kFailed);
  CHECK(out["Invalid"].reason == "Encountered unsupported property Bogus");
  CHECK(out["Invalid"].coerced.is_null());
  CHECK(out["Unvalidated"].kind == Kind::kDone);
  CHECK(out["Unvalidated"].coerced.is_null());
  CHECK(rt.calls == 2);  // the invalid one never reached its hook
}

TEST_CASE("real time: a completion is taken soon even while the worker still has a long call", "[scheduler]") {
  // Completions are taken in batches while the workers have queued calls,
  // but none waits for the batch longer than a millisecond: Fast's callback
  // must not wait for Slow, which the one worker runs after it (with Later
  // still queued behind it).
  FakeRuntime rt([&](const HookCall& c) {
    if (c.ctx.logical_id == "Slow") std::this_thread::sleep_for(std::chrono::milliseconds(600));
    return Done(c.ctx.logical_id);
  });
  auto clock = ms::NewRealClock();
  Scheduler s(&rt, clock.get(), SchedulerOptions{1, 64});
  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, double> seen_ms;
  for (const char* id : {"Fast", "Slow", "Later"}) {
    s.Call(Create(id), [&](const HookOutcome& o) {
      seen_ms[o.physical_id] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    });
  }
  REQUIRE(s.Run().ok());
  REQUIRE(seen_ms.size() == 3);
  CHECK(seen_ms["Fast"] < 300);  // ~1 ms; generous for a loaded machine
  CHECK(seen_ms["Slow"] >= 600);
  CHECK(seen_ms["Later"] >= 600);
}

TEST_CASE("real time: every completion of a wide burst is delivered", "[scheduler]") {
  // More completions than a batch, and a count that is not a multiple of it.
  FakeRuntime rt([&](const HookCall& c) { return Done(c.ctx.logical_id); });
  rt.max_spin = 2000;
  auto clock = ms::NewRealClock();
  Scheduler s(&rt, clock.get(), SchedulerOptions{2, 1024});
  std::set<std::string> seen;
  for (int i = 0; i < 1001; ++i) {
    s.Call(Create("R" + std::to_string(i)), [&](const HookOutcome& o) { seen.insert(o.physical_id); });
  }
  REQUIRE(s.Run().ok());
  CHECK(seen.size() == 1001);
}

TEST_CASE("lock-step timers: due order, set order at one instant, 0 s after the round's calls", "[scheduler]") {
  FakeRuntime rt([](const HookCall& c) { return Done(c.ctx.logical_id); });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler s(&rt, clock.get(), SchedulerOptions{2, 64});
  std::vector<std::string> log;
  auto note = [&](const std::string& what) {
    log.push_back(what + "@" + std::to_string((clock->NowMs() - kStart)));
  };
  s.After(5, [&] { note("X"); });
  s.After(5, [&] { note("Y"); });
  s.After(3, [&] {
    note("Z");
    s.After(2, [&] { note("Z+2"); });  // due with X and Y, set after them
  });
  s.After(0, [&] { note("T0"); });
  s.Call(Create("A"), [&](const HookOutcome& o) {
    note("A");
    s.Call(Create("B"), [&](const HookOutcome&) { note("B"); });
    s.After(0, [&] { note("T1"); });
  });
  REQUIRE(s.Run().ok());
  CHECK(log == std::vector<std::string>{"A@0", "T0@0", "T1@0", "B@0", "Z@3000", "X@5000", "Y@5000", "Z+2@5000"});
  CHECK(clock->NowMs() == kStart + 5000);
}

TEST_CASE("StartNextRound: a due timer hands the next round out early and the callbacks stay the same", "[scheduler]") {
  // Five calls, two in flight at a time: rounds R0 R1 | R2 R3 | R4. After
  // each round a 0 s timer starts the next one and, still running, waits
  // until a worker has begun its first call (the overlap the checkpoint's
  // serialization gets in an operation).
  auto run = [](bool early, int* overlapped, std::vector<bool>* answers) {
    std::vector<std::string> log;
    std::mutex mu;
    std::condition_variable cv;
    int started = 0;
    FakeRuntime rt([&](const HookCall& c) {
      {
        std::lock_guard<std::mutex> lk(mu);
        ++started;
      }
      cv.notify_all();
      return Done(c.ctx.logical_id);
    });
    auto clock = ms::NewVirtualClock(kStart);
    Scheduler s(&rt, clock.get(), SchedulerOptions{2, 2});
    for (int i = 0; i < 5; ++i) {
      s.Call(Create("R" + std::to_string(i)), [&, i](const HookOutcome& o) {
        log.push_back(o.physical_id);
        answers->push_back(s.StartNextRound());  // from a callback: never
        if (i % 2 == 0 && i < 4) return;
        s.After(0, [&] {
          log.push_back("timer");
          if (!early) return;
          std::unique_lock<std::mutex> lk(mu);
          const int before = started;
          const bool began = s.StartNextRound();
          answers->push_back(began);
          if (began && cv.wait_for(lk, std::chrono::seconds(10), [&] { return started > before; })) ++*overlapped;
        });
      });
    }
    REQUIRE(s.Run().ok());
    CHECK(clock->NowMs() == kStart);
    return log;
  };
  int overlapped = 0;
  std::vector<bool> answers;
  const std::vector<std::string> plain = run(false, &overlapped, &answers);
  CHECK(plain == std::vector<std::string>{"R0", "R1", "timer", "R2", "R3", "timer", "R4", "timer"});
  answers.clear();
  CHECK(run(true, &overlapped, &answers) == plain);
  CHECK(overlapped == 2);  // R2 and R4 began while the timers before them still ran
  // Five callbacks refused, then the three timers: two rounds started, and
  // nothing left to start after R4.
  CHECK(answers == std::vector<bool>{false, false, true, false, false, true, false, false});

  // Another timer due at the same instant runs before any call does.
  FakeRuntime rt([](const HookCall& c) { return Done(c.ctx.logical_id); });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler s(&rt, clock.get(), SchedulerOptions{2, 1});
  std::vector<std::string> log;
  s.Call(Create("A"), [&](const HookOutcome& o) {
    log.push_back(o.physical_id);
    s.After(0, [&] { log.push_back(s.StartNextRound() ? "first started" : "first waited"); });
    s.After(0, [&] { log.push_back(s.StartNextRound() ? "second started" : "second waited"); });
  });
  s.Call(Create("B"), [&](const HookOutcome& o) { log.push_back(o.physical_id); });
  REQUIRE(s.Run().ok());
  CHECK(log == std::vector<std::string>{"A", "first waited", "second started", "B"});
}

TEST_CASE("in-progress polling advances the virtual clock exactly", "[scheduler]") {
  // Each resource is in progress once, asking to be called again in 30 s.
  auto handler = [](const HookCall& c) {
    if (c.ctx.progress.is_null()) return InProgress(30, 1);
    return Done("phys-" + c.ctx.logical_id);
  };

  SECTION("sequential: 3 x 30 s") {
    FakeRuntime rt(handler);
    auto clock = ms::NewVirtualClock(kStart);
    Scheduler s(&rt, clock.get(), SchedulerOptions{4, 64});
    std::vector<std::string> done;
    std::function<void(int)> next = [&](int i) {
      if (i == 3) return;
      CreateResource(s, "R" + std::to_string(i), [&, i](const HookOutcome& o) {
        done.push_back(ms::FormatTimestamp(clock->NowMs()) + " " + o.physical_id);
        next(i + 1);
      });
    };
    next(0);
    REQUIRE(s.Run().ok());
    CHECK(clock->NowMs() - kStart == 90000);
    CHECK(done == std::vector<std::string>{"2026-11-22T10:28:37.123Z phys-R0", "2026-11-22T10:29:07.123Z phys-R1",
                                           "2026-11-22T10:29:37.123Z phys-R2"});
    CHECK(rt.calls.load() == 6);
  }
  SECTION("parallel: 30 s") {
    FakeRuntime rt(handler);
    auto clock = ms::NewVirtualClock(kStart);
    Scheduler s(&rt, clock.get(), SchedulerOptions{4, 64});
    int done = 0;
    for (int i = 0; i < 3; ++i) {
      CreateResource(s, "R" + std::to_string(i), [&](const HookOutcome& o) {
        CHECK(o.kind == Kind::kDone);
        CHECK(clock->NowMs() - kStart == 30000);
        ++done;
      });
    }
    REQUIRE(s.Run().ok());
    CHECK(done == 3);
    CHECK(clock->NowMs() - kStart == 30000);
    CHECK(s.calls_completed() == 6);
  }
  SECTION("fractional seconds round to whole milliseconds") {
    FakeRuntime rt([](const HookCall& c) {
      if (c.ctx.progress.is_null()) return InProgress(0.0015, 1);
      return Done();
    });
    auto clock = ms::NewVirtualClock(kStart);
    Scheduler s(&rt, clock.get(), SchedulerOptions{1, 1});
    CreateResource(s, "R0", [](const HookOutcome&) {});
    REQUIRE(s.Run().ok());
    CHECK(clock->NowMs() - kStart == 2);
  }
}

TEST_CASE("at most max_concurrency calls are in flight, in FIFO order", "[scheduler]") {
  for (int cap : {1, 2, 3}) {
    std::mutex mu;
    std::vector<std::string> started;
    FakeRuntime rt([&](const HookCall& c) {
      {
        std::lock_guard<std::mutex> lk(mu);
        started.push_back(c.ctx.logical_id);
      }
      return Done(c.ctx.logical_id);
    });
    rt.max_spin = 50000;  // long enough for calls to overlap when allowed
    auto clock = ms::NewVirtualClock(kStart);
    Scheduler s(&rt, clock.get(), SchedulerOptions{4, cap});
    std::vector<std::string> finished;
    for (int i = 0; i < 30; ++i) {
      s.Call(Create("R" + std::to_string(i)), [&](const HookOutcome& o) {
        finished.push_back(o.physical_id);
        // More calls from a callback queue behind the earlier ones.
        if (finished.size() == 1) s.Call(Create("late"), [&](const HookOutcome& o2) { finished.push_back(o2.physical_id); });
      });
    }
    REQUIRE(s.Run().ok());
    INFO("max_concurrency " << cap);
    CHECK(rt.max_active.load() <= cap);
    REQUIRE(finished.size() == 31);
    CHECK(finished.back() == "late");
    if (cap == 1) {
      // One at a time: the providers see the FIFO order exactly.
      std::vector<std::string> expected;
      for (int i = 0; i < 30; ++i) expected.push_back("R" + std::to_string(i));
      expected.push_back("late");
      CHECK(started == expected);
    }
  }
  // More workers than the cap allows under real time too.
  FakeRuntime rt([](const HookCall&) { return Done(); });
  rt.max_spin = 50000;
  auto clock = ms::NewRealClock();
  Scheduler s(&rt, clock.get(), SchedulerOptions{4, 2});
  int n = 0;
  for (int i = 0; i < 20; ++i) s.Call(Create("R"), [&](const HookOutcome&) { ++n; });
  REQUIRE(s.Run().ok());
  CHECK(n == 20);
  CHECK(rt.max_active.load() <= 2);
  CHECK(rt.sessions.load() <= 4);
}

TEST_CASE("a session that cannot be created fails the call, naming why", "[scheduler]") {
  FakeRuntime rt([](const HookCall& c) { return Done("phys-" + c.ctx.logical_id); });
  auto clock = ms::NewVirtualClock(kStart);

  SECTION("always failing") {
    rt.failures_left = -1;
    Scheduler s(&rt, clock.get(), SchedulerOptions{2, 64});
    std::vector<HookOutcome> outcomes;
    for (int i = 0; i < 3; ++i) s.Call(Create("R"), [&](const HookOutcome& o) { outcomes.push_back(o); });
    REQUIRE(s.Run().ok());
    REQUIRE(outcomes.size() == 3);
    for (const auto& o : outcomes) {
      CHECK(o.kind == Kind::kFailed);
      CHECK(o.reason == "providers/broken.lua:3: unexpected symbol near 'end'");
      CHECK(o.diagnostic.find("could not create a provider session") != std::string::npos);
    }
    CHECK(rt.calls.load() == 0);
  }
  SECTION("failing once, then retried on the next call") {
    rt.failures_left = 1;
    Scheduler s(&rt, clock.get(), SchedulerOptions{1, 64});
    std::vector<HookOutcome> outcomes;
    s.Call(Create("A"), [&](const HookOutcome& o) { outcomes.push_back(o); });
    s.Call(Create("B"), [&](const HookOutcome& o) { outcomes.push_back(o); });
    REQUIRE(s.Run().ok());
    REQUIRE(outcomes.size() == 2);
    CHECK(outcomes[0].kind == Kind::kFailed);
    CHECK(outcomes[1].kind == Kind::kDone);
    CHECK(outcomes[1].physical_id == "phys-B");
    CHECK(rt.sessions.load() == 1);
  }
}

TEST_CASE("a session that throws fails the call and keeps the worker", "[scheduler]") {
  FakeRuntime rt([](const HookCall& c) -> HookOutcome {
    if (c.ctx.logical_id == "Bad") throw std::runtime_error("boom");
    return Done("ok");
  });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler s(&rt, clock.get(), SchedulerOptions{1, 64});
  std::vector<HookOutcome> outcomes;
  s.Call(Create("Bad"), [&](const HookOutcome& o) { outcomes.push_back(o); });
  s.Call(Create("Good"), [&](const HookOutcome& o) { outcomes.push_back(o); });
  REQUIRE(s.Run().ok());
  REQUIRE(outcomes.size() == 2);
  CHECK(outcomes[0].kind == Kind::kFailed);
  CHECK(outcomes[0].diagnostic.find("boom") != std::string::npos);
  CHECK(outcomes[1].kind == Kind::kDone);
}

TEST_CASE("Stop runs the in-flight callbacks and drops queued calls and timers", "[scheduler]") {
  FakeRuntime rt([](const HookCall& c) { return Done(c.ctx.logical_id); });

  SECTION("virtual clock") {
    auto clock = ms::NewVirtualClock(kStart);
    Scheduler s(&rt, clock.get(), SchedulerOptions{4, 3});
    std::vector<std::string> seen;
    bool timer_ran = false;
    s.After(10, [&] { timer_ran = true; });
    for (int i = 0; i < 6; ++i) {
      s.Call(Create("R" + std::to_string(i)), [&](const HookOutcome& o) {
        seen.push_back(o.physical_id);
        if (o.physical_id == "R1") s.Stop();
        s.Call(Create("more"), [&](const HookOutcome& o2) { seen.push_back(o2.physical_id); });
        s.After(0, [&] { timer_ran = true; });
      });
    }
    REQUIRE(s.Run().ok());
    // R0..R2 were in flight (cap 3): all their callbacks ran. R3..R5, "more"
    // and the timers were dropped.
    CHECK(seen == std::vector<std::string>{"R0", "R1", "R2"});
    CHECK_FALSE(timer_ran);
    CHECK(clock->NowMs() == kStart);
    CHECK(rt.calls.load() == 3);

    // The scheduler can run again afterwards.
    s.Call(Create("again"), [&](const HookOutcome& o) { seen.push_back(o.physical_id); });
    REQUIRE(s.Run().ok());
    CHECK(seen.back() == "again");
  }
  SECTION("real clock: a far timer does not hold Run") {
    auto clock = ms::NewRealClock();
    Scheduler s(&rt, clock.get(), SchedulerOptions{2, 64});
    bool timer_ran = false;
    int callbacks = 0;
    s.After(3600, [&] { timer_ran = true; });
    s.Call(Create("A"), [&](const HookOutcome&) {
      ++callbacks;
      s.Stop();
    });
    REQUIRE(s.Run().ok());  // would wait an hour without Stop
    CHECK(callbacks == 1);
    CHECK_FALSE(timer_ran);
  }
  SECTION("from a timer") {
    auto clock = ms::NewVirtualClock(kStart);
    Scheduler s(&rt, clock.get(), SchedulerOptions{1, 64});
    int ran = 0;
    s.After(5, [&] {
      ++ran;
      s.Stop();
    });
    s.After(5, [&] { ++ran; });
    s.After(9, [&] { ++ran; });
    REQUIRE(s.Run().ok());
    CHECK(ran == 1);
    CHECK(clock->NowMs() == kStart + 5000);
  }
}

TEST_CASE("a workload with no work returns at once", "[scheduler]") {
  FakeRuntime rt([](const HookCall&) { return Done(); });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler s(&rt, clock.get(), SchedulerOptions{});
  REQUIRE(s.Run().ok());
  CHECK(s.calls_completed() == 0);
  CHECK(s.clock() == clock.get());
  CHECK(rt.sessions.load() == 0);  // sessions are created lazily
}

TEST_CASE("the scaled clock waits scaled-down real time for a timer", "[scheduler]") {
  FakeRuntime rt([](const HookCall& c) {
    if (c.ctx.progress.is_null()) return InProgress(10, 1);
    return Done("phys");
  });
  auto clock = ms::NewScaledClock(0.001);
  Scheduler s(&rt, clock.get(), SchedulerOptions{2, 64});
  int64_t start = clock->NowMs();
  auto real_start = std::chrono::steady_clock::now();
  bool timer_ran = false;
  int64_t timer_at = 0;
  s.After(10, [&] {
    timer_ran = true;
    timer_at = clock->NowMs();
  });
  HookOutcome final;
  CreateResource(s, "R", [&](const HookOutcome& o) { final = o; });
  REQUIRE(s.Run().ok());
  double real_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - real_start).count();
  CHECK(timer_ran);
  CHECK(timer_at - start >= 10000);  // 10 simulated seconds did pass
  CHECK(final.kind == Kind::kDone);
  CHECK(final.physical_id == "phys");
  CHECK(real_s < 2.0);  // loose: it did not sleep 10 real seconds
}

TEST_CASE("the real clock runs calls and a 0 s timer", "[scheduler]") {
  FakeRuntime rt([](const HookCall& c) { return Done("phys-" + c.ctx.logical_id); });
  auto clock = ms::NewRealClock();
  Scheduler s(&rt, clock.get(), SchedulerOptions{4, 64});
  std::vector<std::string> done;
  bool timer_ran = false;
  s.After(0, [&] {
    timer_ran = true;
    s.Call(Create("FromTimer"), [&](const HookOutcome& o) { done.push_back(o.physical_id); });
  });
  for (int i = 0; i < 20; ++i) {
    s.Call(Create("R" + std::to_string(i)), [&](const HookOutcome& o) {
      done.push_back(o.physical_id);
      if (o.physical_id == "phys-R0") s.After(0.001, [&] { done.push_back("1ms"); });
    });
  }
  REQUIRE(s.Run().ok());
  CHECK(timer_ran);
  CHECK(done.size() == 22);
  CHECK(s.calls_completed() == 21);
}

TEST_CASE("Post from another thread wakes a Run waiting for a timer", "[scheduler]") {
  FakeRuntime rt([](const ms::HookCall&) { return ms::HookOutcome(); });
  auto clock = ms::NewRealClock();
  ms::Scheduler s(&rt, clock.get(), ms::SchedulerOptions{});
  bool timer_ran = false, posted_ran = false;
  s.After(30, [&] { timer_ran = true; });  // 30 real seconds
  std::thread other([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    s.Post([&] {
      posted_ran = true;
      s.Stop();  // drops the timer
    });
  });
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(s.Run().ok());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  other.join();
  CHECK(posted_ran);
  CHECK_FALSE(timer_ran);
  CHECK(took < 5.0);
}

TEST_CASE("a weak timer runs while the run is busy and never keeps it going", "[scheduler]") {
  FakeRuntime rt([](const HookCall& c) {
    if (c.ctx.progress.is_null()) return InProgress(10, 1);
    return Done("phys");
  });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler s(&rt, clock.get(), SchedulerOptions{});
  std::vector<std::string> ran;
  s.AfterWhileBusy(5, [&] { ran.push_back("weak 5 s"); });    // the create's poll is still due at 10 s
  s.AfterWhileBusy(60, [&] { ran.push_back("weak 60 s"); });  // nothing is left by then
  HookOutcome final;
  CreateResource(s, "R", [&](const HookOutcome& o) { final = o; });
  REQUIRE(s.Run().ok());
  CHECK(final.kind == Kind::kDone);
  CHECK(ran == std::vector<std::string>{"weak 5 s"});
  CHECK(clock->NowMs() - kStart == 10000);  // Run did not wait for the 60 s timer

  // The real clock too: a lone weak timer far ahead does not hold Run.
  auto real = ms::NewRealClock();
  Scheduler r(&rt, real.get(), SchedulerOptions{});
  bool weak_ran = false;
  r.AfterWhileBusy(30, [&] { weak_ran = true; });
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(r.Run().ok());
  CHECK_FALSE(weak_ran);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

// Fibers (Scheduler::Spawn): each spawned body runs a scheduler of its own,
// a guest of the root's, as a nested stack's operation does.
namespace {

// Two fibers whose guests each take two 5 s steps and one provider call;
// the log of who did what when, across root and guests.
std::vector<std::string> RunSiblings(int workers) {
  FakeRuntime rt([](const HookCall& c) { return Done("phys-" + c.ctx.logical_id); });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler root(&rt, clock.get(), SchedulerOptions{workers, 64});
  std::vector<std::string> log;
  auto note = [&](const std::string& what) { log.push_back(ms::FormatTimestamp(clock->NowMs()) + " " + what); };
  for (const std::string name : {"A", "B"}) {
    root.Spawn(
        [&, name] {
          Scheduler guest(&rt, clock.get(), SchedulerOptions{});
          note(name + " start");
          guest.After(5, [&, name] {
            note(name + " step 1");
            CreateResource(guest, name + "R", [&, name](const HookOutcome& o) {
              note(name + " call " + o.physical_id);
              guest.After(5, [&, name] { note(name + " step 2"); });
            });
          });
          CHECK(guest.Run().ok());  // CHECK: a fiber's thread must not throw
          CHECK_FALSE(guest.released());
          note(name + " end");
          return Done(name);
        },
        [&](HookOutcome& o) { note("done " + o.physical_id); });
  }
  REQUIRE(root.Run().ok());
  return log;
}

}  // namespace

TEST_CASE("fibers: sibling guests take their steps at the same instants, deterministically", "[scheduler]") {
  const std::vector<std::string> log = RunSiblings(4);
  const std::string t0 = "2026-11-22T10:28:07.123Z", t5 = "2026-11-22T10:28:12.123Z",
                    t10 = "2026-11-22T10:28:17.123Z";
  CHECK(log == std::vector<std::string>{t0 + " A start", t0 + " B start", t5 + " A step 1", t5 + " B step 1",
                                        t5 + " A call phys-AR", t5 + " B call phys-BR", t10 + " A step 2",
                                        t10 + " A end", t10 + " B step 2", t10 + " B end", t10 + " done A",
                                        t10 + " done B"});
  CHECK(RunSiblings(1) == log);
}

TEST_CASE("fibers: a root stopped while a guest waits releases it, and its fiber ends first", "[scheduler]") {
  FakeRuntime rt([](const HookCall& c) { return Done("phys-" + c.ctx.logical_id); });
  auto clock = ms::NewVirtualClock(kStart);
  Scheduler root(&rt, clock.get(), SchedulerOptions{2, 8});
  std::vector<std::string> log;
  root.Spawn(
      [&] {
        Scheduler guest(&rt, clock.get(), SchedulerOptions{});
        guest.After(100, [&] { log.push_back("never"); });
        CHECK(guest.Run().ok());
        log.push_back(guest.released() ? "released" : "not released");
        // A guest made after the release returns at once too.
        Scheduler later(&rt, clock.get(), SchedulerOptions{});
        later.After(1, [&] { log.push_back("never either"); });
        CHECK(later.Run().ok());
        log.push_back(later.released() ? "later released" : "later not released");
        return Done("x");
      },
      [&](HookOutcome&) { log.push_back("done never runs"); });
  root.After(1, [&] { root.Stop(); });
  REQUIRE(root.Run().ok());
  log.push_back("root returned");
  CHECK(log == std::vector<std::string>{"released", "later released", "root returned"});
}
