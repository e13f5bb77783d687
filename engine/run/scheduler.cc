// The scheduler: a FIFO of hook calls fed to worker threads, a timer heap,
// and a completion queue drained on Run's thread.
//
// Ownership of state:
//   - owner side (Run's thread only, no lock): the FIFO of calls not yet
//     dispatched, the timer heap, the in-flight count, the stop flag.
//   - shared (mu): the work queue the workers take from, the completion queue
//     they post to, and the counters used to decide who to wake.
// The owner never holds mu while running a callback, and workers never hold
// it while calling a provider.
//
// Wake-ups are batched: the owner moves every dispatchable call into the work
// queue under one lock and wakes at most as many idle workers as there are
// new calls; a worker posts its completion and takes its next call under one
// lock; in lock-step the owner runs each completion's callback as soon as
// it and the earlier calls of the round are done (RunRound), so its work
// overlaps the workers', and sleeps, woken per kRoundWakeBatch completions,
// only when it has none. Short spins before blocking (the workers; the owner
// in real time) keep a chain of quick calls from paying two futex sleeps per
// call.
#include "run/scheduler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "base/thread_name.h"

namespace ms {
namespace {

// A call on its way to a worker; `done` travels with it and comes back
// untouched in its Completion (workers never invoke or destroy it).
struct Job {
  uint64_t seq;
  // On the heap: a HookCall is ~700 bytes, and a job moves from the pending
  // queue to the workers' and back through a completion.
  std::unique_ptr<HookCall> call;
  Scheduler::CallDone done;
};

struct Completion {
  uint64_t seq;
  HookOutcome outcome;
  Scheduler::CallDone done;
};

struct Timer {
  int64_t due_ms;
  uint64_t seq;  // set order: ties at one instant run in this order
  bool weak;     // set by AfterWhileBusy: does not keep Run going
  Scheduler::TimerFn fn;
};

// Min-heap order on (due, seq) for std::push_heap/pop_heap (which build max-heaps).
bool TimerLater(const Timer& a, const Timer& b) {
  return a.due_ms != b.due_ms ? a.due_ms > b.due_ms : a.seq > b.seq;
}

HookOutcome Failed(std::string reason, std::string diagnostic) {
  HookOutcome o;
  o.kind = HookOutcome::Kind::kFailed;
  o.reason = std::move(reason);
  o.diagnostic = std::move(diagnostic);
  return o;
}

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spins (pausing, then yielding the CPU) for up to ~`budget` while `ready()`
// is false. Returns ready(). Yielding matters on small machines: a spinner
// must not starve the thread it waits for.
template <typename Pred>
bool SpinFor(std::chrono::microseconds budget, Pred ready) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0;; ++i) {
    if (ready()) return true;
    if (i < 64) {
      CpuRelax();
      continue;
    }
    if ((i & 15) == 0 && std::chrono::steady_clock::now() - start > budget) return ready();
    std::this_thread::yield();
  }
}

constexpr std::chrono::microseconds kWorkerSpin{50};
constexpr std::chrono::microseconds kOwnerSpin{50};
// Lock-step: a waiting owner is woken once this many of the round's calls
// (or all that are left) have completed.
constexpr size_t kRoundWakeBatch = 8;
// Real time: completions are taken by the owner kDoneBatch at a time while
// the workers have queued calls, none held longer than kDoneHoldSeconds (a
// 1,000-resource create through serve: ~6 ms less CPU, of ~51).
constexpr size_t kDoneBatch = 32;
constexpr double kDoneHoldSeconds = 0.001;

}  // namespace

// A fiber: a thread that runs only when the root's Run thread hands it the
// turn, and hands it back when it waits (in a guest's Run) or ends.
struct Scheduler::Fiber {
  Impl* root = nullptr;
  uint64_t seq = 0;  // when its current job started (the root's order of fibers)
  std::mutex mu;
  std::condition_variable cv;
  bool fiber_turn = false;
  bool finished = false;               // its job is done (the thread waits for the next, or to quit)
  bool quit = false;
  std::function<void()> job;           // what the thread runs at its next turn
  bool ready = false;                  // in the root's ready list
  std::vector<std::function<void()>> inbox;  // a guest's callbacks, run at its next turn
  std::thread thread;

