#include "lua/readonly.h"

#include <string>

#include <lua.hpp>

#include "lua/chunk_cache.h"
#include "lua/error.h"

namespace ms::lua {
namespace {

// Registry keys (their addresses): the weak table table -> view, and the
// metatable slots of a view that hold the viewed table and its name.
char g_views_key;
char g_viewed_key;
char g_name_key;

int Absolute(lua_State* L, int idx) {
  return idx < 0 && idx > LUA_REGISTRYINDEX ? lua_gettop(L) + idx + 1 : idx;
}

bool IsPlainTable(lua_State* L, int idx) {
  if (!lua_istable(L, idx)) return false;
  if (!lua_getmetatable(L, idx)) return true;
  lua_pop(L, 1);
  return false;
}

// Pushes the table the view at `idx` views and returns true; pushes nothing
// and returns false when the value is not a view. lua_getmetatable is raw:
// the view's __metatable does not hide its metatable from C.
bool PushViewed(lua_State* L, int idx) {
  idx = Absolute(L, idx);
  if (!lua_istable(L, idx) || !lua_getmetatable(L, idx)) return false;
  lua_pushlightuserdata(L, &g_viewed_key);
  lua_rawget(L, -2);
  lua_remove(L, -2);
  if (lua_istable(L, -1)) return true;
  lua_pop(L, 1);
  return false;
}

// The name of the view at `idx` (a view), pushed.
void PushViewName(lua_State* L, int idx) {
  lua_getmetatable(L, idx);
  lua_pushlightuserdata(L, &g_name_key);
  lua_rawget(L, -2);
  lua_remove(L, -2);
}

// Pushes the cached view of the table at `idx`, or returns false.
bool PushCachedView(lua_State* L, int idx) {
  idx = Absolute(L, idx);
  lua_pushlightuserdata(L, &g_views_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  lua_remove(L, -2);
  if (!lua_isnil(L, -1)) return true;
  lua_pop(L, 1);
  return false;
}

int RefuseWrite(lua_State* L);
int FirstIndex(lua_State* L);

// Makes, caches and pushes a view of the table at `idx` named by the string
// on top of the stack (popped). Its __index is FirstIndex until the first
// read builds the table reads go through (see FirstIndex).
void NewView(lua_State* L, int idx) {
  idx = Absolute(L, idx);
  int name = lua_gettop(L);
  lua_createtable(L, 0, 0);  // the view
  int view = lua_gettop(L);
  lua_createtable(L, 0, 5);  // its metatable
  lua_pushlightuserdata(L, &g_viewed_key);
  lua_pushvalue(L, idx);
  lua_rawset(L, -3);
  lua_pushlightuserdata(L, &g_name_key);
  lua_pushvalue(L, name);
  lua_rawset(L, -3);
  lua_pushcfunction(L, FirstIndex);
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, name);
  lua_pushcclosure(L, RefuseWrite, 1);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, view);

  lua_pushlightuserdata(L, &g_views_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  lua_pushvalue(L, idx);
  lua_pushvalue(L, view);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_remove(L, name);
}

// The value at `value` read from the view named by the string at `parent`
// under the key at `key`: a plain table comes back as its view, named
// "<parent>.<key>" (or "<parent>[<key>]"). Replaces the value in place.
void ViewValue(lua_State* L, int value, int parent, int key) {
  value = Absolute(L, value);
  key = Absolute(L, key);
  if (!IsPlainTable(L, value)) return;
  if (!PushCachedView(L, value)) {
    lua_pushvalue(L, parent);
    if (lua_type(L, key) == LUA_TSTRING) {
      lua_pushliteral(L, ".");
      lua_pushvalue(L, key);
      lua_concat(L, 3);
    } else {
      lua_pushliteral(L, "[");
      lua_pushstring(L, lua_type(L, key) == LUA_TNUMBER ? lua_tostring(L, key) : luaL_typename(L, key));
      lua_pushliteral(L, "]");
      lua_concat(L, 4);
    }
    NewView(L, value);
  }
  lua_replace(L, value);
}

// A view's first read, __index(view, key). Reads must stay cheap (module
// functions are looked up through views on every call), so they should not
// run a C function each: this builds the view's read table once, the views
// of the viewed table's plain-table fields, whose own __index is the viewed
// table, and makes it the view's __index. From then on a read is the VM's
// __index chain: view -> read table (nested views) -> viewed table (live).
// A plain-table field the viewed table gains or replaces later is not seen
// as a view: modules do not change their tables' table fields after load.
int FirstIndex(lua_State* L) {
  lua_settop(L, 2);
  lua_getmetatable(L, 1);  // 3
  lua_pushlightuserdata(L, &g_viewed_key);
  lua_rawget(L, 3);  // 4: the viewed table
  lua_pushlightuserdata(L, &g_name_key);
  lua_rawget(L, 3);         // 5: the view's name
  lua_createtable(L, 0, 0);  // 6: the read table
  bool nested = false;
  lua_pushnil(L);
  while (lua_next(L, 4) != 0) {  // key 7, value 8
    if (IsPlainTable(L, 8)) {
      nested = true;
      ViewValue(L, 8, 5, 7);
      lua_pushvalue(L, 7);
      lua_insert(L, -2);
      lua_rawset(L, 6);
    } else {
      lua_pop(L, 1);
    }
  }
  if (nested) {
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 4);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, 6);
  } else {
    lua_pushvalue(L, 4);  // no nested tables: reads go to the viewed table directly
    lua_replace(L, 6);
  }
  lua_pushvalue(L, 6);
  lua_setfield(L, 3, "__index");
  lua_pushvalue(L, 2);
  lua_gettable(L, 6);
  return 1;
}

