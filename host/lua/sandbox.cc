#include "lua/sandbox.h"

#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <lua.hpp>

#include "lua/chunk_cache.h"
#include "lua/error.h"
#include "lua/isolation.h"
#include "lua/limits.h"
#include "lua/readonly.h"
#include "lua/string_lib.h"

namespace ms::lua {
namespace {

// Registry keys (their addresses) and the mark of a module being loaded.
char g_preload_key;
char g_loading_mark;

constexpr size_t kMaxModuleBytes = size_t{16} << 20;

const char* const kKeptGlobals[] = {
    "assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget", "rawset",
    "select", "getmetatable", "setmetatable", "tonumber", "tostring", "type", "unpack",
    "xpcall", "_G", "_VERSION", "string", "table", "math", "os", "bit", "coroutine",
};

const char* const kKeptOs[] = {"time", "clock", "date", "difftime"};

// Removes every field of the table at `idx` whose key is not in `keep`.
template <size_t N>
void KeepOnly(lua_State* L, int idx, const char* const (&keep)[N]) {
  std::set<std::string> kept(std::begin(keep), std::end(keep));
  std::vector<std::string> drop;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING && kept.count(lua_tostring(L, -1)) == 0) {
      drop.emplace_back(lua_tostring(L, -1));
    }
  }
  for (const std::string& key : drop) {
    lua_pushnil(L);
    lua_setfield(L, idx, key.c_str());
  }
}

// A library C function that may call back into Lua, behind the C-stack check.
// The original runs in this closure's own frame, so argument errors still
// name the function the provider called ("bad argument #1 to 'gsub'").
int GuardedCFunction(lua_State* L) {
  CheckCStack(L);
  auto f = reinterpret_cast<lua_CFunction>(lua_touserdata(L, lua_upvalueindex(1)));
  return f(L);
}

void Guard(lua_State* L, int table, const char* name) {
  lua_getfield(L, table, name);
  lua_CFunction f = lua_tocfunction(L, -1);
  lua_pop(L, 1);
  if (f == nullptr) luaL_error(L, "sandbox: %s is not a C function", name);
  lua_pushlightuserdata(L, reinterpret_cast<void*>(f));
  lua_pushcclosure(L, GuardedCFunction, 1);
  lua_setfield(L, table, name);
}

int CheckCStackFunction(lua_State* L) {
  CheckCStack(L);
  return 0;
}

int Aborted(lua_State* L) {
  LimitState* ls = LimitStateOf(L);
  lua_pushboolean(L, ls != nullptr && ls->abort != Abort::kNone);
  return 1;
}

// Wrappers written in Lua around LuaJIT fast functions (which have no C
// function to call directly):
// - coroutine.resume and the functions coroutine.wrap returns check the C
//   stack first;
// - xpcall skips the provider's message handler once the call is aborted:
//   LuaJIT runs message handlers before unwinding, while the hook that raised
//   the abort still counts as running, so no hook would interrupt a handler
//   that loops.
const char kLuaWrappers[] = R"lua(
local check, create, resume, error, xpcall, aborted, type = ...
local function pass(ok, ...)
  if ok then return ... end
  error((...), 0)
end
local function guarded_resume(co, ...)
  check()
  return resume(co, ...)
end
local function wrap(f)
  local co = create(f)
  return function(...)
    check()
    return pass(resume(co, ...))
  end
end
local function guarded_xpcall(f, handler, ...)
  if type(handler) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
  end
  return xpcall(f, function(e)
    if aborted() then return e end
    return handler(e)
  end, ...)
end
return guarded_resume, wrap, guarded_xpcall
)lua";

void InstallLuaWrappers(lua_State* L) {
  lua_getglobal(L, "coroutine");
  int co = lua_gettop(L);
  if (LoadTextChunk(L, std::string(kLuaWrappers, sizeof kLuaWrappers - 1), kHostChunkName) != 0) {
    lua_error(L);
  }
  lua_pushcfunction(L, CheckCStackFunction);
  lua_getfield(L, co, "create");
  lua_getfield(L, co, "resume");
  lua_getglobal(L, "error");
  lua_getglobal(L, "xpcall");
  lua_pushcfunction(L, Aborted);
  lua_getglobal(L, "type");
  lua_call(L, 7, 3);
  lua_setglobal(L, "xpcall");
  lua_setfield(L, co, "wrap");
  lua_setfield(L, co, "resume");
  lua_pop(L, 1);
}

