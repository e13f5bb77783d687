// OperationRunner: the asynchronous half of the server's workflow actions.
// CreateStack/UpdateStack/DeleteStack save the stack *_IN_PROGRESS and
// return; the operation then runs here while requests keep being answered
// from the store. Up to `workers` operations run at once, each on its own
// thread with its own copy of the OperationContext and its own SQLite
// connection (SQLite connections are single-threaded; WAL lets the request
// connection read while they write, store/database.h). At most one operation
// per stack runs at a time: the stack's status refuses a second one before
// it is enqueued (StackService's "... can not be updated.").
//
// What the threads share, and why that is safe: the World (every method
// locks it), the ProviderRuntime (NewSession is thread-safe; each operation's
// Scheduler makes its own sessions, one lua_State per worker thread), the
// Clock (NowMs is thread-safe; AdvanceTo only moves a virtual clock forward)
// and the observer, which this runner serializes (a scenario's Lua state is
// single-threaded).
//
// The stack's StackLock (store/stack_lock.h) is taken before the action
// saves the stack in progress and released after its operation ends, so a
// `moonstack` CLI process on the same state file neither runs nor "recovers"
// a stack the server is working on. The lock is held per stack name by the
// server as a whole: a second action on the same stack (a delete queued
// after a create) shares it, and the stack's status decides what is allowed.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "stack/operation.h"
#include "store/database.h"
#include "store/stack_lock.h"

namespace ms::server {

class OperationRunner {
 public:
  // `ctx` is what every operation starts from (its db is not used: each
  // worker thread has its own connection on `state_path`). workers >= 1.
  OperationRunner(OperationContext ctx, std::string state_path, int workers);
  ~OperationRunner() { Stop(); }

  // Opens the workers' connections and starts their threads.
  Status Start();
  // Stops the running operations after their current checkpoint (SIGTERM
  // should not wait for an operation that may take an hour) and the
  // threads. Their stacks, and the queued ones', stay in progress in the
  // store: the next start of the server or CLI resumes them.
  void Stop();
  // Stops the running and queued operations as Stop does, and waits until
  // none is left, at most `timeout`: true when none is (/moonstack/reset
  // then deletes their stacks). Operations enqueued meanwhile stop at once
  // too, until Resume. Each Pause is ended by one Resume.
  bool Pause(std::chrono::milliseconds timeout);
  void Resume();
  // Set while the runner stops or pauses: operations run beside it (the
  // crash recovery at start) stop with its own (OperationContext::interrupt).
  const std::atomic<bool>* interrupt_flag() const { return &interrupt_; }

  // Holds the lock of the region's stack for an action about to start an
  // operation; an error when another process holds it. Each Reserve is
  // ended by exactly one Enqueue or Release. (Stacks are per region and
  // account: the same name in two is two stacks. `region` is the region,
  // or "<region>/<account>" for an account other than the default: the
  // CLI, always in the default account, takes the same lock as serve.)
  Status Reserve(const std::string& region, const std::string& stack_name);
  void Release(const std::string& region, const std::string& stack_name);
  // True while an operation on the stack is reserved, queued or running.
  bool Busy(const std::string& region, const std::string& stack_name);
  // True while any operation is queued or running.
  bool Working();
  // Runs the operation in progress on stack_id (its name reserved in `region`).
  void Enqueue(const std::string& stack_name, const std::string& stack_id, const std::string& region);
  // Runs a stack set's QUEUED operation (stackset/stack_set_operation.h):
  // its instances' stacks one after another on the worker that takes it.
  // Pause waits for it as for a stack's; stopped, it is resumed by the next start.
  void EnqueueStackSetOperation(const std::string& stack_set_id, const std::string& operation_id);

 private:
  struct Job {
    std::string stack_name, stack_id, region;
    std::string stack_set_id, operation_id;  // a stack set operation's job instead
  };
  // locks_'s key: the region and the stack name.
  static std::string LockKey(const std::string& region, const std::string& stack_name) {
    return region + "\n" + stack_name;
  }
  // Hands the operations' events and calls to the context's observer one at
  // a time: observers are written for one operation thread.
  class SerialObserver : public OperationObserver {
   public:
    explicit SerialObserver(OperationObserver* inner) : inner_(inner) {}
    void OnEvent(const StackEvent& event) override;
    void OnProviderLog(const ProviderLogRecord& line) override;
    void TakeLog(const std::string& stack_id, std::vector<ProviderLogLine>* lines) override;
    bool BeforeCall(const HookCall& call, HookOutcome* injected, double* latency_seconds) override;
    bool TakeCancelRequest() override;

   private:
    OperationObserver* inner_;
    std::mutex mu_;
  };

  void Loop(Database* db);
  static void Checkpoint(Database* db);  // the log into the database; errors are logged
  void ReleaseLocked(const std::string& key);
  // Sets interrupt_ (stopping_ or a pause) and wakes the operations; mu_ held.
  void InterruptLocked();

  OperationContext ctx_;
  std::string state_path_;
  int workers_;
  SerialObserver observer_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_cv_;  // notified when the last reservation ends
  std::deque<Job> queue_;
  bool stopping_ = false;
  int pauses_ = 0;                     // Pause calls not yet resumed
  int stack_set_jobs_ = 0;             // stack set operations queued or running
  int running_ = 0;                    // operations taken from queue_, not yet ended
  std::atomic<bool> interrupt_{false};  // ctx_.interrupt: stopping_ || pauses_ > 0
  struct Held {
    std::unique_ptr<StackLock> lock;
    int users = 0;  // reservations not yet released or run
  };
  std::map<std::string, Held> locks_;  // by LockKey
  std::vector<std::unique_ptr<Database>> dbs_;  // one per worker; outlive the threads
  std::vector<std::thread> threads_;
};

}  // namespace ms::server
