#include "lua/limits.h"

#include <cstdio>
#include <cstdlib>

#include <lua.hpp>

#include "lua/call_watchdog.h"

namespace ms::lua {
namespace {

using Clock = std::chrono::steady_clock;

// Registry key (its address) of the LimitState when the allocator is not ours.
char g_limit_state_key;

// 2 -> "2", 1.5 -> "1.5", 1.25 -> "1.25" (two decimals at most).
std::string Trimmed(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

size_t CountedBytes(lua_State* L) {
  return static_cast<size_t>(lua_gc(L, LUA_GCCOUNT, 0)) * 1024 +
         static_cast<size_t>(lua_gc(L, LUA_GCCOUNTB, 0));
}

void CountHook(lua_State* L, lua_Debug*);

// lua_sethook on `ls`'s state; under the watchdog's lock where the watchdog
// may install hooks on it too.
void SetHook(LimitState* ls, lua_Hook hook, int mask, int count) {
  if (ls->hard_memory) {
    CallWatchdog::Instance().SetHook(ls->state, hook, mask, count);
  } else {
    lua_sethook(ls->state, hook, mask, count);
  }
}

// Aborts the running call for `why` (unless an abort is already under way)
// and raises the abort's interned message.
void RaiseAbort(lua_State* L, LimitState* ls, Abort why) {
  if (ls->abort == Abort::kNone) {
    ls->abort = why;
    // From now on every instruction raises: a pcall in provider code gets
    // control back only until its next instruction.
    SetHook(ls, CountHook, LUA_MASKCOUNT, 1);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX,
              ls->abort == Abort::kMemory ? ls->memory_message_ref : ls->deadline_message_ref);
  lua_error(L);
}

// The count hook: installed by the watchdog at the deadline or by a refused
// allocation (hard cap), or every `hook_instructions` instructions (soft cap).
void CountHook(lua_State* L, lua_Debug*) {
  LimitState* ls = LimitStateOf(L);
  if (ls == nullptr) return;
  if (ls->call_depth == 0) {
    if (ls->hard_memory) SetHook(ls, nullptr, 0, 0);
    return;
  }
  if (ls->abort == Abort::kNone) {
    if (ls->refused || (!ls->hard_memory && CountedBytes(L) > ls->limits.memory_bytes)) {
      RaiseAbort(L, ls, Abort::kMemory);
    } else if (Clock::now() >= ls->deadline) {
      RaiseAbort(L, ls, Abort::kDeadline);
    } else if (ls->hard_memory) {
      // In time after all: the deadline moved (ExtendDeadline) after the
      // watchdog fired. Run without the hook again, watched to the new one.
      SetHook(ls, nullptr, 0, 0);
      CallWatchdog::Instance().Arm(ls->state, ls->deadline, CountHook);
    }
    return;
  }
  RaiseAbort(L, ls, ls->abort);
}

// A refused allocation fails the call: the hook aborts it at its next
// instruction even if provider code catches LuaJIT's "not enough memory".
void Refuse(LimitState* ls) {
  ls->refused = true;
  if (ls->call_depth > 0 && ls->state != nullptr) SetHook(ls, CountHook, LUA_MASKCOUNT, 1);
}

void SetMessage(lua_State* L, int* ref, const std::string& text) {
  if (*ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, *ref);
  lua_pushlstring(L, text.data(), text.size());
  *ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

}  // namespace

std::string FormatDuration(std::chrono::milliseconds d) {
  long long ms = d.count();
  if (ms >= 1000) {
    if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
    return Trimmed(static_cast<double>(ms) / 1000.0) + " s";
  }
  return std::to_string(ms) + " ms";
}

std::string FormatBytes(size_t bytes) {
  constexpr size_t kKiB = 1024, kMiB = 1024 * 1024;
  if (bytes >= kMiB) return Trimmed(static_cast<double>(bytes) / kMiB) + " MiB";
  if (bytes >= kKiB) return Trimmed(static_cast<double>(bytes) / kKiB) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::string DeadlineMessage(const Limits& l) {
  return "provider call exceeded its deadline of " + FormatDuration(l.deadline);
}

std::string MemoryMessage(const Limits& l) {
  return "provider call exceeded its memory limit of " + FormatBytes(l.memory_bytes);
}

void* LimitedAlloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* ls = static_cast<LimitState*>(ud);
  if (ptr == nullptr) osize = 0;  // Lua passes a type tag or garbage here
  if (nsize == 0) {
    std::free(ptr);
    ls->used -= osize;
    return nullptr;
  }
  if (nsize > osize) {
    size_t room = ls->limits.memory_bytes > ls->used ? ls->limits.memory_bytes - ls->used : 0;
    if (nsize - osize > room) {
      Refuse(ls);
      return nullptr;  // LuaJIT raises LUA_ERRMEM ("not enough memory")
    }
  }
  // A new block through malloc: jemalloc's fast path (its realloc of NULL
  // is not, and LuaJIT allocates hundreds of blocks per provider hook).
  void* p = ptr == nullptr ? std::malloc(nsize) : std::realloc(ptr, nsize);
  if (p == nullptr) {
    Refuse(ls);
    return nullptr;
  }
  ls->used = ls->used - osize + nsize;
  return p;
}

LimitState* LimitStateOf(lua_State* L) {
  void* ud = nullptr;
  if (lua_getallocf(L, &ud) == LimitedAlloc) return static_cast<LimitState*>(ud);
  lua_pushlightuserdata(L, &g_limit_state_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  auto* ls = static_cast<LimitState*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return ls;
}

void InstallLimits(lua_State* L, LimitState* ls) {
  lua_pushlightuserdata(L, &g_limit_state_key);
  lua_pushlightuserdata(L, ls);
  lua_rawset(L, LUA_REGISTRYINDEX);
  ls->state = L;
  RefreshLimitMessages(L, ls);
}

void RefreshLimitMessages(lua_State* L, LimitState* ls) {
  SetMessage(L, &ls->deadline_message_ref, DeadlineMessage(ls->limits));
  SetMessage(L, &ls->memory_message_ref, MemoryMessage(ls->limits));
  if (ls->call_depth == 0 && !ls->hard_memory) lua_sethook(L, CountHook, LUA_MASKCOUNT, ls->limits.hook_instructions);
}

void BeginCall(lua_State* L, LimitState* ls, uintptr_t c_stack_base) {
  if (ls->call_depth++ > 0) return;  // a nested call runs under the outer one's limits
  ls->abort = Abort::kNone;
  ls->refused = false;
  ls->c_stack_overflow = false;
  ls->deadline = Clock::now() + ls->limits.deadline;
  ls->c_stack_base = c_stack_base;
  if (ls->hard_memory) CallWatchdog::Instance().Arm(ls->state, ls->deadline, CountHook);
}

void EndCall(lua_State* L, LimitState* ls) {
  if (--ls->call_depth > 0) return;
  if (ls->hard_memory) {
    CallWatchdog::Instance().Disarm(ls->state);  // and removes its hook, an abort's too
  } else if (ls->abort != Abort::kNone) {
    lua_sethook(L, CountHook, LUA_MASKCOUNT, ls->limits.hook_instructions);
  }
  ls->abort = Abort::kNone;
  ls->refused = false;
  ls->c_stack_overflow = false;
  ls->c_stack_base = 0;
}

bool CallOverdue(lua_State* L) {
  LimitState* ls = LimitStateOf(L);
  if (ls == nullptr || ls->call_depth == 0) return false;
  return ls->abort != Abort::kNone || Clock::now() >= ls->deadline;
}

void ExtendDeadline(lua_State* L, std::chrono::steady_clock::duration d) {
  LimitState* ls = LimitStateOf(L);
  if (ls != nullptr && ls->call_depth > 0 && ls->abort == Abort::kNone) {
    ls->deadline += d;
    if (ls->hard_memory) CallWatchdog::Instance().Arm(ls->state, ls->deadline, CountHook);
  }
}

void CheckDeadline(lua_State* L) {
  LimitState* ls = LimitStateOf(L);
  if (ls == nullptr || ls->call_depth == 0) return;
  if (ls->abort != Abort::kNone) {
    RaiseAbort(L, ls, ls->abort);
  } else if (Clock::now() >= ls->deadline) {
    RaiseAbort(L, ls, Abort::kDeadline);
  }
}

void CheckCStack(lua_State* L) {
  LimitState* ls = LimitStateOf(L);
  if (ls == nullptr || ls->c_stack_base == 0) return;
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  // The stack grows down on every platform LuaJIT's x64/arm64 ports run on.
  if (here < ls->c_stack_base && ls->c_stack_base - here > ls->limits.c_stack_bytes) {
    ls->c_stack_overflow = true;
    // No position prefix: the message handler finds the provider's line.
    lua_pushstring(L, kCStackOverflow);
    lua_error(L);
  }
}

}  // namespace ms::lua
