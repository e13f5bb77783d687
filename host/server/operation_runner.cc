#include "server/operation_runner.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "base/thread_name.h"
#include "stackset/stack_set_operation.h"
#include "store/schema.h"

namespace ms::server {

void OperationRunner::SerialObserver::OnEvent(const StackEvent& event) {
  std::lock_guard<std::mutex> lock(mu_);
  inner_->OnEvent(event);
}

void OperationRunner::SerialObserver::OnProviderLog(const ProviderLogRecord& line) {
  std::lock_guard<std::mutex> lock(mu_);
  inner_->OnProviderLog(line);
}

bool OperationRunner::SerialObserver::BeforeCall(const HookCall& call, HookOutcome* injected,
                                                 double* latency_seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  return inner_->BeforeCall(call, injected, latency_seconds);
}

void OperationRunner::SerialObserver::TakeLog(const std::string& stack_id, std::vector<ProviderLogLine>* lines) {
  std::lock_guard<std::mutex> lock(mu_);
  inner_->TakeLog(stack_id, lines);
}

bool OperationRunner::SerialObserver::TakeCancelRequest() {
  std::lock_guard<std::mutex> lock(mu_);
  return inner_->TakeCancelRequest();
}

OperationRunner::OperationRunner(OperationContext ctx, std::string state_path, int workers)
    : ctx_(std::move(ctx)), state_path_(std::move(state_path)), workers_(std::max(1, workers)),
      observer_(ctx_.observer) {
  ctx_.db = nullptr;  // each worker has its own
  if (ctx_.observer != nullptr) ctx_.observer = &observer_;
  ctx_.interrupt = &interrupt_;
}

Status OperationRunner::Start() {
  for (int i = 0; i < workers_; ++i) {
    std::unique_ptr<Database> db;
    MS_RETURN_IF_ERROR(OpenStore(state_path_, &db));
    MS_RETURN_IF_ERROR(db->DisableAutoCheckpoint());  // Loop checkpoints after each operation
    dbs_.push_back(std::move(db));
  }
  for (const auto& db : dbs_) threads_.emplace_back([this, d = db.get()] {
    NameThisThread("ms-operations");
    Loop(d);
  });
  return Status::OK();
}

void OperationRunner::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    InterruptLocked();
  }
  cv_.notify_all();
  idle_cv_.notify_all();  // a Pause waiting for operations that will never run now
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

bool OperationRunner::Pause(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  ++pauses_;
  InterruptLocked();
  return idle_cv_.wait_for(lock, timeout,
                           [this] { return stopping_ || (locks_.empty() && queue_.empty() && stack_set_jobs_ == 0); }) &&
         !stopping_;
}

void OperationRunner::Resume() {
  std::lock_guard<std::mutex> lock(mu_);
  if (pauses_ > 0) --pauses_;
  interrupt_ = stopping_ || pauses_ > 0;
}

void OperationRunner::InterruptLocked() {
  interrupt_ = true;
  // An operation waiting for a timer (a poll, a signal check) looks at the
  // interrupt now rather than when its timer falls due.
  if (ctx_.cancels != nullptr) ctx_.cancels->WakeAll();
}

Status OperationRunner::Reserve(const std::string& region, const std::string& stack_name) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = LockKey(region, stack_name);
  Held& held = locks_[key];
  if (held.lock == nullptr) {
    Status s = StackLock::TryAcquire(state_path_, region, stack_name, &held.lock);
    if (!s.ok() || held.lock == nullptr) {
      locks_.erase(key);
      if (!s.ok()) return s;
      // The same message as the CLI's (cli/stack_session.cc).
      return Status::Validation("Stack [" + stack_name + "] is being operated on by another moonstack process");
    }
  }
  ++held.users;
  return Status::OK();
}

void OperationRunner::Release(const std::string& region, const std::string& stack_name) {
  std::lock_guard<std::mutex> lock(mu_);
  ReleaseLocked(LockKey(region, stack_name));
}

