#include "server/operation_runner.h"

#include <iostream>

namespace ms::server {

void OperationRunner::Start() { thread_ = std::thread([this] { Loop(); }); }

void OperationRunner::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status OperationRunner::Reserve(const std::string& stack_name) {
  std::lock_guard<std::mutex> lock(mu_);
  Held& held = locks_[stack_name];
  if (held.lock == nullptr) {
    Status s = StackLock::TryAcquire(state_path_, stack_name, &held.lock);
    if (!s.ok() || held.lock == nullptr) {
      locks_.erase(stack_name);
      if (!s.ok()) return s;
      // The same message as the CLI's (cli/stack_session.cc).
      return Status::Validation("Stack [" + stack_name + "] is being operated on by another moonstack process");
    }
  }
  ++held.users;
  return Status::OK();
}

void OperationRunner::Release(const std::string& stack_name) {
  std::lock_guard<std::mutex> lock(mu_);
  ReleaseLocked(stack_name);
}

bool OperationRunner::Idle() {
  std::lock_guard<std::mutex> lock(mu_);
  return locks_.empty() && queue_.empty();
}

bool OperationRunner::Busy(const std::string& stack_name) {
  std::lock_guard<std::mutex> lock(mu_);
  return locks_.count(stack_name) != 0;
}

void OperationRunner::ReleaseLocked(const std::string& stack_name) {
  auto it = locks_.find(stack_name);
  if (it == locks_.end()) return;
  if (--it->second.users <= 0) locks_.erase(it);  // unlocks
}

void OperationRunner::Enqueue(const std::string& stack_name, const std::string& stack_id, const std::string& region) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(Job{stack_name, stack_id, region});
  }
  cv_.notify_all();
}

void OperationRunner::Loop() {
  while (true) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = queue_.front();
      queue_.pop_front();
    }
    OperationContext ctx = ctx_;
    ctx.region = job.region;
    Status s = RunOperation(ctx, job.stack_id);
    // AWS-level failures end in a *_FAILED status; this is moonstack's own
    // (the store, an illegal transition): nobody is waiting on the call, so log it.
    if (!s.ok()) std::cerr << "moonstack serve: operation on " << job.stack_id << " failed: " << s.message() << "\n";
    Release(job.stack_name);
  }
}

}  // namespace ms::server
