// host/lua limits: runaway provider code fails only its own call, with a
// clear reason, and the same Runtime serves the next call.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

#include <lua.hpp>

#include "lua/limits.h"
#include "lua/runtime.h"

using ms::Value;
using namespace ms::lua;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kCap = size_t{16} << 20;

std::unique_ptr<Runtime> LimitedRuntime() {
  RuntimeOptions o;
  o.limits.deadline = std::chrono::milliseconds(500);  // a memory bomb under load must reach the cap first
  o.limits.memory_bytes = kCap;
  o.print = [](std::string_view) {};
  ms::Status status;
  auto rt = Runtime::Create(o, &status);
  REQUIRE(status.ok());
  return rt;
}

// Runs `code`, expects it to fail with `kind`, and returns the error.
LuaError Fails(Runtime& rt, const std::string& code, LuaErrorKind kind) {
  auto start = Clock::now();
  CallResult r = rt.Eval(code, "=runaway");
  auto took = Clock::now() - start;
  INFO(code);
  REQUIRE_FALSE(r.ok());
  INFO(r.error->Diagnostic());
  CHECK(r.error->kind == kind);
  // Never much past the deadline, whatever the code does.
  CHECK(took < std::chrono::seconds(5));
  return *r.error;
}

// The engine goes on: a normal call on the same Runtime works.
void StillWorks(Runtime& rt) {
  CallResult r = rt.Eval("local t = {} for i = 1, 100 do t[i] = i end return #t", "=normal");
  INFO((r.ok() ? std::string() : r.error->Diagnostic()));
  REQUIRE(r.ok());
  CHECK(r.value().str() == "100");
}

// package.loaded["test.wait"]: wait_then_extend(ms) sleeps `ms` and moves
// the call's deadline later by the time it slept (as a Lambda invocation
// does, lambda_binding.cc); hooked() tells whether a hook is installed.
int WaitThenExtend(lua_State* L) {
  auto begin = Clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(luaL_checkinteger(L, 1)));
  ExtendDeadline(L, Clock::now() - begin);
  return 0;
}
int Hooked(lua_State* L) {
  lua_pushboolean(L, lua_gethook(L) != nullptr);
  return 1;
}
void InstallWait(Runtime& rt) {
  auto open = [](lua_State* L) -> int {
    lua_newtable(L);
    lua_pushcfunction(L, WaitThenExtend);
    lua_setfield(L, -2, "wait_then_extend");
    lua_pushcfunction(L, Hooked);
    lua_setfield(L, -2, "hooked");
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "test.wait");
    return 0;
  };
  REQUIRE(lua_cpcall(rt.state(), open, nullptr) == 0);
}

}  // namespace

TEST_CASE("the memory cap is enforced by the allocator on this platform", "[lua]") {
  auto rt = LimitedRuntime();
  // LuaJIT 2.1 with GC64 accepts lua_newstate's allocator; without it the
  // cap would only be checked in the hook.
  CHECK(rt->hard_memory_cap());
  CHECK(rt->memory_used() > 0);
  CHECK(rt->memory_used() < kCap / 4);
}

TEST_CASE("an endless loop fails its call at the deadline", "[lua]") {
  auto rt = LimitedRuntime();
  LuaError e = Fails(*rt, "while true do end", LuaErrorKind::kDeadline);
  CHECK(e.message == "provider call exceeded its deadline of 500 ms");
  CHECK(e.location == "runaway:1");  // where it was interrupted
  CHECK(e.ToStatus().message().find("runaway:1") != std::string::npos);
  StillWorks(*rt);
}

TEST_CASE("a loop LuaJIT would compile still meets the deadline (the JIT is off)", "[lua]") {
  auto rt = LimitedRuntime();
  LuaError e = Fails(*rt, "local x = 0 for i = 1, 1e12 do x = x + i end return x",
                     LuaErrorKind::kDeadline);
  CHECK(e.message == "provider call exceeded its deadline of 500 ms");
  StillWorks(*rt);
}

TEST_CASE("pcall in provider code cannot swallow the deadline", "[lua]") {
  auto rt = LimitedRuntime();
  Fails(*rt, "while true do pcall(function() while true do end end) end",
        LuaErrorKind::kDeadline);
  Fails(*rt, R"(
    local function spin() while true do end end
    while true do
      xpcall(spin, function(e) while true do end end)
      pcall(error, 'again')
    end)",
        LuaErrorKind::kDeadline);
  // Inside a coroutine too.
  Fails(*rt, "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        LuaErrorKind::kDeadline);
  // A __tostring that calls tostring on itself is an endless tail-call loop.
  Fails(*rt, "local t = setmetatable({}, { __tostring = function(t) return tostring(t) end }) "
             "return tostring(t)",
        LuaErrorKind::kDeadline);
  StillWorks(*rt);
}