bool OperationRunner::Working() {
  std::lock_guard<std::mutex> lock(mu_);
  return running_ > 0 || !queue_.empty();
}

bool OperationRunner::Busy(const std::string& region, const std::string& stack_name) {
  std::lock_guard<std::mutex> lock(mu_);
  return locks_.count(LockKey(region, stack_name)) != 0;
}

void OperationRunner::ReleaseLocked(const std::string& key) {
  auto it = locks_.find(key);
  if (it == locks_.end()) return;
  if (--it->second.users <= 0) locks_.erase(it);  // unlocks
  if (locks_.empty() && stack_set_jobs_ == 0) idle_cv_.notify_all();
}

void OperationRunner::EnqueueStackSetOperation(const std::string& stack_set_id, const std::string& operation_id) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++stack_set_jobs_;
    Job job;
    job.stack_set_id = stack_set_id;
    job.operation_id = operation_id;
    queue_.push_back(std::move(job));
  }
  cv_.notify_one();
}

void OperationRunner::Enqueue(const std::string& stack_name, const std::string& stack_id, const std::string& region) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(Job{stack_name, stack_id, region, "", ""});
  }
  cv_.notify_one();
}

// The log's copy into the database (the connections do not checkpoint on
// their own, see Start) waits until this thread has had no operation for a
// moment: right after an operation the client is polling for its final
// status, and on a small machine the copy would compete with that request.
// An operation that keeps finding another one queued still checkpoints
// every few operations, so the log cannot grow without bound.
void OperationRunner::Loop(Database* db) {
  constexpr auto kCheckpointWhenIdleFor = std::chrono::milliseconds(200);
  constexpr int kMaxOperationsBetweenCheckpoints = 8;
  int unchecked = 0;  // operations since this connection's last checkpoint
  while (true) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      auto ready = [this] { return stopping_ || !queue_.empty(); };
      if (unchecked > 0) {
        const bool next_waiting =
            unchecked < kMaxOperationsBetweenCheckpoints && cv_.wait_for(lock, kCheckpointWhenIdleFor, ready);
        if (!next_waiting) {
          lock.unlock();
          Checkpoint(db);
          unchecked = 0;
          lock.lock();
        }
      }
      cv_.wait(lock, ready);
      if (stopping_) return;
      job = queue_.front();
      queue_.pop_front();
      ++running_;
    }
    struct Ended {
      OperationRunner* runner;
      ~Ended() {
        std::lock_guard<std::mutex> lock(runner->mu_);
        --runner->running_;
      }
    } ended{this};
    OperationContext ctx = ctx_;
    ctx.db = db;
    if (!job.operation_id.empty()) {
      // The instances' regions and accounts are their own (stack_set_operation.h).
      Status s = RunStackSetOperation(ctx, job.stack_set_id, job.operation_id);
      if (!s.ok()) {
        std::cerr << "moonstack serve: stack set operation " << job.operation_id << " failed: " << s.message() << "\n";
      }
      std::lock_guard<std::mutex> lock(mu_);
      if (--stack_set_jobs_ == 0 && locks_.empty()) idle_cv_.notify_all();
      ++unchecked;
      continue;
    }
    ctx.region = job.region.substr(0, job.region.find('/'));  // RunOperation reads region and account from the ID
    Status s = RunOperation(ctx, job.stack_id);
    // AWS-level failures end in a *_FAILED status; this is moonstack's own
    // (the store, an illegal transition): nobody is waiting on the call, so log it.
    if (!s.ok()) std::cerr << "moonstack serve: operation on " << job.stack_id << " failed: " << s.message() << "\n";
    Release(job.region, job.stack_name);
    ++unchecked;
  }
}

void OperationRunner::Checkpoint(Database* db) {
  Status s = db->CheckpointWal();
  if (!s.ok()) std::cerr << "moonstack serve: " << s.message() << "\n";
}

}  // namespace ms::server
