// The host's pattern functions (host/lua/string_lib.h) against LuaJIT's
// originals, in one unsandboxed state with the Runtime's allocator and the
// JIT off (as in the Runtime): the same Lua loop calls
// string.find/match/gmatch/gsub, then the host's. Prints ns per call for N
// calls (default 1,000,000).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <lua.hpp>

#include "lua/limits.h"
#include "lua/string_lib.h"

using Clock = std::chrono::steady_clock;

namespace {

struct Case {
  const char* name;
  const char* loop;  // uses `lib` (the function table) and `n`
};

const Case kCases[] = {
    {"find plain     ", "local f = lib.find for i = 1, n do f('us-east-1a', 'east') end"},
    {"find anchored  ", "local f = lib.find for i = 1, n do f('subnet-0a1b2c', '^subnet%-') end"},
    {"find unanchored", "local f = lib.find for i = 1, n do f('vpc-0a1b2c3d4e5f', '%d%a$') end"},
    {"match captures ",
     "local f = lib.match for i = 1, n do f('arn:aws:s3:::bucket/key', '^arn:(%w+):(%w+):') end"},
    {"find 1 KB, none",
     "local f, s = lib.find, string.rep('x', 1000) for i = 1, n / 100 do f(s, '%d%d') end"},
    {"gmatch 3 words ",
     "local f = lib.gmatch for i = 1, n do for w in f('a b c', '%a+') do end end"},
    {"gsub string    ", "local f = lib.gsub for i = 1, n do f('10.0.1.0/24', '[./]', '') end"},
    {"gsub function  ",
     "local f = lib.gsub local up = string.upper "
     "for i = 1, n do f('hello world', '%w+', up) end"},
};

double Run(lua_State* L, const Case& c, const char* lib, long n) {
  std::string code = "local lib, n = ... ";
  code += c.loop;
  if (luaL_loadbuffer(L, code.data(), code.size(), "=bench") != 0) {
    std::fprintf(stderr, "%s\n", lua_tostring(L, -1));
    std::exit(1);
  }
  lua_getglobal(L, lib);
  lua_pushinteger(L, n);
  auto start = Clock::now();
  if (lua_pcall(L, 2, 0, 0) != 0) {
    std::fprintf(stderr, "%s\n", lua_tostring(L, -1));
    std::exit(1);
  }
  double calls = std::string(c.loop).find("n / 100") != std::string::npos ? n / 100.0 : n;
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / calls;
}

}  // namespace

int main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000000;
  // LimitedAlloc makes LimitStateOf (gsub's C-stack check) as cheap as in
  // the Runtime.
  ms::lua::LimitState limits;
  limits.limits.memory_bytes = size_t{1} << 30;
  limits.hard_memory = true;
  lua_State* L = lua_newstate(ms::lua::LimitedAlloc, &limits);
  if (L == nullptr) L = luaL_newstate();
  luaL_openlibs(L);
  luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);
  lua_newtable(L);
  ms::lua::InstallPatternFunctions(L, -1);
  lua_setglobal(L, "host");
  std::printf("%-16s %10s %10s %8s\n", "ns per call", "LuaJIT", "host", "ratio");
  for (const Case& c : kCases) {
    double original = Run(L, c, "string", n);
    double host = Run(L, c, "host", n);
    std::printf("%-16s %10.1f %10.1f %8.2f\n", c.name, original, host, host / original);
  }
  lua_close(L);
  return 0;
}