TEST_CASE("a call in time runs without a hook and a moved deadline is kept", "[lua]") {
  auto rt = LimitedRuntime();  // 500 ms
  InstallWait(*rt);
  // No hook while in time (call_watchdog.h): the interpreter runs at full speed.
  CallResult r = rt->Eval("return require('test.wait').hooked()", "=in_time");
  REQUIRE(r.ok());
  CHECK(r.value().ToJson() == "false");
  // The watchdog fires during the wait; the moved deadline makes that call
  // in time after all, so it runs on, without the hook again.
  r = rt->Eval("local w = require('test.wait') w.wait_then_extend(700) "
               "local x = 0 for i = 1, 100000 do x = x + 1 end return w.hooked() and -1 or x", "=extended");
  INFO((r.ok() ? std::string() : r.error->Diagnostic()));
  REQUIRE(r.ok());
  CHECK(r.value().ToJson() == "100000");
  // ... and it is still watched to its new deadline: 500 ms of its own.
  auto start = Clock::now();
  LuaError e = Fails(*rt, "require('test.wait').wait_then_extend(700) while true do end", LuaErrorKind::kDeadline);
  auto took = Clock::now() - start;
  CHECK(e.message == "provider call exceeded its deadline of 500 ms");
  CHECK(took >= std::chrono::milliseconds(1200));
  // An aborted call leaves no hook behind.
  r = rt->Eval("return require('test.wait').hooked()", "=after");
  REQUIRE(r.ok());
  CHECK(r.value().ToJson() == "false");
  StillWorks(*rt);
}