  // The root's thread: runs the fiber until it waits or ends.
  void Resume() {
    std::unique_lock<std::mutex> lk(mu);
    fiber_turn = true;
    cv.notify_all();
    cv.wait(lk, [&] { return !fiber_turn; });
  }
  // The fiber's thread: hands the turn back and waits for the next.
  void Yield() {
    std::unique_lock<std::mutex> lk(mu);
    fiber_turn = false;
    cv.notify_all();
    cv.wait(lk, [&] { return fiber_turn; });
  }
  void WaitFirstTurn() {
    std::unique_lock<std::mutex> lk(mu);
    cv.wait(lk, [&] { return fiber_turn; });
  }
  void End() {
    std::lock_guard<std::mutex> lk(mu);
    finished = true;
    fiber_turn = false;
    cv.notify_all();
  }
};

namespace {
// The fiber whose thread this is (null: not a fiber).
thread_local Scheduler::Fiber* tl_fiber = nullptr;

// A guest scheduler's own count of what keeps its Run going; shared with the
// wrappers it leaves in the root's queues, which may outlive it.
struct GuestState {
  int outstanding = 0;             // calls, strong timers and spawns not yet called back
  std::atomic<uint64_t> epoch{0};  // bumped by Stop and at the end of Run: older wrappers do nothing
  bool alive = true;
  bool stopped = false;
  bool released = false;
};
}  // namespace

struct Scheduler::Impl {
  Impl(ProviderRuntime* rt, Clock* c, SchedulerOptions o)
      : runtime(rt), clock(c), options(o), lockstep(c->is_virtual()) {
    options.workers = std::max(1, options.workers);
    options.max_concurrency = std::max(1, options.max_concurrency);
    if (tl_fiber != nullptr) {  // made on a fiber: a guest of its root
      fiber = tl_fiber;
      root = tl_fiber->root;
      guest = std::make_shared<GuestState>();
    }
  }

  // ---- a guest's (fiber != null) ----
  Fiber* fiber = nullptr;
  Impl* root = nullptr;
  std::shared_ptr<GuestState> guest;

  // ---- a root's fibers (its Run thread only) ----
  // Running a job, by start order (the latest is the innermost); and idle
  // threads kept for the next jobs (a parent of 100 children would make
  // and end 300 threads).
  std::map<uint64_t, std::shared_ptr<Fiber>> fibers;
  std::vector<std::shared_ptr<Fiber>> idle;
  uint64_t next_fiber_seq = 0;
  std::vector<Fiber*> ready;                   // with callbacks to run, in the order they came
  bool releasing = false;

  // The root's thread: `fn` is to run on guest `g`'s fiber at its next turn.
  void Deliver(const std::shared_ptr<GuestState>& g, uint64_t epoch, Fiber* f, bool strong,
               std::function<void()> fn) {
    if (!g->alive || g->epoch.load() != epoch) return;
    f->inbox.push_back([g, epoch, strong, fn = std::move(fn)] {
      if (g->epoch.load() != epoch) return;
      if (strong) --g->outstanding;
      fn();
    });
    if (!f->ready) {
      f->ready = true;
      ready.push_back(f);
    }
  }

  // A guest's: a callback of this guest, to be run on its fiber (strong:
  // counted until it has run).
  TimerFn Wrap(TimerFn fn, bool strong) {
    if (strong) ++guest->outstanding;
    return [r = root, g = guest, epoch = guest->epoch.load(), f = fiber, strong, fn = std::move(fn)]() mutable {
      r->Deliver(g, epoch, f, strong, std::move(fn));
    };
  }
  Scheduler::CallDone WrapDone(Scheduler::CallDone done) {
    ++guest->outstanding;
    return [r = root, g = guest, epoch = guest->epoch.load(), f = fiber, done = std::move(done)](HookOutcome& o) mutable {
      auto outcome = std::make_shared<HookOutcome>(std::move(o));
      r->Deliver(g, epoch, f, true, [done = std::move(done), outcome] { done(*outcome); });
    };
  }

