// ConnectionThreads: cpp-httplib's TaskQueue for `moonstack serve`: a thread
// per connection, started when a connection finds none free, up to `max`
// (more connections wait for one). cpp-httplib's own pool has 8 threads, so
// 8 idle keep-alive or slow clients stall every other one (http_server.h).
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ms::server {

class ConnectionThreads : public httplib::TaskQueue {
 public:
  explicit ConnectionThreads(size_t max) : max_(max < 1 ? 1 : max) {}
  ~ConnectionThreads() override { shutdown(); }

  void enqueue(std::function<void()> fn) override;
  // Runs what is queued, then joins every thread.
  void shutdown() override;
  // True while a connection waits for a thread: an idle keep-alive
  // connection then gives its own up.
  bool Starved();

 private:
  void Work();

  const size_t max_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  size_t idle_ = 0;      // threads waiting for a job
  size_t starting_ = 0;  // threads started that have not taken a job yet
  bool shutdown_ = false;
};

}  // namespace ms::server
