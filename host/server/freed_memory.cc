#include "server/freed_memory.h"

#include <chrono>
#include <cstddef>
#include <utility>

#include "base/thread_name.h"

// jemalloc's control interface, when the program is linked with it (weak: a
// build without jemalloc leaves it null).
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));

namespace ms::server {
namespace {

constexpr auto kPeriod = std::chrono::seconds(1);
// MALLCTL_ARENAS_ALL: every arena (there is one, narenas:1).
constexpr const char* kPurgeAll = "arena.4096.purge";

}  // namespace

bool FreedMemoryReturner::Available() { return mallctl != nullptr; }

void FreedMemoryReturner::ReturnNow() {
  if (mallctl != nullptr) mallctl(kPurgeAll, nullptr, nullptr, nullptr, 0);
}

FreedMemoryReturner::FreedMemoryReturner(std::function<bool()> busy) : busy_(std::move(busy)) {
  if (!Available()) return;
  thread_ = std::thread([this] {
    NameThisThread("ms-memory");
    Loop();
  });
}

FreedMemoryReturner::~FreedMemoryReturner() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void FreedMemoryReturner::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, kPeriod, [this] { return stopping_; })) {
    if (busy_()) continue;
    lock.unlock();
    ReturnNow();
    lock.lock();
  }
}

}  // namespace ms::server