  // A guest's Run: hands the turn back until its own work is done.
  void GuestRun() {
    while (!guest->stopped && guest->outstanding > 0 && !root->releasing) {
      fiber->Yield();
      std::vector<std::function<void()>> tasks;
      tasks.swap(fiber->inbox);
      for (auto& t : tasks) t();
    }
    guest->released = root->releasing;
    guest->epoch.fetch_add(1);  // what is left (weak timers, dropped work) is never run
    guest->outstanding = 0;
    guest->stopped = false;
  }

  // The root's: gives each fiber with callbacks its turn, in order.
  void DrainFibers() {
    while (!ready.empty() && !stopped) {
      std::vector<Fiber*> now;
      now.swap(ready);
      for (Fiber* f : now) {
        f->ready = false;
        if (!f->finished) f->Resume();
      }
    }
  }

  // The root's: starts `body` on a new fiber and runs it to its first wait.
  void StartFiber(std::function<HookOutcome()> body, Scheduler::CallDone done) {
    std::shared_ptr<Fiber> f;
    if (!idle.empty()) {
      f = std::move(idle.back());
      idle.pop_back();
    } else {
      f = std::make_shared<Fiber>();
      f->root = this;
      Fiber* raw = f.get();
      f->thread = std::thread([raw] {
        NameThisThread("ms-fiber");
        tl_fiber = raw;
        for (;;) {
          raw->WaitFirstTurn();
          if (raw->quit) break;
          std::function<void()> job = std::move(raw->job);
          job();
          raw->End();
        }
        raw->End();
      });
    }
    Fiber* raw = f.get();
    raw->seq = next_fiber_seq++;
    raw->finished = false;
    raw->job = [this, raw, body = std::move(body), done = std::move(done)]() mutable {
      auto outcome = std::make_shared<HookOutcome>(body());
      // Handed back as a completion, on the root's thread (ignored once the root stopped).
      AddTimer(0, /*weak=*/false, [this, seq = raw->seq, done = std::move(done), outcome]() mutable {
        auto it = fibers.find(seq);
        if (it != fibers.end()) {  // its thread waits for the next job
          idle.push_back(std::move(it->second));
          fibers.erase(it);
        }
        done(*outcome);
      });
    };
    fibers.emplace(raw->seq, std::move(f));
    raw->Resume();
  }

  // Ends the idle threads (and any other whose job is done).
  void QuitFiber(Fiber* f) {
    {
      std::lock_guard<std::mutex> lk(f->mu);
      f->quit = true;
    }
    f->Resume();
    if (f->thread.joinable()) f->thread.join();
  }

  // The root's Run ends with fibers still waiting (it was stopped): each is
  // released, innermost (latest) first, and runs to its end; then joined.
  void ReleaseFibers() {
    if (fibers.empty() && idle.empty()) return;
    const bool was_stopped = stopped;
    stopped = true;  // nothing they queue now is kept
    releasing = true;
    for (auto it = fibers.rbegin(); it != fibers.rend(); ++it) {
      if (!it->second->finished) it->second->Resume();
    }
    for (auto& [seq, f] : fibers) QuitFiber(f.get());
    for (auto& f : idle) QuitFiber(f.get());
    fibers.clear();
    idle.clear();
    ready.clear();
    releasing = false;
    stopped = was_stopped;
  }

  ProviderRuntime* runtime;
  Clock* clock;
  SchedulerOptions options;
  const bool lockstep;

