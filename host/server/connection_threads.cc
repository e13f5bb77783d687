#include "server/connection_threads.h"

#include "base/thread_name.h"

namespace ms::server {

void ConnectionThreads::enqueue(std::function<void()> fn) {
  std::lock_guard<std::mutex> lock(mu_);
  jobs_.push_back(std::move(fn));
  if (jobs_.size() > idle_ + starting_ && threads_.size() < max_) {
    ++starting_;
    threads_.emplace_back([this] {
      NameThisThread("ms-http");
      Work();
    });
  } else {
    cv_.notify_one();
  }
}

void ConnectionThreads::shutdown() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
    threads.swap(threads_);
  }
  cv_.notify_all();
  for (std::thread& t : threads) t.join();
}

bool ConnectionThreads::Starved() {
  std::lock_guard<std::mutex> lock(mu_);
  return jobs_.size() > idle_ + starting_;
}

void ConnectionThreads::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  --starting_;
  while (true) {
    ++idle_;
    cv_.wait(lock, [this] { return shutdown_ || !jobs_.empty(); });
    --idle_;
    if (jobs_.empty()) return;  // shut down, nothing left to run
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

}  // namespace ms::server
