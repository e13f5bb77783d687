#include "lua/call_watchdog.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <lua.hpp>

namespace ms::lua {

struct CallWatchdog::Impl {
  struct Entry {
    lua_State* L;
    Clock::time_point deadline;  // next time to install the hook
    WatchdogHook hook;
    bool hooked;  // the watchdog installed the hook: Disarm removes it
  };

  std::mutex mu;
  std::condition_variable wake;
  // The armed states: as many as threads running Lua at once, so a scan.
  std::vector<Entry> armed;
  // When the thread wakes next; an Arm with an earlier deadline wakes it.
  Clock::time_point wake_at = Clock::time_point::max();
  bool started = false;

  Entry* Find(lua_State* L) {
    for (Entry& e : armed) {
      if (e.L == L) return &e;
    }
    return nullptr;
  }

  // The thread: sleeps until the earliest deadline, hooks every state past
  // its own, and sleeps again. With nothing armed it looks once a second
  // (an Arm then does not have to wake it: deadlines are seconds long, and a
  // shorter one does wake it).
  void Loop() {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      Clock::time_point now = Clock::now();
      Clock::time_point next = now + std::chrono::seconds(1);
      for (Entry& e : armed) {
        if (e.deadline <= now) {
          lua_sethook(e.L, e.hook, LUA_MASKCOUNT, 1);
          e.hooked = true;
          e.deadline = now + kRefire;
        }
        next = std::min(next, e.deadline);
      }
      wake_at = next;
      wake.wait_until(lock, next);
    }
  }
};

CallWatchdog::CallWatchdog() : d_(new Impl()) {}

CallWatchdog& CallWatchdog::Instance() {
  // Never destroyed: its detached thread may run while the process exits.
  static CallWatchdog* instance = new CallWatchdog();
  return *instance;
}

void CallWatchdog::Arm(lua_State* L, Clock::time_point deadline, WatchdogHook hook) {
  Impl* d = d_;
  std::lock_guard<std::mutex> lock(d->mu);
  if (!d->started) {
    d->started = true;
    std::thread([d] { d->Loop(); }).detach();
  }
  if (Impl::Entry* e = d->Find(L)) {
    e->deadline = deadline;
  } else {
    d->armed.push_back({L, deadline, hook, false});
  }
  if (deadline < d->wake_at) {
    d->wake_at = deadline;
    d->wake.notify_one();
  }
}

void CallWatchdog::Disarm(lua_State* L) {
  Impl* d = d_;
  std::lock_guard<std::mutex> lock(d->mu);
  for (size_t i = 0; i < d->armed.size(); ++i) {
    if (d->armed[i].L != L) continue;
    if (d->armed[i].hooked) lua_sethook(L, nullptr, 0, 0);
    d->armed[i] = d->armed.back();
    d->armed.pop_back();
    return;
  }
}

void CallWatchdog::SetHook(lua_State* L, WatchdogHook hook, int mask, int count) {
  Impl* d = d_;
  std::lock_guard<std::mutex> lock(d->mu);
  lua_sethook(L, hook, mask, count);
  if (Impl::Entry* e = d->Find(L)) e->hooked = hook != nullptr;
}

}  // namespace ms::lua