  // ---- owner side (Run's thread) ----
  std::deque<Job> pending;   // FIFO of calls not yet handed to the workers
  std::vector<Timer> timers;  // heap, TimerLater order
  size_t strong_timers = 0;   // timers not weak: Run waits for these
  uint64_t next_call_seq = 0;
  uint64_t next_timer_seq = 0;
  int in_flight = 0;  // handed to the workers, completion not yet taken
  bool stopped = false;
  std::vector<Completion> batch;  // reused buffer of completions being run
  std::vector<uint64_t> round;    // lock-step: the seqs of the round's calls, in order
  bool in_due_timer = false;      // RunDueTimers is running a timer
  uint64_t timers_before = 0;     // RunDueTimers runs the due timers set before this

  // ---- shared ----
  std::mutex mu;
  std::condition_variable work_cv;  // workers wait here for jobs
  std::condition_variable done_cv;  // the owner waits here for completions
  std::deque<Job> work;
  std::vector<Completion> done;
  int outstanding = 0;     // jobs in `work` or running
  int idle_workers = 0;    // workers blocked on work_cv
  bool owner_waiting = false;
  size_t owner_wants = 1;  // lock-step: completions the waiting owner wants
  bool shutdown = false;
  // Lock-free hints for the spins; the truth is always read under mu.
  std::atomic<int> work_hint{0};         // jobs in `work`
  std::atomic<int> outstanding_hint{0};  // == outstanding
  std::atomic<size_t> done_hint{0};      // completions in `done`
  std::vector<TimerFn> posted;           // Post()ed from other threads, not yet run
  std::atomic<size_t> posted_hint{0};    // == posted.size()

  std::vector<std::thread> threads;
  Status start_error;
  std::atomic<uint64_t> completed{0};

  // ---- workers ----

  void WorkerLoop(int index) {
    std::unique_ptr<ProviderSession> session;
    std::unique_lock<std::mutex> lk(mu);
    for (;;) {
      if (work.empty() && !shutdown) {
        lk.unlock();
        SpinFor(kWorkerSpin, [&] { return work_hint.load(std::memory_order_acquire) > 0; });
        lk.lock();
        while (work.empty() && !shutdown) {
          ++idle_workers;
          work_cv.wait(lk);
          --idle_workers;
        }
      }
      if (shutdown) return;
      Job job = std::move(work.front());
      work.pop_front();
      work_hint.store(static_cast<int>(work.size()), std::memory_order_release);
      lk.unlock();

      Completion c{job.seq, RunOne(&session, *job.call, index), std::move(job.done)};

      lk.lock();
      done.push_back(std::move(c));
      done_hint.store(done.size(), std::memory_order_release);
      --outstanding;
      outstanding_hint.store(outstanding, std::memory_order_release);
      // Lock-step: the owner waits, with no completion to run, for `owner_wants`.
      if (owner_waiting && (lockstep ? done.size() >= owner_wants : DoneReadyLocked())) done_cv.notify_one();
    }
  }

  // `call` is the worker's own (a validating call's properties are replaced
  // by the coerced ones).
  HookOutcome RunOne(std::unique_ptr<ProviderSession>* session, HookCall& call, int index) {
    if (!*session) {
      // Created lazily and retried on the next call after a failure: the
      // cause (a provider file that does not load, say) may be fixed.
      std::unique_ptr<ProviderSession> s;
      Status st;
      try {
        st = runtime->NewHookSession(&s);
      } catch (const std::exception& e) {
        st = Status::Internal(e.what());
      } catch (...) {
        st = Status::Internal("unknown exception");
      }
      if (st.ok() && !s) st = Status::Internal("the provider runtime returned no session");
      if (!st.ok()) {
        return Failed(st.message(), "scheduler worker " + std::to_string(index) +
                                        " could not create a provider session: " + st.message());
      }
      *session = std::move(s);
    }
    // Sessions never throw by contract; a bug in one must not take the
    // worker (and with it the whole run) down.
    try {
      if (!call.validate) return (*session)->Call(call);
      Value coerced;
      Status valid = (*session)->Validate(call.type, call.ctx, call.properties, &coerced);
      if (!valid.ok()) {
        HookOutcome o = Failed(valid.message(), "");
        (*session)->TakeLog(&o.log, &o.log_dropped);  // what the provider's validation printed
        return o;
      }
      call.properties = std::move(coerced);
      HookOutcome o = (*session)->Call(call);
      o.coerced = std::move(call.properties);
      return o;
    } catch (const std::exception& e) {
      return Failed(std::string("Internal failure: ") + e.what(),
                    std::string("provider session threw from ") + HookName(call.hook) + " of " + call.type +
                        ": " + e.what());
    } catch (...) {
      return Failed("Internal failure", std::string("provider session threw from ") + HookName(call.hook) +
                                            " of " + call.type);
    }
  }

