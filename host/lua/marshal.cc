#include "lua/marshal.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

#include <lua.hpp>

#include "lua/readonly.h"
#include "lua/string_lib.h"

namespace ms::lua {
namespace {

// Addresses used as identities: the null sentinel and the registry keys of
// the two shared marker metatables.
char g_null;
char g_array_mt_key;
char g_object_mt_key;

constexpr const char* kTypeField = "__jsontype";
constexpr const char* kOrderField = "__order";
constexpr const char* kNumTextField = "__numtext";

double ParseNumber(const std::string& text) {
  double d = 0;
  auto res = std::from_chars(text.data(), text.data() + text.size(), d);
  if (res.ec == std::errc()) return d;
  return std::strtod(text.c_str(), nullptr);  // out of range: ±HUGE_VAL or 0
}

// True when Value::Double(parse(text)) would give `text` back.
bool IsCanonical(const std::string& text, double d) {
  // Fast path: a short plain integer ("0", "-12") is always canonical.
  size_t i = (!text.empty() && text[0] == '-') ? 1 : 0;
  size_t digits = text.size() - i;
  if (digits > 0 && digits <= 15 && (text[i] != '0' || digits == 1) &&
      !(i == 1 && digits == 1 && text[1] == '0') &&
      std::all_of(text.begin() + i, text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return true;
  }
  return std::isfinite(d) && Value::Double(d).str() == text;
}

void PushMarker(lua_State* L, const void* key) {
  lua_pushlightuserdata(L, const_cast<void*>(key));
  lua_rawget(L, LUA_REGISTRYINDEX);
}

// Sets the table at -1's metatable: the shared marker, or a private one
// carrying the order and number texts (at `order` / `numtext`, 0 for none).
void SetMarker(lua_State* L, bool array, int order, int numtext) {
  if (order == 0 && numtext == 0) {
    PushMarker(L, array ? &g_array_mt_key : &g_object_mt_key);
  } else {
    lua_createtable(L, 0, 3);
    lua_pushstring(L, array ? "array" : "object");
    lua_setfield(L, -2, kTypeField);
    if (order != 0) {
      lua_pushvalue(L, order);
      lua_setfield(L, -2, kOrderField);
    }
    if (numtext != 0) {
      lua_pushvalue(L, numtext);
      lua_setfield(L, -2, kNumTextField);
    }
  }
  lua_setmetatable(L, -2);
}

class Pusher {
 public:
  Pusher(lua_State* L, const MarshalOptions& o, std::string* error) : L(L), o_(o), error_(error) {}

  bool Push(const Value& v, int depth) {
    switch (v.kind()) {
      case Value::Kind::kNull:
        PushNull(L);
        return true;
      case Value::Kind::kBool:
        if (o_.stringify_scalars) lua_pushstring(L, v.as_bool() ? "true" : "false");
        else lua_pushboolean(L, v.as_bool());
        return true;
      case Value::Kind::kNumber:
        if (o_.stringify_scalars) lua_pushlstring(L, v.str().data(), v.str().size());
        else lua_pushnumber(L, ParseNumber(v.str()));
        return true;
      case Value::Kind::kString:
        lua_pushlstring(L, v.str().data(), v.str().size());
        return true;
      case Value::Kind::kList:
        return PushList(v, depth + 1);
      case Value::Kind::kMap:
        return PushMap(v, depth + 1);
      case Value::Kind::kUnknown: {
        std::string refs;
        for (const auto& r : v.unknown_refs()) refs += (refs.empty() ? "" : ", ") + r;
        *error_ = "an unknown value (depends on " + refs + ") cannot be passed to Lua";
        return false;
      }
    }
    *error_ = "unsupported value kind";
    return false;
  }

 private:
  bool DepthOk(int depth) {
    if (depth <= o_.max_depth) return true;
    *error_ = "value nested deeper than " + std::to_string(o_.max_depth) + " levels";
    return false;
  }

  // A number whose text Lua would not give back ("1.0") is remembered in
  // the container's __numtext.
  bool NeedsText(const Value& item) const {
    return !o_.stringify_scalars && item.is_number() &&
           !IsCanonical(item.str(), ParseNumber(item.str()));
  }

  bool PushList(const Value& v, int depth) {
    if (!DepthOk(depth)) return false;
    const auto& items = v.list();
    luaL_checkstack(L, 6, "value nested too deeply");
    lua_createtable(L, static_cast<int>(items.size()), 0);
    int table = lua_gettop(L);
    int numtext = 0;
    for (size_t i = 0; i < items.size(); ++i) {
      if (!Push(items[i], depth)) return Fail(table);
      lua_rawseti(L, table, static_cast<int>(i + 1));
      if (NeedsText(items[i])) {
        if (numtext == 0) numtext = NewSideTable();
        lua_pushlstring(L, items[i].str().data(), items[i].str().size());
        lua_rawseti(L, numtext, static_cast<int>(i + 1));
      }
    }
    lua_pushvalue(L, table);  // SetMarker works on the table at -1
    SetMarker(L, true, 0, numtext);
    lua_settop(L, table);  // drop the copy and the side table
    return true;
  }

  bool PushMap(const Value& v, int depth) {
    if (!DepthOk(depth)) return false;
    const auto& members = v.map();
    luaL_checkstack(L, 8, "value nested too deeply");
    lua_createtable(L, 0, static_cast<int>(members.size()));
    int table = lua_gettop(L);
    int numtext = 0;
    bool sorted = true;
    for (size_t i = 0; i < members.size(); ++i) {
      const Member& m = members[i];
      if (i > 0 && !(members[i - 1].key < m.key)) sorted = false;
      lua_pushlstring(L, m.key.data(), m.key.size());
      if (!Push(m.value, depth)) return Fail(table);
      lua_rawset(L, table);
      if (NeedsText(m.value)) {
        if (numtext == 0) numtext = NewSideTable();
        lua_pushlstring(L, m.key.data(), m.key.size());
        lua_pushlstring(L, m.value.str().data(), m.value.str().size());
        lua_rawset(L, numtext);
      }
    }
    int order = 0;
    if (!sorted && o_.keep_key_order) {
      lua_createtable(L, 0, static_cast<int>(members.size()));
      order = lua_gettop(L);
      for (size_t i = 0; i < members.size(); ++i) {
        lua_pushlstring(L, members[i].key.data(), members[i].key.size());
        lua_pushinteger(L, static_cast<lua_Integer>(i + 1));
        lua_rawset(L, order);
      }
    }
    // An empty map stays unmarked: it reads back as a map while empty, and
    // Lua code that fills it as a list (t[#t + 1] = x) gets a list.
    if (!members.empty()) {
      lua_pushvalue(L, table);  // SetMarker works on the table at -1
      SetMarker(L, false, order, numtext);
    }
    lua_settop(L, table);  // drop the copy and the side tables
    return true;
  }

  // A side table created above the container; returns its index.
  int NewSideTable() {
    lua_newtable(L);
    return lua_gettop(L);
  }

  bool Fail(int table) {
    lua_settop(L, table - 1);
    return false;
  }

  lua_State* L;
  const MarshalOptions& o_;
  std::string* error_;
};

// One step of the path to the value being converted, for error messages.
struct PathStep {
  const PathStep* parent;
  const void* table;       // the table this step descends into (cycle check)
  std::string_view key;    // map key, or empty
  size_t index;            // 1-based list index when key is empty
};

class Reader {
  struct Key {
    std::string_view name;
    double rank;  // position in the document order; HUGE_VAL for new keys
    int slot;     // the stack slot holding its value, 0: look it up in the table
  };
  // A map keeps up to this many values on the Lua stack while its keys are
  // sorted (two slots each, far below LuaJIT's C stack limit of 8,000);
  // the keys of a bigger one are looked up again.
  static constexpr size_t kKeptValues = 1000;

 public:
  Reader(lua_State* L, const MarshalOptions& o, std::string* error, const std::string& what)
      : L(L), o_(o), error_(error), what_(what) {
    keys_.reserve(16);
  }

  bool Read(int idx, const PathStep* path, int depth, Value* out) {
    switch (lua_type(L, idx)) {
      case LUA_TNIL:
        *out = Value::Null();
        return true;
      case LUA_TBOOLEAN:
        *out = Value::Bool(lua_toboolean(L, idx) != 0);
        return true;
      case LUA_TNUMBER: {
        double d = lua_tonumber(L, idx);
        if (!std::isfinite(d)) {
          return Error(path, std::isnan(d) ? "cannot convert nan to a number"
                                           : "cannot convert an infinite number");
        }
        *out = Value::Double(d);
        return true;
      }
      case LUA_TSTRING: {
        size_t n = 0;
        const char* s = lua_tolstring(L, idx, &n);
        *out = Value::String(std::string(s, n));
        return true;
      }
      case LUA_TLIGHTUSERDATA:
        if (lua_touserdata(L, idx) == &g_null) {
          *out = Value::Null();
          return true;
        }
        return Error(path, "cannot convert a userdata value");
      case LUA_TTABLE:
        return ReadTable(idx, path, depth + 1, out);
      default:
        return Error(path, std::string("cannot convert a ") + luaL_typename(L, idx) + " value");
    }
  }

 private:
  bool ReadTable(int idx, const PathStep* path, int depth, Value* out) {
    ReadThroughView(L, idx);  // a read-only view converts as the table it views
    const void* self = lua_topointer(L, idx);
    for (const PathStep* p = path; p; p = p->parent) {
      if (p->table == self) return Error(path, "cannot convert a table that contains itself");
    }
    if (depth > o_.max_depth) {
      return Error(path, "value nested deeper than " + std::to_string(o_.max_depth) + " levels");
    }
    luaL_checkstack(L, 8, "value nested too deeply");
    int base = lua_gettop(L);

    // The marker and its side tables (left on the stack at known slots).
    enum { kUnmarked, kArray, kObject } marker = kUnmarked;
    int order = 0, numtext = 0;
    if (lua_getmetatable(L, idx)) {
      int mt = lua_gettop(L);
      lua_pushstring(L, kTypeField);
      lua_rawget(L, mt);
      if (lua_type(L, -1) == LUA_TSTRING) {
        std::string_view t = lua_tostring(L, -1);
        if (t == "array") marker = kArray;
        if (t == "object") marker = kObject;
      }
      lua_pop(L, 1);
      if (marker != kUnmarked) {
        lua_pushstring(L, kOrderField);
        lua_rawget(L, mt);
        if (lua_istable(L, -1)) order = lua_gettop(L); else lua_pop(L, 1);
        lua_pushstring(L, kNumTextField);
        lua_rawget(L, mt);
        if (lua_istable(L, -1)) numtext = lua_gettop(L); else lua_pop(L, 1);
      }
    }

    // One pass over the keys: strings are kept (views into the table's own
    // key strings, alive while the table is), integers counted. They go on
    // the reader's key stack, from `first`; nested tables push theirs
    // above and pop them, so a whole value reuses one allocation.
    const size_t first = keys_.size();
    struct PopKeys {
      std::vector<Key>* keys;
      size_t first;
      ~PopKeys() { keys->resize(first); }
    } pop{&keys_, first};
    size_t ints = 0;
    lua_Number max_int = 0;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      if (lua_type(L, -2) == LUA_TSTRING) {
        size_t n = 0;
        const char* s = lua_tolstring(L, -2, &n);
        if (keys_.size() - first < kKeptValues) {
          // Key and value stay on the stack (the key anchors the view's
          // string); a copy of the key goes on for lua_next.
          keys_.push_back({std::string_view(s, n), 0, lua_gettop(L)});
          luaL_checkstack(L, 3, "value nested too deeply");
          lua_pushvalue(L, -2);
        } else {
          keys_.push_back({std::string_view(s, n), 0, 0});
          lua_pop(L, 1);  // the value
        }
        continue;
      }
      lua_pop(L, 1);  // the value
      if (lua_type(L, -1) == LUA_TNUMBER) {
        lua_Number k = lua_tonumber(L, -1);
        if (!(k >= 1 && k == std::floor(k) && k <= INT_MAX)) {
          lua_settop(L, base);
          return Error(path, "cannot convert a table with key " + NumberKey(k) +
                                 " (list indexes are 1..n)");
        }
        ++ints;
        max_int = std::max(max_int, k);
      } else {
        std::string type = luaL_typename(L, -1);
        lua_settop(L, base);
        return Error(path, "cannot convert a table with a " + type + " key");
      }
    }
    const size_t strings = keys_.size() - first;

    bool as_list;
    if (marker == kArray) {
      if (strings > 0) {
        lua_settop(L, base);
        return Error(path, "cannot convert a list with key \"" + std::string(keys_[first].name) + "\"");
      }
      as_list = true;
    } else if (marker == kObject) {
      if (ints > 0) {
        lua_settop(L, base);
        return Error(path, "cannot convert a map with a number key");
      }
      as_list = false;
    } else if (ints > 0 && strings > 0) {
      lua_settop(L, base);
      return Error(path, "cannot convert a table with both list and map keys");
    } else {
      as_list = ints > 0;
    }

    bool ok = as_list ? ReadList(idx, path, depth, ints, static_cast<size_t>(max_int), numtext, out)
                      : ReadMap(idx, path, depth, first, order, numtext, out);
    lua_settop(L, base);
    return ok;
  }

  bool ReadList(int idx, const PathStep* path, int depth, size_t count, size_t n, int numtext,
                Value* out) {
    if (count != n) return Error(path, "cannot convert a list with holes (a nil before index " +
                                           std::to_string(n) + ")");
    Value::List items;
    items.reserve(n);
    const void* self = lua_topointer(L, idx);
    for (size_t i = 1; i <= n; ++i) {
      PathStep step{path, self, {}, i};
      lua_rawgeti(L, idx, static_cast<int>(i));
      Value item;
      if (!Read(lua_gettop(L), &step, depth, &item)) return false;
      if (numtext && item.is_number()) {
        lua_rawgeti(L, numtext, static_cast<int>(i));
        KeepText(-2, &item);
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
      items.push_back(std::move(item));
    }
    *out = Value::MakeList(std::move(items));
    return true;
  }

  // Reads the map whose keys are keys_[first..]: nested tables push theirs
  // above them (and may move the stack), so they are read by index.
  bool ReadMap(int idx, const PathStep* path, int depth, size_t first, int order, int numtext, Value* out) {
    const size_t end = keys_.size();
    if (order) {
      for (size_t i = first; i < end; ++i) {
        Key& k = keys_[i];
        lua_pushlstring(L, k.name.data(), k.name.size());
        lua_rawget(L, order);
        k.rank = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : HUGE_VAL;
        lua_pop(L, 1);
      }
    }
    std::sort(keys_.begin() + static_cast<std::ptrdiff_t>(first), keys_.end(), [](const Key& a, const Key& b) {
      return a.rank != b.rank ? a.rank < b.rank : a.name < b.name;
    });
    Value::Map members;
    members.reserve(end - first);
    const void* self = lua_topointer(L, idx);
    for (size_t i = first; i < end; ++i) {
      const std::string_view name = keys_[i].name;
      PathStep step{path, self, name, 0};
      if (keys_[i].slot != 0) {
        lua_pushvalue(L, keys_[i].slot);
      } else {
        lua_pushlstring(L, name.data(), name.size());
        lua_rawget(L, idx);
      }
      Value item;
      if (!Read(lua_gettop(L), &step, depth, &item)) return false;
      if (numtext && item.is_number()) {
        lua_pushlstring(L, name.data(), name.size());
        lua_rawget(L, numtext);
        KeepText(-2, &item);
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
      members.push_back(Member{std::string(name), std::move(item)});
    }
    *out = Value::MakeMap(std::move(members));
    return true;
  }

  // The number at `value_idx` came with the text at -1: keep that text when
  // it still spells the same value.
  void KeepText(int value_idx, Value* item) {
    if (lua_type(L, -1) != LUA_TSTRING) return;
    size_t n = 0;
    const char* s = lua_tolstring(L, -1, &n);
    std::string text(s, n);
    if (ParseNumber(text) == lua_tonumber(L, value_idx)) *item = Value::Number(text);
  }

  static std::string NumberKey(lua_Number k) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.14g", k);
    return buf;
  }

  bool Error(const PathStep* path, const std::string& problem) {
    std::vector<const PathStep*> steps;
    for (const PathStep* p = path; p; p = p->parent) steps.push_back(p);
    std::string where = what_;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
      if ((*it)->key.data() != nullptr) where += "." + std::string((*it)->key);
      else where += "[" + std::to_string((*it)->index) + "]";
    }
    *error_ = where + ": " + problem;
    return false;
  }

  lua_State* L;
  const MarshalOptions& o_;
  std::string* error_;
  const std::string& what_;
  std::vector<Key> keys_;  // the string keys of the maps being read, outermost first
};

// moonstack.array(t) / moonstack.object(t): marks t (a new table when
// absent) and returns it. Replaces any metatable t had.
int MarkArray(lua_State* L) {
  if (lua_isnoneornil(L, 1)) lua_newtable(L); else luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  RefuseView(L, 1);  // lua_setmetatable would take the view's protection off
  PushMarker(L, &g_array_mt_key);
  lua_setmetatable(L, 1);
  return 1;
}

int MarkObject(lua_State* L) {
  if (lua_isnoneornil(L, 1)) lua_newtable(L); else luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  RefuseView(L, 1);
  PushMarker(L, &g_object_mt_key);
  lua_setmetatable(L, 1);
  return 1;
}

// moonstack.kind(v): what v becomes in the engine, looking one level deep:
// "null", "boolean", "number", "string", "array", "object"; nil when v cannot
// be converted (a function, a table with mixed keys, ...).
int Kind(lua_State* L) {
  lua_settop(L, 1);
  switch (lua_type(L, 1)) {
    case LUA_TNIL: lua_pushstring(L, "null"); return 1;
    case LUA_TBOOLEAN: lua_pushstring(L, "boolean"); return 1;
    case LUA_TNUMBER: lua_pushstring(L, "number"); return 1;
    case LUA_TSTRING: lua_pushstring(L, "string"); return 1;
    case LUA_TLIGHTUSERDATA:
      if (IsNull(L, 1)) { lua_pushstring(L, "null"); return 1; }
      return 0;
    case LUA_TTABLE: break;
    default: return 0;
  }
  ReadThroughView(L, 1);
  if (lua_getmetatable(L, 1)) {
    lua_pushstring(L, kTypeField);
    lua_rawget(L, -2);
    if (lua_type(L, -1) == LUA_TSTRING) {
      std::string_view t = lua_tostring(L, -1);
      if (t == "array" || t == "object") return 1;
    }
    lua_settop(L, 1);
  }
  bool strings = false, ints = false;
  lua_Number n = 0, max = 0;
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      strings = true;
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      lua_Number k = lua_tonumber(L, -1);
      if (!(k >= 1 && k == std::floor(k))) return 0;
      ints = true;
      ++n;
      max = std::max(max, k);
    } else {
      return 0;
    }
  }
  if (strings && ints) return 0;
  if (ints && n != max) return 0;
  lua_pushstring(L, ints ? "array" : "object");
  return 1;
}