TEST_CASE("two runtimes overdue at once on two threads each fail at their own deadline", "[lua]") {
  // The watchdog sleeps until the earliest deadline it watches: a shorter
  // one armed later must wake it (call_watchdog.cc).
  // No Catch assertion runs off the test's thread (they are not thread-safe).
  auto runaway = [](std::chrono::milliseconds deadline, CallResult* result, Clock::duration* took) {
    RuntimeOptions o;
    o.limits.deadline = deadline;
    ms::Status status;
    auto rt = Runtime::Create(o, &status);
    if (!rt) return;  // *result keeps no error: the REQUIREs below fail
    auto start = Clock::now();
    *result = rt->Eval("while true do end", "=runaway");
    *took = Clock::now() - start;
  };
  CallResult slow, fast;
  Clock::duration slow_took{}, fast_took{};
  std::thread slow_thread([&] { runaway(std::chrono::milliseconds(2000), &slow, &slow_took); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the slow call is armed first
  runaway(std::chrono::milliseconds(100), &fast, &fast_took);
  slow_thread.join();
  REQUIRE(fast.error.has_value());
  CHECK(fast.error->message == "provider call exceeded its deadline of 100 ms");
  CHECK(fast_took >= std::chrono::milliseconds(100));
  CHECK(fast_took < std::chrono::milliseconds(1500));  // not held to the slow call's deadline (loose: CI is busy)
  REQUIRE(slow.error.has_value());
  CHECK(slow.error->message == "provider call exceeded its deadline of 2 s");
  CHECK(slow_took >= std::chrono::milliseconds(2000));
}

TEST_CASE("the deadline is configurable", "[lua]") {
  auto rt = LimitedRuntime();
  Limits l = rt->limits();
  l.deadline = std::chrono::milliseconds(1500);
  l.hook_instructions = 10000;
  REQUIRE(rt->set_limits(l).ok());
  auto start = Clock::now();
  CallResult r = rt->Eval("while true do end", "=spin");
  auto took = Clock::now() - start;
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "provider call exceeded its deadline of 1.5 s");
  CHECK(took >= std::chrono::milliseconds(1500));
  CHECK(took < std::chrono::milliseconds(4000));  // loose: CI machines are busy
  l.deadline = std::chrono::milliseconds(2000);
  l.memory_bytes = size_t{64} << 20;
  REQUIRE(rt->set_limits(l).ok());
  CHECK(DeadlineMessage(rt->limits()) == "provider call exceeded its deadline of 2 s");
  CHECK(MemoryMessage(rt->limits()) == "provider call exceeded its memory limit of 64 MiB");
}

TEST_CASE("deep Lua recursion fails with a stack overflow", "[lua]") {
  auto rt = LimitedRuntime();
  LuaError e = Fails(*rt, "local function f() return 1 + f() end return f()",
                     LuaErrorKind::kStackOverflow);
  CHECK(e.message == "stack overflow");
  // LuaJIT has no stack left to run the message handler after an overflow,
  // so there is usually no position; when there is, the traceback is cut.
  CHECK(e.traceback.size() < 4000);
  // __index chains are bounded the same way.
  Fails(*rt, "local t = setmetatable({}, { __index = function(t, k) return t[k] end }) return t.x",
        LuaErrorKind::kStackOverflow);
  StillWorks(*rt);
}

TEST_CASE("C-stack-eating patterns fail with a stack overflow, not a crash", "[lua]") {
  auto rt = LimitedRuntime();
  // Without the guards each of these overflows the C stack (SIGSEGV).
  const char* patterns[] = {
      "local function f() return (string.gsub('x', 'x', function() return f() end)) end f()",
      "local function f() return string.format('%s', setmetatable({}, { __tostring = f })) end f()",
      "local function f() table.sort({ 1, 2 }, function(a, b) f() return a < b end) end f()",
      "local function f() coroutine.wrap(f)() end f()",
      "local function f() local co = coroutine.create(f) local ok, e = coroutine.resume(co) "
      "error(e, 0) end f()",
      "local function f() return load(function() f() end) end f()",
      "local function f() print(setmetatable({}, { __tostring = f })) end f()",
      "local n = 0 package.preload.x = function() n = n + 1 package.preload['x' .. n] = "
      "package.preload.x return require('x' .. n) end require('x')",
  };
  for (const char* code : patterns) {
    LuaError e = Fails(*rt, code, LuaErrorKind::kStackOverflow);
    CHECK(e.message.find("stack overflow") == 0);
  }
  StillWorks(*rt);
}

TEST_CASE("pcall and xpcall chains do not eat the C stack", "[lua]") {
  auto rt = LimitedRuntime();
  // pcall is a VM fast function in LuaJIT: the chain ends in a caught
  // "stack overflow" and the call itself succeeds.
  CallResult r = rt->Eval("local function f() return pcall(f) end return f()", "=chain");
  REQUIRE(r.ok());
  CHECK(r.value().is_bool());
  r = rt->Eval("local function f() return select(2, xpcall(f, f)) end f() return 1", "=chain");
  REQUIRE(r.ok());
  StillWorks(*rt);
}

TEST_CASE("a memory bomb fails its call at the memory cap", "[lua]") {
  auto rt = LimitedRuntime();
  // LuaJIT interns every string, so repeating the same string.rep only adds
  // table slots: that loop meets the deadline long before the cap.
  Fails(*rt, "local t = {} while true do t[#t + 1] = string.rep('x', 1e6) end",
        LuaErrorKind::kDeadline);
  // Distinct strings are a real bomb.
  LuaError e = Fails(*rt, "local t = {} while true do t[#t + 1] = string.rep('x', 1e6) .. #t end",
                     LuaErrorKind::kMemory);
  CHECK(e.message == "provider call exceeded its memory limit of 16 MiB");
  CHECK(e.ToStatus().message().find("memory limit of 16 MiB") != std::string::npos);
  // The bomb's garbage is collected before the next call.
  CHECK(rt->memory_used() < kCap / 4);
  StillWorks(*rt);

  // Other shapes: one huge string, a growing table, caught and retried.
  Fails(*rt, "return string.rep('x', 1e9)", LuaErrorKind::kMemory);
  Fails(*rt, "local t = {} for i = 1, 1e9 do t[i] = i end", LuaErrorKind::kMemory);
  Fails(*rt, "local s = 'x' while true do s = s .. s end", LuaErrorKind::kMemory);
  Fails(*rt, R"(
    while true do
      pcall(function() local t = {} while true do t[#t + 1] = string.rep('y', 1e6) .. #t end end)
    end)",
        LuaErrorKind::kMemory);
  CHECK(rt->memory_used() < kCap / 4);
  StillWorks(*rt);
}

TEST_CASE("a call that reached the cap fails even if it caught the error", "[lua]") {
  auto rt = LimitedRuntime();
  LuaError e = Fails(*rt, "local ok = pcall(string.rep, 'x', 1e8) return ok", LuaErrorKind::kMemory);
  CHECK(e.message == "provider call exceeded its memory limit of 16 MiB");
  StillWorks(*rt);
}

TEST_CASE("limit messages read naturally", "[lua]") {
  using std::chrono::milliseconds;
  CHECK(FormatDuration(milliseconds(100)) == "100 ms");
  CHECK(FormatDuration(milliseconds(2000)) == "2 s");
  CHECK(FormatDuration(milliseconds(1500)) == "1.5 s");
  CHECK(FormatDuration(milliseconds(60000)) == "60 s");
  CHECK(FormatBytes(size_t{64} << 20) == "64 MiB");
  CHECK(FormatBytes(size_t{1536} << 10) == "1.5 MiB");
  CHECK(FormatBytes(size_t{10000} << 20) == "10000 MiB");
  CHECK(FormatBytes(512 * 1024) == "512 KiB");
  CHECK(FormatBytes(100) == "100 bytes");
}

TEST_CASE("values too big for the cap fail as a memory error", "[lua]") {
  auto rt = LimitedRuntime();
  Value big = Value::MakeList();
  for (int i = 0; i < 40; ++i) {
    big.mutable_list().push_back(Value::String(std::string(1 << 20, 'z') + std::to_string(i)));
  }
  CallResult r = rt->NewRef(big);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->kind == LuaErrorKind::kMemory);
  StillWorks(*rt);
}

TEST_CASE("limits apply to every call of a long-lived runtime", "[lua]") {
  auto rt = LimitedRuntime();
  for (int i = 0; i < 3; ++i) {
    Fails(*rt, "while true do end", LuaErrorKind::kDeadline);
    Fails(*rt, "local t = {} while true do t[#t + 1] = {} end", LuaErrorKind::kMemory);
    Fails(*rt, "local function f() return 1 + f() end f()", LuaErrorKind::kStackOverflow);
    StillWorks(*rt);
  }
}