  Status StartWorkers() {
    if (!threads.empty() || !start_error.ok()) return start_error;
    try {
      threads.reserve(options.workers);
      for (int i = 0; i < options.workers; ++i) {
        threads.emplace_back([this, i] {
          NameThisThread("ms-worker-" + std::to_string(i));
          WorkerLoop(i);
        });
      }
    } catch (const std::system_error& e) {
      start_error = Status::Internal(std::string("could not start a scheduler worker thread: ") + e.what());
    }
    return start_error;
  }

  void StopWorkers() {
    {
      std::lock_guard<std::mutex> lk(mu);
      shutdown = true;
    }
    work_cv.notify_all();
    for (auto& t : threads) t.join();
    threads.clear();
  }

  // ---- owner ----

  // Hands queued calls to the workers, up to max_concurrency in flight.
  void Dispatch() {
    if (stopped || pending.empty()) return;
    size_t n = std::min(pending.size(), static_cast<size_t>(options.max_concurrency - in_flight));
    if (n == 0) return;
    int wake;
    {
      std::lock_guard<std::mutex> lk(mu);
      for (size_t i = 0; i < n; ++i) {
        if (lockstep) round.push_back(pending.front().seq);
        work.push_back(std::move(pending.front()));
        pending.pop_front();
      }
      outstanding += static_cast<int>(n);
      outstanding_hint.store(outstanding, std::memory_order_release);
      work_hint.store(static_cast<int>(work.size()), std::memory_order_release);
      wake = std::min(static_cast<int>(n), idle_workers);
    }
    in_flight += static_cast<int>(n);
    if (wake >= options.workers) {
      work_cv.notify_all();
    } else {
      for (int i = 0; i < wake; ++i) work_cv.notify_one();
    }
  }

  // Lock-step: runs the callbacks of the round's calls (`round`, in
  // submission order), each once its call and every earlier one have
  // completed, so they overlap the workers' later calls of the round.
  // What they queue waits in `pending` for the next round's Dispatch, and
  // Stop leaves the round's calls to finish (DropQueued): the rounds, the
  // callbacks' order and their clock are what waiting for the whole round
  // first would give.
  void RunRound() {
    std::map<uint64_t, Completion> arrived;  // completed, callback not yet run
    for (size_t next = 0; next < round.size();) {
      auto it = arrived.find(round[next]);
      if (it == arrived.end()) {
        // Woken for a few completions at once, not each: a wake-up costs
        // both threads a futex call, as much as a quick call's own work.
        const size_t missing = round.size() - next - arrived.size();
        WaitForCompletions(std::min(missing, kRoundWakeBatch));
        for (Completion& c : batch) arrived.emplace(c.seq, std::move(c));
        batch.clear();
        continue;
      }
      Completion c = std::move(it->second);
      arrived.erase(it);
      ++next;
      --in_flight;
      completed.fetch_add(1, std::memory_order_relaxed);
      if (c.done) c.done(c.outcome);
    }
    round.clear();
  }

  // Lock-step: moves the completions posted so far into `batch`, first
  // waiting, when there is none, until there are `want` (>= 1). No spin: a
  // call takes longer than a callback, so the owner would spin on nearly
  // every call.
  void WaitForCompletions(size_t want) {
    std::unique_lock<std::mutex> lk(mu);
    if (done.empty()) {
      owner_waiting = true;
      owner_wants = want;
      done_cv.wait(lk, [&] { return done.size() >= owner_wants; });
      owner_waiting = false;
    }
    TakeDoneLocked();
  }

