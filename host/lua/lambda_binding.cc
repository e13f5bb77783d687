#include "lua/lambda_binding.h"

#include <lua.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lambda/runner.h"
#include "lua/limits.h"
#include "lua/marshal.h"
#include "template/parse.h"
#include "world/world.h"

namespace ms::lua {
namespace {

std::string StringField(lua_State* L, int t, const char* name) {
  lua_getfield(L, t, name);
  size_t n = 0;
  const char* s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &n) : nullptr;
  std::string out = s ? std::string(s, n) : std::string();
  lua_pop(L, 1);
  return out;
}

int IntField(lua_State* L, int t, const char* name, int fallback) {
  lua_getfield(L, t, name);
  const int out = lua_isnumber(L, -1) ? static_cast<int>(lua_tointeger(L, -1)) : fallback;
  lua_pop(L, 1);
  return out;
}

lambda::Invocation ReadInvocation(lua_State* L) {
  lambda::Invocation inv;
  inv.function_name = StringField(L, 1, "function_name");
  inv.function_arn = StringField(L, 1, "function_arn");
  inv.runtime = StringField(L, 1, "runtime");
  inv.handler = StringField(L, 1, "handler");
  if (std::string region = StringField(L, 1, "region"); !region.empty()) inv.region = region;
  inv.account = StringField(L, 1, "account");
  // Lambda's bounds: 1-900 seconds, 128-10240 MB.
  inv.timeout_seconds = std::min(900, std::max(1, IntField(L, 1, "timeout", 3)));
  inv.memory_mb = std::min(10240, std::max(128, IntField(L, 1, "memory", 128)));
  inv.inline_code = StringField(L, 1, "inline_code");
  inv.zip = StringField(L, 1, "zip");
  if (std::string event = StringField(L, 1, "event"); !event.empty()) inv.event_json = event;
  inv.request_id = StringField(L, 1, "request_id");
  inv.log_stream_name = StringField(L, 1, "log_stream_name");
  inv.last_modified = StringField(L, 1, "last_modified");
  inv.endpoint_url = StringField(L, 1, "endpoint_url");
  lua_getfield(L, 1, "capture_response_url");
  inv.capture_response_url = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  lua_getfield(L, 1, "environment");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING) {
        inv.environment.emplace_back(lua_tostring(L, -2), lua_tostring(L, -1));
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return inv;
}

void SetString(lua_State* L, const char* name, const std::string& s) {
  lua_pushlstring(L, s.data(), s.size());
  lua_setfield(L, -2, name);
}

void SetNumber(lua_State* L, const char* name, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, name);
}

void SetBool(lua_State* L, const char* name, bool v) {
  lua_pushboolean(L, v);
  lua_setfield(L, -2, name);
}

// A package the store keeps as blobs, t.zip_blobs = {id1, size1, ...} of
// the table at index t: appended to *zip here, outside the Lua state's
// memory cap (a package of tens of MB never becomes a Lua string). False
// and why when one is gone.
bool ReadZipBlobs(lua_State* L, int t, World* world, std::string* zip, std::string* why) {
  std::vector<std::pair<int64_t, uint64_t>> blobs;
  lua_getfield(L, t, "zip_blobs");
  const bool has = lua_istable(L, -1);
  for (int i = 1; has; i += 2) {
    lua_rawgeti(L, -1, i);
    lua_rawgeti(L, -2, i + 1);
    const bool pair = lua_isnumber(L, -2) && lua_isnumber(L, -1);
    if (pair) blobs.emplace_back(static_cast<int64_t>(lua_tonumber(L, -2)), static_cast<uint64_t>(lua_tonumber(L, -1)));
    lua_pop(L, 2);
    if (!pair) break;
  }
  lua_pop(L, 1);
  if (!has) return true;
  if (world == nullptr || world->blob_source() == nullptr) {
    *why = "this world keeps no blobs";
    return false;
  }
  Status s = world->blob_source()->ReadInOrder(blobs, [&](std::string_view bytes) { zip->append(bytes); });
  if (!s.ok()) *why = s.message();
  return s.ok();
}

// spec.layers = { {zip = bytes} or {zip_blobs = {...}}, ... }: each layer's
// archive, in order, into inv.layers.
bool ReadLayers(lua_State* L, World* world, lambda::Invocation* inv, std::string* why) {
  lua_getfield(L, 1, "layers");
  const bool has = lua_istable(L, -1);
  const int list = lua_gettop(L);
  for (int i = 1; has; ++i) {
    lua_rawgeti(L, list, i);
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      break;
    }
    std::string zip = StringField(L, lua_gettop(L), "zip");
    const bool read = ReadZipBlobs(L, lua_gettop(L), world, &zip, why);
    lua_pop(L, 1);
    if (!read) {
      lua_pop(L, 1);
      return false;
    }
    inv->layers.push_back(std::move(zip));
  }
  lua_pop(L, 1);
  return true;
}