int RaiseReadOnly(lua_State* L, int level, int name, int key) {
  luaL_where(L, level);
  lua_pushliteral(L, "attempt to modify read-only table ");
  lua_pushvalue(L, name);
  if (key != 0 && lua_type(L, key) == LUA_TSTRING) {
    lua_pushliteral(L, " (field '");
    lua_pushvalue(L, key);
    lua_pushliteral(L, "')");
    lua_concat(L, 6);
  } else {
    lua_concat(L, 3);
  }
  return lua_error(L);
}

// __newindex(view, key, value), upvalue: the view's name.
int RefuseWrite(lua_State* L) { return RaiseReadOnly(L, 1, lua_upvalueindex(1), 2); }

// refuse(t [, key]): raises when t is a view, naming the caller of the
// function that called refuse (the host's wrappers for rawset, table.insert
// & co).
int Refuse(lua_State* L) {
  if (!IsView(L, 1)) return 0;
  const int key = lua_isnoneornil(L, 2) ? 0 : 2;
  lua_settop(L, 2);
  PushViewName(L, 1);
  return RaiseReadOnly(L, 2, 3, key);
}

// viewed(t): the table t views, or nil.
int Viewed(lua_State* L) {
  if (!PushViewed(L, 1)) lua_pushnil(L);
  return 1;
}

// The start of the view_* functions: keeps their `nargs` arguments, checks
// the first is a view, pushes the table it views (nargs + 1) and its name
// (nargs + 2).
void OpenView(lua_State* L, int nargs) {
  lua_settop(L, nargs);
  if (!PushViewed(L, 1)) luaL_argerror(L, 1, "read-only view expected");
  PushViewName(L, 1);
}

// view_next(view, key): next over the viewed table, values viewed.
int ViewNext(lua_State* L) {
  OpenView(L, 2);  // 3: table, 4: name
  lua_pushvalue(L, 2);
  if (lua_next(L, 3) == 0) {
    lua_pushnil(L);
    return 1;
  }
  ViewValue(L, 6, 4, 5);
  return 2;
}

// view_inext(view, i): ipairs over the viewed table.
int ViewINext(lua_State* L) {
  OpenView(L, 2);  // 3: table, 4: name
  lua_Integer i = luaL_checkinteger(L, 2) + 1;
  lua_pushinteger(L, i);  // 5
  lua_rawgeti(L, 3, static_cast<int>(i));
  if (lua_isnil(L, 6)) return 0;
  ViewValue(L, 6, 4, 5);
  return 2;
}

// view_rawget(view, key)
int ViewRawGet(lua_State* L) {
  OpenView(L, 2);  // 3: table, 4: name
  lua_pushvalue(L, 2);
  lua_rawget(L, 3);  // 5
  ViewValue(L, 5, 4, 2);
  return 1;
}

// view_unpack(view [, i [, j]])
int ViewUnpack(lua_State* L) {
  OpenView(L, 3);  // 4: table, 5: name
  const int first = static_cast<int>(luaL_optinteger(L, 2, 1));
  const int last = lua_isnil(L, 3) ? static_cast<int>(lua_objlen(L, 4)) : static_cast<int>(luaL_checkinteger(L, 3));
  if (first > last) return 0;
  const int n = last - first + 1;
  if (n <= 0 || !lua_checkstack(L, n + 3)) return luaL_error(L, "too many results to unpack");
  for (int i = first; i <= last; ++i) {
    lua_rawgeti(L, 4, i);
    lua_pushinteger(L, i);
    ViewValue(L, -2, 5, lua_gettop(L));
    lua_pop(L, 1);
  }
  return n;
}

// moonstack.freeze(t [, name]) -> the view of t.
int Freeze(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const char* name = luaL_optstring(L, 2, "(frozen)");
  if (IsView(L, 1)) {
    lua_settop(L, 1);
    return 1;
  }
  PushView(L, 1, name);
  return 1;
}

// The view-aware replacements, in Lua: a wrapper that tail-calls the
// builtin keeps its argument errors ("bad argument #1 to 'insert'").
const char kViewAwareFunctions[] = R"lua(
local viewed, view_next, view_inext, view_rawget, view_unpack, refuse, G, T = ...
local getmetatable = G.getmetatable
local next, pairs, ipairs, rawget, rawset, unpack = G.next, G.pairs, G.ipairs, G.rawget, G.rawset, G.unpack
local insert, remove, sort, move = T.insert, T.remove, T.sort, T.move
local concat, maxn, getn, foreach, foreachi = T.concat, T.maxn, T.getn, T.foreach, T.foreachi

