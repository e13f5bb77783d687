// OperationRunner: the asynchronous half of the server's workflow actions.
// CreateStack/DeleteStack save the stack *_IN_PROGRESS and return; the
// operation then runs here, on one background thread, one operation after
// another, while requests keep being answered from the store.
//
// The stack's StackLock (store/stack_lock.h) is taken before the action
// saves the stack in progress and released after its operation ends, so a
// `moonstack` CLI process on the same state file neither runs nor "recovers"
// a stack the server is working on. The lock is held per stack name by the
// server as a whole: a second action on the same stack (a delete queued
// after a create) shares it, and the stack's status decides what is allowed.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/status.h"
#include "stack/operation.h"
#include "store/stack_lock.h"

namespace ms::server {

class OperationRunner {
 public:
  // `ctx` is used by the runner's thread only (its Database connection
  // included) once Start() has been called.
  OperationRunner(OperationContext ctx, std::string state_path)
      : ctx_(std::move(ctx)), state_path_(std::move(state_path)) {}
  ~OperationRunner() { Stop(); }

  void Start();
  // Finishes the running operation and stops; queued ones stay in progress
  // in the store (the next start of the server or CLI resumes them).
  void Stop();

  // Holds the stack's lock for an action about to start an operation; an
  // error when another process holds it. Each Reserve is ended by exactly
  // one Enqueue or Release.
  Status Reserve(const std::string& stack_name);
  void Release(const std::string& stack_name);
  // True when no operation is reserved, queued or running.
  bool Idle();
  // True while an operation on the stack is reserved, queued or running.
  bool Busy(const std::string& stack_name);
  // Runs the operation in progress on stack_id (its name reserved) in `region`.
  void Enqueue(const std::string& stack_name, const std::string& stack_id, const std::string& region);

 private:
  struct Job {
    std::string stack_name, stack_id, region;
  };
  void Loop();
  void ReleaseLocked(const std::string& stack_name);

  OperationContext ctx_;
  std::string state_path_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  struct Held {
    std::unique_ptr<StackLock> lock;
    int users = 0;  // reservations not yet released or run
  };
  std::map<std::string, Held> locks_;
  std::thread thread_;
};

}  // namespace ms::server