int Run(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lambda::Invocation inv = ReadInvocation(L);
  std::string why;
  World* world = static_cast<World*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (!ReadZipBlobs(L, 1, world, &inv.zip, &why)) {
    return luaL_error(L, "moonstack.lambda run: the function's package: %s", why.c_str());
  }
  if (!ReadLayers(L, world, &inv, &why)) {
    return luaL_error(L, "moonstack.lambda run: a layer's package: %s", why.c_str());
  }
  // The function's time is its own, not the provider call's (limits.h).
  const auto begin = std::chrono::steady_clock::now();
  const lambda::Outcome o = lambda::Run(inv);
  ExtendDeadline(L, std::chrono::steady_clock::now() - begin);
  lua_createtable(L, 0, 15);
  SetBool(L, "ran", o.ran);
  if (!o.ran) SetString(L, "error", o.error);
  SetString(L, "payload", o.payload);
  SetBool(L, "function_error", o.function_error);
  SetBool(L, "timed_out", o.timed_out);
  SetString(L, "log", o.log);
  lua_createtable(L, static_cast<int>(o.responses.size()), 0);
  for (size_t i = 0; i < o.responses.size(); ++i) {
    lua_pushlstring(L, o.responses[i].data(), o.responses[i].size());
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
  lua_setfield(L, -2, "responses");
  SetNumber(L, "duration_ms", o.duration_ms);
  SetNumber(L, "handler_ms", o.handler_ms);
  SetNumber(L, "max_memory_mb", static_cast<double>(o.max_memory_mb));
  SetBool(L, "cold_start", o.cold_start);
  SetNumber(L, "init_ms", o.init_ms);
  SetString(L, "log_stream_name", o.log_stream_name);
  return 1;
}

// decode_json(text) -> value, or nil and why: the payloads and response
// bodies run() hands back are JSON text.
int DecodeJson(lua_State* L) {
  size_t n = 0;
  const char* text = luaL_checklstring(L, 1, &n);
  Value v;
  Status s = ParseJson(std::string_view(text, n), &v);
  std::string error;
  if (s.ok() && PushValue(L, v, MarshalOptions(), &error)) return 1;
  lua_pushnil(L);
  std::string why = s.ok() ? error : s.message();
  // A payload is not a template: the parser's "Template format error: "
  // prefix would name one in Lambda's message.
  constexpr std::string_view kTemplatePrefix = "Template format error: ";
  if (std::string_view(why).substr(0, kTemplatePrefix.size()) == kTemplatePrefix) why.erase(0, kTemplatePrefix.size());
  lua_pushlstring(L, why.data(), why.size());
  return 2;
}

int Enabled(lua_State* L) {
  lua_pushboolean(L, lambda::ExecutionEnabled());
  return 1;
}

int TimeoutMessage(lua_State* L) {
  const std::string m = lambda::TimeoutMessage(static_cast<int>(luaL_checkinteger(L, 1)));
  lua_pushlstring(L, m.data(), m.size());
  return 1;
}

// Where the runner table is kept: the registry, out of Lua's reach.
char g_runner_key;

// The one module file allowed to run functions: sim.lambda's Invoke.
constexpr std::string_view kRunnerUser = "/sim/lambda_invoke.lua";

// runner() -> the runner table, for sim.lambda's Invoke only: the Lua
// function calling it must be defined in providers/sim/lambda_invoke.lua.
int Runner(lua_State* L) {
  lua_Debug ar{};
  std::string_view source;
  if (lua_getstack(L, 1, &ar) != 0 && lua_getinfo(L, "S", &ar) != 0 && ar.source != nullptr) source = ar.source;
  const bool allowed = source.size() > kRunnerUser.size() && source[0] == '@' &&
                       source.substr(source.size() - kRunnerUser.size()) == kRunnerUser;
  if (!allowed) return luaL_error(L, "%s", kRunnerReservedMessage);
  lua_pushlightuserdata(L, &g_runner_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  return 1;
}

// A table of `functions`, each closed over `world` (nullptr: none).
void PushFunctions(lua_State* L, const luaL_Reg* functions, World* world) {
  lua_newtable(L);
  for (const luaL_Reg* f = functions; f->name; ++f) {
    lua_pushlightuserdata(L, world);
    lua_pushcclosure(L, f->func, 1);
    lua_setfield(L, -2, f->name);
  }
}

}  // namespace

void OpenLambdaRunner(lua_State* L, World* world) {
  static const luaL_Reg kRunner[] = {
      {"run", Run}, {"timeout_message", TimeoutMessage}, {"decode_json", DecodeJson}, {nullptr, nullptr}};
  static const luaL_Reg kPublic[] = {{"enabled", Enabled}, {"runner", Runner}, {nullptr, nullptr}};
  lua_pushlightuserdata(L, &g_runner_key);
  PushFunctions(L, kRunner, world);
  lua_rawset(L, LUA_REGISTRYINDEX);
  PushFunctions(L, kPublic, world);
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "moonstack.lambda");
  lua_pop(L, 2);
}

}  // namespace ms::lua