int NullToString(lua_State* L) {
  lua_pushstring(L, "null");
  return 1;
}

void NewMarker(lua_State* L, const void* key, const char* type) {
  lua_pushlightuserdata(L, const_cast<void*>(key));
  lua_createtable(L, 0, 1);
  lua_pushstring(L, type);
  lua_setfield(L, -2, kTypeField);
  lua_rawset(L, LUA_REGISTRYINDEX);
}

}  // namespace

void PushNull(lua_State* L) { lua_pushlightuserdata(L, &g_null); }

bool IsNull(lua_State* L, int idx) {
  return lua_type(L, idx) == LUA_TLIGHTUSERDATA && lua_touserdata(L, idx) == &g_null;
}

void InstallMarshal(lua_State* L) {
  NewMarker(L, &g_array_mt_key, "array");
  NewMarker(L, &g_object_mt_key, "object");

  // All light userdata share one metatable; the sandbox exposes no other
  // light userdata, so this only makes tostring(moonstack.null) == "null".
  PushNull(L);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, NullToString);
  lua_setfield(L, -2, "__tostring");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);

  lua_createtable(L, 0, 4);
  PushNull(L);
  lua_setfield(L, -2, "null");
  lua_pushcfunction(L, MarkArray);
  lua_setfield(L, -2, "array");
  lua_pushcfunction(L, MarkObject);
  lua_setfield(L, -2, "object");
  lua_pushcfunction(L, Kind);
  lua_setfield(L, -2, "kind");
  lua_pushcfunction(L, Utf8Len);
  lua_setfield(L, -2, "utf8_len");
  lua_pushvalue(L, -1);
  lua_setglobal(L, "moonstack");
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "moonstack");
  lua_pop(L, 2);
}

bool PushValue(lua_State* L, const Value& v, const MarshalOptions& o, std::string* error) {
  luaL_checkstack(L, 4, "too many values");
  return Pusher(L, o, error).Push(v, 0);
}

bool ToValue(lua_State* L, int idx, const MarshalOptions& o, Value* out, std::string* error,
             const std::string& what) {
  if (idx < 0 && idx > LUA_REGISTRYINDEX) idx = lua_gettop(L) + idx + 1;
  Reader reader(L, o, error, what);
  return reader.Read(idx, nullptr, 0, out);
}

}  // namespace ms::lua
