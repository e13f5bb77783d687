#include "lua/error.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include <lua.hpp>

namespace ms::lua {
namespace {

// luaL_traceback's shape: the first kHead frames, "...", the last kTail.
constexpr int kHead = 12;
constexpr int kTail = 10;

std::string StringAt(lua_State* L, int idx) {
  size_t n = 0;
  const char* s = lua_tolstring(L, idx, &n);
  return s ? std::string(s, n) : std::string();
}

std::string NumberText(lua_Number d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.14g", d);
  return buf;
}

// A scalar field of an error table, read raw ("" when absent or not scalar).
std::string RawField(lua_State* L, int table, const char* key, bool* present) {
  lua_pushstring(L, key);
  lua_rawget(L, table);
  std::string out;
  *present = true;
  if (lua_type(L, -1) == LUA_TSTRING) {
    out = StringAt(L, -1);
  } else if (lua_type(L, -1) == LUA_TNUMBER) {
    out = NumberText(lua_tonumber(L, -1));
  } else {
    *present = false;
  }
  lua_pop(L, 1);
  return out;
}

// Number of frames on the stack, found the way Lua 5.2's luaL_traceback does
// (exponential then binary search): after a Lua stack overflow there are
// ~65,000 frames and lua_getstack walks from the top each time.
int StackDepth(lua_State* L) {
  lua_Debug ar;
  int lo = 1, hi = 1;
  while (lua_getstack(L, hi, &ar)) {
    lo = hi;
    hi *= 2;
  }
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (lua_getstack(L, mid, &ar)) lo = mid + 1; else hi = mid;
  }
  return lo;  // levels 0 .. lo-1 exist
}

std::string Position(const lua_Debug& ar) {
  return std::string(ar.short_src) + ":" + std::to_string(ar.currentline);
}

void AppendFrame(std::string* out, const lua_Debug& ar) {
  out->append("\n\t");
  out->append(ar.short_src);
  out->push_back(':');
  if (ar.currentline > 0) out->append(std::to_string(ar.currentline) + ":");
  if (ar.namewhat != nullptr && *ar.namewhat != '\0') {
    out->append(" in function '");
    out->append(ar.name ? ar.name : "?");
    out->push_back('\'');
  } else if (*ar.what == 'm') {
    out->append(" in main chunk");
  } else if (*ar.what == 'C') {
    out->append(" ?");
  } else {
    out->append(" in function <" + std::string(ar.short_src) + ":" +
                std::to_string(ar.linedefined) + ">");
  }
}

}  // namespace

const char* LuaErrorKindName(LuaErrorKind k) {
  switch (k) {
    case LuaErrorKind::kError: return "error";
    case LuaErrorKind::kDeadline: return "deadline";
    case LuaErrorKind::kMemory: return "memory";
    case LuaErrorKind::kStackOverflow: return "stack overflow";
    case LuaErrorKind::kMarshal: return "marshal";
    case LuaErrorKind::kInternal: return "internal";
  }
  return "?";
}

std::string LuaError::Diagnostic() const {
  std::string out = location.empty() ? message : location + ": " + message;
  if (!code.empty()) out += " (" + code + ")";
  if (!traceback.empty()) out += "\n" + traceback;
  return out;
}

Status LuaError::ToStatus() const {
  if (kind == LuaErrorKind::kInternal) return Status::Internal(Diagnostic());
  return Status::Validation(Diagnostic());
}

int CaptureError(lua_State* L) {
  auto* e = static_cast<LuaError*>(lua_touserdata(L, lua_upvalueindex(1)));
  *e = LuaError{};
  bool may_have_position = false;
  switch (lua_type(L, 1)) {
    case LUA_TSTRING:
      e->message = StringAt(L, 1);
      may_have_position = true;  // error("x") and runtime errors prepend "src:line: "
      break;
    case LUA_TNUMBER:
      e->message = NumberText(lua_tonumber(L, 1));
      break;
    case LUA_TTABLE: {
      bool has_message = false, has_code = false;
      e->raised_table = true;
      e->message = RawField(L, 1, "message", &has_message);
      e->code = RawField(L, 1, "code", &has_code);
      if (!has_message) e->message = "(error object is a table value)";
      break;
    }
    default:
      e->message = std::string("(error object is a ") + luaL_typename(L, 1) + " value)";
      break;
  }

  // Location: the frame whose position prefixes the message (error(msg, 2)
  // names the caller), else the innermost Lua frame.
  int depth = StackDepth(L);
  lua_Debug ar;
  for (int level = 0; level < depth && level < 64; ++level) {
    if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Sl", &ar)) break;
    if (ar.currentline <= 0 || std::strcmp(ar.short_src, kHostChunkName + 1) == 0) continue;
    std::string pos = Position(ar);
    if (e->location.empty()) e->location = pos;
    if (may_have_position && e->message.size() > pos.size() + 1 &&
        e->message.compare(0, pos.size(), pos) == 0 &&
        e->message.compare(pos.size(), 2, ": ") == 0) {
      e->message.erase(0, pos.size() + 2);
      e->location = pos;
      break;
    }
    if (!may_have_position) break;
  }

  e->traceback = "stack traceback:";
  for (int level = 1; level < depth; ++level) {
    if (level == kHead + 1 && depth - level > kTail) {
      e->traceback += "\n\t...";
      level = depth - kTail - 1;
      continue;
    }
    if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Sln", &ar)) break;
    AppendFrame(&e->traceback, ar);
  }
  lua_settop(L, 1);
  return 1;
}

}  // namespace ms::lua