// load(chunk [, chunkname [, mode [, env]]]): text chunks only.
int Load(lua_State* L) {
  CheckCStack(L);
  const char* mode = luaL_optstring(L, 3, "bt");
  if (std::strchr(mode, 't') == nullptr) {
    lua_pushnil(L);
    lua_pushfstring(L, "attempt to load a text chunk (mode is '%s')", mode);
    return 2;
  }
  int status;
  if (lua_type(L, 1) == LUA_TSTRING) {
    size_t len = 0;
    const char* s = lua_tolstring(L, 1, &len);
    const char* name = luaL_optstring(L, 2, s);
    status = luaL_loadbufferx(L, s, len, name, "t");
  } else {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    const char* name = luaL_optstring(L, 2, "=(load)");
    // Collect the pieces the reader gives into one string, then load that.
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (;;) {
      lua_pushvalue(L, 1);
      lua_call(L, 0, 1);
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        break;
      }
      if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "reader function must return a string");
      if (lua_objlen(L, -1) == 0) {
        lua_pop(L, 1);
        break;
      }
      luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    size_t len = 0;
    const char* s = lua_tolstring(L, -1, &len);
    status = luaL_loadbufferx(L, s, len, name, "t");
  }
  if (status != 0) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  if (!lua_isnoneornil(L, 4)) {
    luaL_checktype(L, 4, LUA_TTABLE);
    lua_pushvalue(L, 4);
  } else {
    // Not the state's globals (the host's): a chunk's globals are its own.
    PushChunkGlobals(L);
  }
  lua_setfenv(L, -2);
  return 1;
}

// loadstring(s [, chunkname]) is load for strings.
int LoadString(lua_State* L) {
  luaL_checktype(L, 1, LUA_TSTRING);
  lua_settop(L, 2);
  return Load(L);
}

int CollectGarbage(lua_State* L) {
  std::string opt = luaL_optstring(L, 1, "collect");
  if (opt == "collect") {
    lua_gc(L, LUA_GCCOLLECT, 0);
    lua_pushinteger(L, 0);
  } else if (opt == "count") {
    lua_pushnumber(L, lua_gc(L, LUA_GCCOUNT, 0) + lua_gc(L, LUA_GCCOUNTB, 0) / 1024.0);
  } else if (opt == "step") {
    lua_pushboolean(L, lua_gc(L, LUA_GCSTEP, static_cast<int>(luaL_optinteger(L, 2, 0))));
  } else {
    return luaL_error(L, "collectgarbage('%s') is not available to providers", opt.c_str());
  }
  return 1;
}

}  // namespace

Sandbox::Sandbox(std::vector<std::string> module_roots,
                 std::function<void(std::string_view)> print)
    : modules_(std::move(module_roots)), print_(std::move(print)) {}

