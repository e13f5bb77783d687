#include "lua/world_binding.h"

#include <lua.hpp>

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/sha256.h"
#include "lua/digest_binding.h"
#include "lua/lambda_binding.h"
#include "lua/marshal.h"
#include "lua/readonly.h"
#include "lua/runtime.h"
#include "lua/world_ids.h"

namespace ms::lua {
namespace {

WorldBinding* Self(lua_State* L) {
  return static_cast<WorldBinding*>(lua_touserdata(L, lua_upvalueindex(1)));
}

std::string CheckString(lua_State* L, int idx, const char* fn, const char* what) {
  size_t n = 0;
  const char* s = lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, &n) : nullptr;
  if (s == nullptr) luaL_error(L, "world.%s: %s must be a string", fn, what);
  return std::string(s, n);
}

// Pushes a Value or raises (the value came from the world: only a corrupt
// state file could make it unpushable).
void Push(lua_State* L, const Value& v) {
  std::string error;
  if (!PushValue(L, v, MarshalOptions(), &error)) luaL_error(L, "world: %s", error.c_str());
}

void PushStrings(lua_State* L, const std::vector<std::string>& items) {
  lua_createtable(L, static_cast<int>(items.size()), 0);
  for (size_t i = 0; i < items.size(); ++i) {
    lua_pushlstring(L, items[i].data(), items[i].size());
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
}

int Get(lua_State* L) {
  WorldBinding* b = Self(L);
  const std::string kind = CheckString(L, 1, "get", "kind");
  const std::string id = CheckString(L, 2, "get", "id");
  // Take the record's data under the lock (shared, never changed in place:
  // no copy), push it after: a Lua error (out of memory) must never unwind
  // through a held lock.
  std::shared_ptr<const Value> data;
  {
    auto lock = b->world()->Lock();
    if (const WorldRecord* r = b->world()->Find(kind, id)) data = r->data;
  }
  if (data) {
    Push(L, *data);
  } else {
    lua_pushnil(L);
  }
  return 1;
}

int Put(lua_State* L) {
  WorldBinding* b = Self(L);
  const std::string kind = CheckString(L, 1, "put", "kind");
  const std::string id = CheckString(L, 2, "put", "id");
  if (!lua_istable(L, 3)) return luaL_error(L, "world.put: data must be a table");
  std::string error;
  Value data;
  if (!ToValue(L, 3, MarshalOptions(), &data, &error, "data")) return luaL_error(L, "world.put: %s", error.c_str());
  if (!data.is_map()) return luaL_error(L, "world.put: data must be a table with string keys");
  WorldRecord r(std::move(data));
  if (!lua_isnoneornil(L, 4)) {
    if (!lua_istable(L, 4)) return luaL_error(L, "world.put: opts must be a table");
    lua_getfield(L, 4, "refs");
    if (lua_istable(L, -1)) {
      ReadThroughView(L, -1);
      for (int i = 1;; ++i) {
        lua_rawgeti(L, -1, i);
        if (lua_isnil(L, -1)) { lua_pop(L, 1); break; }
        if (lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "world.put: opts.refs must hold strings");
        r.refs.emplace_back(lua_tostring(L, -1), lua_objlen(L, -1));
        lua_pop(L, 1);
      }
    } else if (!lua_isnil(L, -1)) {
      return luaL_error(L, "world.put: opts.refs must be a list of ids");
    }
    lua_pop(L, 1);
    lua_getfield(L, 4, "live");
    if (!lua_isnil(L, -1)) r.live = lua_toboolean(L, -1) != 0;
    lua_pop(L, 1);
  }
  b->world()->Put(kind, id, std::move(r));
  return 0;
}

int Remove(lua_State* L) {
  WorldBinding* b = Self(L);
  const std::string kind = CheckString(L, 1, "remove", "kind");
  const std::string id = CheckString(L, 2, "remove", "id");
  lua_pushboolean(L, b->world()->Remove(kind, id));
  return 1;
}

int Ids(lua_State* L) {
  WorldBinding* b = Self(L);
  const std::string kind = CheckString(L, 1, "ids", "kind");
  const std::string prefix = lua_isnoneornil(L, 3) ? std::string() : CheckString(L, 3, "ids", "prefix");
  const std::string after = lua_isnoneornil(L, 4) ? std::string() : CheckString(L, 4, "ids", "after");
  const lua_Number limit = lua_isnoneornil(L, 5) ? 0 : luaL_checknumber(L, 5);
  if (!(limit >= 0)) return luaL_error(L, "world.ids: limit must be a count (0: all)");
  PushStrings(L, b->world()->Ids(kind, lua_toboolean(L, 2) != 0, prefix, after,
                                 limit >= 1e9 ? 0 : static_cast<size_t>(limit)));
  return 1;
}

int Live(lua_State* L) {
  WorldBinding* b = Self(L);
  const std::string kind = CheckString(L, 1, "live", "kind");
  const std::string id = CheckString(L, 2, "live", "id");
  bool live = false;
  {
    auto lock = b->world()->Lock();
    const WorldRecord* r = b->world()->Find(kind, id);
    live = r != nullptr && r->live;
  }
  lua_pushboolean(L, live);
  return 1;
}

int Referrers(lua_State* L) {
  WorldBinding* b = Self(L);
  const std::string id = CheckString(L, 1, "referrers", "id");
  std::vector<WorldKey> keys = b->world()->Referrers(id);
  lua_createtable(L, static_cast<int>(keys.size()), 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    lua_createtable(L, 0, 2);
    lua_pushlstring(L, keys[i].first.data(), keys[i].first.size());
    lua_setfield(L, -2, "kind");
    lua_pushlstring(L, keys[i].second.data(), keys[i].second.size());
    lua_setfield(L, -2, "id");
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
  return 1;
}

int Kinds(lua_State* L) {
  PushStrings(L, Self(L)->world()->Kinds());
  return 1;
}

// atomic(fn, ...): fn runs with the world locked. The lock is released before
// an error propagates, so a failing (or aborted: deadline, memory) action
// never leaves the world locked for other workers.
int Atomic(lua_State* L) {
  WorldBinding* b = Self(L);
  luaL_checktype(L, 1, LUA_TFUNCTION);
  const int base = lua_gettop(L);  // fn and its arguments
  int rc;
  {
    auto lock = b->world()->Lock();
    rc = lua_pcall(L, base - 1, LUA_MULTRET, 0);
  }
  if (rc != 0) return lua_error(L);  // rethrows the same error value
  return lua_gettop(L);
}

// draw(alphabet, n) -> n characters of alphabet from the world's ID
// generator; uniform() -> its next value in (0, 1). See world_ids.h.
int Draw(lua_State* L) {
  size_t size = 0;
  const char* alphabet = luaL_checklstring(L, 1, &size);
  const lua_Number n = luaL_checknumber(L, 2);
  if (size == 0 || !(n >= 0 && n <= 4096)) return luaL_error(L, "world.draw: a non-empty alphabet and 0..4096 characters");
  const std::string out = DrawFromWorld(Self(L)->world(), std::string_view(alphabet, size), static_cast<int>(n));
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

int Uniform(lua_State* L) {
  lua_pushnumber(L, UniformFromWorld(Self(L)->world()));
  return 1;
}

int NowMs(lua_State* L) {
  lua_pushnumber(L, static_cast<lua_Number>(Self(L)->now_ms()));
  return 1;
}

int SetNowMs(lua_State* L) {
  Self(L)->set_now_ms(static_cast<int64_t>(luaL_checknumber(L, 1)));
  return 0;
}

// os.time() and os.date(fmt) tell the world's time, not the machine's, so a
// provider stamping a record behaves the same under virtual time. With a
// time argument they are the standard functions (upvalue 2).
int OsTime(lua_State* L) {
  if (!lua_isnoneornil(L, 1)) {
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
  }
  lua_pushnumber(L, static_cast<lua_Number>(Self(L)->now_ms() / 1000));
  return 1;
}

int OsDate(lua_State* L) {
  const int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(2));
  if (n >= 1) lua_pushvalue(L, 1); else lua_pushstring(L, "%c");
  if (n >= 2 && !lua_isnil(L, 2)) lua_pushvalue(L, 2);
  else lua_pushnumber(L, static_cast<lua_Number>(Self(L)->now_ms() / 1000));
  lua_call(L, 2, 1);
  return 1;
}

// Replaces os[name] with fn closed over the binding and the original. The
// global os is a read-only view (readonly.h): the change goes to its table.
void WrapOs(lua_State* L, WorldBinding* b, const char* name, lua_CFunction fn) {
  lua_getglobal(L, "os");
  if (!lua_istable(L, -1)) { lua_pop(L, 1); return; }
  ReadThroughView(L, -1);
  lua_pushlightuserdata(L, b);
  lua_getfield(L, -2, name);
  lua_pushcclosure(L, fn, 2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

// read_blob(id, offset, length) -> the bytes of a blob a record names
// (world.h), or raises. For the sim's own readers of small objects (a
// TemplateURL's template, a Lambda zip): `serve` streams bodies itself.
int ReadBlob(lua_State* L) {
  WorldBinding* b = Self(L);
  const auto id = static_cast<int64_t>(luaL_checknumber(L, 1));
  const auto offset = static_cast<uint64_t>(luaL_optnumber(L, 2, 0));
  const auto length = static_cast<uint64_t>(luaL_checknumber(L, 3));
  BlobSource* source = b->world()->blob_source();
  std::string bytes;
  Status s = source != nullptr ? source->Read(id, offset, length, &bytes)
                               : Status::NotFound("this world keeps no blobs");
  if (!s.ok()) return luaL_error(L, "world.read_blob: %s", s.message().c_str());
  lua_pushlstring(L, bytes.data(), bytes.size());
  return 1;
}

// blob_sha256(id1, size1, id2, size2, ...) -> the raw SHA-256 of those
// blobs' bytes in order, read a chunk at a time outside Lua: a Lambda
// package of tens of MB is digested without becoming a Lua string (the
// state's memory cap would refuse it).
int BlobSha256(lua_State* L) {
  WorldBinding* b = Self(L);
  BlobSource* source = b->world()->blob_source();
  if (source == nullptr) return luaL_error(L, "world.blob_sha256: this world keeps no blobs");
  std::vector<std::pair<int64_t, uint64_t>> blobs;
  for (int i = 1; i + 1 <= lua_gettop(L); i += 2) {
    blobs.emplace_back(static_cast<int64_t>(luaL_checknumber(L, i)), static_cast<uint64_t>(luaL_checknumber(L, i + 1)));
  }
  Sha256 sha;
  Status s = source->ReadInOrder(blobs, [&](std::string_view bytes) { sha.Update(bytes); });
  if (!s.ok()) return luaL_error(L, "world.blob_sha256: %s", s.message().c_str());
  const std::array<uint8_t, 32> digest = sha.Final();
  lua_pushlstring(L, reinterpret_cast<const char*>(digest.data()), digest.size());
  return 1;
}

int Open(lua_State* L) {
  auto* b = static_cast<WorldBinding*>(lua_touserdata(L, 1));
  WrapOs(L, b, "time", OsTime);
  WrapOs(L, b, "date", OsDate);
  static const luaL_Reg kFunctions[] = {
      {"get", Get},   {"put", Put},           {"remove", Remove}, {"ids", Ids},
      {"live", Live}, {"referrers", Referrers}, {"kinds", Kinds}, {"atomic", Atomic},
      {"now_ms", NowMs}, {"set_now_ms", SetNowMs}, {"read_blob", ReadBlob}, {"blob_sha256", BlobSha256},
      {"draw", Draw}, {"uniform", Uniform}, {nullptr, nullptr},
  };
  lua_newtable(L);
  for (const luaL_Reg* f = kFunctions; f->name; ++f) {
    lua_pushlightuserdata(L, b);
    lua_pushcclosure(L, f->func, 1);
    lua_setfield(L, -2, f->name);
  }
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "moonstack.world");
  OpenLambdaRunner(L, b->world());  // wherever simulated actions run, Lambda functions can
  OpenDigest(L);        // and package digests are taken
  return 0;
}

}  // namespace

Status WorldBinding::Install(Runtime* rt, World* world, std::unique_ptr<WorldBinding>* out) {
  auto b = std::unique_ptr<WorldBinding>(new WorldBinding(world));
  if (lua_cpcall(rt->state(), Open, b.get()) != 0) {
    std::string message = lua_tostring(rt->state(), -1) ? lua_tostring(rt->state(), -1) : "error";
    lua_pop(rt->state(), 1);
    return Status::Internal("cannot install moonstack.world: " + message);
  }
  *out = std::move(b);
  return Status::OK();
}

}  // namespace ms::lua
