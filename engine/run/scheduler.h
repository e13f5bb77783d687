// Scheduler: runs provider hook calls on a pool of workers and timers on a
// clock, and hands every completion back to ONE thread (the caller of Run),
// where workflow code runs without locks.
//
//   Scheduler s(runtime, clock, options);
//   s.Call(hook_call, [&](const HookOutcome& o) { ... may Call/After again ... });
//   s.After(30.0, [&] { ... });       // simulated seconds
//   Status st = s.Run();              // until nothing is in flight or pending
//
// Workers: `options.workers` threads, each with its own ProviderSession (one
// lua_State per worker), created lazily on first use. At most
// `options.max_concurrency` calls are in flight; more wait in FIFO order.
//
// Determinism under a virtual clock (lock-step): Run dispatches every queued
// call, waits until ALL in-flight calls have completed, then runs their
// callbacks in submission order; only when no call is queued or in flight does
// it advance the clock to the earliest timer and run every timer due at that
// instant (in the order they were set). So the same workflow produces the same
// callbacks in the same order with the same timestamps, whatever the threads do.
// Under real and scaled clocks, callbacks run as calls complete and timers as
// they fall due.
//
// Callbacks may call Call, After and Stop. Callbacks never run concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "base/status.h"
#include "provider/provider.h"
#include "run/clock.h"

namespace ms {

struct SchedulerOptions {
  int workers = 4;           // threads with a ProviderSession each (>= 1)
  int max_concurrency = 64;  // calls in flight at once (>= 1)
};

class Scheduler {
 public:
  // The outcome is the callback's to keep (it may move parts out).
  using CallDone = std::function<void(HookOutcome&)>;
  using TimerFn = std::function<void()>;

  Scheduler(ProviderRuntime* runtime, Clock* clock, SchedulerOptions options);
  ~Scheduler();  // joins the workers
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Queues a hook call; `done` runs on Run's thread with the outcome. A
  // session that cannot be created yields a kFailed outcome naming why.
  void Call(HookCall call, CallDone done);
  // Runs `fn` on Run's thread once `seconds` of clock time have passed.
  void After(double seconds, TimerFn fn);
  // The same, but does not keep Run going: once nothing else is queued, in
  // flight or set with After, Run returns and `fn` never runs (a deferred
  // checkpoint that the end of the run makes moot, say).
  void AfterWhileBusy(double seconds, TimerFn fn);
  // Thread-safe: runs `fn` on Run's thread soon (between callbacks; a Run
  // waiting for a timer or a completion wakes for it). Does not keep Run
  // going: what is posted after Run returned is never run.
  void Post(TimerFn fn);
  // Runs until no call is queued or in flight and no After timer is pending, or
  // Stop() was called from a callback. Returns an error only for a broken
  // scheduler (a worker thread could not start).
  Status Run();
  // From a callback: Run returns once the callbacks of calls already in
  // flight have run (queued calls and timers are dropped).
  void Stop();

  Clock* clock() const { return clock_; }
  // Calls completed so far (for benchmarks and tests).
  uint64_t calls_completed() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Clock* clock_;
};

}  // namespace ms
