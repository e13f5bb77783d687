#include "lambda/environment_pool.h"

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace ms::lambda {
namespace {

using Idle = std::deque<std::unique_ptr<ExecutionEnvironment>>;  // oldest first

struct Pool {
  std::mutex mu;
  std::condition_variable wake;  // the reaper's
  std::map<std::string, Idle> idle;
  size_t count = 0;
  PoolLimits limits;
  bool reaper_started = false;
};

// Never destroyed: the reaper thread and the atexit handler use it until the
// very end of the process.
Pool& ThePool() {
  static Pool* pool = new Pool();
  return *pool;
}

// Takes out (under the lock) the environments idle since before `cutoff`;
// the caller destroys them after unlocking (killing a process waits for it).
void TakeExpired(Pool& pool, Clock::time_point cutoff, std::vector<std::unique_ptr<ExecutionEnvironment>>* out) {
  for (auto it = pool.idle.begin(); it != pool.idle.end();) {
    Idle& envs = it->second;
    while (!envs.empty() && envs.front()->idle_since <= cutoff) {
      out->push_back(std::move(envs.front()));
      envs.pop_front();
      --pool.count;
    }
    it = envs.empty() ? pool.idle.erase(it) : std::next(it);
  }
}

// The least recently used idle environment, taken out to make room.
std::unique_ptr<ExecutionEnvironment> TakeOldest(Pool& pool) {
  auto oldest = pool.idle.end();
  for (auto it = pool.idle.begin(); it != pool.idle.end(); ++it) {  // at most `total` keys
    if (oldest == pool.idle.end() || it->second.front()->idle_since < oldest->second.front()->idle_since) oldest = it;
  }
  if (oldest == pool.idle.end()) return nullptr;
  std::unique_ptr<ExecutionEnvironment> env = std::move(oldest->second.front());
  oldest->second.pop_front();
  if (oldest->second.empty()) pool.idle.erase(oldest);
  --pool.count;
  return env;
}

void ReapForever() {
  Pool& pool = ThePool();
  for (;;) {
    std::vector<std::unique_ptr<ExecutionEnvironment>> expired;
    {
      std::unique_lock<std::mutex> lock(pool.mu);
      pool.wake.wait_for(lock, pool.limits.idle / 4 + std::chrono::milliseconds(10));
      TakeExpired(pool, Clock::now() - pool.limits.idle, &expired);
    }
  }
}

}  // namespace

std::unique_ptr<ExecutionEnvironment> TakeEnvironment(const std::string& key) {
  Pool& pool = ThePool();
  std::vector<std::unique_ptr<ExecutionEnvironment>> dead;
  std::unique_ptr<ExecutionEnvironment> found;
  {
    std::lock_guard<std::mutex> lock(pool.mu);
    auto it = pool.idle.find(key);
    while (it != pool.idle.end() && !it->second.empty() && !found) {
      std::unique_ptr<ExecutionEnvironment> env = std::move(it->second.back());  // the most recently used
      it->second.pop_back();
      --pool.count;
      if (env->Alive()) found = std::move(env); else dead.push_back(std::move(env));
    }
    if (it != pool.idle.end() && it->second.empty()) pool.idle.erase(it);
  }
  return found;
}

void ReturnEnvironment(const std::string& key, std::unique_ptr<ExecutionEnvironment> env) {
  Pool& pool = ThePool();
  std::unique_ptr<ExecutionEnvironment> evicted;
  {
    std::lock_guard<std::mutex> lock(pool.mu);
    if (!pool.reaper_started) {
      pool.reaper_started = true;
      std::atexit(ClearEnvironments);
      std::thread(ReapForever).detach();
    }
    if (pool.limits.per_key == 0 || pool.limits.total == 0) return;  // nothing is kept: `env` goes
    auto same = pool.idle.find(key);
    if (same != pool.idle.end() && same->second.size() >= pool.limits.per_key) {
      evicted = std::move(same->second.front());
      same->second.pop_front();
      --pool.count;
    } else if (pool.count >= pool.limits.total) {
      evicted = TakeOldest(pool);
    }
    env->idle_since = Clock::now();
    pool.idle[key].push_back(std::move(env));
    ++pool.count;
  }
  // `evicted` is killed here, outside the lock.
}

void ClearEnvironments() {
  Pool& pool = ThePool();
  std::map<std::string, Idle> all;
  {
    std::lock_guard<std::mutex> lock(pool.mu);
    all.swap(pool.idle);
    pool.count = 0;
  }
}

size_t IdleEnvironmentCount() {
  Pool& pool = ThePool();
  std::lock_guard<std::mutex> lock(pool.mu);
  return pool.count;
}

void SetPoolLimits(const PoolLimits& limits) {
  Pool& pool = ThePool();
  std::lock_guard<std::mutex> lock(pool.mu);
  pool.limits = limits;
  pool.wake.notify_all();
}

}  // namespace ms::lambda
