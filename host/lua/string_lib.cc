#include "lua/string_lib.h"

#include <cstdint>
#include <string_view>

#include <lua.hpp>

#include "lua/limits.h"
#include "lua/lua_pattern.h"

// The frames below hold only trivially destructible objects: any Lua call
// may raise (memory, deadline, the replacement function's errors), and the
// raise unwinds through them.
namespace ms::lua {
namespace {

// The matcher's step hook: stop once the running call is overdue.
bool InTime(void* L) { return !CallOverdue(static_cast<lua_State*>(L)); }

// Raises the Lua error for a failed match: the deadline abort when the hook
// stopped it, else LuaJIT's message (with the caller's position, as LuaJIT
// adds it).
int RaiseMatchError(lua_State* L, PatternError e) {
  if (e == PatternError::kStopped) {
    CheckDeadline(L);
    // Not reached: the hook stops only an overdue call. Still an error.
    return luaL_error(L, "pattern matching interrupted");
  }
  return luaL_error(L, "%s", PatternErrorMessage(e));
}

// A number argument converted as LuaJIT's lj_lib_optint does: truncated to
// int32, where x64's conversion turns what does not fit (and NaN) into
// INT32_MIN.
int32_t OptInt32(lua_State* L, int arg, int32_t def) {
  if (lua_isnoneornil(L, arg)) return def;
  double n = luaL_checknumber(L, arg);
  if (!(n > -2147483649.0 && n < 2147483648.0)) return INT32_MIN;
  return static_cast<int32_t>(n);
}

// find/match's init (1-based, negative from the end) as a 0-based offset
// clamped to [0, len]: an init past the end searches from the end (Lua 5.1).
size_t StartOffset(int32_t init, size_t len) {
  int64_t start = init < 0 ? int64_t{init} + static_cast<int64_t>(len) : int64_t{init} - 1;
  if (start < 0) return 0;
  return static_cast<size_t>(start) > len ? len : static_cast<size_t>(start);
}

// Pushes capture `i` of the match [s, e) of `subject`; capture 0 of a
// pattern without captures is the whole match.
void PushCapture(lua_State* L, const PatternMatcher& m, const char* subject, int i, size_t s,
                 size_t e) {
  if (i >= m.capture_count()) {
    if (i != 0) RaiseMatchError(L, PatternError::kInvalidCaptureIndex);
    lua_pushlstring(L, subject + s, e - s);
    return;
  }
  PatternCapture c = m.capture(i);
  if (c.len == PatternCapture::kUnfinished) RaiseMatchError(L, PatternError::kUnfinishedCapture);
  if (c.len == PatternCapture::kPosition) {
    lua_pushinteger(L, static_cast<lua_Integer>(c.start) + 1);
  } else {
    lua_pushlstring(L, subject + c.start, static_cast<size_t>(c.len));
  }
}

// Pushes all captures; with `whole`, the whole match when there are none.
int PushCaptures(lua_State* L, const PatternMatcher& m, const char* subject, size_t s, size_t e,
                 bool whole) {
  int n = (m.capture_count() == 0 && whole) ? 1 : m.capture_count();
  if (n > 0) luaL_checkstack(L, n, "too many captures");
  for (int i = 0; i < n; ++i) PushCapture(L, m, subject, i, s, e);
  return n;
}

int PlainFind(lua_State* L, std::string_view subject, size_t start, std::string_view text) {
  size_t at = subject.find(text, start);
  if (at == std::string_view::npos) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, static_cast<lua_Integer>(at) + 1);
  lua_pushinteger(L, static_cast<lua_Integer>(at + text.size()));
  return 2;
}

// string.find (find) and string.match (!find).
int FindOrMatch(lua_State* L, bool find) {
  size_t len = 0, plen = 0;
  const char* s = luaL_checklstring(L, 1, &len);
  const char* p = luaL_checklstring(L, 2, &plen);
  int top = lua_gettop(L);  // spares API calls for absent arguments
  size_t pos = top < 3 ? 0 : StartOffset(OptInt32(L, 3, 1), len);
  if (find && ((top >= 4 && lua_toboolean(L, 4)) || !HasPatternSpecials({p, plen}))) {
    return PlainFind(L, {s, len}, pos, {p, plen});
  }
  bool anchor = *p == '^';
  PatternMatcher m({s, len}, anchor ? p + 1 : p, InTime, L);
  size_t start = 0, end = 0;
  if (!m.Search(pos, anchor, &start, &end)) {
    if (m.error() != PatternError::kNone) return RaiseMatchError(L, m.error());
    lua_pushnil(L);
    return 1;
  }
  if (!find) return PushCaptures(L, m, s, start, end, true);
  lua_pushinteger(L, static_cast<lua_Integer>(start) + 1);
  lua_pushinteger(L, static_cast<lua_Integer>(end));
  return PushCaptures(L, m, s, start, end, false) + 2;
}

int Find(lua_State* L) { return FindOrMatch(L, true); }
int Match(lua_State* L) { return FindOrMatch(L, false); }

// The state of gmatch's iterator: its upvalue 1, with the subject and the
// pattern as upvalues 2 and 3 to keep them alive (LuaJIT never moves a
// string, so their bytes can be kept here). One userdata read per step
// instead of three upvalue reads and a write.
struct GmatchState {
  const char* subject;
  size_t len;
  const char* pattern;
  size_t next;  // where the next try starts
};

// After an empty match the next try starts one further; after a non-empty
// one it starts at its end, where an empty match is allowed (LuaJIT).
int GmatchNext(lua_State* L) {
  auto* g = static_cast<GmatchState*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (g->next > g->len) return 0;
  PatternMatcher m({g->subject, g->len}, g->pattern, InTime, L);  // '^' is no anchor here
  size_t start = 0, end = 0;
  if (!m.Search(g->next, false, &start, &end)) {
    if (m.error() != PatternError::kNone) return RaiseMatchError(L, m.error());
    return 0;
  }
  g->next = end == start ? end + 1 : end;
  return PushCaptures(L, m, g->subject, start, end, true);
}

int Gmatch(lua_State* L) {
  size_t len = 0;
  const char* s = luaL_checklstring(L, 1, &len);
  const char* p = luaL_checkstring(L, 2);
  lua_settop(L, 2);
  auto* g = static_cast<GmatchState*>(lua_newuserdata(L, sizeof(GmatchState)));
  *g = GmatchState{s, len, p, 0};
  lua_insert(L, 1);
  lua_pushcclosure(L, GmatchNext, 3);
  return 1;
}

// gsub's replacement string for the match [s, e): %0 the match, %1-%9 its
// captures, % followed by anything else that character.
void AddReplacementString(lua_State* L, luaL_Buffer* b, const PatternMatcher& m,
                          const char* subject, size_t s, size_t e) {
  size_t len = 0;
  const char* r = lua_tolstring(L, 3, &len);
  for (size_t i = 0; i < len; ++i) {
    if (r[i] != '%') {
      luaL_addchar(b, r[i]);
      continue;
    }
    ++i;
    // A '%' at the very end escapes the string's terminating NUL: LuaJIT
    // adds that NUL byte, and so do we.
    char c = i < len ? r[i] : '\0';
    if (c < '0' || c > '9') {
      luaL_addchar(b, c);
    } else if (c == '0') {
      luaL_addlstring(b, subject + s, e - s);
    } else {
      PushCapture(L, m, subject, c - '1', s, e);
      luaL_addvalue(b);
    }
  }
}

// Adds gsub's replacement for the match [s, e) to `b`.
void AddReplacement(lua_State* L, luaL_Buffer* b, const PatternMatcher& m, const char* subject,
                    size_t s, size_t e) {
  switch (lua_type(L, 3)) {
    case LUA_TFUNCTION: {
      lua_pushvalue(L, 3);
      int n = PushCaptures(L, m, subject, s, e, true);
      lua_call(L, n, 1);
      break;
    }
    case LUA_TTABLE:
      PushCapture(L, m, subject, 0, s, e);
      lua_gettable(L, 3);
      break;
    default:  // a string or a number
      AddReplacementString(L, b, m, subject, s, e);
      return;
  }
  if (!lua_toboolean(L, -1)) {  // nil or false: keep the matched text
    lua_pop(L, 1);
    lua_pushlstring(L, subject + s, e - s);
  } else if (!lua_isstring(L, -1)) {
    luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  }
  luaL_addvalue(b);
}

int Gsub(lua_State* L) {
  // Function and table replacements call back into Lua.
  CheckCStack(L);
  size_t len = 0;
  const char* src = luaL_checklstring(L, 1, &len);
  const char* p = luaL_checkstring(L, 2);
  int type = lua_type(L, 3);
  int max_n = luaL_optint(L, 4, static_cast<int>(len + 1));
  bool anchor = *p == '^';
  if (type != LUA_TNUMBER && type != LUA_TSTRING && type != LUA_TFUNCTION &&
      type != LUA_TTABLE) {
    return luaL_argerror(L, 3, "string/function/table expected");
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  PatternMatcher m({src, len}, anchor ? p + 1 : p, InTime, L);
  size_t pos = 0;  // what is before is in `b`
  int n = 0;
  while (n < max_n) {
    size_t start = 0, end = 0;
    if (!m.Search(pos, anchor, &start, &end)) {
      if (m.error() != PatternError::kNone) return RaiseMatchError(L, m.error());
      break;
    }
    if (start > pos) luaL_addlstring(&b, src + pos, start - pos);
    ++n;
    AddReplacement(L, &b, m, src, start, end);
    if (end > start) {
      pos = end;
    } else if (start < len) {  // an empty match: keep one character, go on after it
      luaL_addchar(&b, src[start]);
      pos = start + 1;
    } else {
      pos = len;
      break;
    }
    if (anchor) break;
  }
  luaL_addlstring(&b, src + pos, len - pos);
  luaL_pushresult(&b);
  lua_pushinteger(L, n);
  return 2;
}

}  // namespace

int Utf8Len(lua_State* L) {
  size_t len = 0;
  const char* s = luaL_checklstring(L, 1, &len);
  lua_Integer n = 0;
  for (size_t i = 0; i < len; ++i) n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  lua_pushinteger(L, n);
  return 1;
}

void InstallPatternFunctions(lua_State* L, int string_table) {
  static const luaL_Reg kFunctions[] = {
      {"find", Find}, {"match", Match}, {"gmatch", Gmatch}, {"gsub", Gsub}};
  string_table = string_table < 0 ? lua_gettop(L) + string_table + 1 : string_table;
  for (const luaL_Reg& f : kFunctions) {
    lua_pushcfunction(L, f.func);
    lua_setfield(L, string_table, f.name);
  }
}

}  // namespace ms::lua
