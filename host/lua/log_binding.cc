#include "lua/log_binding.h"

#include <lua.hpp>

#include <string>

#include "lua/runtime.h"

namespace ms::lua {
namespace {

int Write(lua_State* L) {
  auto* b = static_cast<LogBinding*>(lua_touserdata(L, lua_upvalueindex(1)));
  LogLevel level = LogLevel::kInfo;
  if (!ParseLogLevel(luaL_checkstring(L, 1), &level)) return luaL_argerror(L, 1, "DEBUG, INFO, WARN or ERROR");
  size_t len = 0;
  const char* text = luaL_checklstring(L, 2, &len);
  b->Write(level, std::string_view(text, len));
  return 0;
}

int Open(lua_State* L) {
  auto* b = static_cast<LogBinding*>(lua_touserdata(L, 1));
  lua_newtable(L);
  lua_pushlightuserdata(L, b);
  lua_pushcclosure(L, Write, 1);
  lua_setfield(L, -2, "write");
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "moonstack.host_log");
  return 0;
}

}  // namespace

Status LogBinding::Install(Runtime* rt, Sink sink, std::unique_ptr<LogBinding>* out) {
  auto b = std::unique_ptr<LogBinding>(new LogBinding(std::move(sink)));
  if (lua_cpcall(rt->state(), Open, b.get()) != 0) {
    std::string message = lua_tostring(rt->state(), -1) ? lua_tostring(rt->state(), -1) : "error";
    lua_pop(rt->state(), 1);
    return Status::Internal("cannot install moonstack.host_log: " + message);
  }
  *out = std::move(b);
  return Status::OK();
}

}  // namespace ms::lua
