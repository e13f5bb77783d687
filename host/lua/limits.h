// Limits on provider code: a wall-clock deadline per call, a hard memory cap
// per lua_State and a C-stack budget, and the machinery that enforces them.
//
// - Memory: the state is created with LimitedAlloc (lua_newstate). An
//   allocation that would take the state past the cap is refused, so LuaJIT
//   raises "not enough memory" at that point: the cap is hard. Only where
//   lua_newstate is unavailable (LuaJIT 2.1 on x64 without GC64) does the count
//   hook compare lua_gc(LUA_GCCOUNT) with the cap instead (soft, overshoots by
//   what a few thousand instructions allocate); Runtime::hard_memory_cap() says
//   which one is in force.
// - Deadline: the JIT compiler is off for the whole state, so every instruction
//   runs in the interpreter, where hooks run (LuaJIT does not run hooks inside
//   compiled traces, which is why the JIT must stay off). A call runs without a
//   hook: it arms the process's watchdog (call_watchdog.h), whose thread
//   installs a count hook on a call still running at its deadline. The hook
//   finds the call overdue and aborts it. A refused allocation installs the
//   hook at once. Only with the soft memory cap (no LimitedAlloc) does the count
//   hook stay installed, every `hook_instructions` instructions, reading the
//   clock and the state's memory count itself.
// - Once a limit is hit the call is *aborted*: the hook then fires on every
//   instruction and raises again, so `pcall` in provider code cannot swallow
//   the abort (it gets control back only to be interrupted at its next
//   instruction).
// - Long C functions: the hook never fires while a C function runs, so the
//   ones that can run long without Lua instructions check the deadline
//   themselves (CheckDeadline; the pattern functions every 1,000 matcher
//   steps, see string_lib.h).
// - C stack: the C functions that call back into Lua (string.gsub with a
//   function, table.sort, coroutine.resume, load, require, print) check how
//   much C stack the call has used, so nested callbacks fail with "stack
//   overflow (C stack)" instead of crashing the process. Lua-to-Lua calls use
//   the Lua stack, which LuaJIT bounds itself ("stack overflow").
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

struct lua_State;
struct lua_Debug;

namespace ms::lua {

struct Limits {
  // Wall-clock time one call into provider code may take.
  std::chrono::milliseconds deadline{2000};
  // Bytes the whole state may hold (modules, data, not yet collected garbage).
  size_t memory_bytes = size_t{64} << 20;
  // C stack one call may use below the point where it entered the runtime.
  // Worker threads need at least this plus ~256 KiB of stack.
  size_t c_stack_bytes = size_t{1} << 20;
  // With the soft memory cap only: how often (in VM instructions) the count
  // hook looks at the clock and the memory count.
  int hook_instructions = 1000;
};

// "2 s", "100 ms", "1.5 s"; "64 MiB", "512 KiB", "100 bytes".
std::string FormatDuration(std::chrono::milliseconds d);
std::string FormatBytes(size_t bytes);

enum class Abort : uint8_t { kNone, kDeadline, kMemory };

// Per-state bookkeeping shared by the allocator, the hook and the guards.
// Owned by the Runtime; its address is the allocator's userdata.
struct LimitState {
  Limits limits;
  bool hard_memory = false;  // LimitedAlloc is the state's allocator; the watchdog keeps the deadline
  lua_State* state = nullptr;  // the state (its main thread) once InstallLimits ran
  size_t used = 0;           // bytes currently allocated (hard mode)
  bool refused = false;      // an allocation was refused during this call
  bool c_stack_overflow = false;  // CheckCStack raised during this call
  int call_depth = 0;        // > 0 while a Runtime call runs
  Abort abort = Abort::kNone;
  std::chrono::steady_clock::time_point deadline;
  uintptr_t c_stack_base = 0;  // frame address where the outermost call began
  // Registry references to the two abort messages, interned up front so the
  // hook can raise them without allocating (the state may be at its cap).
  int deadline_message_ref = -2;  // LUA_NOREF
  int memory_message_ref = -2;
};

// lua_Alloc enforcing ls->limits.memory_bytes. Frees and shrinks always
// succeed; a growth past the cap returns NULL and sets `refused`.
void* LimitedAlloc(void* ud, void* ptr, size_t osize, size_t nsize);

// The LimitState of `L`, or nullptr when the state has none.
LimitState* LimitStateOf(lua_State* L);

// Anchors the abort messages and, with the soft memory cap, installs the
// count hook; also registers `ls` so LimitStateOf works when LimitedAlloc is
// not the allocator. Must run in protected mode (it allocates).
void InstallLimits(lua_State* L, LimitState* ls);

// Re-interns the abort messages after the limits changed. Protected mode.
void RefreshLimitMessages(lua_State* L, LimitState* ls);

// Begin/end of an outermost call: sets the deadline (arming the watchdog)
// and the C stack base; End disarms it, resets the abort state and removes
// the hook an abort installed (the soft cap's: back to its frequency).
void BeginCall(lua_State* L, LimitState* ls, uintptr_t c_stack_base);
void EndCall(lua_State* L, LimitState* ls);

// True when the running call is past its deadline or already aborted.
// Never raises: for code that must unwind its own frames before raising (the
// pattern matcher's step hook).
bool CallOverdue(lua_State* L);

// Aborts the running call as the count hook would once it is past its
// deadline (or re-raises an abort already under way), so that pcall in
// provider code cannot swallow it; returns when the call is in time or no
// call is running. For C functions that run long without Lua instructions.
void CheckDeadline(lua_State* L);

// Moves the running call's deadline later by `d` (no call running: nothing):
// for a C function that waits on something outside the state — a Lambda
// invocation (lambda_binding.cc) — whose time is not the Lua code's.
void ExtendDeadline(lua_State* L, std::chrono::steady_clock::duration d);

// Raises "stack overflow (C stack)" when the running call has used more than
// its C-stack budget. For C functions that call back into Lua.
void CheckCStack(lua_State* L);

std::string DeadlineMessage(const Limits& l);
std::string MemoryMessage(const Limits& l);
inline constexpr const char* kCStackOverflow = "stack overflow (C stack)";

}  // namespace ms::lua