void Sandbox::Install(lua_State* L) {
  static const luaL_Reg kLibs[] = {
      {"", luaopen_base},           {LUA_STRLIBNAME, luaopen_string},
      {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
      {LUA_OSLIBNAME, luaopen_os},  {LUA_BITLIBNAME, luaopen_bit},
  };
  for (const luaL_Reg& lib : kLibs) {
    lua_pushcfunction(L, lib.func);
    lua_pushstring(L, lib.name);
    lua_call(L, 1, 0);
  }

  lua_getglobal(L, "tostring");  // print's upvalue, before anything changes
  int tostring = lua_gettop(L);

  lua_pushvalue(L, LUA_GLOBALSINDEX);
  KeepOnly(L, lua_gettop(L), kKeptGlobals);
  lua_pop(L, 1);

  lua_getglobal(L, "os");
  KeepOnly(L, lua_gettop(L), kKeptOs);
  lua_pop(L, 1);

  lua_getglobal(L, "string");
  int string = lua_gettop(L);
  lua_pushnil(L);
  lua_setfield(L, string, "dump");
  // The pattern functions check the deadline as they match (LuaJIT's run
  // in C, out of the count hook's reach); gsub also checks the C stack.
  InstallPatternFunctions(L, string);
  Guard(L, string, "format");
  lua_pop(L, 1);

  lua_getglobal(L, "table");
  Guard(L, lua_gettop(L), "sort");
  lua_pop(L, 1);

  InstallLuaWrappers(L);

  lua_pushcfunction(L, Load);
  lua_setglobal(L, "load");
  lua_pushcfunction(L, LoadString);
  lua_setglobal(L, "loadstring");
  lua_pushcfunction(L, CollectGarbage);
  lua_setglobal(L, "collectgarbage");

  lua_pushlightuserdata(L, this);
  lua_pushvalue(L, tostring);
  lua_pushcclosure(L, Print, 2);
  lua_setglobal(L, "print");

  // package: loaded is the registry's _LOADED (as in stock Lua); preload is
  // also kept in the registry so replacing package.preload changes nothing.
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  int loaded = lua_gettop(L);
  lua_createtable(L, 0, 4);
  int package = lua_gettop(L);
  lua_pushvalue(L, loaded);
  lua_setfield(L, package, "loaded");
  lua_newtable(L);
  lua_pushlightuserdata(L, &g_preload_key);
  lua_pushvalue(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX);
  lua_setfield(L, package, "preload");
  std::string path = modules_.PathString();
  lua_pushlstring(L, path.data(), path.size());
  lua_setfield(L, package, "path");
  lua_pushstring(L, "");
  lua_setfield(L, package, "cpath");
  lua_pushvalue(L, package);
  lua_setfield(L, loaded, "package");
  lua_setglobal(L, "package");
  lua_pop(L, 1);  // loaded

  lua_pushlightuserdata(L, this);
  lua_pushcclosure(L, Require, 1);
  lua_setglobal(L, "require");

  lua_settop(L, tostring - 1);
}

int Sandbox::Print(lua_State* L) {
  CheckCStack(L);
  auto* self = static_cast<Sandbox*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (!self->print_) return 0;
  int n = lua_gettop(L);
  std::string line;
  for (int i = 1; i <= n; ++i) {
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, i);
    lua_call(L, 1, 1);
    size_t len = 0;
    const char* s = lua_tolstring(L, -1, &len);
    if (s == nullptr) return luaL_error(L, "'tostring' must return a string to 'print'");
    if (i > 1) line.push_back('\t');
    line.append(s, len);
    lua_pop(L, 1);
  }
  self->print_(line);
  return 0;
}

int Sandbox::Require(lua_State* L) {
  CheckCStack(L);
  auto* self = static_cast<Sandbox*>(lua_touserdata(L, lua_upvalueindex(1)));
  size_t len = 0;
  const char* name = luaL_checklstring(L, 1, &len);
  std::string module(name, len);
  lua_settop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");  // 2
  lua_pushvalue(L, 1);
  lua_rawget(L, 2);  // 3
  if (lua_touserdata(L, 3) == &g_loading_mark) {
    for (const std::string& m : self->loading_) {
      if (m == module) {
        return luaL_error(L, "loop or previous error loading module '%s'", name);
      }
    }
    // Marked by a load that failed in an earlier call: try again.
  } else if (lua_toboolean(L, 3)) {
    PushViewIfPlain(L, 3, name);
    return 1;
  }
  lua_pop(L, 1);

  // The loader: package.preload[name], else a file in a module root.
  lua_pushlightuserdata(L, &g_preload_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  lua_pushvalue(L, 1);
  lua_rawget(L, -2);
  lua_remove(L, -2);  // 3: loader or nil
  if (lua_isnil(L, 3)) {
    lua_pop(L, 1);
    FoundModule found;
    std::string error;
    if (!self->modules_.Find(module, &found, &error)) {
      return luaL_error(L, "module '%s' not found:\n\tno field package.preload['%s']%s", name,
                        name, error.c_str());
    }
    std::string source;
    if (!ReadModuleFile(found.path, kMaxModuleBytes, &source, &error)) {
      return luaL_error(L, "error loading module '%s': %s", name, error.c_str());
    }
    if (LoadTextChunk(L, source, found.chunkname) != 0) {
      return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name,
                        found.chunkname.c_str() + 1, lua_tostring(L, -1));
    }
    PushChunkGlobals(L);  // the module's globals are its own
    lua_setfenv(L, 3);
  }

  lua_pushvalue(L, 1);
  lua_pushlightuserdata(L, &g_loading_mark);
  lua_rawset(L, 2);
  self->loading_.push_back(module);
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);  // loader(name); on error the mark stays until ResetLoading
  self->loading_.pop_back();
  if (!lua_isnil(L, -1)) {
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, 2);
  }
  lua_pushvalue(L, 1);
  lua_rawget(L, 2);
  if (lua_touserdata(L, -1) == &g_loading_mark) {  // the module returned nothing
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 1);
    lua_rawset(L, 2);
    lua_pushboolean(L, 1);
  }
  // Every requirer shares the module: it gets the module's table read-only
  // (the module's own code keeps its table).
  PushViewIfPlain(L, -1, name);
  return 1;
}

}  // namespace ms::lua