  // Real time: whether the owner should take the completions now. While the
  // workers still have queued calls, completions are taken kDoneBatch at a
  // time (each wake-up of the owner costs both threads more than a
  // completion's own work). While calls are in flight the owner waits at
  // most kDoneHoldSeconds at a time, so none is held longer than that (a
  // call itself is short by contract: long work answers in progress).
  bool DoneReadyLocked() const {
    return !posted.empty() || done.size() >= kDoneBatch || (!done.empty() && work.empty());
  }
  bool DoneReadyHint() const {
    const size_t d = done_hint.load(std::memory_order_acquire);
    return posted_hint.load(std::memory_order_acquire) > 0 || d >= kDoneBatch ||
           (d > 0 && work_hint.load(std::memory_order_acquire) == 0);
  }

  // Real time: moves the completions posted so far into `batch`, first
  // waiting up to `max_wait_s` (< 0: without limit) until DoneReadyLocked.
  void TakeDone(double max_wait_s) {
    if (max_wait_s != 0 && in_flight > 0) {
      // Only spin when a completion can come; a spin cannot make a timer due.
      SpinFor(kOwnerSpin, [&] { return DoneReadyHint(); });
    }
    std::unique_lock<std::mutex> lk(mu);
    if (!DoneReadyLocked() && max_wait_s != 0) {
      // Wait in slices of at most an hour: duration<double> to steady clock
      // ticks must not overflow.
      double wait = max_wait_s < 0 ? 3600.0 : std::min(max_wait_s, 3600.0);
      if (in_flight > 0) wait = std::min(wait, kDoneHoldSeconds);
      owner_waiting = true;
      done_cv.wait_for(lk, std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(wait)),
                       [&] { return DoneReadyLocked(); });
      owner_waiting = false;
    }
    TakeDoneLocked();
  }

  void TakeDoneLocked() {
    batch.swap(done);  // `batch` was emptied by RunCallbacks: reuses capacity
    done_hint.store(0, std::memory_order_release);
  }

  // Runs the callbacks of the completions in `batch`, without any lock.
  void RunCallbacks() {
    if (batch.empty()) return;
    in_flight -= static_cast<int>(batch.size());
    // A callback can call Run-side methods but never touches `batch`; still,
    // move it out so a re-entrant path cannot see a half-run buffer.
    std::vector<Completion> run;
    run.swap(batch);
    for (auto& c : run) {
      completed.fetch_add(1, std::memory_order_relaxed);
      CallDone fn = std::move(c.done);
      if (fn) fn(c.outcome);
    }
    run.clear();
    batch.swap(run);  // keep the capacity
  }

  bool TimerDue(uint64_t before_seq) const {
    return !timers.empty() && timers.front().seq < before_seq && timers.front().due_ms <= clock->NowMs();
  }

  // Runs the timers due now that were set before this call, in (due, set)
  // order. Timers they set (even for 0 s) wait for the next round, so a timer
  // re-arming itself cannot starve the calls.
  void RunDueTimers() {
    const uint64_t before = next_timer_seq;
    timers_before = before;
    while (!stopped && TimerDue(before)) {
      std::pop_heap(timers.begin(), timers.end(), TimerLater);
      TimerFn fn = std::move(timers.back().fn);
      if (!timers.back().weak) --strong_timers;
      timers.pop_back();
      in_due_timer = true;
      if (fn) fn();
      in_due_timer = false;
    }
  }

  // Lock-step, from a due timer (Scheduler::StartNextRound): the next
  // round's Dispatch, early.
  bool StartNextRound() {
    if (!lockstep || !in_due_timer || stopped || pending.empty() || in_flight > 0) return false;
    if (TimerDue(timers_before) || !fibers.empty()) return false;
    Dispatch();
    return true;
  }

  // Drops every call not yet started and every timer (Stop).
  void DropQueued() {
    std::deque<Job> retracted;
    if (!lockstep) {  // lock-step: the round's calls finish (RunRound)
      std::lock_guard<std::mutex> lk(mu);
      retracted.swap(work);
      outstanding -= static_cast<int>(retracted.size());
      outstanding_hint.store(outstanding, std::memory_order_release);
      work_hint.store(0, std::memory_order_release);
    }
    in_flight -= static_cast<int>(retracted.size());
    // Destroyed here, outside the lock: callbacks may own arbitrary state.
    retracted.clear();
    pending.clear();
    timers.clear();
    strong_timers = 0;
  }

  void AddTimer(double seconds, bool weak, TimerFn fn);

  // Run is over: weak timers left are never run.
  void DropWeakTimers() { timers.clear(); }

  // Runs what other threads Post()ed, on Run's thread.
  void RunPosted() {
    if (posted_hint.load(std::memory_order_acquire) == 0) return;
    std::vector<TimerFn> run;
    {
      std::lock_guard<std::mutex> lk(mu);
      run.swap(posted);
      posted_hint.store(0, std::memory_order_release);
    }
    for (TimerFn& fn : run) {
      if (!stopped) fn();
    }
  }

  void RunLockStep() {
    for (;;) {
      RunPosted();
      DrainFibers();
      Dispatch();
      if (in_flight > 0) {
        RunRound();
        DrainFibers();
      }
      if (stopped) return;  // nothing is in flight between rounds
      RunDueTimers();
      if (stopped && in_flight > 0) RunRound();  // a round a timer began (StartNextRound) finishes
      DrainFibers();
      if (stopped) return;
      if (pending.empty() && in_flight == 0) {
        if (strong_timers == 0) return DropWeakTimers();
        clock->AdvanceTo(timers.front().due_ms);
      }
    }
  }

  void RunRealTime() {
    for (;;) {
      Dispatch();
      TakeDone(0);
      RunCallbacks();
      RunPosted();
      RunDueTimers();
      DrainFibers();
      if (stopped) {
        if (in_flight == 0) return;
      } else if (pending.empty() && in_flight == 0 && strong_timers == 0) {
        return DropWeakTimers();
      }
      bool can_dispatch = !stopped && !pending.empty() && in_flight < options.max_concurrency;
      if (can_dispatch || TimerDue(next_timer_seq)) continue;
      double wait = -1;  // nothing but completions to wait for
      if (!timers.empty()) {
        wait = clock->RealSecondsUntil(timers.front().due_ms);
        if (wait <= 0) continue;
      }
      TakeDone(wait);
      RunCallbacks();
      RunPosted();
      DrainFibers();
    }
  }
};

