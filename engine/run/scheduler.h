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
// call (a round) and runs their callbacks in submission order, each once its
// call and every earlier one have completed (overlapping the workers' later
// calls); calls the callbacks queue wait for the next round, and a Stop
// lets the round's calls finish. Only when no call is queued or in flight does
// it advance the clock to the earliest timer and run every timer due at that
// instant (in the order they were set). So the same workflow produces the same
// callbacks in the same order with the same timestamps, whatever the threads do.
// Under real and scaled clocks, callbacks run as calls complete and timers as
// they fall due.
//
// Callbacks may call Call, After and Stop. Callbacks never run concurrently.
//
// Fibers (Spawn): work that itself runs a Scheduler to its end — a nested
// stack's operation — runs on a thread of its own, a fiber, and a Scheduler
// made on a fiber's thread is a *guest* of the scheduler that spawned it
// (of that one's root, at any depth): its calls go to the root's workers,
// its timers into the root's heap, and its callbacks run on the fiber's
// thread whenever the root hands it the turn. One thread runs at a time —
// the root's Run thread or one fiber — so a guest's callbacks never run
// beside the root's, and the root's lock-step covers every guest: sibling
// fibers proceed in the same rounds, at the same virtual instants, in an
// order that depends only on the order things were queued (deterministic).
// A guest's Run returns once its own calls and (non-weak) timers are done.
// When the root's Run ends stopped (Stop, an interrupt), every fiber still
// waiting in a guest's Run is released, innermost first: that Run returns at
// once with released() true, and the fiber runs to its end before the
// root's Run returns.
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
  // From a timer, in lock-step: hands the calls queued so far to the
  // workers now rather than once the timers due at this instant have run,
  // so they overlap the rest of this timer (the checkpoint's JSON, say,
  // once the world's changes are taken). Only when no other timer is due
  // now and no fiber runs: what those do, the workers' calls would see half
  // done. Calls queued later still join the same round, in order. Returns
  // whether it did; under real time calls go out as they come anyway (false).
  bool StartNextRound();
  // Runs `body` on a fiber of its own, started as a 0 s timer would run;
  // `done` gets what it returns, on this scheduler's thread, as a call's
  // callback would (see Fibers above). Keeps Run going until then.
  void Spawn(std::function<HookOutcome()> body, CallDone done);
  // A guest whose Run returned because its root stopped (its work dropped):
  // the caller should leave things as an interrupted run leaves them.
  bool released() const;

  Clock* clock() const { return clock_; }
  // Calls completed so far (for benchmarks and tests).
  uint64_t calls_completed() const;

  struct Impl;
  struct Fiber;

 private:
  std::unique_ptr<Impl> impl_;
  Clock* clock_;
};

}  // namespace ms