-- A view's getmetatable is false: only then is viewed() asked. The common
-- case (not a view) is one fast-function call and a tail call.
local function is_view(t) return getmetatable(t) == false and viewed(t) ~= nil end

function G.next(t, k)
  if getmetatable(t) ~= false or not viewed(t) then return next(t, k) end
  return view_next(t, k)
end
function G.pairs(t)
  if getmetatable(t) ~= false or not viewed(t) then return pairs(t) end
  return view_next, t, nil
end
function G.ipairs(t)
  if getmetatable(t) ~= false or not viewed(t) then return ipairs(t) end
  return view_inext, t, 0
end
function G.rawget(t, k)
  if getmetatable(t) ~= false or not viewed(t) then return rawget(t, k) end
  return view_rawget(t, k)
end
function G.rawset(t, k, v) if getmetatable(t) == false then refuse(t, k) end return rawset(t, k, v) end
function G.unpack(t, i, j)
  if getmetatable(t) ~= false or not viewed(t) then return unpack(t, i, j) end
  return view_unpack(t, i, j)
end

function T.insert(t, ...) if getmetatable(t) == false then refuse(t) end return insert(t, ...) end
function T.remove(t, ...) if getmetatable(t) == false then refuse(t) end return remove(t, ...) end
function T.sort(t, ...) if getmetatable(t) == false then refuse(t) end return sort(t, ...) end
-- concat reads strings and numbers only: the viewed table serves.
function T.concat(t, ...) return concat(is_view(t) and viewed(t) or t, ...) end
function T.maxn(t) return maxn(is_view(t) and viewed(t) or t) end
function T.getn(t) return getn(is_view(t) and viewed(t) or t) end
function T.foreach(t, f)
  if not is_view(t) then return foreach(t, f) end
  for k, v in view_next, t, nil do
    local r = f(k, v)
    if r ~= nil then return r end
  end
end
function T.foreachi(t, f)
  if not is_view(t) then return foreachi(t, f) end
  for i, v in view_inext, t, 0 do
    local r = f(i, v)
    if r ~= nil then return r end
  end
end
function T.move(a1, f, e, t, a2)
  refuse(a2 == nil and a1 or a2)
  if not is_view(a1) then return move(a1, f, e, t, a2) end
  a2 = a2 == nil and a1 or a2
  for i = f, e do a2[t + i - f] = a1[i] end
  return a2
end
)lua";

}  // namespace

void PushView(lua_State* L, int idx, const char* name) {
  idx = Absolute(L, idx);
  luaL_checktype(L, idx, LUA_TTABLE);
  if (PushCachedView(L, idx)) return;
  lua_pushstring(L, name);
  NewView(L, idx);
}

void PushViewIfPlain(lua_State* L, int idx, const char* name) {
  if (IsPlainTable(L, idx)) {
    PushView(L, idx, name);
  } else {
    lua_pushvalue(L, idx);
  }
}

bool IsView(lua_State* L, int idx) {
  if (!PushViewed(L, idx)) return false;
  lua_pop(L, 1);
  return true;
}

void ReadThroughView(lua_State* L, int idx) {
  idx = Absolute(L, idx);
  if (PushViewed(L, idx)) lua_replace(L, idx);
}

void RefuseView(lua_State* L, int idx) {
  idx = Absolute(L, idx);
  if (!IsView(L, idx)) return;
  PushViewName(L, idx);
  RaiseReadOnly(L, 1, lua_gettop(L), 0);
}

void InstallViewAwareFunctions(lua_State* L) {
  // Views are kept while used: weak both ways, so a view nobody holds is
  // collected with its entry (a new one is made on the next read).
  lua_pushlightuserdata(L, &g_views_key);
  lua_createtable(L, 0, 64);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "kv");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX);

  if (LoadTextChunk(L, std::string(kViewAwareFunctions, sizeof kViewAwareFunctions - 1), kHostChunkName) != 0) {
    lua_error(L);
  }
  lua_pushcfunction(L, Viewed);
  lua_pushcfunction(L, ViewNext);
  lua_pushcfunction(L, ViewINext);
  lua_pushcfunction(L, ViewRawGet);
  lua_pushcfunction(L, ViewUnpack);
  lua_pushcfunction(L, Refuse);
  lua_pushvalue(L, LUA_GLOBALSINDEX);
  lua_getglobal(L, "table");
  lua_call(L, 8, 0);

  lua_getglobal(L, "moonstack");
  if (lua_istable(L, -1)) {
    lua_pushcfunction(L, Freeze);
    lua_setfield(L, -2, "freeze");
  }
  lua_pop(L, 1);
}

}  // namespace ms::lua