Scheduler::Scheduler(ProviderRuntime* runtime, Clock* clock, SchedulerOptions options)
    : impl_(std::make_unique<Impl>(runtime, clock, options)), clock_(clock) {}

Scheduler::~Scheduler() {
  if (impl_->guest) {
    impl_->guest->alive = false;
    return;
  }
  impl_->ReleaseFibers();
  impl_->StopWorkers();
}

void Scheduler::Call(HookCall call, CallDone done) {
  if (impl_->guest) {
    if (impl_->guest->stopped || impl_->root->stopped) return;
    Impl* r = impl_->root;
    r->pending.push_back(
        Job{r->next_call_seq++, std::make_unique<HookCall>(std::move(call)), impl_->WrapDone(std::move(done))});
    return;
  }
  if (impl_->stopped) return;
  impl_->pending.push_back(Job{impl_->next_call_seq++, std::make_unique<HookCall>(std::move(call)), std::move(done)});
}

void Scheduler::After(double seconds, TimerFn fn) {
  if (impl_->guest) {
    if (impl_->guest->stopped || impl_->root->stopped) return;
    impl_->root->AddTimer(seconds, /*weak=*/false, impl_->Wrap(std::move(fn), /*strong=*/true));
    return;
  }
  impl_->AddTimer(seconds, /*weak=*/false, std::move(fn));
}

