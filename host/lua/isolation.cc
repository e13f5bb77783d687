#include "lua/isolation.h"

#include <lua.hpp>

#include "lua/readonly.h"

namespace ms::lua {
namespace {

// Registry key (its address) of the sealed globals.
char g_sealed_globals_key;

// Seen through read-only views by all code.
const char* const kSharedLibraries[] = {"string", "table", "math", "os", "bit", "coroutine", "moonstack"};

// Copies every field of the table at `from` into the table at `to`
// (absolute indices).
void CopyFields(lua_State* L, int from, int to) {
  lua_pushnil(L);
  while (lua_next(L, from) != 0) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, to);
  }
}

void ViewLibraries(lua_State* L) {
  for (const char* name : kSharedLibraries) {
    lua_getglobal(L, name);
    PushView(L, -1, name);
    lua_setglobal(L, name);
    lua_pop(L, 1);
  }
}

// LuaJIT looks string methods up in the string metatable's __index, the
// real string table: getmetatable("") must not hand that out. It answers a
// read-only { __index = string }, string being the global's view.
void ProtectStringMetatable(lua_State* L) {
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_createtable(L, 0, 1);
  lua_getglobal(L, "string");
  lua_setfield(L, -2, "__index");
  PushView(L, -1, "string metatable");
  lua_setfield(L, -3, "__metatable");
  lua_pop(L, 3);
}

}  // namespace

void SealSharedTables(lua_State* L) {
  InstallViewAwareFunctions(L);
  ViewLibraries(L);
  ProtectStringMetatable(L);

  // require("_G") would be the host's globals.
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  lua_pushnil(L);
  lua_setfield(L, -2, "_G");
  lua_pop(L, 1);

  // What chunks start from: the state's globals, package read-only.
  lua_pushlightuserdata(L, &g_sealed_globals_key);
  lua_createtable(L, 0, 40);
  int sealed = lua_gettop(L);
  CopyFields(L, LUA_GLOBALSINDEX, sealed);
  lua_getglobal(L, "package");
  PushView(L, -1, "package");
  lua_setfield(L, sealed, "package");
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_setfield(L, sealed, "_G");
  lua_rawset(L, LUA_REGISTRYINDEX);
}

void PushChunkGlobals(lua_State* L) {
  lua_pushlightuserdata(L, &g_sealed_globals_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  int sealed = lua_gettop(L);
  lua_createtable(L, 0, 40);
  CopyFields(L, sealed, sealed + 1);
  lua_pushvalue(L, -1);
  lua_setfield(L, -2, "_G");
  lua_remove(L, sealed);
}

}  // namespace ms::lua
