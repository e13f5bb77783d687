// CallWatchdog: one process-wide thread that interrupts Lua calls running
// past their deadline, so a state in time runs without a hook at all.
//
// Why: a count hook makes LuaJIT's interpreter dispatch every instruction
// through its hook check (lj_vm_inshook), whatever the count; that was about
// a sixth of the CPU of a provider-heavy operation (10,000 security groups:
// 2.7 s of user time with the hook, 2.25 s without). Instead a call arms the
// watchdog with its deadline (limits.h BeginCall) and disarms it when it
// ends. A call still running at its deadline gets the count hook installed
// from the watchdog's thread (lua_sethook, the call LuaJIT's own front end
// makes from a signal handler to stop a script); the hook then finds the
// call overdue and aborts it as before (limits.cc).
//
// The hook is installed again every kRefire while the call stays armed: a
// lua_sethook racing with the interpreter's own update of its hook flags
// (around a __gc finalizer) could be lost, a second one is not.
#pragma once

#include <chrono>

struct lua_State;
struct lua_Debug;

namespace ms::lua {

using WatchdogHook = void (*)(lua_State*, lua_Debug*);

class CallWatchdog {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kRefire{50};

  // The process's watchdog; its thread starts with the first Arm.
  static CallWatchdog& Instance();

  // Watches `L`'s call until Disarm: at `deadline` (and every kRefire after)
  // installs `hook` as a count hook firing at every instruction. Arming a
  // state already armed moves its deadline (ExtendDeadline).
  void Arm(lua_State* L, Clock::time_point deadline, WatchdogHook hook);

  // Stops watching `L` and removes any hook the watchdog installed. After it
  // returns the watchdog no longer touches `L`.
  void Disarm(lua_State* L);

  // lua_sethook on an armed state, from the state's own thread (the hook
  // raising its abort, the hook giving up a spurious firing): serialized
  // with the watchdog's own calls on the state.
  void SetHook(lua_State* L, WatchdogHook hook, int mask, int count);

  CallWatchdog(const CallWatchdog&) = delete;
  CallWatchdog& operator=(const CallWatchdog&) = delete;

 private:
  struct Impl;
  CallWatchdog();
  Impl* const d_;  // never freed, like the instance
};

}  // namespace ms::lua