void Scheduler::AfterWhileBusy(double seconds, TimerFn fn) {
  if (impl_->guest) {
    if (impl_->guest->stopped || impl_->root->stopped) return;
    impl_->root->AddTimer(seconds, /*weak=*/true, impl_->Wrap(std::move(fn), /*strong=*/false));
    return;
  }
  impl_->AddTimer(seconds, /*weak=*/true, std::move(fn));
}

void Scheduler::Spawn(std::function<HookOutcome()> body, CallDone done) {
  if (impl_->guest) {
    if (impl_->guest->stopped || impl_->root->stopped) return;
    Impl* r = impl_->root;
    CallDone wrapped = impl_->WrapDone(std::move(done));
    r->AddTimer(0, /*weak=*/false, [r, body = std::move(body), wrapped = std::move(wrapped)]() mutable {
      r->StartFiber(std::move(body), std::move(wrapped));
    });
    return;
  }
  Impl* r = impl_.get();
  r->AddTimer(0, /*weak=*/false, [r, body = std::move(body), done = std::move(done)]() mutable {
    r->StartFiber(std::move(body), std::move(done));
  });
}

bool Scheduler::released() const { return impl_->guest && impl_->guest->released; }

void Scheduler::Impl::AddTimer(double seconds, bool weak, TimerFn fn) {
  if (stopped) return;
  // Whole milliseconds, like the clock: timers due "at the same instant" then
  // compare equal exactly.
  int64_t delay = (seconds > 0 && std::isfinite(seconds)) ? std::llround(seconds * 1000.0) : 0;
  if (seconds > 0 && !std::isfinite(seconds)) delay = INT64_MAX / 4;  // never, in practice
  timers.push_back(Timer{clock->NowMs() + delay, next_timer_seq++, weak, std::move(fn)});
  std::push_heap(timers.begin(), timers.end(), TimerLater);
  if (!weak) ++strong_timers;
}

void Scheduler::Post(TimerFn fn) {
  if (impl_->guest) {  // any thread: the wrapper reads only what does not change (and the atomic epoch)
    std::shared_ptr<GuestState> g = impl_->guest;
    TimerFn wrapped = [r = impl_->root, g, epoch = g->epoch.load(), f = impl_->fiber, fn = std::move(fn)]() mutable {
      r->Deliver(g, epoch, f, /*strong=*/false, std::move(fn));
    };
    Impl* r = impl_->root;
    std::lock_guard<std::mutex> lk(r->mu);
    r->posted.push_back(std::move(wrapped));
    r->posted_hint.store(r->posted.size(), std::memory_order_release);
    if (r->owner_waiting) r->done_cv.notify_one();
    return;
  }
  std::lock_guard<std::mutex> lk(impl_->mu);
  impl_->posted.push_back(std::move(fn));
  impl_->posted_hint.store(impl_->posted.size(), std::memory_order_release);
  if (impl_->owner_waiting) impl_->done_cv.notify_one();
}

Status Scheduler::Run() {
  if (impl_->guest) {
    impl_->GuestRun();
    return Status::OK();
  }
  MS_RETURN_IF_ERROR(impl_->StartWorkers());
  if (impl_->lockstep) {
    impl_->RunLockStep();
  } else {
    impl_->RunRealTime();
  }
  impl_->ReleaseFibers();
  // A later Run (after more Calls) starts afresh.
  impl_->stopped = false;
  return Status::OK();
}

void Scheduler::Stop() {
  if (impl_->guest) {
    impl_->guest->stopped = true;
    impl_->guest->epoch.fetch_add(1);  // its calls and timers in the root's queues do nothing now
    impl_->guest->outstanding = 0;
    return;
  }
  if (impl_->stopped) return;
  impl_->stopped = true;
  impl_->DropQueued();
}

bool Scheduler::StartNextRound() { return !impl_->guest && impl_->StartNextRound(); }

uint64_t Scheduler::calls_completed() const { return impl_->completed.load(std::memory_order_relaxed); }

}  // namespace ms
